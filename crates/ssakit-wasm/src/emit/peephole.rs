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
//!
//! And the rules over a comparison or a constant just written, which
//! wait for the next instruction the same way ([`Held`]), as binaryen's
//! `OptimizeInstructions` does them:
//!
//! * **comparison-eqz**: a comparison then `i32.eqz` is the opposite
//!   comparison ([`opposite`]: `i32.lt_u; i32.eqz` is `i32.ge_u`, one
//!   byte fewer). Every integer comparison has one; of the float ones only
//!   `eq` and `ne` (a comparison with NaN is false both ways);
//! * **negated test** ([`Code::negate_truth`]): a condition of `br_if` or
//!   `if` negated is the opposite comparison (the rule above), or, when
//!   it ends in `i32.eqz`, the condition without it (`x` is true exactly
//!   when `i32.eqz x` is false), else one `i32.eqz`;
//! * **shorter constant**: `i32.const C; i32.add` is `i32.const -C;
//!   i32.sub`, and `sub` is `add` of `-C`, when `-C` takes fewer bytes
//!   in LEB128 (`C` = 64: two bytes, −64: one); the same for `i64`.
//!   Wrapping arithmetic: `x + C` and `x - (-C)` are one value, `C` =
//!   `MIN` included (it is its own negation, not shorter).

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

/// A comparison, `i32.eqz` or a constant not written yet: the next
/// instruction may fold with it (the rules of the module documentation).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Held {
    /// A comparison or `i32.eqz` (an `i32` truth value).
    Test(Test),
    /// `i32.const`.
    I32(i32),
    /// `i64.const`.
    I64(i64),
}

/// The instructions [`Held::Test`] holds: `i32.eqz`, and the comparisons
/// that have an opposite.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Test {
    Eqz,
    /// A comparison of this type with an opposite (see [`opposite`]).
    Cmp(Of, Cmp),
}

/// Integer comparisons (of `i32` or `i64`) and the float `eq` and `ne`,
/// each with its opposite.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Cmp {
    Eq,
    Ne,
    LtS,
    LtU,
    GtS,
    GtU,
    LeS,
    LeU,
    GeS,
    GeU,
}

/// The type a [`Cmp`] compares.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Of {
    I32,
    I64,
    F32,
    F64,
}

/// `i` as a held test, when it is `i32.eqz` or a comparison that has an
/// opposite.
fn test(i: &I<'_>) -> Option<(Of, Cmp)> {
    use Cmp::*;
    Some(match i {
        I::I32Eq => (Of::I32, Eq),
        I::I32Ne => (Of::I32, Ne),
        I::I32LtS => (Of::I32, LtS),
        I::I32LtU => (Of::I32, LtU),
        I::I32GtS => (Of::I32, GtS),
        I::I32GtU => (Of::I32, GtU),
        I::I32LeS => (Of::I32, LeS),
        I::I32LeU => (Of::I32, LeU),
        I::I32GeS => (Of::I32, GeS),
        I::I32GeU => (Of::I32, GeU),
        I::I64Eq => (Of::I64, Eq),
        I::I64Ne => (Of::I64, Ne),
        I::I64LtS => (Of::I64, LtS),
        I::I64LtU => (Of::I64, LtU),
        I::I64GtS => (Of::I64, GtS),
        I::I64GtU => (Of::I64, GtU),
        I::I64LeS => (Of::I64, LeS),
        I::I64LeU => (Of::I64, LeU),
        I::I64GeS => (Of::I64, GeS),
        I::I64GeU => (Of::I64, GeU),
        I::F32Eq => (Of::F32, Eq),
        I::F32Ne => (Of::F32, Ne),
        I::F64Eq => (Of::F64, Eq),
        I::F64Ne => (Of::F64, Ne),
        _ => return None,
    })
}

/// The comparison true exactly when `c` is false (rule
/// *comparison-eqz*).
fn opposite(c: Cmp) -> Cmp {
    use Cmp::*;
    match c {
        Eq => Ne,
        Ne => Eq,
        LtS => GeS,
        GeS => LtS,
        LtU => GeU,
        GeU => LtU,
        GtS => LeS,
        LeS => GtS,
        GtU => LeU,
        LeU => GtU,
    }
}

/// The instruction of comparison `c` of type `of`. Float comparisons
/// other than `eq` and `ne` are never held ([`test`]).
fn cmp_instruction(of: Of, c: Cmp) -> I<'static> {
    use Cmp::*;
    match (of, c) {
        (Of::I32, Eq) => I::I32Eq,
        (Of::I32, Ne) => I::I32Ne,
        (Of::I32, LtS) => I::I32LtS,
        (Of::I32, LtU) => I::I32LtU,
        (Of::I32, GtS) => I::I32GtS,
        (Of::I32, GtU) => I::I32GtU,
        (Of::I32, LeS) => I::I32LeS,
        (Of::I32, LeU) => I::I32LeU,
        (Of::I32, GeS) => I::I32GeS,
        (Of::I32, GeU) => I::I32GeU,
        (Of::I64, Eq) => I::I64Eq,
        (Of::I64, Ne) => I::I64Ne,
        (Of::I64, LtS) => I::I64LtS,
        (Of::I64, LtU) => I::I64LtU,
        (Of::I64, GtS) => I::I64GtS,
        (Of::I64, GtU) => I::I64GtU,
        (Of::I64, LeS) => I::I64LeS,
        (Of::I64, LeU) => I::I64LeU,
        (Of::I64, GeS) => I::I64GeS,
        (Of::I64, GeU) => I::I64GeU,
        (Of::F32, Eq) => I::F32Eq,
        (Of::F32, Ne) => I::F32Ne,
        (Of::F64, Eq) => I::F64Eq,
        (Of::F64, Ne) => I::F64Ne,
        (Of::F32 | Of::F64, _) => unreachable!("only float eq and ne are held"),
    }
}

/// Bytes of `v` in signed LEB128.
fn sleb_len(v: i64) -> u32 {
    // Seven bits a byte, and the sign bit of the last one.
    let bits = 65
        - if v < 0 {
            v.leading_ones()
        } else {
            v.leading_zeros()
        };
    bits.div_ceil(7)
}

impl Held {
    /// `i` held, when a rule may fold it with the next instruction.
    fn of(i: &I<'_>) -> Option<Held> {
        match *i {
            I::I32Eqz => Some(Held::Test(Test::Eqz)),
            I::I32Const(c) => Some(Held::I32(c)),
            I::I64Const(c) => Some(Held::I64(c)),
            _ => test(i).map(|(of, c)| Held::Test(Test::Cmp(of, c))),
        }
    }

    /// The instruction held.
    fn instruction(self) -> I<'static> {
        match self {
            Held::Test(Test::Eqz) => I::I32Eqz,
            Held::Test(Test::Cmp(of, c)) => cmp_instruction(of, c),
            Held::I32(c) => I::I32Const(c),
            Held::I64(c) => I::I64Const(c),
        }
    }
}

/// A function body being written, with the rules of the module
/// documentation.
pub(crate) struct Code {
    out: wasm_encoder::Function,
    pending: Option<Pending>,
    /// The last instruction, not written yet (never with `pending`).
    held: Option<Held>,
}

impl Code {
    /// An empty body with these local declarations.
    pub(crate) fn new(locals: Vec<(u32, wasm_encoder::ValType)>) -> Code {
        Code {
            out: wasm_encoder::Function::new(locals),
            pending: None,
            held: None,
        }
    }

    /// Appends `i`, the rules applied.
    pub(crate) fn ins(&mut self, i: I<'_>) {
        if let Some(h) = self.held.take() {
            if self.fold(h, &i) {
                return;
            }
            self.out.instruction(&h.instruction());
        }
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
                self.held = Held::of(&i);
                if self.held.is_none() {
                    self.out.instruction(&i);
                }
                None
            }
        };
    }

    /// The rules over the held instruction `h` and the next one, `i`:
    /// true when they folded (what is left is written or held).
    fn fold(&mut self, h: Held, i: &I<'_>) -> bool {
        match (h, i) {
            // Comparison-eqz.
            (Held::Test(Test::Cmp(of, c)), I::I32Eqz) => {
                self.held = Some(Held::Test(Test::Cmp(of, opposite(c))));
                true
            }
            // Shorter constant.
            (Held::I32(c), I::I32Add | I::I32Sub)
                if sleb_len(c.wrapping_neg().into()) < sleb_len(c.into()) =>
            {
                self.out.instruction(&I::I32Const(c.wrapping_neg()));
                let add = matches!(i, I::I32Sub);
                self.out
                    .instruction(if add { &I::I32Add } else { &I::I32Sub });
                true
            }
            (Held::I64(c), I::I64Add | I::I64Sub) if sleb_len(c.wrapping_neg()) < sleb_len(c) => {
                self.out.instruction(&I::I64Const(c.wrapping_neg()));
                let add = matches!(i, I::I64Sub);
                self.out
                    .instruction(if add { &I::I64Add } else { &I::I64Sub });
                true
            }
            _ => false,
        }
    }

    /// Negates the `i32` truth value just written, the condition of a
    /// `br_if` or `if` that follows (rule *negated test*): the opposite
    /// comparison, or the value under a final `i32.eqz`, else `i32.eqz`.
    pub(crate) fn negate_truth(&mut self) {
        if self.held == Some(Held::Test(Test::Eqz)) {
            self.held = None;
            return;
        }
        self.ins(I::I32Eqz);
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
        debug_assert!(self.held.is_none(), "the final `end` flushes what is held");
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

    /// Comparison-eqz: the opposite comparison, for every integer
    /// comparison and the float `eq`/`ne`, again after a second `eqz`;
    /// not after a float `lt` (false with NaN both ways), nor `i32.eqz`
    /// after `i32.eqz` (a value: `x != 0`, not `x`).
    #[test]
    fn a_comparison_then_eqz_is_the_opposite() {
        let pairs = [
            (I::I32LtU, I::I32GeU),
            (I::I32GtS, I::I32LeS),
            (I::I64Eq, I::I64Ne),
            (I::I64LeU, I::I64GtU),
            (I::F64Ne, I::F64Eq),
        ];
        for (c, o) in pairs {
            let got = written(&[c.clone(), I::I32Eqz, I::Drop], |_| {});
            assert_eq!(got, body(&[o.clone(), I::Drop]), "{c:?}");
            let got = written(&[c.clone(), I::I32Eqz, I::I32Eqz, I::Drop], |_| {});
            assert_eq!(got, body(&[c.clone(), I::Drop]), "{c:?}");
        }
        for ins in [
            vec![I::F32Lt, I::I32Eqz, I::Drop],
            vec![I::I32Eqz, I::I32Eqz, I::Drop],
        ] {
            assert_eq!(written(&ins, |_| {}), body(&ins));
        }
    }

    /// Negated test: the opposite comparison, the condition under its
    /// `i32.eqz`, else an `i32.eqz`.
    #[test]
    fn a_negated_test_needs_no_eqz_after_a_comparison_or_an_eqz() {
        let negated = |ins: &[I<'static>]| {
            written(ins, |c| {
                c.negate_truth();
                c.ins(I::BrIf(0));
            })
        };
        let got = negated(&[I::LocalGet(0), I::I32Const(7), I::I32LtS]);
        assert_eq!(
            got,
            body(&[I::LocalGet(0), I::I32Const(7), I::I32GeS, I::BrIf(0)])
        );
        let got = negated(&[I::LocalGet(0), I::I64Eqz, I::I32Eqz]);
        assert_eq!(got, body(&[I::LocalGet(0), I::I64Eqz, I::BrIf(0)]));
        let got = negated(&[I::LocalGet(0), I::I32Eqz]);
        assert_eq!(got, body(&[I::LocalGet(0), I::BrIf(0)]));
        let got = negated(&[I::LocalGet(0)]);
        assert_eq!(got, body(&[I::LocalGet(0), I::I32Eqz, I::BrIf(0)]));
        let got = negated(&[I::LocalGet(0), I::LocalGet(1), I::F32Gt]);
        let want = [
            I::LocalGet(0),
            I::LocalGet(1),
            I::F32Gt,
            I::I32Eqz,
            I::BrIf(0),
        ];
        assert_eq!(got, body(&want));
    }

    /// Shorter constant: `+ 64` is `- -64` (one byte fewer), `- 8192` is
    /// `+ -8192`, in `i32` and `i64`; not `+ 63`, `- -64` (no shorter),
    /// nor `MIN` (its own negation).
    #[test]
    fn a_constant_is_added_or_subtracted_whichever_is_shorter() {
        let cases = [
            ([I::I32Const(64), I::I32Add], [I::I32Const(-64), I::I32Sub]),
            (
                [I::I32Const(8192), I::I32Sub],
                [I::I32Const(-8192), I::I32Add],
            ),
            ([I::I64Const(64), I::I64Add], [I::I64Const(-64), I::I64Sub]),
            (
                [I::I64Const(1 << 20), I::I64Sub],
                [I::I64Const(-(1 << 20)), I::I64Add],
            ),
        ];
        for (from, to) in cases {
            let got = written(&[&[I::LocalGet(0)][..], &from, &[I::Drop]].concat(), |_| {});
            let want = body(&[&[I::LocalGet(0)][..], &to, &[I::Drop]].concat());
            assert_eq!(got, want, "{from:?}");
            assert_eq!(
                got.len() + 1,
                body(&[&[I::LocalGet(0)][..], &from, &[I::Drop]].concat()).len()
            );
        }
        for ins in [
            [I::I32Const(63), I::I32Add],
            [I::I32Const(-64), I::I32Sub],
            [I::I32Const(i32::MIN), I::I32Add],
            [I::I64Const(i64::MIN), I::I64Sub],
            [I::I64Const(64), I::I64Mul],
        ] {
            let ins = [&[I::LocalGet(0)][..], &ins, &[I::Drop]].concat();
            assert_eq!(written(&ins, |_| {}), body(&ins));
        }
    }

    /// Held instructions are written before a store, and the store's own
    /// rules still apply.
    #[test]
    fn a_held_instruction_is_written_before_a_store() {
        let got = written(&[I::I32Const(64), I::LocalSet(0), I::LocalGet(0)], |_| {});
        assert_eq!(got, body(&[I::I32Const(64), I::LocalTee(0)]));
        let got = written(&[I::I32Const(1), I::I32Const(2), I::I32LtU], |c| {
            c.store_if_result(3, false);
        });
        assert_eq!(
            got,
            body(&[I::I32Const(1), I::I32Const(2), I::I32LtU, I::LocalSet(3)])
        );
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
