//! Effect classes: what an instruction may do besides computing its
//! results (pure, trap, read, write, call), the facts passes respect.
//!
//! Kept apart from the operator table ([`Symbols`](super::Symbols)) because
//! both the operator table and the [operation set](super::Opcode) name them.

use std::fmt;

/// What an instruction may do besides computing its results: the *effect
/// class* passes respect. A set of four facts:
///
/// | class | meaning | may be deleted when its results are unused |
/// |---|---|---|
/// | `pure` | nothing | yes |
/// | `trap` | may stop the program (division by zero, out-of-bounds access) | no |
/// | `read` | reads memory or other state | yes, unless it may also trap |
/// | `write` | writes memory, output or other state | no |
/// | `call` | anything at all (a call) | no |
///
/// `dce` deletes an instruction only when `Effects::removable_if_unused`;
/// `copy-prop` and `const-prop` never move or delete an instruction with
/// an effect, and treat the results of operations they cannot evaluate as
/// unknown.
///
/// ```
/// use ssakit::ir::Effects;
/// let load = Effects::TRAP.union(Effects::READ);
/// assert_eq!(load.to_string(), "trap read");
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Effects(u8);

impl Effects {
    /// No effect.
    pub const PURE: Effects = Effects(0);
    /// May trap.
    pub const TRAP: Effects = Effects(1);
    /// Reads memory or other state.
    pub const READ: Effects = Effects(2);
    /// Writes memory, output or other state.
    pub const WRITE: Effects = Effects(4);
    /// Anything at all (implies the others).
    pub const CALL: Effects = Effects(8);

    const WORDS: [(Effects, &'static str); 4] = [
        (Effects::TRAP, "trap"),
        (Effects::READ, "read"),
        (Effects::WRITE, "write"),
        (Effects::CALL, "call"),
    ];

    /// Both sets of effects.
    ///
    /// ```
    /// use ssakit::ir::Effects;
    /// let e = Effects::READ.union(Effects::WRITE);
    /// assert!(e.reads() && e.writes() && !e.may_trap());
    /// ```
    pub const fn union(self, other: Effects) -> Effects {
        Effects(self.0 | other.0)
    }

    /// Whether `self` has every effect of `other`.
    ///
    /// ```
    /// use ssakit::ir::Effects;
    /// let e = Effects::TRAP.union(Effects::READ);
    /// assert!(e.contains(Effects::READ) && !e.contains(Effects::WRITE));
    /// ```
    pub const fn contains(self, other: Effects) -> bool {
        self.0 & other.0 == other.0
    }

    /// Whether there is no effect at all.
    ///
    /// ```
    /// use ssakit::ir::Effects;
    /// assert!(Effects::PURE.is_pure() && !Effects::TRAP.is_pure());
    /// ```
    pub const fn is_pure(self) -> bool {
        self.0 == 0
    }

    /// Whether it may trap (a call may).
    ///
    /// ```
    /// use ssakit::ir::Effects;
    /// assert!(Effects::CALL.may_trap() && !Effects::READ.may_trap());
    /// ```
    pub const fn may_trap(self) -> bool {
        self.0 & (Effects::TRAP.0 | Effects::CALL.0) != 0
    }

    /// Whether it may read state (a call may).
    ///
    /// ```
    /// use ssakit::ir::Effects;
    /// assert!(Effects::CALL.reads() && !Effects::WRITE.reads());
    /// ```
    pub const fn reads(self) -> bool {
        self.0 & (Effects::READ.0 | Effects::CALL.0) != 0
    }

    /// Whether it may write state (a call may).
    ///
    /// ```
    /// use ssakit::ir::Effects;
    /// assert!(Effects::WRITE.writes() && !Effects::READ.writes());
    /// ```
    pub const fn writes(self) -> bool {
        self.0 & (Effects::WRITE.0 | Effects::CALL.0) != 0
    }

    /// Whether an instruction with these effects may be deleted when none
    /// of its results is used: it neither traps nor writes (reading is
    /// fine).
    pub(crate) const fn removable_if_unused(self) -> bool {
        !self.may_trap() && !self.writes()
    }

    /// The effect named `word` in the text format (`pure`, `trap`, `read`,
    /// `write`, `call`).
    pub(crate) fn from_word(word: &str) -> Option<Effects> {
        if word == "pure" {
            return Some(Effects::PURE);
        }
        Effects::WORDS
            .iter()
            .find(|(_, w)| *w == word)
            .map(|(e, _)| *e)
    }
}

impl fmt::Display for Effects {
    /// `pure`, or the effect words separated by spaces (`trap read`).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.is_pure() {
            return f.write_str("pure");
        }
        let mut first = true;
        for (e, w) in Effects::WORDS {
            if self.contains(e) {
                if !first {
                    f.write_str(" ")?;
                }
                f.write_str(w)?;
                first = false;
            }
        }
        Ok(())
    }
}

impl fmt::Debug for Effects {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}
