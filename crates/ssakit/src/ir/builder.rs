//! A small builder for constructing functions in code (tests, the program
//! generator, front ends).

use super::{
    BinOp, Block, Effects, EffectsConflict, Function, Inst, InstData, Operand, PhiArg,
    SharedSymbols, Terminator, Type, UnOp, Var,
};

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
    /// Starts a function named `name` with its own symbol table.
    pub fn new(name: &str) -> Self {
        FunctionBuilder {
            func: Function::new(name),
            current: None,
        }
    }

    /// Starts a function named `name` sharing its module's symbol table.
    pub fn with_symbols(name: &str, symbols: SharedSymbols) -> Self {
        FunctionBuilder {
            func: Function::with_symbols(name, symbols),
            current: None,
        }
    }

    /// Declares an `i64` parameter.
    pub fn param(&mut self, name: &str) -> Var {
        self.typed_param(name, Type::I64)
    }

    /// Declares a parameter of type `ty`.
    pub fn typed_param(&mut self, name: &str, ty: Type) -> Var {
        let v = self.func.new_var(name, ty);
        self.func.add_param(v);
        v
    }

    /// Declares an `i64` variable.
    pub fn var(&mut self, name: &str) -> Var {
        self.func.new_var(name, Type::I64)
    }

    /// Declares a variable of type `ty`.
    pub fn typed_var(&mut self, name: &str, ty: Type) -> Var {
        self.func.new_var(name, ty)
    }

    /// Declares the result types.
    pub fn returns(&mut self, types: &[Type]) {
        self.func.set_returns(Some(types.to_vec()));
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

    /// `dst = func(args)`, or `func(args)` when `dst` is `None`.
    pub fn call(&mut self, dst: Option<Var>, func: &str, args: &[Operand]) -> Inst {
        let results: Vec<Var> = dst.into_iter().collect();
        self.call_multi(&results, func, args)
    }

    /// `(r1, ..., rn) = func(args)`.
    pub fn call_multi(&mut self, results: &[Var], func: &str, args: &[Operand]) -> Inst {
        let callee = self.func.callee(func);
        let args = self.func.list(args);
        let results = self.func.list(results);
        self.inst(InstData::Call {
            callee,
            args,
            results,
        })
    }

    /// `print args`.
    pub fn print(&mut self, args: &[Operand]) -> Inst {
        let args = self.func.list(args);
        self.inst(InstData::Print { args })
    }

    /// `dst = phi(args)`.
    pub fn phi(&mut self, dst: Var, args: &[PhiArg]) -> Inst {
        let args = self.func.list(args);
        self.inst(InstData::Phi { dst, args })
    }

    /// `(d1, ..., dn) = (s1, ..., sn)`.
    pub fn par_copy(&mut self, copies: &[(Var, Operand)]) -> Inst {
        let copies = self.func.list(copies);
        self.inst(InstData::ParCopy { copies })
    }

    /// `(r1, ..., rn) = name[imms](args)`: a generic operation of operator
    /// `name`, which has `effects`.
    ///
    /// # Errors
    /// If `name` is already an operator with other effects.
    pub fn op(
        &mut self,
        name: &str,
        effects: Effects,
        imms: &[i64],
        args: &[Operand],
        results: &[Var],
    ) -> Result<Inst, EffectsConflict> {
        let op = self.func.operator(name, effects)?;
        let imms = self.func.list(imms);
        let args = self.func.list(args);
        let results = self.func.list(results);
        Ok(self.inst(InstData::Op {
            op,
            imms,
            args,
            results,
        }))
    }

    /// Sets the current block's terminator.
    pub fn terminate(&mut self, t: Terminator) {
        let b = self.cur();
        self.func.set_term(b, t);
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

    /// `switch value, default, [targets]`.
    pub fn switch(&mut self, value: Operand, default: Block, targets: &[Block]) {
        let t = self.func.switch_term(value, default, targets);
        self.terminate(t)
    }

    /// `ret v` or `ret`.
    pub fn ret(&mut self, v: Option<Operand>) {
        let vals: Vec<Operand> = v.into_iter().collect();
        self.ret_values(&vals)
    }

    /// `ret v1, ..., vn`.
    pub fn ret_values(&mut self, vals: &[Operand]) {
        let t = self.func.ret_term(vals);
        self.terminate(t)
    }

    /// `unreachable`.
    pub fn unreachable(&mut self) {
        self.terminate(Terminator::Unreachable)
    }

    /// The function built so far.
    pub fn func(&self) -> &Function {
        &self.func
    }

    /// The function built so far, mutably.
    pub fn func_mut(&mut self) -> &mut Function {
        &mut self.func
    }

    /// Finishes and returns the function.
    pub fn finish(self) -> Function {
        self.func
    }
}
