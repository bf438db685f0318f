//! # ssakit-wasm
//!
//! The WebAssembly front end of ssakit: the chapter's algorithms on binary
//! code (section 13.8, "En binarios", read as WebAssembly first). A
//! module's functions are lifted into ssakit's IR, one non-SSA
//! [`Function`](ssakit::ir::Function) per function body, whose variables
//! are the function's locals and the values crossing control-flow merges;
//! construction, the optimisations and destruction then work on them like
//! on any program.
//!
//! * [`module`]: reading `.wasm`/`.wat`, validation, signatures, names.
//! * [`operators`]: every operator as a named operation with immediates
//!   and an effect class.
//! * [`lift`]: one function body → one function (the lifting rules).
//! * [`canonical`]: the lifted function numbered as the `.ssa` parser
//!   numbers it, so that its text parses back to the same IR.
//! * [`pipeline`]: every function in parallel through lift, construct,
//!   verify, optimise, destruct, with counts and times.
//! * [`emit`]: one destructed function → one function body (structured
//!   control flow, locals, operators).
//! * [`rewrite`]: the module round trip of `ssakit wasm opt`.
//! * [`check`]: what every lifted function must pass (the tests' and the
//!   fuzz target's oracle).
//! * [`error`]: errors located by byte offset and function index.
//!
//! ```
//! let wasm = ssakit_wasm::module::to_binary(b"(module (func (param i32) (result i32)
//!     local.get 0 i32.const 1 i32.add))").unwrap();
//! let m = ssakit_wasm::module::parse(&wasm).unwrap();
//! let syms = ssakit_wasm::lift::ModuleSymbols::new(&m);
//! let f = ssakit_wasm::lift::lift(&m, &syms, &m.bodies[0]).unwrap().func;
//! assert!(ssakit::text::print_function(&f).contains("i32.add(l0, 1)"));
//! ```
#![deny(missing_docs)]

pub mod canonical;
pub mod check;
mod duplicates;
pub mod emit;
pub mod error;
pub mod lift;
pub mod module;
pub mod operators;
pub mod pipeline;
pub mod program;
pub mod rewrite;
pub mod state;

pub use error::WasmError;
