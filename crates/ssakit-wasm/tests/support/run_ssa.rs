//! Running a module that `program::emit_program` made under wasmi, with
//! host functions for `print` and the externals (`emit_ssa.rs`,
//! `scale.rs`).
#![allow(dead_code)]

use ssakit::eval::Value;
use ssakit::interp::external_call_result;
use std::sync::{Arc, Mutex};
use wasmi::{Engine, Linker, Store, Val};

/// wasmi's fuel for one run of [`run_wasm`].
pub const FUEL: u64 = 50_000_000;

type Lines = Arc<Mutex<Vec<Vec<i64>>>>;

/// Printed lines and results of a run, or why it failed.
pub type RunResult = Result<(Vec<Vec<i64>>, Vec<i64>), String>;

/// Runs `main` of `wasm` on `args`: printed lines and results, or a trap.
pub fn run_wasm(wasm: &[u8], args: &[i64], nres: usize) -> RunResult {
    run_wasm_with(wasm, args, nres, FUEL)
}

/// [`run_wasm`] with `fuel`.
pub fn run_wasm_with(wasm: &[u8], args: &[i64], nres: usize, fuel: u64) -> RunResult {
    // Fuel bounds every run, so that a miscompiled program that never
    // terminates fails this test instead of hanging it.
    let mut config = wasmi::Config::default();
    config.consume_fuel(true);
    let engine = Engine::new(&config);
    let module = wasmi::Module::new(&engine, wasm).map_err(|e| format!("invalid module: {e}"))?;
    let lines: Lines = Arc::default();
    let mut store = Store::new(&engine, ());
    store.set_fuel(fuel).expect("fuel is on");
    let mut linker = Linker::<()>::new(&engine);
    for imp in module.imports() {
        let name = imp.name().to_string();
        let ty = imp.ty().func().expect("function import").clone();
        let lines = lines.clone();
        linker
            .func_new(
                "ssakit",
                &name.clone(),
                ty,
                move |_, ps: &[Val], rs: &mut [Val]| {
                    let vals: Vec<i64> = ps.iter().map(|p| p.i64().unwrap()).collect();
                    if name.starts_with("print_") {
                        lines.lock().unwrap().push(vals);
                    } else {
                        let a: Vec<Value> = vals.iter().map(|&v| Value::Int(v)).collect();
                        let Value::Int(r) = external_call_result(&name, &a) else {
                            panic!("external result")
                        };
                        rs[0] = Val::I64(r);
                    }
                    Ok(())
                },
            )
            .unwrap();
    }
    let inst = linker
        .instantiate_and_start(&mut store, &module)
        .map_err(|e| e.to_string())?;
    let f = inst.get_func(&store, "main").expect("main exported");
    let ps: Vec<Val> = args.iter().map(|&a| Val::I64(a)).collect();
    let mut rs = vec![Val::I64(0); nres];
    f.call(&mut store, &ps, &mut rs)
        .map_err(|e| format!("trap: {e}"))?;
    let out = lines.lock().unwrap().clone();
    Ok((out, rs.iter().map(|r| r.i64().unwrap()).collect()))
}

/// Whether the wasm value `got` is one the interpreter's `want` admits
/// (`undef` admits any).
pub fn admits(want: &Value, got: i64) -> bool {
    match *want {
        Value::Int(v) => v == got,
        Value::Undef => true,
        Value::Bool(b) => i64::from(b) == got,
    }
}
