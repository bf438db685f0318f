//! The code being written, and the peephole rules over the `local.set`
//! just written, each carried out here and only here:
//!
//! * **set-get**: `local.set l; local.get l` is `local.tee l` (the same
//!   effect, two bytes fewer);
//! * **tee-set**: `local.tee l; local.set l` (a tee'd value copied into a
//!   variable sharing its local) is `local.set l`;
//! * **if-result read once** ([`Code::store_if_result`]): the `local.set
//!   l` after the `end` of an `if` with a result, whose value is read once
//!   and right there by `local.get l`, goes with that `local.get`: the
//!   value stays on the stack;
//! * **arm keeps its value** ([`Code::keep_last_store`]): an arm of an
//!   `if` with a result does not write its last `local.set`.
//!
//! Which `if` carries a result, and which reads are read once, is decided
//! by `emit/results.rs` ([`super::results::Carry`]); a `local.set` waits
//! for the next instruction to know which rule applies.

use wasm_encoder::Instruction as I;

/// A `local.set` (or `local.tee`) not written yet.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Pending {
    local: u32,
    /// `local.tee` rather than `local.set`.
    tee: bool,
    /// The store of an `if`'s result read once: a `local.get` of the
    /// local right after it takes both away.
    read_once: bool,
}

/// A function body being written, with the rules of the module
/// documentation.
pub(crate) struct Code {
    out: wasm_encoder::Function,
    pending: Option<Pending>,
}

impl Code {
    /// An empty body with these local declarations.
    pub(crate) fn new(locals: Vec<(u32, wasm_encoder::ValType)>) -> Code {
        Code {
            out: wasm_encoder::Function::new(locals),
            pending: None,
        }
    }

    /// Appends `i`, the rules applied.
    pub(crate) fn ins(&mut self, i: I<'_>) {
        if let Some(p) = self.pending.take() {
            match i {
                // If-result read once.
                I::LocalGet(g) if g == p.local && p.read_once => return,
                // Set-get.
                I::LocalGet(g) if g == p.local && !p.tee => {
                    self.out.instruction(&I::LocalTee(p.local));
                    return;
                }
                // Tee-set.
                I::LocalSet(g) if g == p.local && p.tee => {
                    self.pending = Some(Pending { tee: false, ..p });
                    return;
                }
                _ if p.tee => self.out.instruction(&I::LocalTee(p.local)),
                _ => self.out.instruction(&I::LocalSet(p.local)),
            };
        }
        self.pending = match i {
            I::LocalSet(local) => Some(Pending {
                local,
                tee: false,
                read_once: false,
            }),
            I::LocalTee(local) => Some(Pending {
                local,
                tee: true,
                read_once: false,
            }),
            _ => {
                self.out.instruction(&i);
                None
            }
        };
    }

    /// The `local.set l` after the `end` of an `if` with a result; with
    /// `read_once`, a `local.get l` right after it takes both away.
    pub(crate) fn store_if_result(&mut self, l: u32, read_once: bool) {
        self.ins(I::LocalSet(l));
        if let Some(p) = &mut self.pending {
            p.read_once = read_once;
        }
    }

    /// Leaves out the last `local.set l` of an arm of an `if` with a
    /// result: its value stays on the stack. False when the last
    /// instruction was not that store.
    pub(crate) fn keep_last_store(&mut self, l: u32) -> bool {
        matches!(
            self.pending.take(),
            Some(Pending {
                local,
                tee: false,
                ..
            }) if local == l
        )
    }

    /// The body, once its final `end` is appended.
    pub(crate) fn finish(self) -> wasm_encoder::Function {
        debug_assert!(self.pending.is_none(), "the final `end` flushes the store");
        self.out
    }
}

#[cfg(test)]
mod tests {
    use super::Code;
    use wasm_encoder::Instruction as I;

    /// The bytes of `ins` written through [`Code`], then `then`, then
    /// `end`.
    fn written(ins: &[I<'static>], then: impl FnOnce(&mut Code)) -> Vec<u8> {
        let mut c = Code::new(vec![]);
        for i in ins {
            c.ins(i.clone());
        }
        then(&mut c);
        c.ins(I::End);
        c.finish().into_raw_body()
    }

    /// The bytes of a body of `ins` then `end`.
    fn body(ins: &[I<'static>]) -> Vec<u8> {
        let mut f = wasm_encoder::Function::new(vec![]);
        for i in ins {
            f.instruction(i);
        }
        f.instruction(&I::End);
        f.into_raw_body()
    }

    #[test]
    fn set_get_is_a_tee() {
        let got = written(&[I::I32Const(1), I::LocalSet(0), I::LocalGet(0)], |_| {});
        assert_eq!(got, body(&[I::I32Const(1), I::LocalTee(0)]));
        let got = written(&[I::I32Const(1), I::LocalSet(0), I::LocalGet(1)], |_| {});
        assert_eq!(got, body(&[I::I32Const(1), I::LocalSet(0), I::LocalGet(1)]));
    }

    #[test]
    fn tee_set_is_a_set() {
        let got = written(&[I::I32Const(1), I::LocalTee(0), I::LocalSet(0)], |_| {});
        assert_eq!(got, body(&[I::I32Const(1), I::LocalSet(0)]));
        let got = written(&[I::I32Const(1), I::LocalTee(0), I::Drop], |_| {});
        assert_eq!(got, body(&[I::I32Const(1), I::LocalTee(0), I::Drop]));
    }

    #[test]
    fn an_if_result_read_once_stays_on_the_stack() {
        let got = written(&[I::I32Const(1)], |c| {
            c.store_if_result(3, true);
            c.ins(I::LocalGet(3));
        });
        assert_eq!(got, body(&[I::I32Const(1)]));
        // Not read once: set-get, a tee.
        let got = written(&[I::I32Const(1)], |c| {
            c.store_if_result(3, false);
            c.ins(I::LocalGet(3));
        });
        assert_eq!(got, body(&[I::I32Const(1), I::LocalTee(3)]));
    }

    #[test]
    fn an_arm_keeps_its_last_store() {
        let got = written(&[I::I32Const(1), I::LocalSet(2)], |c| {
            assert!(c.keep_last_store(2));
        });
        assert_eq!(got, body(&[I::I32Const(1)]));
        written(&[I::I32Const(1), I::LocalSet(2)], |c| {
            assert!(!c.keep_last_store(1));
        });
        written(&[I::I32Const(1), I::LocalTee(2)], |c| {
            assert!(!c.keep_last_store(2));
        });
    }
}
