//! What an instruction defines and reads: definitions, operands, uses, phi arguments and parallel copies.
//! Part of [`Function`]'s methods; the type and its invariants are in
//! the parent module.

use super::*;

impl Function {
    /// What instruction `i` may do besides computing its results: a
    /// division or remainder may trap unless its divisor is a non-zero
    /// constant; a call may do anything; a `print` writes output; an
    /// operation has its operator's effects (an integer division of the
    /// [operation set](crate::ir::Opcode) by a constant that cannot trap
    /// is pure); the rest is pure.
    ///
    /// ```
    /// use ssakit::ir::Effects;
    /// let f = ssakit::text::parse_module("function f(a, b) {\ne:\n    q = a / b\n    r = a / 2\n    print r\n    ret q\n}").unwrap().functions.remove(0);
    /// let fx: Vec<Effects> = f.block_insts(f.entry()).iter().map(|&i| f.effects(i)).collect();
    /// assert_eq!(fx, [Effects::TRAP, Effects::PURE, Effects::WRITE]);
    /// ```
    pub fn effects(&self, i: Inst) -> Effects {
        match &self.insts[i] {
            InstData::Binary { op, rhs, .. } if op.may_trap() => match rhs {
                Operand::Const(c) if *c != 0 => Effects::PURE,
                _ => Effects::TRAP,
            },
            InstData::Call { .. } => Effects::CALL,
            InstData::Print { .. } => Effects::WRITE,
            InstData::Op { op, args, .. } => {
                let d = self.symbols.operator_data(*op);
                match d.opcode {
                    // A division by a constant that cannot trap is pure.
                    Some(o) => o.effects_on(match args.as_slice(self).get(1) {
                        Some(Operand::Const(c)) => Some(*c),
                        _ => None,
                    }),
                    _ => d.effects,
                }
            }
            _ => Effects::PURE,
        }
    }

    /// Calls `f` on every variable instruction `i` defines, in order.
    ///
    /// ```
    /// let f = ssakit::text::parse_module("function f(a, b) {\ne:\n    (a, b) = (b, a)\n    ret a\n}").unwrap().functions.remove(0);
    /// let mut defs = Vec::new();
    /// f.for_each_def(f.block_insts(f.entry())[0], |v| defs.push(f.base_name(v).to_string()));
    /// assert_eq!(defs, ["a", "b"]);
    /// ```
    #[inline]
    pub fn for_each_def(&self, i: Inst, mut f: impl FnMut(Var)) {
        match &self.insts[i] {
            InstData::Copy { dst, .. }
            | InstData::Unary { dst, .. }
            | InstData::Binary { dst, .. }
            | InstData::Phi { dst, .. } => f(*dst),
            InstData::Call { results, .. } | InstData::Op { results, .. } => {
                results.as_slice(self).iter().for_each(|&v| f(v))
            }
            InstData::Print { .. } => {}
            InstData::ParCopy { copies } => copies.as_slice(self).iter().for_each(|c| f(c.0)),
        }
    }

    /// Calls `f` on every variable instruction `i` defines, mutably.
    ///
    /// ```
    /// use ssakit::ir::Type;
    /// // `f`: e: `x = 1; branch c, a, j`, a: `x = 2; jump j`, j: `ret x`.
    /// # let mut f = ssakit::text::parse_module("function f(c) {\ne:\n    x = 1\n    branch c, a, j\na:\n    x = 2\n    jump j\nj:\n    ret x\n}").unwrap().functions.remove(0);
    /// # let (e, a, j) = (f.block_by_name("e").unwrap(), f.block_by_name("a").unwrap(), f.block_by_name("j").unwrap());
    /// # let x = f.var_by_name("x").unwrap();
    /// let y = f.new_var("y", Type::I64);
    /// let i = f.block_insts(a)[0];
    /// f.for_each_def_mut(i, |v| *v = y);
    /// assert!(ssakit::text::print_function(&f).contains("a:\n    y = 2\n"));
    /// ```
    pub fn for_each_def_mut(&mut self, i: Inst, mut f: impl FnMut(&mut Var)) {
        let Function { insts, pools, .. } = self;
        match &mut insts[i] {
            InstData::Copy { dst, .. }
            | InstData::Unary { dst, .. }
            | InstData::Binary { dst, .. }
            | InstData::Phi { dst, .. } => f(dst),
            InstData::Call { results, .. } | InstData::Op { results, .. } => {
                results.as_mut_slice(&mut pools.vars).iter_mut().for_each(f)
            }
            InstData::Print { .. } => {}
            InstData::ParCopy { copies } => copies
                .as_mut_slice(&mut pools.copies)
                .iter_mut()
                .for_each(|c| f(&mut c.0)),
        }
    }

    /// The one variable `i` defines: `None` for an instruction defining
    /// none or several (a parallel copy, a call or operation with several
    /// results; see [`Function::for_each_def`]).
    ///
    /// ```
    /// // `f`: e: `x1 = 1; branch c, a, j`, a: `x2 = 2; jump j`,
    /// // j: `x3 = phi(e: x1, a: x2); print x3; ret x3`.
    /// # let mut f = ssakit::text::parse_module("function f(c) {\ne:\n    x1 = 1\n    branch c, a, j\na:\n    x2 = 2\n    jump j\nj:\n    x3 = phi(e: x1, a: x2)\n    print x3\n    ret x3\n}").unwrap().functions.remove(0);
    /// # let (e, a, j) = (f.block_by_name("e").unwrap(), f.block_by_name("a").unwrap(), f.block_by_name("j").unwrap());
    /// # let phi = f.block_phis(j)[0];
    /// assert_eq!(f.def(phi).map(|v| f.base_name(v)), Some("x3"));
    /// assert_eq!(f.def(f.block_insts(j)[0]), None); // `print x3`
    /// ```
    pub fn def(&self, i: Inst) -> Option<Var> {
        match &self.insts[i] {
            InstData::Copy { dst, .. }
            | InstData::Unary { dst, .. }
            | InstData::Binary { dst, .. }
            | InstData::Phi { dst, .. } => Some(*dst),
            InstData::Call { results, .. } | InstData::Op { results, .. } => {
                match results.as_slice(self) {
                    [v] => Some(*v),
                    _ => None,
                }
            }
            InstData::Print { .. } | InstData::ParCopy { .. } => None,
        }
    }

    /// Calls `f` on every operand instruction `i` reads, in order. For a
    /// phi these are the incoming values (uses at the end of predecessors).
    ///
    /// ```
    /// use ssakit::ir::Operand;
    /// // `f`: e: `x1 = 1; branch c, a, j`, a: `x2 = 2; jump j`,
    /// // j: `x3 = phi(e: x1, a: x2); print x3; ret x3`.
    /// # let mut f = ssakit::text::parse_module("function f(c) {\ne:\n    x1 = 1\n    branch c, a, j\na:\n    x2 = 2\n    jump j\nj:\n    x3 = phi(e: x1, a: x2)\n    print x3\n    ret x3\n}").unwrap().functions.remove(0);
    /// # let (e, a, j) = (f.block_by_name("e").unwrap(), f.block_by_name("a").unwrap(), f.block_by_name("j").unwrap());
    /// # let phi = f.block_phis(j)[0];
    /// let mut ops = Vec::new();
    /// f.for_each_operand(phi, |o| ops.push(o));
    /// assert_eq!(ops.len(), 2);
    /// assert!(ops.iter().all(|o| matches!(o, Operand::Var(_))));
    /// ```
    #[inline]
    pub fn for_each_operand(&self, i: Inst, f: impl FnMut(Operand)) {
        self.for_each_operand_of(&self.insts[i], f)
    }

    /// [`Function::for_each_operand`] of an instruction whose data the
    /// caller has already looked up (`data` must be this function's: its
    /// lists are read from this function's pools).
    ///
    /// ```
    /// # let f = ssakit::text::parse_module("function f(c) {\ne:\n    x = c + 1\n    ret x\n}").unwrap().functions.remove(0);
    /// let i = f.block_insts(f.entry())[0];
    /// let mut n = 0;
    /// f.for_each_operand_of(f.inst(i), |_| n += 1);
    /// assert_eq!(n, 2);
    /// ```
    #[inline]
    pub fn for_each_operand_of(&self, data: &InstData, mut f: impl FnMut(Operand)) {
        match data {
            InstData::Copy { src, .. } => f(*src),
            InstData::Unary { arg, .. } => f(*arg),
            InstData::Binary { lhs, rhs, .. } => {
                f(*lhs);
                f(*rhs)
            }
            InstData::Call { args, .. } | InstData::Print { args } | InstData::Op { args, .. } => {
                args.as_slice(self).iter().for_each(|&a| f(a))
            }
            InstData::Phi { args, .. } => args.as_slice(self).iter().for_each(|a| f(a.value)),
            InstData::ParCopy { copies } => copies.as_slice(self).iter().for_each(|c| f(c.1)),
        }
    }

    /// Calls `f` on every operand of `i`, mutably.
    ///
    /// ```
    /// use ssakit::ir::Operand;
    /// // `f`: e: `x1 = 1; branch c, a, j`, a: `x2 = 2; jump j`,
    /// // j: `x3 = phi(e: x1, a: x2); print x3; ret x3`.
    /// # let mut f = ssakit::text::parse_module("function f(c) {\ne:\n    x1 = 1\n    branch c, a, j\na:\n    x2 = 2\n    jump j\nj:\n    x3 = phi(e: x1, a: x2)\n    print x3\n    ret x3\n}").unwrap().functions.remove(0);
    /// # let (e, a, j) = (f.block_by_name("e").unwrap(), f.block_by_name("a").unwrap(), f.block_by_name("j").unwrap());
    /// # let phi = f.block_phis(j)[0];
    /// f.for_each_operand_mut(phi, |o| *o = Operand::Const(0));
    /// assert!(ssakit::text::print_function(&f).contains("x3 = phi(e: 0, a: 0)"));
    /// ```
    pub fn for_each_operand_mut(&mut self, i: Inst, mut f: impl FnMut(&mut Operand)) {
        let Function { insts, pools, .. } = self;
        match &mut insts[i] {
            InstData::Copy { src, .. } => f(src),
            InstData::Unary { arg, .. } => f(arg),
            InstData::Binary { lhs, rhs, .. } => {
                f(lhs);
                f(rhs)
            }
            InstData::Call { args, .. } | InstData::Print { args } | InstData::Op { args, .. } => {
                args.as_mut_slice(&mut pools.operands)
                    .iter_mut()
                    .for_each(f)
            }
            InstData::Phi { args, .. } => args
                .as_mut_slice(&mut pools.phi_args)
                .iter_mut()
                .for_each(|a| f(&mut a.value)),
            InstData::ParCopy { copies } => copies
                .as_mut_slice(&mut pools.copies)
                .iter_mut()
                .for_each(|c| f(&mut c.1)),
        }
    }

    /// Replaces every variable instruction `i` defines or reads by `f` of
    /// it, in one visit (renaming).
    pub(crate) fn map_vars(&mut self, i: Inst, mut f: impl FnMut(Var) -> Var) {
        fn op(o: &mut Operand, f: &mut impl FnMut(Var) -> Var) {
            if let Operand::Var(v) = o {
                *v = f(*v);
            }
        }
        let Function { insts, pools, .. } = self;
        match &mut insts[i] {
            InstData::Copy { dst, src } | InstData::Unary { dst, arg: src, .. } => {
                op(src, &mut f);
                *dst = f(*dst);
            }
            InstData::Binary { dst, lhs, rhs, .. } => {
                op(lhs, &mut f);
                op(rhs, &mut f);
                *dst = f(*dst);
            }
            InstData::Call { args, results, .. } | InstData::Op { args, results, .. } => {
                for o in args.as_mut_slice(&mut pools.operands) {
                    op(o, &mut f);
                }
                for v in results.as_mut_slice(&mut pools.vars) {
                    *v = f(*v);
                }
            }
            InstData::Print { args } => {
                for o in args.as_mut_slice(&mut pools.operands) {
                    op(o, &mut f);
                }
            }
            InstData::Phi { dst, args } => {
                for a in args.as_mut_slice(&mut pools.phi_args) {
                    op(&mut a.value, &mut f);
                }
                *dst = f(*dst);
            }
            InstData::ParCopy { copies } => {
                for (d, s) in copies.as_mut_slice(&mut pools.copies) {
                    op(s, &mut f);
                    *d = f(*d);
                }
            }
        }
    }

    /// Calls `f` on every variable instruction `i` reads.
    ///
    /// ```
    /// // `f`: e: `x1 = 1; branch c, a, j`, a: `x2 = 2; jump j`,
    /// // j: `x3 = phi(e: x1, a: x2); print x3; ret x3`.
    /// # let mut f = ssakit::text::parse_module("function f(c) {\ne:\n    x1 = 1\n    branch c, a, j\na:\n    x2 = 2\n    jump j\nj:\n    x3 = phi(e: x1, a: x2)\n    print x3\n    ret x3\n}").unwrap().functions.remove(0);
    /// # let (e, a, j) = (f.block_by_name("e").unwrap(), f.block_by_name("a").unwrap(), f.block_by_name("j").unwrap());
    /// # let phi = f.block_phis(j)[0];
    /// let mut uses = Vec::new();
    /// f.for_each_use(f.block_insts(j)[0], |v| uses.push(v)); // `print x3`
    /// assert_eq!(uses, [f.def(phi).unwrap()]);
    /// ```
    #[inline]
    pub fn for_each_use(&self, i: Inst, mut f: impl FnMut(Var)) {
        self.for_each_operand(i, |o| {
            if let Operand::Var(v) = o {
                f(v)
            }
        })
    }

    /// The operands of phi `i`. Panics if `i` is not a phi.
    ///
    /// ```
    /// // `f`: e: `x1 = 1; branch c, a, j`, a: `x2 = 2; jump j`,
    /// // j: `x3 = phi(e: x1, a: x2); print x3; ret x3`.
    /// # let mut f = ssakit::text::parse_module("function f(c) {\ne:\n    x1 = 1\n    branch c, a, j\na:\n    x2 = 2\n    jump j\nj:\n    x3 = phi(e: x1, a: x2)\n    print x3\n    ret x3\n}").unwrap().functions.remove(0);
    /// # let (e, a, j) = (f.block_by_name("e").unwrap(), f.block_by_name("a").unwrap(), f.block_by_name("j").unwrap());
    /// # let phi = f.block_phis(j)[0];
    /// let from: Vec<_> = f.phi_args(phi).iter().map(|p| p.block).collect();
    /// assert_eq!(from, [e, a]);
    /// ```
    pub fn phi_args(&self, i: Inst) -> &[PhiArg] {
        match &self.insts[i] {
            InstData::Phi { args, .. } => args.as_slice(self),
            other => panic!("phi_args: {i} is not a phi but {other:?}"),
        }
    }

    /// The operands of phi `i`, mutably. Panics if `i` is not a phi.
    ///
    /// ```
    /// use ssakit::ir::Operand;
    /// // `f`: e: `x1 = 1; branch c, a, j`, a: `x2 = 2; jump j`,
    /// // j: `x3 = phi(e: x1, a: x2); print x3; ret x3`.
    /// # let mut f = ssakit::text::parse_module("function f(c) {\ne:\n    x1 = 1\n    branch c, a, j\na:\n    x2 = 2\n    jump j\nj:\n    x3 = phi(e: x1, a: x2)\n    print x3\n    ret x3\n}").unwrap().functions.remove(0);
    /// # let (e, a, j) = (f.block_by_name("e").unwrap(), f.block_by_name("a").unwrap(), f.block_by_name("j").unwrap());
    /// # let phi = f.block_phis(j)[0];
    /// f.phi_args_mut(phi)[1].value = Operand::Undef;
    /// assert!(ssakit::text::print_function(&f).contains("phi(e: x1, a: undef)"));
    /// ```
    pub fn phi_args_mut(&mut self, i: Inst) -> &mut [PhiArg] {
        match self.insts[i] {
            InstData::Phi { args, .. } => args.as_mut_slice(self),
            other => panic!("phi_args_mut: {i} is not a phi but {other:?}"),
        }
    }

    /// The `(destination, source)` pairs of parallel copy `i`. Panics if
    /// `i` is not a parallel copy.
    pub(crate) fn par_copy(&self, i: Inst) -> &[(Var, Operand)] {
        match &self.insts[i] {
            InstData::ParCopy { copies } => copies.as_slice(self),
            other => panic!("par_copy: {i} is not a parallel copy but {other:?}"),
        }
    }

    /// Edits the list of phi operands or parallel-copy pairs of `i`
    /// through `f`, which gets the list and this function (for its pool)
    /// and may push, retain or remove items.
    pub(crate) fn edit_phi_args(
        &mut self,
        i: Inst,
        f: impl FnOnce(&mut EntityList<PhiArg>, &mut Self),
    ) {
        let InstData::Phi { dst, mut args } = self.insts[i] else {
            panic!("edit_phi_args: {i} is not a phi")
        };
        f(&mut args, self);
        self.insts[i] = InstData::Phi { dst, args };
    }

    /// Edits the pairs of parallel copy `i` (see
    /// [`Function::edit_phi_args`]).
    pub(crate) fn edit_par_copy(
        &mut self,
        i: Inst,
        f: impl FnOnce(&mut EntityList<(Var, Operand)>, &mut Self),
    ) {
        let InstData::ParCopy { mut copies } = self.insts[i] else {
            panic!("edit_par_copy: {i} is not a parallel copy")
        };
        f(&mut copies, self);
        self.insts[i] = InstData::ParCopy { copies };
    }
}
