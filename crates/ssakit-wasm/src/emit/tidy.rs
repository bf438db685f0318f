//! Structured code made smaller without changing what it does: the
//! peephole rules of a WebAssembly back end's control-flow cleanup (LLVM's
//! `WebAssemblyCFGStackify` removes the same unnecessary `block`s and
//! fall-through branches; binaryen's `RemoveUnusedBrs` folds `if`s into
//! `br_if`s), applied to the output of Ramsey's translation (`emit/structure.rs`).
//!
//! Ramsey's translation emits every `branch` as
//! `if ... else ... end` and every edge to a labelled node as a `br`, even
//! when control would get there anyway. Five rules, in this order, each
//! one linear pass:
//!
//! 1. **`br_if`**: `if; br L; else; A; end` becomes `br_if L; A` (the
//!    condition as it was), and `if; A; else; br L; end` becomes
//!    `i32.eqz; br_if L; A`. One arm is a lone `br`, so the other runs
//!    exactly when the `br_if` falls through, and nothing follows it
//!    inside the `if`.
//! 2. **Fall-through `br`**: a `br L` whose next items are only `end`s
//!    (and an `else`, which ends the then-arm: control goes on after the
//!    `if`'s `end`) leading to the `end` of `L`'s `block` goes: falling
//!    through reaches the same place. (A `loop`'s label is its start, so a
//!    `br` to a loop is never one.)
//! 3. **Unused labels**: a `block` or `loop` no branch targets goes with
//!    its `end` (its body is a straight sequence).
//! 4. **No `else` after an exit**: `if; A; else; B; end`, where `A` ends
//!    in a `br`, `br_table`, `return` or `unreachable`, becomes `if; A;
//!    end; B`: `B` is reached only when the condition was false.
//! 5. **`if` for a skip** (on the items left, [`skips_become_ifs`]):
//!    `block; B; br_if 0; A; end`, where `B` is only bodies (straight
//!    code, no branch), becomes `B; if; A; end`, the `if` taking the
//!    condition negated ([`Ctl::IfNot`], or [`Ctl::If`] for a `br_if`
//!    that branched on the negation): `A` runs exactly when the `br_if`
//!    fell through. The `if`'s label is where the `block`'s was, at its
//!    `end`, so every branch in `A` keeps its depth; `B` moves out of the
//!    `block` and holds no branch. Binaryen's `RemoveUnusedBrs` makes the
//!    same `if`: `block` and `br_if 0` (four bytes) become `if` (two),
//!    and the emitter writes the negation without an `i32.eqz` when the
//!    condition ends in a comparison or an `i32.eqz`
//!    (`emit/peephole.rs`).
//!
//! Before them, the body of a block that has no instruction and ends in a
//! `jump` goes (it emits nothing, and its own edge is the `br` or the fall
//! through after it). The lifter makes such blocks for every arm that is
//! only a branch (`if (c) (then ...) (else (br $l))`); without this the
//! rules above would never see a lone `br` in lifted code. Its variables
//! need no position of their own: a block without definitions whose one
//! successor is `L` has exactly `L`'s live-in variables live, and they
//! meet at `L`'s start ([`super::locals`]).
//!
//! Branches are first resolved from depths to the item that opened their
//! label, and depths are computed again at the end, so removing items
//! never has to renumber anything in the middle. Iterative throughout; the
//! walk of rule 3 is bounded (it gives up after `WALK` items), so the
//! whole is linear.

use super::ctl::{Ctl, Item, Structured};
use ssakit::entity::{EntityRef, EntityVec, PackedOption};
use ssakit::ir::{Function, Terminator};

/// How far rule 3 looks ahead from a `br`.
const WALK: usize = 64;

/// Replaces every branch target of `c` (a `br`, `br_if` or `br_table`;
/// the table's in `depths`) by `g` of it.
fn map_targets(c: &mut Ctl, depths: &mut [u32], mut g: impl FnMut(u32) -> u32) {
    match c {
        Ctl::Br(d) | Ctl::BrIf { depth: d, .. } => *d = g(*d),
        Ctl::BrTable {
            start,
            len,
            default,
            ..
        } => {
            for d in &mut depths[*start as usize..(*start + *len) as usize] {
                *d = g(*d);
            }
            *default = g(*default);
        }
        _ => {}
    }
}

/// Per item, an item it is matched with (`None`: none).
type Links = EntityVec<Item, PackedOption<Item>>;

/// How the openers (`block`, `loop`, `if`) and their `else` and `end`
/// match.
struct Nesting {
    /// Per opener: its `end`.
    end_of: Links,
    /// Per `if`: its `else`.
    else_of: Links,
    /// Per `end` and `else`: its opener.
    opener: Links,
}

impl Nesting {
    fn end_of(&self, i: Item) -> Item {
        self.end_of[i].expand().expect("every opener has its end")
    }
}

/// Per item: removed.
type Dead = EntityVec<Item, bool>;

/// Tidies `s` in place (see the module documentation): the rules in
/// order over the matched items, then the items left, their depths again.
pub(crate) fn tidy(f: &Function, s: &mut Structured) {
    let nest = match_items(s);
    let mut dead = empty_bodies(f, s);
    lone_br_arms(s, &nest, &mut dead);
    fall_through_brs(s, &nest, &mut dead);
    unused_labels(s, &nest, &mut dead);
    exits_need_no_else(s, &nest, &mut dead);
    keep_live(s, &dead);
    skips_become_ifs(s);
}

/// The items of `s`, in order.
fn items(s: &Structured) -> impl Iterator<Item = Item> {
    (0..s.items.len()).map(Item::new)
}

/// Matching; branch depths become the position of the opener of their
/// label.
fn match_items(s: &mut Structured) -> Nesting {
    let n = s.items.len();
    let mut nest = Nesting {
        end_of: EntityVec::filled(n, PackedOption::NONE),
        else_of: EntityVec::filled(n, PackedOption::NONE),
        opener: EntityVec::filled(n, PackedOption::NONE),
    };
    let mut open: Vec<Item> = Vec::new();
    let target = |open: &Vec<Item>, d: u32| open[open.len() - 1 - d as usize].index() as u32;
    for i in items(s) {
        match s.items[i.index()] {
            Ctl::Block | Ctl::Loop | Ctl::If(_) | Ctl::IfNot(_) => open.push(i),
            Ctl::Else => {
                let o = *open.last().expect("else inside an if");
                nest.else_of[o] = PackedOption::some(i);
                nest.opener[i] = PackedOption::some(o);
            }
            Ctl::End => {
                let o = open.pop().expect("a balanced end");
                nest.end_of[o] = PackedOption::some(i);
                nest.opener[i] = PackedOption::some(o);
            }
            _ => map_targets(&mut s.items[i.index()], &mut s.depths, |d| target(&open, d)),
        }
    }
    nest
}

/// Bodies that emit nothing: no instruction, and a `jump`.
fn empty_bodies(f: &Function, s: &Structured) -> Dead {
    let mut dead: Dead = EntityVec::filled(s.items.len(), false);
    for i in items(s) {
        if let Ctl::Body(b) = s.items[i.index()] {
            dead[i] = f.block_insts(b).is_empty() && matches!(f.term(b), Terminator::Jump(_));
        }
    }
    dead
}

/// Rule 1: an arm that is a lone `br` (bodies that went aside). An arm
/// whose items are not one `br` after at most one such body is not one.
fn lone_br_arms(s: &mut Structured, nest: &Nesting, dead: &mut Dead) {
    for i in items(s) {
        let Ctl::If(block) = s.items[i.index()] else {
            continue;
        };
        let Some(e) = nest.else_of[i].expand() else {
            continue;
        };
        let end = nest.end_of(i);
        let lone_br = |from: Item, to: Item| match s.items[from.index()..to.index()] {
            [Ctl::Br(t)] => Some((from, t)),
            [Ctl::Body(_), Ctl::Br(t)] if dead[from] => Some((Item::new(from.index() + 1), t)),
            _ => None,
        };
        let next = |k: Item| Item::new(k.index() + 1);
        // An else-arm `br` that falls through is rule 2's: `if; A; end`
        // keeps its target's `block` unused where `i32.eqz; br_if` would
        // not.
        let (negate, br) = match (lone_br(next(i), e), lone_br(next(e), end)) {
            (Some(br), _) => (false, br),
            (None, Some(br)) if !falls_through(s, dead, nest, br.0, br.1) => (true, br),
            _ => continue,
        };
        s.items[i.index()] = Ctl::BrIf {
            block,
            negate,
            depth: br.1,
        };
        dead[br.0] = true;
        dead[e] = true;
        dead[end] = true;
    }
}

/// Rule 2: a `br` that falls through to its target anyway; then an
/// `else` whose arm is left empty goes too.
fn fall_through_brs(s: &Structured, nest: &Nesting, dead: &mut Dead) {
    let n = s.items.len();
    for p in items(s) {
        if let Ctl::Br(t) = s.items[p.index()] {
            if !dead[p] && falls_through(s, dead, nest, p, t) {
                dead[p] = true;
            }
        }
    }
    for i in items(s) {
        let Some(e) = nest.else_of[i].expand() else {
            continue;
        };
        if !matches!(s.items[i.index()], Ctl::If(_)) || dead[e] {
            continue;
        }
        let next = (e.index() + 1..n)
            .take(WALK)
            .map(Item::new)
            .find(|&k| !dead[k]);
        if next == Some(nest.end_of(i)) {
            dead[e] = true;
        }
    }
}

/// Rule 3: labels nothing targets.
fn unused_labels(s: &Structured, nest: &Nesting, dead: &mut Dead) {
    let mut used: EntityVec<Item, bool> = EntityVec::filled(s.items.len(), false);
    for i in items(s) {
        if dead[i] {
            continue;
        }
        match s.items[i.index()] {
            Ctl::Br(t) | Ctl::BrIf { depth: t, .. } => used[Item::new(t as usize)] = true,
            Ctl::BrTable {
                start,
                len,
                default,
                ..
            } => {
                used[Item::new(default as usize)] = true;
                for &t in &s.depths[start as usize..(start + len) as usize] {
                    used[Item::new(t as usize)] = true;
                }
            }
            _ => {}
        }
    }
    for i in items(s) {
        if matches!(s.items[i.index()], Ctl::Block | Ctl::Loop) && !used[i] {
            dead[i] = true;
            dead[nest.end_of(i)] = true;
        }
    }
}

/// Rule 4: a then-arm that never falls through needs no `else`: the
/// `else` becomes the `if`'s `end` and the else-arm follows the `if`.
fn exits_need_no_else(s: &mut Structured, nest: &Nesting, dead: &mut Dead) {
    for i in items(s) {
        let Ctl::If(_) = s.items[i.index()] else {
            continue;
        };
        let Some(e) = nest.else_of[i].expand() else {
            continue;
        };
        if dead[e] {
            continue;
        }
        let last = (i.index() + 1..e.index())
            .rev()
            .take(WALK)
            .map(Item::new)
            .find(|&k| !dead[k]);
        if let Some(k) = last {
            if matches!(
                s.items[k.index()],
                Ctl::Br(_) | Ctl::BrTable { .. } | Ctl::Ret(_) | Ctl::Unreachable
            ) {
                s.items[e.index()] = Ctl::End;
                dead[nest.end_of(i)] = true;
            }
        }
    }
}

/// Depths again, over the items left; then the items left.
fn keep_live(s: &mut Structured, dead: &Dead) {
    let n = s.items.len();
    let mut height: EntityVec<Item, u32> = EntityVec::filled(n, 0);
    let mut depth_now = 0u32;
    let depth =
        |height: &EntityVec<Item, u32>, now: u32, t: u32| now - 1 - height[Item::new(t as usize)];
    for i in (0..n).map(Item::new) {
        if dead[i] {
            continue;
        }
        match s.items[i.index()] {
            Ctl::Block | Ctl::Loop | Ctl::If(_) | Ctl::IfNot(_) => {
                height[i] = depth_now;
                depth_now += 1;
            }
            Ctl::End => depth_now -= 1,
            _ => map_targets(&mut s.items[i.index()], &mut s.depths, |t| {
                depth(&height, depth_now, t)
            }),
        }
    }
    let mut k = 0;
    s.items.retain(|_| {
        k += 1;
        !dead[Item::new(k - 1)]
    });
}

/// Rule 5: a `block` whose first branch, after bodies only, is a
/// `br_if` to its own label becomes an `if` after those bodies, with the
/// condition negated. No depth changes: the `if` opens the label the
/// `block` opened, at the same nesting, and the bodies hold no branch.
/// Each body is looked at from at most one `block` (the next opener
/// stops the look), so the pass is linear.
///
/// ```text
/// Block Body(a) Body(b) BrIf(b, 0) A End   becomes   Body(a) Body(b) IfNot(b) A End
/// ```
fn skips_become_ifs(s: &mut Structured) {
    let items = &mut s.items;
    let mut out = Vec::with_capacity(items.len());
    let mut k = 0;
    while k < items.len() {
        if items[k] == Ctl::Block {
            let j = (k + 1..items.len())
                .find(|&j| !matches!(items[j], Ctl::Body(_)))
                .unwrap_or(items.len());
            if let Some(&Ctl::BrIf {
                block,
                negate,
                depth: 0,
            }) = items.get(j)
            {
                out.extend_from_slice(&items[k + 1..j]);
                out.push(if negate {
                    Ctl::If(block)
                } else {
                    Ctl::IfNot(block)
                });
                k = j + 1;
                continue;
            }
        }
        out.push(items[k]);
        k += 1;
    }
    *items = out;
}

/// Whether the `br` at item `p` to the label opened at item `t` reaches
/// its target by falling through anyway: only `end`s (and an `else`, which
/// ends a then-arm: control goes on after the `if`'s `end`) lie between it
/// and the `end` of `t`'s `block`. (A `loop`'s label is its start, so a
/// `br` to a loop never falls through.) Looks at most [`WALK`] items ahead.
fn falls_through(s: &Structured, dead: &Dead, nest: &Nesting, p: Item, t: u32) -> bool {
    let n = s.items.len();
    let mut q = p.index() + 1;
    let mut steps = 0;
    while q < n && steps < WALK {
        steps += 1;
        let here = Item::new(q);
        if dead[here] {
            q += 1;
            continue;
        }
        match s.items[q] {
            Ctl::End => {
                let o = nest.opener[here].expand().expect("an end has its opener");
                if o.index() as u32 == t && matches!(s.items[o.index()], Ctl::Block) {
                    return true;
                }
                q += 1;
            }
            Ctl::Else => {
                let o = nest.opener[here].expand().expect("an else has its if");
                q = nest.end_of(o).index();
            }
            _ => return false,
        }
    }
    false
}

#[cfg(test)]
mod tests {
    //! Rule 5 on item lists (the other rules on programs: `emit/tests.rs`).
    use super::skips_become_ifs;
    use crate::emit::ctl::{Ctl, Structured};
    use ssakit::ir::Block;

    fn run(items: Vec<Ctl>) -> Vec<Ctl> {
        let mut s = Structured {
            items,
            depths: Vec::new(),
        };
        skips_become_ifs(&mut s);
        s.items
    }

    fn br_if(block: Block, negate: bool, depth: u32) -> Ctl {
        Ctl::BrIf {
            block,
            negate,
            depth,
        }
    }

    /// Past bodies only, to the `block`'s own label: an `if` on the
    /// negated condition, or on the condition for a negated `br_if`; the
    /// branches inside keep their depths.
    #[test]
    fn a_skip_becomes_an_if() {
        let (a, b, c) = (Block::new(0), Block::new(1), Block::new(2));
        for (negate, opener) in [(false, Ctl::IfNot(b)), (true, Ctl::If(b))] {
            let got = run(vec![
                Ctl::Block,
                Ctl::Body(a),
                Ctl::Body(b),
                br_if(b, negate, 0),
                Ctl::Body(c),
                br_if(c, false, 0),
                Ctl::Br(1),
                Ctl::End,
            ]);
            let want = [
                Ctl::Body(a),
                Ctl::Body(b),
                opener,
                Ctl::Body(c),
                br_if(c, false, 0),
                Ctl::Br(1),
                Ctl::End,
            ];
            assert_eq!(got, want);
        }
    }

    /// Not a `br_if` to an outer label, nor one after a `loop` (code
    /// with branches, which would leave the `block` too), nor after a
    /// nested `block`.
    #[test]
    fn only_a_skip_at_the_start_of_its_block() {
        let (a, b) = (Block::new(0), Block::new(1));
        let kept = [
            vec![Ctl::Block, Ctl::Body(a), br_if(a, false, 1), Ctl::End],
            vec![
                Ctl::Block,
                Ctl::Loop,
                Ctl::Body(a),
                br_if(a, false, 0),
                Ctl::End,
                Ctl::Body(b),
                br_if(b, false, 0),
                Ctl::End,
            ],
        ];
        for items in kept {
            assert_eq!(run(items.clone()), items);
        }
        // The inner `block` is a skip; the outer one is not.
        let got = run(vec![
            Ctl::Block,
            Ctl::Block,
            Ctl::Body(a),
            br_if(a, false, 0),
            Ctl::End,
            Ctl::Body(b),
            br_if(b, false, 0),
            Ctl::End,
        ]);
        let want = [
            Ctl::Block,
            Ctl::Body(a),
            Ctl::IfNot(a),
            Ctl::End,
            Ctl::Body(b),
            br_if(b, false, 0),
            Ctl::End,
        ];
        assert_eq!(got, want);
    }
}
