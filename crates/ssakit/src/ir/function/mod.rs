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
    Block, Callee, Effects, Inst, InstData, Opcode, Operand, Operator, Symbols, Terminator, Type,
    Var,
};
use crate::entity::{EntityList, EntityVec, ListPool, ListStore, PackedOption};
use std::sync::Arc;

mod compact;
mod compare;
mod insts;
mod layout;
mod operands;
mod pools;
mod vars;

/// A variable in 8 bytes: an original's name and type, or an SSA version's
/// original, number and type (its original's). At 16 bytes, the 1.5 M
/// versions of a phi-dense 10k-block program took 24 MB of the peak of its
/// construction (issue 44).
///
/// # Invariants
/// - `key`'s bit [`VarData::NAMED`] is set exactly for an original; its
///   three bits from [`VarData::TYPE_SHIFT`] are the index of the type in
///   [`Type::ALL`] (a version's, its original's when it was made); for a
///   version, its low bits ([`VarData::ORIGIN`]) are its original (never
///   a version).
/// - `word` is an original's name in the function's names, a version's
///   number.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) struct VarData {
    /// See the invariants.
    key: u32,
    /// See the invariants.
    word: u32,
}

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum VarKind {
    /// An original variable, named `names[name]`.
    Named { name: u32 },
    /// Version `number` (from 1; 0 for entry definitions) of `origin`.
    Version { origin: Var, number: u32 },
}

impl VarData {
    /// The bit of `key` that marks an original.
    const NAMED: u32 = 1 << 31;
    /// Where the type's index starts in `key`.
    const TYPE_SHIFT: u32 = 28;
    /// The bits of `key` holding a version's original.
    pub(super) const ORIGIN: u32 = (1 << Self::TYPE_SHIFT) - 1;

    /// An original variable named `names[name]`, of type `ty`.
    fn named(name: u32, ty: Type) -> VarData {
        debug_assert_eq!(Type::from_index(ty as u32), ty);
        VarData {
            key: Self::NAMED | (ty as u32) << Self::TYPE_SHIFT,
            word: name,
        }
    }

    /// Version `number` of the original `origin`, whose record is
    /// `original`. Panics if `origin` is not among the first 2²⁸
    /// variables (their table alone would take 2 GiB; construction
    /// refuses such a function with an error first).
    #[inline]
    fn version_of(origin: Var, original: VarData, number: u32) -> VarData {
        debug_assert!(original.origin().is_none());
        let o = origin.as_u32();
        assert!(
            o <= Self::ORIGIN,
            "too many variables for a version of {origin}"
        );
        VarData {
            key: o | (original.key & !Self::NAMED & !Self::ORIGIN),
            word: number,
        }
    }

    /// Whether the variable is named or a version, and its name or origin
    /// and number.
    #[inline]
    fn kind(&self) -> VarKind {
        match self.origin() {
            None => VarKind::Named { name: self.word },
            Some(origin) => VarKind::Version {
                origin,
                number: self.word,
            },
        }
    }

    /// The variable's type (a version's is its original's).
    #[inline]
    pub(crate) fn ty(&self) -> Type {
        Type::from_index(self.key >> Self::TYPE_SHIFT)
    }

    /// Sets the variable's type.
    fn set_type(&mut self, ty: Type) {
        let bits = 7 << Self::TYPE_SHIFT;
        self.key = (self.key & !bits) | (ty as u32) << Self::TYPE_SHIFT;
    }

    /// For an SSA version, the variable it is a version of.
    #[inline]
    pub(crate) fn origin(&self) -> Option<Var> {
        (self.key & Self::NAMED == 0).then(|| Var::from_u32(self.key & Self::ORIGIN))
    }
    /// For an SSA version, its number; 0 for an original variable.
    #[inline]
    pub(crate) fn version(&self) -> u32 {
        if self.key & Self::NAMED == 0 {
            self.word
        } else {
            0
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

    /// Reserves room for `n` more parameters.
    ///
    /// ```
    /// let mut f = ssakit::ir::Function::new("f");
    /// f.reserve_params(41);
    /// assert!(f.params().is_empty());
    /// ```
    pub fn reserve_params(&mut self, n: usize) {
        self.params.reserve_exact(n);
    }

    /// Reserves room for `n` more names of variables and blocks, of
    /// `bytes` bytes in all (one string holds them: a front end that
    /// knows about how many it will add makes it grow once instead of
    /// by doubling).
    ///
    /// ```
    /// use ssakit::ir::{Function, Type};
    /// let mut f = Function::new("f");
    /// f.reserve_names(2, 8);
    /// let (x, e) = (f.new_var("x", Type::I64), f.new_block("e"));
    /// assert_eq!((f.base_name(x), f.block_name(e)), ("x", "e"));
    /// ```
    pub fn reserve_names(&mut self, n: usize, bytes: usize) {
        self.names.spans.reserve_exact(n);
        self.names.text.reserve_exact(bytes);
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
    /// let mut f = ssakit::text::parse_module("function f(c) {\ne:\n    x = 1\n    branch c, a, j\na:\n    x = 2\n    jump j\nj:\n    ret x\n}").unwrap().functions.remove(0);
    /// assert_eq!(f.symbols().num_callees(), 0);
    /// let ext = f.callee("ext");
    /// assert_eq!(f.symbols().callee_name(ext), "ext");
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
        // A table of this function's own is looked up once, by the
        // table's `operator`; a shared one is copied only to add.
        if let Some(own) = Arc::get_mut(&mut self.symbols) {
            return own.operator(name, effects);
        }
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

    /// The operation of the [set](super::Opcode) operator `op` names, if
    /// any.
    ///
    /// ```
    /// use ssakit::ir::{Effects, Function, Opcode};
    /// let mut f = Function::new("f");
    /// let add = f.operator("i64.add", Effects::PURE).unwrap();
    /// let g = f.operator("x86.cpuid", Effects::CALL).unwrap();
    /// assert_eq!((f.opcode(add), f.opcode(g)), (Some(Opcode::I64Add), None));
    /// ```
    #[inline]
    pub fn opcode(&self, op: Operator) -> Option<Opcode> {
        self.symbols.operator_data(op).opcode
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
}

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
