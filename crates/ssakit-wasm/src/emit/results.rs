//! `if` and `block` with a result: a merge value carried on the operand
//! stack out of both arms, or out of every `br` to a block's label,
//! instead of through a local (binaryen's
//! `SimplifyLocals::optimizeIfElseReturn` and `br` values, and what LLVM's
//! WebAssembly back end emits for a phi at the join of a diamond or of a
//! `br_table`'s cases).
//!
//! After destruction (section 13.8), a phi at the join of a diamond is a
//! copy at the end of each arm into one variable, the phi web's, or into
//! variables sharing one local ([`super::locals`]):
//!
//! ```text
//! if                      if (result i32)
//!   A                       A
//!   X                       X
//!   local.set L    →      else
//! else                      B
//!   B                       Y
//!   Y                     end
//!   local.set L           local.set L
//! end
//! ```
//!
//! The rule: an `if`/`else` whose two arms both end with a block body
//! whose last instruction is emitted as a root tree ending in
//! `local.set L`, of the same local `L`, and whose label no branch
//! targets (a `br` to it would have to carry the value too). The two
//! stores stay on the stack, the `if` takes `L`'s type as its result,
//! and one `local.set L` follows its `end`: between either store and the
//! `end` nothing runs, so `L` is written on the same paths at the same
//! points as before, and the locals' live ranges do not change. Two
//! bytes fewer, four when the next instruction reads `L` (the emitter
//! makes `local.set L; local.get L` one `local.tee L`).
//!
//! The same for a `block` (a `br_table`'s cases each computing the value
//! and leaving with `br`): every `br` to its label comes right after a
//! store of `L` last, and so does its fall-through `end` unless nothing
//! falls through; no `br_if` or `br_table` targets it
//! ([`Scan::block_result`]).
//!
//! One linear pass over the structured items, matching openers with a
//! stack; the `br`s to each label in a list through the items.

use super::ctl::{Ctl, Structured};
use super::locals::{self, Locals};
use super::plan::val_type;
use super::plan::Node;
use super::stackify::{single_def, Stackified};
use ssakit::entity::EntityVec;
use ssakit::ir::{Block, Function, Inst, InstData, Operand, Terminator, Var};
use wasm_encoder::ValType;

/// The local `b`'s last instruction stores last in the emitted code, its
/// type and the variable stored, when that instruction is a root tree
/// ending in `local.set`.
fn stored_last(
    f: &Function,
    st: &Stackified,
    local: &Locals,
    b: Block,
) -> Option<(u32, ValType, Option<Var>)> {
    if !matches!(f.term(b), Terminator::Jump(_)) {
        return None;
    }
    let d: Inst = *f.block_insts(b).last()?;
    let x = single_def(f, d)?;
    if st.absorbed[d] || st.teed[d] || st.on_stack[x] || st.dead[x] {
        return None;
    }
    // A copy between variables sharing a local emits nothing.
    if let InstData::Copy {
        dst,
        src: Operand::Var(s),
    } = *f.inst(d)
    {
        if st.child(Node::Inst(d), s).is_none() && local[s] == local[dst] {
            return None;
        }
    }
    local[x].expand()?;
    Some((locals::index(local, x), val_type(f.var_type(x)), Some(x)))
}

/// What an item does with an `if`'s result ([`if_results`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Carry {
    /// An `if` with this result type.
    Result(ValType),
    /// The last item of an arm: a body whose final `local.set` of this
    /// local is not written, or the `end` of an inner `if` with a result
    /// not stored either (the value stays on the stack).
    Keep(u32),
    /// The `end` of an `if` with a result, then `local.set` of this local
    /// (of this type); with `once`, the arms all stored one variable read
    /// once in the whole function, not by a copy: when the next instruction is a
    /// `local.get` of the local, that is the read (the local's value is
    /// live there, so no other variable holds it), the variable is dead
    /// after it, and the value stays on the stack with neither.
    Store {
        /// The result's type.
        ty: ValType,
        /// The local stored.
        local: u32,
        /// Read once, right after: the store and the read both go.
        once: bool,
    },
}

/// Per structured item, what it does with an `if`'s or a `block`'s
/// result: an `if`/`else` whose arms both end storing one local last (a
/// body, or an inner such `if`, from the innermost out: `else if`
/// chains), or a `block` whose every `br` and fall-through end does
/// ([`Scan::block_result`]), carries the value out on the stack.
pub(crate) fn if_results(
    f: &Function,
    s: &Structured,
    st: &Stackified,
    local: &Locals,
) -> Vec<Option<Carry>> {
    let n = s.items.len();
    let mut scan = Scan {
        f,
        st,
        local,
        out: vec![None; n],
        stored: vec![None; n],
        uses: EntityVec::filled(f.num_vars(), 0),
    };
    // Per variable, how many reads (dead copies included: fewer `once`).
    // A copy counts twice: its destination may share the local and the
    // copy emit nothing, so that the `local.get` after the `end` would
    // be the destination's first read of several.
    for &b in f.layout() {
        for &i in f.block_insts(b) {
            let k = match f.inst(i) {
                InstData::Copy { .. } | InstData::ParCopy { .. } => 2,
                _ => 1,
            };
            f.for_each_use(i, |v| scan.uses[v] += k);
        }
        f.for_each_term_use(b, |v| scan.uses[v] += 1);
    }
    // Per opener: the branches that target its label, and how many of
    // them are a plain `br` (the `br`s in a list through `next_br`, from
    // `first_br`, by item).
    let mut targeted = vec![0u32; n];
    let mut plain = vec![0u32; n];
    let mut first_br: Vec<Option<usize>> = vec![None; n];
    let mut next_br: Vec<Option<usize>> = vec![None; n];
    // Per `if`: its `else`.
    let mut else_of: Vec<Option<usize>> = vec![None; n];
    let mut open: Vec<usize> = Vec::new();
    for (i, c) in s.items.iter().enumerate() {
        let target = |d: u32| open.len().checked_sub(1 + d as usize).map(|k| open[k]);
        match *c {
            Ctl::Block | Ctl::Loop | Ctl::If(_) | Ctl::IfNot(_) => open.push(i),
            Ctl::Else => {
                if let Some(&o) = open.last() {
                    else_of[o] = Some(i);
                }
            }
            Ctl::Br(d) => {
                if let Some(o) = target(d) {
                    targeted[o] += 1;
                    plain[o] += 1;
                    next_br[i] = first_br[o];
                    first_br[o] = Some(i);
                }
            }
            Ctl::BrIf { depth: d, .. } => {
                if let Some(o) = target(d) {
                    targeted[o] += 1;
                }
            }
            Ctl::BrTable {
                start,
                len,
                default,
                ..
            } => {
                for &d in s.depths[start as usize..(start + len) as usize]
                    .iter()
                    .chain([&default])
                {
                    if let Some(o) = target(d) {
                        targeted[o] += 1;
                    }
                }
            }
            Ctl::End => {
                let Some(o) = open.pop() else { continue };
                match (s.items[o], else_of[o]) {
                    (Ctl::If(_), Some(e)) if targeted[o] == 0 => scan.if_result(s, o, e, i),
                    (Ctl::Block, _) if plain[o] > 0 && plain[o] == targeted[o] => {
                        scan.block_result(s, o, i, first_br[o], &next_br)
                    }
                    _ => {}
                }
            }
            _ => {}
        }
    }
    scan.out
}

/// The state of [`if_results`]' pass.
struct Scan<'a> {
    f: &'a Function,
    st: &'a Stackified,
    local: &'a Locals,
    /// Per item: what it does with a result.
    out: Vec<Option<Carry>>,
    /// Per `end` of an `if` or `block` with a result: the one variable
    /// stored into it, if one.
    stored: Vec<Option<Var>>,
    /// Per variable: its reads (see [`if_results`]).
    uses: EntityVec<Var, u32>,
}

impl Scan<'_> {
    /// The local and type item `k` stores last, and the variable if one:
    /// a body's last root, or an inner `end` storing its result.
    fn last(&self, s: &Structured, k: usize) -> Option<(u32, ValType, Option<Var>)> {
        match (s.items[k], self.out[k]) {
            (Ctl::Body(b), _) => stored_last(self.f, self.st, self.local, b),
            (Ctl::End, Some(Carry::Store { ty, local, .. })) => Some((local, ty, self.stored[k])),
            _ => None,
        }
    }

    /// The `if` opened at `o`, with its `else` at `e` and its `end` at
    /// `i`: a result when both arms store one local last.
    fn if_result(&mut self, s: &Structured, o: usize, e: usize, i: usize) {
        let (Some((l, t, x1)), Some((l2, t2, x2))) = (self.last(s, e - 1), self.last(s, i - 1))
        else {
            return;
        };
        if (l, t) != (l2, t2) {
            return;
        }
        let x = x1.filter(|_| x1 == x2);
        self.carry(o, &[e - 1, i - 1], i, (l, t, x));
    }

    /// The `block` opened at `o` and ended at `i`, targeted by plain `br`s
    /// only (the list from `first`): a result when every `br` comes right
    /// after an item storing one local last, and so does the `end`
    /// unless control cannot fall through to it (a `br`, `br_table`,
    /// `return` or `unreachable` before it). Binaryen's `br` with a
    /// value, LLVM's `block` results: `X; local.set L; br $b` is `X; br
    /// $b` and one `local.set L` after `end`. Between a store and the
    /// `end` nothing runs (the `br` jumps there), so `L` is written on
    /// the same paths at the same points, as for an `if`.
    fn block_result(
        &mut self,
        s: &Structured,
        o: usize,
        i: usize,
        first: Option<usize>,
        next_br: &[Option<usize>],
    ) {
        let falls = !matches!(
            s.items[i - 1],
            Ctl::Br(_) | Ctl::BrTable { .. } | Ctl::Ret(_) | Ctl::Unreachable
        );
        let mut stores: Vec<usize> = Vec::new();
        if falls {
            stores.push(i - 1);
        }
        let mut k = first;
        while let Some(br) = k {
            stores.push(br - 1);
            k = next_br[br];
        }
        let mut common: Option<(u32, ValType, Option<Var>)> = None;
        for &at in &stores {
            if at <= o {
                return;
            }
            let Some((l, t, x)) = self.last(s, at) else {
                return;
            };
            common = match common {
                None => Some((l, t, x)),
                Some((l2, t2, x2)) if (l, t) == (l2, t2) => Some((l, t, x.filter(|_| x == x2))),
                Some(_) => return,
            };
        }
        if let Some(c) = common {
            self.carry(o, &stores, i, c);
        }
    }

    /// Marks the opener `o` with a result, the items `stores` keeping
    /// their value, and the `end` at `i` storing it.
    fn carry(
        &mut self,
        o: usize,
        stores: &[usize],
        i: usize,
        (l, t, x): (u32, ValType, Option<Var>),
    ) {
        self.stored[i] = x;
        let once = x.is_some_and(|x| self.uses[x] == 1);
        self.out[o] = Some(Carry::Result(t));
        for &k in stores {
            self.out[k] = Some(Carry::Keep(l));
        }
        self.out[i] = Some(Carry::Store {
            ty: t,
            local: l,
            once,
        });
    }
}

#[cfg(test)]
mod tests {
    //! When the rule fires, and the cases where it must not.
    use super::{if_results, Carry};
    use crate::emit::ctl::Ctl;
    use crate::emit::locals::assign;
    use crate::emit::structure::structure;
    use crate::emit::tests::run;
    use wasm_encoder::ValType;

    /// The `once` of the first `end` storing a result.
    fn once_of(c: &[(Ctl, Option<Carry>)]) -> Option<bool> {
        c.iter().find_map(|p| match p.1 {
            Some(Carry::Store { once, .. }) => Some(once),
            _ => None,
        })
    }

    /// `x` set in both arms of a diamond, read after it.
    const DIAMOND: &str = "function f(a, b) {\ne:\n  branch a, t, u\nt:\n  x = b * 3\n  jump m\nu:\n  x = b + 7\n  jump m\nm:\n  y = x * x\n  ret y\n}\n";

    /// The carried items of the one function of `text`, beside its
    /// structured items.
    fn carried(text: &str) -> Vec<(Ctl, Option<Carry>)> {
        let (f, st, _) = run(text);
        let s = structure(&f).unwrap();
        let local = assign(&f, &s, &st).local;
        let c = if_results(&f, &s, &st, &local);
        s.items.iter().copied().zip(c).collect()
    }

    /// A diamond whose arms both end storing `x`, read after the join:
    /// the `if` takes `x`'s type, both bodies keep their value, and the
    /// `end` stores it.
    #[test]
    fn a_diamond_carries_its_merge_value() {
        let c = carried(DIAMOND);
        let l = match c.iter().find(|(i, _)| *i == Ctl::End) {
            Some((
                _,
                Some(Carry::Store {
                    ty: ValType::I64,
                    local,
                    once: false,
                }),
            )) => *local,
            other => panic!("{other:?} in {c:?}"),
        };
        assert!(c.contains(&(
            Ctl::If(ssakit::ir::Block::new(0)),
            Some(Carry::Result(ValType::I64))
        )));
        assert_eq!(
            c.iter().filter(|(_, k)| *k == Some(Carry::Keep(l))).count(),
            2
        );
    }

    /// `x` read once after the join (`x - b`): its `end` says so, and the
    /// emitter leaves the value on the stack when that read comes next.
    #[test]
    fn a_merge_value_read_once_is_marked() {
        let c = carried(&DIAMOND.replace("x * x", "x - b"));
        let once = once_of(&c);
        assert_eq!(once, Some(true), "{c:?}");
    }

    /// Not when that one read is a copy (`y = x`, which may share `x`'s
    /// local and emit nothing: the `local.get` after the `end` is then
    /// `y`'s, read again later).
    #[test]
    fn a_merge_value_copied_is_not_once() {
        let c = carried(&DIAMOND.replace("y = x * x", "y = x\n  print y\n  y = y + b\n  print y"));
        let once = once_of(&c);
        assert_eq!(once, Some(false), "{c:?}");
    }

    /// An `else if` chain: the inner `if`'s value is kept through the
    /// outer one, whose `end` alone stores it.
    #[test]
    fn an_else_if_chain_carries_its_value_out() {
        let c = carried(
            "function f(a, b) {\ne:\n  branch a, t, u\nt:\n  x = b * 3\n  jump m\nu:\n  branch b, v, w\nv:\n  x = b + 7\n  jump m\nw:\n  x = b - 2\n  jump m\nm:\n  y = x * x\n  ret y\n}\n",
        );
        let ends: Vec<_> = c
            .iter()
            .filter(|(i, _)| *i == Ctl::End)
            .map(|p| p.1)
            .collect();
        assert!(
            matches!(ends[..], [Some(Carry::Keep(_)), Some(Carry::Store { .. })]),
            "{c:?}"
        );
        let results = c
            .iter()
            .filter(|(_, k)| matches!(k, Some(Carry::Result(_))))
            .count();
        assert_eq!(results, 2);
    }

    /// Not when a branch targets the `if`'s label (it would have to
    /// carry the value too): the diamond's items with a `br_if 0` put in
    /// the then-arm, before its body.
    #[test]
    fn no_result_for_an_if_a_branch_targets() {
        let (f, st, _) = run(DIAMOND);
        let mut s = structure(&f).unwrap();
        let local = assign(&f, &s, &st).local;
        assert!(if_results(&f, &s, &st, &local).iter().any(|c| c.is_some()));
        let at = s
            .items
            .iter()
            .position(|c| matches!(c, Ctl::If(_)))
            .unwrap();
        let b = f.entry();
        let br = Ctl::BrIf {
            block: b,
            negate: false,
            depth: 0,
        };
        s.items.insert(at + 1, br);
        assert!(if_results(&f, &s, &st, &local).iter().all(|c| c.is_none()));
    }

    /// Nor when one entry of a `br_table` targets it, the default going
    /// elsewhere: the diamond's items with `br_table [1 0] default 1` put
    /// in the then-arm (entry 1 is the `if`'s label, entry 0 and the
    /// default the label outside it).
    #[test]
    fn no_result_for_an_if_a_br_table_entry_targets() {
        let (f, st, _) = run(DIAMOND);
        let mut s = structure(&f).unwrap();
        let local = assign(&f, &s, &st).local;
        let at = s
            .items
            .iter()
            .position(|c| matches!(c, Ctl::If(_)))
            .unwrap();
        let start = s.depths.len() as u32;
        s.depths.extend([1, 0]);
        let table = Ctl::BrTable {
            block: f.entry(),
            start,
            len: 2,
            default: 1,
        };
        let mut untargeted = s.clone();
        untargeted.depths[start as usize + 1] = 1;
        untargeted.items.insert(at + 1, table);
        assert!(
            if_results(&f, &untargeted, &st, &local)
                .iter()
                .any(|c| c.is_some()),
            "a br_table not targeting the if keeps its result"
        );
        s.items.insert(at + 1, table);
        assert!(if_results(&f, &s, &st, &local).iter().all(|c| c.is_none()));
    }

    /// Not when one arm's last store is of another variable than the
    /// other's (two locals), nor when an arm ends with no store (`print`).
    #[test]
    fn no_result_when_the_arms_store_differently() {
        let c = carried(
            "function f(a, b) {\ne:\n  branch a, t, u\nt:\n  x = b * 3\n  z = b + 1\n  jump m\nu:\n  x = b + 7\n  z = b - 1\n  print z\n  jump m\nm:\n  y = x * z\n  ret y\n}\n",
        );
        assert!(c.iter().all(|(_, k)| k.is_none()), "{c:?}");
        let c = carried(
            "function f(a, b) {\ne:\n  x = b\n  branch a, t, u\nt:\n  x = b * 3\n  jump m\nu:\n  print b\n  jump m\nm:\n  y = x * x\n  ret y\n}\n",
        );
        assert!(c.iter().all(|(_, k)| k.is_none()), "{c:?}");
    }

    /// A `switch` whose cases each store `x` and jump to the join: the
    /// case blocks' `br`s carry it, the join's `block` takes its type,
    /// every case body keeps its value, and one `end` stores it.
    const CASES: &str = "function f(a, b) {\ne:\n  switch a, d, [c0, c1, c2]\nc0:\n  x = b * 3\n  jump m\nc1:\n  x = b + 7\n  jump m\nc2:\n  x = b - 1\n  jump m\nd:\n  x = b << 2\n  jump m\nm:\n  y = x * x\n  ret y\n}\n";

    #[test]
    fn a_block_carries_the_value_of_its_brs() {
        let c = carried(CASES);
        let blocks = c
            .iter()
            .filter(|(i, k)| *i == Ctl::Block && *k == Some(Carry::Result(ValType::I64)))
            .count();
        assert_eq!(blocks, 1, "{c:?}");
        let keeps = c
            .iter()
            .filter(|(_, k)| matches!(k, Some(Carry::Keep(_))))
            .count();
        assert_eq!(keeps, 4, "{c:?}");
        assert_eq!(once_of(&c), Some(false), "{c:?}");
    }

    /// Not when one case stores another local (`z`), nor when a `br_if`
    /// targets the block (a `branch` whose one arm is the join, in an arm
    /// of an `if`: not first in the block, which `emit/tidy.rs` rule 5
    /// would make an `if`).
    #[test]
    fn no_block_result_unless_every_branch_stores_it() {
        let c = carried(&CASES.replace(
            "x = b + 7\n  jump m",
            "x = b + 7\n  z = b\n  print z\n  jump m",
        ));
        assert!(
            !c.iter().any(|(i, k)| *i == Ctl::Block && k.is_some()),
            "{c:?}"
        );
        let c = carried(
            "function f(a, b) {\ne:\n  x = b * 5\n  branch a, t, u\nt:\n  x = b + 7\n  print x\n  branch b, m, v\nv:\n  x = b - 2\n  jump m\nu:\n  x = b - 1\n  jump m\nm:\n  y = x * x\n  ret y\n}\n",
        );
        assert!(c.iter().any(|(i, _)| *i == Ctl::Block), "{c:?}");
        assert!(
            c.iter().any(|(i, _)| matches!(i, Ctl::BrIf { .. })),
            "{c:?}"
        );
        assert!(
            !c.iter().any(|(i, k)| *i == Ctl::Block && k.is_some()),
            "{c:?}"
        );
    }
}
