//! ssakit's interpreter against a real engine (issue 40, item 6): random
//! `wasm-smith` modules, lifted onto the [operation
//! set](ssakit::ir::Opcode), run by ssakit's interpreter with their
//! meaning, against `wasmi` running the original module.
//!
//! Every module is run in these versions, each by its own interpreter on
//! its own memory and globals ([`ssakit_wasm::state::initial_state`]):
//! the lifted functions (not in SSA form); each flavour of SSA (minimal,
//! semi-pruned, pruned); pruned SSA after `copy-prop,const-prop,dce`; and
//! every destruction mode of `wasm opt` (`support/modes.rs`: construction,
//! passes, destruction, in the IR). Every exported function is called
//! with the argument vectors of the engine differential; after each call
//! the results (by bits), the trap (by kind) and the memory and globals
//! must equal wasmi's.
//!
//! What is not compared, counted and printed: a function the interpreter
//! cannot run (an operation left generic, such as `call_indirect`, the
//! bulk memory and table operations, or a `v128` or reference variable),
//! or one that calls such a function; a module whose memory or globals the
//! interpreter cannot hold, or whose start function it cannot run; and the
//! calls after one that ran out of fuel or stack on either side (the
//! states may differ from there). A fixed seed; `SSAKIT_INTERP_SMITH=N`
//! modules, 150 by default (`.ci/run` raises it).
#![cfg(feature = "smith")]

#[path = "support/engine.rs"]
mod engine;
#[path = "support/modes.rs"]
mod modes;
#[path = "support/outcome.rs"]
mod outcome;
#[path = "support/seeded.rs"]
mod seeded;
mod support;

use outcome::{key, Outcome};
use ssakit::construct::{self, Flavor};
use ssakit::destruct::destruct;
use ssakit::interp::{ErrorKind, Interpreter, Mode, RunOptions, State, Value};
use ssakit::ir::{Function, InstData, OpTrap};
use ssakit::opt;
use std::collections::BTreeMap;
use wasmi::{Extern, Val, ValType};
use wasmparser::{ExternalKind, Parser, Payload};

/// Steps of one call in ssakit's interpreter.
const FUEL: u64 = 400_000;

/// wasm-smith's modules of the engine differential, without SIMD, bulk
/// memory and reference types (their operations are generic: functions
/// using them would all be skipped).
fn config(disallow_traps: bool) -> wasm_smith::Config {
    wasm_smith::Config {
        simd_enabled: false,
        bulk_memory_enabled: false,
        reference_types_enabled: false,
        ..engine::config(disallow_traps)
    }
}

/// What the run counted.
#[derive(Default, Debug)]
struct Tally {
    modules: usize,
    /// Modules not run, by reason.
    modules_skipped: BTreeMap<String, usize>,
    /// Exported functions run, and not run (by the first thing the
    /// interpreter refused in them or their callees).
    functions: usize,
    functions_skipped: BTreeMap<String, usize>,
    /// Calls compared (each in every version), of them traps.
    calls: usize,
    traps: usize,
    /// Calls not compared: out of fuel or stack on either side.
    out_of_fuel: usize,
    /// Steps the lifted functions ran in the calls compared.
    steps: u64,
}

/// The exported functions and globals of `bytes`: `(name, index)` each,
/// and the start function.
struct Exports {
    funcs: Vec<(String, u32)>,
    globals: Vec<(String, u32)>,
    start: Option<u32>,
}

fn exports(bytes: &[u8]) -> Exports {
    let mut e = Exports {
        funcs: Vec::new(),
        globals: Vec::new(),
        start: None,
    };
    for payload in Parser::new(0).parse_all(bytes) {
        match payload.unwrap() {
            Payload::ExportSection(r) => {
                for x in r {
                    let x = x.unwrap();
                    match x.kind {
                        ExternalKind::Func => e.funcs.push((x.name.to_string(), x.index)),
                        ExternalKind::Global => e.globals.push((x.name.to_string(), x.index)),
                        _ => {}
                    }
                }
            }
            Payload::StartSection { func, .. } => e.start = Some(func),
            _ => {}
        }
    }
    e
}

/// The versions of the lifted functions the interpreter runs: their
/// names and functions.
fn versions(lifted: &[Function]) -> Vec<(String, Vec<Function>)> {
    let mut out = vec![("lifted".to_string(), lifted.to_vec())];
    let each = |f: &dyn Fn(&mut Function)| -> Vec<Function> {
        lifted
            .iter()
            .map(|g| {
                let mut g = g.clone();
                f(&mut g);
                g
            })
            .collect()
    };
    for flavor in [Flavor::Minimal, Flavor::SemiPruned, Flavor::Pruned] {
        let o = construct::Options {
            flavor,
            ..Default::default()
        };
        out.push((
            format!("{flavor:?}"),
            each(&|g| {
                construct::construct(g, &o).unwrap();
            }),
        ));
    }
    let passes = opt::Pass::parse("copy-prop,const-prop,dce").unwrap();
    out.push((
        "pruned+passes".into(),
        each(&|g| {
            let o = construct::Options {
                flavor: Flavor::Pruned,
                ..Default::default()
            };
            construct::construct(g, &o).unwrap();
            opt::run_passes(g, &passes).unwrap();
        }),
    ));
    for (name, opts) in modes::modes() {
        out.push((
            format!("destructed {name}"),
            each(&|g| {
                construct::construct(g, &opts.construct).unwrap();
                if !opts.passes.is_empty() {
                    opt::run_passes(g, &opts.passes).unwrap();
                }
                destruct(g, &opts.destruct).unwrap_or_else(|e| panic!("{}", e.describe(g)));
            }),
        ));
    }
    out
}

/// For each function, why the interpreter cannot run it or a function it
/// calls (`None`: it runs).
fn refusals(lifted: &[Function]) -> Vec<Option<String>> {
    // What the interpreter refuses in each function itself: translate the
    // functions it has not refused yet, all together (so that calls
    // resolve), until it takes them all.
    let mut alone: Vec<Option<String>> = vec![None; lifted.len()];
    loop {
        let rest = lifted
            .iter()
            .zip(&alone)
            .filter(|(_, r)| r.is_none())
            .map(|(f, _)| f);
        let Err(e) = Interpreter::with_mode(rest, Mode::Strict) else {
            break;
        };
        let text = e.to_string();
        let culprit = match &e.location {
            Some(l) => lifted.iter().position(|f| f.name() == &*l.function),
            None => lifted
                .iter()
                .position(|f| text.contains(&format!("function {}:", f.name()))),
        };
        let k = culprit.unwrap_or_else(|| panic!("a refusal names its function: {text}"));
        alone[k] = Some(reason(&e.kind));
    }
    let index: BTreeMap<&str, usize> = lifted
        .iter()
        .enumerate()
        .map(|(k, f)| (f.name(), k))
        .collect();
    let callees: Vec<Vec<usize>> = lifted
        .iter()
        .map(|f| {
            let mut c = Vec::new();
            for b in f.blocks() {
                for &i in f.block_insts(b) {
                    if let InstData::Call { callee, .. } = f.inst(i) {
                        c.extend(index.get(f.callee_name(*callee)).copied());
                    }
                }
            }
            c
        })
        .collect();
    (0..lifted.len())
        .map(|k| {
            // The first refusal among the functions `k` reaches.
            let mut seen = vec![false; lifted.len()];
            let mut stack = vec![k];
            seen[k] = true;
            while let Some(g) = stack.pop() {
                if let Some(r) = &alone[g] {
                    return Some(r.clone());
                }
                for &h in &callees[g] {
                    if !std::mem::replace(&mut seen[h], true) {
                        stack.push(h);
                    }
                }
            }
            None
        })
        .collect()
}

/// A refusal, without the names of the program: the operation or type.
fn reason(kind: &ErrorKind) -> String {
    let text = kind.to_string();
    match text.find('`') {
        Some(a) => {
            let rest = &text[a + 1..];
            let name = &rest[..rest.find('`').unwrap_or(rest.len())];
            if text.contains("of type") {
                let t = text.rsplit("of type `").next().unwrap_or("");
                format!(
                    "a variable of type {}",
                    &t[..t.find('`').unwrap_or(t.len())]
                )
            } else if text.contains("operation") {
                format!("operation {name}")
            } else {
                text.clone()
            }
        }
        None => text,
    }
}

/// The bits of a wasmi value, as the interpreter holds them.
fn word(v: &Val) -> i64 {
    match v {
        Val::I32(x) => *x as i64,
        Val::I64(x) => *x,
        Val::F32(x) => x.to_bits() as i64,
        Val::F64(x) => x.to_bits() as i64,
        _ => 0,
    }
}

/// The interpreter's value as wasmi's [`key`] of a value of type `t`.
fn key_of(v: Value, t: ValType) -> Option<u128> {
    let Value::Int(w) = v else { return None };
    Some(match t {
        ValType::I32 | ValType::F32 => w as u32 as u128,
        _ => w as u64 as u128,
    })
}

/// wasmi's trap code for what the interpreter reported; `None` for out of
/// fuel or stack (not compared).
fn trap_code(kind: &ErrorKind) -> Option<String> {
    Some(
        match kind {
            ErrorKind::Trap { trap, .. } => match trap {
                OpTrap::DivisionByZero => "IntegerDivisionByZero",
                OpTrap::IntegerOverflow => "IntegerOverflow",
                OpTrap::InvalidConversion => "BadConversionToInteger",
                OpTrap::OutOfBounds => "MemoryOutOfBounds",
                OpTrap::Undef => "undef",
            },
            ErrorKind::Unreachable => "UnreachableCodeReached",
            ErrorKind::OutOfFuel { .. } | ErrorKind::CallDepthExceeded { .. } => return None,
            other => return Some(format!("error: {other}")),
        }
        .to_string(),
    )
}

/// One version under the interpreter: its interpreter (the functions it
/// runs), where each lifted function is in it, and its state.
struct Side<'m> {
    name: &'m str,
    interp: Interpreter<'m>,
    at: Vec<Option<usize>>,
    state: State,
}

/// Memory (non-zero bytes, size) and the exported globals' bits of wasmi's
/// instance.
fn wasmi_state(r: &engine::Running) -> (Vec<(u64, u8)>, usize, BTreeMap<String, u128>) {
    let mut bytes = Vec::new();
    let mut size = 0;
    let mut globals = BTreeMap::new();
    for (name, e) in &r.exports {
        match e {
            Extern::Memory(m) => {
                let d = m.data(&r.store);
                size = d.len();
                bytes = d
                    .iter()
                    .enumerate()
                    .filter(|(_, &b)| b != 0)
                    .map(|(k, &b)| (k as u64, b))
                    .collect();
            }
            Extern::Global(g) => {
                globals.insert(name.clone(), key(&g.get(&r.store)));
            }
            _ => {}
        }
    }
    (bytes, size, globals)
}

/// Runs one module; `Err` says the first difference.
fn check_module(bytes: &[u8], tally: &mut Tally) -> Result<(), String> {
    let skip = |tally: &mut Tally, why: String| {
        *tally.modules_skipped.entry(why).or_default() += 1;
        Ok(())
    };
    let state = match ssakit_wasm::state::initial_state(bytes) {
        Ok(s) => s,
        Err(e) => return skip(tally, format!("state: {}", e.message)),
    };
    let ex = exports(bytes);
    let lifted = support::lift_all(bytes).unwrap();
    let refused = refusals(&lifted);
    if let Some(s) = ex.start {
        if let Some(r) = &refused[s as usize] {
            return skip(tally, format!("start function: {r}"));
        }
    }
    let engine = engine::engine();
    let mut running = match engine::instantiate(&engine, bytes) {
        Ok(r) => r,
        Err(_) => return skip(tally, "instantiation traps or runs out of fuel".into()),
    };
    tally.modules += 1;
    let versions = versions(&lifted);
    let mut sides: Vec<Side<'_>> = Vec::new();
    for (name, funcs) in &versions {
        let runs: Vec<&Function> = funcs
            .iter()
            .zip(&refused)
            .filter(|(_, r)| r.is_none())
            .map(|(f, _)| f)
            .collect();
        let mut at = vec![None; funcs.len()];
        let mut n = 0;
        for (k, r) in refused.iter().enumerate() {
            if r.is_none() {
                at[k] = Some(n);
                n += 1;
            }
        }
        let interp = Interpreter::with_mode(runs, Mode::Strict)
            .unwrap_or_else(|e| panic!("{name}: what ran lifted must run: {e}"));
        sides.push(Side {
            name,
            interp,
            at,
            state: state.clone(),
        });
    }
    let opts = RunOptions {
        fuel: FUEL,
        ..RunOptions::default()
    };
    // The start function, which wasmi ran at instantiation.
    if let Some(s) = ex.start {
        for side in &mut sides {
            let f = side.at[s as usize].expect("runs");
            if let Err(e) = side.interp.run_in(f, &[], &mut side.state, &opts) {
                return skip(tally, format!("start function: {e}"));
            }
        }
    }
    // After a call that runs out of fuel or stack on either side, the
    // states may differ: every side starts again from these.
    let fresh: Vec<State> = sides.iter().map(|s| s.state.clone()).collect();
    let restart = |running: &mut engine::Running, sides: &mut [Side<'_>]| {
        *running = engine::instantiate(&engine, bytes).expect("instantiated before");
        for (side, f) in sides.iter_mut().zip(&fresh) {
            side.state = f.clone();
        }
    };
    // Each exported global: its value here and under wasmi.
    let globals_of = |state: &State, wasmi: &BTreeMap<String, u128>| -> Vec<(Option<i64>, i64)> {
        ex.globals
            .iter()
            .map(|(name, g)| {
                let ours = match state.globals.get(*g as usize) {
                    Some(Value::Int(w)) => Some(*w),
                    _ => None,
                };
                (ours, wasmi.get(name).copied().unwrap_or(u128::MAX) as i64)
            })
            .collect()
    };
    for (k, (name, index)) in ex.funcs.iter().enumerate() {
        let fi = *index as usize;
        if let Some(r) = &refused[fi] {
            *tally.functions_skipped.entry(r.clone()).or_default() += 1;
            continue;
        }
        tally.functions += 1;
        let pos = running
            .exports
            .iter()
            .position(|(n, _)| n == name)
            .expect("exported");
        let Extern::Func(func) = running.exports[pos].1 else {
            unreachable!()
        };
        let ty = func.ty(&running.store);
        let (params, results) = (ty.params().to_vec(), ty.results().to_vec());
        for args in engine::argument_vectors(&params) {
            let Some(want) = running.call(pos, &args) else {
                tally.out_of_fuel += 1;
                restart(&mut running, &mut sides);
                continue;
            };
            let (mem, size, wglobals) = wasmi_state(&running);
            let words: Vec<i64> = args.iter().map(word).collect();
            tally.calls += 1;
            tally.traps += usize::from(matches!(want, Outcome::Trap(_)));
            let _ = k;
            let mut exhausted = false;
            for side in &mut sides {
                let f = side.at[fi].expect("runs");
                let got = match side.interp.run_in(f, &words, &mut side.state, &opts) {
                    Ok(out) => {
                        if side.name == "lifted" {
                            tally.steps += out.dyn_insts;
                        }
                        let vals: Vec<Value> = out.ret.into_iter().chain(out.extra_rets).collect();
                        let keys: Option<Vec<u128>> = vals
                            .iter()
                            .zip(&results)
                            .map(|(&v, &t)| key_of(v, t))
                            .collect();
                        match keys {
                            Some(k) if vals.len() == results.len() => Outcome::Values(k),
                            _ => Outcome::Trap(format!("returned {vals:?}")),
                        }
                    }
                    Err(e) => match trap_code(&e.kind) {
                        Some(c) => Outcome::Trap(c),
                        None => {
                            exhausted = true;
                            break;
                        }
                    },
                };
                let call = format!("{}: {name}({args:?})", side.name);
                if got != want {
                    return Err(format!("{call}: {got:?}, wasmi {want:?}"));
                }
                let ours = side.state.memory.nonzero_bytes();
                let our_size = side.state.memory.size_pages() as usize * 65536;
                if ours != mem || our_size != size {
                    let first = ours.iter().zip(&mem).find(|(a, b)| a != b);
                    return Err(format!(
                        "{call}: memory differs ({} against {} non-zero bytes, \
                         size {our_size} against {size}; first difference {first:?})",
                        ours.len(),
                        mem.len()
                    ));
                }
                // An `i32` global is its low 32 bits (wasmi's key of it
                // is unsigned).
                let pairs = globals_of(&side.state, &wglobals);
                // A `v128` or reference global is `undef` here: not compared.
                let same = pairs.iter().all(|&(a, b)| match a {
                    Some(a) => a == b || a as u32 as i64 == b,
                    None => true,
                });
                if !same {
                    return Err(format!("{call}: globals (ours, wasmi) {pairs:?}"));
                }
            }
            if exhausted {
                tally.out_of_fuel += 1;
                restart(&mut running, &mut sides);
            }
        }
    }
    Ok(())
}

/// Modules of the fixed seed (by index) that wasmi 2.0 runs wrongly, so
/// they are not compared (the engine differential has its own list,
/// `WASMI_MISRUNS` in `wasmi_diff.rs`). Module 721: its export `""` on
/// `(0, 0, 0)` traps with `IntegerDivisionByZero` under wasmi, where node
/// 20 returns normally, as ssakit's interpreter does on every version.
/// Module 1493: after its first export on `0.0`, wasmi leaves 26.0 in
/// global `7`, where node leaves 0, as ssakit's interpreter does.
const WASMI_MISRUNS: &[usize] = &[721, 1493];

fn count() -> u64 {
    std::env::var("SSAKIT_INTERP_SMITH")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(150)
}

#[test]
fn the_interpreter_runs_lifted_modules_as_wasmi_runs_the_originals() {
    engine::big_stack(|| {
        let (modules, draws) = engine::smith_modules_with(count(), 0x1f2e_3d4c_5b6a_7988, config);
        let mut tally = Tally::default();
        let mut failures = Vec::new();
        for (k, m) in modules.iter().enumerate() {
            if WASMI_MISRUNS.contains(&k) {
                continue;
            }
            if let Err(e) = check_module(m, &mut tally) {
                failures.push(format!("module {k}: {e}"));
            }
        }
        eprintln!("{} modules of {draws} draws: {tally:#?}", modules.len());
        assert!(
            failures.is_empty(),
            "{} of {} modules differ:\n{}",
            failures.len(),
            modules.len(),
            failures.join("\n")
        );
        // The test compares something: most modules and many calls run.
        assert!(tally.modules * 2 > modules.len(), "{tally:#?}");
        assert!(tally.calls > tally.modules, "{tally:#?}");
    });
}

/// Operand values of type `t` that reach the edge cases: zeros, signs,
/// powers of two and their neighbours, NaN and infinities, the bounds
/// of the truncations, and a few others.
fn edge_values(t: ValType) -> Vec<Val> {
    let ints: [i64; 16] = [
        0,
        1,
        -1,
        2,
        7,
        31,
        32,
        33,
        63,
        64,
        0x80,
        0xff,
        0x8000,
        0x1234_5678_9abc_def0,
        i64::MIN,
        i64::MAX,
    ];
    let floats: [f64; 18] = [
        0.0,
        -0.0,
        1.0,
        -1.0,
        0.5,
        -0.5,
        1.5,
        2.5,
        -2.5,
        -0.999,
        2147483647.5,
        -2147483648.9,
        4294967295.9,
        9.3e18,
        1.8e19,
        f64::NAN,
        f64::INFINITY,
        f64::NEG_INFINITY,
    ];
    match t {
        ValType::I32 => ints
            .iter()
            .map(|&v| Val::I32(v as i32))
            .chain([Val::I32(i32::MIN), Val::I32(i32::MAX)])
            .collect(),
        ValType::I64 => ints.iter().map(|&v| Val::I64(v)).collect(),
        ValType::F32 => floats
            .iter()
            .map(|&v| Val::F32((v as f32).into()))
            .chain([
                Val::F32(f32::MIN_POSITIVE.into()),
                Val::F32(1e-45f32.into()),
            ])
            .collect(),
        _ => floats
            .iter()
            .map(|&v| Val::F64(v.into()))
            .chain([Val::F64(f64::MIN_POSITIVE.into()), Val::F64(5e-324.into())])
            .collect(),
    }
}

fn wat_type(t: ssakit::ir::Type) -> &'static str {
    use ssakit::ir::Type;
    match t {
        Type::I32 => "i32",
        Type::I64 => "i64",
        Type::F32 => "f32",
        _ => "f64",
    }
}

/// Every computing operation of the set, and every load and store, in a
/// one-instruction function, on every pair of edge values (every value for
/// one operand): the interpreter on the lifted function and wasmi on the
/// module give the same results (a NaN for a NaN), the same traps and, for
/// stores, the same memory. The evaluation of the table is exactly
/// WebAssembly's.
#[test]
fn every_operation_of_the_set_computes_as_wasmi_does() {
    use ssakit::ir::{Opcode, Slot};
    let engine = engine::engine();
    let opts = RunOptions::default();
    let mut runs = 0;
    for &op in Opcode::ALL.iter().filter(|op| op.is_webassembly()) {
        let access = op.access();
        let params: Vec<ssakit::ir::Type> = match op
            .params()
            .iter()
            .map(|s| match s {
                Slot::Is(t) => Some(*t),
                Slot::Address => Some(ssakit::ir::Type::I32),
                Slot::Any => None,
            })
            .collect::<Option<_>>()
        {
            Some(p) if op.num_imms() == 0 || access.is_some() => p,
            _ => continue, // select, globals, constants, memory size: lifted otherwise
        };
        let locals: String = (0..params.len())
            .map(|k| format!(" local.get {k}"))
            .collect();
        let ps: String = params
            .iter()
            .map(|&t| format!(" {}", wat_type(t)))
            .collect();
        let (result, instr) = match (op.result(), access) {
            (Some(Slot::Is(t)), Some(_)) => (
                format!("(result {})", wat_type(t)),
                format!("{op} offset=3"),
            ),
            (Some(Slot::Is(t)), None) => (format!("(result {})", wat_type(t)), op.to_string()),
            (None, _) => (String::new(), format!("{op} offset=5")),
            _ => continue,
        };
        let wat = format!(
            "(module (memory (export \"m\") 1) (data (i32.const 65000) \"\\01\\82\\f3\\74\\95\\06\\a7\\08\\09\\fa\\0b\")\n\
             (func (export \"f\") (param{ps}) {result}{locals} {instr}))"
        );
        let wasm = ssakit_wasm::module::to_binary(wat.as_bytes())
            .unwrap_or_else(|e| panic!("{wat}: {e}"))
            .to_vec();
        let lifted = support::lift_all(&wasm).unwrap();
        let interp = Interpreter::with_mode(&lifted, Mode::Strict).unwrap();
        let initial = ssakit_wasm::state::initial_state(&wasm).unwrap();
        // Addresses near the data and the end of memory; values of every
        // edge case.
        let columns: Vec<Vec<Val>> = params
            .iter()
            .enumerate()
            .map(|(k, &t)| match (access, k) {
                (Some(_), 0) => [0, 64994, 64996, 65525, 65528, 65530, 65533, -3]
                    .iter()
                    .map(|&a| Val::I32(a))
                    .collect(),
                _ => edge_values(match t {
                    ssakit::ir::Type::I32 => ValType::I32,
                    ssakit::ir::Type::I64 => ValType::I64,
                    ssakit::ir::Type::F32 => ValType::F32,
                    _ => ValType::F64,
                }),
            })
            .collect();
        let mut rows: Vec<Vec<Val>> = vec![Vec::new()];
        for col in &columns {
            rows = rows
                .iter()
                .flat_map(|r| {
                    col.iter().map(move |v| {
                        let mut r = r.clone();
                        r.push(v.clone());
                        r
                    })
                })
                .collect();
        }
        for args in rows {
            let mut running = engine::instantiate(&engine, &wasm).unwrap();
            let f = running.exports.iter().position(|(n, _)| n == "f").unwrap();
            let want = running.call(f, &args).expect("no fuel runs out");
            let mut state = initial.clone();
            let words: Vec<i64> = args.iter().map(word).collect();
            let got = match interp.run_in(0, &words, &mut state, &opts) {
                Ok(out) => match (out.ret, op.result()) {
                    (Some(v), Some(Slot::Is(t))) => {
                        let vt = match t {
                            ssakit::ir::Type::I32 => ValType::I32,
                            ssakit::ir::Type::I64 => ValType::I64,
                            ssakit::ir::Type::F32 => ValType::F32,
                            _ => ValType::F64,
                        };
                        Outcome::Values(vec![key_of(v, vt).expect("a value")])
                    }
                    _ => Outcome::Values(vec![]),
                },
                Err(e) => Outcome::Trap(trap_code(&e.kind).expect("no fuel runs out")),
            };
            let nan = |o: &Outcome| match (o, op.result()) {
                (Outcome::Values(v), Some(Slot::Is(ssakit::ir::Type::F32))) => {
                    v.len() == 1 && f32::from_bits(v[0] as u32).is_nan()
                }
                (Outcome::Values(v), Some(Slot::Is(ssakit::ir::Type::F64))) => {
                    v.len() == 1 && f64::from_bits(v[0] as u64).is_nan()
                }
                _ => false,
            };
            assert!(
                got == want || (nan(&got) && nan(&want)),
                "{op}{args:?}: ours {got:?}, wasmi {want:?}"
            );
            let (mem, _, _) = wasmi_state(&running);
            assert_eq!(state.memory.nonzero_bytes(), mem, "{op}{args:?}: memory");
            runs += 1;
        }
    }
    eprintln!("{runs} runs");
    assert!(runs > 10_000, "{runs}");
}
