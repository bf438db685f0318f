//! Critical-edge splitting (chapter section 13.6, "Destrucción de SSA").
//!
//! A *critical edge* goes from a block with several successor edges to a
//! block with several predecessor edges. Copies that must happen on such an
//! edge have no block of their own to go in: at the end of the source they
//! would also run on its other out-edges, at the start of the target also on
//! its other in-edges. *Splitting* the edge `(b1, b2)` replaces it by
//! `b1 → n → b2` through a fresh block `n` that only jumps to `b2`.
//!
//! Edges are counted with multiplicity: `branch c, L, L` gives two edges to
//! `L`, both critical when `L` has another predecessor edge (or just these
//! two), and each gets its own new block, so that each edge can carry its
//! own copies.
//!
//! # Phis
//!
//! A phi in the target has one operand per distinct predecessor block. When
//! the edges from `b1` are split into `n1, n2, ...`, the operand labelled
//! `b1` is replaced, in place, by one operand per new block, each with the
//! same value: `x = phi(b1: a, c: d)` becomes `x = phi(n1: a, n2: a, c: d)`.
//!
//! # Names and layout
//!
//! The block splitting the edge from `A` to `B` is named `A_B`; when that
//! label is taken, `A_B.1`, `A_B.2`, ... (the first free one). Labels of the
//! text format are `[A-Za-z_][A-Za-z0-9_.]*`, and these names stay in that
//! language when `A` and `B` do. New blocks go in the layout right after
//! their source block, in successor order, so a fall-through-minded printer
//! keeps each next to its source; the layout is rebuilt once.
//!
//! When no label of the function contains `_` or `.` (the usual case), no
//! existing label can be of that form, and, labels being distinct (as the
//! text format requires), `A_B` names exactly one pair `(A, B)`: the
//! `k`-th edge from `A` to `B` gets `A_B` for `k = 0`, else `A_B.k`, with
//! no lookup. Otherwise a set of the labels taken is kept.

use crate::entity::EntityVec;
use crate::ir::{Block, BlockData, Cfg, Function, PhiArg, Terminator};
use rustc_hash::FxHashSet as HashSet;

/// Picks the names of new blocks (see the module doc).
struct Namer {
    /// The labels taken, when some label contains `_` or `.`; `None` when
    /// none does.
    taken: Option<HashSet<Box<str>>>,
}

impl Namer {
    fn new(func: &Function) -> Namer {
        let plain = func.blocks.values().all(|b| !b.name.contains(['_', '.']));
        Namer {
            taken: (!plain).then(|| func.blocks.values().map(|b| b.name.clone()).collect()),
        }
    }

    /// The name of the `k`-th split edge (from 0) from `source` to
    /// `target`, recorded as taken.
    fn name(&mut self, source: &str, target: &str, k: u32) -> Box<str> {
        let Some(taken) = &mut self.taken else {
            // `format!` costs more than the rest of the pass.
            let mut name = String::with_capacity(source.len() + target.len() + 8);
            name.push_str(source);
            name.push('_');
            name.push_str(target);
            if k > 0 {
                name.push('.');
                push_decimal(&mut name, k);
            }
            return name.into();
        };
        fresh_name(taken, source, target)
    }
}

/// What [`split_critical_edges`] did.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default)]
pub struct SplitStats {
    /// Number of edges split, which is also the number of blocks added.
    pub edges_split: usize,
}

/// One split edge: `source → new → target`.
#[derive(Clone, Copy, Debug)]
struct Split {
    source: Block,
    target: Block,
    new: Block,
}

/// Splits every critical edge of `func` by a new block that jumps to the
/// edge's target, and updates the target's phis.
///
/// Runs in `O(blocks + edges + phi operands)`, plus the hashing of block
/// labels to pick fresh names when some label contains `_` or `.`.
pub fn split_critical_edges(func: &mut Function) -> SplitStats {
    let cfg = Cfg::new(func);
    let mut names = Namer::new(func);
    // `edges_to[t] = (s, k)`: `k` edges from source `s` to `t` split so far.
    let mut edges_to: EntityVec<Block, (Block, u32)> =
        EntityVec::filled(func.blocks.len(), (Block(u32::MAX), 0));

    // Step 1: redirect each critical edge to a new block. Sources are
    // visited in layout order and each source's edges in successor order,
    // so `splits` is grouped by source, in layout order.
    let mut splits: Vec<Split> = Vec::new();
    let layout = func.layout.clone();
    for &source in &layout {
        if cfg.succs(source).len() < 2 {
            continue;
        }
        let mut term = std::mem::replace(&mut func.blocks[source].term, Terminator::Ret(None));
        term.for_each_succ_mut(|t| {
            let target = *t;
            if cfg.preds(target).len() < 2 {
                return;
            }
            let seen = &mut edges_to[target];
            if seen.0 != source {
                *seen = (source, 0);
            }
            let k = seen.1;
            seen.1 += 1;
            let name = names.name(&func.blocks[source].name, &func.blocks[target].name, k);
            let new = func.blocks.push(BlockData {
                name,
                phis: Vec::new(),
                insts: Vec::new(),
                term: Terminator::Jump(target),
            });
            splits.push(Split {
                source,
                target,
                new,
            });
            *t = new;
        });
        func.blocks[source].term = term;
    }
    if splits.is_empty() {
        return SplitStats::default();
    }

    // Step 2: phi operands. Group the splits by target (a counting sort,
    // stable, so the splits of one source stay adjacent and in order).
    let n = func.blocks.len();
    let mut start = vec![0u32; n + 1];
    for s in &splits {
        start[s.target.index() + 1] += 1;
    }
    for i in 0..n {
        start[i + 1] += start[i];
    }
    let mut fill = start.clone();
    let mut by_target = vec![0u32; splits.len()];
    for (k, s) in splits.iter().enumerate() {
        by_target[fill[s.target.index()] as usize] = k as u32;
        fill[s.target.index()] += 1;
    }
    // `range[source]`: the slice of `by_target` holding the new blocks on
    // edges from `source` to the target being processed; reset after use.
    let mut range: EntityVec<Block, (u32, u32)> = EntityVec::filled(n, (0, 0));
    for target in func.blocks.keys() {
        let (lo, hi) = (start[target.index()], start[target.index() + 1]);
        if lo == hi || func.blocks[target].phis.is_empty() {
            continue;
        }
        for k in lo..hi {
            let src = splits[by_target[k as usize] as usize].source;
            let r = &mut range[src];
            if r.0 == r.1 {
                *r = (k, k + 1);
            } else {
                r.1 = k + 1;
            }
        }
        // Whether some source has several split edges to `target`: then
        // its operands multiply, else each is relabelled in place.
        let multi = (lo..hi).any(|k| {
            let r = range[splits[by_target[k as usize] as usize].source];
            r.1 - r.0 > 1
        });
        for p in 0..func.blocks[target].phis.len() {
            let inst = func.blocks[target].phis[p];
            if let crate::ir::InstData::Phi { args, .. } = &mut func.insts[inst] {
                let new_block = |k: u32| splits[by_target[k as usize] as usize].new;
                if !multi {
                    for arg in args.iter_mut() {
                        let (r0, r1) = range[arg.block];
                        if r0 != r1 {
                            arg.block = new_block(r0);
                        }
                    }
                    continue;
                }
                // Worked example: edges c → t split as n1 (then), n2
                // (else); `phi(c: a, d: e)` becomes `phi(n1: a, n2: a, d: e)`.
                let mut new_args = Vec::with_capacity(args.len() + (hi - lo) as usize);
                for arg in args.iter() {
                    let (r0, r1) = range[arg.block];
                    if r0 == r1 {
                        new_args.push(*arg);
                    } else {
                        for k in r0..r1 {
                            new_args.push(PhiArg {
                                block: new_block(k),
                                value: arg.value,
                            });
                        }
                    }
                }
                *args = new_args;
            }
        }
        for k in lo..hi {
            range[splits[by_target[k as usize] as usize].source] = (0, 0);
        }
    }

    // Step 3: the layout, rebuilt once: each source followed by its new
    // blocks.
    let mut new_layout = Vec::with_capacity(layout.len() + splits.len());
    let mut next = 0;
    for &b in &layout {
        new_layout.push(b);
        while next < splits.len() && splits[next].source == b {
            new_layout.push(splits[next].new);
            next += 1;
        }
    }
    debug_assert_eq!(next, splits.len());
    func.layout = new_layout;
    SplitStats {
        edges_split: splits.len(),
    }
}

/// Removes the blocks numbered from `first_new` on (those
/// [`split_critical_edges`] created, `func.blocks.len()` before it ran)
/// that are still empty and end in a plain jump: the edge goes straight to
/// the target again. Returns how many were removed.
///
/// # Preconditions
/// No phi remains (a phi of the target would be labelled by the block
/// removed). Each such block has a single predecessor edge, as splitting
/// made it.
pub fn remove_empty_split_blocks(func: &mut Function, first_new: usize) -> usize {
    let n = func.blocks.len();
    // `forward[b]`: where an edge to `b` should go instead.
    let mut forward: Vec<Option<Block>> = vec![None; n];
    let mut removed = 0;
    for b in (first_new..n).map(Block::new) {
        let data = &func.blocks[b];
        debug_assert!(data.phis.is_empty());
        if let (true, Terminator::Jump(t)) = (data.insts.is_empty(), &data.term) {
            forward[b.index()] = Some(*t);
            removed += 1;
        }
    }
    if removed == 0 {
        return 0;
    }
    for &b in &func.layout {
        func.blocks[b].term.for_each_succ_mut(|s| {
            if let Some(t) = forward[s.index()] {
                *s = t;
            }
        });
    }
    func.layout.retain(|b| forward[b.index()].is_none());
    removed
}

/// Appends `k` in decimal.
fn push_decimal(out: &mut String, mut k: u32) {
    let mut digits = [0u8; 10];
    let mut n = 0;
    loop {
        digits[n] = b'0' + (k % 10) as u8;
        n += 1;
        k /= 10;
        if k == 0 {
            break;
        }
    }
    for &d in digits[..n].iter().rev() {
        out.push(d as char);
    }
}

/// `source_target`, or the first free `source_target.k`, `k = 1, 2, ...`;
/// records the name as taken.
fn fresh_name(names: &mut HashSet<Box<str>>, source: &str, target: &str) -> Box<str> {
    let base = format!("{source}_{target}");
    let mut name = base.clone();
    let mut k = 1;
    while names.contains(name.as_str()) {
        name = format!("{base}.{k}");
        k += 1;
    }
    let name: Box<str> = name.into();
    names.insert(name.clone());
    name
}

/// Whether `func` has a critical edge (a cheap precondition check for
/// passes that require none).
pub fn has_critical_edges(func: &Function) -> bool {
    let cfg = Cfg::new(func);
    func.layout.iter().any(|&b| {
        let succs = cfg.succs(b);
        succs.len() > 1 && succs.iter().any(|&t| cfg.preds(t).len() > 1)
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ir::{FunctionBuilder, InstData, Operand};

    fn phi_labels(f: &Function, b: Block) -> Vec<Vec<(String, Operand)>> {
        f.blocks[b]
            .phis
            .iter()
            .map(|&i| match &f.insts[i] {
                InstData::Phi { args, .. } => args
                    .iter()
                    .map(|a| (f.blocks[a.block].name.to_string(), a.value))
                    .collect(),
                _ => unreachable!(),
            })
            .collect()
    }

    fn layout_names(f: &Function) -> Vec<&str> {
        f.layout.iter().map(|&b| &*f.blocks[b].name).collect()
    }

    /// ```text
    ///   A --> C        A: branch c, C, B      the edge A → C is critical
    ///   |     ^        B: jump C
    ///   v     |        C: x = phi(A: 1, B: 2)
    ///   B ----+
    /// ```
    #[test]
    fn triangle() {
        let mut b = FunctionBuilder::new("f");
        let c = b.param("c");
        let (ba, bb, bc) = (b.block("A"), b.block("B"), b.block("C"));
        let x = b.var("x");
        b.switch_to(ba);
        b.branch(c.into(), bc, bb);
        b.switch_to(bb);
        b.jump(bc);
        b.switch_to(bc);
        b.phi(
            x,
            vec![
                PhiArg {
                    block: ba,
                    value: Operand::Const(1),
                },
                PhiArg {
                    block: bb,
                    value: Operand::Const(2),
                },
            ],
        );
        b.ret(Some(x.into()));
        let mut f = b.finish();
        assert!(has_critical_edges(&f));
        let stats = split_critical_edges(&mut f);
        assert_eq!(stats.edges_split, 1);
        assert!(!has_critical_edges(&f));
        assert_eq!(layout_names(&f), ["A", "A_C", "B", "C"]);
        let n = f.block_by_name("A_C").unwrap();
        assert_eq!(f.blocks[n].term, Terminator::Jump(bc));
        assert_eq!(
            f.blocks[ba].term,
            Terminator::Branch {
                cond: c.into(),
                then_dest: n,
                else_dest: bb
            }
        );
        assert_eq!(
            phi_labels(&f, bc),
            [[
                ("A_C".into(), Operand::Const(1)),
                ("B".into(), Operand::Const(2))
            ]]
        );
        // Idempotent.
        assert_eq!(split_critical_edges(&mut f).edges_split, 0);
    }

    /// `branch c, L, L`: two parallel edges, each split by its own block;
    /// the phi operand for `E` becomes two operands. Names collide with an
    /// existing `E_L` block, so the new ones are `E_L.1` and `E_L.2`.
    #[test]
    fn multi_edge_and_name_collision() {
        let mut b = FunctionBuilder::new("f");
        let c = b.param("c");
        let (be, bl, taken) = (b.block("E"), b.block("L"), b.block("E_L"));
        let x = b.var("x");
        b.switch_to(be);
        b.branch(c.into(), bl, bl);
        b.switch_to(taken);
        b.ret(None);
        b.switch_to(bl);
        b.phi(
            x,
            vec![PhiArg {
                block: be,
                value: c.into(),
            }],
        );
        b.ret(Some(x.into()));
        let mut f = b.finish();
        assert_eq!(split_critical_edges(&mut f).edges_split, 2);
        assert_eq!(layout_names(&f), ["E", "E_L.1", "E_L.2", "L", "E_L"]);
        assert_eq!(
            phi_labels(&f, bl),
            [[("E_L.1".into(), c.into()), ("E_L.2".into(), c.into())]]
        );
        let cfg = Cfg::new(&f);
        assert_eq!(cfg.preds(bl).len(), 2);
        assert_eq!(cfg.unique_preds(bl).count(), 2);
    }

    /// A switch whose targets repeat, and a loop back edge; only critical
    /// edges are split (the edge into `X`, which has one predecessor edge,
    /// is not).
    ///
    /// ```text
    /// E: jump H
    /// H: y = phi(E: 0, H: y, H_H...)     switch c, X, [H, H, Z]
    /// X: ret   Z: jump H
    /// ```
    #[test]
    fn switch_with_repeated_targets() {
        let mut b = FunctionBuilder::new("f");
        let c = b.param("c");
        let (be, bh, bx, bz) = (b.block("E"), b.block("H"), b.block("X"), b.block("Z"));
        let y = b.var("y");
        b.switch_to(be);
        b.jump(bh);
        b.switch_to(bh);
        b.phi(
            y,
            vec![
                PhiArg {
                    block: be,
                    value: Operand::Const(0),
                },
                PhiArg {
                    block: bh,
                    value: y.into(),
                },
                PhiArg {
                    block: bz,
                    value: Operand::Const(5),
                },
            ],
        );
        b.terminate(Terminator::Switch {
            value: c.into(),
            default: bx,
            targets: vec![bh, bh, bz],
        });
        b.switch_to(bx);
        b.ret(Some(y.into()));
        b.switch_to(bz);
        b.jump(bh);
        let mut f = b.finish();
        // H → H twice: critical. H → Z: Z has one pred edge. H → X: one.
        assert_eq!(split_critical_edges(&mut f).edges_split, 2);
        assert_eq!(layout_names(&f), ["E", "H", "H_H", "H_H.1", "X", "Z"]);
        assert_eq!(
            phi_labels(&f, bh),
            [[
                ("E".into(), Operand::Const(0)),
                ("H_H".into(), y.into()),
                ("H_H.1".into(), y.into()),
                ("Z".into(), Operand::Const(5)),
            ]]
        );
        // Phi operands still follow the predecessor order of the CFG.
        let cfg = Cfg::new(&f);
        let labels: Vec<Block> = cfg.unique_preds(bh).collect();
        let args: Vec<Block> = match &f.insts[f.blocks[bh].phis[0]] {
            InstData::Phi { args, .. } => args.iter().map(|a| a.block).collect(),
            _ => unreachable!(),
        };
        assert_eq!(labels, args);
    }
}
