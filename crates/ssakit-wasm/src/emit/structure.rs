//! A reducible CFG as structured control flow: Ramsey, "Beyond Relooper:
//! recursive translation of unstructured control flow to structured
//! control flow" (ICFP 2022), section 4, on the dominator tree.
//!
//! The paper's three functions, `doTree`, `nodeWithin` and `doBranch`, run
//! here on an explicit work stack (no native recursion: 100,000 nested
//! blocks cost heap, not stack):
//!
//! * `doTree x`: if `x` is a loop header (the target of a retreating edge
//!   in reverse postorder), a `loop` around `nodeWithin x`, else
//!   `nodeWithin x` alone.
//! * `nodeWithin x ys`: for the children `ys` of `x` in the dominator tree
//!   that need a label (merge nodes: two or more incoming edges; and every
//!   forward target of a `switch`), highest reverse-postorder number
//!   first, a `block` whose end is followed by that child's `doTree`; the
//!   innermost block holds `x`'s own code and its terminator.
//! * `doBranch x y`: a retreating edge is a `br` to `y`'s loop; an edge to a
//!   labelled child is a `br` to its block; any other edge goes to a child
//!   that only `x` reaches, whose `doTree` is placed right there.
//!
//! One choice is ours: the order of a node's labelled children is free
//! as long as no child's code branches into one placed inside it, and a
//! child that ends in `ret` goes outermost along the chain of nodes whose
//! code comes last, out of a loop if need be, so that the function ends
//! with its `ret` (no `return`, no final `unreachable`: `return_last`).
//!
//! A branch's depth is found in O(1): each label remembers the height of
//! the context stack where it was opened. The output is a flat list of
//! [`Ctl`] items; a `br_table`'s depths sit in a side vector. A retreating
//! edge whose target does not dominate its source makes the CFG
//! irreducible: an error.

use ssakit::analysis::domtree::{DomAlgorithm, DomTree};
use ssakit::analysis::postorder::DepthFirst;
use ssakit::entity::SecondaryMap;
use ssakit::ir::{Block, Cfg, Function, Terminator};

use super::ctl::{Ctl, Structured};

/// Why a CFG cannot be structured.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Irreducible {
    /// The source of a retreating edge whose target does not dominate it.
    pub(crate) from: Block,
    /// Its target.
    pub(crate) to: Block,
}

enum Work {
    Tree(Block),
    Within(Block, u32),
    Branch(Block, Block),
    Else,
    End,
}

/// Structures `f` (reachable blocks only): Ramsey's translation
/// ([`translate`]), then the peephole rules of `emit/tidy.rs`.
///
/// # Errors
/// [`Irreducible`] if the CFG is not reducible.
pub(crate) fn structure(f: &Function) -> Result<Structured, Irreducible> {
    let mut s = translate(f)?;
    super::tidy::tidy(f, &mut s);
    Ok(s)
}

/// Ramsey's translation alone (see the module documentation): the
/// dominator tree's shape ([`Shape::of`]), then the walk.
///
/// # Errors
/// [`Irreducible`] if the CFG is not reducible.
pub(crate) fn translate(f: &Function) -> Result<Structured, Irreducible> {
    let shape = Shape::of(f)?;
    let mut t = Translation {
        f,
        work: vec![Work::Tree(f.entry())],
        shape,
        out: Structured::default(),
        loop_pos: SecondaryMap::new(None),
        block_pos: SecondaryMap::new(None),
        ctx: Vec::new(),
    };
    while let Some(w) = t.work.pop() {
        match w {
            Work::Tree(x) => t.tree(x),
            Work::Within(x, i) => t.within(x, i),
            Work::Branch(x, y) => t.branch(x, y),
            Work::Else => t.out.items.push(Ctl::Else),
            Work::End => t.end(),
        }
    }
    Ok(t.out)
}

/// What the walk needs of the CFG and its dominator tree.
struct Shape {
    /// Reverse postorder numbers (`None`: unreachable).
    rpo: SecondaryMap<Block, Option<u32>>,
    /// Loop headers: targets of a retreating edge.
    header: SecondaryMap<Block, bool>,
    /// Merge nodes, and a switch's forward targets.
    labelled: SecondaryMap<Block, bool>,
    /// A block's labelled children, highest reverse postorder first.
    kids: SecondaryMap<Block, Vec<Block>>,
    /// The loop header whose returning child goes outside it
    /// ([`return_last`]).
    hoist: Option<Block>,
}

impl Shape {
    /// The shape of `f`'s CFG, or the edge that makes it irreducible.
    fn of(f: &Function) -> Result<Shape, Irreducible> {
        let cfg = Cfg::new(f);
        let dfs = DepthFirst::new(&cfg);
        let dom = DomTree::with_dfs(&cfg, &dfs, DomAlgorithm::default());
        // Reverse postorder numbers.
        let reach = dfs.num_reachable() as u32;
        // `None`: unreachable.
        let mut rpo: SecondaryMap<Block, Option<u32>> = SecondaryMap::new(None);
        for b in f.blocks() {
            if let Some(p) = dfs.post_number(b) {
                rpo[b] = Some(reach - 1 - p);
            }
        }
        // In-degrees with multiplicity (reachable sources), loop headers.
        let mut indeg: SecondaryMap<Block, u32> = SecondaryMap::new(0);
        let mut header: SecondaryMap<Block, bool> = SecondaryMap::new(false);
        for x in f.blocks() {
            if rpo[x].is_none() {
                continue;
            }
            let mut err = None;
            f.for_each_succ(x, |y| {
                if rpo[y] <= rpo[x] {
                    if !dom.dominates(y, x) {
                        err.get_or_insert(Irreducible { from: x, to: y });
                    }
                    header[y] = true;
                } else {
                    indeg[y] += 1;
                }
            });
            if let Some(e) = err {
                return Err(e);
            }
        }
        // A block's labelled children: merge nodes, and a switch's forward
        // targets; highest reverse postorder first.
        let mut labelled: SecondaryMap<Block, bool> = SecondaryMap::new(false);
        for x in f.blocks() {
            if rpo[x].is_none() {
                continue;
            }
            if indeg[x] >= 2 {
                labelled[x] = true;
            }
            if let Terminator::Switch { .. } = f.term(x) {
                f.for_each_succ(x, |y| {
                    if rpo[y] > rpo[x] {
                        labelled[y] = true;
                    }
                });
            }
        }
        let mut kids: SecondaryMap<Block, Vec<Block>> = SecondaryMap::new(Vec::new());
        for x in f.blocks() {
            if rpo[x].is_none() {
                continue;
            }
            let mut ks: Vec<Block> = dom
                .children(x)
                .iter()
                .copied()
                .filter(|&c| labelled[c])
                .collect();
            ks.sort_unstable_by_key(|&c| std::cmp::Reverse(rpo[c]));
            kids[x] = ks;
        }
        let hoist = return_last(f, &rpo, &header, &labelled, &mut kids);
        Ok(Shape {
            rpo,
            header,
            labelled,
            kids,
            hoist,
        })
    }
}

/// The walk: the work stack, the items so far, and the labels open.
struct Translation<'f> {
    f: &'f Function,
    work: Vec<Work>,
    shape: Shape,
    out: Structured,
    /// Context heights of open labels.
    loop_pos: SecondaryMap<Block, Option<u32>>,
    block_pos: SecondaryMap<Block, Option<u32>>,
    /// The context stack: per frame, the label it opened (for clearing).
    ctx: Vec<(Option<Block>, bool)>,
}

impl Translation<'_> {
    /// The depth of the label opened at context height `pos`.
    fn depth(&self, pos: Option<u32>) -> u32 {
        debug_assert!(
            pos.is_some_and(|p| (p as usize) < self.ctx.len()),
            "label not open"
        );
        self.ctx.len() as u32 - 1 - pos.unwrap_or(0)
    }

    /// Opens `item` (`block` or `loop`), the label of `b`.
    fn open(&mut self, item: Ctl, b: Block) {
        let is_loop = item == Ctl::Loop;
        self.out.items.push(item);
        let pos = Some(self.ctx.len() as u32);
        if is_loop {
            self.loop_pos[b] = pos;
        } else {
            self.block_pos[b] = pos;
        }
        self.ctx.push((Some(b), is_loop));
    }

    /// `doTree x`.
    fn tree(&mut self, x: Block) {
        if self.shape.hoist == Some(x) {
            // The returning child outside the loop: `block; loop;
            // ...; end; end`, then its code, last.
            let y = self.shape.kids[x][0];
            self.open(Ctl::Block, y);
            self.work.push(Work::Tree(y));
            self.work.push(Work::End);
            self.open(Ctl::Loop, x);
            self.work.push(Work::End);
            self.work.push(Work::Within(x, 1));
            return;
        }
        if self.shape.header[x] {
            self.open(Ctl::Loop, x);
            self.work.push(Work::End);
        }
        self.work.push(Work::Within(x, 0));
    }

    /// `nodeWithin x`, from its `i`-th labelled child.
    fn within(&mut self, x: Block, i: u32) {
        if let Some(&y) = self.shape.kids[x].get(i as usize) {
            self.open(Ctl::Block, y);
            self.work.push(Work::Tree(y));
            self.work.push(Work::End);
            self.work.push(Work::Within(x, i + 1));
            return;
        }
        self.out.items.push(Ctl::Body(x));
        match *self.f.term(x) {
            Terminator::Jump(y) => self.work.push(Work::Branch(x, y)),
            Terminator::Branch {
                then_dest,
                else_dest,
                ..
            } => {
                self.out.items.push(Ctl::If(x));
                self.ctx.push((None, false));
                self.work.push(Work::End);
                self.work.push(Work::Branch(x, else_dest));
                self.work.push(Work::Else);
                self.work.push(Work::Branch(x, then_dest));
            }
            Terminator::Switch {
                default, targets, ..
            } => {
                let start = self.out.depths.len() as u32;
                for &y in targets.as_slice(self.f) {
                    let d = self.target_depth(x, y);
                    self.out.depths.push(d);
                }
                let default = self.target_depth(x, default);
                self.out.items.push(Ctl::BrTable {
                    block: x,
                    start,
                    len: self.out.depths.len() as u32 - start,
                    default,
                });
            }
            Terminator::Ret(_) => self.out.items.push(Ctl::Ret(x)),
            Terminator::Unreachable => self.out.items.push(Ctl::Unreachable),
        }
    }

    /// The depth of a `switch` target `y` of `x`: its loop going back,
    /// its block going forward.
    fn target_depth(&self, x: Block, y: Block) -> u32 {
        let pos = if self.shape.rpo[y] <= self.shape.rpo[x] {
            self.loop_pos[y]
        } else {
            self.block_pos[y]
        };
        self.depth(pos)
    }

    /// `doBranch x y`.
    fn branch(&mut self, x: Block, y: Block) {
        if self.shape.rpo[y] <= self.shape.rpo[x] {
            let d = self.depth(self.loop_pos[y]);
            self.out.items.push(Ctl::Br(d));
        } else if self.shape.labelled[y] {
            let d = self.depth(self.block_pos[y]);
            self.out.items.push(Ctl::Br(d));
        } else {
            self.work.push(Work::Tree(y));
        }
    }

    /// `end`, closing the innermost label.
    fn end(&mut self) {
        self.out.items.push(Ctl::End);
        if let Some((Some(b), is_loop)) = self.ctx.pop() {
            if is_loop {
                self.loop_pos[b] = None;
            } else {
                self.block_pos[b] = None;
            }
        }
    }
}

/// The function's code ends with a `ret` when one can come last: that
/// `ret` needs no `return` (the body's `end` follows), and no
/// `unreachable` is needed after a final `end` (Go's functions end so:
/// `block; loop; ...; end; end; i32.const 1; end`).
///
/// The code of `nodeWithin x` ends with its outermost labelled child's
/// (`kids[x][0]`), and a node without labelled children ends with the
/// node its `jump` goes to when that one is placed right there. Along
/// that chain from the entry, the first node with a labelled child that
/// ends in `ret` (a leaf of the dominator tree: it has no successor)
/// gets it as its outermost child. Any order of the children is valid
/// as long as no child's code branches to a child placed inside it, and
/// a block without successors branches nowhere. At a loop header the
/// child goes outside the loop (`block; loop; ...; end; end`, a branch
/// out of the loop to its block): its header is returned.
fn return_last(
    f: &Function,
    rpo: &SecondaryMap<Block, Option<u32>>,
    header: &SecondaryMap<Block, bool>,
    labelled: &SecondaryMap<Block, bool>,
    kids: &mut SecondaryMap<Block, Vec<Block>>,
) -> Option<Block> {
    let returns = |y: Block| matches!(f.term(y), Terminator::Ret(_));
    let mut x = f.entry();
    // Each step goes forward in reverse postorder: at most one per block.
    loop {
        let ks = &mut kids[x];
        if let Some(p) = ks.iter().position(|&y| returns(y)) {
            let y = ks.remove(p);
            ks.insert(0, y);
            return header[x].then_some(x);
        }
        if header[x] {
            return None;
        }
        match (ks.first(), f.term(x)) {
            (Some(&y), _) => x = y,
            (None, &Terminator::Jump(y)) if rpo[y] > rpo[x] && !labelled[y] => x = y,
            _ => return None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::{structure, translate, Ctl, Irreducible};
    use crate::emit::tests::func;
    use ssakit::ir::Block;

    /// A `ret` reached from two places in a loop: its block goes around
    /// the loop and its code comes last (`block; loop; ...; end; end;
    /// ret`), not inside the loop with an `unreachable` after it.
    #[test]
    fn a_returning_child_of_a_loop_comes_last() {
        let f = func(
            "function f(n) {\nentry:\n  n = n + 1\n  jump h\nh:\n  n = n - 1\n  c = n > 10\n  branch c, out, b\nb:\n  d = n > 0\n  branch d, h, out\nout:\n  ret n\n}\n",
        );
        let items = structure(&f).unwrap().items;
        let out = Block::new(3);
        assert_eq!(items.last(), Some(&Ctl::Ret(out)), "{items:?}");
        assert_eq!(&items[1..3], [Ctl::Block, Ctl::Loop], "{items:?}");
    }

    /// Without a loop: of the entry's labelled children, the one that
    /// returns is placed outermost, after the one that does not.
    #[test]
    fn a_returning_child_goes_outermost() {
        let f = func(
            "function f(n) {\nentry:\n  switch n, u, [r, a]\na:\n  c = n > 5\n  branch c, r, u\nu:\n  unreachable\nr:\n  ret n\n}\n",
        );
        let items = structure(&f).unwrap().items;
        let r = Block::new(3);
        assert_eq!(items.last(), Some(&Ctl::Ret(r)), "{items:?}");
        assert!(items.contains(&Ctl::Unreachable), "{items:?}");
    }

    /// A diamond whose arms both return: `if ... else ... end`, each arm
    /// its body and its `ret`, in the paper's order.
    #[test]
    fn a_branch_becomes_if_else() {
        let f = func("function f(a) {\nentry:\n  branch a, l, r\nl:\n  ret a\nr:\n  ret 0\n}\n");
        let (entry, l, r) = (Block::new(0), Block::new(1), Block::new(2));
        assert_eq!(
            translate(&f).unwrap().items,
            [
                Ctl::Body(entry),
                Ctl::If(entry),
                Ctl::Body(l),
                Ctl::Ret(l),
                Ctl::Else,
                Ctl::Body(r),
                Ctl::Ret(r),
                Ctl::End
            ]
        );
    }

    /// A `switch` is one `br_table` whose depths, one per target, sit in
    /// the side vector.
    #[test]
    fn a_switch_becomes_a_br_table() {
        let f = func("function f(n) {\nentry:\n  switch n, c, [a, b]\na:\n  ret 1\nb:\n  ret 2\nc:\n  ret 3\n}\n");
        let s = structure(&f).unwrap();
        let tables: Vec<_> = s
            .items
            .iter()
            .filter_map(|c| match *c {
                Ctl::BrTable { start, len, .. } => Some((start, len)),
                _ => None,
            })
            .collect();
        assert_eq!(tables, [(0, 2)], "{:?}", s.items);
        assert_eq!(s.depths.len(), 2);
    }

    /// A loop with two entries (`a` and `b`) is irreducible: the error
    /// names one of its retreating edges.
    #[test]
    fn two_entries_into_a_loop_are_irreducible() {
        let f = func("function f(c) {\nentry:\n  branch c, a, b\na:\n  jump b\nb:\n  jump a\n}\n");
        let (a, b) = (Block::new(1), Block::new(2));
        let e = structure(&f).unwrap_err();
        assert!(
            [
                Irreducible { from: a, to: b },
                Irreducible { from: b, to: a }
            ]
            .contains(&e),
            "{e:?}"
        );
    }

    /// A loop: one `loop`, and every opener closed by one `end`.
    #[test]
    fn a_loop_opens_and_ends_once() {
        let f = func("function f(n) {\nentry:\n  jump h\nh:\n  n = n - 1\n  c = n > 0\n  branch c, h, x\nx:\n  ret n\n}\n");
        let items = structure(&f).unwrap().items;
        assert_eq!(items.iter().filter(|c| **c == Ctl::Loop).count(), 1);
        let opened = items
            .iter()
            .filter(|c| matches!(c, Ctl::Block | Ctl::Loop | Ctl::If(_) | Ctl::IfNot(_)))
            .count();
        assert_eq!(opened, items.iter().filter(|c| **c == Ctl::End).count());
    }
}
