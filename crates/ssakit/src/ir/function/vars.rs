//! Variables: their table, names, types and versions.
//! Part of [`Function`]'s methods; the type and its invariants are in
//! the parent module.

use super::*;

impl Function {
    /// The most variables a function can have when SSA versions are made
    /// of them: a version records its original in 28 bits (`VarData`).
    pub(crate) const MAX_ORIGINALS: usize = VarData::ORIGIN as usize + 1;

    // ---------------------------------------------------------------
    // Variables.

    /// Number of variables.
    ///
    /// ```
    /// // `f`: e: `x = 1; branch c, a, j`, a: `x = 2; jump j`, j: `ret x`.
    /// # let mut f = ssakit::text::parse_module("function f(c) {\ne:\n    x = 1\n    branch c, a, j\na:\n    x = 2\n    jump j\nj:\n    ret x\n}").unwrap().functions.remove(0);
    /// # let (e, a, j) = (f.block_by_name("e").unwrap(), f.block_by_name("a").unwrap(), f.block_by_name("j").unwrap());
    /// # let x = f.var_by_name("x").unwrap();
    /// assert_eq!(f.num_vars(), 2); // c and x
    /// ```
    pub fn num_vars(&self) -> usize {
        self.vars.len()
    }

    /// Every variable, in creation order.
    ///
    /// ```
    /// // `f`: e: `x = 1; branch c, a, j`, a: `x = 2; jump j`, j: `ret x`.
    /// # let mut f = ssakit::text::parse_module("function f(c) {\ne:\n    x = 1\n    branch c, a, j\na:\n    x = 2\n    jump j\nj:\n    ret x\n}").unwrap().functions.remove(0);
    /// # let (e, a, j) = (f.block_by_name("e").unwrap(), f.block_by_name("a").unwrap(), f.block_by_name("j").unwrap());
    /// # let x = f.var_by_name("x").unwrap();
    /// let names: Vec<&str> = f.vars().map(|v| f.base_name(v)).collect();
    /// assert_eq!(names, ["c", "x"]);
    /// ```
    pub fn vars(&self) -> impl DoubleEndedIterator<Item = Var> + ExactSizeIterator + 'static {
        self.vars.keys()
    }

    /// What is known of `v`.
    pub(crate) fn var(&self, v: Var) -> &VarData {
        &self.vars[v]
    }

    /// The type of `v`.
    ///
    /// ```
    /// use ssakit::ir::Type;
    /// let f = ssakit::text::parse_module("function f(p: f64) {\ne:\n    ret\n}").unwrap().functions.remove(0);
    /// assert_eq!(f.var_type(f.params()[0]), Type::F64);
    /// ```
    #[inline]
    pub fn var_type(&self, v: Var) -> Type {
        self.vars[v].ty()
    }

    /// Sets the type of `v` (and so of its versions created afterwards).
    pub(crate) fn set_var_type(&mut self, v: Var, ty: Type) {
        self.vars[v].set_type(ty);
    }

    /// Creates a variable named `name` (not an SSA version) of type `ty`.
    ///
    /// ```
    /// use ssakit::ir::{Function, Type};
    /// let mut f = Function::new("f");
    /// let v = f.new_var("v", Type::I64);
    /// assert_eq!((f.base_name(v), f.var_by_name("v")), ("v", Some(v)));
    /// ```
    pub fn new_var(&mut self, name: &str, ty: Type) -> Var {
        let name = self.names.add(name);
        self.vars.push(VarData::named(name, ty))
    }

    /// Creates version number `number` of variable `origin`'s original,
    /// with its type.
    #[inline]
    pub(crate) fn new_version(&mut self, origin: Var, number: u32) -> Var {
        let origin = self.original(origin);
        self.vars
            .push(VarData::version_of(origin, self.vars[origin], number))
    }

    /// Reserves room for `n` more variables.
    ///
    /// ```
    /// let mut f = ssakit::ir::Function::new("f");
    /// f.reserve_vars(64);
    /// assert_eq!(f.num_vars(), 0);
    /// ```
    pub fn reserve_vars(&mut self, n: usize) {
        self.vars.reserve_exact(n);
    }

    /// The original variable of `v`: `v` itself unless it is an SSA version.
    #[inline]
    pub(crate) fn original(&self, v: Var) -> Var {
        self.vars[v].origin().unwrap_or(v)
    }

    /// The name of `v`'s original variable (without version number).
    ///
    /// ```
    /// use ssakit::construct::{construct, Options};
    /// let src = "function f(c) {\ne:\n    x = 1\n    branch c, a, j\na:\n    x = 2\n    jump j\nj:\n    ret x\n}";
    /// let mut f = ssakit::text::parse_module(src).unwrap().functions.remove(0);
    /// construct(&mut f, &Options::default()).unwrap();
    /// // Every SSA version of `x` (one per assignment, one for the phi in j)
    /// // keeps `x` as its base name.
    /// let versions = f.vars().filter(|&v| f.base_name(v) == "x" && f.var_by_name("x") != Some(v));
    /// assert_eq!(versions.count(), 3);
    /// ```
    pub fn base_name(&self, v: Var) -> &str {
        match self.vars[self.original(v)].kind() {
            VarKind::Named { name } => self.names.get(name),
            VarKind::Version { .. } => unreachable!("an original is named"),
        }
    }

    /// The variable whose name is `name` and that is not an SSA version, by
    /// linear search (for tests and the command line, not for passes).
    ///
    /// ```
    /// // `f`: e: `x = 1; branch c, a, j`, a: `x = 2; jump j`, j: `ret x`.
    /// # let mut f = ssakit::text::parse_module("function f(c) {\ne:\n    x = 1\n    branch c, a, j\na:\n    x = 2\n    jump j\nj:\n    ret x\n}").unwrap().functions.remove(0);
    /// # let (e, a, j) = (f.block_by_name("e").unwrap(), f.block_by_name("a").unwrap(), f.block_by_name("j").unwrap());
    /// # let x = f.var_by_name("x").unwrap();
    /// assert_eq!(f.var_by_name("x"), Some(x));
    /// assert_eq!(f.var_by_name("y"), None);
    /// ```
    pub fn var_by_name(&self, name: &str) -> Option<Var> {
        self.vars.keys().find(|&v| {
            matches!(self.vars[v].kind(), VarKind::Named { name: n } if self.names.get(n) == name)
        })
    }
}
