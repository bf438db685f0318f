//! The SSA verifier and the report of the chapter's properties.
//!
//! [`verify`] checks that a function is valid SSA with the dominance
//! property. Every invariant it checks, each reported as an [`IrError`] with
//! the block and instruction concerned:
//!
//! 1. the layout is non-empty and lists each block once; terminators name
//!    blocks of the layout;
//! 2. each phi has exactly one operand per distinct predecessor block;
//! 3. single assignment: each variable is defined at most once (parameters
//!    count as definitions at the entry);
//! 4. each variable used has a definition;
//! 5. dominance: each use is dominated by its definition, a phi operand
//!    counting as a use at the end of the corresponding predecessor (the
//!    convention of section 13.3). Uses in unreachable blocks are not
//!    checked: dominance is undefined there.
//!
//! On success it returns a [`Report`] of the properties of section 13.5 and
//! chapter 12: minimal, pruned, conventional, and whether any `undef`
//! operand is left (a program whose every use has a definition on every path
//! is *strict*).
//!
//! * **Pruned**: no dead phi — every phi's value reaches a non-phi use,
//!   possibly through other phis.
//! * **Conventional**: no two variables of one phi web (variables connected
//!   through phis, found by union-find as in section 13.6) interfere, where
//!   two variables interfere when one is live where the other is defined.
//! * **Minimal**: variables are grouped by the original variable they are
//!   versions of (or, for text without that information, by phi web); every
//!   phi of a group stands in the iterated dominance frontier of the blocks
//!   holding the group's other definitions, and no block has two phis of one
//!   group.

use crate::analysis::{DomTree, IdfCalculator, VarLiveness};
use crate::entity::EntityVec;
use crate::error::IrError;
use crate::ir::{Block, Cfg, Function, Inst, InstData, Operand, Var};
use crate::union_find::UnionFind;

/// The chapter's properties of a valid SSA function.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Report {
    /// Number of phis.
    pub phis: usize,
    /// Phis not placed at an iterated dominance frontier, or duplicated.
    pub non_minimal_phis: Vec<Inst>,
    /// Phis whose value no non-phi instruction uses.
    pub dead_phis: Vec<Inst>,
    /// A pair of interfering variables of one phi web, if any.
    pub interference: Option<(Var, Var)>,
    /// Number of `undef` operands.
    pub undef_operands: usize,
}

impl Report {
    /// Minimal: every phi at an iterated dominance frontier, one per block.
    pub fn minimal(&self) -> bool {
        self.non_minimal_phis.is_empty()
    }
    /// Pruned: no dead phi.
    pub fn pruned(&self) -> bool {
        self.dead_phis.is_empty()
    }
    /// Conventional: no interference inside a phi web.
    pub fn conventional(&self) -> bool {
        self.interference.is_none()
    }
    /// Strict: no `undef` operand (every use has a definition on every path).
    pub fn strict(&self) -> bool {
        self.undef_operands == 0
    }

    /// A readable summary, one property per line.
    pub fn render(&self, f: &Function) -> String {
        let names = crate::ir::VarNames::new(f);
        let yes = |b: bool| if b { "yes" } else { "no" };
        let mut out = format!(
            "function {}: valid SSA with the dominance property\n",
            f.name
        );
        out.push_str(&format!("  phis: {}\n", self.phis));
        out.push_str(&format!("  minimal: {}", yes(self.minimal())));
        if !self.minimal() {
            out.push_str(&format!(
                " ({} phi(s) outside the iterated dominance frontier)",
                self.non_minimal_phis.len()
            ));
        }
        out.push_str(&format!("\n  pruned: {}", yes(self.pruned())));
        if !self.pruned() {
            let dead: Vec<String> = self
                .dead_phis
                .iter()
                .filter_map(|&i| f.insts[i].def())
                .map(|v| names[v].to_string())
                .collect();
            out.push_str(&format!(" (dead phis: {})", dead.join(", ")));
        }
        out.push_str(&format!("\n  conventional: {}", yes(self.conventional())));
        if let Some((a, b)) = self.interference {
            out.push_str(&format!(
                " ({} and {} are in one phi web and interfere)",
                &names[a], &names[b]
            ));
        }
        out.push_str(&format!("\n  strict: {}", yes(self.strict())));
        if !self.strict() {
            out.push_str(&format!(" ({} undef operand(s))", self.undef_operands));
        }
        out.push('\n');
        out
    }
}

/// Where a variable is defined: block and position (0 for parameters and
/// phis, 1.. for instructions).
#[derive(Clone, Copy)]
struct DefSite {
    block: Block,
    pos: u32,
    inst: Option<Inst>,
}

/// Checks that `func` is valid SSA with the dominance property; on success
/// reports the chapter's properties. Returns every error found.
pub fn verify(func: &Function) -> Result<Report, Vec<IrError>> {
    verify_impl(func, true)
}

/// Checks invariants 1 to 5 only (valid SSA with the dominance property),
/// without computing the property report: what passes need before they
/// run. The report's minimality check costs a DF⁺ query per variable group
/// and the conventionality check a liveness walk per phi web, which
/// dominate on large inputs.
pub fn verify_valid(func: &Function) -> Result<(), Vec<IrError>> {
    verify_impl(func, false).map(|_| ())
}

fn verify_impl(func: &Function, properties: bool) -> Result<Report, Vec<IrError>> {
    let mut errs = Vec::new();
    if func.layout.is_empty() {
        return Err(vec![IrError::new(
            func,
            None,
            None,
            "function has no blocks",
        )]);
    }
    // 1. Layout and terminator targets.
    let mut in_layout = vec![false; func.blocks.len()];
    for &b in &func.layout {
        if b.index() >= func.blocks.len() || in_layout[b.index()] {
            return Err(vec![IrError::new(
                func,
                None,
                None,
                format!("block {b} is listed twice or does not exist"),
            )]);
        }
        in_layout[b.index()] = true;
    }
    for &b in &func.layout {
        let mut bad = None;
        func.blocks[b].term.for_each_succ(|s| {
            if s.index() >= func.blocks.len() || !in_layout[s.index()] {
                bad = Some(s);
            }
        });
        if let Some(s) = bad {
            errs.push(IrError::new(
                func,
                Some(b),
                None,
                format!("terminator jumps to {s}, which is not in the layout"),
            ));
        }
    }
    if !errs.is_empty() {
        return Err(errs);
    }
    let cfg = Cfg::new(func);
    let dt = DomTree::new(&cfg);
    // 2. Phi labels.
    let mut pred_stamp = vec![u32::MAX; func.blocks.len()];
    let mut seen = vec![u32::MAX; func.blocks.len()];
    let mut counter = 0u32;
    for &b in &func.layout {
        for p in cfg.unique_preds(b) {
            pred_stamp[p.index()] = b.0;
        }
        let npreds = cfg.unique_preds(b).count();
        for &i in &func.blocks[b].phis {
            counter += 1;
            let InstData::Phi { args, .. } = &func.insts[i] else {
                errs.push(IrError::new(
                    func,
                    Some(b),
                    Some(i),
                    "non-phi instruction in the phi list",
                ));
                continue;
            };
            for a in args {
                if a.block.index() >= func.blocks.len() || pred_stamp[a.block.index()] != b.0 {
                    errs.push(IrError::new(
                        func,
                        Some(b),
                        Some(i),
                        format!(
                            "phi operand labelled {}, which is not a predecessor",
                            a.block
                        ),
                    ));
                } else if seen[a.block.index()] == counter {
                    errs.push(IrError::new(
                        func,
                        Some(b),
                        Some(i),
                        format!(
                            "phi has two operands for predecessor `{}`",
                            func.blocks[a.block].name
                        ),
                    ));
                } else {
                    seen[a.block.index()] = counter;
                }
            }
            if args.len() < npreds {
                errs.push(IrError::new(
                    func,
                    Some(b),
                    Some(i),
                    "phi lacks an operand for some predecessor",
                ));
            }
        }
        for &i in &func.blocks[b].insts {
            if func.insts[i].is_phi() {
                errs.push(IrError::new(
                    func,
                    Some(b),
                    Some(i),
                    "phi after an ordinary instruction",
                ));
            }
        }
    }
    // 3. Single assignment.
    let mut def: EntityVec<Var, Option<DefSite>> = EntityVec::filled(func.vars.len(), None);
    // Printed names are only needed for error messages: computing them
    // (a hash set and a string per version) cost more than all the checks.
    let names_cell = std::cell::OnceCell::new();
    let names = || names_cell.get_or_init(|| crate::ir::VarNames::new(func));
    let mut define = |v: Var, site: DefSite, errs: &mut Vec<IrError>| {
        if def[v].is_some() {
            errs.push(IrError::new(
                func,
                Some(site.block),
                site.inst,
                format!("`{}` is assigned more than once", &names()[v]),
            ));
        } else {
            def[v] = Some(site);
        }
    };
    let entry = func.entry();
    for &p in &func.params {
        define(
            p,
            DefSite {
                block: entry,
                pos: 0,
                inst: None,
            },
            &mut errs,
        );
    }
    for &b in &func.layout {
        for &i in &func.blocks[b].phis {
            func.insts[i].for_each_def(|v| {
                define(
                    v,
                    DefSite {
                        block: b,
                        pos: 0,
                        inst: Some(i),
                    },
                    &mut errs,
                )
            });
        }
        for (k, &i) in func.blocks[b].insts.iter().enumerate() {
            func.insts[i].for_each_def(|v| {
                define(
                    v,
                    DefSite {
                        block: b,
                        pos: k as u32 + 1,
                        inst: Some(i),
                    },
                    &mut errs,
                )
            });
        }
    }
    // 4 and 5. Uses have dominating definitions.
    let mut undef_operands = 0;
    let check_use = |v: Var, b: Block, pos: u32, inst: Option<Inst>, errs: &mut Vec<IrError>| {
        let Some(d) = def[v] else {
            errs.push(IrError::new(
                func,
                Some(b),
                inst,
                format!("`{}` is used but never assigned", &names()[v]),
            ));
            return;
        };
        if !dt.is_reachable(b) {
            return;
        }
        let ok = if d.block == b {
            d.pos < pos
        } else {
            dt.strictly_dominates(d.block, b)
        };
        if !ok {
            errs.push(IrError::new(
                func,
                Some(b),
                inst,
                format!(
                    "use of `{}` is not dominated by its definition in block `{}`",
                    &names()[v],
                    func.blocks[d.block].name
                ),
            ));
        }
    };
    for &b in &func.layout {
        for &i in &func.blocks[b].phis {
            if let InstData::Phi { args, .. } = &func.insts[i] {
                for a in args {
                    match a.value {
                        Operand::Var(v) if a.block.index() < func.blocks.len() => {
                            check_use(v, a.block, u32::MAX, Some(i), &mut errs)
                        }
                        Operand::Undef => undef_operands += 1,
                        _ => {}
                    }
                }
            }
        }
        let n = func.blocks[b].insts.len() as u32;
        for (k, &i) in func.blocks[b].insts.iter().enumerate() {
            func.insts[i].for_each_operand(|o| match o {
                Operand::Var(v) => check_use(v, b, k as u32 + 1, Some(i), &mut errs),
                Operand::Undef => undef_operands += 1,
                Operand::Const(_) => {}
            });
        }
        match func.blocks[b].term.operand() {
            Some(Operand::Var(v)) => check_use(v, b, n + 1, None, &mut errs),
            Some(Operand::Undef) => undef_operands += 1,
            _ => {}
        }
    }
    if !errs.is_empty() {
        return Err(errs);
    }
    let mut report = Report {
        undef_operands,
        ..Default::default()
    };
    if !properties {
        return Ok(report);
    }
    let webs = phi_web_union_find(func);
    report.dead_phis = dead_phis(func);
    report.phis = func.layout.iter().map(|&b| func.blocks[b].phis.len()).sum();
    report.interference = web_interference(func, &cfg, &webs);
    report.non_minimal_phis = non_minimal_phis(func, &cfg, &dt, &webs);
    Ok(report)
}

fn phi_web_union_find(func: &Function) -> UnionFind {
    let mut uf = UnionFind::new(func.vars.len());
    for &b in &func.layout {
        for &i in &func.blocks[b].phis {
            if let InstData::Phi { dst, args } = &func.insts[i] {
                for a in args {
                    if let Operand::Var(v) = a.value {
                        uf.union(dst.index(), v.index());
                    }
                }
            }
        }
    }
    uf
}

/// Phis whose value reaches no non-phi use.
fn dead_phis(func: &Function) -> Vec<Inst> {
    let mut useful: EntityVec<Var, bool> = EntityVec::filled(func.vars.len(), false);
    let mut phi_of: EntityVec<Var, Option<Inst>> = EntityVec::filled(func.vars.len(), None);
    let mut work = Vec::new();
    let mut mark = |v: Var, work: &mut Vec<Var>| {
        if !useful[v] {
            useful[v] = true;
            work.push(v);
        }
    };
    for &b in &func.layout {
        for &i in &func.blocks[b].phis {
            if let Some(d) = func.insts[i].def() {
                phi_of[d] = Some(i);
            }
        }
        for &i in &func.blocks[b].insts {
            func.insts[i].for_each_use(|v| mark(v, &mut work));
        }
        if let Some(Operand::Var(v)) = func.blocks[b].term.operand() {
            mark(v, &mut work);
        }
    }
    while let Some(v) = work.pop() {
        if let Some(i) = phi_of[v] {
            func.insts[i].for_each_use(|u| mark(u, &mut work));
        }
    }
    let mut dead = Vec::new();
    for &b in &func.layout {
        for &i in &func.blocks[b].phis {
            if func.insts[i].def().is_some_and(|d| !useful[d]) {
                dead.push(i);
            }
        }
    }
    dead
}

/// The first pair of variables of one phi web found interfering, walking
/// each block backwards from its live-out set with a count of live members
/// per web.
///
/// Only members of webs with two or more variables can interfere with a
/// web-mate, so liveness is explored for those alone ([`VarLiveness`]) and
/// the other variables are ignored: a function with many variables live
/// everywhere but few phis costs what its phi webs touch.
fn web_interference(func: &Function, cfg: &Cfg, webs: &UnionFind) -> Option<(Var, Var)> {
    let n = func.vars.len();
    let web = |v: Var| webs.find_const(v.index());
    let mut web_size = vec![0u32; n];
    for v in func.vars.keys() {
        web_size[web(v)] += 1;
    }
    let member = |v: Var| web_size[web(v)] > 1;
    // Live-out blocks of every web member, grouped by block.
    let mut by_var = VarLiveness::new(func, cfg);
    let mut out_pairs: Vec<(Block, Var)> = Vec::new();
    for v in func.vars.keys().filter(|&v| member(v)) {
        by_var.explore(v, |_| {}, |b| out_pairs.push((b, v)));
    }
    out_pairs.sort_unstable_by_key(|p| p.0);
    let mut out_start = vec![0u32; func.blocks.len() + 1];
    for &(b, _) in &out_pairs {
        out_start[b.index() + 1] += 1;
    }
    for k in 0..func.blocks.len() {
        out_start[k + 1] += out_start[k];
    }
    let live_out = |b: Block| {
        out_pairs[out_start[b.index()] as usize..out_start[b.index() + 1] as usize]
            .iter()
            .map(|p| p.1)
    };
    let mut is_live = vec![false; n];
    let mut live_list: Vec<Var> = Vec::new();
    let mut count = vec![0u32; n];
    for &b in &func.layout {
        let add = |v: Var, is_live: &mut Vec<bool>, count: &mut Vec<u32>, list: &mut Vec<Var>| {
            if member(v) && !is_live[v.index()] {
                is_live[v.index()] = true;
                count[web(v)] += 1;
                list.push(v);
            }
        };
        let partner =
            |d: Var, is_live: &Vec<bool>, count: &Vec<u32>, list: &Vec<Var>| -> Option<Var> {
                let own = is_live[d.index()] as u32;
                if count[web(d)] > own {
                    list.iter()
                        .copied()
                        .find(|&x| x != d && is_live[x.index()] && web(x) == web(d))
                } else {
                    None
                }
            };
        for v in live_out(b) {
            add(v, &mut is_live, &mut count, &mut live_list);
        }
        if let Some(Operand::Var(v)) = func.blocks[b].term.operand() {
            add(v, &mut is_live, &mut count, &mut live_list);
        }
        let mut found = None;
        for &i in func.blocks[b].insts.iter().rev() {
            let data = &func.insts[i];
            data.for_each_def(|d| {
                if found.is_none() {
                    found = partner(d, &is_live, &count, &live_list).map(|x| (x, d));
                }
            });
            data.for_each_def(|d| {
                if is_live[d.index()] {
                    is_live[d.index()] = false;
                    count[web(d)] -= 1;
                }
            });
            data.for_each_use(|u| add(u, &mut is_live, &mut count, &mut live_list));
        }
        // Phi definitions (and parameters at the entry) happen together at
        // the start of the block.
        for &i in &func.blocks[b].phis {
            if let (None, Some(d)) = (found, func.insts[i].def()) {
                found = partner(d, &is_live, &count, &live_list).map(|x| (x, d));
            }
        }
        if b == func.entry() {
            for &p in &func.params {
                if found.is_none() {
                    found = partner(p, &is_live, &count, &live_list).map(|x| (x, p));
                }
            }
        }
        if found.is_some() {
            return found;
        }
        for v in live_list.drain(..) {
            if is_live[v.index()] {
                is_live[v.index()] = false;
                count[web(v)] -= 1;
            }
        }
    }
    None
}

/// Phis shown to be in DF⁺ of their group's non-phi definitions by their
/// operands alone, in O(phi operands); the minimality report computes DF⁺
/// only for groups with a phi not shown here.
///
/// A phi operand coming from predecessor `p` is defined in a block `d`
/// dominating `p` (the SSA dominance property). If `d` does not strictly
/// dominate the phi's block `b`, then `b ∈ DF(d)`. So `b ∈ DF⁺(D)` when some
/// operand of the group is defined in such a `d` by a non-phi definition
/// (`d ∈ D`), or by a phi already shown to be in DF⁺(D) (DF⁺ is closed under
/// DF). The fixpoint is found with a worklist from the first kind. On
/// minimal, semi-pruned and pruned SSA every phi is shown this way: a
/// thousand phi webs on a ladder each needed a full DF⁺ before (131 s for
/// the report on a million-block ladder).
fn certainly_in_idf(
    func: &Function,
    dt: &DomTree,
    group: &impl Fn(Var) -> usize,
) -> EntityVec<Inst, bool> {
    // Definition site of each variable: block, and the phi if it is one.
    let mut site: EntityVec<Var, Option<(Block, Option<Inst>)>> =
        EntityVec::filled(func.vars.len(), None);
    for &p in &func.params {
        site[p] = Some((func.entry(), None));
    }
    for &b in &func.layout {
        for &i in &func.blocks[b].phis {
            if let Some(d) = func.insts[i].def() {
                site[d] = Some((b, Some(i)));
            }
        }
        for &i in &func.blocks[b].insts {
            func.insts[i].for_each_def(|d| site[d] = Some((b, None)));
        }
    }
    let mut certain: EntityVec<Inst, bool> = EntityVec::filled(func.insts.len(), false);
    // (phi operand's defining phi, phi that it would show), then grouped.
    let mut waits: Vec<(u32, Inst)> = Vec::new();
    let mut work: Vec<Inst> = Vec::new();
    for &b in &func.layout {
        for &i in &func.blocks[b].phis {
            let InstData::Phi { dst, args } = &func.insts[i] else {
                continue;
            };
            for a in args {
                let Some(v) = a.value.var() else { continue };
                let Some((d, phi)) = site[v] else { continue };
                if group(v) != group(*dst) || dt.strictly_dominates(d, b) {
                    continue;
                }
                match phi {
                    None if !certain[i] => {
                        certain[i] = true;
                        work.push(i);
                    }
                    None => {}
                    Some(j) => waits.push((j.0, i)),
                }
            }
        }
    }
    waits.sort_unstable_by_key(|w| w.0);
    while let Some(j) = work.pop() {
        let from = waits.partition_point(|w| w.0 < j.0);
        for &(k, i) in &waits[from..] {
            if k != j.0 {
                break;
            }
            if !certain[i] {
                certain[i] = true;
                work.push(i);
            }
        }
    }
    certain
}

/// Phis not in the iterated dominance frontier of their group's other
/// definitions, or second phis of a group in one block.
fn non_minimal_phis(func: &Function, cfg: &Cfg, dt: &DomTree, webs: &UnionFind) -> Vec<Inst> {
    // Group of each variable: its original variable when known, else its
    // phi web's representative.
    let group = |v: Var| -> usize {
        match func.vars[v].origin {
            Some(o) => o.index(),
            None => webs.find_const(v.index()),
        }
    };
    let n = func.vars.len();
    // Definition blocks (non-phi) and phis of each group, bucketed.
    let mut def_blocks: Vec<Vec<Block>> = Vec::new();
    let mut phis: Vec<Vec<(Block, Inst)>> = Vec::new();
    let mut slot = vec![u32::MAX; n];
    let mut slot_of =
        |g: usize, def_blocks: &mut Vec<Vec<Block>>, phis: &mut Vec<Vec<(Block, Inst)>>| -> usize {
            if slot[g] == u32::MAX {
                slot[g] = def_blocks.len() as u32;
                def_blocks.push(Vec::new());
                phis.push(Vec::new());
            }
            slot[g] as usize
        };
    for &p in &func.params {
        let s = slot_of(group(p), &mut def_blocks, &mut phis);
        def_blocks[s].push(func.entry());
    }
    for &b in &func.layout {
        for &i in &func.blocks[b].phis {
            if let Some(d) = func.insts[i].def() {
                let s = slot_of(group(d), &mut def_blocks, &mut phis);
                phis[s].push((b, i));
            }
        }
        for &i in &func.blocks[b].insts {
            func.insts[i].for_each_def(|d| {
                let s = slot_of(group(d), &mut def_blocks, &mut phis);
                if def_blocks[s].last() != Some(&b) {
                    def_blocks[s].push(b);
                }
            });
        }
    }
    let certain = certainly_in_idf(func, dt, &group);
    let mut idf = IdfCalculator::new(cfg, dt);
    let mut in_idf = vec![u32::MAX; func.blocks.len()];
    let mut has_phi = vec![u32::MAX; func.blocks.len()];
    let mut out = Vec::new();
    let mut frontier = Vec::new();
    for (s, ph) in phis.iter().enumerate() {
        if ph.is_empty() {
            continue;
        }
        if ph.iter().all(|&(_, i)| certain[i]) {
            for &(b, _) in ph {
                in_idf[b.index()] = s as u32;
            }
        } else {
            frontier.clear();
            idf.compute(&def_blocks[s], &mut frontier);
            for &y in &frontier {
                in_idf[y.index()] = s as u32;
            }
        }
        for &(b, i) in ph {
            if in_idf[b.index()] != s as u32 || has_phi[b.index()] == s as u32 {
                out.push(i);
            }
            has_phi[b.index()] = s as u32;
        }
    }
    out
}
