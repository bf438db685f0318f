//! The interference graph that coalescing needs: only between variables
//! that a chain of copies and phis could put in one congruence class, and
//! only between different values (Boissinot et al., CGO 2009, section
//! III-A; Chaitin's interference graph, restricted).
//!
//! # Terms
//!
//! * **Components.** Coalescing can only ever put two variables in one
//!   class if phis and copies link them: the components of that *affinity*
//!   relation (computed by the caller) bound every class. A variable alone
//!   in its component is *untracked*: no edge can matter for it.
//! * **Intersection** (Budimlić et al., PLDI 2002). In strict SSA the live
//!   ranges of `a` and `b` intersect only if the definition of one, say
//!   `b`, dominates that of the other, and then exactly when `b` is live
//!   just after `a` is defined. Uses as phi operands count at the end of
//!   the predecessor (as in [`Liveness`]). Variables defined at one point
//!   are special: two destinations of one parallel copy, or two
//!   parameters, always intersect (both are written there, even if one is
//!   dead); two phis of one block intersect when either is live after the
//!   phis (the copies that feed them meet in the predecessors).
//! * **Values.** Each variable carries a value label, equal for a copy and
//!   its source (see [`coalesce`](mod@super::coalesce)). Two variables
//!   *interfere* when they intersect and their labels differ.
//! * **Definition groups.** The tracked variables of one component defined
//!   at one point (the destinations of a parallel copy, the phis of a
//!   block, the parameters). They stand for the cliques among them: a
//!   block with `k` phis and `p` predecessors has a parallel copy of `k`
//!   entries in each, `p·k²/2` pairs in all, most of the pairs on a loop
//!   nest, while the groups keep `(p + 1)·k` entries.
//!
//! The graph is then: explicit edges between interfering variables of one
//! component defined at different points, plus the groups, where two
//! members interfere when their labels differ (for phis, when either is
//! also live after the phis).
//!
//! # The walk
//!
//! Each reachable block is walked backwards from its live-out set, keeping
//! the set `L` of tracked variables live at the current point, as for a
//! classic interference graph. At the definition of `d`, `L` holds exactly
//! the variables live just after it whose definitions dominate it (those
//! defined later in the block were removed at their definition, those
//! defined at the same point just before pairing), so the intersecting
//! pairs `(d, u)` are `u ∈ L`. To look only at pairs that are edges, `L` is
//! kept in buckets: per component, the list of live value labels; per
//! label, the list of live variables with it. `d` is paired with the
//! buckets of its component with another label, so the work is the number
//! of edges, plus one for `d`'s own label: many live copies of one value
//! cost nothing.
//!
//! Worked example, the swap loop after copy insertion (edges split):
//!
//! ```text
//! L:  a = phi(E: a1', S: a2')    b = phi(E: b1', S: b2')
//!     c = a < 10                 branch c, S, X
//! S:  (a2', b2') = (b, a)        jump L
//! X:  ret b
//! ```
//!
//! In `S`, walked backwards: `L = {a2', b2'}` (live out to the phis), then
//! the parallel copy removes both and makes them a group (labels `b` and
//! `a` differ: they interfere), and adds its sources `b` and `a`. In `L`,
//! `b` and `a` are live after the phis, defined at one point with two
//! labels: the phis' group interferes too, which keeps the swap's copies.
//!
//! Building costs `O(instructions + liveness + edges)` and the graph takes
//! `O(variables + edges)` space. A component whose variables pairwise
//! intersect with distinct labels at different points has a quadratic
//! number of edges, but then the classic interference graph would too.

use crate::analysis::{DomTree, Liveness};
use crate::entity::EntityVec;
use crate::ir::{Function, Operand, Var};

/// No list entry, no component, no group.
const NIL: u32 = u32::MAX;

/// One variable of a definition group: the variable, its value label,
/// whether it counts as live after the point (always, except for phis),
/// and the group.
#[derive(Clone, Copy, Debug)]
struct Member {
    var: Var,
    label: Var,
    live: bool,
    group: u32,
}

/// The interference graph, in two parts: explicit edges in CSR form, and
/// *definition groups* standing for the cliques of variables defined at
/// one point (the destinations of one parallel copy, the phis of one
/// block, the parameters).
///
/// A parallel copy of `k` entries at the end of each of `p` predecessors of
/// a block with `k` phis would give `p·k²/2` edges, most of the graph on
/// loop nests; a group keeps its `k` members once instead, and two of them
/// interfere when their labels differ (and, for phis, either is live after
/// the phis).
///
/// Invariant: the explicit edges are symmetric, without self loops or
/// repeated edges, each between two tracked variables of one component
/// with different labels and different definition points; each tracked
/// variable is in at most one group: the tracked variables of its
/// component defined at its point, if there are two or more.
#[derive(Clone, Debug)]
pub struct Interference {
    start: Vec<u32>,
    adj: Vec<Var>,
    /// By variable: its place in `members`, or [`NIL`] if in no group.
    slot: Vec<u32>,
    /// CSR by group: its members.
    group_start: Vec<u32>,
    members: Vec<Member>,
}

impl Interference {
    /// Builds the graph of `func` for the components `comp` (by variable:
    /// a component number, or `u32::MAX` for an untracked variable) and
    /// the value labels `value`.
    ///
    /// # Preconditions
    /// `func` is strict SSA with the dominance property; `dt` and `live`
    /// are its dominator tree and liveness; tracked variables have a
    /// definition in a reachable block; a tracked variable's label is a
    /// variable of its own component, component numbers are `< nv`.
    pub fn build(
        func: &Function,
        dt: &DomTree,
        live: &Liveness,
        comp: &[u32],
        value: &EntityVec<Var, Var>,
    ) -> Interference {
        let nv = func.vars.len();
        let mut set = LiveSet::new(comp, value);
        let mut pairs: Vec<(u32, u32)> = Vec::new();
        let mut g = Interference {
            start: Vec::new(),
            adj: Vec::new(),
            slot: vec![NIL; nv],
            group_start: vec![0],
            members: Vec::new(),
        };
        let tracked = |v: Var| comp[v.index()] != NIL;
        // Scratch: the tracked definitions of one point.
        let mut group: Vec<Member> = Vec::new();
        let member = |var: Var, live: bool| Member {
            var,
            label: value[var],
            live,
            group: NIL,
        };
        for b in func.blocks.keys() {
            if !dt.is_reachable(b) {
                continue;
            }
            let data = &func.blocks[b];
            for &v in live.live_out(b) {
                if tracked(v) {
                    set.insert(v);
                }
            }
            if let Some(Operand::Var(v)) = data.term.operand() {
                if tracked(v) {
                    set.insert(v);
                }
            }
            for &i in data.insts.iter().rev() {
                let inst = &func.insts[i];
                group.clear();
                inst.for_each_def(|d| {
                    if tracked(d) {
                        group.push(member(d, true));
                    }
                });
                for m in &group {
                    set.remove(m.var);
                }
                for m in &group {
                    set.pair_with_live(m.var, &mut pairs);
                }
                g.add_groups(&mut group, comp);
                inst.for_each_use(|u| {
                    if tracked(u) {
                        set.insert(u);
                    }
                });
            }
            // Phis: against the live-in variables still live after them;
            // with each other (the group) when either is live after them.
            group.clear();
            for &i in &data.phis {
                if let Some(d) = func.insts[i].def() {
                    if tracked(d) {
                        group.push(member(d, set.contains(d)));
                    }
                }
            }
            for m in &group {
                set.remove(m.var);
            }
            for m in &group {
                set.pair_with_live(m.var, &mut pairs);
            }
            g.add_groups(&mut group, comp);
            // Parameters: with each other, always.
            if b == func.entry() {
                group.clear();
                for &p in &func.params {
                    if tracked(p) {
                        group.push(member(p, true));
                    }
                }
                g.add_groups(&mut group, comp);
            }
            set.clear();
        }
        // CSR by a counting sort of both directions.
        let mut start = vec![0u32; nv + 1];
        for &(a, b) in &pairs {
            start[a as usize + 1] += 1;
            start[b as usize + 1] += 1;
        }
        for v in 0..nv {
            start[v + 1] += start[v];
        }
        let mut fill = start.clone();
        let mut adj = vec![Var(0); 2 * pairs.len()];
        for &(a, b) in &pairs {
            adj[fill[a as usize] as usize] = Var(b);
            fill[a as usize] += 1;
            adj[fill[b as usize] as usize] = Var(a);
            fill[b as usize] += 1;
        }
        g.start = start;
        g.adj = adj;
        g
    }

    /// Records the variables defined at one point, split by component, as
    /// groups (runs of two or more). Sorts `group`.
    fn add_groups(&mut self, group: &mut [Member], comp: &[u32]) {
        if group.len() < 2 {
            return;
        }
        group.sort_unstable_by_key(|m| comp[m.var.index()]);
        for run in group.chunk_by(|a, b| comp[a.var.index()] == comp[b.var.index()]) {
            if run.len() < 2 {
                continue;
            }
            let id = self.group_start.len() as u32 - 1;
            for &m in run {
                self.slot[m.var.index()] = self.members.len() as u32;
                self.members.push(Member { group: id, ..m });
            }
            self.group_start.push(self.members.len() as u32);
        }
    }

    /// The variables joined to `v` by an explicit edge (those defined at
    /// `v`'s own point aside).
    pub fn neighbors(&self, v: Var) -> &[Var] {
        &self.adj[self.start[v.index()] as usize..self.start[v.index() + 1] as usize]
    }

    /// `v`'s entry in its group and the group's members, `v` included,
    /// if `v` is not alone at its point.
    fn group(&self, v: Var) -> Option<(Member, &[Member])> {
        let slot = self.slot[v.index()];
        if slot == NIL {
            return None;
        }
        let me = self.members[slot as usize];
        let g = me.group as usize;
        let (lo, hi) = (self.group_start[g], self.group_start[g + 1]);
        Some((me, &self.members[lo as usize..hi as usize]))
    }

    /// Number of variables [`Interference::for_each_neighbor`] may look
    /// at for `v`: an upper bound of its degree.
    pub fn weight(&self, v: Var) -> usize {
        self.neighbors(v).len() + self.group(v).map_or(0, |(_, g)| g.len() - 1)
    }

    /// Calls `f` on every variable that interferes with `v` (explicit
    /// neighbours, then the members of `v`'s group with another label,
    /// for phis when either is live after the phis) until `f` returns
    /// true; returns whether it did. Returns the number of variables
    /// looked at too.
    pub fn any_neighbor(&self, v: Var, mut f: impl FnMut(Var) -> bool) -> (bool, usize) {
        let ns = self.neighbors(v);
        for (k, &n) in ns.iter().enumerate() {
            if f(n) {
                return (true, k + 1);
            }
        }
        let Some((me, group)) = self.group(v) else {
            return (false, ns.len());
        };
        for (k, m) in group.iter().enumerate() {
            if m.var != v && m.label != me.label && (m.live || me.live) && f(m.var) {
                return (true, ns.len() + k + 1);
            }
        }
        (false, ns.len() + group.len())
    }

    /// Every variable that interferes with `v` (allocates: for checks).
    pub fn interfering_with(&self, v: Var) -> Vec<Var> {
        let mut out = Vec::new();
        self.any_neighbor(v, |n| {
            out.push(n);
            false
        });
        out
    }

    /// Number of explicit edges (the cliques of groups aside).
    pub fn num_edges(&self) -> usize {
        self.adj.len() / 2
    }
}

/// The live tracked variables of the walk, bucketed by component and
/// value label, with `O(1)` insertion and removal: intrusive doubly linked
/// lists over variable numbers, each entry packed so that an operation
/// touches few cache lines.
struct LiveSet {
    /// By variable: its component and label.
    meta: Vec<(u32, u32)>,
    /// By variable: the next and previous live variables with its label;
    /// `prev` is [`ABSENT`] when the variable is not in the set.
    node: Vec<(u32, u32)>,
    /// By label: its first live variable, and the next and previous live
    /// labels of its component.
    label: Vec<(u32, u32, u32)>,
    /// By component: its first live label.
    first_label: Vec<u32>,
    /// The variables inserted since the last [`LiveSet::clear`].
    members: Vec<Var>,
}

/// `prev` of a variable not in the set (`NIL` is the head's `prev`).
const ABSENT: u32 = u32::MAX - 1;

impl LiveSet {
    fn new(comp: &[u32], value: &EntityVec<Var, Var>) -> LiveSet {
        let nv = comp.len();
        LiveSet {
            meta: (0..nv).map(|v| (comp[v], value[Var::new(v)].0)).collect(),
            node: vec![(NIL, ABSENT); nv],
            label: vec![(NIL, NIL, NIL); nv],
            first_label: vec![NIL; nv],
            members: Vec::new(),
        }
    }

    fn contains(&self, v: Var) -> bool {
        self.node[v.index()].1 != ABSENT
    }

    /// Adds `v` (tracked) unless present.
    fn insert(&mut self, v: Var) {
        let vi = v.index();
        if self.node[vi].1 != ABSENT {
            return;
        }
        self.members.push(v);
        let (c, l) = self.meta[vi];
        let head = self.label[l as usize].0;
        if head == NIL {
            // The label's first live variable: link the label in.
            let first = self.first_label[c as usize];
            if first != NIL {
                self.label[first as usize].2 = l;
            }
            self.label[l as usize] = (v.0, first, NIL);
            self.first_label[c as usize] = l;
        } else {
            self.node[head as usize].1 = v.0;
            self.label[l as usize].0 = v.0;
        }
        self.node[vi] = (head, NIL);
    }

    /// Removes `v` if present.
    fn remove(&mut self, v: Var) {
        let vi = v.index();
        let (next, prev) = self.node[vi];
        if prev == ABSENT {
            return;
        }
        self.node[vi].1 = ABSENT;
        let (c, l) = self.meta[vi];
        if next != NIL {
            self.node[next as usize].1 = prev;
        }
        if prev != NIL {
            self.node[prev as usize].0 = next;
            return;
        }
        self.label[l as usize].0 = next;
        if next == NIL {
            // No live variable has the label any more: unlink it.
            let (_, ln, lp) = self.label[l as usize];
            if lp == NIL {
                self.first_label[c as usize] = ln;
            } else {
                self.label[lp as usize].1 = ln;
            }
            if ln != NIL {
                self.label[ln as usize].2 = lp;
            }
        }
    }

    /// Adds an edge between `d` (not in the set) and every live variable
    /// of its component with another label; the variables with `d`'s own
    /// label are skipped without being looked at.
    fn pair_with_live(&self, d: Var, pairs: &mut Vec<(u32, u32)>) {
        let (c, own) = self.meta[d.index()];
        let mut l = self.first_label[c as usize];
        while l != NIL {
            let (head, next_label, _) = self.label[l as usize];
            if l != own {
                let mut u = head;
                while u != NIL {
                    pairs.push((d.0, u));
                    u = self.node[u as usize].0;
                }
            }
            l = next_label;
        }
    }

    /// Empties the set.
    fn clear(&mut self) {
        while let Some(v) = self.members.pop() {
            self.remove(v);
        }
    }
}

/// Small programs that the tests of interference and of coalescing share.
#[cfg(test)]
pub(super) mod fixtures {
    use crate::ir::{BinOp, Function, FunctionBuilder, InstData, Operand, Var};

    /// `e(a): b = a; c = a; d = a + 1; print a, b, c, d; ret`, with
    /// `[a, b, c, d]`.
    pub fn copies_of_one_value() -> (Function, [Var; 4]) {
        let mut fb = FunctionBuilder::new("f");
        let a = fb.param("a");
        let e = fb.block("e");
        let (b, c, d) = (fb.var("b"), fb.var("c"), fb.var("d"));
        fb.switch_to(e);
        fb.copy(b, a.into());
        fb.copy(c, a.into());
        fb.binary(d, BinOp::Add, a.into(), Operand::Const(1));
        fb.print(vec![a.into(), b.into(), c.into(), d.into()]);
        fb.ret(None);
        (fb.finish(), [a, b, c, d])
    }

    /// `e(a, b): (p, q) = (P, Q); (r, s) = (R, S); print p, r; ret` with
    /// `sources` the parameter names `[P, Q, R, S]`, each `"a"` or `"b"`;
    /// with `[a, b, p, q, r, s]`.
    pub fn two_parallel_copies(sources: [&str; 4]) -> (Function, [Var; 6]) {
        let mut fb = FunctionBuilder::new("f");
        let (a, b) = (fb.param("a"), fb.param("b"));
        let e = fb.block("e");
        let (p, q, r, s) = (fb.var("p"), fb.var("q"), fb.var("r"), fb.var("s"));
        fb.switch_to(e);
        let src = sources.map(|name| match name {
            "a" => Operand::Var(a),
            "b" => Operand::Var(b),
            _ => panic!("no parameter {name}"),
        });
        fb.inst(InstData::ParCopy {
            copies: vec![(p, src[0]), (q, src[1])],
        });
        fb.inst(InstData::ParCopy {
            copies: vec![(r, src[2]), (s, src[3])],
        });
        fb.print(vec![p.into(), r.into()]);
        fb.ret(None);
        (fb.finish(), [a, b, p, q, r, s])
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ir::{Cfg, FunctionBuilder, PhiArg};

    /// The graph of `f` with every variable in one component and the
    /// given labels (by variable number), as sorted pairs of names.
    fn edges(f: &Function, labels: &[u32]) -> Vec<(String, String)> {
        let cfg = Cfg::new(f);
        let (dt, live) = (DomTree::new(&cfg), Liveness::new(f, &cfg));
        let comp = vec![0u32; f.vars.len()];
        let value = EntityVec::from_vec(labels.iter().map(|&l| Var(l)).collect());
        let g = Interference::build(f, &dt, &live, &comp, &value);
        let name = |v: Var| f.vars[v].name.to_string();
        let all: Vec<(Var, Var)> = (0..f.vars.len() as u32)
            .flat_map(|a| {
                g.interfering_with(Var(a))
                    .into_iter()
                    .map(move |b| (Var(a), b))
            })
            .collect();
        for &(a, b) in &all {
            assert!(all.contains(&(b, a)), "not symmetric: {a} {b}");
        }
        let mut out: Vec<(String, String)> = all
            .into_iter()
            .filter(|&(a, b)| a < b)
            .map(|(a, b)| (name(a), name(b)))
            .collect();
        out.sort();
        out
    }

    fn pairs(p: &[(&str, &str)]) -> Vec<(String, String)> {
        p.iter().map(|&(a, b)| (a.into(), b.into())).collect()
    }

    /// ```text
    /// e(a, b): (p, q) = (a, b); (r, s) = (a, a); print p, r; ret
    /// ```
    ///
    /// Parameters always intersect (`a — b`). `p` and `q` are written by
    /// one parallel copy with different values, so intersect though `q`
    /// is dead; `q` also meets `a`, read later. `r` and `s` copy one value:
    /// no edge, nor with `a` or `p`, whatever their liveness.
    #[test]
    fn parallel_copy_destinations_and_parameters() {
        let (f, [a, b, ..]) = fixtures::two_parallel_copies(["a", "b", "a", "a"]);
        // Labels: a, b, p = a, q = b, r = a, s = a.
        let labels = [a.0, b.0, a.0, b.0, a.0, a.0];
        assert_eq!(
            edges(&f, &labels),
            pairs(&[("a", "b"), ("a", "q"), ("p", "q")])
        );
    }

    /// ```text
    /// e(a, b, c): branch c, l, r      l: jump j      r: jump j
    /// j: x = phi(l: a, r: b); y = phi(l: b, r: a); z = phi(l: a, r: a)
    ///    print x; ret
    /// ```
    ///
    /// Only `x` is live after the phis: it meets `y` and `z`, which,
    /// both dead, do not meet each other. The operands are used at the
    /// ends of `l` and `r`, not in `j`.
    #[test]
    fn phis_intersect_when_either_is_live() {
        let mut fb = FunctionBuilder::new("f");
        let (a, b, c) = (fb.param("a"), fb.param("b"), fb.param("c"));
        let (e, l, r, j) = (fb.block("e"), fb.block("l"), fb.block("r"), fb.block("j"));
        let (x, y, z) = (fb.var("x"), fb.var("y"), fb.var("z"));
        fb.switch_to(e);
        fb.branch(c.into(), l, r);
        for blk in [l, r] {
            fb.switch_to(blk);
            fb.jump(j);
        }
        fb.switch_to(j);
        let arg = |block, v: Var| PhiArg {
            block,
            value: v.into(),
        };
        fb.phi(x, vec![arg(l, a), arg(r, b)]);
        fb.phi(y, vec![arg(l, b), arg(r, a)]);
        fb.phi(z, vec![arg(l, a), arg(r, a)]);
        fb.print(vec![x.into()]);
        fb.ret(None);
        let f = fb.finish();
        let labels: Vec<u32> = (0..f.vars.len() as u32).collect();
        assert_eq!(
            edges(&f, &labels),
            pairs(&[("a", "b"), ("a", "c"), ("b", "c"), ("x", "y"), ("x", "z")])
        );
    }

    /// ```text
    /// e(a): b = a; c = a; d = a + 1; print a, b, c, d; ret
    /// ```
    ///
    /// `a`, `b`, `c` are live together with one value: no edge between
    /// them; `d` meets all three.
    #[test]
    fn live_copies_of_one_value() {
        let (f, [a, .., d]) = fixtures::copies_of_one_value();
        let labels = [a.0, a.0, a.0, d.0];
        assert_eq!(
            edges(&f, &labels),
            pairs(&[("a", "d"), ("b", "d"), ("c", "d")])
        );
    }
}
