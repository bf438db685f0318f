//! The checks every lifted function must pass, and the fuzz target's body
//! (`fuzz/fuzz_targets/wasm.rs` calls [`fuzz_smith`], which makes a
//! `wasm-smith` module of the fuzzer's bytes; the corpus and hostile tests
//! use the same checks).

use crate::lift::{lift, ModuleSymbols};
use crate::module;
use ssakit::construct::{self, Flavor};
use ssakit::destruct::DestructOptions;
use ssakit::ir::{Function, Module};
use ssakit::opt::Pass;
use ssakit::pipeline::{Flavors, Pipeline};
use ssakit::text::{parse_module, print_function, print_module};

/// What every lifted function must satisfy: its text parses back to the
/// same IR; it constructs in every flavour and verifies; the chosen
/// flavour goes through `copy-prop,const-prop,dce` and destruction (the
/// core's [pipeline](ssakit::pipeline)), and the result's text is a fixed
/// point of print and parse. Returns the phi counts per flavour, or the
/// failing stage and why.
///
/// ```
/// # use ssakit_wasm::module::{parse, to_binary};
/// # use ssakit_wasm::lift::{lift, ModuleSymbols};
/// let wasm = to_binary(b"(module (func (param i32) (result i32) (local i32)
///     (if (local.get 0) (then (local.set 1 (i32.const 1))) (else (local.set 1 (i32.const 2))))
///     local.get 1))").unwrap();
/// let m = parse(&wasm).unwrap();
/// let f = lift(&m, &ModuleSymbols::new(&m), &m.bodies[0]).unwrap().func;
/// let [minimal, semi_pruned, pruned] = ssakit_wasm::check::check_function(&f).unwrap();
/// assert!(minimal >= semi_pruned && semi_pruned >= pruned && pruned >= 1);
/// ```
pub fn check_function(f: &Function) -> Result<[usize; 3], String> {
    let text = print_function(f);
    let decls = ssakit::text::print_declarations(&Module {
        functions: vec![f.clone()],
    });
    let src = format!("{decls}{text}");
    let parsed = parse_module(&src)
        .map_err(|d| format!("parse: {}", d.render("lifted", &src)))?
        .functions
        .remove(0);
    if &parsed != f {
        return Err(format!("round trip: the text parses to another IR\n{src}"));
    }
    // The pruned flavour (the last built) goes on; destruction checks the
    // passes' output.
    let run = Pipeline {
        construct: construct::Options {
            flavor: Flavor::Pruned,
            ..Default::default()
        },
        flavors: Flavors::All,
        verify: true,
        passes: Pass::parse("copy-prop,const-prop,dce").expect("known passes"),
        destruct: Some(DestructOptions::default()),
    };
    let out = run.run(parsed).map_err(|e| e.to_string())?;
    let phis = out
        .phis
        .to_array()
        .map(|p| p.expect("all three flavours built"));
    let m = Module {
        functions: vec![out.func],
    };
    let once = print_module(&m);
    let again = parse_module(&once)
        .map_err(|d| format!("parse after destruct: {}", d.render("destructed", &once)))?;
    if print_module(&again) != once {
        return Err("after destruct: print and parse is not a fixed point".into());
    }
    Ok(phis)
}

/// The fuzz target's body: `bytes` as a module; if it validates, every
/// function must lift and pass [`check_function`]; if not, the error must
/// have a byte offset or a line and column. Panics on any violation.
///
/// ```
/// use ssakit_wasm::check::fuzz_module;
/// fuzz_module(b"(module (func (result i32) i32.const 1))"); // lifts and checks
/// fuzz_module(b"(module (func (result i32) i64.const 1))"); // invalid: located
/// fuzz_module(b"\0asm garbage"); // malformed: located
/// ```
pub fn fuzz_module(bytes: &[u8]) {
    let binary = match module::to_binary(bytes) {
        Ok(b) => b,
        Err(e) => {
            assert!(e.line_col.is_some() || e.offset.is_some(), "{e}");
            return;
        }
    };
    let m = match module::parse(&binary) {
        Ok(m) => m,
        Err(e) => {
            assert!(e.offset.is_some(), "{e}");
            return;
        }
    };
    let syms = ModuleSymbols::new(&m);
    for body in &m.bodies {
        match lift(&m, &syms, body) {
            Ok(l) => {
                if let Err(e) = check_function(&l.func) {
                    panic!("function {}: {e}", body.index);
                }
            }
            Err(e) => assert!(e.offset.is_some() && e.func.is_some(), "{e}"),
        }
    }
}

/// wasm-smith's configuration for the features ssakit accepts
/// (WebAssembly 2.0: no exceptions, GC, memory64, relaxed SIMD, tail
/// calls, threads, wide arithmetic, extended constants, custom page
/// sizes; one memory; at least one function).
///
/// ```
/// let c = ssakit_wasm::check::smith_config();
/// assert!(!c.gc_enabled && !c.tail_call_enabled);
/// assert_eq!((c.max_memories, c.min_funcs), (1, 1));
/// ```
#[cfg(feature = "smith")]
pub fn smith_config() -> wasm_smith::Config {
    wasm_smith::Config {
        exceptions_enabled: false,
        gc_enabled: false,
        memory64_enabled: false,
        relaxed_simd_enabled: false,
        tail_call_enabled: false,
        threads_enabled: false,
        wide_arithmetic_enabled: false,
        extended_const_enabled: false,
        custom_page_sizes_enabled: false,
        compact_imports_enabled: false,
        max_memories: 1,
        min_funcs: 1,
        ..Default::default()
    }
}

/// The fuzz target's body: a `wasm-smith` module ([`smith_config`]) made
/// of `data` through [`fuzz_module`]. Returns the module's bytes (`None`
/// when `data` makes none).
///
/// ```
/// let bytes = ssakit_wasm::check::fuzz_smith(&[7; 256]).unwrap();
/// assert!(bytes.starts_with(b"\0asm"));
/// ```
#[cfg(feature = "smith")]
pub fn fuzz_smith(data: &[u8]) -> Option<Vec<u8>> {
    let mut u = arbitrary::Unstructured::new(data);
    let m = wasm_smith::Module::new(smith_config(), &mut u).ok()?;
    let bytes = m.to_bytes();
    fuzz_module(&bytes);
    Some(bytes)
}
