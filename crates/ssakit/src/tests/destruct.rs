//! Out-of-SSA translation (chapter section 13.6) checked by running programs
//! before and after destruction in the interpreter: the lost-copy and
//! swap problems of Briggs et al. (1998), a rotation, a countdown whose
//! branch reads a phi operand, multi-edges and switches, and random phi
//! shuffles in a loop; with and without critical-edge splitting.

use super::common;

use super::support;

use proptest::prelude::*;
use ssakit::destruct::phi_webs::destruct_conventional;
use ssakit::destruct::{destruct, is_out_of_ssa, DestructOptions, DestructStats};
use ssakit::interp::{self, Outcome, RunOptions, Value};
use ssakit::ir::{BinOp, Block, Function, FunctionBuilder, InstData, Module, Operand, PhiArg, Var};
use support::programs;

const FUEL: u64 = 10_000;

/// Runs the lone function `f` on `args`.
fn run(f: &Function, args: &[i64]) -> Result<Outcome, String> {
    let opts = RunOptions {
        fuel: FUEL,
        ..Default::default()
    };
    interp::run(&Module::default(), f, args, &opts).map_err(|e| e.to_string())
}

/// What a run shows (printed lines and return value): what destruction
/// must preserve. The instruction count is left out.
type Shown = Result<(Vec<Vec<Value>>, Option<Value>), String>;

/// Runs `f` on each argument.
fn outcomes(f: &Function, args: &[i64]) -> Vec<Shown> {
    args.iter()
        .map(|&a| run(f, &[a]).map(|o| (o.output, o.ret)))
        .collect()
}

/// Every instruction listed by a block is listed by that block alone, and
/// every instruction of the table is listed (nothing is left removed).
fn assert_insts_listed_once(f: &Function) {
    let mut count = vec![0; f.inst_slots()];
    for b in f.blocks() {
        for i in f.block_all_insts(b) {
            count[i.index()] += 1;
            assert_eq!(f.inst_block(i), Some(b));
        }
    }
    assert!(
        count.iter().all(|&c| c == 1),
        "instruction listing {count:?}"
    );
}

/// Destroys a copy of `f` with `opts` and checks it computes the same as
/// `f` on every argument of `args`, which must all run to completion
/// before.
fn check_mode(f: &Function, opts: DestructOptions, args: &[i64]) -> (Function, DestructStats) {
    let before = outcomes(f, args);
    for (a, o) in args.iter().zip(&before) {
        assert!(
            o.is_ok(),
            "{} fails on {a} before destruction: {o:?}",
            f.name()
        );
    }
    let mut g = f.clone();
    let stats = destruct(&mut g, &opts).expect("destruction");
    assert!(is_out_of_ssa(&g), "phis or parallel copies left");
    assert_insts_listed_once(&g);
    let after = outcomes(&g, args);
    assert_eq!(
        before,
        after,
        "{} ({opts:?}) changed meaning: {g:#?}",
        f.name()
    );
    (g, stats)
}

/// [`check_mode`] without coalescing, whose result is returned, and with.
fn destruct_and_compare(f: &Function, split: bool, args: &[i64]) -> (Function, DestructStats) {
    let opts = |coalesce| DestructOptions {
        split,
        coalesce,
        conventional: false,
    };
    check_mode(f, opts(true), args);
    check_mode(f, opts(false), args)
}

/// The variables written by the copies of block `b` of `g`.
fn copies_in(g: &Function, name: &str) -> Vec<(Var, Operand)> {
    let b = g
        .block_by_name(name)
        .unwrap_or_else(|| panic!("no block {name}"));
    g.block_insts(b)
        .iter()
        .filter_map(|&i| match *g.inst(i) {
            InstData::Copy { dst, src } => Some((dst, src)),
            _ => None,
        })
        .collect()
}

/// Variables created by destruction: those beyond the original count.
fn is_new(f: &Function, v: Var) -> bool {
    v.index() >= f.num_vars()
}

#[test]
fn lost_copy() {
    let f = programs::lost_copy();
    let args = [0, 1, 2, 3, 4, 10];
    let (g, stats) = destruct_and_compare(&f, true, &args);
    assert_eq!(stats.edges_split, 1);
    // Split: the copy `x2 ← x3` lives in the new block on the back edge,
    // never on the exit path.
    assert_eq!(copies_in(&g, "L_L").len(), 1);
    assert_eq!(stats.temporaries, 0);
    let (g, stats) = destruct_and_compare(&f, false, &args);
    assert_eq!(stats.edges_split, 0);
    // Not split: `L` branches, so the join copy `x2 ← x2'` is needed.
    assert!(g.block_by_name("L_L").is_none());
    assert_eq!(stats.copies_inserted, 3);
}

/// Without copies the lost-copy and swap programs are not conventional, and
/// the chapter's direct destruction gets them wrong: what the copies are for.
#[test]
fn naive_destruction_is_wrong_on_briggs_problems() {
    for (f, arg) in [(programs::lost_copy(), 3), (programs::swap_problem(), 2)] {
        let before = run(&f, &[arg]).unwrap();
        let mut g = f.clone();
        destruct_conventional(&mut g);
        assert!(is_out_of_ssa(&g));
        let after = run(&g, &[arg]).unwrap();
        assert!(!interp::outputs_match(&before, &after), "{}", f.name());
    }
}

/// Every refusal of [`destruct`] says its kind, which callers decide on:
/// not SSA, not conventional for interfering members (the lost copy), not
/// conventional for a constant operand that overwrites a live member.
#[test]
fn refusals_have_their_kind() {
    use ssakit::error::ErrorKind;
    let direct = DestructOptions {
        conventional: true,
        ..DestructOptions::default()
    };
    let kind = |src: &str, opts: &DestructOptions| {
        let mut f = ssakit::text::parse_module(src).unwrap().functions.remove(0);
        destruct(&mut f, opts).unwrap_err().kind
    };
    let twice = "function f() {\ne:\n    x = 1\n    x = 2\n    ret x\n}\n";
    assert_eq!(kind(twice, &DestructOptions::default()), ErrorKind::NotSsa);
    assert_eq!(kind(twice, &direct), ErrorKind::NotSsa);
    let mut lost = programs::lost_copy();
    let e = destruct(&mut lost, &direct).unwrap_err();
    assert_eq!(e.kind, ErrorKind::NotConventional, "{e}");
    // `y` takes 1 from entry, copied at entry's end, where `m` of its web
    // is still needed on the way to t.
    let constant = "function f(c) {
entry:
    m = c + 1
    branch c, s, t
t:
    print m
    jump s
s:
    y = phi(entry: 1, t: m)
    ret y
}
";
    assert_eq!(kind(constant, &direct), ErrorKind::ConstantConflict);
}

#[test]
fn swap_problem() {
    let f = programs::swap_problem();
    let args = [0, 1, 2, 3, 4, 7];
    let (g, stats) = destruct_and_compare(&f, true, &args);
    // Split: the back-edge block holds `(a, b, i) = (b, a, i3)` after
    // renaming: a 2-cycle broken by exactly one temporary, 3 + 1 copies.
    assert_eq!(stats.temporaries, 1);
    let back = copies_in(&g, "L_L");
    assert_eq!(back.len(), 4);
    assert_eq!(back.iter().filter(|(d, _)| is_new(&f, *d)).count(), 1);
    assert_eq!(copies_in(&g, "entry").len(), 3 + 3);
    // The program's 3 constant copies, 3 at the end of entry, 4 on the
    // back edge.
    assert_eq!(stats.copies_remaining, 3 + 3 + 4);
    // Not split: the join copies read the old names, so no cycle is left.
    let (_, stats) = destruct_and_compare(&f, false, &args);
    assert_eq!(stats.temporaries, 0);
}

#[test]
fn rotation() {
    let f = programs::rotation();
    let args = [1, 2, 3, 4, 5, 6];
    let (g, stats) = destruct_and_compare(&f, true, &args);
    // One 3-cycle: 3 + 1 copies, plus the counter's.
    assert_eq!(stats.temporaries, 1);
    assert_eq!(copies_in(&g, "L_L").len(), 5);
    // Constant phi operands become copies of constants at the end of entry.
    let entry = copies_in(&g, "entry");
    assert_eq!(entry.len(), 4);
    assert!(entry.iter().all(|(_, s)| matches!(s, Operand::Const(_))));
    destruct_and_compare(&f, false, &args);
}

#[test]
fn countdown_branch_reads_a_phi_operand() {
    let f = programs::countdown();
    let args = [1, 2, 3, 6, 9];
    destruct_and_compare(&f, true, &args);
    let (g, _) = destruct_and_compare(&f, false, &args);
    // The branch of `L` still reads `k3`, copied before it.
    let l = g.block_by_name("L").unwrap();
    let mut read = Vec::new();
    g.for_each_term_use(l, |v| read.push(g.base_name(v).to_string()));
    assert_eq!(read, ["k3"]);
}

#[test]
fn multi_edges_and_switch() {
    let f = programs::multi_edges();
    let args: Vec<i64> = (-2..12).collect();
    let (g, stats) = destruct_and_compare(&f, true, &args);
    // entry → J, and A → J three times through one block; B → J twice is
    // not critical (B has one distinct successor).
    assert_eq!(stats.edges_split, 2);
    assert_eq!(g.layout().len(), 4 + 2);
    destruct_and_compare(&f, false, &args);
}

/// Splitting critical edges alone keeps SSA and its meaning: the phis of
/// the targets are relabelled with the new blocks (the interpreter picks
/// phi operands by label, so a wrong label is an error).
#[test]
fn splitting_alone_preserves_meaning() {
    use ssakit::destruct::critical_edges::{has_critical_edges, split_critical_edges};
    let shuffle = programs::phi_shuffle(&[Some(1), Some(0), None, Some(2)]);
    for f in [
        programs::lost_copy(),
        programs::swap_problem(),
        programs::rotation(),
        programs::countdown(),
        programs::multi_edges(),
        shuffle,
    ] {
        let args = [1, 2, 3, 4, 5, 9];
        let mut g = f.clone();
        let split = split_critical_edges(&mut g);
        assert!(!split.is_empty(), "{}", f.name());
        assert!(!has_critical_edges(&g));
        assert_insts_listed_once(&g);
        assert_eq!(outcomes(&f, &args), outcomes(&g, &args), "{}", f.name());
    }
}

/// Freshly built SSA is conventional: direct destruction is correct.
///
/// ```text
/// E: x1 = 0; jump H
/// H: x2 = phi(E: x1, B: x3); c = x2 < n; branch c, B, X
/// B: x3 = x2 + 1; jump H
/// X: ret x2
/// ```
#[test]
fn conventional_ssa_direct_destruction() {
    let mut b = FunctionBuilder::new("count");
    let n = b.param("n");
    let (be, bh, bb, bx) = (b.block("E"), b.block("H"), b.block("B"), b.block("X"));
    let (x1, x2, x3, c) = (b.var("x1"), b.var("x2"), b.var("x3"), b.var("c"));
    let arg = |block: Block, v: Var| PhiArg {
        block,
        value: v.into(),
    };
    b.switch_to(be);
    b.copy(x1, Operand::Const(0));
    b.jump(bh);
    b.switch_to(bh);
    b.phi(x2, &[arg(be, x1), arg(bb, x3)]);
    b.binary(c, BinOp::Lt, x2.into(), n.into());
    b.branch(c.into(), bb, bx);
    b.switch_to(bb);
    b.binary(x3, BinOp::Add, x2.into(), Operand::Const(1));
    b.jump(bh);
    b.switch_to(bx);
    b.ret(Some(x2.into()));
    let f = b.finish();
    let args = [-1, 0, 1, 5];
    let mut g = f.clone();
    let stats = destruct_conventional(&mut g);
    assert_eq!(stats.phis_removed, 1);
    assert_eq!(outcomes(&f, &args), outcomes(&g, &args));
    assert_eq!(g.num_vars(), f.num_vars());
    destruct_and_compare(&f, true, &args);
    destruct_and_compare(&f, false, &args);
}

/// Closed cycles of the back-edge map `p_i ← p_{sources[i]}`.
fn closed_cycles(sources: &[Option<usize>]) -> usize {
    let k = sources.len();
    let pred = |x: usize| sources[x].filter(|&j| j != x);
    let on_cycle = |x: usize| {
        let mut y = x;
        for _ in 0..k {
            match pred(y) {
                Some(p) if p == x => return true,
                Some(p) => y = p,
                None => return false,
            }
        }
        false
    };
    let mut closed = 0;
    for x in 0..k {
        if !on_cycle(x) {
            continue;
        }
        // Visit the cycle once, from its smallest node.
        let mut members = vec![x];
        let mut y = pred(x).unwrap();
        while y != x {
            members.push(y);
            y = pred(y).unwrap();
        }
        if members.iter().any(|&m| m < x) {
            continue;
        }
        let open =
            (0..k).any(|z| !members.contains(&z) && pred(z).is_some_and(|p| members.contains(&p)));
        if !open {
            closed += 1;
        }
    }
    closed
}

proptest! {
    #![proptest_config(common::config(400))]

    /// Random phi shuffles in a loop (permutations, fan-out, self-loops,
    /// values computed in the body), split and not split: same output; when
    /// split, one temporary per closed cycle of the shuffle.
    #[test]
    fn random_phi_shuffles(sources in (1usize..=6).prop_flat_map(|k| {
        proptest::collection::vec(prop_oneof![1 => Just(None), 4 => (0..k).prop_map(Some)], k)
    })) {
        let f = programs::phi_shuffle(&sources);
        let args = [1, 2, 3, 4, 5];
        let (_, stats) = destruct_and_compare(&f, true, &args);
        prop_assert_eq!(stats.temporaries, closed_cycles(&sources));
        destruct_and_compare(&f, false, &args);
    }
}
