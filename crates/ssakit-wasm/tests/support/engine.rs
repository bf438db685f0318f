//! wasmi and wasm-smith for the tests that run modules under a real engine
//! (`wasmi_diff.rs`, `interp_wasmi.rs`): the configuration of the random
//! modules, instantiation with fuel, calls and their outcomes, argument
//! vectors.
#![allow(dead_code)]

use super::outcome::{key, Outcome};
use super::seeded;
use wasmi::{Config, Engine, Extern, Linker, Module, Store, Val};

/// Fuel of one call (and of instantiation, with its start function).
pub const FUEL: u64 = 100_000;

/// wasm-smith's configuration: the features ssakit accepts (SIMD
/// included: wasmi is built with it here), with deterministic semantics; with
/// `disallow_traps` (every other module), wasm-smith guards the operations
/// that could trap, so that calls run further and return values.
pub fn config(disallow_traps: bool) -> wasm_smith::Config {
    wasm_smith::Config {
        disallow_traps,
        canonicalize_nans: true,
        export_everything: true,
        max_imports: 0,
        simd_enabled: true,
        max_memory32_bytes: 1 << 20,
        min_funcs: 4,
        ..ssakit_wasm::check::smith_config()
    }
}

/// An instantiated module: its store and its exports.
pub struct Running {
    pub store: Store<()>,
    pub exports: Vec<(String, Extern)>,
}

/// Instantiates `bytes` (running its start function): `Err(None)` when
/// it ran out of fuel, `Err(Some(trap))` when it trapped.
pub fn instantiate(engine: &Engine, bytes: &[u8]) -> Result<Running, Option<String>> {
    let module = Module::new(engine, bytes).unwrap_or_else(|e| panic!("wasmi refuses it: {e}"));
    let mut store = Store::new(engine, ());
    store.set_fuel(FUEL).unwrap();
    let linker = <Linker<()>>::new(engine);
    let instance = linker
        .instantiate_and_start(&mut store, &module)
        .map_err(|e| trap(&e))?;
    let exports = instance
        .exports(&store)
        .map(|e| (e.name().to_string(), e.into_extern()))
        .collect();
    Ok(Running { store, exports })
}

/// A trap's code (`None` for out of fuel).
pub fn trap(e: &wasmi::Error) -> Option<String> {
    match e.as_trap_code() {
        Some(wasmi::TrapCode::OutOfFuel) => None,
        Some(c) => Some(format!("{c:?}")),
        // Other failures (e.g. an element segment out of its table at
        // instantiation) name the store: leave its number out.
        None => Some(without_store_ids(&format!("error: {e}"))),
    }
}

/// `text` with every `StoreId(N)` written `StoreId`.
pub fn without_store_ids(text: &str) -> String {
    let mut out = String::new();
    let mut rest = text;
    while let Some(at) = rest.find("StoreId(") {
        out.push_str(&rest[..at + "StoreId".len()]);
        rest = &rest[at + "StoreId(".len()..];
        rest = rest.trim_start_matches(|c: char| c.is_ascii_digit());
        rest = rest.strip_prefix(')').unwrap_or(rest);
    }
    out.push_str(rest);
    out
}

impl Running {
    /// Calls export `k` (a function) with `args`: `None` when it ran out
    /// of fuel.
    pub fn call(&mut self, k: usize, args: &[Val]) -> Option<Outcome> {
        let Extern::Func(f) = self.exports[k].1 else {
            unreachable!()
        };
        let ty = f.ty(&self.store);
        let mut results: Vec<Val> = ty
            .results()
            .iter()
            .map(|t| Val::default_for_ty(*t))
            .collect();
        self.store.set_fuel(FUEL).unwrap();
        match f.call(&mut self.store, args, &mut results) {
            Ok(()) => Some(Outcome::Values(results.iter().map(key).collect())),
            Err(e) => trap(&e).map(Outcome::Trap),
        }
    }

    /// The memories' contents and the globals' values, in export order.
    pub fn state(&self) -> Vec<Vec<u8>> {
        let mut out = Vec::new();
        for (_, e) in &self.exports {
            match e {
                Extern::Memory(m) => out.push(m.data(&self.store).to_vec()),
                Extern::Global(g) => out.push(key(&g.get(&self.store)).to_le_bytes().to_vec()),
                Extern::Table(t) => out.push(t.size(&self.store).to_le_bytes().to_vec()),
                Extern::Func(_) => {}
            }
        }
        out
    }
}

/// The argument vectors for parameters `params`: zeros, small values,
/// extreme values.
pub fn argument_vectors(params: &[wasmi::ValType]) -> Vec<Vec<Val>> {
    use wasmi::ValType as T;
    let mut out = Vec::new();
    for kind in 0..3 {
        let v = params
            .iter()
            .enumerate()
            .map(|(i, t)| {
                let i = i as i64;
                match (t, kind) {
                    (T::I32, 0) => Val::I32(0),
                    (T::I32, 1) => Val::I32(i as i32 + 1),
                    (T::I32, _) => Val::I32(if i % 2 == 0 { i32::MIN } else { -1 }),
                    (T::I64, 0) => Val::I64(0),
                    (T::I64, 1) => Val::I64(i + 2),
                    (T::I64, _) => Val::I64(if i % 2 == 0 { i64::MAX } else { i64::MIN }),
                    (T::F32, 0) => Val::F32(0.0f32.into()),
                    (T::F32, 1) => Val::F32((1.5f32 + i as f32).into()),
                    (T::F32, _) => Val::F32(f32::NEG_INFINITY.into()),
                    (T::F64, 0) => Val::F64(0.0f64.into()),
                    (T::F64, 1) => Val::F64((-2.25f64 + i as f64).into()),
                    (T::F64, _) => Val::F64(f64::MAX.into()),
                    (t, _) => Val::default_for_ty(*t),
                }
            })
            .collect();
        out.push(v);
    }
    out
}

/// The first `n` wasm-smith modules of the fixed seed that the front end
/// lifts (some draws make no module, and the front end refuses some), and
/// the number of draws it took.
pub fn smith_modules(n: u64) -> (Vec<Vec<u8>>, u64) {
    smith_modules_with(n, 0x2545_f491_4f6c_dd1d, config)
}

/// [`smith_modules`] from seed `state`, draw `k` made with
/// `config(k is odd)`.
pub fn smith_modules_with(
    n: u64,
    mut state: u64,
    config: impl Fn(bool) -> wasm_smith::Config,
) -> (Vec<Vec<u8>>, u64) {
    let mut out = Vec::new();
    let mut k = 0;
    while (out.len() as u64) < n {
        assert!(k < 4 * n + 100, "only {} of {k} draws lift", out.len());
        let draw = k;
        k += 1;
        let data = seeded::bytes(&mut state, 16_384);
        let mut u = arbitrary::Unstructured::new(&data);
        if let Ok(m) = wasm_smith::Module::new(config(draw % 2 == 1), &mut u) {
            // Only modules the front end lifts: it refuses, with an error,
            // what it does not support (typed function references, ...).
            let bytes = m.to_bytes();
            let lifts = ssakit_wasm::module::parse(&bytes).is_ok_and(|pm| {
                let syms = ssakit_wasm::lift::ModuleSymbols::new(&pm);
                ssakit_wasm::pipeline::lift_module(&pm, &syms).is_ok()
            });
            if lifts {
                out.push(bytes);
            }
        }
    }
    (out, k)
}

pub fn engine() -> Engine {
    let mut c = Config::default();
    c.consume_fuel(true);
    Engine::new(&c)
}

/// Runs `f` on a thread with a large stack (wasmi's executor and
/// translator need more than a test thread's 2 MiB on some modules).
pub fn big_stack(f: impl FnOnce() + Send + 'static) {
    std::thread::Builder::new()
        .stack_size(256 << 20)
        .spawn(f)
        .unwrap()
        .join()
        .unwrap_or_else(|e| std::panic::resume_unwind(e));
}
