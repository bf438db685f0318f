//! The interpreter: the oracle of every round trip.
//!
//! Every transformation in ssakit (construction, optimisation, destruction)
//! must leave a program's observable behaviour unchanged, and this module is
//! what checks it: run the program before and after, and compare the
//! [`Outcome`]s with [`outputs_match`]. It is therefore written to be simple
//! and obviously correct first, and fast enough for property tests second:
//! [`Interpreter::new`] translates each function once into dense tables
//! (variables are slot numbers, call targets are function indices, the phis
//! of every CFG edge are a precomputed parallel copy), so the inner loop does
//! no string lookups and no hashing. The translation is in `interp/compile.rs`,
//! the execution loop in `interp/machine.rs`, the errors in `interp/error.rs`,
//! the switches of a run in `interp/options.rs`, what it produces and the
//! comparison of two runs in `interp/outcome.rs`, the results of external
//! calls and uninterpreted operations in `interp/external.rs`.
//!
//! # Semantics
//!
//! * **Values and arithmetic** are those of [`crate::eval`]: a value is an
//!   integer or `undef` (the chapter's ⊥), and the operators, the way
//!   `undef` propagates through them and when they trap (division or
//!   remainder by 0, or by `undef`) are defined there, once, for the
//!   interpreter and constant propagation alike. Copies copy `undef`;
//!   `print` and `ret` show it as `undef`.
//! * **Uninitialised variables read as `undef`.** Every variable of a frame
//!   starts as `undef`, so a non-SSA program may read a variable on a path
//!   that never assigned it (the chapter's `x` on the path r→A→C) and get ⊥,
//!   exactly what SSA construction makes explicit with `undef` operands.
//!   With [`RunOptions::strict_reads`] (Bril's semantics, where `brili`
//!   stops with "undefined variable"), an instruction or terminator that
//!   reads a variable holding `undef` is an error instead
//!   ([`ErrorKind::UndefinedVariable`]); copies, phi arguments and parallel
//!   copies still move `undef` silently, as Bril's `id`, `set` and `phi` do
//!   (Bril's `ssa2.md`: the only thing one can do with an undef value is
//!   copy it). A copy of a variable never assigned is therefore not yet an
//!   error, where `brili` stops at once; the first other use is.
//! * **Branching or switching on `undef` is an error**: control flow must
//!   not depend on ⊥.
//! * **Phis** are evaluated when a block is entered along an edge from `P`:
//!   all the arguments labelled `P` are read first, then all the destinations
//!   written (simultaneous semantics, so two phis may swap values). A phi
//!   with no argument for `P` is an error; if it has several, the first one
//!   is used. A block with phis entered at function entry (the entry block)
//!   has no predecessor, which is the same error.
//! * **Parallel copies** read every source before writing any destination.
//! * **`switch v, D, [L0, ..., Ln-1]`** goes to `Li` if `0 <= v < n`, else
//!   to `D`.
//! * **Calls** to a function of the module bind its parameters to the
//!   arguments (an arity mismatch is an error) and run it in a new frame.
//!   Frames live on an explicit stack, so recursion as deep as the depth
//!   limit ([`RunOptions::max_depth`]) never touches the native stack. The
//!   values of the callee's `ret` are bound to the call's results in
//!   order: a call keeping no result ignores them, a callee that returns
//!   with a bare `ret` gives `undef` to every result, and any other
//!   difference in number is an error.
//! * **External calls.** A call to a name that is not a function of the
//!   module is an *uninterpreted external*: a pure, deterministic function of
//!   its name and arguments (see [`external_call_result`]):
//!
//!   ```text
//!   h = 0xcbf29ce484222325                      (FNV-1a 64-bit offset basis)
//!   for byte in name (UTF-8), then in each argument as 8 little-endian bytes:
//!       h = (h ^ byte) * 0x100000001b3  (mod 2^64)
//!   result = h % 1000                           (an Int in 0..=999)
//!   ```
//!
//!   If any argument is `undef` the result is `undef`, like any other
//!   operation: an original program that calls `f(undef)` must match a
//!   transformed one that happened to define the argument. The small range
//!   keeps printed values and later arithmetic readable. An external gives
//!   one value: a call of an external with several results is refused.
//! * **Fuel.** Every executed phi, ordinary instruction and terminator costs
//!   one step; a parallel copy costs one step per copy. A run that would
//!   exceed [`RunOptions::fuel`] steps stops with [`ErrorKind::OutOfFuel`],
//!   turning non-termination into an error. The steps taken are reported as
//!   [`Outcome::dyn_insts`] (the `--profile` count).
//! * **`unreachable`** is an error ([`ErrorKind::Unreachable`]) when
//!   executed.
//! * **Observable behaviour** is the list of printed lines, the entry
//!   function's return values, and (with [`RunOptions::trace_calls`]) the
//!   external calls made, each with its arguments and result.
//!   [`Interpreter::run_to`] hands the lines and calls to an [`Output`] as
//!   they happen, so that what a run printed before an error is not lost.
//! * **What it cannot run** it refuses when [`Interpreter::new`] translates
//!   the program, with an error naming the operation
//!   ([`ErrorKind::Unsupported`]): generic operations
//!   ([`InstData::Op`](crate::ir::InstData::Op)) that are not of the
//!   [operation set](crate::ir::Opcode), whose meaning the interpreter does
//!   not know, and variables of a type other than `i64`, `i32`, `f32`,
//!   `f64` and `bool` (a `bool` is computed on as 0 or 1, and `print` shows
//!   it `true` or `false`: [`Value::Bool`]); unless it runs them as
//!   uninterpreted functions, below.
//! * **The operation set** runs with its meaning ([`Opcode`](crate::ir::Opcode):
//!   how each type's bits are held in a value, the traps, an `undef`
//!   operand), its loads, stores and globals on the [`State`] given to
//!   [`Interpreter::run_in`] (an empty one otherwise: every access traps);
//!   a trap is [`ErrorKind::Trap`].
//!
//! # Uninterpreted operations
//!
//! Lifted code (WebAssembly, x86-64) holds operations whose meaning
//! the interpreter does not know: `x86.cpuid[..]`, `call_indirect[..]`. Their
//! *meaning* does not matter to the question a round trip asks, which is
//! whether construction, the passes and destruction fed every operation the
//! same values in the same order. [`Mode::Uninterpreted`]
//! ([`Interpreter::with_mode`], or [`RunOptions::mode`] for [`run`]) answers
//! it: every generic operation runs as an *uninterpreted function*, a
//! fixed hash of what it was given, and variables of every type hold such
//! values (an integer, as an `i64` does). The operations of the
//! [set](crate::ir::Opcode) that compute (arithmetic, comparisons,
//! conversions, `select`) keep their meaning, since constant propagation
//! folds them; where one would trap, it is the uninterpreted function
//! instead, so that a run goes on (constant propagation never folds an
//! evaluation that traps, and `dce` keeps what may trap). Loads, stores
//! and globals are uninterpreted (there is no memory in this mode):
//!
//! ```text
//! h = FNV-1a 64 over: the operator's name (UTF-8), each immediate as 8
//!     little-endian bytes, then, for an operator with an effect, the
//!     effect state (8 bytes), then each argument (8 bytes)
//! result k:  z = mix(FNV-1a 64 of h continued by k as 4 little-endian bytes)
//!            (mix: the splitmix64 finaliser)
//!            a bool result:  z & 1
//!            any other:      0 if z is even, else (z >> 1) % 1000
//! ```
//!
//! Half the non-`bool` results are 0, so that a branch on an uninterpreted
//! comparison goes both ways. The *effect state* starts as the FNV offset
//! basis. An operation that no pass may delete (its effects are not
//! removable (`Effects::removable_if_unused`): a write, a trap, a
//! call) replaces it with its own `h`, and with
//! [`RunOptions::trace_calls`] it is recorded in [`Outcome::ops`] with its
//! immediates, arguments and results; an operation that only reads takes the
//! state into its hash without changing it. So a load after a store sees the
//! store, and a transformation that reorders two effects, drops one or feeds
//! one a different value changes the trace. External calls take part too:
//! in this mode an external's hash starts from its name's continued by the
//! state, the call replaces the state with that hash continued by the
//! arguments, and a call with several results computes result `k ≥ 1` as
//! result 0 is computed, from the hash continued by `k` (8 little-endian
//! bytes) before the arguments.
//! An `undef` argument makes every result `undef` and the state `undef`
//! from then on (every later effect's results `undef`), so that a program
//! that refined ⊥ into a value still matches its original.
//!
//! One family keeps its meaning: `i32.eqz` and `i64.eqz` (one argument,
//! one result, no immediate) run as `!x` (1 if `x` is 0, else 0), because
//! a back end negates a branch's condition with them (`ssakit-wasm`'s
//! emitter writes `if; A; else; br L; end` as `i32.eqz; br_if L; A`): a
//! branch on `h` and one on `i32.eqz(h)` must go opposite ways, or the
//! round trip could not be compared.
//!
//! # The differential oracle
//!
//! A transformation may *refine* ⊥: SSA construction turns an uninitialised
//! read into an explicit `undef`, and out-of-SSA translation may drop an
//! `x = undef` copy so that `x` keeps whatever it held before. So
//! [`outputs_match`] lets an `undef` of the original match any value of the
//! transformed program, but a defined value of the original only itself.
//!
//! # Errors
//!
//! A [`RuntimeError`] names where it happened: the function, the block, and
//! the instruction's position in the block (0-based, phis first, then the
//! ordinary instructions) or the terminator:
//!
//! ```text
//! runtime error in function main, block loop, instruction 3: division by zero
//! ```

mod compile;
mod error;
mod external;
mod machine;
mod memory;
mod options;
mod outcome;

pub use crate::eval::Value;
pub use error::{ErrorKind, Location, Position, RuntimeError};
pub use external::{external_call_result, EXTERNAL_MODULUS};
pub use memory::{Memory, State, WASM_PAGE};
pub use options::{Mode, RunOptions, DEFAULT_FUEL};
pub use outcome::{first_difference, outputs_match, CallRecord, OpRecord, Outcome, Output};

use crate::ir::{Function, Module};
use compile::{CFunc, Compiler};
use error::malformed;
use outcome::Collect;
use rustc_hash::FxHashMap as HashMap;

/// A set of functions translated for execution, with call targets resolved.
/// Build it once, run it many times.
///
/// ```
/// use ssakit::interp::{Interpreter, RunOptions, Value};
/// use ssakit::text::parse_module;
/// let m = parse_module("function sq(x) {\nentry:\n    y = x * x\n    ret y\n}\n").unwrap();
/// let interp = Interpreter::new(&m).unwrap();
/// for n in 0..4 {
///     let out = interp.run(0, &[n], &RunOptions::default()).unwrap();
///     assert_eq!(out.ret, Some(Value::Int(n * n)));
/// }
/// ```
#[derive(Debug)]
pub struct Interpreter<'m> {
    funcs: Vec<CFunc<'m>>,
    by_name: HashMap<&'m str, u32>,
    mode: Mode,
}

impl<'m> Interpreter<'m> {
    /// Translates every function of `module`.
    ///
    /// # Errors
    /// What the interpreter cannot run ([`ErrorKind::Unsupported`], naming
    /// the operation or variable and where it is), or a malformed function
    /// ([`ErrorKind::Malformed`]: no blocks, a jump to no block).
    ///
    /// ```
    /// use ssakit::interp::Interpreter;
    /// use ssakit::text::parse_module;
    /// let m = parse_module("function f() {\nentry:\n    ret 1\n}\n").unwrap();
    /// assert_eq!(Interpreter::new(&m).unwrap().function_index("f"), Some(0));
    /// ```
    pub fn new(module: &'m Module) -> Result<Self, RuntimeError> {
        Self::from_functions(module.functions.iter())
    }

    /// Translates `funcs`; a call resolves to the first function of that name,
    /// any other callee is external.
    pub(crate) fn from_functions(
        funcs: impl IntoIterator<Item = &'m Function>,
    ) -> Result<Self, RuntimeError> {
        Self::with_mode(funcs, Mode::Strict)
    }

    /// Translates `funcs` in `mode` (see [`Mode`]); calls resolve as in
    /// `Interpreter::from_functions`.
    ///
    /// ```
    /// use ssakit::interp::{Interpreter, Mode, RunOptions};
    /// use ssakit::text::parse_module;
    /// let m = parse_module("operator load read\noperator store write\n\nfunction main(a) {\nentry:\n    x = load(a)\n    store(a, 1)\n    y = load(a)\n    ret x, y\n}\n").unwrap();
    /// let i = Interpreter::with_mode(&m.functions, Mode::Uninterpreted).unwrap();
    /// let out = i.run(0, &[2], &RunOptions { trace_calls: true, ..RunOptions::default() }).unwrap();
    /// assert_eq!(out.ops.len(), 1); // the store; loads only read the state
    /// // The second load sees the store: its hash includes the new state.
    /// # let _ = out.ret;
    /// ```
    pub fn with_mode(
        funcs: impl IntoIterator<Item = &'m Function>,
        mode: Mode,
    ) -> Result<Self, RuntimeError> {
        let funcs: Vec<&'m Function> = funcs.into_iter().collect();
        let mut by_name = HashMap::with_capacity_and_hasher(funcs.len(), Default::default());
        for (i, f) in funcs.iter().enumerate() {
            by_name.entry(f.name()).or_insert(i as u32);
        }
        let funcs = funcs
            .iter()
            .map(|&func| {
                Compiler {
                    func,
                    by_name: &by_name,
                    mode,
                }
                .function()
            })
            .collect::<Result<_, _>>()?;
        Ok(Interpreter {
            funcs,
            by_name,
            mode,
        })
    }

    /// The index of the function named `name`, for [`Interpreter::run`].
    ///
    /// ```
    /// use ssakit::interp::Interpreter;
    /// use ssakit::text::parse_module;
    /// let m = parse_module("function a() {\nentry:\n    ret\n}\n\nfunction b() {\nentry:\n    ret\n}\n").unwrap();
    /// let i = Interpreter::new(&m).unwrap();
    /// assert_eq!((i.function_index("b"), i.function_index("c")), (Some(1), None));
    /// ```
    pub fn function_index(&self, name: &str) -> Option<usize> {
        self.by_name.get(name).map(|&i| i as usize)
    }

    /// Runs function number `entry` on `args`.
    ///
    /// ```
    /// use ssakit::interp::{Interpreter, RunOptions};
    /// use ssakit::text::parse_module;
    /// let m = parse_module("function main(a, b) {\nentry:\n    c = a / b\n    ret c\n}\n").unwrap();
    /// let i = Interpreter::new(&m).unwrap();
    /// assert_eq!(i.run(0, &[7, 2], &RunOptions::default()).unwrap().render(), "=> 3\n");
    /// assert!(i.run(0, &[7, 0], &RunOptions::default()).is_err()); // division by zero
    /// assert!(i.run(5, &[], &RunOptions::default()).is_err()); // no function number 5
    /// ```
    pub fn run(
        &self,
        entry: usize,
        args: &[i64],
        opts: &RunOptions,
    ) -> Result<Outcome, RuntimeError> {
        self.run_in(entry, args, &mut State::default(), opts)
    }

    /// Runs function number `entry` on `args`, handing each printed line
    /// and traced call to `out` as it happens; the [`Outcome`]'s `output`
    /// and `calls` stay empty. After an error, `out` has had everything
    /// the run did before it.
    ///
    /// ```
    /// use ssakit::interp::{CallRecord, Interpreter, Output, RunOptions, Value};
    /// use ssakit::text::parse_module;
    /// struct Count(usize);
    /// impl Output for Count {
    ///     fn print(&mut self, _: &[Value]) {
    ///         self.0 += 1;
    ///     }
    ///     fn call(&mut self, _: CallRecord) {}
    /// }
    /// let m = parse_module("function main() {\nl:\n    print 1\n    jump l\n}\n").unwrap();
    /// let opts = RunOptions { fuel: 20, ..RunOptions::default() };
    /// let mut n = Count(0);
    /// assert!(Interpreter::new(&m).unwrap().run_to(0, &[], &opts, &mut n).is_err()); // out of fuel
    /// assert_eq!(n.0, 10); // each turn: a print and a jump
    /// ```
    pub fn run_to(
        &self,
        entry: usize,
        args: &[i64],
        opts: &RunOptions,
        out: &mut dyn Output,
    ) -> Result<Outcome, RuntimeError> {
        self.run_to_in(entry, args, &mut State::default(), opts, out)
    }

    /// Runs function number `entry` on `args` (each value's bits, see
    /// [the operation set](crate::ir::Opcode)) with the memory and
    /// globals of `state`, which the run's loads, stores and
    /// `global.set`s change: after the run (an error included), `state`
    /// holds what the program left there. [`Interpreter::run`] and
    /// [`Interpreter::run_to`] run on an empty [`State`] (a flat memory
    /// with nothing mapped, no globals).
    ///
    /// ```
    /// use ssakit::interp::{Interpreter, Memory, RunOptions, State, Value};
    /// use ssakit::text::parse_module;
    /// let src = "operator i64.store8 trap write\n\nfunction f(p) {\ne:\n    i64.store8[1, 0, 0](p, 258)\n    ret\n}\n";
    /// let m = parse_module(src).unwrap();
    /// let mut state = State { memory: Memory::linear(1, 1), ..State::default() };
    /// let i = Interpreter::new(&m).unwrap();
    /// i.run_in(0, &[10], &mut state, &RunOptions::default()).unwrap();
    /// assert_eq!(state.memory.nonzero_bytes(), [(11, 2)]);
    /// assert!(i.run_in(0, &[65535], &mut state, &RunOptions::default()).is_err()); // out of bounds
    /// ```
    pub fn run_in(
        &self,
        entry: usize,
        args: &[i64],
        state: &mut State,
        opts: &RunOptions,
    ) -> Result<Outcome, RuntimeError> {
        let mut collect = Collect::default();
        let mut outcome = self.run_to_in(entry, args, state, opts, &mut collect)?;
        outcome.output = collect.output;
        outcome.calls = collect.calls;
        outcome.ops = collect.ops;
        Ok(outcome)
    }

    /// [`Interpreter::run_in`], handing each printed line and traced call
    /// to `out` as [`Interpreter::run_to`] does.
    ///
    /// ```
    /// use ssakit::interp::{CallRecord, Interpreter, Memory, Output, RunOptions, State, Value};
    /// use ssakit::text::parse_module;
    /// struct Lines(Vec<String>);
    /// impl Output for Lines {
    ///     fn print(&mut self, line: &[Value]) {
    ///         self.0.push(format!("{line:?}"));
    ///     }
    ///     fn call(&mut self, _: CallRecord) {}
    /// }
    /// let src = "operator i64.load trap read\n\nfunction f() {\ne:\n    x = i64.load[0, 3](16)\n    print x\n    ret\n}\n";
    /// let m = parse_module(src).unwrap();
    /// let mut state = State { memory: Memory::linear(1, 1), ..State::default() };
    /// state.memory.write(16, &7i64.to_le_bytes()).unwrap();
    /// let mut lines = Lines(Vec::new());
    /// Interpreter::new(&m).unwrap().run_to_in(0, &[], &mut state, &RunOptions::default(), &mut lines).unwrap();
    /// assert_eq!(lines.0, ["[Int(7)]"]);
    /// ```
    pub fn run_to_in(
        &self,
        entry: usize,
        args: &[i64],
        state: &mut State,
        opts: &RunOptions,
        out: &mut dyn Output,
    ) -> Result<Outcome, RuntimeError> {
        if entry >= self.funcs.len() {
            return Err(malformed(format!("no function number {entry}")));
        }
        machine::execute(&self.funcs, self.mode, entry as u32, args, opts, out, state)
    }
}

/// Runs `entry` on `args`, calls resolving to the functions of `module`.
///
/// `entry` is normally one of `module`'s functions (for example
/// `module.entry_function(None)`); a function outside the module is run as
/// if appended to it (so `run(&Module::default(), &f, ...)` runs a lone `f`).
///
/// ```
/// use ssakit::interp::{run, RunOptions};
/// use ssakit::ir::{BinOp, FunctionBuilder, Module, Operand};
/// let mut b = FunctionBuilder::new("main");
/// let n = b.param("n");
/// let entry = b.block("entry");
/// b.switch_to(entry);
/// let x = b.var("x");
/// b.binary(x, BinOp::Mul, n.into(), Operand::Const(2));
/// b.print(&[x.into(), Operand::Undef]);
/// b.ret(Some(x.into()));
/// let module = Module { functions: vec![b.finish()] };
/// let main = module.entry_function(None).unwrap();
/// let out = run(&module, main, &[21], &RunOptions::default()).unwrap();
/// assert_eq!(out.render(), "42 undef\n=> 42\n");
/// assert_eq!(out.dyn_insts, 3);
/// ```
pub fn run(
    module: &Module,
    entry: &Function,
    args: &[i64],
    opts: &RunOptions,
) -> Result<Outcome, RuntimeError> {
    match module.functions.iter().position(|f| std::ptr::eq(f, entry)) {
        Some(i) => Interpreter::with_mode(&module.functions, opts.mode)?.run(i, args, opts),
        None => Interpreter::with_mode(module.functions.iter().chain([entry]), opts.mode)?.run(
            module.functions.len(),
            args,
            opts,
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::text::parse_module;

    fn run_text(src: &str, args: &[i64]) -> Result<Outcome, RuntimeError> {
        let m = parse_module(src).unwrap();
        let main = m.entry_function(None).unwrap();
        run(&m, main, args, &RunOptions::default())
    }

    /// `i32.eqz` and `i64.eqz` keep their meaning in the uninterpreted
    /// mode: a branch on `h` and one on `i32.eqz(h)` go opposite ways,
    /// whatever `h` (the emitter's negated `br_if` relies on it). With an
    /// immediate it is not that shape and stays a hash.
    #[test]
    fn eqz_is_a_negation_when_uninterpreted() {
        let src = "operator i32.eqz pure\noperator i64.eqz pure\noperator h pure\n\n\
                   function main(a: i32) -> (i32, i32, i32, i32) {\nentry:\n    \
                   x: i32 = h(a)\n    y: i32 = i32.eqz(x)\n    z: i32 = i64.eqz(a)\n    \
                   v: i32 = i32.eqz[1](a)\n    ret x, y, z, v\n}\n";
        let m = parse_module(src).unwrap();
        let i = Interpreter::with_mode(&m.functions, Mode::Uninterpreted).unwrap();
        let one = |b: bool| Value::Int(b as i64);
        let (mut h_zero, mut h_not, mut v_hash) = (false, false, false);
        for a in 0..64 {
            let out = i.run(0, &[a], &RunOptions::default()).unwrap();
            let x = out.ret.unwrap();
            let [y, z, v] = out.extra_rets[..] else {
                panic!("{out:?}")
            };
            assert_eq!(y, one(x == Value::Int(0)), "a = {a}");
            assert_eq!(z, one(a == 0), "a = {a}");
            h_zero |= x == Value::Int(0);
            h_not |= x != Value::Int(0);
            v_hash |= !matches!(v, Value::Int(0 | 1));
        }
        assert!(h_zero && h_not && v_hash);
    }

    #[test]
    fn what_it_cannot_run_is_refused_by_name() {
        let err = |src: &str| run_text(src, &[1]).unwrap_err().to_string();
        assert_eq!(
            err("operator h pure

function main(a) {
entry:
    print a
    x = h(a, a)
    ret
}
"),
            "runtime error in function main, block entry, instruction 1: \
             the interpreter cannot run operation `h`"
        );
        assert_eq!(
            err("function main(a) {
entry:
    x: v128 = undef
    ret
}
"),
            "runtime error in function main, block entry, instruction 0: \
             the interpreter cannot run variable `x` of type `v128` \
             (only `i64`, `i32`, `f32`, `f64` and `bool`)"
        );
        assert_eq!(
            err("function main(a) {
entry:
    (x, y) = ext(a)
    ret
}
"),
            "runtime error in function main, block entry, instruction 0: \
             the interpreter cannot run a call of external `ext` with 2 results \
             (an external gives one value)"
        );
    }

    #[test]
    fn unreachable_executed_is_an_error() {
        let e = run_text(
            "function main(a) {
entry:
    print a
    unreachable
}
",
            &[1],
        )
        .unwrap_err();
        assert_eq!(e.kind, ErrorKind::Unreachable);
        assert_eq!(
            e.to_string(),
            "runtime error in function main, block entry, terminator: unreachable executed"
        );
    }

    #[test]
    fn several_values_are_returned_and_bound() {
        let two = "
function two(a) {
entry:
    b = a + 1
    ret a, b
}

function none() {
entry:
    ret
}
";
        let out = run_text(
            &format!(
                "function main(a) {{
entry:
    (x, y) = two(a)
    (u, v) = none()
    print x, y, u, v
    ret y, x
}}
{two}"
            ),
            &[1],
        )
        .unwrap();
        assert_eq!(out.render(), "1 2 undef undef\n=> 2 1\n");
        assert_eq!(
            (out.ret, &out.extra_rets[..]),
            (Some(Value::Int(2)), &[Value::Int(1)][..])
        );
        let e = run_text(
            &format!(
                "function main(a) {{
entry:
    z = two(a)
    ret z
}}
{two}"
            ),
            &[1],
        )
        .unwrap_err();
        assert_eq!(
            e.to_string(),
            "runtime error in function main, block entry, instruction 0: \
             function two returned 2 values, the call takes 1"
        );
    }
}

#[cfg(test)]
mod uninterpreted_tests {
    use super::*;
    use crate::text::parse_module;

    const OPS: &str = "operator add pure
operator lt pure
operator load read
operator store write
operator div trap
";

    fn run_u(src: &str, args: &[i64]) -> Outcome {
        let m = parse_module(&format!("{OPS}\n{src}")).unwrap();
        let opts = RunOptions {
            trace_calls: true,
            mode: Mode::Uninterpreted,
            ..RunOptions::default()
        };
        run(&m, m.entry_function(None).unwrap(), args, &opts).unwrap()
    }

    #[test]
    fn results_are_fixed_functions_of_name_immediates_and_arguments() {
        let src = "function main(a: i32) -> i32 {
entry:
    x: i32 = add(a, 1)
    y: i32 = add(a, 1)
    z: i32 = add[3](a, 1)
    w: i32 = add(1, a)
    ret x, y, z, w
}
";
        let mut seen = std::collections::BTreeSet::new();
        for a in 0..200 {
            let out = run_u(src, &[a]);
            let vals: Vec<Value> = std::iter::once(out.ret.unwrap())
                .chain(out.extra_rets.iter().copied())
                .collect();
            assert_eq!(vals[0], vals[1], "the same inputs give the same result");
            seen.insert(vals[0].as_int().unwrap());
            for v in &vals {
                assert!(matches!(v, Value::Int(0..=999)), "{v}");
            }
            assert!(out.ops.is_empty(), "pure operations are not recorded");
        }
        // Half of the results are 0; the rest spread.
        assert!(seen.contains(&0) && seen.len() > 50, "{seen:?}");
        let differ = (0..50)
            .filter(|&a| {
                let out = run_u(src, &[a]);
                out.ret != Some(out.extra_rets[1]) && out.extra_rets[1] != out.extra_rets[2]
            })
            .count();
        assert!(differ > 10, "immediates and argument order change results");
    }

    #[test]
    fn bool_results_branch_both_ways() {
        let src = "function main(a) {
entry:
    c: bool = lt(a, 10)
    branch c, yes, no
yes:
    ret 1
no:
    ret 0
}
";
        let ones = (0..400)
            .filter(|&a| run_u(src, &[a]).ret == Some(Value::Int(1)))
            .count();
        assert!((120..280).contains(&ones), "{ones} of 400 took the branch");
    }

    #[test]
    fn effects_are_traced_in_order_and_loads_see_stores() {
        let src = "function main(a) {
entry:
    x = load(a)
    store(a, 5)
    y = load(a)
    q = div(a, a)
    ret x, y, q
}
";
        let out = run_u(src, &[7]);
        let trace: Vec<String> = out.ops.iter().map(|o| o.to_string()).collect();
        assert_eq!(trace.len(), 2, "{trace:?}");
        assert_eq!(trace[0], "store(7, 5)");
        assert!(trace[1].starts_with("div(7, 7) = "), "{trace:?}");
        let swapped = run_u(
            "function main(a) {
entry:
    x = load(a)
    q = div(a, a)
    store(a, 5)
    y = load(a)
    ret x, y, q
}
",
            &[7],
        );
        assert!(
            first_difference(&out, &swapped).is_some(),
            "reordering two effects is seen"
        );
        // Over inputs, the load after the store sees another state.
        let differ = (0..40)
            .filter(|&a| {
                let o = run_u(src, &[a]);
                o.ret != Some(o.extra_rets[0])
            })
            .count();
        assert!(differ > 5);
    }

    #[test]
    fn undef_poisons_the_results_and_the_state() {
        let src = "function main(a) {
entry:
    x: i32 = undef
    store(x, a)
    y = load(a)
    z = add(a, a)
    ret y, z
}
";
        let out = run_u(src, &[3]);
        assert_eq!(out.ret, Some(Value::Undef), "a load after an undef store");
        assert_ne!(
            out.extra_rets[0],
            Value::Undef,
            "pure operations of defined values"
        );
        assert_eq!(out.ops[0].to_string(), "store(undef, 3)");
    }

    #[test]
    fn externals_with_several_results_take_part_in_the_state() {
        let src = "function main(a) {
entry:
    (p, q) = ext(a)
    (r, s) = ext(a)
    ret p, q, r, s
}
";
        let out = run_u(src, &[3]);
        let vals: Vec<Value> = std::iter::once(out.ret.unwrap())
            .chain(out.extra_rets.iter().copied())
            .collect();
        assert!(vals.iter().all(|v| matches!(v, Value::Int(0..=999))));
        assert_eq!(out.calls.len(), 2);
        assert_ne!(
            (vals[0], vals[1]),
            (vals[2], vals[3]),
            "the second call sees the first one's state"
        );
    }
}
