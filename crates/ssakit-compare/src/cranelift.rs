//! The same function built with Cranelift's SSA builder
//! (`cranelift-frontend`): `declare_var` per variable, `def_var` at every
//! definition, `use_var` at every use, over the same blocks and
//! instructions, read from the same ssakit [`Function`] that ssakit's own
//! [`FunctionBuilder`](ssakit::ir::FunctionBuilder) path reads.
//!
//! Translation: every value is an `i64`; a constant is an `iconst`; `undef`
//! is `iconst 0` (Cranelift has no undefined value; its builder also gives
//! 0 to a variable used before any definition); comparisons and `!` are an
//! `icmp` and a `uextend`; `print` is one call of an imported `print_i64` per
//! value; a call is a call of an imported function; `switch` is a
//! `br_table` on the selector reduced to `i32` (the same edges; the
//! out-of-range test of a 64-bit selector is not modelled, as nothing runs).
//!
//! Typed functions (lifted WebAssembly, [`build_flow`]) keep only the
//! variables' flow: each variable is declared with its type ([`cl_type`]),
//! and an operation or a call defines each of its results from a constant
//! of the result's type after `use_var` on each operand. The literals made
//! for ssakit constants are returned so that the phi cross-check
//! ([`trivial_params`]) treats two equal literals as one value, as
//! ssakit's operands do.

use cranelift_codegen::ir::{
    self,
    condcodes::IntCC,
    immediates::{Ieee32, Ieee64},
    types::{F32, F64, I32, I64, I8X16},
    AbiParam, BlockArg, ExtFuncData, ExternalName, InstBuilder, JumpTableData, Signature,
    UserExternalName,
};
use cranelift_codegen::isa::{CallConv, TargetFrontendConfig};
use cranelift_frontend::{FunctionBuilder, FunctionBuilderContext, Variable};
use ssakit::ir::{BinOp, Function, InstData, Operand, Terminator, Type, UnOp};
use std::collections::HashMap;

/// When blocks are sealed (all their predecessors declared).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Sealing {
    /// `seal_all_blocks` once every block is filled.
    AtEnd,
    /// Each block as soon as its last predecessor's branch is emitted.
    Early,
}

/// A value made for an ssakit operand that is not a variable: equal
/// literals are one value in ssakit, so the cross-check identifies them.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Literal {
    /// The constant of these bits and this type.
    Const(Type, i64),
    /// `undef` of this type (built as zero).
    Undef(Type),
}

/// Builds `src` with Cranelift's frontend; returns the function and the
/// number of block parameters other than the entry's (Cranelift's phis).
pub fn build(src: &Function, sealing: Sealing) -> (ir::Function, usize) {
    let (func, _) = build_with(src, sealing, false);
    let params = block_params(&func);
    (func, params)
}

/// Builds a typed function (lifted WebAssembly) for its variables' flow:
/// operations and calls define their results from constants. Returns the
/// function and the literals made for ssakit's constant and `undef`
/// operands.
pub fn build_flow(src: &Function, sealing: Sealing) -> (ir::Function, Vec<(ir::Value, Literal)>) {
    build_with(src, sealing, true)
}

/// The Cranelift type of an ssakit variable's type: a `v128` is an
/// `i8x16`, a reference a 64-bit integer (the pointer width built for), a
/// `bool` (Bril's) an `i8`.
pub fn cl_type(t: Type) -> ir::Type {
    match t {
        Type::I64 | Type::FuncRef | Type::ExternRef => I64,
        Type::Bool => ir::types::I8,
        Type::I32 => I32,
        Type::F32 => F32,
        Type::F64 => F64,
        Type::V128 => I8X16,
    }
}

/// A constant of type `ty` with the bits of `c` (truncated to the type).
fn constant(b: &mut FunctionBuilder, ty: ir::Type, c: i64) -> ir::Value {
    match ty {
        I32 => b.ins().iconst(I32, i64::from(c as u32)),
        F32 => b.ins().f32const(Ieee32::with_bits(c as u32)),
        F64 => b.ins().f64const(Ieee64::with_bits(c as u64)),
        I8X16 => {
            let bytes = i128::from(c).to_le_bytes().to_vec();
            let k = b.func.dfg.constants.insert(bytes.into());
            b.ins().vconst(I8X16, k)
        }
        _ => b.ins().iconst(ty, c),
    }
}

/// The number of block parameters of `func` other than the entry's.
pub fn block_params(func: &ir::Function) -> usize {
    let entry_block = func.layout.entry_block();
    func.layout
        .blocks()
        .filter(|&bl| Some(bl) != entry_block)
        .map(|bl| func.dfg.block_params(bl).len())
        .sum()
}

/// Block parameters of `func` other than the entry's, and how many of them
/// are trivial: every incoming argument, on every edge, is one value or
/// the parameter itself, after the removal of the trivial parameters found
/// so far (iterated to a fixed point; Braun et al. 2013,
/// `tryRemoveTrivialPhi`). Aliases are resolved, and the values of equal
/// `literals` count as one. Returns the parameters, the trivial ones, and
/// those of them found in the first round (trivial on their own
/// arguments; the others became trivial through another's removal).
pub fn trivial_params(
    func: &ir::Function,
    literals: &[(ir::Value, Literal)],
) -> (usize, usize, usize) {
    let n = func.dfg.num_values();
    // What each value stands for: itself, or a value it equals.
    let mut rep: Vec<u32> = (0..n as u32).collect();
    let mut sorted = literals.to_vec();
    sorted.sort_by_key(|&(v, l)| (l, v.as_u32()));
    for w in sorted.windows(2) {
        if w[0].1 == w[1].1 {
            rep[w[1].0.as_u32() as usize] = rep[w[0].0.as_u32() as usize];
        }
    }
    // Each parameter's incoming arguments: (parameter, argument) pairs,
    // grouped by parameter.
    let mut incoming: Vec<(u32, u32)> = Vec::new();
    for bl in func.layout.blocks() {
        let Some(last) = func.layout.last_inst(bl) else {
            continue;
        };
        let dests = func.dfg.insts[last]
            .branch_destination(&func.dfg.jump_tables, &func.dfg.exception_tables);
        for call in dests {
            let target = call.block(&func.dfg.value_lists);
            let params = func.dfg.block_params(target);
            for (k, a) in call.args(&func.dfg.value_lists).enumerate() {
                let a = match a {
                    BlockArg::Value(v) => func.dfg.resolve_aliases(v).as_u32(),
                    // Not made by this builder: a value of its own.
                    _ => params[k].as_u32(),
                };
                incoming.push((params[k].as_u32(), a));
            }
        }
    }
    incoming.sort_unstable();
    let total = block_params(func);
    let find = |rep: &[u32], mut v: u32| {
        while rep[v as usize] != v {
            v = rep[v as usize];
        }
        v
    };
    let mut removed = 0;
    let mut first_round = None;
    loop {
        let mut changed = false;
        for group in incoming.chunk_by(|a, b| a.0 == b.0) {
            let p = group[0].0;
            if rep[p as usize] != p {
                continue;
            }
            let mut common = None;
            let mut unique = true;
            for &(_, a) in group {
                let a = find(&rep, a);
                if a == p || common == Some(a) {
                    continue;
                }
                if common.is_some() {
                    unique = false;
                    break;
                }
                common = Some(a);
            }
            if unique {
                if let Some(c) = common {
                    rep[p as usize] = c;
                    removed += 1;
                    changed = true;
                }
            }
        }
        let first = *first_round.get_or_insert(removed);
        if !changed {
            return (total, removed, first);
        }
    }
}

/// [`build`] or [`build_flow`] (`flow`).
fn build_with(
    src: &Function,
    sealing: Sealing,
    flow: bool,
) -> (ir::Function, Vec<(ir::Value, Literal)>) {
    let mut sig = Signature::new(CallConv::SystemV);
    let sty = |v: ssakit::ir::Var| src.var_type(v);
    let ty = |v: ssakit::ir::Var| cl_type(src.var_type(v));
    sig.params = src.params().iter().map(|&p| AbiParam::new(ty(p))).collect();
    let returns: Vec<Type> = match src.returns() {
        Some(ts) if flow => ts.to_vec(),
        _ => vec![Type::I64],
    };
    sig.returns = returns.iter().map(|&t| AbiParam::new(cl_type(t))).collect();
    // Recorded for the cross-check only, not in the timed generated runs.
    let mut literals = flow.then(Vec::new);
    let mut func = ir::Function::with_name_signature(ir::UserFuncName::user(0, 0), sig);
    let mut ctx = FunctionBuilderContext::new();
    let mut b = FunctionBuilder::new(&mut func, &mut ctx);

    let vars: Vec<Variable> = src.vars().map(|v| b.declare_var(ty(v))).collect();
    let mut blocks = vec![None; src.num_blocks()];
    for &sb in src.layout() {
        blocks[sb.index()] = Some(b.create_block());
    }
    let block = |x: ssakit::ir::Block| blocks[x.index()].expect("block in layout");
    // Remaining predecessor edges of each block, for early sealing.
    let mut pending = vec![0u32; src.num_blocks()];
    if sealing == Sealing::Early {
        for &sb in src.layout() {
            src.for_each_succ(sb, |s| pending[s.index()] += 1);
        }
    }
    // Cranelift's entry block may have no predecessors: add one in front
    // when ours has some.
    let entry = src.entry();
    let entry_has_preds = src.layout().iter().any(|&x| {
        let mut hit = false;
        src.for_each_succ(x, |s| hit |= s == entry);
        hit
    });
    let cl_entry = if entry_has_preds {
        let e = b.create_block();
        b.append_block_params_for_function_params(e);
        b.switch_to_block(e);
        b.seal_block(e);
        let params = b.block_params(e).to_vec();
        for (&p, v) in src.params().iter().zip(params) {
            b.def_var(vars[p.index()], v);
        }
        b.ins().jump(block(entry), &[]);
        None
    } else {
        Some(block(entry))
    };

    let mut print_ref = None;
    let mut callees: HashMap<Box<str>, ir::FuncRef> = HashMap::new();
    let mut next_name = 0u32;
    for &sb in src.layout() {
        let cb = block(sb);
        b.switch_to_block(cb);
        if cl_entry == Some(cb) {
            b.append_block_params_for_function_params(cb);
            b.seal_block(cb);
            let params = b.block_params(cb).to_vec();
            for (&p, v) in src.params().iter().zip(params) {
                b.def_var(vars[p.index()], v);
            }
        } else if sealing == Sealing::Early && pending[sb.index()] == 0 {
            b.seal_block(cb);
        }
        for i in src.block_all_insts(sb) {
            let val = |b: &mut FunctionBuilder, o: Operand| match o {
                Operand::Var(v) => b.use_var(vars[v.index()]),
                Operand::Const(c) => b.ins().iconst(I64, c),
                Operand::Undef => b.ins().iconst(I64, 0),
            };
            match src.inst(i) {
                InstData::Copy { dst, src: s } => {
                    let x = typed_val(&mut b, &vars, &mut literals, *s, sty(*dst));
                    b.def_var(vars[dst.index()], x);
                }
                InstData::Call { args, results, .. } | InstData::Op { args, results, .. }
                    if flow =>
                {
                    for &a in args.as_slice(src) {
                        if let Operand::Var(v) = a {
                            b.use_var(vars[v.index()]);
                        }
                    }
                    for &r in results.as_slice(src) {
                        let x = constant(&mut b, ty(r), 0);
                        b.def_var(vars[r.index()], x);
                    }
                }
                InstData::Unary { dst, op, arg } => {
                    let x = val(&mut b, *arg);
                    let r = match op {
                        UnOp::Neg => b.ins().ineg(x),
                        UnOp::Not => {
                            let c = b.ins().icmp_imm_s(IntCC::Equal, x, 0);
                            b.ins().uextend(I64, c)
                        }
                    };
                    b.def_var(vars[dst.index()], r);
                }
                InstData::Binary { dst, op, lhs, rhs } => {
                    let l = val(&mut b, *lhs);
                    let r = val(&mut b, *rhs);
                    let cmp = |b: &mut FunctionBuilder, cc| {
                        let c = b.ins().icmp(cc, l, r);
                        b.ins().uextend(I64, c)
                    };
                    let x = match op {
                        BinOp::Add => b.ins().iadd(l, r),
                        BinOp::Sub => b.ins().isub(l, r),
                        BinOp::Mul => b.ins().imul(l, r),
                        BinOp::Div => b.ins().sdiv(l, r),
                        BinOp::Rem => b.ins().srem(l, r),
                        BinOp::And => b.ins().band(l, r),
                        BinOp::Or => b.ins().bor(l, r),
                        BinOp::Xor => b.ins().bxor(l, r),
                        BinOp::Shl => b.ins().ishl(l, r),
                        BinOp::Shr => b.ins().sshr(l, r),
                        BinOp::Eq => cmp(&mut b, IntCC::Equal),
                        BinOp::Ne => cmp(&mut b, IntCC::NotEqual),
                        BinOp::Lt => cmp(&mut b, IntCC::SignedLessThan),
                        BinOp::Le => cmp(&mut b, IntCC::SignedLessThanOrEqual),
                        BinOp::Gt => cmp(&mut b, IntCC::SignedGreaterThan),
                        BinOp::Ge => cmp(&mut b, IntCC::SignedGreaterThanOrEqual),
                    };
                    b.def_var(vars[dst.index()], x);
                }
                InstData::Call {
                    callee,
                    args,
                    results,
                } => {
                    let args = args.as_slice(src);
                    let xs: Vec<ir::Value> = args.iter().map(|&a| val(&mut b, a)).collect();
                    let f = *callees
                        .entry(src.callee_name(*callee).into())
                        .or_insert_with(|| {
                            next_name += 1;
                            import(&mut b, next_name, args.len(), true)
                        });
                    let call = b.ins().call(f, &xs);
                    if let [d] = results.as_slice(src) {
                        let r = b.inst_results(call)[0];
                        b.def_var(vars[d.index()], r);
                    }
                }
                InstData::Print { args } => {
                    let f = *print_ref.get_or_insert_with(|| import(&mut b, 0, 1, false));
                    for &a in args.as_slice(src) {
                        let x = val(&mut b, a);
                        b.ins().call(f, &[x]);
                    }
                }
                InstData::ParCopy { copies } => {
                    let copies = copies.as_slice(src);
                    let xs: Vec<ir::Value> = copies
                        .iter()
                        .map(|&(d, s)| typed_val(&mut b, &vars, &mut literals, s, sty(d)))
                        .collect();
                    for (&(d, _), x) in copies.iter().zip(xs) {
                        b.def_var(vars[d.index()], x);
                    }
                }
                InstData::Phi { .. } => panic!("the source must not be in SSA form"),
                InstData::Op { .. } => panic!("generic operations are not compared"),
            }
        }
        let mut seal_after = Vec::new();
        match src.term(sb) {
            Terminator::Jump(t) => {
                b.ins().jump(block(*t), &[]);
            }
            Terminator::Branch {
                cond,
                then_dest,
                else_dest,
            } => {
                let c = typed_val(&mut b, &vars, &mut literals, *cond, Type::I64);
                b.ins()
                    .brif(c, block(*then_dest), &[], block(*else_dest), &[]);
            }
            Terminator::Switch {
                value,
                default,
                targets,
            } => {
                let v = typed_val(&mut b, &vars, &mut literals, *value, Type::I64);
                let idx = if b.func.dfg.value_type(v) == I32 {
                    v
                } else {
                    b.ins().ireduce(I32, v)
                };
                let def = b.func.dfg.block_call(block(*default), &[]);
                let calls: Vec<ir::BlockCall> = targets
                    .as_slice(src)
                    .iter()
                    .map(|&t| b.func.dfg.block_call(block(t), &[]))
                    .collect();
                let jt = b.create_jump_table(JumpTableData::new(def, &calls));
                b.ins().br_table(idx, jt);
            }
            Terminator::Ret(v) if flow => {
                let xs: Vec<ir::Value> = v
                    .as_slice(src)
                    .iter()
                    .zip(&returns)
                    .map(|(&o, &t)| typed_val(&mut b, &vars, &mut literals, o, t))
                    .collect();
                b.ins().return_(&xs);
            }
            Terminator::Ret(v) => {
                let x = match v.as_slice(src).first() {
                    Some(Operand::Var(v)) => b.use_var(vars[v.index()]),
                    Some(Operand::Const(c)) => b.ins().iconst(I64, *c),
                    _ => b.ins().iconst(I64, 0),
                };
                b.ins().return_(&[x]);
            }
            Terminator::Unreachable => {
                b.ins().trap(ir::TrapCode::user(1).unwrap());
            }
        }
        if sealing == Sealing::Early {
            src.for_each_succ(sb, |s| {
                pending[s.index()] -= 1;
                if pending[s.index()] == 0 {
                    seal_after.push(block(s));
                }
            });
            for s in seal_after {
                b.seal_block(s);
            }
        }
    }
    if sealing == Sealing::AtEnd {
        b.seal_all_blocks();
    }
    b.finalize(TargetFrontendConfig {
        default_call_conv: CallConv::SystemV,
        pointer_width: target_lexicon::PointerWidth::U64,
        page_size_align_log2: 12,
    });
    (func, literals.unwrap_or_default())
}

/// The value of `o` where a value of type `t` is wanted: the variable's
/// current value, or a literal of type `t` (recorded in `literals`, if
/// any).
fn typed_val(
    b: &mut FunctionBuilder,
    vars: &[Variable],
    literals: &mut Option<Vec<(ir::Value, Literal)>>,
    o: Operand,
    t: Type,
) -> ir::Value {
    let (x, lit) = match o {
        Operand::Var(v) => return b.use_var(vars[v.index()]),
        Operand::Const(c) => (constant(b, cl_type(t), c), Literal::Const(t, c)),
        Operand::Undef => (constant(b, cl_type(t), 0), Literal::Undef(t)),
    };
    if let Some(l) = literals {
        l.push((x, lit));
    }
    x
}

/// Imports a function of `arity` `i64` arguments (returning one `i64` if
/// `returns`), named by user index `index`.
fn import(b: &mut FunctionBuilder, index: u32, arity: usize, returns: bool) -> ir::FuncRef {
    let mut sig = Signature::new(CallConv::SystemV);
    sig.params = (0..arity).map(|_| AbiParam::new(I64)).collect();
    if returns {
        sig.returns.push(AbiParam::new(I64));
    }
    let signature = b.import_signature(sig);
    let name = b
        .func
        .declare_imported_user_function(UserExternalName::new(0, index));
    b.import_function(ExtFuncData {
        name: ExternalName::user(name),
        signature,
        colocated: false,
        patchable: false,
    })
}
