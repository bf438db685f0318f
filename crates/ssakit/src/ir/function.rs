//! Functions and modules, and the invariants the IR keeps.
//!
//! A [`Function`]'s fields are private: every edit goes through a method
//! that keeps these invariants, and a pass cannot break them by accident.
//!
//! 1. The layout is a list of distinct blocks; its first block is the
//!    entry. Blocks outside the layout exist (the table only grows) but never
//!    run and are never printed.
//! 2. Every instruction is *listed* by at most one block, in its phi list
//!    (phis only) or its ordinary list (no phi). An instruction listed by no
//!    block is *removed*: it stays in the table, unseen, until
//!    [`Function::compact`] renumbers the instructions without it.
//! 3. Each instruction and terminator owns its lists in the function's
//!    pools: no two share a list.
//! 4. Every variable has a [`Type`]; an SSA version has its original's.
//!
//! What the IR does not keep, the verifier checks (terminators naming
//! blocks of the layout, phi operands matching predecessors, single
//! assignment, dominance, types): those are the properties a pass is
//! specified to preserve.

use super::inst::PhiArg;
use super::symbols::{EffectsConflict, SharedSymbols};
use super::{
    Block, Callee, Effects, Inst, InstData, Operand, Operator, Symbols, Terminator, Type, Var,
};
use crate::entity::{EntityList, EntityVec, ListPool, ListStore, PackedOption};
use std::sync::Arc;

/// A variable: its type, and its name or, for an SSA version, the variable
/// it is a version of and its number.
///
/// ```
/// use ssakit::ir::{Function, Type};
/// let mut f = Function::new("f");
/// let x = f.new_var("x", Type::I32);
/// let x1 = f.new_version(x, 1);
/// let d = f.var(x1);
/// assert_eq!((d.ty(), d.origin(), d.version()), (Type::I32, Some(x), 1));
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct VarData {
    kind: VarKind,
    ty: Type,
}

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum VarKind {
    /// An original variable, named `names[name]`.
    Named { name: u32 },
    /// Version `number` (from 1; 0 for entry definitions) of `origin`.
    Version { origin: Var, number: u32 },
}

impl VarData {
    /// The variable's type.
    ///
    /// ```
    /// use ssakit::ir::{Function, Type};
    /// let mut f = Function::new("f");
    /// let b = f.new_var("b", Type::Bool);
    /// assert_eq!(f.var(b).ty(), Type::Bool);
    /// ```
    pub fn ty(&self) -> Type {
        self.ty
    }
    /// For an SSA version, the variable it is a version of.
    ///
    /// ```
    /// use ssakit::ir::{Function, Type};
    /// let mut f = Function::new("f");
    /// let x = f.new_var("x", Type::I64);
    /// let x2 = f.new_version(x, 2);
    /// assert_eq!((f.var(x).origin(), f.var(x2).origin()), (None, Some(x)));
    /// ```
    pub fn origin(&self) -> Option<Var> {
        match self.kind {
            VarKind::Version { origin, .. } => Some(origin),
            VarKind::Named { .. } => None,
        }
    }
    /// For an SSA version, its number; 0 for an original variable.
    ///
    /// ```
    /// use ssakit::ir::{Function, Type};
    /// let mut f = Function::new("f");
    /// let x = f.new_var("x", Type::I64);
    /// let x7 = f.new_version(x, 7);
    /// assert_eq!((f.var(x).version(), f.var(x7).version()), (0, 7));
    /// ```
    pub fn version(&self) -> u32 {
        match self.kind {
            VarKind::Version { number, .. } => number,
            VarKind::Named { .. } => 0,
        }
    }
}

/// A basic block: phis, then ordinary instructions, then one terminator.
#[derive(Clone, PartialEq, Eq, Debug)]
struct BlockData {
    name: u32,
    /// Whether the block is in the layout (so that appending checks in
    /// `O(1)`).
    in_layout: bool,
    /// Its phis, in [`Pools::block_insts`].
    phis: EntityList<Inst>,
    /// Its ordinary instructions, in [`Pools::block_insts`].
    insts: EntityList<Inst>,
    term: Terminator,
}

/// Which of a block's two instruction lists.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum ListKind {
    Phis,
    Insts,
}

impl ListKind {
    fn setter(self) -> &'static str {
        match self {
            ListKind::Phis => "set_phis",
            ListKind::Insts => "set_insts",
        }
    }
    fn items(self) -> &'static str {
        match self {
            ListKind::Phis => "phis",
            ListKind::Insts => "instructions",
        }
    }
    fn refused(self) -> &'static str {
        match self {
            ListKind::Phis => "not a phi",
            ListKind::Insts => "a phi",
        }
    }
}

impl BlockData {
    fn list_mut(&mut self, kind: ListKind) -> &mut EntityList<Inst> {
        match kind {
            ListKind::Phis => &mut self.phis,
            ListKind::Insts => &mut self.insts,
        }
    }
}

/// Names of variables and blocks, one after the other in one string.
#[derive(Clone, Default, Debug)]
struct Names {
    text: String,
    spans: Vec<(u32, u32)>,
}

impl Names {
    fn add(&mut self, s: &str) -> u32 {
        let start = self.text.len() as u32;
        self.text.push_str(s);
        self.spans.push((start, self.text.len() as u32));
        (self.spans.len() - 1) as u32
    }
    fn get(&self, k: u32) -> &str {
        let (a, b) = self.spans[k as usize];
        &self.text[a as usize..b as usize]
    }
}

/// The pools holding the lists of a function's instructions and
/// terminators, one per item type.
#[derive(Clone, Default, Debug)]
pub(super) struct Pools {
    pub(super) operands: ListPool<Operand>,
    pub(super) phi_args: ListPool<PhiArg>,
    pub(super) copies: ListPool<(Var, Operand)>,
    pub(super) vars: ListPool<Var>,
    pub(super) blocks: ListPool<Block>,
    pub(super) imms: ListPool<i64>,
    /// The blocks' phi and instruction lists: one pool for all blocks, so
    /// that a block costs no allocation of its own and a function's
    /// clone copies one vector instead of two per block.
    pub(super) block_insts: ListPool<Inst>,
}

macro_rules! list_store {
    ($t:ty, $field:ident) => {
        impl ListStore<$t> for Function {
            #[inline]
            fn pool(&self) -> &ListPool<$t> {
                &self.pools.$field
            }
            #[inline]
            fn pool_mut(&mut self) -> &mut ListPool<$t> {
                &mut self.pools.$field
            }
        }
    };
}
list_store!(Operand, operands);
list_store!(PhiArg, phi_args);
list_store!((Var, Operand), copies);
list_store!(Var, vars);
list_store!(Block, blocks);
list_store!(i64, imms);

/// A function: its signature, variables, blocks and instructions (see the
/// module documentation for the invariants its methods keep).
///
/// ```
/// use ssakit::ir::{Function, InstData, Operand, Type};
/// let mut f = Function::new("f");
/// let b = f.new_block("entry");
/// let x = f.new_var("x", Type::I64);
/// f.push_inst(b, InstData::Copy { dst: x, src: Operand::Const(1) });
/// let t = f.ret_term(&[x.into()]);
/// f.set_term(b, t);
/// assert_eq!(ssakit::text::print_function(&f), "function f() {\nentry:\n    x = 1\n    ret x\n}\n");
/// ```
#[derive(Clone, Debug)]
pub struct Function {
    name: Box<str>,
    params: Vec<Var>,
    returns: Option<Box<[Type]>>,
    vars: EntityVec<Var, VarData>,
    blocks: EntityVec<Block, BlockData>,
    insts: EntityVec<Inst, InstData>,
    /// The block listing each instruction; none for a removed one.
    inst_block: EntityVec<Inst, PackedOption<Block>>,
    layout: Vec<Block>,
    names: Names,
    pools: Pools,
    symbols: SharedSymbols,
}

impl Function {
    /// An empty function (no blocks yet) with its own symbol table.
    ///
    /// ```
    /// use ssakit::ir::Function;
    /// let f = Function::new("main");
    /// assert_eq!((f.name(), f.num_blocks(), f.num_vars()), ("main", 0, 0));
    /// ```
    pub fn new(name: &str) -> Self {
        Self::with_symbols(name, Arc::default())
    }

    /// An empty function sharing the symbol table `symbols` (of its
    /// module).
    ///
    /// ```
    /// use ssakit::ir::Function;
    /// let mut f = Function::new("f");
    /// let ext = f.callee("ext");
    /// let g = Function::with_symbols("g", f.shared_symbols().clone());
    /// assert_eq!(g.callee_name(ext), "ext");
    /// ```
    pub fn with_symbols(name: &str, symbols: SharedSymbols) -> Self {
        Function {
            name: name.into(),
            params: Vec::new(),
            returns: None,
            vars: EntityVec::new(),
            blocks: EntityVec::new(),
            insts: EntityVec::new(),
            inst_block: EntityVec::new(),
            layout: Vec::new(),
            names: Names::default(),
            pools: Pools::default(),
            symbols,
        }
    }

    // ---------------------------------------------------------------
    // Signature and symbols.

    /// The function's name.
    ///
    /// ```
    /// // `f`: e: `x = 1; branch c, a, j`, a: `x = 2; jump j`, j: `ret x`.
    /// # let mut f = ssakit::text::parse_module("function f(c) {\ne:\n    x = 1\n    branch c, a, j\na:\n    x = 2\n    jump j\nj:\n    ret x\n}").unwrap().functions.remove(0);
    /// # let (e, a, j) = (f.block_by_name("e").unwrap(), f.block_by_name("a").unwrap(), f.block_by_name("j").unwrap());
    /// # let x = f.var_by_name("x").unwrap();
    /// assert_eq!(f.name(), "f");
    /// ```
    pub fn name(&self) -> &str {
        &self.name
    }

    /// Renames the function.
    ///
    /// ```
    /// // `f`: e: `x = 1; branch c, a, j`, a: `x = 2; jump j`, j: `ret x`.
    /// # let mut f = ssakit::text::parse_module("function f(c) {\ne:\n    x = 1\n    branch c, a, j\na:\n    x = 2\n    jump j\nj:\n    ret x\n}").unwrap().functions.remove(0);
    /// # let (e, a, j) = (f.block_by_name("e").unwrap(), f.block_by_name("a").unwrap(), f.block_by_name("j").unwrap());
    /// # let x = f.var_by_name("x").unwrap();
    /// f.set_name("g");
    /// assert!(ssakit::text::print_function(&f).starts_with("function g(c) {"));
    /// ```
    pub fn set_name(&mut self, name: &str) {
        self.name = name.into();
    }

    /// Parameters: variables defined on entry, in order.
    ///
    /// ```
    /// // `f`: e: `x = 1; branch c, a, j`, a: `x = 2; jump j`, j: `ret x`.
    /// # let mut f = ssakit::text::parse_module("function f(c) {\ne:\n    x = 1\n    branch c, a, j\na:\n    x = 2\n    jump j\nj:\n    ret x\n}").unwrap().functions.remove(0);
    /// # let (e, a, j) = (f.block_by_name("e").unwrap(), f.block_by_name("a").unwrap(), f.block_by_name("j").unwrap());
    /// # let x = f.var_by_name("x").unwrap();
    /// let c = f.params()[0];
    /// assert_eq!((f.params().len(), f.base_name(c)), (1, "c"));
    /// ```
    pub fn params(&self) -> &[Var] {
        &self.params
    }

    /// Appends `v` to the parameters.
    ///
    /// ```
    /// use ssakit::ir::{Function, Type};
    /// let mut f = Function::new("f");
    /// let n = f.new_var("n", Type::I64);
    /// f.add_param(n);
    /// assert_eq!(f.params(), [n]);
    /// ```
    pub fn add_param(&mut self, v: Var) {
        self.params.push(v);
    }

    /// The declared result types, if declared (`-> i32, i64` in the text
    /// format; today's programs leave them open).
    ///
    /// ```
    /// use ssakit::ir::Type;
    /// let m = ssakit::text::parse_module("function f() -> i32 {\ne:\n    ret 1\n}\nfunction g() {\ne:\n    ret\n}").unwrap();
    /// assert_eq!(m.functions[0].returns(), Some(&[Type::I32][..]));
    /// assert_eq!(m.functions[1].returns(), None);
    /// ```
    pub fn returns(&self) -> Option<&[Type]> {
        self.returns.as_deref()
    }

    /// Declares the result types (`None`: undeclared).
    ///
    /// ```
    /// use ssakit::ir::{Function, Type};
    /// let mut f = Function::new("f");
    /// f.set_returns(Some(vec![Type::I64, Type::I64]));
    /// assert_eq!(f.returns().map(<[Type]>::len), Some(2));
    /// ```
    pub fn set_returns(&mut self, returns: Option<Vec<Type>>) {
        self.returns = returns.map(Vec::into_boxed_slice);
    }

    /// The symbol table (shared with the module's other functions).
    ///
    /// ```
    /// // `f`: e: `x = 1; branch c, a, j`, a: `x = 2; jump j`, j: `ret x`.
    /// # let mut f = ssakit::text::parse_module("function f(c) {\ne:\n    x = 1\n    branch c, a, j\na:\n    x = 2\n    jump j\nj:\n    ret x\n}").unwrap().functions.remove(0);
    /// # let (e, a, j) = (f.block_by_name("e").unwrap(), f.block_by_name("a").unwrap(), f.block_by_name("j").unwrap());
    /// # let x = f.var_by_name("x").unwrap();
    /// assert_eq!(f.symbols().num_operators(), 0);
    /// f.callee("ext");
    /// assert!(f.symbols().find_callee("ext").is_some());
    /// ```
    pub fn symbols(&self) -> &Symbols {
        &self.symbols
    }

    /// The shared symbol table itself, to give to another function.
    ///
    /// ```
    /// use ssakit::ir::Function;
    /// let f = Function::new("f");
    /// let g = Function::with_symbols("g", f.shared_symbols().clone());
    /// assert!(std::sync::Arc::ptr_eq(f.shared_symbols(), g.shared_symbols()));
    /// ```
    pub fn shared_symbols(&self) -> &SharedSymbols {
        &self.symbols
    }

    /// The operator named `name` with `effects`, added to the symbol table
    /// if new.
    ///
    /// # Errors
    /// If the table has `name` with other effects.
    ///
    /// ```
    /// use ssakit::ir::{Effects, Function};
    /// let mut f = Function::new("f");
    /// let add = f.operator("i32.add", Effects::PURE).unwrap();
    /// assert_eq!(f.operator("i32.add", Effects::PURE), Ok(add));
    /// assert!(f.operator("i32.add", Effects::TRAP).is_err());
    /// ```
    pub fn operator(&mut self, name: &str, effects: Effects) -> Result<Operator, EffectsConflict> {
        if let Some(op) = self.symbols.find_operator(name) {
            let existing = self.symbols.operator_data(op).effects;
            if existing == effects {
                return Ok(op);
            }
        }
        Arc::make_mut(&mut self.symbols).operator(name, effects)
    }

    /// The callee named `name`, added to the symbol table if new.
    ///
    /// ```
    /// use ssakit::ir::Function;
    /// let mut f = Function::new("f");
    /// let a = f.callee("g");
    /// assert_eq!(f.callee("g"), a); // interned once
    /// ```
    pub fn callee(&mut self, name: &str) -> Callee {
        match self.symbols.find_callee(name) {
            Some(c) => c,
            None => Arc::make_mut(&mut self.symbols).callee(name),
        }
    }

    /// An operator's name.
    ///
    /// ```
    /// use ssakit::ir::{Effects, Function};
    /// let mut f = Function::new("f");
    /// let op = f.operator("f64.sqrt", Effects::PURE).unwrap();
    /// assert_eq!(f.operator_name(op), "f64.sqrt");
    /// ```
    pub fn operator_name(&self, op: Operator) -> &str {
        &self.symbols.operator_data(op).name
    }

    /// A callee's name.
    ///
    /// ```
    /// use ssakit::ir::Function;
    /// let mut f = Function::new("f");
    /// let c = f.callee("putchar");
    /// assert_eq!(f.callee_name(c), "putchar");
    /// ```
    pub fn callee_name(&self, c: Callee) -> &str {
        self.symbols.callee_name(c)
    }

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
    ///
    /// ```
    /// // `f`: e: `x = 1; branch c, a, j`, a: `x = 2; jump j`, j: `ret x`.
    /// # let mut f = ssakit::text::parse_module("function f(c) {\ne:\n    x = 1\n    branch c, a, j\na:\n    x = 2\n    jump j\nj:\n    ret x\n}").unwrap().functions.remove(0);
    /// # let (e, a, j) = (f.block_by_name("e").unwrap(), f.block_by_name("a").unwrap(), f.block_by_name("j").unwrap());
    /// # let x = f.var_by_name("x").unwrap();
    /// assert_eq!(f.var(x).origin(), None);
    /// ```
    pub fn var(&self, v: Var) -> &VarData {
        &self.vars[v]
    }

    /// The type of `v`.
    ///
    /// ```
    /// use ssakit::ir::Type;
    /// let f = ssakit::text::parse_module("function f(p: f64) {\ne:\n    ret\n}").unwrap().functions.remove(0);
    /// assert_eq!(f.var_type(f.params()[0]), Type::F64);
    /// ```
    pub fn var_type(&self, v: Var) -> Type {
        self.vars[v].ty
    }

    /// Sets the type of `v` (and so of its versions created afterwards).
    pub(crate) fn set_var_type(&mut self, v: Var, ty: Type) {
        self.vars[v].ty = ty;
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
        self.vars.push(VarData {
            kind: VarKind::Named { name },
            ty,
        })
    }

    /// Creates version number `number` of variable `origin`'s original,
    /// with its type.
    ///
    /// ```
    /// use ssakit::ir::{Function, Type, VarNames};
    /// let mut f = Function::new("f");
    /// let x = f.new_var("x", Type::I64);
    /// let x1 = f.new_version(x, 1);
    /// let x2 = f.new_version(x1, 2); // a version of a version is one of `x`
    /// assert_eq!((f.original(x2), VarNames::new(&f).get(x2)), (x, "x2"));
    /// ```
    pub fn new_version(&mut self, origin: Var, number: u32) -> Var {
        let origin = self.original(origin);
        self.vars.push(VarData {
            kind: VarKind::Version { origin, number },
            ty: self.vars[origin].ty,
        })
    }

    /// Reserves room for `n` more variables.
    pub(crate) fn reserve_vars(&mut self, n: usize) {
        self.vars.reserve(n);
    }

    /// The original variable of `v`: `v` itself unless it is an SSA version.
    ///
    /// ```
    /// use ssakit::ir::{Function, Type};
    /// let mut f = Function::new("f");
    /// let x = f.new_var("x", Type::I64);
    /// let x3 = f.new_version(x, 3);
    /// assert_eq!((f.original(x), f.original(x3)), (x, x));
    /// ```
    #[inline]
    pub fn original(&self, v: Var) -> Var {
        match self.vars[v].kind {
            VarKind::Version { origin, .. } => origin,
            VarKind::Named { .. } => v,
        }
    }

    /// The name of `v`'s original variable (without version number).
    ///
    /// ```
    /// use ssakit::ir::{Function, Type};
    /// let mut f = Function::new("f");
    /// let x = f.new_var("x", Type::I64);
    /// let x3 = f.new_version(x, 3);
    /// assert_eq!(f.base_name(x3), "x");
    /// ```
    pub fn base_name(&self, v: Var) -> &str {
        match self.vars[self.original(v)].kind {
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
            matches!(self.vars[v].kind, VarKind::Named { name: n } if self.names.get(n) == name)
        })
    }

    // ---------------------------------------------------------------
    // Blocks and layout.

    /// Number of blocks, in the layout or not (the size of a side table
    /// indexed by block).
    ///
    /// ```
    /// // `f`: e: `x = 1; branch c, a, j`, a: `x = 2; jump j`, j: `ret x`.
    /// # let mut f = ssakit::text::parse_module("function f(c) {\ne:\n    x = 1\n    branch c, a, j\na:\n    x = 2\n    jump j\nj:\n    ret x\n}").unwrap().functions.remove(0);
    /// # let (e, a, j) = (f.block_by_name("e").unwrap(), f.block_by_name("a").unwrap(), f.block_by_name("j").unwrap());
    /// # let x = f.var_by_name("x").unwrap();
    /// let spare = f.create_block("spare"); // not in the layout, still counted
    /// assert_eq!((f.num_blocks(), f.layout().len()), (4, 3));
    /// ```
    pub fn num_blocks(&self) -> usize {
        self.blocks.len()
    }

    /// Every block, in the layout or not.
    ///
    /// ```
    /// // `f`: e: `x = 1; branch c, a, j`, a: `x = 2; jump j`, j: `ret x`.
    /// # let mut f = ssakit::text::parse_module("function f(c) {\ne:\n    x = 1\n    branch c, a, j\na:\n    x = 2\n    jump j\nj:\n    ret x\n}").unwrap().functions.remove(0);
    /// # let (e, a, j) = (f.block_by_name("e").unwrap(), f.block_by_name("a").unwrap(), f.block_by_name("j").unwrap());
    /// # let x = f.var_by_name("x").unwrap();
    /// let names: Vec<&str> = f.blocks().map(|b| f.block_name(b)).collect();
    /// assert_eq!(names, ["e", "a", "j"]);
    /// ```
    pub fn blocks(&self) -> impl DoubleEndedIterator<Item = Block> + ExactSizeIterator + 'static {
        self.blocks.keys()
    }

    /// Blocks in program order; the first is the entry.
    ///
    /// ```
    /// // `f`: e: `x = 1; branch c, a, j`, a: `x = 2; jump j`, j: `ret x`.
    /// # let mut f = ssakit::text::parse_module("function f(c) {\ne:\n    x = 1\n    branch c, a, j\na:\n    x = 2\n    jump j\nj:\n    ret x\n}").unwrap().functions.remove(0);
    /// # let (e, a, j) = (f.block_by_name("e").unwrap(), f.block_by_name("a").unwrap(), f.block_by_name("j").unwrap());
    /// # let x = f.var_by_name("x").unwrap();
    /// assert_eq!(f.layout(), [e, a, j]);
    /// ```
    pub fn layout(&self) -> &[Block] {
        &self.layout
    }

    /// The entry block. Panics if the layout is empty.
    ///
    /// ```
    /// // `f`: e: `x = 1; branch c, a, j`, a: `x = 2; jump j`, j: `ret x`.
    /// # let mut f = ssakit::text::parse_module("function f(c) {\ne:\n    x = 1\n    branch c, a, j\na:\n    x = 2\n    jump j\nj:\n    ret x\n}").unwrap().functions.remove(0);
    /// # let (e, a, j) = (f.block_by_name("e").unwrap(), f.block_by_name("a").unwrap(), f.block_by_name("j").unwrap());
    /// # let x = f.var_by_name("x").unwrap();
    /// assert_eq!(f.entry(), e);
    /// ```
    pub fn entry(&self) -> Block {
        self.layout[0]
    }

    /// The label of `b`.
    ///
    /// ```
    /// // `f`: e: `x = 1; branch c, a, j`, a: `x = 2; jump j`, j: `ret x`.
    /// # let mut f = ssakit::text::parse_module("function f(c) {\ne:\n    x = 1\n    branch c, a, j\na:\n    x = 2\n    jump j\nj:\n    ret x\n}").unwrap().functions.remove(0);
    /// # let (e, a, j) = (f.block_by_name("e").unwrap(), f.block_by_name("a").unwrap(), f.block_by_name("j").unwrap());
    /// # let x = f.var_by_name("x").unwrap();
    /// assert_eq!(f.block_name(j), "j");
    /// ```
    pub fn block_name(&self, b: Block) -> &str {
        self.names.get(self.blocks[b].name)
    }

    /// The phis of `b`, in order.
    ///
    /// ```
    /// // `f`: e: `x1 = 1; branch c, a, j`, a: `x2 = 2; jump j`,
    /// // j: `x3 = phi(e: x1, a: x2); print x3; ret x3`.
    /// # let mut f = ssakit::text::parse_module("function f(c) {\ne:\n    x1 = 1\n    branch c, a, j\na:\n    x2 = 2\n    jump j\nj:\n    x3 = phi(e: x1, a: x2)\n    print x3\n    ret x3\n}").unwrap().functions.remove(0);
    /// # let (e, a, j) = (f.block_by_name("e").unwrap(), f.block_by_name("a").unwrap(), f.block_by_name("j").unwrap());
    /// # let phi = f.block_phis(j)[0];
    /// assert_eq!(f.block_phis(j).len(), 1);
    /// assert!(f.block_phis(e).is_empty());
    /// ```
    #[inline]
    pub fn block_phis(&self, b: Block) -> &[Inst] {
        self.blocks[b].phis.as_slice(&self.pools.block_insts)
    }

    /// The ordinary instructions of `b`, in order.
    ///
    /// ```
    /// // `f`: e: `x1 = 1; branch c, a, j`, a: `x2 = 2; jump j`,
    /// // j: `x3 = phi(e: x1, a: x2); print x3; ret x3`.
    /// # let mut f = ssakit::text::parse_module("function f(c) {\ne:\n    x1 = 1\n    branch c, a, j\na:\n    x2 = 2\n    jump j\nj:\n    x3 = phi(e: x1, a: x2)\n    print x3\n    ret x3\n}").unwrap().functions.remove(0);
    /// # let (e, a, j) = (f.block_by_name("e").unwrap(), f.block_by_name("a").unwrap(), f.block_by_name("j").unwrap());
    /// # let phi = f.block_phis(j)[0];
    /// assert_eq!(f.block_insts(j).len(), 1); // `print x3`; the phi is apart
    /// ```
    #[inline]
    pub fn block_insts(&self, b: Block) -> &[Inst] {
        self.blocks[b].insts.as_slice(&self.pools.block_insts)
    }

    /// Phis, then ordinary instructions of `b`.
    ///
    /// ```
    /// // `f`: e: `x1 = 1; branch c, a, j`, a: `x2 = 2; jump j`,
    /// // j: `x3 = phi(e: x1, a: x2); print x3; ret x3`.
    /// # let mut f = ssakit::text::parse_module("function f(c) {\ne:\n    x1 = 1\n    branch c, a, j\na:\n    x2 = 2\n    jump j\nj:\n    x3 = phi(e: x1, a: x2)\n    print x3\n    ret x3\n}").unwrap().functions.remove(0);
    /// # let (e, a, j) = (f.block_by_name("e").unwrap(), f.block_by_name("a").unwrap(), f.block_by_name("j").unwrap());
    /// # let phi = f.block_phis(j)[0];
    /// let all: Vec<_> = f.block_all_insts(j).collect();
    /// assert_eq!(all, [phi, f.block_insts(j)[0]]);
    /// ```
    #[inline]
    pub fn block_all_insts(&self, b: Block) -> impl DoubleEndedIterator<Item = Inst> + '_ {
        let d = &self.blocks[b];
        let pool = &self.pools.block_insts;
        d.phis
            .as_slice(pool)
            .iter()
            .chain(d.insts.as_slice(pool))
            .copied()
    }

    /// The terminator of `b`.
    ///
    /// ```
    /// use ssakit::ir::Terminator;
    /// // `f`: e: `x = 1; branch c, a, j`, a: `x = 2; jump j`, j: `ret x`.
    /// # let mut f = ssakit::text::parse_module("function f(c) {\ne:\n    x = 1\n    branch c, a, j\na:\n    x = 2\n    jump j\nj:\n    ret x\n}").unwrap().functions.remove(0);
    /// # let (e, a, j) = (f.block_by_name("e").unwrap(), f.block_by_name("a").unwrap(), f.block_by_name("j").unwrap());
    /// # let x = f.var_by_name("x").unwrap();
    /// assert_eq!(f.term(a), &Terminator::Jump(j));
    /// ```
    pub fn term(&self, b: Block) -> &Terminator {
        &self.blocks[b].term
    }

    /// The block labelled `name`, among the blocks of the layout, by linear
    /// search.
    ///
    /// ```
    /// // `f`: e: `x = 1; branch c, a, j`, a: `x = 2; jump j`, j: `ret x`.
    /// # let mut f = ssakit::text::parse_module("function f(c) {\ne:\n    x = 1\n    branch c, a, j\na:\n    x = 2\n    jump j\nj:\n    ret x\n}").unwrap().functions.remove(0);
    /// # let (e, a, j) = (f.block_by_name("e").unwrap(), f.block_by_name("a").unwrap(), f.block_by_name("j").unwrap());
    /// # let x = f.var_by_name("x").unwrap();
    /// assert_eq!(f.block_by_name("a"), Some(a));
    /// assert_eq!(f.block_by_name("zz"), None);
    /// ```
    pub fn block_by_name(&self, name: &str) -> Option<Block> {
        self.layout
            .iter()
            .copied()
            .find(|&b| self.block_name(b) == name)
    }

    /// Creates an empty block ending in `ret`, outside the layout.
    ///
    /// ```
    /// // `f`: e: `x = 1; branch c, a, j`, a: `x = 2; jump j`, j: `ret x`.
    /// # let mut f = ssakit::text::parse_module("function f(c) {\ne:\n    x = 1\n    branch c, a, j\na:\n    x = 2\n    jump j\nj:\n    ret x\n}").unwrap().functions.remove(0);
    /// # let (e, a, j) = (f.block_by_name("e").unwrap(), f.block_by_name("a").unwrap(), f.block_by_name("j").unwrap());
    /// # let x = f.var_by_name("x").unwrap();
    /// let b = f.create_block("later");
    /// assert!(!f.is_in_layout(b));
    /// f.append_to_layout(b);
    /// assert_eq!(f.layout().last(), Some(&b));
    /// ```
    pub fn create_block(&mut self, name: &str) -> Block {
        let name = self.names.add(name);
        self.blocks.push(BlockData {
            name,
            in_layout: false,
            phis: EntityList::new(),
            insts: EntityList::new(),
            term: Terminator::ret_void(),
        })
    }

    /// Creates an empty block ending in `ret`, appended to the layout.
    ///
    /// ```
    /// use ssakit::ir::Function;
    /// let mut f = Function::new("f");
    /// let first = f.new_block("first");
    /// f.new_block("second");
    /// assert_eq!((f.entry(), f.layout().len()), (first, 2));
    /// ```
    pub fn new_block(&mut self, name: &str) -> Block {
        let b = self.create_block(name);
        self.append_to_layout(b);
        b
    }

    /// Whether `b` is in the layout.
    ///
    /// ```
    /// // `f`: e: `x = 1; branch c, a, j`, a: `x = 2; jump j`, j: `ret x`.
    /// # let mut f = ssakit::text::parse_module("function f(c) {\ne:\n    x = 1\n    branch c, a, j\na:\n    x = 2\n    jump j\nj:\n    ret x\n}").unwrap().functions.remove(0);
    /// # let (e, a, j) = (f.block_by_name("e").unwrap(), f.block_by_name("a").unwrap(), f.block_by_name("j").unwrap());
    /// # let x = f.var_by_name("x").unwrap();
    /// assert!(f.is_in_layout(a));
    /// f.retain_layout(|&b| b != a);
    /// assert!(!f.is_in_layout(a));
    /// ```
    pub fn is_in_layout(&self, b: Block) -> bool {
        self.blocks[b].in_layout
    }

    /// Sets the layout. Panics if it lists a block twice or a block that
    /// does not exist.
    pub(crate) fn set_layout(&mut self, layout: Vec<Block>) {
        for &b in &self.layout {
            self.blocks[b].in_layout = false;
        }
        for &b in &layout {
            assert!(
                b.index() < self.blocks.len() && !self.blocks[b].in_layout,
                "set_layout: block {b} listed twice or unknown"
            );
            self.blocks[b].in_layout = true;
        }
        self.layout = layout;
    }

    /// Keeps the blocks of the layout for which `keep` is true.
    ///
    /// ```
    /// // `f`: e: `x = 1; branch c, a, j`, a: `x = 2; jump j`, j: `ret x`.
    /// # let mut f = ssakit::text::parse_module("function f(c) {\ne:\n    x = 1\n    branch c, a, j\na:\n    x = 2\n    jump j\nj:\n    ret x\n}").unwrap().functions.remove(0);
    /// # let (e, a, j) = (f.block_by_name("e").unwrap(), f.block_by_name("a").unwrap(), f.block_by_name("j").unwrap());
    /// # let x = f.var_by_name("x").unwrap();
    /// f.retain_layout(|&b| b != a);
    /// assert_eq!(f.layout(), [e, j]);
    /// ```
    pub fn retain_layout(&mut self, mut keep: impl FnMut(&Block) -> bool) {
        let blocks = &mut self.blocks;
        self.layout.retain(|b| {
            let k = keep(b);
            blocks[*b].in_layout = k;
            k
        });
    }

    /// Appends `b`, a block outside the layout, to it. Panics if `b` is in
    /// the layout already.
    ///
    /// ```
    /// // `f`: e: `x = 1; branch c, a, j`, a: `x = 2; jump j`, j: `ret x`.
    /// # let mut f = ssakit::text::parse_module("function f(c) {\ne:\n    x = 1\n    branch c, a, j\na:\n    x = 2\n    jump j\nj:\n    ret x\n}").unwrap().functions.remove(0);
    /// # let (e, a, j) = (f.block_by_name("e").unwrap(), f.block_by_name("a").unwrap(), f.block_by_name("j").unwrap());
    /// # let x = f.var_by_name("x").unwrap();
    /// let extra = f.create_block("extra");
    /// f.append_to_layout(extra);
    /// assert_eq!(f.layout(), [e, a, j, extra]);
    /// ```
    pub fn append_to_layout(&mut self, b: Block) {
        assert!(!self.blocks[b].in_layout, "block {b} is in the layout");
        self.blocks[b].in_layout = true;
        self.layout.push(b);
    }

    /// Makes `b` (outside the layout) the new entry, in front of the old.
    pub(crate) fn insert_entry(&mut self, b: Block) {
        assert!(!self.blocks[b].in_layout, "block {b} is in the layout");
        self.blocks[b].in_layout = true;
        self.layout.insert(0, b);
    }

    /// Sets the terminator of `b`. Its lists must be new (made for it).
    ///
    /// ```
    /// use ssakit::ir::Terminator;
    /// // `f`: e: `x = 1; branch c, a, j`, a: `x = 2; jump j`, j: `ret x`.
    /// # let mut f = ssakit::text::parse_module("function f(c) {\ne:\n    x = 1\n    branch c, a, j\na:\n    x = 2\n    jump j\nj:\n    ret x\n}").unwrap().functions.remove(0);
    /// # let (e, a, j) = (f.block_by_name("e").unwrap(), f.block_by_name("a").unwrap(), f.block_by_name("j").unwrap());
    /// # let x = f.var_by_name("x").unwrap();
    /// f.set_term(e, Terminator::Jump(j));
    /// assert!(ssakit::text::print_function(&f).contains("e:\n    x = 1\n    jump j\n"));
    /// ```
    pub fn set_term(&mut self, b: Block, t: Terminator) {
        self.blocks[b].term = t;
    }

    /// Calls `f` on each successor edge of `b`, in order (duplicates kept:
    /// `branch c, L, L` has two edges to `L`). The order is: `then`,
    /// `else` for a branch; `default`, then targets for a switch.
    ///
    /// ```
    /// // `f`: e: `x = 1; branch c, a, j`, a: `x = 2; jump j`, j: `ret x`.
    /// # let mut f = ssakit::text::parse_module("function f(c) {\ne:\n    x = 1\n    branch c, a, j\na:\n    x = 2\n    jump j\nj:\n    ret x\n}").unwrap().functions.remove(0);
    /// # let (e, a, j) = (f.block_by_name("e").unwrap(), f.block_by_name("a").unwrap(), f.block_by_name("j").unwrap());
    /// # let x = f.var_by_name("x").unwrap();
    /// let mut succs = Vec::new();
    /// f.for_each_succ(e, |s| succs.push(s));
    /// assert_eq!(succs, [a, j]); // then, else
    /// ```
    #[inline]
    pub fn for_each_succ(&self, b: Block, mut f: impl FnMut(Block)) {
        match &self.blocks[b].term {
            Terminator::Jump(t) => f(*t),
            Terminator::Branch {
                then_dest,
                else_dest,
                ..
            } => {
                f(*then_dest);
                f(*else_dest)
            }
            Terminator::Switch {
                default, targets, ..
            } => {
                f(*default);
                targets.as_slice(self).iter().for_each(|&t| f(t))
            }
            Terminator::Ret(_) | Terminator::Unreachable => {}
        }
    }

    /// Rewrites each successor edge `s` of `b` to `f(s)`, in order.
    pub(crate) fn redirect_succs(&mut self, b: Block, mut f: impl FnMut(Block) -> Block) {
        let mut term = self.blocks[b].term;
        match &mut term {
            Terminator::Jump(t) => *t = f(*t),
            Terminator::Branch {
                then_dest,
                else_dest,
                ..
            } => {
                *then_dest = f(*then_dest);
                *else_dest = f(*else_dest)
            }
            Terminator::Switch {
                default, targets, ..
            } => {
                *default = f(*default);
                for t in targets.as_mut_slice(self) {
                    *t = f(*t);
                }
            }
            Terminator::Ret(_) | Terminator::Unreachable => {}
        }
        self.blocks[b].term = term;
    }

    /// Calls `f` on each operand read by the terminator of `b`.
    ///
    /// ```
    /// use ssakit::ir::Operand;
    /// // `f`: e: `x = 1; branch c, a, j`, a: `x = 2; jump j`, j: `ret x`.
    /// # let mut f = ssakit::text::parse_module("function f(c) {\ne:\n    x = 1\n    branch c, a, j\na:\n    x = 2\n    jump j\nj:\n    ret x\n}").unwrap().functions.remove(0);
    /// # let (e, a, j) = (f.block_by_name("e").unwrap(), f.block_by_name("a").unwrap(), f.block_by_name("j").unwrap());
    /// # let x = f.var_by_name("x").unwrap();
    /// let mut ops = Vec::new();
    /// f.for_each_term_operand(j, |o| ops.push(o));
    /// assert_eq!(ops, [Operand::Var(x)]);
    /// ```
    #[inline]
    pub fn for_each_term_operand(&self, b: Block, mut f: impl FnMut(Operand)) {
        match &self.blocks[b].term {
            Terminator::Branch { cond: o, .. } | Terminator::Switch { value: o, .. } => f(*o),
            Terminator::Ret(vals) => vals.as_slice(self).iter().for_each(|&o| f(o)),
            Terminator::Jump(_) | Terminator::Unreachable => {}
        }
    }

    /// Calls `f` on each operand read by the terminator of `b`, mutably.
    ///
    /// ```
    /// use ssakit::ir::Operand;
    /// // `f`: e: `x = 1; branch c, a, j`, a: `x = 2; jump j`, j: `ret x`.
    /// # let mut f = ssakit::text::parse_module("function f(c) {\ne:\n    x = 1\n    branch c, a, j\na:\n    x = 2\n    jump j\nj:\n    ret x\n}").unwrap().functions.remove(0);
    /// # let (e, a, j) = (f.block_by_name("e").unwrap(), f.block_by_name("a").unwrap(), f.block_by_name("j").unwrap());
    /// # let x = f.var_by_name("x").unwrap();
    /// f.for_each_term_operand_mut(j, |o| *o = Operand::Const(0));
    /// assert!(ssakit::text::print_function(&f).contains("ret 0"));
    /// ```
    pub fn for_each_term_operand_mut(&mut self, b: Block, mut f: impl FnMut(&mut Operand)) {
        let Function { blocks, pools, .. } = self;
        match &mut blocks[b].term {
            Terminator::Branch { cond: o, .. } | Terminator::Switch { value: o, .. } => f(o),
            Terminator::Ret(vals) => vals
                .as_mut_slice(&mut pools.operands)
                .iter_mut()
                .for_each(f),
            Terminator::Jump(_) | Terminator::Unreachable => {}
        }
    }

    /// Calls `f` on each variable read by the terminator of `b`.
    ///
    /// ```
    /// // `f`: e: `x = 1; branch c, a, j`, a: `x = 2; jump j`, j: `ret x`.
    /// # let mut f = ssakit::text::parse_module("function f(c) {\ne:\n    x = 1\n    branch c, a, j\na:\n    x = 2\n    jump j\nj:\n    ret x\n}").unwrap().functions.remove(0);
    /// # let (e, a, j) = (f.block_by_name("e").unwrap(), f.block_by_name("a").unwrap(), f.block_by_name("j").unwrap());
    /// # let x = f.var_by_name("x").unwrap();
    /// let c = f.params()[0];
    /// let mut uses = Vec::new();
    /// f.for_each_term_use(e, |v| uses.push(v));
    /// assert_eq!(uses, [c]);
    /// ```
    #[inline]
    pub fn for_each_term_use(&self, b: Block, mut f: impl FnMut(Var)) {
        self.for_each_term_operand(b, |o| {
            if let Operand::Var(v) = o {
                f(v)
            }
        })
    }

    /// A `switch value, default, [targets]` terminator (its target list
    /// allocated in this function).
    ///
    /// ```
    /// use ssakit::ir::Operand;
    /// // `f`: e: `x = 1; branch c, a, j`, a: `x = 2; jump j`, j: `ret x`.
    /// # let mut f = ssakit::text::parse_module("function f(c) {\ne:\n    x = 1\n    branch c, a, j\na:\n    x = 2\n    jump j\nj:\n    ret x\n}").unwrap().functions.remove(0);
    /// # let (e, a, j) = (f.block_by_name("e").unwrap(), f.block_by_name("a").unwrap(), f.block_by_name("j").unwrap());
    /// # let x = f.var_by_name("x").unwrap();
    /// let t = f.switch_term(Operand::Const(1), j, &[a, j]);
    /// f.set_term(e, t);
    /// assert!(ssakit::text::print_function(&f).contains("switch 1, j, [a, j]"));
    /// ```
    pub fn switch_term(&mut self, value: Operand, default: Block, targets: &[Block]) -> Terminator {
        Terminator::Switch {
            value,
            default,
            targets: self.pools.blocks.alloc(targets),
        }
    }

    /// A `ret v1, ..., vn` terminator (`ret` alone when `vals` is empty).
    ///
    /// ```
    /// use ssakit::ir::Operand;
    /// // `f`: e: `x = 1; branch c, a, j`, a: `x = 2; jump j`, j: `ret x`.
    /// # let mut f = ssakit::text::parse_module("function f(c) {\ne:\n    x = 1\n    branch c, a, j\na:\n    x = 2\n    jump j\nj:\n    ret x\n}").unwrap().functions.remove(0);
    /// # let (e, a, j) = (f.block_by_name("e").unwrap(), f.block_by_name("a").unwrap(), f.block_by_name("j").unwrap());
    /// # let x = f.var_by_name("x").unwrap();
    /// let t = f.ret_term(&[Operand::Const(4), x.into()]);
    /// f.set_term(j, t);
    /// assert!(ssakit::text::print_function(&f).contains("ret 4, x"));
    /// ```
    pub fn ret_term(&mut self, vals: &[Operand]) -> Terminator {
        Terminator::Ret(self.pools.operands.alloc(vals))
    }

    // ---------------------------------------------------------------
    // Instructions.

    /// The size of the instruction table: removed instructions included,
    /// so the size of a side table indexed by instruction.
    ///
    /// ```
    /// // `f`: e: `x = 1; branch c, a, j`, a: `x = 2; jump j`, j: `ret x`.
    /// # let mut f = ssakit::text::parse_module("function f(c) {\ne:\n    x = 1\n    branch c, a, j\na:\n    x = 2\n    jump j\nj:\n    ret x\n}").unwrap().functions.remove(0);
    /// # let (e, a, j) = (f.block_by_name("e").unwrap(), f.block_by_name("a").unwrap(), f.block_by_name("j").unwrap());
    /// # let x = f.var_by_name("x").unwrap();
    /// f.retain_insts(a, |_, _| false); // removes `x = 2`, still a slot
    /// assert_eq!((f.inst_slots(), f.num_insts()), (2, 4));
    /// ```
    pub fn inst_slots(&self) -> usize {
        self.insts.len()
    }

    /// Number of instructions in the layout, phis included, terminators
    /// counted one per block.
    ///
    /// ```
    /// // `f`: e: `x = 1; branch c, a, j`, a: `x = 2; jump j`, j: `ret x`.
    /// # let mut f = ssakit::text::parse_module("function f(c) {\ne:\n    x = 1\n    branch c, a, j\na:\n    x = 2\n    jump j\nj:\n    ret x\n}").unwrap().functions.remove(0);
    /// # let (e, a, j) = (f.block_by_name("e").unwrap(), f.block_by_name("a").unwrap(), f.block_by_name("j").unwrap());
    /// # let x = f.var_by_name("x").unwrap();
    /// assert_eq!(f.num_insts(), 2 + 3); // two copies, three terminators
    /// ```
    pub fn num_insts(&self) -> usize {
        self.layout
            .iter()
            .map(|&b| self.blocks[b].phis.len() + self.blocks[b].insts.len() + 1)
            .sum()
    }

    /// The data of instruction `i`.
    ///
    /// ```
    /// use ssakit::ir::{InstData, Operand};
    /// // `f`: e: `x = 1; branch c, a, j`, a: `x = 2; jump j`, j: `ret x`.
    /// # let mut f = ssakit::text::parse_module("function f(c) {\ne:\n    x = 1\n    branch c, a, j\na:\n    x = 2\n    jump j\nj:\n    ret x\n}").unwrap().functions.remove(0);
    /// # let (e, a, j) = (f.block_by_name("e").unwrap(), f.block_by_name("a").unwrap(), f.block_by_name("j").unwrap());
    /// # let x = f.var_by_name("x").unwrap();
    /// let i = f.block_insts(a)[0];
    /// assert_eq!(f.inst(i), &InstData::Copy { dst: x, src: Operand::Const(2) });
    /// ```
    #[inline]
    pub fn inst(&self, i: Inst) -> &InstData {
        &self.insts[i]
    }

    /// The block listing `i`, or `None` if `i` is removed.
    ///
    /// ```
    /// // `f`: e: `x = 1; branch c, a, j`, a: `x = 2; jump j`, j: `ret x`.
    /// # let mut f = ssakit::text::parse_module("function f(c) {\ne:\n    x = 1\n    branch c, a, j\na:\n    x = 2\n    jump j\nj:\n    ret x\n}").unwrap().functions.remove(0);
    /// # let (e, a, j) = (f.block_by_name("e").unwrap(), f.block_by_name("a").unwrap(), f.block_by_name("j").unwrap());
    /// # let x = f.var_by_name("x").unwrap();
    /// let i = f.block_insts(a)[0];
    /// assert_eq!(f.inst_block(i), Some(a));
    /// f.retain_insts(a, |_, _| false);
    /// assert_eq!(f.inst_block(i), None);
    /// ```
    #[inline]
    pub fn inst_block(&self, i: Inst) -> Option<Block> {
        self.inst_block[i].expand()
    }

    /// Creates an instruction listed by no block yet.
    pub(crate) fn new_inst(&mut self, data: InstData) -> Inst {
        self.inst_block.push(PackedOption::NONE);
        self.insts.push(data)
    }

    /// Reserves room for `n` more instructions, in the instruction table
    /// and in the pool of the blocks' lists (where a list that moves for
    /// room takes it).
    pub(crate) fn reserve_insts(&mut self, n: usize) {
        self.insts.reserve(n);
        self.inst_block.reserve(n);
        // Each will be listed by a block: room at the pool's end.
        self.pools.block_insts.reserve(n);
    }

    /// Adds an instruction at the end of `block`'s phis (a phi) or of its
    /// ordinary instructions (anything else).
    ///
    /// ```
    /// use ssakit::ir::{InstData, Operand};
    /// // `f`: e: `x = 1; branch c, a, j`, a: `x = 2; jump j`, j: `ret x`.
    /// # let mut f = ssakit::text::parse_module("function f(c) {\ne:\n    x = 1\n    branch c, a, j\na:\n    x = 2\n    jump j\nj:\n    ret x\n}").unwrap().functions.remove(0);
    /// # let (e, a, j) = (f.block_by_name("e").unwrap(), f.block_by_name("a").unwrap(), f.block_by_name("j").unwrap());
    /// # let x = f.var_by_name("x").unwrap();
    /// f.push_inst(j, InstData::Copy { dst: x, src: Operand::Const(3) });
    /// assert!(ssakit::text::print_function(&f).contains("j:\n    x = 3\n    ret x"));
    /// ```
    #[inline]
    pub fn push_inst(&mut self, block: Block, data: InstData) -> Inst {
        let is_phi = data.is_phi();
        let i = self.new_inst(data);
        self.inst_block[i] = PackedOption::some(block);
        let bd = &mut self.blocks[block];
        let pool = &mut self.pools.block_insts;
        if is_phi {
            bd.phis.push(i, pool);
        } else {
            bd.insts.push(i, pool);
        }
        i
    }

    /// Inserts a new ordinary instruction at position `index` of `block`'s
    /// ordinary instructions.
    pub(crate) fn insert_inst(&mut self, block: Block, index: usize, data: InstData) -> Inst {
        assert!(!data.is_phi(), "insert_inst: phis go through push_inst");
        let i = self.new_inst(data);
        self.inst_block[i] = PackedOption::some(block);
        self.blocks[block]
            .insts
            .insert(index, i, &mut self.pools.block_insts);
        i
    }

    /// Replaces the data of `i`. A phi stays a phi and anything else stays
    /// a non-phi (the lists of blocks keep them apart). The lists of the old
    /// data are not freed: pass them on in `data` or let
    /// [`Function::compact`] reclaim them.
    ///
    /// ```
    /// use ssakit::ir::{InstData, Operand};
    /// // `f`: e: `x = 1; branch c, a, j`, a: `x = 2; jump j`, j: `ret x`.
    /// # let mut f = ssakit::text::parse_module("function f(c) {\ne:\n    x = 1\n    branch c, a, j\na:\n    x = 2\n    jump j\nj:\n    ret x\n}").unwrap().functions.remove(0);
    /// # let (e, a, j) = (f.block_by_name("e").unwrap(), f.block_by_name("a").unwrap(), f.block_by_name("j").unwrap());
    /// # let x = f.var_by_name("x").unwrap();
    /// let i = f.block_insts(a)[0];
    /// f.set_inst(i, InstData::Copy { dst: x, src: Operand::Undef });
    /// assert!(ssakit::text::print_function(&f).contains("a:\n    x = undef\n"));
    /// ```
    pub fn set_inst(&mut self, i: Inst, data: InstData) {
        assert_eq!(
            self.insts[i].is_phi(),
            data.is_phi(),
            "set_inst: a phi must stay a phi"
        );
        self.insts[i] = data;
    }

    /// Keeps the ordinary instructions of `b` for which `keep` is true;
    /// the others are removed.
    ///
    /// ```
    /// use ssakit::ir::InstData;
    /// // `f`: e: `x = 1; branch c, a, j`, a: `x = 2; jump j`, j: `ret x`.
    /// # let mut f = ssakit::text::parse_module("function f(c) {\ne:\n    x = 1\n    branch c, a, j\na:\n    x = 2\n    jump j\nj:\n    ret x\n}").unwrap().functions.remove(0);
    /// # let (e, a, j) = (f.block_by_name("e").unwrap(), f.block_by_name("a").unwrap(), f.block_by_name("j").unwrap());
    /// # let x = f.var_by_name("x").unwrap();
    /// // Drop the copies of constants into `x`.
    /// f.retain_insts(a, |f, i| !matches!(f.inst(i), InstData::Copy { .. }));
    /// assert!(f.block_insts(a).is_empty());
    /// ```
    pub fn retain_insts(&mut self, b: Block, mut keep: impl FnMut(&Function, Inst) -> bool) {
        self.retain_insts_mut(b, |f, i| keep(f, i))
    }

    /// [`Function::retain_insts`] with a `keep` that may edit the function
    /// (rewrite the instruction it is asked about, say), in place: no list
    /// is copied. While `keep` runs, `b`'s list is out of it, and `keep`
    /// must not give `b` instructions (it panics after if it did).
    pub(crate) fn retain_insts_mut(
        &mut self,
        b: Block,
        mut keep: impl FnMut(&mut Function, Inst) -> bool,
    ) {
        if self.blocks[b].insts.is_empty() {
            return;
        }
        let mut list = std::mem::take(&mut self.blocks[b].insts);
        self.retain_list(&mut list, &mut keep);
        assert!(
            self.blocks[b].insts.is_empty(),
            "retain_insts_mut: `keep` gave block {b} instructions"
        );
        self.blocks[b].insts = list;
    }

    /// Keeps the items of `list` (taken out of its block, so that `keep`
    /// sees the block without it) for which `keep` is true; the others are
    /// unlisted. The list's room stays where it is while `keep` runs:
    /// lists that grow meanwhile move to the pool's end, never into it.
    fn retain_list(
        &mut self,
        list: &mut EntityList<Inst>,
        keep: &mut impl FnMut(&mut Function, Inst) -> bool,
    ) {
        let mut w = 0;
        for r in 0..list.len() {
            let i = list.as_slice(&self.pools.block_insts)[r];
            if keep(self, i) {
                list.as_mut_slice(&mut self.pools.block_insts)[w] = i;
                w += 1;
            } else {
                self.inst_block[i] = PackedOption::NONE;
            }
        }
        list.truncate(w);
    }

    /// Keeps the phis of `b` for which `keep` is true; the others are
    /// removed.
    pub(crate) fn retain_phis(&mut self, b: Block, mut keep: impl FnMut(&Function, Inst) -> bool) {
        if self.blocks[b].phis.is_empty() {
            return;
        }
        let mut list = std::mem::take(&mut self.blocks[b].phis);
        self.retain_list(&mut list, &mut |f, i| keep(f, i));
        self.blocks[b].phis = list;
    }

    /// Takes the ordinary instructions of `b` out of it: they are removed
    /// until listed again by [`Function::set_insts`].
    pub(crate) fn take_insts(&mut self, b: Block) -> Vec<Inst> {
        let mut out = Vec::new();
        self.take_insts_into(b, &mut out);
        out
    }

    /// [`Function::take_insts`] into `out` (cleared first), so that a pass
    /// rewriting every block reuses one vector.
    pub(crate) fn take_insts_into(&mut self, b: Block, out: &mut Vec<Inst>) {
        self.take_list(b, ListKind::Insts, out)
    }

    /// Empties list `kind` of `b` into `out`, unlisting its instructions;
    /// the list keeps its room in the pool for the list set after it.
    fn take_list(&mut self, b: Block, kind: ListKind, out: &mut Vec<Inst>) {
        out.clear();
        let list = self.blocks[b].list_mut(kind);
        out.extend_from_slice(list.as_slice(&self.pools.block_insts));
        list.clear();
        for &i in out.iter() {
            self.inst_block[i] = PackedOption::NONE;
        }
    }

    /// Makes `items` list `kind` of `b`, which must be empty; panics if
    /// one is listed already (here or by another block), appears twice,
    /// or is not of the list's kind.
    fn set_list(&mut self, b: Block, kind: ListKind, items: &[Inst]) {
        let what = kind.setter();
        assert!(
            self.blocks[b].list_mut(kind).is_empty(),
            "{what}: block {b} still lists {}",
            kind.items()
        );
        for &i in items {
            assert!(
                self.inst_block[i].is_none() && self.insts[i].is_phi() == (kind == ListKind::Phis),
                "{what}: {i} is listed already or is {}",
                kind.refused()
            );
            self.inst_block[i] = PackedOption::some(b);
        }
        self.blocks[b]
            .list_mut(kind)
            .assign(items, &mut self.pools.block_insts);
    }

    /// Makes `list` the ordinary instructions of `b`, whose list must be
    /// empty (see [`Function::take_insts`]). Panics if an instruction of
    /// `list` is listed already (here or by another block), appears twice,
    /// or is a phi.
    pub(crate) fn set_insts(&mut self, b: Block, list: &[Inst]) {
        self.set_list(b, ListKind::Insts, list)
    }

    /// Takes the phis of `b` out of it (see [`Function::take_insts`]).
    pub(crate) fn take_phis(&mut self, b: Block) -> Vec<Inst> {
        let mut out = Vec::new();
        self.take_list(b, ListKind::Phis, &mut out);
        out
    }

    /// Makes `list` the phis of `b`, whose phi list must be empty. Panics
    /// if an instruction of `list` is listed already or is not a phi.
    pub(crate) fn set_phis(&mut self, b: Block, list: &[Inst]) {
        self.set_list(b, ListKind::Phis, list)
    }

    /// Reserves room for `n` more phis in `b`.
    pub(crate) fn reserve_phis(&mut self, b: Block, n: usize) {
        // The filler is never read: room past a list's length is unused.
        let fill = Inst::from_u32(0);
        self.blocks[b]
            .phis
            .reserve(n, fill, &mut self.pools.block_insts);
    }

    /// Reserves room for `n` more list items of type `T` (when a pass
    /// knows how many it will add, the pool grows once instead of by
    /// doubling, which briefly holds both the old and the new vector).
    pub(crate) fn reserve_list_items<T: Copy>(&mut self, n: usize)
    where
        Self: ListStore<T>,
    {
        self.pool_mut().reserve(n);
    }

    /// A new list of `items` in this function's pool for `T`.
    ///
    /// ```
    /// use ssakit::ir::{InstData, Operand};
    /// // `f`: e: `x = 1; branch c, a, j`, a: `x = 2; jump j`, j: `ret x`.
    /// # let mut f = ssakit::text::parse_module("function f(c) {\ne:\n    x = 1\n    branch c, a, j\na:\n    x = 2\n    jump j\nj:\n    ret x\n}").unwrap().functions.remove(0);
    /// # let (e, a, j) = (f.block_by_name("e").unwrap(), f.block_by_name("a").unwrap(), f.block_by_name("j").unwrap());
    /// # let x = f.var_by_name("x").unwrap();
    /// let args = f.list(&[Operand::Var(x), Operand::Const(7)]);
    /// f.push_inst(j, InstData::Print { args });
    /// assert!(ssakit::text::print_function(&f).contains("print x, 7"));
    /// ```
    pub fn list<T: Copy>(&mut self, items: &[T]) -> EntityList<T>
    where
        Self: ListStore<T>,
    {
        self.pool_mut().alloc(items)
    }

    /// A new list of the items of `iter`.
    ///
    /// ```
    /// use ssakit::ir::{InstData, Operand};
    /// // `f`: e: `x = 1; branch c, a, j`, a: `x = 2; jump j`, j: `ret x`.
    /// # let mut f = ssakit::text::parse_module("function f(c) {\ne:\n    x = 1\n    branch c, a, j\na:\n    x = 2\n    jump j\nj:\n    ret x\n}").unwrap().functions.remove(0);
    /// # let (e, a, j) = (f.block_by_name("e").unwrap(), f.block_by_name("a").unwrap(), f.block_by_name("j").unwrap());
    /// # let x = f.var_by_name("x").unwrap();
    /// let args = f.list_from_iter((1..=3).map(Operand::Const));
    /// f.push_inst(j, InstData::Print { args });
    /// assert!(ssakit::text::print_function(&f).contains("print 1, 2, 3"));
    /// ```
    pub fn list_from_iter<T: Copy>(&mut self, iter: impl IntoIterator<Item = T>) -> EntityList<T>
    where
        Self: ListStore<T>,
    {
        self.pool_mut().alloc_iter(iter)
    }

    /// A new empty list with room for `cap` items (`fill` is a
    /// placeholder, never read).
    pub(crate) fn list_with_room<T: Copy>(&mut self, cap: usize, fill: T) -> EntityList<T>
    where
        Self: ListStore<T>,
    {
        self.pool_mut().alloc_room(cap, fill)
    }

    /// What instruction `i` may do besides computing its results: a
    /// division or remainder may trap unless its divisor is a non-zero
    /// constant; a call may do anything; a `print` writes output; an
    /// operation has its operator's effects; the rest is pure.
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
            InstData::Op { op, .. } => self.symbols.operator_data(*op).effects,
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
    pub fn for_each_operand(&self, i: Inst, mut f: impl FnMut(Operand)) {
        match &self.insts[i] {
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

    /// Renumbers the blocks so that `order[k]` becomes block `k`
    /// (terminators, phi labels, the layout and instruction owners
    /// follow). `order` must list every block exactly once. Returns the new
    /// number of each old block, for side tables to follow
    /// ([`EntityVec::permute`]).
    pub(crate) fn renumber_blocks(&mut self, order: &[Block]) -> Vec<u32> {
        let new_of = self.block_numbering(order);
        self.blocks.permute(&new_of);
        let map = |b: Block| Block::from_u32(new_of[b.index()]);
        for b in self.blocks.keys() {
            self.redirect_succs(b, map);
        }
        for i in self.insts.keys() {
            if let InstData::Phi { args, .. } = self.insts[i] {
                for a in args.as_mut_slice(self) {
                    a.block = map(a.block);
                }
            }
            if let Some(b) = self.inst_block[i].expand() {
                self.inst_block[i] = PackedOption::some(map(b));
            }
        }
        for b in &mut self.layout {
            *b = map(*b);
        }
        new_of
    }

    /// The new number of each block when `order[k]` becomes block `k`.
    fn block_numbering(&self, order: &[Block]) -> Vec<u32> {
        let n = self.blocks.len();
        assert_eq!(order.len(), n, "renumber_blocks: not a permutation");
        let mut new_of = vec![u32::MAX; n];
        for (k, &b) in order.iter().enumerate() {
            assert_eq!(
                std::mem::replace(&mut new_of[b.index()], k as u32),
                u32::MAX,
                "renumber_blocks: block {b} listed twice"
            );
        }
        new_of
    }

    /// Replaces the symbol table by `symbols`, which must hold every
    /// operator and callee of this function under the same keys (the
    /// parser builds one table for a module, then gives it to each
    /// function).
    pub(crate) fn replace_symbols(&mut self, symbols: SharedSymbols) {
        debug_assert!(
            symbols.num_operators() >= self.symbols.num_operators()
                && symbols.num_callees() >= self.symbols.num_callees()
        );
        self.symbols = symbols;
    }

    // ---------------------------------------------------------------
    // Compaction.

    /// Drops the removed instructions (listed by no block), renumbering
    /// the others in their previous relative order, and the garbage of the
    /// list pools, in `O(instructions + list items)`. Returns how many
    /// instructions were dropped.
    ///
    /// Instruction numbers change, so side tables keyed by [`Inst`] become
    /// stale.
    ///
    /// ```
    /// // `f`: e: `x = 1; branch c, a, j`, a: `x = 2; jump j`, j: `ret x`.
    /// # let mut f = ssakit::text::parse_module("function f(c) {\ne:\n    x = 1\n    branch c, a, j\na:\n    x = 2\n    jump j\nj:\n    ret x\n}").unwrap().functions.remove(0);
    /// # let (e, a, j) = (f.block_by_name("e").unwrap(), f.block_by_name("a").unwrap(), f.block_by_name("j").unwrap());
    /// # let x = f.var_by_name("x").unwrap();
    /// f.retain_insts(a, |_, _| false);
    /// assert_eq!(f.compact(), 1);
    /// assert_eq!(f.inst_slots(), 1);
    /// ```
    pub fn compact(&mut self) -> usize {
        let listed: usize = self
            .blocks
            .values()
            .map(|b| b.phis.len() + b.insts.len())
            .sum();
        let removed = self.insts.len() - listed;
        if removed > 0 {
            let mut new_index: Vec<u32> = vec![u32::MAX; self.insts.len()];
            let mut kept: EntityVec<Inst, InstData> = EntityVec::with_capacity(listed);
            let mut kept_block = EntityVec::with_capacity(listed);
            for (i, data) in self.insts.iter() {
                if let Some(b) = self.inst_block[i].expand() {
                    new_index[i.index()] = kept.push(*data).as_u32();
                    kept_block.push(PackedOption::some(b));
                }
            }
            self.insts = kept;
            self.inst_block = kept_block;
            let pool = &mut self.pools.block_insts;
            for b in self.blocks.values_mut() {
                for list in [&b.phis, &b.insts] {
                    for i in list.as_mut_slice(pool) {
                        *i = Inst::from_u32(new_index[i.index()]);
                    }
                }
            }
        }
        self.compact_pools(removed > 0);
        removed
    }

    /// Rebuilds the list pools from the lists of the instructions and
    /// terminators, in instruction order, when instructions were dropped
    /// (their lists are garbage now) or garbage is a quarter of the pools.
    fn compact_pools(&mut self, dropped: bool) {
        let lists = &self.pools.block_insts;
        if lists.garbage() > 0 && (dropped || lists.garbage() * 4 >= lists.len()) {
            self.pools.block_insts.compact(
                self.blocks
                    .values_mut()
                    .flat_map(|b| [&mut b.phis, &mut b.insts]),
            );
        }
        let p = &self.pools;
        let garbage = p.operands.garbage()
            + p.phi_args.garbage()
            + p.copies.garbage()
            + p.vars.garbage()
            + p.blocks.garbage()
            + p.imms.garbage();
        let stored = p.operands.len()
            + p.phi_args.len()
            + p.copies.len()
            + p.vars.len()
            + p.blocks.len()
            + p.imms.len();
        if !dropped && garbage * 4 < stored {
            return;
        }
        let mut operands = Vec::new();
        let mut phi_args = Vec::new();
        let mut copies = Vec::new();
        let mut vars = Vec::new();
        let mut blocks = Vec::new();
        let mut imms = Vec::new();
        for data in self.insts.values_mut() {
            match data {
                InstData::Call { args, results, .. } => {
                    operands.push(args);
                    vars.push(results);
                }
                InstData::Print { args } => operands.push(args),
                InstData::Phi { args, .. } => phi_args.push(args),
                InstData::ParCopy { copies: c } => copies.push(c),
                InstData::Op {
                    imms: m,
                    args,
                    results,
                    ..
                } => {
                    imms.push(m);
                    operands.push(args);
                    vars.push(results);
                }
                InstData::Copy { .. } | InstData::Unary { .. } | InstData::Binary { .. } => {}
            }
        }
        for b in self.blocks.values_mut() {
            match &mut b.term {
                Terminator::Switch { targets, .. } => blocks.push(targets),
                Terminator::Ret(vals) => operands.push(vals),
                _ => {}
            }
        }
        let p = &mut self.pools;
        p.operands.compact(operands.into_iter());
        p.phi_args.compact(phi_args.into_iter());
        p.copies.compact(copies.into_iter());
        p.vars.compact(vars.into_iter());
        p.blocks.compact(blocks.into_iter());
        p.imms.compact(imms.into_iter());
    }
}

impl PartialEq for Function {
    /// Two functions are equal when they print the same: same name,
    /// signature, variables (names, versions and types by index), layout,
    /// labels, and, block by block, instructions with the same contents
    /// (instruction numbers and where lists sit in the pools do not
    /// matter); operators and callees compare by name.
    fn eq(&self, o: &Self) -> bool {
        let same_var = |a: &VarData, b: &VarData| {
            a.ty == b.ty
                && match (a.kind, b.kind) {
                    (VarKind::Named { name: x }, VarKind::Named { name: y }) => {
                        self.names.get(x) == o.names.get(y)
                    }
                    (x, y) => x == y,
                }
        };
        self.name == o.name
            && self.params == o.params
            && self.returns == o.returns
            && self.vars.len() == o.vars.len()
            && self
                .vars
                .values()
                .zip(o.vars.values())
                .all(|(a, b)| same_var(a, b))
            && self.layout == o.layout
            && self.layout.iter().all(|&b| {
                let (x, y) = (&self.blocks[b], &o.blocks[b]);
                self.block_name(b) == o.block_name(b)
                    && x.phis.len() == y.phis.len()
                    && x.insts.len() == y.insts.len()
                    && self
                        .block_phis(b)
                        .iter()
                        .zip(o.block_phis(b))
                        .chain(self.block_insts(b).iter().zip(o.block_insts(b)))
                        .all(|(&i, &j)| super::compare::same_inst(self, i, o, j))
                    && super::compare::same_term(self, &x.term, o, &y.term)
            })
    }
}

impl Eq for Function {}

/// A module: functions, in order.
///
/// ```
/// let m = ssakit::text::parse_module("function f() {\ne:\n    ret 1\n}\nfunction main() {\ne:\n    r = f()\n    print r\n    ret\n}").unwrap();
/// let names: Vec<&str> = m.functions.iter().map(|f| f.name()).collect();
/// assert_eq!(names, ["f", "main"]);
/// ```
#[derive(Clone, PartialEq, Eq, Debug, Default)]
pub struct Module {
    /// The functions.
    pub functions: Vec<Function>,
}

impl Module {
    /// The function named `name`.
    pub(crate) fn function(&self, name: &str) -> Option<&Function> {
        self.functions.iter().find(|f| f.name() == name)
    }

    /// The entry function: `name` if given, else `main` if present, else the
    /// first function.
    ///
    /// ```
    /// let m = ssakit::text::parse_module("function f() {\ne:\n    ret\n}\nfunction main() {\ne:\n    ret\n}").unwrap();
    /// assert_eq!(m.entry_function(None).map(|f| f.name()), Some("main"));
    /// assert_eq!(m.entry_function(Some("f")).map(|f| f.name()), Some("f"));
    /// assert!(m.entry_function(Some("g")).is_none());
    /// ```
    pub fn entry_function(&self, name: Option<&str>) -> Option<&Function> {
        match name {
            Some(n) => self.function(n),
            None => self.function("main").or_else(|| self.functions.first()),
        }
    }
}

// Added for destruct/
impl Function {
    /// The parameters, mutably: renaming them (out-of-SSA translation
    /// renames every variable of a congruence class to one). The list
    /// keeps its length.
    pub(crate) fn params_mut(&mut self) -> &mut [Var] {
        &mut self.params
    }
}
