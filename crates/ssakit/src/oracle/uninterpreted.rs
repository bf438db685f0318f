//! The uninterpreted differential: one run of lifted code (WebAssembly,
//! x86-64) before and after a transformation, its operations run as
//! uninterpreted functions ([`Mode::Uninterpreted`](crate::interp::Mode::Uninterpreted)), compared. The
//! harnesses of `ssakit-wasm` and `ssakit-x86` draw the inputs and count.

use crate::interp::{first_difference, ErrorKind, Interpreter, RunOptions};
use std::mem::discriminant;

/// How one run of [`agree_uninterpreted`] ended, when the two sides agree.
///
/// ```
/// use ssakit::interp::{Interpreter, Mode};
/// use ssakit::oracle::uninterpreted::{agree_uninterpreted, Agreement};
/// let m = ssakit::text::parse_module("function f() {\ne:\n    jump e\n}\n").unwrap();
/// let i = Interpreter::with_mode(&m.functions, Mode::Uninterpreted).unwrap();
/// assert_eq!(agree_uninterpreted(&i, &i, 0, &[], 100), Ok(Agreement::OutOfFuel));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Agreement {
    /// Both returned, with the same results, prints, external calls and
    /// traced effects; how many effects and calls the original had.
    Compared {
        /// Traced operations and external calls of the original run.
        effects: usize,
    },
    /// The original ran out of fuel: nothing compared.
    OutOfFuel,
    /// Both stopped with the same kind of runtime error (`unreachable`
    /// after a call that never returns, say).
    SameError,
}

/// Runs function `entry` of `original` and of `transformed` (interpreters
/// made in [`Mode::Uninterpreted`](crate::interp::Mode::Uninterpreted)) on `args`, the original with `fuel`
/// steps and the transformed one with eight times the steps the original
/// took (plus 10,000: destruction's copies cost steps). They agree when
/// both return and [`first_difference`] finds none (an `undef` of the
/// original matching anything), or both stop with the same kind of
/// error; a run of the original out of fuel is not compared.
///
/// # Errors
/// The difference, described.
///
/// ```
/// use ssakit::interp::{Interpreter, Mode};
/// use ssakit::oracle::uninterpreted::{agree_uninterpreted, Agreement};
/// use ssakit::text::parse_module;
/// let ops = "operator store write\n\n";
/// let a = parse_module(&format!("{ops}function f(p, q) {{\ne:\n    store(p, q)\n    ret\n}}\n")).unwrap();
/// let b = parse_module(&format!("{ops}function f(p, q) {{\ne:\n    store(q, p)\n    ret\n}}\n")).unwrap();
/// let ia = Interpreter::with_mode(&a.functions, Mode::Uninterpreted).unwrap();
/// let ib = Interpreter::with_mode(&b.functions, Mode::Uninterpreted).unwrap();
/// assert_eq!(agree_uninterpreted(&ia, &ia, 0, &[1, 2], 1000), Ok(Agreement::Compared { effects: 1 }));
/// let e = agree_uninterpreted(&ia, &ib, 0, &[1, 2], 1000).unwrap_err();
/// assert!(e.contains("expected store(1, 2), got store(2, 1)"), "{e}");
/// ```
pub fn agree_uninterpreted(
    original: &Interpreter<'_>,
    transformed: &Interpreter<'_>,
    entry: usize,
    args: &[i64],
    fuel: u64,
) -> Result<Agreement, String> {
    let opts = RunOptions {
        fuel,
        trace_calls: true,
        ..RunOptions::default()
    };
    let after = |fuel| {
        transformed.run(
            entry,
            args,
            &RunOptions {
                fuel,
                ..opts.clone()
            },
        )
    };
    match original.run(entry, args, &opts) {
        Ok(o) => {
            let t =
                after(o.dyn_insts * 8 + 10_000).map_err(|e| format!("ran before, after: {e}"))?;
            match first_difference(&o, &t) {
                Some(d) => Err(d),
                None => Ok(Agreement::Compared {
                    effects: o.ops.len() + o.calls.len(),
                }),
            }
        }
        Err(e) if matches!(e.kind, ErrorKind::OutOfFuel { .. }) => Ok(Agreement::OutOfFuel),
        Err(e) => match after(fuel * 8 + 10_000) {
            Err(t) if discriminant(&t.kind) == discriminant(&e.kind) => Ok(Agreement::SameError),
            t => Err(format!("before: {e}, after: {t:?}")),
        },
    }
}
