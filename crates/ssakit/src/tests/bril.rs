//! Bril programs (`examples/bril/`: ours, and Bril's own core benchmarks
//! in `core/`) through the interpreter and through every pipeline: the
//! output must be the expected output (`NAME.out`, that of Bril's
//! reference interpreter), and the instruction count `brili -p` gives
//! (`NAME.prof`) must be ours. Every intermediate program is also written
//! back as Bril (both SSA spellings, text and JSON), read again and run.

#![cfg(feature = "bril")]

use super::common;

use ssakit::bril::{self, SsaForm, Syntax};
use ssakit::construct::{self, Flavor, Options, UndefMode};
use ssakit::destruct::{self, DestructOptions};
use ssakit::interp::{Interpreter, Outcome, RunOptions};
use ssakit::ir::{Module, Type};
use ssakit::opt::Pass;
use std::path::{Path, PathBuf};

struct Case {
    name: String,
    src: String,
    args: Vec<String>,
    out: String,
    prof: Option<u64>,
}

fn cases() -> Vec<Case> {
    let root = PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/../../examples/bril"));
    let mut files: Vec<PathBuf> = Vec::new();
    for dir in [root.clone(), root.join("core")] {
        for e in std::fs::read_dir(&dir).unwrap() {
            let p = e.unwrap().path();
            if p.extension().is_some_and(|x| x == "bril") {
                files.push(p);
            }
        }
    }
    files.sort();
    assert!(files.len() >= 20, "the Bril examples are there");
    files.iter().map(|p| case(p)).collect()
}

fn case(p: &Path) -> Case {
    let src = std::fs::read_to_string(p).unwrap();
    let args = src
        .lines()
        .find_map(|l| l.trim_start_matches('#').trim().strip_prefix("ARGS:"))
        .map(|a| a.split_whitespace().map(str::to_string).collect())
        .unwrap_or_default();
    let out = std::fs::read_to_string(p.with_extension("out")).unwrap();
    let prof = std::fs::read_to_string(p.with_extension("prof"))
        .ok()
        .map(|s| {
            s.trim()
                .strip_prefix("total_dyn_inst: ")
                .unwrap()
                .parse()
                .unwrap()
        });
    Case {
        name: p.file_stem().unwrap().to_str().unwrap().to_string(),
        src,
        args,
        out,
        prof,
    }
}

/// Runs `main` as `ssakit run` runs a Bril program: its output, and the
/// instruction count by `costs` (when given).
fn run(m: &Module, args: &[String], costs: Option<&bril::Lowered>) -> (String, u64) {
    let interp = Interpreter::new(m).unwrap_or_else(|e| panic!("{e}"));
    let main = interp.function_index("main").expect("a main");
    let f = &m.functions[main];
    let args: Vec<i64> = args
        .iter()
        .zip(f.params())
        .map(|(a, &p)| match (f.var_type(p), a.as_str()) {
            (Type::Bool, "true") => 1,
            (Type::Bool, _) => 0,
            _ => a.parse().unwrap(),
        })
        .collect();
    let opts = RunOptions {
        count_blocks: true,
        ..Default::default()
    };
    let mut o: Outcome = interp
        .run(main, &args, &opts)
        .unwrap_or_else(|e| panic!("{e}"));
    let n = costs.map_or(0, |l| bril::dyn_insts(&l.costs, &o.block_visits));
    o.ret = None;
    o.extra_rets.clear();
    (o.render(), n)
}

#[test]
fn every_program_prints_and_counts_as_brili() {
    for c in cases() {
        let l = bril::read(&c.src, Syntax::Text)
            .unwrap_or_else(|e| panic!("{}", e.render(&c.name, &c.src)));
        let (out, n) = run(&l.module, &c.args, Some(&l));
        assert_eq!(out, c.out, "{}", c.name);
        if let Some(p) = c.prof {
            assert_eq!(n, p, "{}: total_dyn_inst", c.name);
        }
    }
}

#[test]
fn text_to_json_to_text_gives_the_text_back() {
    for c in cases() {
        let tree = bril::parse(&c.src, Syntax::Text).unwrap();
        let text = bril::print(&tree, Syntax::Text);
        let json = bril::print(&tree, Syntax::Json);
        let back = bril::parse(&json, Syntax::Json).unwrap();
        assert_eq!(bril::print(&back, Syntax::Text), text, "{}", c.name);
        // And the printed text is the same program.
        let again = bril::parse(&text, Syntax::Text).unwrap();
        assert_eq!(bril::print(&again, Syntax::Json), json, "{}", c.name);
    }
}

/// Writes `m` as Bril in every spelling, reads each back and runs it.
fn through_bril(m: &Module, c: &Case, stage: &str) {
    for form in [SsaForm::SetGet, SsaForm::Phi] {
        for syntax in [Syntax::Text, Syntax::Json] {
            let text = bril::write(m, syntax, form)
                .unwrap_or_else(|e| panic!("{}: {stage}: {e:?}", c.name));
            let l = bril::read(&text, syntax).unwrap_or_else(|e| {
                panic!(
                    "{}: {stage}: {}\n{text}",
                    c.name,
                    e.render("emitted", &text)
                )
            });
            let (out, _) = run(&l.module, &c.args, None);
            assert_eq!(
                out, c.out,
                "{}: {stage} as Bril ({form:?}, {syntax:?})",
                c.name
            );
        }
    }
}

fn each_function(m: &mut Module, f: impl Fn(&mut ssakit::ir::Function)) {
    for func in &mut m.functions {
        f(func);
    }
}

#[test]
fn every_pipeline_keeps_the_output() {
    let lists: Vec<Vec<Pass>> = [
        "",
        "copy-prop",
        "dce",
        "const-prop",
        "copy-prop,dce",
        "copy-prop,const-prop,dce",
    ]
    .iter()
    .map(|l| {
        if l.is_empty() {
            Vec::new()
        } else {
            Pass::parse(l).unwrap()
        }
    })
    .collect();
    for c in cases() {
        let l = bril::read(&c.src, Syntax::Text).unwrap();
        let in_ssa = c.name.starts_with("ssa_");
        for flavor in [Flavor::Minimal, Flavor::SemiPruned, Flavor::Pruned] {
            for undef in [UndefMode::Operand, UndefMode::EntryDef, UndefMode::Local] {
                let stage = format!("{flavor:?} {undef:?}");
                let mut ssa = l.module.clone();
                if !in_ssa {
                    let opts = Options {
                        flavor,
                        undef,
                        ..Default::default()
                    };
                    each_function(&mut ssa, |f| {
                        construct::construct(f, &opts).unwrap();
                        ssakit::verify::verify_valid(f).unwrap();
                    });
                }
                assert_eq!(run(&ssa, &c.args, None).0, c.out, "{}: {stage}", c.name);
                through_bril(&ssa, &c, &stage);
                for passes in &lists {
                    let mut opt = ssa.clone();
                    each_function(&mut opt, |f| {
                        ssakit::opt::run_passes(f, passes).unwrap();
                        ssakit::verify::verify_valid(f).unwrap();
                    });
                    let stage = format!("{stage} | {passes:?}");
                    assert_eq!(run(&opt, &c.args, None).0, c.out, "{}: {stage}", c.name);
                    for (split, coalesce) in
                        [(true, true), (true, false), (false, true), (false, false)]
                    {
                        let mut out = opt.clone();
                        let d = DestructOptions {
                            split,
                            coalesce,
                            conventional: false,
                        };
                        each_function(&mut out, |f| {
                            destruct::destruct(f, &d).unwrap();
                        });
                        let stage = format!("{stage} | split {split} coalesce {coalesce}");
                        assert_eq!(run(&out, &c.args, None).0, c.out, "{}: {stage}", c.name);
                        if coalesce {
                            through_bril(&out, &c, &stage);
                        }
                    }
                }
                if in_ssa {
                    break;
                }
            }
            if in_ssa {
                break;
            }
        }
    }
}

/// A join with 50,000 predecessors, each giving `x` another constant: the
/// phi construction makes, written as 50,000 `set`s or one 50,000-label
/// `phi`, and read back. Linear work throughout (a search per operand
/// would be 2.5 billion steps).
#[test]
fn a_wide_join_is_written_and_read_in_linear_time() {
    const N: usize = 50_000;
    let mut src = String::from("@main(n: int) {\n");
    for k in 0..N {
        src.push_str(&format!(
            ".b{k}:\n  x: int = const {k};\n  c: bool = eq n x;\n  br c .join .b{}.next;\n.b{k}.next:\n",
            k
        ));
    }
    src.push_str("  x: int = const -1;\n.join:\n  print x;\n}\n");
    let l = bril::read(&src, Syntax::Text).unwrap();
    let mut m = l.module;
    construct::construct(
        &mut m.functions[0],
        &Options {
            flavor: Flavor::Pruned,
            ..Default::default()
        },
    )
    .unwrap();
    let join = m.functions[0].block_by_name("join").unwrap();
    assert_eq!(m.functions[0].block_phis(join).len(), 1);
    for form in [SsaForm::SetGet, SsaForm::Phi] {
        let text = bril::write(&m, Syntax::Text, form).unwrap();
        let back = bril::read(&text, Syntax::Text).unwrap();
        let f = &back.module.functions[0];
        let join = f.block_by_name("join").unwrap();
        assert_eq!(f.phi_args(f.block_phis(join)[0]).len(), N + 1, "{form:?}");
        for (arg, want) in [("12345", "12345\n"), ("-5", "-1\n")] {
            let (out, _) = run(&back.module, &[arg.to_string()], None);
            assert_eq!(out, want, "{form:?}");
        }
    }
}

/// The table of docs/bril.md: `total_dyn_inst` of each program with a `.prof`
/// (brili's count of the original), and after `construct --flavor pruned
/// | opt --passes copy-prop,const-prop,dce | destruct` written as Bril
/// and read back (the count brili gives the emitted program; the
/// programs already in SSA skip `construct`), with the ratio, then the
/// geometric mean and the worst ratio (`tests/golden/bril_dyn.txt`).
#[test]
fn dynamic_instructions_after_the_pipeline() {
    let passes = Pass::parse("copy-prop,const-prop,dce").unwrap();
    let mut table = String::from("program original pipeline ratio\n");
    let (mut log_sum, mut n, mut worst) = (0.0f64, 0, (0.0f64, String::new()));
    for c in cases() {
        let Some(original) = c.prof else { continue };
        let mut m = bril::read(&c.src, Syntax::Text).unwrap().module;
        for f in &mut m.functions {
            if !c.name.starts_with("ssa_") {
                let o = Options {
                    flavor: Flavor::Pruned,
                    ..Default::default()
                };
                construct::construct(f, &o).unwrap();
            }
            ssakit::opt::run_passes(f, &passes).unwrap();
            destruct::destruct(f, &DestructOptions::default()).unwrap();
        }
        let text = bril::write(&m, Syntax::Text, SsaForm::SetGet).unwrap();
        let back = bril::read(&text, Syntax::Text).unwrap();
        let (out, after) = run(&back.module, &c.args, Some(&back));
        assert_eq!(out, c.out, "{}", c.name);
        let ratio = after as f64 / original as f64;
        table.push_str(&format!("{} {original} {after} {ratio:.3}\n", c.name));
        log_sum += ratio.ln();
        n += 1;
        if ratio > worst.0 {
            worst = (ratio, c.name.clone());
        }
    }
    table.push_str(&format!(
        "geometric mean {:.3} over {n}, worst {:.3} ({})\n",
        (log_sum / n as f64).exp(),
        worst.0,
        worst.1
    ));
    common::golden("bril_dyn.txt", &table);
}

/// `examples/bril/swap_loop.bril` in pruned SSA, written in both spellings,
/// and after the full pipeline: the swap's parallel copy sequentialized
/// through a temporary (`tests/golden/swap_loop.*.bril`).
#[test]
fn swap_loop_as_bril_golden() {
    let src = common::example("bril/swap_loop.bril");
    let mut m = bril::read(&src, Syntax::Text).unwrap().module;
    let opts = Options {
        flavor: Flavor::Pruned,
        ..Default::default()
    };
    construct::construct(&mut m.functions[0], &opts).unwrap();
    common::golden(
        "swap_loop.pruned.set.bril",
        &bril::write(&m, Syntax::Text, SsaForm::SetGet).unwrap(),
    );
    common::golden(
        "swap_loop.pruned.phi.bril",
        &bril::write(&m, Syntax::Text, SsaForm::Phi).unwrap(),
    );
    let f = &mut m.functions[0];
    ssakit::opt::run_passes(f, &Pass::parse("copy-prop,const-prop,dce").unwrap()).unwrap();
    destruct::destruct(f, &DestructOptions::default()).unwrap();
    common::golden(
        "swap_loop.pipeline.bril",
        &bril::write(&m, Syntax::Text, SsaForm::SetGet).unwrap(),
    );
}
