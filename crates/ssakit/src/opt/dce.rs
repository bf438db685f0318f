//! Dead code elimination on SSA by mark and sweep.
//!
//! Cytron, Ferrante, Rosen, Wegman and Zadeck (1991), section 7.1 ("Dead
//! code elimination"): rather than deleting instructions whose result is
//! unused one at a time (which never removes a cycle of phis feeding each
//! other around a loop), assume everything dead, mark live what is needed
//! for its effect on the outside world, then what live instructions read,
//! transitively, and sweep what is left unmarked. SSA makes the transitive
//! step one lookup: each operand has exactly one definition.
//!
//! # The steps
//!
//! 1. *Unreachable blocks* leave the layout and the phis of their
//!    successors lose the operands they labelled ([`cleanup_cfg`]).
//! 2. *Roots.* An instruction is *critical* when it has an effect besides
//!    its result: `print`, every call (a call to a function of the module
//!    may print or loop; an external one is pure, but its record in the
//!    external-call trace is observable), a division or remainder whose
//!    divisor is not a non-zero constant or `undef` (it may stop the program
//!    with "division by zero"), and every terminator operand (`ret`,
//!    `branch`, `switch`).
//! 3. *Mark.* A worklist of variables: the operands of critical
//!    instructions, then the operands of each definition of a marked
//!    variable. For a parallel copy only the pair defining the marked
//!    variable is followed.
//! 4. *Sweep.* Unmarked phis, copies, unary and binary instructions go;
//!    parallel copies lose their unmarked pairs (and go when none is left);
//!    calls and prints stay. Then compact.
//!
//! Dead cycles of phis (`x2 = phi(x1, x3)`, `x3 = phi(x2, ...)` with no
//! other use) are never marked, so they go.
//!
//! What it deliberately does not do: remove branches whose arms do the same
//! thing (Cytron et al.'s control-dependence extension), or calls whose
//! result is unused.
//!
//! # Preconditions
//! Valid SSA (single assignment; every use has a definition). The dominance
//! property is preserved but not relied on.
//!
//! Cost: `O(instructions + operands + blocks + edges)`.

use super::cfg_cleanup::cleanup_cfg;
use super::def_use::{Def, DefUse};
use super::Stats;
use crate::destruct::compact::compact_insts;
use crate::entity::EntityVec;
use crate::error::IrError;
use crate::ir::{BinOp, Function, InstData, Operand, Var};

/// Whether `data` has an effect besides defining its result, so that it
/// stays even when the result is unused.
pub fn is_critical(data: &InstData) -> bool {
    match data {
        InstData::Print { .. } | InstData::Call { .. } => true,
        InstData::Binary {
            op: BinOp::Div | BinOp::Rem,
            rhs,
            ..
        } => !matches!(rhs, Operand::Const(c) if *c != 0),
        _ => false,
    }
}

/// Removes unreachable blocks, then every instruction (phis included) whose
/// result nothing critical needs, transitively. Returns the counts in
/// [`Stats::insts_removed`], [`Stats::phis_removed`] and
/// [`Stats::blocks_removed`].
///
/// # Errors
/// A variable defined twice (the input is not SSA).
pub fn dce(func: &mut Function) -> Result<Stats, IrError> {
    let mut stats = Stats::default();
    // Step 1: unreachable blocks.
    let cleaned = cleanup_cfg(func);
    stats.blocks_removed = cleaned.blocks_removed;
    let du = DefUse::new(func)?;

    // Step 2: roots.
    let mut live: EntityVec<Var, bool> = EntityVec::filled(func.vars.len(), false);
    let mut work: Vec<Var> = Vec::new();
    let mark = |o: Operand, live: &mut EntityVec<Var, bool>, work: &mut Vec<Var>| {
        if let Operand::Var(v) = o {
            if !live[v] {
                live[v] = true;
                work.push(v);
            }
        }
    };
    for &b in &func.layout {
        let data = &func.blocks[b];
        for &i in &data.insts {
            let inst = &func.insts[i];
            if is_critical(inst) {
                inst.for_each_operand(|o| mark(o, &mut live, &mut work));
            }
        }
        if let Some(o) = data.term.operand() {
            mark(o, &mut live, &mut work);
        }
    }

    // Step 3: mark what live variables' definitions read.
    while let Some(v) = work.pop() {
        let Def::Inst { inst, slot, .. } = du.def[v] else {
            continue;
        };
        match &func.insts[inst] {
            InstData::ParCopy { copies } => mark(copies[slot as usize].1, &mut live, &mut work),
            data => data.for_each_operand(|o| mark(o, &mut live, &mut work)),
        }
    }

    // Step 4: sweep. A dead pair of a parallel copy counts as one
    // instruction removed; a parallel copy left empty is not counted again.
    for &b in &func.layout {
        let data = &mut func.blocks[b];
        let before = data.phis.len();
        data.phis
            .retain(|&i| func.insts[i].def().is_some_and(|d| live[d]));
        stats.phis_removed += before - data.phis.len();
        let insts = &mut func.insts;
        let removed = &mut stats.insts_removed;
        data.insts.retain(|&i| {
            let keep = match &mut insts[i] {
                InstData::ParCopy { copies } => {
                    let n = copies.len();
                    copies.retain(|(d, _)| live[*d]);
                    *removed += n - copies.len();
                    return !copies.is_empty();
                }
                InstData::Copy { dst, .. }
                | InstData::Unary { dst, .. }
                | InstData::Binary { dst, .. } => live[*dst],
                InstData::Phi { .. } | InstData::Call { .. } | InstData::Print { .. } => true,
            };
            let keep = keep || is_critical(&insts[i]);
            *removed += usize::from(!keep);
            keep
        });
    }
    compact_insts(func);
    Ok(stats)
}

#[cfg(test)]
mod tests {
    use crate::opt::testing::check;

    #[test]
    fn unused_results_go_transitively() {
        let s = check(
            "function f(a) {
entry:
    x = a + 1
    y = x * 2
    z = -y
    w = a - 1
    ret w
}",
            "dce",
            "function f(a) {
entry:
    w = a - 1
    ret w
}
",
        );
        assert_eq!(s.insts_removed, 3);
    }

    #[test]
    fn a_dead_cycle_of_phis_goes() {
        // s2 and s3 feed each other around the loop and nothing else reads
        // them: deleting unused results one at a time would keep both.
        let s = check(
            "function f(n) {
entry:
    jump head
head:
    i1 = phi(entry: 0, body: i2)
    s2 = phi(entry: 0, body: s3)
    c = i1 < n
    branch c, body, exit
body:
    s3 = s2 + i1
    i2 = i1 + 1
    jump head
exit:
    ret i1
}",
            "dce",
            "function f(n) {
entry:
    jump head
head:
    i1 = phi(entry: 0, body: i2)
    c = i1 < n
    branch c, body, exit
body:
    i2 = i1 + 1
    jump head
exit:
    ret i1
}
",
        );
        assert_eq!((s.phis_removed, s.insts_removed), (1, 1));
    }

    #[test]
    fn effects_stay() {
        // Prints and calls stay (their operands with them), results used or
        // not; a division that may trap stays (by a variable, by 0, by
        // undef), one by a non-zero constant goes.
        check(
            "function f(a, b) {
entry:
    k = a + b
    h(k)
    r = g(a)
    p = b * 3
    print p
    q = a / b
    s = a % 0
    t = a / 2
    u = a % undef
    ret
}",
            "dce",
            "function f(a, b) {
entry:
    k = a + b
    h(k)
    r = g(a)
    p = b * 3
    print p
    q = a / b
    s = a % 0
    u = a % undef
    ret
}
",
        );
    }

    #[test]
    fn unreachable_blocks_go_with_their_phi_operands() {
        let s = check(
            "function f(a) {
entry:
    jump join
island:
    print a
    x = a + 1
    jump join
join:
    y = phi(entry: a, island: x)
    ret y
}",
            "dce",
            "function f(a) {
entry:
    jump join
join:
    y = phi(entry: a)
    ret y
}
",
        );
        assert_eq!(s.blocks_removed, 1);
    }

    #[test]
    fn dead_pairs_of_a_parallel_copy_go() {
        check(
            "function f(a, b) {
entry:
    (x, y) = (a, b)
    (u, v) = (x, y)
    ret u
}",
            "dce",
            "function f(a, b) {
entry:
    (x) = (a)
    (u) = (x)
    ret u
}
",
        );
    }
}
