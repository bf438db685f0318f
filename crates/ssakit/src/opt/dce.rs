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
//!    successors lose the operands they labelled (skipped when the pass
//!    before, `const_prop` or `dce`, left none).
//! 2. *Roots.* An instruction is *critical* when it has an effect besides
//!    its results, so that it must stay even when they are unused
//!    ([`Effects::removable_if_unused`](crate::ir::Effects::removable_if_unused)
//!    is false for [`Function::effects`](crate::ir::Function::effects)): `print` (it writes), every call (a call to a
//!    function of the module may print or loop; an external one is pure,
//!    but its record in the external-call trace is observable), a division
//!    or remainder whose divisor is not a non-zero constant (it may stop the
//!    program with "division by zero"; `undef` too), an operation whose
//!    operator may trap or writes. Every terminator operand (`ret`,
//!    `branch`, `switch`) is a root too; `unreachable` has none.
//! 3. *Mark.* A worklist of variables: the operands of critical
//!    instructions, then the operands of each definition of a marked
//!    variable. For a parallel copy only the pair defining the marked
//!    variable is followed; a call or operation with several results is
//!    followed whole.
//! 4. *Sweep.* Unmarked phis, copies, unary and binary instructions go,
//!    and so do operations none of whose results is marked, unless they are
//!    critical; parallel copies lose their unmarked pairs (and go when none
//!    is left); calls and prints stay. The instruction table is compacted
//!    by the caller (`run_passes`, once after the last pass).
//!
//! Dead cycles of phis (`x2 = phi(x1, x3)`, `x3 = phi(x2, ...)` with no
//! other use) are never marked, so they go.
//!
//! What it deliberately does not do: remove branches whose arms do the same
//! thing (Cytron et al.'s control-dependence extension), calls whose
//! results are unused, or operations that may trap or write.
//!
//! # Preconditions
//! Valid SSA (single assignment; every use has a definition). The dominance
//! property is preserved but not relied on.
//!
//! Cost: `O(instructions + operands + blocks + edges)`.

use super::cfg_cleanup::cleanup_cfg;
use super::stats::Stats;
use crate::analysis::def_use::{definitions, Def};
use crate::entity::EntityVec;
use crate::error::IrError;
use crate::ir::{Function, InstData, Operand, Var};

/// Removes unreachable blocks, then every instruction (phis included) whose
/// results nothing critical needs, transitively. Returns the counts in
/// [`Stats::insts_removed`], [`Stats::phis_removed`] and
/// [`Stats::blocks_removed`].
///
/// # Errors
/// A variable defined twice (the input is not SSA).
///
/// What it removes stays in the instruction table, listed by no block,
/// until the caller's [`Function::compact`] ([`run_passes`](super::run_passes)
/// compacts once after the last pass).
///
/// `cfg_clean`: the pass before left no unreachable block and no phi
/// operand of a lost edge ([`super::Facts::cfg_clean`]), so step 1 has
/// nothing to do and is skipped. `defs`: the definitions the pass before
/// handed on ([`super::Facts::defs`]), used instead of computing them
/// again when step 1 was skipped (it renumbers the instructions).
pub(crate) fn dce(
    func: &mut Function,
    cfg_clean: bool,
    defs: Option<EntityVec<Var, Def>>,
) -> Result<Stats, IrError> {
    let mut stats = Stats::default();
    // Step 1: unreachable blocks.
    if !cfg_clean {
        let cleaned = cleanup_cfg(func);
        stats.blocks_removed = cleaned.blocks_removed;
    }
    // Only the definitions: the marking walks from uses to definitions
    // (and only of variables read by instructions of the layout).
    let def = match defs {
        Some(def) if cfg_clean => def,
        _ => definitions(func)?,
    };

    // Step 2: roots.
    let mut live: EntityVec<Var, bool> = EntityVec::filled(func.num_vars(), false);
    let mut work: Vec<Var> = Vec::new();
    let mark = |o: Operand, live: &mut EntityVec<Var, bool>, work: &mut Vec<Var>| {
        if let Operand::Var(v) = o {
            if !live[v] {
                live[v] = true;
                work.push(v);
            }
        }
    };
    for &b in func.layout() {
        for &i in func.block_insts(b) {
            if !func.effects(i).removable_if_unused() {
                func.for_each_operand(i, |o| mark(o, &mut live, &mut work));
            }
        }
        func.for_each_term_operand(b, |o| mark(o, &mut live, &mut work));
    }

    // Step 3: mark what live variables' definitions read.
    while let Some(v) = work.pop() {
        let Def::Inst { inst, slot } = def[v] else {
            continue;
        };
        match func.inst(inst) {
            InstData::ParCopy { .. } => {
                mark(func.par_copy(inst)[slot as usize].1, &mut live, &mut work)
            }
            _ => func.for_each_operand(inst, |o| mark(o, &mut live, &mut work)),
        }
    }

    // Step 4: sweep. A dead pair of a parallel copy counts as one
    // instruction removed; a parallel copy left empty is not counted again.
    for k in 0..func.layout().len() {
        let b = func.layout()[k];
        let before = func.block_phis(b).len();
        func.retain_phis(b, |func, i| func.def(i).is_some_and(|d| live[d]));
        stats.phis_removed += before - func.block_phis(b).len();
        for j in 0..func.block_insts(b).len() {
            let i = func.block_insts(b)[j];
            if func.inst(i).is_par_copy() {
                func.edit_par_copy(i, |copies, func| {
                    let n = copies.len();
                    copies.retain(func, |(d, _)| live[*d]);
                    stats.insts_removed += n - copies.len();
                });
            }
        }
        let removed = &mut stats.insts_removed;
        func.retain_insts(b, |func, i| {
            let keep = match func.inst(i) {
                InstData::ParCopy { copies } => return !copies.is_empty(),
                InstData::Copy { dst, .. }
                | InstData::Unary { dst, .. }
                | InstData::Binary { dst, .. } => live[*dst],
                InstData::Op { results, .. } => results.as_slice(func).iter().any(|&r| live[r]),
                InstData::Phi { .. } | InstData::Call { .. } | InstData::Print { .. } => true,
            };
            let keep = keep || !func.effects(i).removable_if_unused();
            *removed += usize::from(!keep);
            keep
        });
    }
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

    #[test]
    fn operations_stay_by_their_effects() {
        // A store writes and a division may trap: they stay, results used
        // or not; an unused pure operation and an unused load go. An
        // operation with several results stays whole if one is used.
        let s = check(
            "operator i32.add pure
operator i32.load read
operator i32.store write
operator i32.div_s trap
operator i32.pair pure

function f(p: i32, a, b) {
entry:
    x: i32 = i32.add(p, p)
    l: i32 = i32.load[0](p)
    d: i32 = i32.div_s(p, p)
    (s: i32, t: i32) = i32.pair(p)
    i32.store[8](p, t)
    q = a / b
    r = a + b
    ret
}",
            "dce",
            "function f(p: i32, a, b) {
entry:
    d: i32 = i32.div_s(p, p)
    (s: i32, t: i32) = i32.pair(p)
    i32.store[8](p, t)
    q = a / b
    ret
}
",
        );
        assert_eq!(s.insts_removed, 3);
    }

    #[test]
    fn calls_with_several_results_stay_and_keep_their_operands() {
        check(
            "function f(a) {
entry:
    k = a + 1
    (x, y) = g(k)
    z = a * 2
    ret
}",
            "dce",
            "function f(a) {
entry:
    k = a + 1
    (x, y) = g(k)
    ret
}
",
        );
    }
}
