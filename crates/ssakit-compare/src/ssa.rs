//! The ssakit side: construction per flavour, destruction per mode, the
//! builder path (the same function built through
//! [`ssakit::ir::FunctionBuilder`], then pruned construction), and the
//! limits every construction must at least pay.

use ssakit::construct::{construct, Flavor, Options};
use ssakit::destruct::{destruct_pruned, DestructOptions};
use ssakit::ir::{Block, Function, FunctionBuilder, Operand, Var};
use ssakit::timing::PassTimes;

/// SSA flavours measured, with their names in the results.
pub const FLAVORS: [(&str, Flavor); 3] = [
    ("minimal", Flavor::Minimal),
    ("semi-pruned", Flavor::SemiPruned),
    ("pruned", Flavor::Pruned),
];

/// A destruction mode: its name and how to run it on a function in SSA
/// form (pruned construction's output). Adding a mode is one line here.
pub type Destructor = (&'static str, fn(&mut Function) -> PassTimes);

/// Destruction modes measured: edges split or not, copies coalesced or not.
pub const DESTRUCTORS: &[Destructor] = &[
    ("split", |f| destruct_times(f, true, true)),
    ("no-split", |f| destruct_times(f, false, true)),
    ("split-naive", |f| destruct_times(f, true, false)),
    ("no-split-naive", |f| destruct_times(f, false, false)),
];

/// Runs `destruct_pruned` and returns its phase times: the input is
/// pruned construction's output, checked once by the harness (the
/// *verify* column), so destruction's wall clock does not include the
/// verifier, nor the dead-code walk, which finds nothing in pruned SSA.
fn destruct_times(f: &mut Function, split: bool, coalesce: bool) -> PassTimes {
    let opts = DestructOptions {
        split,
        coalesce,
        conventional: false,
    };
    let (r, mut t) = ssakit::timing::collect(|| destruct_pruned(f, &opts));
    r.expect("destruction succeeds");
    t.phases.retain(|p| p.0 != "verification");
    t
}

/// Options of construction in `flavor`, otherwise the defaults.
pub fn options(flavor: Flavor) -> Options {
    Options {
        flavor,
        ..Options::default()
    }
}

/// Builds a copy of `src` through [`FunctionBuilder`] (variables, blocks,
/// then each instruction and terminator in layout order), as a client
/// front end would, then puts it into pruned SSA. Returns the function
/// (dropped by the caller outside the timed region, as Cranelift's is) and
/// the phi count.
pub fn build_and_construct(src: &Function) -> (Function, usize) {
    use ssakit::ir::{InstData, Terminator};
    let mut b = FunctionBuilder::new(src.name());
    let mut vars = vec![Var::new(0); src.num_vars()];
    let mut is_param = vec![false; src.num_vars()];
    for &p in src.params() {
        vars[p.index()] = b.param(src.base_name(p));
        is_param[p.index()] = true;
    }
    for v in src.vars() {
        if !is_param[v.index()] {
            vars[v.index()] = b.var(src.base_name(v));
        }
    }
    let mut blocks = vec![Block::new(0); src.num_blocks()];
    for &sb in src.layout() {
        blocks[sb.index()] = b.block(src.block_name(sb));
    }
    let var = |v: Var| vars[v.index()];
    let op = |o: Operand| match o {
        Operand::Var(v) => Operand::Var(var(v)),
        other => other,
    };
    let ops = |list: &[Operand]| list.iter().map(|&o| op(o)).collect::<Vec<_>>();
    for &sb in src.layout() {
        b.switch_to(blocks[sb.index()]);
        for &i in src.block_insts(sb) {
            match *src.inst(i) {
                InstData::Copy { dst, src: s } => {
                    b.copy(var(dst), op(s));
                }
                InstData::Unary { dst, op: o, arg } => {
                    b.unary(var(dst), o, op(arg));
                }
                InstData::Binary {
                    dst,
                    op: o,
                    lhs,
                    rhs,
                } => {
                    b.binary(var(dst), o, op(lhs), op(rhs));
                }
                InstData::Print { args } => {
                    b.print(&ops(args.as_slice(src)));
                }
                InstData::Call {
                    callee,
                    args,
                    results,
                } => {
                    let results: Vec<Var> = results.as_slice(src).iter().map(|&v| var(v)).collect();
                    b.call_multi(&results, src.callee_name(callee), &ops(args.as_slice(src)));
                }
                ref other => panic!("the builder path copies plain programs, not {other:?}"),
            }
        }
        match *src.term(sb) {
            Terminator::Jump(t) => b.jump(blocks[t.index()]),
            Terminator::Branch {
                cond,
                then_dest,
                else_dest,
            } => b.branch(
                op(cond),
                blocks[then_dest.index()],
                blocks[else_dest.index()],
            ),
            Terminator::Switch {
                value,
                default,
                targets,
            } => {
                let targets: Vec<Block> = targets
                    .as_slice(src)
                    .iter()
                    .map(|t| blocks[t.index()])
                    .collect();
                b.switch(op(value), blocks[default.index()], &targets)
            }
            Terminator::Ret(vals) => b.ret_values(&ops(vals.as_slice(src))),
            Terminator::Unreachable => b.unreachable(),
        }
    }
    let mut f = b.finish();
    let phis = construct(&mut f, &options(Flavor::Pruned))
        .expect("construction succeeds")
        .phis;
    (f, phis)
}

/// The copy limit: a copy of `src` in which every operand and definition
/// is read and written again through a variable table, the least a
/// renaming must do.
pub fn copy_rewrite(src: &Function, table: &[Var]) -> Function {
    let mut f = src.clone();
    let rewrite = |o: &mut Operand| {
        if let Operand::Var(v) = o {
            *v = table[v.index()];
        }
    };
    for b in f.layout().to_vec() {
        for k in 0..f.block_insts(b).len() {
            let i = f.block_insts(b)[k];
            f.for_each_operand_mut(i, rewrite);
            f.for_each_def_mut(i, |d| *d = table[d.index()]);
        }
        f.for_each_term_operand_mut(b, rewrite);
    }
    f
}

/// Phis of `f` that LLVM's mem2reg would delete after renaming, which
/// explains the difference between pruned ssakit's phi count and LLVM's.
///
/// LLVM has no copies: `x = y` stores `y`'s value into `x`'s slot, so after
/// promotion `x` *is* `y`'s value (and `x = 5` is the constant 5, uniqued).
/// Then `PromoteMem2Reg::run` repeats `simplifyPHINode` over the new phis
/// until none goes: a phi whose operands, ignoring itself and `undef`, are
/// all one value is replaced by it (by `undef` if there is none), provided,
/// when an `undef` was ignored, that the value dominates the phi. This
/// function applies the same rule to `f` with copies folded.
pub fn trivially_redundant_phis(f: &Function) -> usize {
    redundant_phis(f, UndefRule::Llvm)
}

/// How a phi operand `undef` counts when phis are removed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum UndefRule {
    /// LLVM's: ignored, if the remaining value dominates the phi.
    Llvm,
    /// An operand like any other (Braun et al.'s trivial phi: every
    /// operand one value or the phi itself).
    Value,
}

/// Phis of `f` that are trivial once copies (of variables and of
/// constants) are folded, iterated to a fixed point, with `undef` counted
/// by `rule`.
pub fn redundant_phis(f: &Function, rule: UndefRule) -> usize {
    use ssakit::analysis::DomTree;
    use ssakit::ir::{Cfg, InstData};
    let dt = DomTree::new(&Cfg::new(f));
    // What each variable is in LLVM: itself, another value (a copy or a
    // removed phi), a constant, or undef. Versions are created in order,
    // so a copy's source is resolved before its destination is read.
    let mut val: Vec<Operand> = f.vars().map(Operand::Var).collect();
    let mut def_block = vec![f.entry(); f.num_vars()];
    for &b in f.layout() {
        for i in f.block_all_insts(b) {
            f.for_each_def(i, |d| def_block[d.index()] = b);
        }
    }
    fn resolve(val: &[Operand], mut o: Operand) -> Operand {
        while let Operand::Var(v) = o {
            if val[v.index()] == o {
                break;
            }
            o = val[v.index()];
        }
        o
    }
    for &b in f.layout() {
        for &i in f.block_insts(b) {
            if let InstData::Copy { dst, src } = f.inst(i) {
                val[dst.index()] = *src;
            }
        }
    }
    let phis: Vec<_> = f
        .layout()
        .iter()
        .flat_map(|&b| f.block_phis(b).iter().copied())
        .collect();
    let mut removed = vec![false; phis.len()];
    let mut count = 0;
    loop {
        let mut changed = false;
        for (k, &i) in phis.iter().enumerate() {
            if removed[k] {
                continue;
            }
            let InstData::Phi { dst, args } = f.inst(i) else {
                continue;
            };
            let mut common: Option<Operand> = None;
            let mut unique = true;
            let mut saw_undef = false;
            for a in args.as_slice(f) {
                let o = resolve(&val, a.value);
                if o == Operand::Undef && rule == UndefRule::Llvm {
                    saw_undef = true;
                    continue;
                }
                if o == Operand::Var(*dst) {
                    continue;
                }
                match common {
                    None => common = Some(o),
                    Some(c) if c == o => {}
                    Some(_) => {
                        unique = false;
                        break;
                    }
                }
            }
            let here = def_block[dst.index()];
            let dominates = match common {
                Some(Operand::Var(c)) => dt.strictly_dominates(def_block[c.index()], here),
                _ => true,
            };
            if unique && (!saw_undef || dominates) {
                val[dst.index()] = common.unwrap_or(Operand::Undef);
                removed[k] = true;
                count += 1;
                changed = true;
            }
        }
        if !changed {
            return count;
        }
    }
}
