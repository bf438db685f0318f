//! Item 4(b) of issue 13: generated `.ssa` programs of all eight shapes
//! (irreducible ones included) compiled by `program::emit_program` and run
//! under wasmi, against `ssakit run` on the same arguments: same printed
//! lines and return value, a trap where the interpreter fails; an `undef`
//! of the interpreter matches any value. `SSAKIT_EMIT_PROGRAMS=N` sets the
//! count (default 400).

#[path = "support/run_ssa.rs"]
mod run_ssa;

use run_ssa::{admits, run_wasm};
use ssakit::eval::Value;
use ssakit::gen::{generate, GenOptions, Shape};
use ssakit::interp::{run, RunOptions};
use ssakit::ir::Module;
use ssakit_wasm::program::emit_program;

#[test]
fn generated_programs_run_alike_under_wasmi() {
    let n: usize = std::env::var("SSAKIT_EMIT_PROGRAMS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(400);
    let (mut compared, mut traps) = (0usize, 0usize);
    // Per shape: programs, runs compared, and dispatchers added (the
    // irreducible ones need some).
    let mut per_shape = vec![(0usize, 0usize, 0usize); Shape::ALL.len()];
    for k in 0..n {
        let opts = GenOptions {
            shape: Shape::ALL[k % Shape::ALL.len()],
            blocks: 4 + (k * 7) % 37,
            vars: 2 + k % 4,
            seed: k as u64,
        };
        let f = generate(&opts);
        let m = Module { functions: vec![f] };
        let (wasm, stats) = emit_program(&m).unwrap_or_else(|e| panic!("{opts:?}: {e}"));
        let row = &mut per_shape[k % Shape::ALL.len()];
        row.0 += 1;
        row.2 += stats.dispatchers;
        for args in [[0i64, 0], [1, -1], [7, 3], [-20, 45]] {
            let args = &args[..m.functions[0].params().len().min(2)];
            let want = run(&m, &m.functions[0], args, &RunOptions::default());
            let nres = match &want {
                Ok(o) => usize::from(o.ret.is_some()) + o.extra_rets.len(),
                Err(_) => 0,
            };
            let got = run_wasm(&wasm, args, nres);
            let ctx = || {
                format!(
                    "{opts:?} on {args:?}\n{}",
                    ssakit::text::print_function(&m.functions[0])
                )
            };
            match (want, got) {
                (Ok(o), Ok((lines, rets))) => {
                    assert_eq!(o.output.len(), lines.len(), "{}", ctx());
                    for (w, g) in o.output.iter().zip(&lines) {
                        assert!(
                            w.len() == g.len() && w.iter().zip(g).all(|(w, &g)| admits(w, g)),
                            "{w:?} vs {g:?}: {}",
                            ctx()
                        );
                    }
                    let wr: Vec<Value> = o.ret.into_iter().chain(o.extra_rets).collect();
                    assert!(
                        wr.iter().zip(&rets).all(|(w, &g)| admits(w, g)),
                        "{wr:?} vs {rets:?}: {}",
                        ctx()
                    );
                    compared += 1;
                    per_shape[k % Shape::ALL.len()].1 += 1;
                }
                (Err(_), Err(e)) if e.starts_with("trap") => traps += 1,
                (w, g) => panic!("{:?} vs {g:?}: {}", w.map(|o| o.render()), ctx()),
            }
        }
    }
    eprintln!("{n} programs: {compared} runs compared, {traps} traps alike");
    for (shape, (programs, runs, dispatchers)) in Shape::ALL.iter().zip(&per_shape) {
        eprintln!(
            "  {shape}: {programs} programs, {runs} runs compared, {dispatchers} dispatchers"
        );
        if n >= 8 * Shape::ALL.len() {
            assert!(*runs > 0, "{shape}: no run compared");
        }
    }
    let irreducible = Shape::ALL
        .iter()
        .position(|&s| s == Shape::Irreducible)
        .unwrap();
    if n >= 8 * Shape::ALL.len() {
        assert!(per_shape[irreducible].2 > 0, "no irreducible program");
    }
    assert!(compared >= n * 2, "{compared}");
}

/// An `i64` selector outside `0..2^32` takes the default, as `ssakit run`
/// does, instead of wrapping into the table.
#[test]
fn wide_switch_selectors_take_the_default() {
    let src = "function main(k) {\nentry:\n    switch k, d, [a, b]\na:\n    ret 10\nb:\n    ret 20\nd:\n    ret 99\n}\n";
    let m = ssakit::text::parse_module(src).unwrap();
    let (wasm, _) = emit_program(&m).unwrap();
    for (k, want) in [
        (0, 10),
        (1, 20),
        (2, 99),
        (-1, 99),
        (1 << 32, 99),
        ((1 << 32) + 1, 99),
    ] {
        let (_, rets) = run_wasm(&wasm, &[k], 1).unwrap();
        assert_eq!(rets, vec![want], "selector {k}");
    }
}

/// `/` and `%` on their edge cases under wasmi against `ssakit run`: the
/// overflow `i64::MIN / -1` wraps to `i64::MIN` and `i64::MIN % -1` is 0
/// (as `run` computes them, not wasm's trap), a zero divisor traps on both
/// sides, and the ordinary cases truncate toward zero.
#[test]
fn division_edge_cases_match_run() {
    let src = "function main(a, b) {\nentry:\n    q = a / b\n    r = a % b\n    print q, r\n    ret q\n}\n";
    let m = ssakit::text::parse_module(src).unwrap();
    let (wasm, _) = emit_program(&m).unwrap();
    let (min, max) = (i64::MIN, i64::MAX);
    let mut traps = 0;
    for a in [min, min + 1, -7, -1, 0, 1, 7, max] {
        for b in [min, -7, -2, -1, 0, 1, 2, 7, max] {
            let want = run(&m, &m.functions[0], &[a, b], &RunOptions::default());
            let got = run_wasm(&wasm, &[a, b], 1);
            match (want, got) {
                (Ok(o), Ok((lines, rets))) => {
                    let q = a.wrapping_div(b);
                    let r = a.wrapping_rem(b);
                    assert_eq!(lines, vec![vec![q, r]], "{a} / {b}");
                    assert_eq!(rets, vec![q], "{a} / {b}");
                    assert_eq!(o.ret, Some(Value::Int(q)), "{a} / {b}");
                }
                (Err(_), Err(e)) if b == 0 && e.starts_with("trap") => traps += 1,
                (w, g) => panic!("{a} / {b}: {:?} vs {g:?}", w.map(|o| o.render())),
            }
        }
    }
    assert_eq!(traps, 8);
    // The overflow case on its own, so that the wrap is certainly seen.
    let (lines, _) = run_wasm(&wasm, &[min, -1], 1).unwrap();
    assert_eq!(lines, vec![vec![min, 0]]);
}

/// Issue 46 item 19: a family of programs whose entry block is a loop's
/// header and starts by zeroing variables, so the free-zero rule of the
/// emitter (`emit/zeros.rs`: a store of zero into a local still zero at
/// entry is left out) meets the case it must refuse: on the second trip
/// round the loop the local holds the last trip's value, not zero. The
/// generated programs never have this shape; each member runs under
/// wasmi against `ssakit run`.
#[test]
fn an_entry_that_is_a_loop_header_zeroes_its_variables_each_trip() {
    let mut compared = 0;
    for vars in 1..=4usize {
        for step in [1i64, 3, -2] {
            for extra in [false, true] {
                let names: Vec<String> = (0..vars).map(|k| format!("x{k}")).collect();
                let mut body = String::new();
                for x in &names {
                    body += &format!("    {x} = 0\n");
                }
                if extra {
                    body += "    print n\n";
                }
                for (k, x) in names.iter().enumerate() {
                    body += &format!("    {x} = {x} + {}\n", step * (k as i64 + 1));
                    body += &format!("    {x} = {x} * n\n");
                }
                let list = names.join(", ");
                let src = format!(
                    "function main(n) {{\ne:\n{body}    print {list}\n    n = n - 1\n    c = n > 0\n    branch c, e, o\no:\n    ret {}\n}}\n",
                    names[0]
                );
                let m = ssakit::text::parse_module(&src).unwrap();
                let (wasm, _) = emit_program(&m).unwrap_or_else(|e| panic!("{e}\n{src}"));
                for n in [1i64, 2, 5] {
                    let want = run(&m, &m.functions[0], &[n], &RunOptions::default())
                        .unwrap_or_else(|e| panic!("{e}\n{src}"));
                    let (lines, rets) = run_wasm(&wasm, &[n], 1).unwrap();
                    let want_lines: Vec<Vec<i64>> = want
                        .output
                        .iter()
                        .map(|l| {
                            l.iter()
                                .map(|v| match v {
                                    Value::Int(i) => *i,
                                    v => panic!("{v:?}"),
                                })
                                .collect()
                        })
                        .collect();
                    assert_eq!(lines, want_lines, "n = {n}\n{src}");
                    assert_eq!(
                        rets.first().copied(),
                        want.ret.and_then(|v| match v {
                            Value::Int(i) => Some(i),
                            _ => None,
                        }),
                        "n = {n}\n{src}"
                    );
                    compared += 1;
                }
            }
        }
    }
    assert_eq!(compared, 72);
}
