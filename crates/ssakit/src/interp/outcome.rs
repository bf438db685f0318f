//! What a run produces: the printed lines, the return values and the
//! records of external calls and effectful operations ([`Outcome`]), the
//! [`Output`] they stream to, and the comparison of two outcomes that the
//! round-trip oracles rest on ([`outputs_match`]).

use super::Value;
use std::fmt;

/// One call to an uninterpreted external function.
///
/// ```
/// use ssakit::interp::{run, RunOptions};
/// use ssakit::text::parse_module;
/// let m = parse_module("function main(n) {\nentry:\n    r = ext(n)\n    ret r\n}\n").unwrap();
/// let opts = RunOptions { trace_calls: true, ..RunOptions::default() };
/// let out = run(&m, &m.functions[0], &[5], &opts).unwrap();
/// let call = &out.calls[0];
/// assert_eq!((&*call.func, call.args.len()), ("ext", 1));
/// assert_eq!(Some(call.result), out.ret);
/// assert_eq!(call.to_string(), format!("ext(5) = {}", call.result));
/// ```
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct CallRecord {
    /// The callee's name.
    pub func: Box<str>,
    /// The argument values.
    pub args: Vec<Value>,
    /// The result returned.
    pub result: Value,
}

impl fmt::Display for CallRecord {
    /// `name(a, b) = r`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}(", self.func)?;
        for (i, a) in self.args.iter().enumerate() {
            if i > 0 {
                f.write_str(", ")?;
            }
            write!(f, "{a}")?;
        }
        write!(f, ") = {}", self.result)
    }
}

/// One execution of an uninterpreted operation with an effect
/// ([`Mode::Uninterpreted`](super::Mode::Uninterpreted)).
///
/// ```
/// use ssakit::interp::{run, Mode, RunOptions};
/// use ssakit::text::parse_module;
/// let m = parse_module("operator store write\n\nfunction main(a) {\nentry:\n    store[8](a)\n    ret\n}\n").unwrap();
/// let opts = RunOptions { trace_calls: true, mode: Mode::Uninterpreted, ..RunOptions::default() };
/// let out = run(&m, &m.functions[0], &[3], &opts).unwrap();
/// assert_eq!(out.ops[0].to_string(), "store[8](3)");
/// ```
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct OpRecord {
    /// The operator's name.
    pub(crate) op: Box<str>,
    /// Its immediates.
    pub(crate) imms: Box<[i64]>,
    /// The argument values.
    pub(crate) args: Vec<Value>,
    /// The results computed.
    pub(crate) results: Vec<Value>,
}

impl fmt::Display for OpRecord {
    /// `name[i, j](a, b) = r1, r2` (no brackets without immediates, no
    /// `= ...` without results).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.op)?;
        if !self.imms.is_empty() {
            let imms: Vec<String> = self.imms.iter().map(|m| m.to_string()).collect();
            write!(f, "[{}]", imms.join(", "))?;
        }
        write!(f, "({})", join_values_with(&self.args, ", "))?;
        if !self.results.is_empty() {
            write!(f, " = {}", join_values_with(&self.results, ", "))?;
        }
        Ok(())
    }
}

/// Where a run's prints and external calls go as they happen
/// ([`Interpreter::run_to`](super::Interpreter::run_to)): a caller that writes them out at once keeps
/// what a run printed before it stopped with an error.
///
/// ```
/// use ssakit::interp::{CallRecord, Interpreter, Output, RunOptions, Value};
/// use ssakit::text::parse_module;
/// struct Lines(Vec<String>);
/// impl Output for Lines {
///     fn print(&mut self, line: &[Value]) {
///         self.0.push(format!("{line:?}"));
///     }
///     fn call(&mut self, _: CallRecord) {}
/// }
/// let m = parse_module("function main(a) {\nentry:\n    print a\n    b = 1 / a\n    ret b\n}\n").unwrap();
/// let i = Interpreter::new(&m).unwrap();
/// let mut lines = Lines(Vec::new());
/// assert!(i.run_to(0, &[0], &RunOptions::default(), &mut lines).is_err()); // division by zero
/// assert_eq!(lines.0, ["[Int(0)]"]); // printed before the error
/// ```
pub trait Output {
    /// A `print` was executed, with these values.
    ///
    /// ```
    /// use ssakit::interp::{CallRecord, Interpreter, Output, RunOptions, Value};
    /// use ssakit::text::parse_module;
    /// struct Text(String);
    /// impl Output for Text {
    ///     fn print(&mut self, line: &[Value]) {
    ///         let words: Vec<String> = line.iter().map(|v| v.to_string()).collect();
    ///         self.0 += &(words.join(" ") + "\n");
    ///     }
    ///     fn call(&mut self, _: CallRecord) {}
    /// }
    /// let m = parse_module("function main() {\nentry:\n    print 1, undef\n    ret\n}\n").unwrap();
    /// let mut t = Text(String::new());
    /// Interpreter::new(&m).unwrap().run_to(0, &[], &RunOptions::default(), &mut t).unwrap();
    /// assert_eq!(t.0, "1 undef\n");
    /// ```
    fn print(&mut self, line: &[Value]);
    /// An external call was made (only with [`RunOptions::trace_calls`](super::RunOptions::trace_calls)).
    ///
    /// ```
    /// use ssakit::interp::{CallRecord, Interpreter, Output, RunOptions, Value};
    /// use ssakit::text::parse_module;
    /// struct Calls(Vec<String>);
    /// impl Output for Calls {
    ///     fn print(&mut self, _: &[Value]) {}
    ///     fn call(&mut self, call: CallRecord) {
    ///         self.0.push(call.func.to_string());
    ///     }
    /// }
    /// let m = parse_module("function main(a) {\nentry:\n    b = ext(a)\n    ret b\n}\n").unwrap();
    /// let opts = RunOptions { trace_calls: true, ..RunOptions::default() };
    /// let mut c = Calls(Vec::new());
    /// Interpreter::new(&m).unwrap().run_to(0, &[3], &opts, &mut c).unwrap();
    /// assert_eq!(c.0, ["ext"]);
    /// ```
    fn call(&mut self, call: CallRecord);
    /// An uninterpreted operation with an effect no pass may delete was
    /// executed (only with [`RunOptions::trace_calls`](super::RunOptions::trace_calls) in
    /// [`Mode::Uninterpreted`](super::Mode::Uninterpreted)); ignored unless implemented.
    ///
    /// ```
    /// use ssakit::interp::{CallRecord, Interpreter, Mode, OpRecord, Output, RunOptions, Value};
    /// use ssakit::text::parse_module;
    /// struct Trace(Vec<String>);
    /// impl Output for Trace {
    ///     fn print(&mut self, _: &[Value]) {}
    ///     fn call(&mut self, _: CallRecord) {}
    ///     fn op(&mut self, op: OpRecord) {
    ///         self.0.push(op.to_string());
    ///     }
    /// }
    /// let m = parse_module("operator store write\n\nfunction main(a) {\ne:\n    store[4](a, a)\n    ret\n}\n").unwrap();
    /// let i = Interpreter::with_mode(&m.functions, Mode::Uninterpreted).unwrap();
    /// let mut t = Trace(Vec::new());
    /// let opts = RunOptions { trace_calls: true, ..RunOptions::default() };
    /// i.run_to(0, &[2], &opts, &mut t).unwrap();
    /// assert_eq!(t.0, ["store[4](2, 2)"]);
    /// ```
    fn op(&mut self, op: OpRecord) {
        let _ = op;
    }
}

/// The [`Output`] of [`Interpreter::run`](super::Interpreter::run): everything kept for the
/// [`Outcome`].
#[derive(Default)]
pub(super) struct Collect {
    pub(super) output: Vec<Vec<Value>>,
    pub(super) calls: Vec<CallRecord>,
    pub(super) ops: Vec<OpRecord>,
}

impl Output for Collect {
    fn print(&mut self, line: &[Value]) {
        self.output.push(line.to_vec());
    }
    fn call(&mut self, call: CallRecord) {
        self.calls.push(call);
    }
    fn op(&mut self, op: OpRecord) {
        self.ops.push(op);
    }
}

/// What a run that finished produced.
///
/// ```
/// use ssakit::interp::{run, RunOptions};
/// use ssakit::text::parse_module;
/// use ssakit::interp::Value;
/// let src = "function main(n) {\nentry:\n    print n, undef\n    ret n, 7\n}\n";
/// let m = parse_module(src).unwrap();
/// let out = run(&m, &m.functions[0], &[3], &RunOptions::default()).unwrap();
/// assert_eq!(out.output, [vec![Value::Int(3), Value::Undef]]);
/// assert_eq!((out.ret, out.extra_rets.clone()), (Some(Value::Int(3)), vec![Value::Int(7)]));
/// assert!(out.calls.is_empty() && out.block_visits.is_empty());
/// ```
#[derive(Clone, PartialEq, Eq, Debug, Default)]
pub struct Outcome {
    /// The values of each executed `print`, one entry per line.
    pub output: Vec<Vec<Value>>,
    /// The entry function's return value (its first one, if it returned
    /// several); `None` after a bare `ret`.
    pub ret: Option<Value>,
    /// The values after the first of a `ret` of several values (empty for
    /// a `ret` of one or none).
    pub extra_rets: Vec<Value>,
    /// The external calls, in order (empty unless
    /// [`RunOptions::trace_calls`](super::RunOptions::trace_calls)).
    pub calls: Vec<CallRecord>,
    /// The uninterpreted operations with an effect no pass may delete, in
    /// order (empty unless [`RunOptions::trace_calls`](super::RunOptions::trace_calls) in
    /// [`Mode::Uninterpreted`](super::Mode::Uninterpreted)).
    pub ops: Vec<OpRecord>,
    /// Steps executed: the dynamic instruction count.
    pub dyn_insts: u64,
    /// With [`RunOptions::count_blocks`](super::RunOptions::count_blocks), `block_visits[f][b]` is how many
    /// times the run entered block number `b` of function number `f` (the
    /// interpreter's numbering, module order); else empty.
    pub block_visits: Vec<Vec<u64>>,
}

impl Outcome {
    /// The printed lines: each `print`'s values separated by one space.
    pub(crate) fn lines(&self) -> Vec<String> {
        self.output.iter().map(|l| join_values(l)).collect()
    }

    /// The text the CLI prints: one line per `print`, then `=> V` if the entry
    /// function returned a value (`=> V1 V2 ...` for several). Every line
    /// ends in a newline.
    ///
    /// ```
    /// use ssakit::interp::{run, RunOptions};
    /// use ssakit::text::parse_module;
    /// let m = parse_module("function main(a) {\nentry:\n    print a\n    ret a, a\n}\n").unwrap();
    /// let out = run(&m, &m.functions[0], &[4], &RunOptions::default()).unwrap();
    /// assert_eq!(out.render(), "4\n=> 4 4\n");
    /// ```
    pub fn render(&self) -> String {
        let mut s = String::new();
        for line in self.lines() {
            s.push_str(&line);
            s.push('\n');
        }
        if let Some(v) = self.ret {
            s.push_str(&format!("=> {v}"));
            for v in &self.extra_rets {
                s.push_str(&format!(" {v}"));
            }
            s.push('\n');
        }
        s
    }
}

fn join_values(vals: &[Value]) -> String {
    join_values_with(vals, " ")
}

fn join_values_with(vals: &[Value], sep: &str) -> String {
    vals.iter()
        .map(|v| v.to_string())
        .collect::<Vec<_>>()
        .join(sep)
}

/// Whether `transformed` behaves like `original`: the same printed lines, the
/// same return value, the same external calls and the same operations with
/// an effect ([`Outcome::ops`](super::Outcome::ops)), where an `undef` in the
/// original matches any value (a transformation may define what was
/// undefined) but not the other way round.
///
/// ```
/// use ssakit::interp::{outputs_match, Outcome, Value};
/// let with = |v| Outcome { ret: Some(v), ..Outcome::default() };
/// assert!(outputs_match(&with(Value::Undef), &with(Value::Int(1)))); // undef admits 1
/// assert!(!outputs_match(&with(Value::Int(1)), &with(Value::Undef)));
/// ```
pub fn outputs_match(original: &Outcome, transformed: &Outcome) -> bool {
    first_difference(original, transformed).is_none()
}

/// The first way in which `transformed` does not match `original` (see
/// [`outputs_match`]), described for a test failure message.
///
/// ```
/// use ssakit::interp::{first_difference, Outcome, Value};
/// let a = Outcome { output: vec![vec![Value::Int(1)]], ..Outcome::default() };
/// let b = Outcome { output: vec![vec![Value::Int(2)]], ..Outcome::default() };
/// assert_eq!(first_difference(&a, &a), None);
/// assert_eq!(first_difference(&a, &b).unwrap(), "print line 1: expected `1`, got `2`");
/// ```
pub fn first_difference(original: &Outcome, transformed: &Outcome) -> Option<String> {
    let all_admit =
        |o: &[Value], t: &[Value]| o.len() == t.len() && o.iter().zip(t).all(|(o, t)| o.admits(*t));
    for (i, (o, t)) in original.output.iter().zip(&transformed.output).enumerate() {
        if !all_admit(o, t) {
            return Some(format!(
                "print line {}: expected `{}`, got `{}`",
                i + 1,
                join_values(o),
                join_values(t)
            ));
        }
    }
    if original.output.len() != transformed.output.len() {
        return Some(format!(
            "expected {} printed lines, got {}",
            original.output.len(),
            transformed.output.len()
        ));
    }
    match (original.ret, transformed.ret) {
        (None, None) => {}
        (Some(o), Some(t))
            if o.admits(t) && all_admit(&original.extra_rets, &transformed.extra_rets) => {}
        _ => {
            let show = |o: &Outcome| match o.ret {
                None => "no value".to_string(),
                Some(v) => std::iter::once(v)
                    .chain(o.extra_rets.iter().copied())
                    .map(|v| v.to_string())
                    .collect::<Vec<_>>()
                    .join(" "),
            };
            return Some(format!(
                "return value: expected {}, got {}",
                show(original),
                show(transformed)
            ));
        }
    }
    for (i, (o, t)) in original.calls.iter().zip(&transformed.calls).enumerate() {
        if o.func != t.func || !all_admit(&o.args, &t.args) || !o.result.admits(t.result) {
            return Some(format!("external call {}: expected {o}, got {t}", i + 1));
        }
    }
    if original.calls.len() != transformed.calls.len() {
        return Some(format!(
            "expected {} external calls, got {}",
            original.calls.len(),
            transformed.calls.len()
        ));
    }
    for (i, (o, t)) in original.ops.iter().zip(&transformed.ops).enumerate() {
        if o.op != t.op
            || o.imms != t.imms
            || !all_admit(&o.args, &t.args)
            || !all_admit(&o.results, &t.results)
        {
            return Some(format!(
                "operation {} with an effect: expected {o}, got {t}",
                i + 1
            ));
        }
    }
    if original.ops.len() != transformed.ops.len() {
        return Some(format!(
            "expected {} operations with an effect, got {}",
            original.ops.len(),
            transformed.ops.len()
        ));
    }
    None
}
