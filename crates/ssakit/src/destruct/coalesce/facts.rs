//! The facts coalescing works from, gathered once (Boissinot et al., CGO
//! 2009, sections III-A and IV-B): the copies to try with their priority,
//! the definitions of the reachable blocks, the value of every variable
//! (a copy carries its source's value) and its rank, the place of its
//! definition in the preorder of the dominator tree.

use crate::analysis::live_check::DefUse;
use crate::analysis::{DomTree, LiveCheck};
use crate::destruct::classes::{DefPoint, NIL};
use crate::destruct::to_cssa::Inserted;
use crate::entity::EntityVec;
use crate::ir::{Block, Cfg, Function, InstData, Operand, Point, Var};

/// A copy `dst ← src` between two variables, with its priority.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(super) struct Candidate {
    pub(super) dst: Var,
    pub(super) src: Var,
    /// Whether the copy is one of those inserted around phis.
    pub(super) phi_related: bool,
    /// Loop depth of the block holding the copy.
    pub(super) depth: u32,
}

/// A definition in a reachable block, and where its value comes from.
#[derive(Clone, Copy, Debug)]
pub(super) struct Def {
    pub(super) var: Var,
    /// Where it is defined.
    pub(super) pos: Point,
    pub(super) src: DefSource,
}

/// Where the value of a definition comes from.
#[derive(Clone, Copy, Debug)]
pub(super) enum DefSource {
    /// It is a value of its own (not a copy, or a copy of `undef`).
    Own,
    /// A copy of this variable.
    Var(Var),
    /// A copy of the constant `Gathered::consts[k].0`, for this `k`.
    Const(u32),
}

/// What coalescing needs from the instructions, gathered in one walk of
/// the blocks in layout order (with the definitions and uses for
/// [`LiveCheck`], block by block while each is in cache).
pub(super) struct Gathered {
    /// Every copy between two variables (ordinary copies and entries of
    /// parallel copies), in program order.
    pub(super) candidates: Vec<Candidate>,
    /// `(dst, v)` for every variable operand `v` of every phi `dst`.
    pub(super) phi_pairs: Vec<(Var, Var)>,
    /// The definitions of the reachable blocks, block by block: phis,
    /// then instructions.
    pub(super) defs: Vec<Def>,
    /// By block: its definitions in `defs` (start, number of phis, end).
    pub(super) block_defs: Vec<(u32, u32, u32)>,
    /// `(c, d)`: variable `d` copies constant `c`.
    pub(super) consts: Vec<(i64, Var)>,
}

impl Gathered {
    /// One walk of the blocks in layout order: the facts, and the
    /// definitions and uses for [`LiveCheck`] (each phi operand read once
    /// for both), in lists sized from the phi and instruction counts.
    /// Only the variables `keep` accepts are gathered: their definitions
    /// and uses, and the phi operands and copies with one of them on a
    /// side (the constants copied, all). With `walk` (by block), only the
    /// blocks it marks are walked: the others must hold no definition,
    /// use, phi or copy of a variable `keep` accepts, and their constant
    /// copies are left out of `consts` (the rest is what the whole walk
    /// gathers).
    pub(super) fn new(
        func: &Function,
        cfg: &Cfg,
        dt: &DomTree,
        depth: &EntityVec<Block, u32>,
        inserted: &Inserted,
        keep: impl Fn(Var) -> bool + Copy,
        walk: Option<&[bool]>,
    ) -> (Gathered, DefUse) {
        // Sizes: phi operands (one per predecessor edge in valid SSA),
        // phis and instructions.
        let (mut operands, mut phis, mut insts) = (0, 0, 0);
        for &b in func.layout() {
            let n = func.block_phis(b).len();
            operands += n * cfg.preds(b).len();
            phis += n;
            insts += func.block_insts(b).len();
        }
        let mut du = DefUse::new(func);
        du.reserve(operands, 2 * insts + func.layout().len());
        // After `insert_phi_copies`, a copy per phi operand (at the end of
        // its predecessor) and per phi (after the phis), each a definition
        // too: the copies are about `operands + phis`, the definitions
        // within `2 * phis + insts + operands` (an instruction but a
        // parallel copy defines one variable at most, but for rare calls).
        let mut g = Gathered {
            candidates: Vec::with_capacity(operands + phis),
            phi_pairs: Vec::with_capacity(operands),
            defs: Vec::with_capacity(2 * phis + insts + operands),
            block_defs: vec![(0, 0, 0); func.num_blocks()],
            consts: Vec::new(),
        };
        for &b in func.layout() {
            if walk.is_some_and(|w| !w[b.index()]) {
                // Nothing to gather; its definitions are the empty range.
                continue;
            }
            let reachable = dt.is_reachable(b);
            let start = g.defs.len() as u32;
            for &i in func.block_phis(b) {
                if let InstData::Phi { dst, args } = func.inst(i) {
                    let args = args.as_slice(func);
                    let keep_dst = keep(*dst);
                    if reachable && keep_dst {
                        du.add_phi_def(*dst, b);
                        g.defs.push(Def {
                            var: *dst,
                            pos: Point::entry(b),
                            src: DefSource::Own,
                        });
                    }
                    // One read of the operands for the uses and the pairs.
                    for a in args {
                        let Some(v) = a.value.var() else { continue };
                        let keep_v = keep(v);
                        if reachable && keep_v {
                            du.add_phi_use(dt, a.value, a.block);
                        }
                        if keep_dst || keep_v {
                            g.phi_pairs.push((*dst, v));
                        }
                    }
                }
            }
            // One visit of each instruction: its uses and definitions for
            // the def-use lists (in the order `DefUse::add_insts_of` pushes
            // them), the copies and the definitions for the facts.
            let nphis = g.defs.len() as u32 - start;
            let insts = func.block_insts(b);
            for (k, &i) in insts.iter().enumerate() {
                if reachable {
                    let at = Point::before(b, k);
                    func.for_each_use(i, |v| {
                        if keep(v) {
                            du.add_use(v, at)
                        }
                    });
                }
                let phi_related = inserted[i];
                let copy = |g: &mut Gathered, du: &mut DefUse, dst: Var, src: Operand| {
                    let src = match src {
                        Operand::Var(s) => {
                            if keep(dst) || keep(s) {
                                g.candidates.push(Candidate {
                                    dst,
                                    src: s,
                                    phi_related,
                                    depth: depth[b],
                                });
                            }
                            DefSource::Var(s)
                        }
                        Operand::Const(c) => {
                            g.consts.push((c, dst));
                            DefSource::Const(g.consts.len() as u32 - 1)
                        }
                        Operand::Undef => DefSource::Own,
                    };
                    if reachable && keep(dst) {
                        du.add_def(dst, b);
                        g.defs.push(Def {
                            var: dst,
                            pos: Point::after(b, k),
                            src,
                        });
                    }
                };
                match func.inst(i) {
                    InstData::Copy { dst, src } => copy(&mut g, &mut du, *dst, *src),
                    InstData::ParCopy { copies } => {
                        for &(d, s) in copies.as_slice(func) {
                            copy(&mut g, &mut du, d, s);
                        }
                    }
                    // Calls and operations may define several variables.
                    _ if reachable => func.for_each_def(i, |d| {
                        if keep(d) {
                            du.add_def(d, b);
                            g.defs.push(Def {
                                var: d,
                                pos: Point::after(b, k),
                                src: DefSource::Own,
                            })
                        }
                    }),
                    _ => {}
                }
            }
            if reachable {
                let at = Point::before(b, insts.len());
                func.for_each_term_use(b, |v| {
                    if keep(v) {
                        du.add_use(v, at)
                    }
                });
            }
            g.block_defs[b.index()] = (start, nphis, g.defs.len() as u32);
        }
        (g, du)
    }
}

/// Whether two gatherings of one function, with `walk` (`a`) and
/// without (`b`), agree on all but the constants: the copies, the phi
/// operands, each block's definitions (a copy of a constant as such,
/// whatever its index in `consts`) and the def-use lists (debug checks).
#[cfg(debug_assertions)]
pub(super) fn same_but_constants(a: &(Gathered, DefUse), b: &(Gathered, DefUse)) -> bool {
    let ((ga, dua), (gb, dub)) = (a, b);
    let defs = |g: &Gathered, k: usize| {
        let (start, nphis, end) = g.block_defs[k];
        let kinds = g.defs[start as usize..end as usize].iter().map(|d| {
            let src = match d.src {
                DefSource::Own => None,
                DefSource::Var(s) => Some(Some(s)),
                DefSource::Const(_) => Some(None),
            };
            (d.var, d.pos, src)
        });
        (nphis.min(end - start), kinds.collect::<Vec<_>>())
    };
    ga.candidates == gb.candidates
        && ga.phi_pairs == gb.phi_pairs
        && dua == dub
        && (0..ga.block_defs.len()).all(|k| defs(ga, k) == defs(gb, k))
}

/// The candidates in the order they are to be tried: a stable counting
/// sort (program order breaks ties) by the key `(not phi-related, maximum
/// depth - depth)`.
pub(super) fn sort_candidates(out: Vec<Candidate>) -> Vec<Candidate> {
    let max_depth = out.iter().map(|c| c.depth).max().unwrap_or(0) as usize;
    let key =
        |c: &Candidate| (!c.phi_related as usize) * (max_depth + 1) + max_depth - c.depth as usize;
    let mut start = vec![0usize; 2 * (max_depth + 1) + 1];
    for c in &out {
        start[key(c) + 1] += 1;
    }
    for k in 0..start.len() - 1 {
        start[k + 1] += start[k];
    }
    let mut sorted = out.clone();
    for c in &out {
        let k = key(c);
        sorted[start[k]] = *c;
        start[k] += 1;
    }
    sorted
}

/// Values given to [`VarInfo::new`] instead of computed: by variable, and
/// the parameters to rank (those the gathering kept).
#[derive(Clone, Copy)]
pub(super) struct Values<'a> {
    pub(super) values: &'a [u32],
    pub(super) keep: &'a dyn Fn(Var) -> bool,
}

/// Definition points (as ranks) and values of the variables.
pub(super) struct VarInfo {
    /// By variable: its rank, or [`NIL`] if it has no reachable
    /// definition (it never runs, so it interferes with nothing).
    pub(super) rank: EntityVec<Var, u32>,
    /// By rank: the definition point and value (see [`DefPoint`]).
    pub(super) pts: Vec<DefPoint>,
}

impl VarInfo {
    /// Ranks and values, in one walk of the dominator tree in preorder
    /// (which sees each definition before its uses): parameters, phis (used
    /// ones first), then instructions, block by block. The value of a copy
    /// is its source's; copies of one constant all get the value of the
    /// first variable (in index order) copying it; any other variable is
    /// its own value. With `values` (by variable), those are the values
    /// instead; then only the parameters `keep` accepts are ranked (`g`
    /// gathered with it).
    pub(super) fn new(
        func: &Function,
        dt: &DomTree,
        g: &Gathered,
        live: &LiveCheck,
        values: Option<Values<'_>>,
    ) -> VarInfo {
        let nv = func.num_vars();
        let nb = func.num_blocks();
        let mut rank: EntityVec<Var, u32> = EntityVec::filled(nv, NIL);
        // By index in `g.consts`: the variable labelling its constant.
        let mut order: Vec<u32> = (0..g.consts.len() as u32).collect();
        order.sort_unstable_by_key(|&k| g.consts[k as usize]);
        let mut const_label = vec![Var::new(0); g.consts.len()];
        for run in order.chunk_by(|&a, &b| g.consts[a as usize].0 == g.consts[b as usize].0) {
            let label = g.consts[run[0] as usize].1;
            for &k in run {
                const_label[k as usize] = label;
            }
        }
        // By block preorder number: the first rank of the block.
        let mut first_rank: Vec<u32> = Vec::with_capacity(dt.num_reachable() + 1);
        let mut pts: Vec<DefPoint> = Vec::with_capacity(g.defs.len() + func.params().len());
        let mut define = |pts: &mut Vec<DefPoint>, d: Def, b: Block, used: bool| {
            let value = match (values, d.src) {
                (Some(given), _) => given.values[d.var.index()],
                (None, DefSource::Own) => d.var.as_u32(),
                (None, DefSource::Const(k)) => const_label[k as usize].as_u32(),
                (None, DefSource::Var(s)) => match rank[s] {
                    NIL => s.as_u32(),
                    k => pts[k as usize].value,
                },
            };
            rank[d.var] = pts.len() as u32;
            pts.push(DefPoint {
                var: d.var,
                block: b,
                pos: d.pos,
                end: 0,
                value,
                used,
            });
        };
        // Scratch: the phis of a block that nothing reads.
        let mut unused: Vec<Def> = Vec::new();
        for b in dt.preorder() {
            first_rank.push(pts.len() as u32);
            if b == func.entry() {
                // Parameters are defined at the entry, like its phis, and
                // count as used: two of them always intersect.
                let keep = |p: &&Var| values.as_ref().is_none_or(|given| (given.keep)(**p));
                for &p in func.params().iter().filter(keep) {
                    let d = Def {
                        var: p,
                        pos: Point::entry(b),
                        src: DefSource::Own,
                    };
                    define(&mut pts, d, b, true);
                }
            }
            let (start, nphis, end) = g.block_defs[b.index()];
            let (phis, rest) = g.defs[start as usize..end as usize].split_at(nphis as usize);
            // The used phis in order, then the others in order (one
            // question each).
            unused.clear();
            for &d in phis {
                if live.is_used(d.var) {
                    define(&mut pts, d, b, true);
                } else {
                    unused.push(d);
                }
            }
            for &d in &unused {
                define(&mut pts, d, b, false);
            }
            for &d in rest {
                define(&mut pts, d, b, false);
            }
        }
        first_rank.push(pts.len() as u32);
        // Subtree sizes, children before parents, then each point's end.
        let mut size = vec![1u32; nb];
        for b in dt.preorder().rev() {
            if let Some(p) = dt.idom(b) {
                size[p.index()] += size[b.index()];
            }
        }
        // The points of the block of preorder number `pre` are the ranks
        // `first_rank[pre] .. first_rank[pre + 1]`: one end for them all
        // (a block without points has none to set, and its subtree may
        // hold no rank at all).
        for (pre, b) in dt.preorder().enumerate() {
            let (lo, hi) = (first_rank[pre] as usize, first_rank[pre + 1] as usize);
            if lo == hi {
                continue;
            }
            let end = first_rank[pre + size[b.index()] as usize] - 1;
            for p in &mut pts[lo..hi] {
                p.end = end;
            }
        }
        VarInfo { rank, pts }
    }

    /// By variable: its value (itself when it has no rank).
    pub(super) fn values(&self) -> Vec<u32> {
        let of = |(v, &k): (usize, &u32)| match k {
            NIL => v as u32,
            k => self.pts[k as usize].value,
        };
        self.rank.as_slice().iter().enumerate().map(of).collect()
    }
}
