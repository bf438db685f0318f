//! The function's last `ret` out of the `loop`s that end the function
//! (the `return`s the original does not have).
//!
//! Ramsey's translation ([`super::structure`]) places a block that only
//! one loop block reaches inside that loop, right where the branch to it
//! is: a loop whose exit returns ends `...; br_if 0; Body(x); ret x;
//! return; end`, and when the loop ends the function, a final `end`
//! follows, which needs the function's results on the stack (an
//! `unreachable` before it, [`super`]). LLVM places the exit after the
//! loop: `loop ...; br_if 0; end; Body(x); ret x` falls off the end of the
//! function, with neither `return` nor `unreachable`.
//!
//! **The rule**: when the items end with `Body(x), Ret(x)` followed only
//! by `end`s, and every one of those `end`s closes a `loop`, the two move
//! past them. That is the same program: control falls out of a `loop` at
//! its `end` (a loop's label is its start, so no branch targets its end),
//! and `Body(x)` was reached only by falling through the items before it,
//! which now fall through the `end`s to it. `Body(x)` and `Ret(x)` hold no
//! branch, so no depth changes. (An `end` of a `block` may be a branch
//! target, and one of an `if` ends an arm: then nothing moves.) One
//! backward walk over the items: linear.

use super::ctl::{Ctl, Structured};

/// Moves a final `Body(x), Ret(x)` out of the loops that close right
/// after it (see the module documentation).
///
/// ```text
/// Body(e) Loop Body(l) BrIf(l, 0) Body(x) Ret(x) End
///   becomes
/// Body(e) Loop Body(l) BrIf(l, 0) End Body(x) Ret(x)
/// ```
pub(crate) fn hoist_final_ret(s: &mut Structured) {
    let items = &mut s.items;
    let n = items.len();
    let mut e = n;
    while e > 0 && items[e - 1] == Ctl::End {
        e -= 1;
    }
    let ends = n - e;
    if ends == 0 || e < 2 {
        return;
    }
    match (items[e - 2], items[e - 1]) {
        (Ctl::Body(b), Ctl::Ret(r)) if b == r => {}
        _ => return,
    }
    // The openers of the trailing `end`s, innermost first: walking back,
    // an opener at nesting 0 matches the next trailing `end`.
    let mut nested = 0usize;
    let mut matched = 0usize;
    for c in items[..e - 2].iter().rev() {
        if matched == ends {
            break;
        }
        match c {
            Ctl::End => nested += 1,
            Ctl::Block | Ctl::Loop | Ctl::If(_) | Ctl::IfNot(_) if nested > 0 => nested -= 1,
            Ctl::Loop => matched += 1,
            Ctl::Block | Ctl::If(_) | Ctl::IfNot(_) => return,
            Ctl::Else if nested == 0 => return,
            _ => {}
        }
    }
    if matched == ends {
        items[e - 2..].rotate_left(2);
    }
}

#[cfg(test)]
mod tests {
    use super::hoist_final_ret;
    use crate::emit::ctl::{Ctl, Structured};
    use crate::emit::structure::structure;
    use ssakit::ir::Block;

    fn items(src: &str) -> Vec<Ctl> {
        let f = ssakit::text::parse_module(src).unwrap().functions.remove(0);
        let mut s = structure(&f).unwrap();
        hoist_final_ret(&mut s);
        s.items
    }

    /// A loop whose exit returns, at the end of the function: the exit
    /// moves after the loop's `end`, and the function falls off its end.
    #[test]
    fn a_final_ret_leaves_the_loop_it_ends() {
        let got = items(
            "function f(a) {\ne:\n  jump l\nl:\n  a = a - 1\n  branch a, l, x\nx:\n  ret a\n}\n",
        );
        let x = Block::new(2);
        assert_eq!(got[got.len() - 3..], [Ctl::End, Ctl::Body(x), Ctl::Ret(x)]);
    }

    /// The rule on item lists: out of loops only, past nested items;
    /// not out of an `if` arm (the `ret` would run on the other path
    /// too), nor out of a `block` (a branch to its end would reach it).
    #[test]
    fn only_out_of_loops() {
        let (a, x) = (Block::new(0), Block::new(1));
        let br_if = Ctl::BrIf {
            block: a,
            negate: false,
            depth: 0,
        };
        let run = |items: Vec<Ctl>| {
            let mut s = Structured {
                items,
                depths: Vec::new(),
            };
            hoist_final_ret(&mut s);
            s.items
        };
        let tail = [Ctl::Body(x), Ctl::Ret(x)];
        // Two loops, an `if` inside the inner one: both `end`s passed.
        let got = run(vec![
            Ctl::Loop,
            Ctl::Loop,
            Ctl::Body(a),
            Ctl::If(a),
            Ctl::Br(1),
            Ctl::End,
            br_if,
            tail[0],
            tail[1],
            Ctl::End,
            Ctl::End,
        ]);
        assert_eq!(got[got.len() - 4..], [Ctl::End, Ctl::End, tail[0], tail[1]]);
        for opener in [Ctl::Block, Ctl::If(a)] {
            let kept = vec![opener, Ctl::Body(a), br_if, tail[0], tail[1], Ctl::End];
            assert_eq!(run(kept.clone()), kept);
            // A loop inside it: the outer `end` stays last, nothing moves.
            let kept = vec![
                opener,
                Ctl::Loop,
                br_if,
                tail[0],
                tail[1],
                Ctl::End,
                Ctl::End,
            ];
            assert_eq!(run(kept.clone()), kept);
        }
    }
}
