//! A small builder for constructing functions in code (tests, the program
//! generator, benchmarks).

use super::{BinOp, Block, Function, Inst, InstData, Operand, PhiArg, Terminator, UnOp, Var};

/// Builds a [`Function`] one instruction at a time at a current block.
///
/// ```
/// use ssakit::ir::{FunctionBuilder, BinOp, Operand};
/// let mut b = FunctionBuilder::new("main");
/// let n = b.param("n");
/// let entry = b.block("entry");
/// b.switch_to(entry);
/// let x = b.var("x");
/// b.binary(x, BinOp::Add, n.into(), Operand::Const(1));
/// b.ret(Some(x.into()));
/// let f = b.finish();
/// assert_eq!(f.num_insts(), 2);
/// ```
#[derive(Debug)]
pub struct FunctionBuilder {
    func: Function,
    current: Option<Block>,
}

impl FunctionBuilder {
    /// Starts a function named `name`.
    pub fn new(name: &str) -> Self {
        FunctionBuilder {
            func: Function::new(name),
            current: None,
        }
    }

    /// Declares a parameter.
    pub fn param(&mut self, name: &str) -> Var {
        let v = self.func.new_var(name);
        self.func.params.push(v);
        v
    }

    /// Declares a variable.
    pub fn var(&mut self, name: &str) -> Var {
        self.func.new_var(name)
    }

    /// Creates a block (ending in `ret` until a terminator is set). The first
    /// block created is the entry.
    pub fn block(&mut self, name: &str) -> Block {
        self.func.new_block(name)
    }

    /// Makes `b` the block instructions are added to.
    pub fn switch_to(&mut self, b: Block) {
        self.current = Some(b);
    }

    fn cur(&self) -> Block {
        self.current.expect("FunctionBuilder: no current block")
    }

    /// Appends an instruction to the current block.
    pub fn inst(&mut self, data: InstData) -> Inst {
        let b = self.cur();
        self.func.push_inst(b, data)
    }

    /// `dst = src`.
    pub fn copy(&mut self, dst: Var, src: Operand) -> Inst {
        self.inst(InstData::Copy { dst, src })
    }

    /// `dst = op arg`.
    pub fn unary(&mut self, dst: Var, op: UnOp, arg: Operand) -> Inst {
        self.inst(InstData::Unary { dst, op, arg })
    }

    /// `dst = lhs op rhs`.
    pub fn binary(&mut self, dst: Var, op: BinOp, lhs: Operand, rhs: Operand) -> Inst {
        self.inst(InstData::Binary { dst, op, lhs, rhs })
    }

    /// `dst = func(args)`.
    pub fn call(&mut self, dst: Option<Var>, func: &str, args: Vec<Operand>) -> Inst {
        self.inst(InstData::Call {
            dst,
            func: func.into(),
            args,
        })
    }

    /// `print args`.
    pub fn print(&mut self, args: Vec<Operand>) -> Inst {
        self.inst(InstData::Print { args })
    }

    /// `dst = phi(args)`.
    pub fn phi(&mut self, dst: Var, args: Vec<PhiArg>) -> Inst {
        self.inst(InstData::Phi { dst, args })
    }

    /// Sets the current block's terminator.
    pub fn terminate(&mut self, t: Terminator) {
        let b = self.cur();
        self.func.blocks[b].term = t;
    }

    /// `jump to`.
    pub fn jump(&mut self, to: Block) {
        self.terminate(Terminator::Jump(to))
    }

    /// `branch cond, then_dest, else_dest`.
    pub fn branch(&mut self, cond: Operand, then_dest: Block, else_dest: Block) {
        self.terminate(Terminator::Branch {
            cond,
            then_dest,
            else_dest,
        })
    }

    /// `ret v`.
    pub fn ret(&mut self, v: Option<Operand>) {
        self.terminate(Terminator::Ret(v))
    }

    /// The function built so far.
    pub fn func(&self) -> &Function {
        &self.func
    }

    /// Finishes and returns the function.
    pub fn finish(self) -> Function {
        self.func
    }
}
