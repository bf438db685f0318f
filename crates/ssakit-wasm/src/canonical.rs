//! A function renumbered as the `.ssa` parser numbers it, so that a lifted
//! function printed and parsed back is equal to it (`Function`'s
//! `PartialEq` compares variables and blocks by number).
//!
//! The parser makes a variable at its first appearance in the text
//! (parameters first, then block by block: phis, instructions, the
//! terminator; in an instruction its definitions before its operands) and
//! numbers blocks in layout order (it reads the labels first). The lifter creates them in another order
//! (a merge variable when its frame opens, an end block when it is first
//! branched to), and some that nothing prints (the result variables of a
//! block nobody branches to); [`in_text_order`] copies the function in the
//! parser's order and leaves those out.

use ssakit::entity::PackedOption;
use ssakit::ir::{Block, Function, InstData, Operand, PhiArg, Terminator, Var};

struct Renumber<'f> {
    old: &'f Function,
    new: Function,
    vars: Vec<PackedOption<Var>>,
    blocks: Vec<PackedOption<Block>>,
    /// Scratch of [`Renumber::operands`] and [`Renumber::defs`]: one
    /// buffer each for the whole function, not a list per instruction.
    op_buf: Vec<Operand>,
    var_buf: Vec<Var>,
}

impl Renumber<'_> {
    fn var(&mut self, v: Var) -> Var {
        if let Some(n) = self.vars[v.index()].expand() {
            return n;
        }
        let n = self
            .new
            .new_var(self.old.base_name(v), self.old.var_type(v));
        self.vars[v.index()] = PackedOption::some(n);
        n
    }

    fn operand(&mut self, o: Operand) -> Operand {
        match o {
            Operand::Var(v) => Operand::Var(self.var(v)),
            o => o,
        }
    }

    fn block(&mut self, b: Block) -> Block {
        if let Some(n) = self.blocks[b.index()].expand() {
            return n;
        }
        let n = self.new.create_block(self.old.block_name(b));
        self.blocks[b.index()] = PackedOption::some(n);
        n
    }

    /// `list` renumbered, into `op_buf`.
    fn operands(&mut self, list: &[Operand]) {
        self.op_buf.clear();
        for &o in list {
            let o = self.operand(o);
            self.op_buf.push(o);
        }
    }

    /// `list` renumbered, into `var_buf`.
    fn defs(&mut self, list: &[Var]) {
        self.var_buf.clear();
        for &v in list {
            let v = self.var(v);
            self.var_buf.push(v);
        }
    }

    fn inst(&mut self, data: &InstData) -> InstData {
        let f = self.old;
        match *data {
            InstData::Copy { dst, src } => {
                let dst = self.var(dst);
                let src = self.operand(src);
                InstData::Copy { dst, src }
            }
            InstData::Unary { dst, op, arg } => {
                let dst = self.var(dst);
                let arg = self.operand(arg);
                InstData::Unary { dst, op, arg }
            }
            InstData::Binary { dst, op, lhs, rhs } => {
                let dst = self.var(dst);
                let lhs = self.operand(lhs);
                let rhs = self.operand(rhs);
                InstData::Binary { dst, op, lhs, rhs }
            }
            InstData::Call {
                callee,
                args,
                results,
            } => {
                self.defs(results.as_slice(f));
                self.operands(args.as_slice(f));
                InstData::Call {
                    callee,
                    args: self.new.list(&self.op_buf),
                    results: self.new.list(&self.var_buf),
                }
            }
            InstData::Print { args } => {
                self.operands(args.as_slice(f));
                InstData::Print {
                    args: self.new.list(&self.op_buf),
                }
            }
            InstData::Phi { dst, args } => {
                let dst = self.var(dst);
                let args: Vec<PhiArg> = args
                    .as_slice(f)
                    .iter()
                    .map(|a| PhiArg {
                        block: self.block(a.block),
                        value: self.operand(a.value),
                    })
                    .collect();
                InstData::Phi {
                    dst,
                    args: self.new.list(&args),
                }
            }
            InstData::ParCopy { copies } => {
                let copies = copies.as_slice(f);
                let dsts: Vec<Var> = copies.iter().map(|&(d, _)| self.var(d)).collect();
                let pairs: Vec<(Var, Operand)> = copies
                    .iter()
                    .zip(dsts)
                    .map(|(&(_, s), d)| (d, self.operand(s)))
                    .collect();
                InstData::ParCopy {
                    copies: self.new.list(&pairs),
                }
            }
            InstData::Op {
                op,
                imms,
                args,
                results,
            } => {
                self.defs(results.as_slice(f));
                self.operands(args.as_slice(f));
                InstData::Op {
                    op,
                    imms: self.new.list(imms.as_slice(f)),
                    args: self.new.list(&self.op_buf),
                    results: self.new.list(&self.var_buf),
                }
            }
        }
    }

    fn term(&mut self, t: &Terminator) -> Terminator {
        let f = self.old;
        match *t {
            Terminator::Jump(b) => Terminator::Jump(self.block(b)),
            Terminator::Branch {
                cond,
                then_dest,
                else_dest,
            } => {
                let cond = self.operand(cond);
                let then_dest = self.block(then_dest);
                let else_dest = self.block(else_dest);
                Terminator::Branch {
                    cond,
                    then_dest,
                    else_dest,
                }
            }
            Terminator::Switch {
                value,
                default,
                targets,
            } => {
                let value = self.operand(value);
                let default = self.block(default);
                let targets: Vec<Block> =
                    targets.as_slice(f).iter().map(|&b| self.block(b)).collect();
                self.new.switch_term(value, default, &targets)
            }
            Terminator::Ret(vals) => {
                self.operands(vals.as_slice(f));
                self.new.ret_term(&self.op_buf)
            }
            Terminator::Unreachable => Terminator::Unreachable,
        }
    }
}

/// `f` with its variables and blocks numbered in the order of their first
/// appearance in its text, without the variables and blocks its text does
/// not show. For a function without SSA versions (a version would become
/// a variable named after its original).
///
/// ```
/// use ssakit::text::{parse_module, print_function};
/// use ssakit_wasm::canonical::in_text_order;
/// let src = "function f(a, b) {\nentry:\n    x = b + 1\n    ret x\n}\n";
/// let f = parse_module(src).unwrap().functions.remove(0);
/// let g = in_text_order(&f);
/// assert_eq!(print_function(&g), print_function(&f));
/// assert_eq!(g, f); // the parser numbers in text order already
/// ```
pub fn in_text_order(f: &Function) -> Function {
    let mut r = Renumber {
        old: f,
        new: Function::with_symbols(f.name(), f.shared_symbols().clone()),
        vars: vec![PackedOption::default(); f.num_vars()],
        blocks: vec![PackedOption::default(); f.num_blocks()],
        op_buf: Vec::new(),
        var_buf: Vec::new(),
    };
    r.new.set_returns(f.returns().map(<[_]>::to_vec));
    for &p in f.params() {
        let v = r.var(p);
        r.new.add_param(v);
    }
    // The parser reads the labels of the blocks first: blocks are numbered
    // in layout order.
    for &b in f.layout() {
        let nb = r.block(b);
        r.new.append_to_layout(nb);
    }
    for &b in f.layout() {
        let nb = r.block(b);
        for &i in f.block_phis(b).iter().chain(f.block_insts(b)) {
            let data = r.inst(f.inst(i));
            r.new.push_inst(nb, data);
        }
        let t = r.term(f.term(b));
        r.new.set_term(nb, t);
    }
    r.new
}

#[cfg(test)]
mod tests {
    use super::*;
    use ssakit::text::{parse_module, print_function};

    /// A function whose variables and blocks were made out of text order
    /// comes back in the parser's order, equal to its printed text parsed.
    #[test]
    fn renumbered_like_the_parser() {
        let mut f = Function::new("f");
        let unused = f.new_var("unused", ssakit::ir::Type::I32);
        let y = f.new_var("y", ssakit::ir::Type::I32);
        let x = f.new_var("x", ssakit::ir::Type::I32);
        let _ = unused;
        let entry = f.new_block("entry");
        let late = f.create_block("late");
        let exit = f.create_block("exit");
        f.push_inst(
            entry,
            InstData::Copy {
                dst: x,
                src: Operand::Const(1),
            },
        );
        f.set_term(entry, Terminator::Jump(exit));
        f.append_to_layout(exit);
        f.push_inst(
            exit,
            InstData::Copy {
                dst: y,
                src: Operand::Var(x),
            },
        );
        let t = f.ret_term(&[Operand::Var(y)]);
        f.set_term(exit, t);
        let _ = late;
        let g = in_text_order(&f);
        let text = print_function(&g);
        let parsed = parse_module(&text).unwrap().functions.remove(0);
        assert_eq!(g, parsed, "{text}");
        assert_eq!(g.num_vars(), 2);
        assert_eq!(g.num_blocks(), 2);
    }
}
