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

use cranelift_codegen::ir::{
    self, condcodes::IntCC, types::I64, AbiParam, ExtFuncData, ExternalName, InstBuilder,
    JumpTableData, Signature, UserExternalName,
};
use cranelift_codegen::isa::{CallConv, TargetFrontendConfig};
use cranelift_frontend::{FunctionBuilder, FunctionBuilderContext, Variable};
use ssakit::ir::{BinOp, Function, InstData, Operand, Terminator, UnOp};
use std::collections::HashMap;

/// When blocks are sealed (all their predecessors declared).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Sealing {
    /// `seal_all_blocks` once every block is filled.
    AtEnd,
    /// Each block as soon as its last predecessor's branch is emitted.
    Early,
}

/// Builds `src` with Cranelift's frontend; returns the function and the
/// number of block parameters other than the entry's (Cranelift's phis).
pub fn build(src: &Function, sealing: Sealing) -> (ir::Function, usize) {
    let mut sig = Signature::new(CallConv::SystemV);
    sig.params = src.params().iter().map(|_| AbiParam::new(I64)).collect();
    sig.returns.push(AbiParam::new(I64));
    let mut func = ir::Function::with_name_signature(ir::UserFuncName::user(0, 0), sig);
    let mut ctx = FunctionBuilderContext::new();
    let mut b = FunctionBuilder::new(&mut func, &mut ctx);

    let vars: Vec<Variable> = src.vars().map(|_| b.declare_var(I64)).collect();
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
                InstData::Copy { dst, src } => {
                    let x = val(&mut b, *src);
                    b.def_var(vars[dst.index()], x);
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
                    let xs: Vec<ir::Value> = copies.iter().map(|&(_, s)| val(&mut b, s)).collect();
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
                let c = match cond {
                    Operand::Var(v) => b.use_var(vars[v.index()]),
                    Operand::Const(c) => b.ins().iconst(I64, *c),
                    Operand::Undef => b.ins().iconst(I64, 0),
                };
                b.ins()
                    .brif(c, block(*then_dest), &[], block(*else_dest), &[]);
            }
            Terminator::Switch {
                value,
                default,
                targets,
            } => {
                let v = match value {
                    Operand::Var(v) => b.use_var(vars[v.index()]),
                    Operand::Const(c) => b.ins().iconst(I64, *c),
                    Operand::Undef => b.ins().iconst(I64, 0),
                };
                let idx = b.ins().ireduce(ir::types::I32, v);
                let def = b.func.dfg.block_call(block(*default), &[]);
                let calls: Vec<ir::BlockCall> = targets
                    .as_slice(src)
                    .iter()
                    .map(|&t| b.func.dfg.block_call(block(t), &[]))
                    .collect();
                let jt = b.create_jump_table(JumpTableData::new(def, &calls));
                b.ins().br_table(idx, jt);
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
    let entry_block = func.layout.entry_block();
    let params = func
        .layout
        .blocks()
        .filter(|&bl| Some(bl) != entry_block)
        .map(|bl| func.dfg.block_params(bl).len())
        .sum();
    (func, params)
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
