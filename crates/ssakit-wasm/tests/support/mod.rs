//! Helpers of the front end's tests: lifting text or bytes, and the checks
//! every lifted function must pass.
#![allow(dead_code)]

use ssakit::construct::{self, Flavor, Options};
use ssakit::destruct::{destruct, DestructOptions};
use ssakit::ir::{Function, Module};
use ssakit::opt::{self, Pass};
use ssakit::text::{parse_module, print_function, print_module};
use ssakit_wasm::lift::{lift, ModuleSymbols};
use ssakit_wasm::module;
use ssakit_wasm::pipeline;
use ssakit_wasm::WasmError;

/// Every function of the module `bytes` (binary or text), lifted.
pub fn lift_all(bytes: &[u8]) -> Result<Vec<Function>, WasmError> {
    let binary = module::to_binary(bytes)?;
    let m = module::parse(&binary)?;
    let syms = ModuleSymbols::new(&m);
    Ok(pipeline::lift_module(&m, &syms)?
        .into_iter()
        .map(|l| l.func)
        .collect())
}

/// The lifted module of `wat`, which must lift.
pub fn lift_wat(wat: &str) -> Vec<Function> {
    lift_all(wat.as_bytes()).unwrap_or_else(|e| panic!("{e}"))
}

/// One function of `wat`, lifted.
pub fn lift_one(wat: &str, index: usize) -> Function {
    let binary = module::to_binary(wat.as_bytes()).unwrap();
    let m = module::parse(&binary).unwrap();
    let syms = ModuleSymbols::new(&m);
    lift(&m, &syms, &m.bodies[index]).unwrap().func
}

/// The module's text.
pub fn text(functions: Vec<Function>) -> String {
    print_module(&Module { functions })
}

/// What every lifted function must satisfy: its text parses back to the
/// same IR; it constructs in every flavour and verifies; the chosen
/// flavour goes through `copy-prop,const-prop,dce` and destruction, and
/// the result's text is a fixed point of print and parse. Returns the phi
/// counts per flavour, or the failing stage and why.
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
    let mut phis = [0; 3];
    let mut last = None;
    for (k, flavor) in [Flavor::Minimal, Flavor::SemiPruned, Flavor::Pruned]
        .into_iter()
        .enumerate()
    {
        let mut g = f.clone();
        let s = construct::construct(
            &mut g,
            &Options {
                flavor,
                ..Default::default()
            },
        )
        .map_err(|e| format!("construct {flavor:?}: {}", e.describe(f)))?;
        phis[k] = s.phis;
        ssakit::verify::verify_valid(&g)
            .map_err(|e| format!("verify {flavor:?}: {}", e[0].describe(&g)))?;
        last = Some(g);
    }
    let mut g = last.expect("three flavours");
    let passes = Pass::parse("copy-prop,const-prop,dce").unwrap();
    opt::run_passes(&mut g, &passes).map_err(|e| format!("opt: {}", e.describe(&g)))?;
    ssakit::verify::verify_valid(&g)
        .map_err(|e| format!("verify after opt: {}", e[0].describe(&g)))?;
    destruct(&mut g, &DestructOptions::default())
        .map_err(|e| format!("destruct: {}", e.describe(&g)))?;
    let m = Module { functions: vec![g] };
    let once = print_module(&m);
    let again = parse_module(&once)
        .map_err(|d| format!("parse after destruct: {}", d.render("destructed", &once)))?;
    if print_module(&again) != once {
        return Err("after destruct: print and parse is not a fixed point".into());
    }
    Ok(phis)
}

/// Where the corpus is (see `scripts/fetch-wasm-corpus.sh`).
pub fn corpus(name: &str) -> Option<Vec<u8>> {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../../target/wasm-corpus/").to_string() + name;
    match std::fs::read(&path) {
        Ok(b) => Some(b),
        Err(_) => {
            eprintln!("skipped: {path} is absent (run scripts/fetch-wasm-corpus.sh)");
            None
        }
    }
}
