//! The switches of a run: the [`Mode`] a program is translated in, and the
//! limits and recordings of [`RunOptions`].

/// What the interpreter does with what it has no semantics for: generic
/// operations (not of the [operation set](crate::ir::Opcode)) and
/// variables of types other than `i64`, `i32`, `f32`, `f64` and `bool`.
///
/// ```
/// use ssakit::interp::{Interpreter, Mode, RunOptions, Value};
/// use ssakit::text::parse_module;
/// let m = parse_module("operator i32.add pure\noperator h pure\n\nfunction main(a: i32) -> i32 {\nentry:\n    x: i32 = i32.add(a, 1)\n    y: i32 = h(x)\n    ret y\n}\n").unwrap();
/// assert!(Interpreter::new(&m).is_err()); // Mode::Strict refuses `h`
/// let i = Interpreter::with_mode(&m.functions, Mode::Uninterpreted).unwrap();
/// let r = |a| i.run(0, &[a], &RunOptions::default()).unwrap().ret;
/// assert_eq!(r(5), r(5)); // a fixed function of its arguments
/// assert!(matches!(r(5), Some(Value::Int(0..=999))));
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default)]
pub enum Mode {
    /// Run the operations of the set with their meaning, refuse the rest
    /// when translating (the default).
    #[default]
    Strict,
    /// Run generic operations (and loads, stores and globals) as
    /// uninterpreted functions, the computing operations of the set with
    /// their meaning, and accept variables of every type (see
    /// "Uninterpreted operations" in the module documentation).
    Uninterpreted,
}

/// Default step limit of [`RunOptions::fuel`].
pub const DEFAULT_FUEL: u64 = 100_000_000;
/// Default frame limit of [`RunOptions::max_depth`].
pub(crate) const DEFAULT_MAX_DEPTH: usize = 100_000;

/// Limits and switches of one run.
///
/// ```
/// use ssakit::interp::{run, RunOptions};
/// use ssakit::text::parse_module;
/// let m = parse_module("function main() {\nentry:\n    jump entry\n}\n").unwrap();
/// let opts = RunOptions { fuel: 1000, ..RunOptions::default() };
/// let err = run(&m, &m.functions[0], &[], &opts).unwrap_err();
/// assert!(err.to_string().contains("out of fuel after 1000 steps"));
/// ```
#[derive(Clone, Debug)]
pub struct RunOptions {
    /// Maximum number of steps (see the module documentation for the cost of
    /// each instruction).
    pub fuel: u64,
    /// Maximum number of simultaneously live frames, the entry's included.
    pub max_depth: usize,
    /// Record every external call in [`Outcome::calls`](super::Outcome::calls), and every
    /// uninterpreted operation that no pass may delete in [`Outcome::ops`](super::Outcome::ops).
    pub trace_calls: bool,
    /// Count the entries into every block in [`Outcome::block_visits`](super::Outcome::block_visits)
    /// (the Bril profile weighs them with the instructions of each block).
    pub count_blocks: bool,
    /// The mode [`run`](super::run) translates the program in ([`Interpreter::run`](super::Interpreter::run)
    /// runs in the mode its interpreter was made with).
    pub mode: Mode,
    /// Reading a variable that holds `undef` is an error
    /// ([`ErrorKind::UndefinedVariable`](super::ErrorKind::UndefinedVariable)), as in Bril (see the
    /// [semantics](super#semantics)); copies, phi arguments and parallel
    /// copies move `undef` without error.
    ///
    /// ```
    /// use ssakit::interp::{run, ErrorKind, RunOptions};
    /// use ssakit::text::parse_module;
    /// let m = parse_module("function main() {\nentry:\n    print x\n    ret\n}\n").unwrap();
    /// let strict = RunOptions { strict_reads: true, ..RunOptions::default() };
    /// let err = run(&m, &m.functions[0], &[], &strict).unwrap_err();
    /// assert_eq!(err.kind, ErrorKind::UndefinedVariable { name: "x".into() });
    /// assert!(run(&m, &m.functions[0], &[], &RunOptions::default()).is_ok()); // prints `undef`
    /// ```
    pub strict_reads: bool,
}

impl Default for RunOptions {
    fn default() -> Self {
        RunOptions {
            fuel: DEFAULT_FUEL,
            max_depth: DEFAULT_MAX_DEPTH,
            trace_calls: false,
            count_blocks: false,
            mode: Mode::Strict,
            strict_reads: false,
        }
    }
}
