//! Structured code made smaller without changing what it does: the
//! peephole rules of a WebAssembly back end's control-flow cleanup (LLVM's
//! `WebAssemblyCFGStackify` removes the same unnecessary `block`s and
//! fall-through branches; binaryen's `RemoveUnusedBrs` folds `if`s into
//! `br_if`s), applied to the output of [`super::structure`].
//!
//! Ramsey's translation ([`super::structure`]) emits every `branch` as
//! `if ... else ... end` and every edge to a labelled node as a `br`, even
//! when control would get there anyway. Four rules, in this order, each
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

use super::structure::{Ctl, Structured};
use ssakit::ir::{Function, Terminator};

const NONE: u32 = u32::MAX;

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

/// Tidies `s` in place (see the module documentation).
///
/// ```
/// use ssakit_wasm::emit::structure::{translate, Ctl};
/// // A loop whose exit is a lone branch: `if; br; else; ...; end` is a `br_if`.
/// let src = "function f(n) {\nentry:\n  jump h\nh:\n  n = n - 1\n  c = n > 0\n  branch c, h, x\nx:\n  ret n\n}\n";
/// let f = ssakit::text::parse_module(src).unwrap().functions.remove(0);
/// let mut s = translate(&f).unwrap();
/// let before = s.items.len();
/// ssakit_wasm::emit::tidy::tidy(&f, &mut s);
/// assert!(s.items.len() < before);
/// assert!(s.items.contains(&Ctl::Loop));
/// ```
// Each pass indexes several side tables by item: index loops read best.
#[allow(clippy::needless_range_loop)]
pub fn tidy(f: &Function, s: &mut Structured) {
    let n = s.items.len();
    // Matching: per opener (`block`, `loop`, `if`) its `end`, per `if`
    // its `else`; per `end` and `else` its opener. Branch depths become
    // the index of the opener of their label.
    let mut end_of = vec![NONE; n];
    let mut else_of = vec![NONE; n];
    let mut opener = vec![NONE; n];
    let mut open: Vec<u32> = Vec::new();
    let target = |open: &Vec<u32>, d: u32| open[open.len() - 1 - d as usize];
    for i in 0..n {
        match s.items[i] {
            Ctl::Block | Ctl::Loop | Ctl::If(_) => open.push(i as u32),
            Ctl::Else => {
                let o = *open.last().expect("else inside an if");
                else_of[o as usize] = i as u32;
                opener[i] = o;
            }
            Ctl::End => {
                let o = open.pop().expect("a balanced end");
                end_of[o as usize] = i as u32;
                opener[i] = o;
            }
            _ => map_targets(&mut s.items[i], &mut s.depths, |d| target(&open, d)),
        }
    }
    // Bodies that emit nothing: no instruction, and a `jump`.
    let mut dead: Vec<bool> = (s.items.iter())
        .map(|c| match *c {
            Ctl::Body(b) => f.block_insts(b).is_empty() && matches!(f.term(b), Terminator::Jump(_)),
            _ => false,
        })
        .collect();
    // Rule 1: an arm that is a lone `br` (bodies that went aside). An arm
    // whose items are not one `br` after at most one such body is not one.
    for i in 0..n {
        let Ctl::If(block) = s.items[i] else { continue };
        let (e, end) = (else_of[i] as usize, end_of[i] as usize);
        if e == NONE as usize {
            continue;
        }
        let lone_br = |from: usize, to: usize| match s.items[from..to] {
            [Ctl::Br(t)] => Some((from, t)),
            [Ctl::Body(_), Ctl::Br(t)] if dead[from] => Some((from + 1, t)),
            _ => None,
        };
        // An else-arm `br` that falls through is rule 2's: `if; A; end`
        // keeps its target's `block` unused where `i32.eqz; br_if` would
        // not.
        let (negate, br) = match (lone_br(i + 1, e), lone_br(e + 1, end)) {
            (Some(br), _) => (false, br),
            (None, Some(br)) if !falls_through(s, &dead, &opener, &end_of, br.0, br.1) => {
                (true, br)
            }
            _ => continue,
        };
        s.items[i] = Ctl::BrIf {
            block,
            negate,
            depth: br.1,
        };
        dead[br.0] = true;
        dead[e] = true;
        dead[end] = true;
    }
    // Rule 2: a `br` that falls through to its target anyway; then an
    // `else` whose arm is left empty goes too.
    for p in 0..n {
        if let Ctl::Br(t) = s.items[p] {
            if !dead[p] && falls_through(s, &dead, &opener, &end_of, p, t) {
                dead[p] = true;
            }
        }
    }
    for i in 0..n {
        let e = else_of[i] as usize;
        if !matches!(s.items[i], Ctl::If(_)) || e == NONE as usize || dead[e] {
            continue;
        }
        let next = (e + 1..n).take(WALK).find(|&k| !dead[k]);
        if next == Some(end_of[i] as usize) {
            dead[e] = true;
        }
    }
    // Rule 3: labels nothing targets.
    let mut used = vec![false; n];
    for i in 0..n {
        if dead[i] {
            continue;
        }
        match s.items[i] {
            Ctl::Br(t) | Ctl::BrIf { depth: t, .. } => used[t as usize] = true,
            Ctl::BrTable {
                start,
                len,
                default,
                ..
            } => {
                used[default as usize] = true;
                for k in start..start + len {
                    used[s.depths[k as usize] as usize] = true;
                }
            }
            _ => {}
        }
    }
    for i in 0..n {
        if matches!(s.items[i], Ctl::Block | Ctl::Loop) && !used[i] {
            dead[i] = true;
            dead[end_of[i] as usize] = true;
        }
    }
    // Rule 4: a then-arm that never falls through needs no `else`: the
    // `else` becomes the `if`'s `end` and the else-arm follows the `if`.
    for i in 0..n {
        let Ctl::If(_) = s.items[i] else { continue };
        let e = else_of[i] as usize;
        if e == NONE as usize || dead[e] {
            continue;
        }
        let last = (i + 1..e).rev().take(WALK).find(|&k| !dead[k]);
        if let Some(k) = last {
            if matches!(
                s.items[k],
                Ctl::Br(_) | Ctl::BrTable { .. } | Ctl::Ret(_) | Ctl::Unreachable
            ) {
                s.items[e] = Ctl::End;
                dead[end_of[i] as usize] = true;
            }
        }
    }
    // Depths again, over the items left; then the items left.
    let mut height = vec![0u32; n];
    let mut depth_now = 0u32;
    let depth = |height: &Vec<u32>, now: u32, t: u32| now - 1 - height[t as usize];
    for i in 0..n {
        if dead[i] {
            continue;
        }
        match s.items[i] {
            Ctl::Block | Ctl::Loop | Ctl::If(_) => {
                height[i] = depth_now;
                depth_now += 1;
            }
            Ctl::End => depth_now -= 1,
            _ => map_targets(&mut s.items[i], &mut s.depths, |t| {
                depth(&height, depth_now, t)
            }),
        }
    }
    let mut k = 0;
    s.items.retain(|_| {
        k += 1;
        !dead[k - 1]
    });
}

/// Whether the `br` at item `p` to the label opened at item `t` reaches
/// its target by falling through anyway: only `end`s (and an `else`, which
/// ends a then-arm: control goes on after the `if`'s `end`) lie between it
/// and the `end` of `t`'s `block`. (A `loop`'s label is its start, so a
/// `br` to a loop never falls through.) Looks at most [`WALK`] items ahead.
fn falls_through(
    s: &Structured,
    dead: &[bool],
    opener: &[u32],
    end_of: &[u32],
    p: usize,
    t: u32,
) -> bool {
    let n = s.items.len();
    let mut q = p + 1;
    let mut steps = 0;
    while q < n && steps < WALK {
        steps += 1;
        if dead[q] {
            q += 1;
            continue;
        }
        match s.items[q] {
            Ctl::End => {
                let o = opener[q];
                if o == t && matches!(s.items[o as usize], Ctl::Block) {
                    return true;
                }
                q += 1;
            }
            Ctl::Else => q = end_of[opener[q] as usize] as usize,
            _ => return false,
        }
    }
    false
}

#[cfg(test)]
mod tests {
    use super::super::structure::{structure, translate, Ctl};

    fn func(src: &str) -> ssakit::ir::Function {
        ssakit::text::parse_module(src).unwrap().functions.remove(0)
    }

    /// A loop whose exit test is a `branch` with the back edge on one side:
    /// Ramsey's translation gives `if; br; else; ...; end`, tidy a `br_if`.
    #[test]
    fn a_lone_br_arm_becomes_br_if() {
        let f = func(
            "function f(n) {\nentry:\n  i = 0\n  jump head\nhead:\n  i = i + 1\n  c = i < n\n  branch c, head, out\nout:\n  ret i\n}\n",
        );
        let raw = translate(&f).unwrap();
        assert!(raw.items.contains(&Ctl::Else));
        let s = structure(&f).unwrap();
        assert!(!s.items.contains(&Ctl::Else), "{:?}", s.items);
        assert!(
            s.items.iter().any(|c| matches!(
                c,
                Ctl::BrIf {
                    depth: 0,
                    negate: false,
                    ..
                }
            )),
            "{:?}",
            s.items
        );
        assert!(s.items.len() < raw.items.len());
    }

    /// A diamond keeps its `if`/`else`; the `br`s to the merge that falls
    /// through go, and so does the merge's `block`, which nothing targets.
    #[test]
    fn a_diamond_loses_its_fall_through_brs() {
        let f = func(
            "function f(a) {\nentry:\n  branch a, t, e\nt:\n  x = 1\n  jump m\ne:\n  x = 2\n  jump m\nm:\n  ret x\n}\n",
        );
        let raw = translate(&f).unwrap();
        assert!(raw.items.iter().any(|c| matches!(c, Ctl::Br(_))));
        let s = structure(&f).unwrap();
        assert!(
            !s.items.iter().any(|c| matches!(c, Ctl::Br(_) | Ctl::Block)),
            "{:?}",
            s.items
        );
        assert!(s.items.contains(&Ctl::Else));
    }
}
