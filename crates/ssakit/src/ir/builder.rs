//! A small builder for constructing functions in code (tests, the program
//! generator, front ends).

use super::{BinOp, Block, Function, Inst, InstData, Operand, Terminator, Type, UnOp, Var};
#[cfg(test)]
use super::{Effects, EffectsConflict, PhiArg};

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
    ///
    /// ```
    /// use ssakit::ir::FunctionBuilder;
    /// let mut b = FunctionBuilder::new("main");
    /// let e = b.block("e");
    /// b.switch_to(e);
    /// b.ret(None);
    /// assert_eq!(ssakit::text::print_function(&b.finish()), "function main() {\ne:\n    ret\n}\n");
    /// ```
    pub fn new(name: &str) -> Self {
        FunctionBuilder {
            func: Function::new(name),
            current: None,
        }
    }

    /// Declares an `i64` parameter.
    ///
    /// ```
    /// use ssakit::ir::{FunctionBuilder, Type};
    /// let mut b = FunctionBuilder::new("f");
    /// let n = b.param("n");
    /// assert_eq!((b.func().params(), b.func().var_type(n)), (&[n][..], Type::I64));
    /// ```
    pub fn param(&mut self, name: &str) -> Var {
        self.typed_param(name, Type::I64)
    }

    /// Declares a parameter of type `ty`.
    ///
    /// ```
    /// use ssakit::ir::{FunctionBuilder, Type};
    /// let mut b = FunctionBuilder::new("f");
    /// let p = b.typed_param("p", Type::F64);
    /// assert_eq!(b.func().var_type(p), Type::F64);
    /// ```
    pub fn typed_param(&mut self, name: &str, ty: Type) -> Var {
        let v = self.func.new_var(name, ty);
        self.func.add_param(v);
        v
    }

    /// Declares an `i64` variable.
    ///
    /// ```
    /// use ssakit::ir::FunctionBuilder;
    /// let mut b = FunctionBuilder::new("f");
    /// let x = b.var("x");
    /// assert_eq!(b.func().var_by_name("x"), Some(x));
    /// assert!(b.func().params().is_empty());
    /// ```
    pub fn var(&mut self, name: &str) -> Var {
        self.func.new_var(name, Type::I64)
    }

    /// Declares a variable of type `ty`.
    ///
    /// ```
    /// use ssakit::ir::{FunctionBuilder, Type};
    /// let mut b = FunctionBuilder::new("f");
    /// let flag = b.typed_var("flag", Type::Bool);
    /// assert_eq!(b.func().var_type(flag), Type::Bool);
    /// ```
    pub fn typed_var(&mut self, name: &str, ty: Type) -> Var {
        self.func.new_var(name, ty)
    }

    /// Declares the result types.
    ///
    /// ```
    /// use ssakit::ir::{FunctionBuilder, Type};
    /// let mut b = FunctionBuilder::new("f");
    /// b.returns(&[Type::I32]);
    /// assert_eq!(b.func().returns(), Some(&[Type::I32][..]));
    /// ```
    pub fn returns(&mut self, types: &[Type]) {
        self.func.set_returns(Some(types.to_vec()));
    }

    /// Creates a block (ending in `ret` until a terminator is set). The first
    /// block created is the entry.
    ///
    /// ```
    /// use ssakit::ir::FunctionBuilder;
    /// let mut b = FunctionBuilder::new("f");
    /// let first = b.block("first");
    /// let second = b.block("second");
    /// assert_eq!((b.func().entry(), b.func().layout()), (first, &[first, second][..]));
    /// ```
    pub fn block(&mut self, name: &str) -> Block {
        self.func.new_block(name)
    }

    /// Makes `b` the block instructions are added to.
    ///
    /// ```
    /// use ssakit::ir::{FunctionBuilder, Operand};
    /// let mut b = FunctionBuilder::new("f");
    /// let (e, l) = (b.block("e"), b.block("l"));
    /// b.switch_to(l);
    /// b.print(&[Operand::Const(1)]);
    /// b.switch_to(e);
    /// b.jump(l);
    /// assert!(ssakit::text::print_function(&b.finish()).contains("e:\n    jump l\nl:\n    print 1\n"));
    /// ```
    pub fn switch_to(&mut self, b: Block) {
        self.current = Some(b);
    }

    fn cur(&self) -> Block {
        self.current.expect("FunctionBuilder: no current block")
    }

    /// Appends an instruction to the current block.
    ///
    /// ```
    /// use ssakit::ir::{FunctionBuilder, InstData, Operand};
    /// let mut b = FunctionBuilder::new("f");
    /// let e = b.block("e");
    /// b.switch_to(e);
    /// let x = b.var("x");
    /// let i = b.inst(InstData::Copy { dst: x, src: Operand::Undef });
    /// assert_eq!(b.func().def(i), Some(x));
    /// ```
    pub fn inst(&mut self, data: InstData) -> Inst {
        let b = self.cur();
        self.func.push_inst(b, data)
    }

    /// `dst = src`.
    ///
    /// ```
    /// use ssakit::ir::{FunctionBuilder, Operand};
    /// let mut b = FunctionBuilder::new("f");
    /// let e = b.block("e");
    /// b.switch_to(e);
    /// let x = b.var("x");
    /// b.copy(x, Operand::Const(3));
    /// assert!(ssakit::text::print_function(b.func()).contains("x = 3"));
    /// ```
    pub fn copy(&mut self, dst: Var, src: Operand) -> Inst {
        self.inst(InstData::Copy { dst, src })
    }

    /// `dst = op arg`.
    ///
    /// ```
    /// use ssakit::ir::{FunctionBuilder, UnOp};
    /// let mut b = FunctionBuilder::new("f");
    /// let n = b.param("n");
    /// let e = b.block("e");
    /// b.switch_to(e);
    /// let m = b.var("m");
    /// b.unary(m, UnOp::Neg, n.into());
    /// assert!(ssakit::text::print_function(b.func()).contains("m = -n"));
    /// ```
    pub fn unary(&mut self, dst: Var, op: UnOp, arg: Operand) -> Inst {
        self.inst(InstData::Unary { dst, op, arg })
    }

    /// `dst = lhs op rhs`.
    ///
    /// ```
    /// use ssakit::ir::{BinOp, FunctionBuilder, Operand};
    /// let mut b = FunctionBuilder::new("f");
    /// let n = b.param("n");
    /// let e = b.block("e");
    /// b.switch_to(e);
    /// let c = b.var("c");
    /// b.binary(c, BinOp::Lt, n.into(), Operand::Const(10));
    /// assert!(ssakit::text::print_function(b.func()).contains("c = n < 10"));
    /// ```
    pub fn binary(&mut self, dst: Var, op: BinOp, lhs: Operand, rhs: Operand) -> Inst {
        self.inst(InstData::Binary { dst, op, lhs, rhs })
    }

    /// `dst = func(args)`, or `func(args)` when `dst` is `None`.
    ///
    /// ```
    /// use ssakit::ir::{FunctionBuilder, Operand};
    /// let mut b = FunctionBuilder::new("f");
    /// let e = b.block("e");
    /// b.switch_to(e);
    /// let r = b.var("r");
    /// b.call(Some(r), "g", &[Operand::Const(1)]);
    /// b.call(None, "h", &[r.into()]);
    /// let text = ssakit::text::print_function(b.func());
    /// assert!(text.contains("r = g(1)\n    h(r)\n"));
    /// ```
    pub fn call(&mut self, dst: Option<Var>, func: &str, args: &[Operand]) -> Inst {
        let results: Vec<Var> = dst.into_iter().collect();
        self.call_multi(&results, func, args)
    }

    /// `(r1, ..., rn) = func(args)`.
    ///
    /// ```
    /// use ssakit::ir::FunctionBuilder;
    /// let mut b = FunctionBuilder::new("f");
    /// let e = b.block("e");
    /// b.switch_to(e);
    /// let (q, r) = (b.var("q"), b.var("r"));
    /// b.call_multi(&[q, r], "divmod", &[]);
    /// assert!(ssakit::text::print_function(b.func()).contains("(q, r) = divmod()"));
    /// ```
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
    ///
    /// ```
    /// use ssakit::ir::{FunctionBuilder, Operand};
    /// let mut b = FunctionBuilder::new("f");
    /// let e = b.block("e");
    /// b.switch_to(e);
    /// b.print(&[Operand::Const(1), Operand::Const(2)]);
    /// assert!(ssakit::text::print_function(b.func()).contains("print 1, 2"));
    /// ```
    pub fn print(&mut self, args: &[Operand]) -> Inst {
        let args = self.func.list(args);
        self.inst(InstData::Print { args })
    }

    /// `dst = phi(args)`.
    ///
    /// ```
    /// use ssakit::ir::{FunctionBuilder, Operand, PhiArg};
    /// let mut b = FunctionBuilder::new("f");
    /// let (e, j) = (b.block("e"), b.block("j"));
    /// b.switch_to(e);
    /// b.jump(j);
    /// b.switch_to(j);
    /// let x = b.var("x");
    /// let i = b.phi(x, &[PhiArg { block: e, value: Operand::Const(0) }]);
    /// assert_eq!(b.func().block_phis(j), [i]);
    /// assert!(ssakit::text::print_function(b.func()).contains("x = phi(e: 0)"));
    /// ```
    #[cfg(test)]
    pub(crate) fn phi(&mut self, dst: Var, args: &[PhiArg]) -> Inst {
        let args = self.func.list(args);
        self.inst(InstData::Phi { dst, args })
    }

    /// `(d1, ..., dn) = (s1, ..., sn)`.
    ///
    /// ```
    /// use ssakit::ir::FunctionBuilder;
    /// let mut b = FunctionBuilder::new("f");
    /// let (x, y) = (b.param("x"), b.param("y"));
    /// let e = b.block("e");
    /// b.switch_to(e);
    /// b.par_copy(&[(x, y.into()), (y, x.into())]);
    /// assert!(ssakit::text::print_function(b.func()).contains("(x, y) = (y, x)"));
    /// ```
    pub fn par_copy(&mut self, copies: &[(Var, Operand)]) -> Inst {
        let copies = self.func.list(copies);
        self.inst(InstData::ParCopy { copies })
    }

    /// `(r1, ..., rn) = name[imms](args)`: a generic operation of operator
    /// `name`, which has `effects`.
    ///
    /// # Errors
    /// If `name` is already an operator with other effects.
    ///
    /// ```
    /// use ssakit::ir::{Effects, FunctionBuilder, Type};
    /// let mut b = FunctionBuilder::new("f");
    /// let p = b.typed_param("p", Type::I32);
    /// let e = b.block("e");
    /// b.switch_to(e);
    /// let w = b.typed_var("w", Type::I32);
    /// b.op("i32.load", Effects::TRAP.union(Effects::READ), &[0, 2], &[p.into()], &[w]).unwrap();
    /// assert!(ssakit::text::print_function(b.func()).contains("w: i32 = i32.load[0, 2](p)"));
    /// assert!(b.op("i32.load", Effects::PURE, &[], &[], &[]).is_err());
    /// ```
    #[cfg(test)]
    pub(crate) fn op(
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
    pub(crate) fn terminate(&mut self, t: Terminator) {
        let b = self.cur();
        self.func.set_term(b, t);
    }

    /// `jump to`.
    ///
    /// ```
    /// use ssakit::ir::{FunctionBuilder, Terminator};
    /// let mut b = FunctionBuilder::new("f");
    /// let (e, l) = (b.block("e"), b.block("l"));
    /// b.switch_to(e);
    /// b.jump(l);
    /// assert_eq!(b.func().term(e), &Terminator::Jump(l));
    /// ```
    pub fn jump(&mut self, to: Block) {
        self.terminate(Terminator::Jump(to))
    }

    /// `branch cond, then_dest, else_dest`.
    ///
    /// ```
    /// use ssakit::ir::FunctionBuilder;
    /// let mut b = FunctionBuilder::new("f");
    /// let c = b.param("c");
    /// let (e, t, u) = (b.block("e"), b.block("t"), b.block("u"));
    /// b.switch_to(e);
    /// b.branch(c.into(), t, u);
    /// assert!(ssakit::text::print_function(b.func()).contains("branch c, t, u"));
    /// ```
    pub fn branch(&mut self, cond: Operand, then_dest: Block, else_dest: Block) {
        self.terminate(Terminator::Branch {
            cond,
            then_dest,
            else_dest,
        })
    }

    /// `switch value, default, [targets]`.
    ///
    /// ```
    /// use ssakit::ir::FunctionBuilder;
    /// let mut b = FunctionBuilder::new("f");
    /// let k = b.param("k");
    /// let (e, d, l) = (b.block("e"), b.block("d"), b.block("l"));
    /// b.switch_to(e);
    /// b.switch(k.into(), d, &[l, d]);
    /// assert!(ssakit::text::print_function(b.func()).contains("switch k, d, [l, d]"));
    /// ```
    pub fn switch(&mut self, value: Operand, default: Block, targets: &[Block]) {
        let t = self.func.switch_term(value, default, targets);
        self.terminate(t)
    }

    /// `ret v` or `ret`.
    ///
    /// ```
    /// use ssakit::ir::{FunctionBuilder, Operand};
    /// let mut b = FunctionBuilder::new("f");
    /// let e = b.block("e");
    /// b.switch_to(e);
    /// b.ret(Some(Operand::Const(0)));
    /// assert!(ssakit::text::print_function(b.func()).contains("ret 0"));
    /// ```
    pub fn ret(&mut self, v: Option<Operand>) {
        let vals: Vec<Operand> = v.into_iter().collect();
        self.ret_values(&vals)
    }

    /// `ret v1, ..., vn`.
    ///
    /// ```
    /// use ssakit::ir::{FunctionBuilder, Operand};
    /// let mut b = FunctionBuilder::new("f");
    /// let e = b.block("e");
    /// b.switch_to(e);
    /// b.ret_values(&[Operand::Const(1), Operand::Const(2)]);
    /// assert!(ssakit::text::print_function(b.func()).contains("ret 1, 2"));
    /// ```
    pub fn ret_values(&mut self, vals: &[Operand]) {
        let t = self.func.ret_term(vals);
        self.terminate(t)
    }

    /// `unreachable`.
    ///
    /// ```
    /// use ssakit::ir::FunctionBuilder;
    /// let mut b = FunctionBuilder::new("f");
    /// let e = b.block("e");
    /// b.switch_to(e);
    /// b.unreachable();
    /// assert!(ssakit::text::print_function(b.func()).contains("    unreachable\n"));
    /// ```
    pub fn unreachable(&mut self) {
        self.terminate(Terminator::Unreachable)
    }

    /// The function built so far.
    ///
    /// ```
    /// use ssakit::ir::FunctionBuilder;
    /// let mut b = FunctionBuilder::new("f");
    /// b.block("e");
    /// assert_eq!(b.func().num_blocks(), 1);
    /// ```
    pub fn func(&self) -> &Function {
        &self.func
    }

    /// The function built so far, mutably.
    ///
    /// ```
    /// use ssakit::ir::FunctionBuilder;
    /// let mut b = FunctionBuilder::new("f");
    /// b.func_mut().set_name("g");
    /// assert_eq!(b.func().name(), "g");
    /// ```
    pub fn func_mut(&mut self) -> &mut Function {
        &mut self.func
    }

    /// Finishes and returns the function.
    ///
    /// ```
    /// use ssakit::ir::FunctionBuilder;
    /// let mut b = FunctionBuilder::new("f");
    /// let e = b.block("e");
    /// b.switch_to(e);
    /// b.ret(None);
    /// let f = b.finish();
    /// assert!(ssakit::verify::verify_valid(&f).is_ok());
    /// ```
    pub fn finish(self) -> Function {
        self.func
    }
}
