//! Optimisations on SSA form (the "opt" stage between construction and
//! destruction).
//!
//! SSA makes classic scalar optimisations sparse: each use has exactly one
//! definition, so facts flow along def-use chains instead of through every
//! block (Wegman and Zadeck 1991; Cytron et al. 1991). They are also what
//! makes SSA *non-conventional* (chapter section 13.6): after copy
//! propagation two variables of one phi web may interfere, and destruction
//! has to insert copies (Briggs, Cooper, Harvey and Simpson 1998).
//!
//! One pass per module:
//!
//! * [`copy_prop`](mod@copy_prop): propagate `x = y` copies and trivial phis;
//! * `dce`: dead code elimination by mark and sweep;
//! * `const_prop`: sparse conditional constant propagation
//!   (Wegman–Zadeck), with branch folding;
//! * `fold`: peephole folds on the operation set with meaning (algebraic
//!   identities, negated comparisons, conditions read through `eqz`);
//!
//! and a helper private to the crate, `cfg_cleanup` (unreachable blocks and
//! phi operands of removed edges). The def-use chains they follow are
//! [`crate::analysis::def_use`].
//!
//! Every pass respects effects ([`Function::effects`]): it deletes an
//! instruction only when it has none that matters once its results are
//! unused (`Effects::removable_if_unused`),
//! and moves none.
//!
//! [`run_passes`] runs a list of passes, as parsed by [`Pass::parse`] from
//! the command line's `--passes copy-prop,dce`.
//!
//! Every pass requires valid SSA with the dominance property (what
//! [`crate::verify::verify`] checks) and preserves it. In debug builds
//! [`run_passes`] verifies the function after each pass.

pub(crate) mod cfg_cleanup;
pub(crate) mod const_prop;
pub mod copy_prop;
pub(crate) mod dce;
pub(crate) mod fold;
mod stats;

pub(crate) use const_prop::const_prop;
pub use copy_prop::copy_prop;
pub(crate) use dce::dce;
pub use stats::Stats;

use crate::analysis::def_use::Def;
use crate::entity::EntityVec;
use crate::error::IrError;
use crate::ir::{Function, Var};
use crate::timing;
use std::fmt;

/// An optimisation pass.
///
/// ```
/// use ssakit::opt::Pass;
/// assert_eq!(Pass::parse("copy-prop, dce").unwrap(), [Pass::CopyProp, Pass::Dce]);
/// assert_eq!(Pass::ConstProp.to_string(), "const-prop");
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Debug, Hash)]
pub enum Pass {
    /// [`copy_prop()`]: `copy-prop`.
    CopyProp,
    /// [`dce()`]: `dce`.
    Dce,
    /// [`const_prop()`]: `const-prop`.
    ConstProp,
    /// `fold`: peephole folds (identities such as `x + 0`, `eqz` of a
    /// comparison negated, a branch on `eqz(x)` turned around).
    Fold,
}

/// A pass list that does not parse.
///
/// ```
/// use ssakit::opt::Pass;
/// let err = Pass::parse("dce,,dce").unwrap_err();
/// assert_eq!(err.message, "empty pass name in `dce,,dce`");
/// assert_eq!(err.to_string(), err.message);
/// ```
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct ParsePassError {
    /// What is wrong.
    pub message: String,
}

impl fmt::Display for ParsePassError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for ParsePassError {}

impl Pass {
    /// Every pass, in the order `--help` lists them.
    pub const ALL: [Pass; 4] = [Pass::CopyProp, Pass::ConstProp, Pass::Fold, Pass::Dce];

    /// The pass's name on the command line and in `--time-passes`.
    ///
    /// ```
    /// use ssakit::opt::Pass;
    /// let names: Vec<_> = Pass::ALL.iter().map(|p| p.name()).collect();
    /// assert_eq!(names, ["copy-prop", "const-prop", "fold", "dce"]);
    /// ```
    pub fn name(self) -> &'static str {
        match self {
            Pass::CopyProp => "copy-prop",
            Pass::Dce => "dce",
            Pass::ConstProp => "const-prop",
            Pass::Fold => "fold",
        }
    }

    /// The pass named `name`.
    pub(crate) fn from_name(name: &str) -> Option<Pass> {
        Pass::ALL.iter().copied().find(|p| p.name() == name)
    }

    /// Parses a comma-separated list of pass names, such as
    /// `copy-prop,dce,const-prop`. Names may repeat; spaces around names
    /// are ignored.
    ///
    /// # Errors
    /// An empty list, an empty name, or an unknown name (the message lists
    /// the known ones).
    ///
    /// ```
    /// use ssakit::opt::Pass;
    /// assert_eq!(Pass::parse("dce,dce").unwrap(), [Pass::Dce, Pass::Dce]);
    /// assert!(Pass::parse("").is_err());
    /// let err = Pass::parse("dce,gvn").unwrap_err();
    /// assert!(err.message.starts_with("unknown pass `gvn` (known passes: copy-prop"));
    /// ```
    pub fn parse(list: &str) -> Result<Vec<Pass>, ParsePassError> {
        let known = || {
            Pass::ALL
                .iter()
                .map(|p| p.name())
                .collect::<Vec<_>>()
                .join(", ")
        };
        if list.trim().is_empty() {
            return Err(ParsePassError {
                message: format!("empty pass list (known passes: {})", known()),
            });
        }
        list.split(',')
            .map(str::trim)
            .map(|name| {
                if name.is_empty() {
                    return Err(ParsePassError {
                        message: format!("empty pass name in `{list}`"),
                    });
                }
                Pass::from_name(name).ok_or_else(|| ParsePassError {
                    message: format!("unknown pass `{name}` (known passes: {})", known()),
                })
            })
            .collect()
    }

    /// Runs this pass on `func`, then compacts it.
    #[cfg(test)]
    pub(crate) fn run(self, func: &mut Function) -> Result<Stats, IrError> {
        let stats = self.run_uncompacted(func, &mut Facts::default())?;
        func.compact();
        Ok(stats)
    }

    /// Runs this pass on `func`, leaving what it deleted in the
    /// instruction table for one [`Function::compact`] after the last
    /// pass. `facts` is what the passes before it left true; it is
    /// updated to what holds after it.
    fn run_uncompacted(self, func: &mut Function, facts: &mut Facts) -> Result<Stats, IrError> {
        // Only `const-prop` hands its definitions on, to the next pass.
        let defs = facts.defs.take();
        let stats = match self {
            Pass::CopyProp => copy_prop::run_uncompacted(func)?,
            Pass::Dce => dce(func, facts.cfg_clean, defs)?,
            Pass::ConstProp => {
                let (stats, defs) = const_prop(func)?;
                facts.defs = defs;
                stats
            }
            Pass::Fold => fold::fold(func)?,
        };
        facts.cfg_clean = match self {
            // Both end with the CFG cleaned up (or found clean).
            Pass::ConstProp | Pass::Dce => true,
            // Only operands change.
            Pass::CopyProp => facts.cfg_clean,
            // A branch turned around keeps its edges; one folded into a
            // jump is followed by the clean-up.
            Pass::Fold => facts.cfg_clean || stats.branches_folded > 0,
        };
        Ok(stats)
    }
}

/// What the passes of one [`run_passes`] call know about the function
/// between them, so that a pass does not look again for what the pass
/// before it established and nothing since changed.
#[derive(Clone, Default, Debug)]
pub(crate) struct Facts {
    /// Every block of the layout is reachable from the entry and every
    /// phi operand is labelled by a predecessor of its block: what
    /// `cfg_cleanup` establishes. It holds after `const-prop` and `dce`
    /// (both clean up, or find nothing to clean), and lasts until a pass
    /// removes an edge (`copy-prop` changes only operands; `fold` cleans
    /// up after folding a branch).
    pub(crate) cfg_clean: bool,
    /// The definition of every variable defined in the layout, as the pass
    /// just before computed it and left it true (`const-prop`, when its
    /// clean-up did not renumber the instructions); `None` after any other
    /// pass. A variable whose definition that pass deleted has no use left
    /// and may still be listed.
    pub(crate) defs: Option<EntityVec<Var, Def>>,
}

impl fmt::Display for Pass {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Runs `passes` on `func` in order, timing each under its name (a
/// [`timing::phase`]), and returns the summed counts. What the passes
/// delete is dropped from the instruction table once, after the last one
/// ([`Function::compact`]).
///
/// # Preconditions
/// `func` is valid SSA with the dominance property; check it with
/// [`crate::verify::verify`] first.
///
/// # Errors
/// A pass finding that `func` is not SSA (a variable defined twice), or, in
/// debug builds, a pass producing invalid SSA (an internal error, named
/// after the pass).
///
/// # Example
///
/// Copy propagation on the chapter's example: the swap in C goes, and
/// the SSA it leaves is no longer conventional.
///
/// ```
/// use ssakit::opt::{run_passes, Pass};
/// const SEED: &str = "function main(p, q) {
/// r:
///     jump A
/// A:
///     branch p, B, C
/// B:
///     y = 0
///     x = 0
///     jump D
/// C:
///     tmp = x
///     x = y
///     y = tmp
///     branch q, D, E
/// D:
///     x = f(x, y)
///     branch q, E, A
/// E:
///     ret x
/// }
/// ";
/// let mut m = ssakit::text::parse_module(SEED).unwrap();
/// let f = &mut m.functions[0];
/// ssakit::construct::construct(f, &Default::default()).unwrap();
/// let stats = run_passes(f, &[Pass::CopyProp, Pass::Dce]).unwrap();
/// assert_eq!(stats.copies_propagated, 3);
/// assert!(!ssakit::verify::verify(f).unwrap().conventional());
/// ```
pub fn run_passes(func: &mut Function, passes: &[Pass]) -> Result<Stats, IrError> {
    let mut stats = Stats::default();
    // Nothing known about the input yet.
    let mut facts = Facts::default();
    for &p in passes {
        let s = {
            let _t = timing::phase(p.name());
            p.run_uncompacted(func, &mut facts)?
        };
        stats.add(&s);
        if cfg!(debug_assertions) {
            if let Err(errs) = crate::verify::verify_valid(func) {
                let e = &errs[0];
                return Err(IrError {
                    kind: crate::error::ErrorKind::Internal,
                    message: format!("internal error: `{p}` produced invalid SSA: {}", e.message),
                    ..e.clone()
                });
            }
        }
    }
    // The passes leave what they deleted in the instruction table: one
    // compaction for all of them instead of one per pass.
    func.compact();
    Ok(stats)
}

/// Helpers for the passes' unit tests.
#[cfg(test)]
pub(crate) mod testing {
    use super::Pass;
    use crate::text::{parse_module, print_function};

    /// Parses `src` (one function, valid SSA), runs `passes`, checks the
    /// result verifies, and returns it printed with the summed stats.
    pub(crate) fn run(src: &str, passes: &str) -> (String, super::Stats) {
        let mut f = parse_module(src).unwrap().functions.remove(0);
        if let Err(e) = crate::verify::verify(&f) {
            panic!("test input is not valid SSA: {e:?}");
        }
        let passes = Pass::parse(passes).unwrap();
        let stats = super::run_passes(&mut f, &passes).unwrap();
        if let Err(e) = crate::verify::verify(&f) {
            panic!(
                "invalid SSA after {passes:?}: {e:?}\n{}",
                print_function(&f)
            );
        }
        (print_function(&f), stats)
    }

    /// [`run`], comparing the printed result with `expected` exactly.
    #[track_caller]
    pub(crate) fn check(src: &str, passes: &str, expected: &str) -> super::Stats {
        let (got, stats) = run(src, passes);
        assert_eq!(got, expected, "\n--- got\n{got}\n--- expected\n{expected}");
        stats
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pass_lists_parse_with_repeats_and_spaces() {
        assert_eq!(
            Pass::parse("copy-prop,dce, const-prop,dce").unwrap(),
            vec![Pass::CopyProp, Pass::Dce, Pass::ConstProp, Pass::Dce]
        );
        for p in Pass::ALL {
            assert_eq!(Pass::from_name(p.name()), Some(p));
            assert_eq!(p.to_string(), p.name());
        }
    }

    #[test]
    fn bad_pass_lists_are_explained() {
        assert_eq!(
            Pass::parse("copy-prop,gvn").unwrap_err().to_string(),
            "unknown pass `gvn` (known passes: copy-prop, const-prop, fold, dce)"
        );
        assert_eq!(
            Pass::parse("dce,,dce").unwrap_err().to_string(),
            "empty pass name in `dce,,dce`"
        );
        assert!(Pass::parse(" ")
            .unwrap_err()
            .to_string()
            .starts_with("empty pass list"));
    }

    #[test]
    fn each_pass_is_timed_under_its_name() {
        let mut f = crate::text::parse_module("function f(a) {\nentry:\n    x = a\n    ret x\n}\n")
            .unwrap()
            .functions
            .remove(0);
        let passes = Pass::parse("copy-prop,dce,const-prop,dce").unwrap();
        let (stats, times) = timing::collect(|| run_passes(&mut f, &passes));
        let stats = stats.unwrap();
        let names: Vec<_> = times.phases.iter().map(|p| p.0).collect();
        assert_eq!(names, ["copy-prop", "dce", "const-prop", "dce"]);
        assert_eq!(stats.copies_propagated, 1);
    }

    #[test]
    fn a_variable_defined_twice_is_an_error_not_a_panic() {
        let mut f = crate::text::parse_module(
            "function f(a) {\nentry:\n    x = a\n    x = 1\n    ret x\n}\n",
        )
        .unwrap()
        .functions
        .remove(0);
        for p in Pass::ALL {
            let e = p.run(&mut f.clone()).unwrap_err();
            assert!(e.message.contains("assigned more than once"), "{p}: {e}");
        }
        let _ = &mut f;
    }
}
