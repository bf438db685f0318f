//! Def-use chains and reaching definitions of an SSA function: where each
//! value is defined, where it is read, and which version of a variable
//! reaches a program point.
//!
//! In SSA every variable has exactly one definition and every use is
//! reached by exactly one definition, so the def-use chains of Cytron et al.
//! (1991, section 1) are one definition and one use list per variable. A
//! definition ([`Definition`]) is a parameter, a phi or an ordinary
//! instruction, each with its block; a use ([`Use`]) is an operand of an
//! instruction, a phi operand with the predecessor it flows from, or a
//! block's terminator. [`DefUse`] holds them for one function, built in
//! `O(instructions + operands)`; `const-prop` reads the same tables (the
//! uses linked per variable instead of sorted), and
//! `dce` and `copy-prop` only their definitions (`definitions`: dce walks
//! from uses to definitions, copy-prop lists the phis' reads itself).
//!
//! The *reaching definition* of a variable `x` at a point is the version of
//! `x` the point would read: with the dominance property, the definition of
//! a version of `x` that dominates the point and is dominated by every
//! other such definition (the closest one up the dominator tree). This is
//! the chapter's `updateReachingDef` (section 13.3): follow the chain of
//! `reachingDef` links from the last definition seen until one dominates
//! the point. [`ReachingDefs`] keeps those chains for every variable and
//! answers each question by one binary search and a walk of the chain.
//!
//! # Example
//!
//! ```
//! use ssakit::analysis::def_use::{At, DefUse, Definition, ReachingDefs, Use};
//! use ssakit::construct::{construct, Options};
//! use ssakit::ir::{Operand, VarNames};
//! // x = 1 on one branch, x = 2 on the other, read after the join.
//! let src = "function f(c) {\ne:\n    x = 1\n    branch c, a, j\na:\n    x = 2\n    jump j\nj:\n    print x\n    ret\n}";
//! let mut f = ssakit::text::parse_module(src).unwrap().functions.remove(0);
//! construct(&mut f, &Options::default()).unwrap();
//! let (a, j) = (f.block_by_name("a").unwrap(), f.block_by_name("j").unwrap());
//! let x = f.var_by_name("x").unwrap(); // the original variable
//! let print = f.block_insts(j)[0];
//!
//! // Which version of x does `print x` read? The phi of j.
//! let reaching = ReachingDefs::new(&f);
//! let x3 = reaching.reaching_def(x, At::Before(print)).unwrap();
//! let du = DefUse::new(&f).unwrap();
//! let Some(Definition::Phi { inst: phi, block }) = du.definition(x3) else { panic!() };
//! assert_eq!(block, j);
//! // Its operands, by predecessor: from a comes x2, the version that
//! // reaches the end of a.
//! let x2 = reaching.reaching_def(x, At::End(a)).unwrap();
//! assert_eq!(VarNames::new(&f)[x2], *"x2");
//! let from_a = f.phi_args(phi).iter().find(|arg| arg.block == a).unwrap().value;
//! assert_eq!(from_a, Operand::Var(x2));
//! // x2 is read by that phi only, on the edge from a.
//! let uses: Vec<Use> = du.uses(x2).collect();
//! assert_eq!(uses, [Use::Phi { inst: phi, block: j, pred: a, index: 1 }]);
//! ```

use super::DomTree;
use crate::entity::{Csr, EntityVec};
use crate::error::IrError;
use crate::ir::{Block, Cfg, Function, Inst, InstData, Operand, PhiArg, Var, VarNames};

// -------------------------------------------------------------------
// The tables, shared with the optimisations.

/// Where a variable is defined, as the tables keep it.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) enum Def {
    /// No definition in the layout.
    None,
    /// A parameter, defined on entry.
    Param,
    /// Instruction `inst`; for an instruction defining several variables (a
    /// parallel copy, a call or an operation with several results), the
    /// variable's position `slot` among them (0 for every other
    /// instruction).
    Inst {
        /// The defining instruction.
        inst: Inst,
        /// Index of the variable among the instruction's definitions.
        slot: u32,
    },
}

/// One use of a variable, as the tables keep it: an operand of an
/// instruction (phis included: a phi operand is listed once per
/// occurrence) or of a block's terminator.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) enum UseSite {
    /// Operand number `k` of this instruction, counted as
    /// [`Function::for_each_operand`] visits them (for a phi, its `k`-th
    /// operand; for a parallel copy, the source of its `k`-th pair).
    Inst(Inst, u32),
    /// An operand of this block's terminator.
    Term(Block),
}

/// Definition and uses of every variable of a function, in dense side
/// tables: what [`DefUse`] shows and the optimisations read.
///
/// Invariants: `def[v]` is the unique definition of `v` in the layout;
/// `uses.of(v)` lists every operand reading `v`, in layout order (an
/// instruction reading `v` twice appears twice). Only blocks of the layout
/// are looked at: a block dropped from the layout never runs and is
/// ignored, whatever it still lists.
#[derive(Clone, Debug)]
pub(crate) struct Chains {
    /// Definition of each variable.
    pub(crate) def: EntityVec<Var, Def>,
    uses: Csr<Var, UseSite>,
}

/// The definition of each variable of `func`, without the use lists:
/// the half of [`Chains`] that `dce` and `copy-prop` read, in
/// `O(variables + instructions)`.
///
/// # Errors
/// A variable defined twice (the single-assignment property of SSA is
/// the one precondition every optimisation relies on).
pub(crate) fn definitions(func: &Function) -> Result<EntityVec<Var, Def>, IrError> {
    let mut def = Defs::new(func)?;
    for &b in func.layout() {
        for &i in func.block_phis(b).iter().chain(func.block_insts(b)) {
            if let Some(v) = def.record(func, i) {
                return Err(Defs::twice(func, v, Some(b), Some(i)));
            }
        }
    }
    Ok(def.def)
}

/// The definition table as a walk of the layout fills it, checking the
/// single-assignment property on the way.
struct Defs {
    def: EntityVec<Var, Def>,
    /// Whether a parallel copy of no pairs was met (one defines nothing).
    empty_par_copy: bool,
}

impl Defs {
    /// The parameters' definitions.
    fn new(func: &Function) -> Result<Defs, IrError> {
        let mut def: EntityVec<Var, Def> = EntityVec::filled(func.num_vars(), Def::None);
        for &p in func.params() {
            if def[p] != Def::None {
                return Err(Defs::twice(func, p, None, None));
            }
            def[p] = Def::Param;
        }
        Ok(Defs {
            def,
            empty_par_copy: false,
        })
    }

    /// Records the definitions of instruction `i`; returns a variable it
    /// defines that was defined before, if any.
    #[inline(always)]
    fn record(&mut self, func: &Function, i: Inst) -> Option<Var> {
        let def = &mut self.def;
        let mut err = None;
        let mut define = |v: Var, slot: usize| {
            if def[v] != Def::None {
                err = Some(v);
            }
            def[v] = Def::Inst {
                inst: i,
                slot: slot as u32,
            };
        };
        // What `Function::for_each_def` visits, spelled out: this runs
        // for every instruction of every pass.
        match func.inst(i) {
            InstData::Copy { dst, .. }
            | InstData::Unary { dst, .. }
            | InstData::Binary { dst, .. }
            | InstData::Phi { dst, .. } => define(*dst, 0),
            InstData::Call { results, .. } | InstData::Op { results, .. } => {
                for (slot, &v) in results.as_slice(func).iter().enumerate() {
                    define(v, slot);
                }
            }
            InstData::ParCopy { copies } => {
                for (slot, &(v, _)) in copies.as_slice(func).iter().enumerate() {
                    define(v, slot);
                }
                if copies.is_empty() {
                    self.empty_par_copy = true;
                }
            }
            InstData::Print { .. } => {}
        }
        err
    }

    /// One walk of the layout: records every instruction's definitions
    /// and hands each use to `add`, in layout order (an instruction's
    /// operands in order, then its block's terminator's uses).
    ///
    /// # Errors
    /// A variable defined twice, at its second definition.
    #[inline(always)]
    fn walk(&mut self, func: &Function, mut add: impl FnMut(Var, UseSite)) -> Result<(), IrError> {
        for &b in func.layout() {
            for &i in func.block_phis(b).iter().chain(func.block_insts(b)) {
                if let Some(v) = self.record(func, i) {
                    return Err(Defs::twice(func, v, Some(b), Some(i)));
                }
                let mut k = 0;
                func.for_each_operand(i, |o| {
                    if let Operand::Var(v) = o {
                        add(v, UseSite::Inst(i, k));
                    }
                    k += 1;
                });
            }
            func.for_each_term_use(b, |v| add(v, UseSite::Term(b)));
        }
        Ok(())
    }

    /// The error for `v` defined twice.
    #[cold]
    fn twice(func: &Function, v: Var, b: Option<Block>, i: Option<Inst>) -> IrError {
        let names = VarNames::new(func);
        IrError::new(
            func,
            b,
            i,
            format!("`{}` is assigned more than once: not SSA", &names[v]),
        )
    }
}

impl Chains {
    /// Computes the definitions and uses of `func`'s variables, in
    /// `O(variables + instructions + operands)`.
    ///
    /// One walk of the layout records the definitions and lists every use
    /// as a (variable, site) pair in layout order; a counting sort by
    /// variable, stable, then makes the use lists (each in layout order).
    ///
    /// # Errors
    /// A variable defined twice (the single-assignment property of SSA is
    /// the one precondition every optimisation relies on).
    pub(crate) fn new(func: &Function) -> Result<Chains, IrError> {
        let mut def = Defs::new(func)?;
        // About two operands per instruction: the pairs grow once or twice.
        let mut pairs: Vec<(Var, UseSite)> =
            Vec::with_capacity(2 * func.inst_slots() + func.layout().len());
        def.walk(func, |v, s| pairs.push((v, s)))?;
        let uses = Csr::from_pairs(func.num_vars(), pairs);
        Ok(Chains { def: def.def, uses })
    }

    /// Every use of `v`.
    #[inline]
    pub(crate) fn uses(&self, v: Var) -> &[UseSite] {
        self.uses.of(v)
    }
}

/// Definition and uses of every variable, like [`Chains`], with the uses
/// of each variable in a linked list, latest first (reverse layout order):
/// one walk of the layout builds it, with no sort of the uses by variable.
/// For a reader that visits the uses of a variable in any order (SCCP).
///
/// Invariants: `def` as in [`Chains`]; the uses of `v` are
/// `site[head[v]]`, `site[next[head[v]]]`, ... until
/// [`LinkedChains::END`], each operand reading `v` once.
pub(crate) struct LinkedChains {
    /// Definition of each variable.
    pub(crate) def: EntityVec<Var, Def>,
    /// The latest use of each variable, or [`LinkedChains::END`].
    head: EntityVec<Var, u32>,
    /// Each use, with the use of the same variable before it.
    site: Vec<(UseSite, u32)>,
    /// Whether the layout holds a parallel copy of no pairs (it defines
    /// and reads nothing, so no table here leads to it).
    pub(crate) empty_par_copy: bool,
}

impl LinkedChains {
    /// The end of a list of uses.
    const END: u32 = u32::MAX;

    /// Computes the definitions and uses of `func`'s variables in one walk
    /// of the layout, in `O(variables + instructions + operands)`.
    ///
    /// # Errors
    /// A variable defined twice (the single-assignment property of SSA is
    /// the one precondition every optimisation relies on).
    pub(crate) fn new(func: &Function) -> Result<LinkedChains, IrError> {
        let mut def = Defs::new(func)?;
        let mut head: EntityVec<Var, u32> = EntityVec::filled(func.num_vars(), Self::END);
        // About two operands per instruction: the sites grow once or twice.
        let mut site: Vec<(UseSite, u32)> =
            Vec::with_capacity(2 * func.inst_slots() + func.layout().len());
        let mut add = |v: Var, s: UseSite| {
            site.push((s, head[v]));
            head[v] = (site.len() - 1) as u32;
        };
        def.walk(func, &mut add)?;
        Ok(LinkedChains {
            def: def.def,
            head,
            site,
            empty_par_copy: def.empty_par_copy,
        })
    }

    /// Every use of `v`, latest first.
    #[inline]
    pub(crate) fn uses(&self, v: Var) -> impl Iterator<Item = UseSite> + '_ {
        let mut u = self.head[v];
        std::iter::from_fn(move || {
            if u == Self::END {
                return None;
            }
            let (s, next) = self.site[u as usize];
            u = next;
            Some(s)
        })
    }
}

// -------------------------------------------------------------------
// The public view.

/// Where a value is defined: a parameter, a phi or an ordinary instruction,
/// with its block.
///
/// ```
/// use ssakit::analysis::def_use::{DefUse, Definition};
/// let f = ssakit::text::parse_module("function f(n) {\ne:\n    m = n * 2\n    ret m\n}").unwrap().functions.remove(0);
/// let du = DefUse::new(&f).unwrap();
/// let (n, m) = (f.var_by_name("n").unwrap(), f.var_by_name("m").unwrap());
/// assert_eq!(du.definition(n), Some(Definition::Param { block: f.entry(), index: 0 }));
/// let def = du.definition(m).unwrap();
/// assert_eq!(def, Definition::Inst { inst: f.block_insts(f.entry())[0], block: f.entry(), result: 0 });
/// assert_eq!(def.block(), f.entry());
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Definition {
    /// Parameter number `index`, defined on entry to `block`, the entry
    /// block.
    Param {
        /// The entry block.
        block: Block,
        /// The position among the function's parameters.
        index: u32,
    },
    /// The phi `inst` of `block`, defined on entry to the block (all the
    /// block's phis at once).
    Phi {
        /// The phi.
        inst: Inst,
        /// Its block.
        block: Block,
    },
    /// Result number `result` of the ordinary instruction `inst` of
    /// `block` (0 but for a parallel copy, where it is the pair, and calls
    /// and operations with several results).
    Inst {
        /// The defining instruction.
        inst: Inst,
        /// Its block.
        block: Block,
        /// The position of the value among the instruction's results.
        result: u32,
    },
}

impl Definition {
    /// The block of the definition.
    ///
    /// ```
    /// use ssakit::analysis::def_use::DefUse;
    /// let f = ssakit::text::parse_module("function f() {\ne:\n    jump b\nb:\n    x = 1\n    ret x\n}").unwrap().functions.remove(0);
    /// let du = DefUse::new(&f).unwrap();
    /// let x = f.var_by_name("x").unwrap();
    /// assert_eq!(f.block_name(du.definition(x).unwrap().block()), "b");
    /// ```
    pub fn block(self) -> Block {
        match self {
            Definition::Param { block, .. }
            | Definition::Phi { block, .. }
            | Definition::Inst { block, .. } => block,
        }
    }
}

/// One read of a value: an operand of an ordinary instruction, an operand
/// of a phi (read at the end of the predecessor it flows from), or the
/// operand of a block's terminator.
///
/// ```
/// use ssakit::analysis::def_use::{DefUse, Use};
/// let src = "function f(a) {\ne:\n    b = a + a\n    branch a, t, u\nu:\n    jump t\nt:\n    c = phi(e: a, u: b)\n    ret c\n}";
/// let f = ssakit::text::parse_module(src).unwrap().functions.remove(0);
/// let du = DefUse::new(&f).unwrap();
/// let (e, t) = (f.entry(), f.block_by_name("t").unwrap());
/// let (add, phi) = (f.block_insts(e)[0], f.block_phis(t)[0]);
/// let a = f.params()[0];
/// let uses: Vec<Use> = du.uses(a).collect();
/// assert_eq!(uses, [
///     Use::Operand { inst: add, block: e, index: 0 },
///     Use::Operand { inst: add, block: e, index: 1 },
///     Use::Term { block: e },
///     Use::Phi { inst: phi, block: t, pred: e, index: 0 },
/// ]);
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Use {
    /// Operand number `index` of the ordinary instruction `inst` of
    /// `block`, counted as [`Function::for_each_operand`] visits them (for
    /// a parallel copy, the source of pair `index`).
    Operand {
        /// The instruction.
        inst: Inst,
        /// Its block.
        block: Block,
        /// The position of the operand.
        index: u32,
    },
    /// Operand number `index` of the phi `inst` of `block`: the value that
    /// flows in along the edge from `pred`.
    Phi {
        /// The phi.
        inst: Inst,
        /// Its block.
        block: Block,
        /// The predecessor the operand flows from (where it is read).
        pred: Block,
        /// The position of the operand among the phi's.
        index: u32,
    },
    /// The terminator of `block` (a branch or switch condition, a returned
    /// value).
    Term {
        /// The block.
        block: Block,
    },
}

/// The definition and uses of every value of a function in SSA form (see
/// the [module documentation](self)).
///
/// Built in `O(variables + instructions + operands)` (a phi with 100,000
/// operands costs its 100,000 uses), in two dense tables indexed by
/// [`Var`]; every query is `O(1)` and iterating uses allocates nothing.
/// Only the blocks of the layout are looked at.
///
/// ```
/// use ssakit::analysis::def_use::DefUse;
/// let src = "function f(n) {\ne:\n    m = n * 2\n    k = m + n\n    ret k\n}";
/// let f = ssakit::text::parse_module(src).unwrap().functions.remove(0);
/// let du = DefUse::new(&f).unwrap();
/// // Values nothing reads:
/// let unused: Vec<&str> = f.vars().filter(|&v| du.uses(v).len() == 0).map(|v| f.base_name(v)).collect();
/// assert!(unused.is_empty());
/// assert_eq!(du.uses(f.params()[0]).len(), 2);
/// ```
#[derive(Clone, Debug)]
pub struct DefUse<'f> {
    func: &'f Function,
    chains: Chains,
}

impl<'f> DefUse<'f> {
    /// The definitions and uses of `func`'s variables.
    ///
    /// # Errors
    /// A variable defined twice (the function is not in SSA form).
    ///
    /// ```
    /// use ssakit::analysis::def_use::DefUse;
    /// let src = "function f() {\ne:\n    x = 1\n    x = 2\n    ret x\n}";
    /// let f = ssakit::text::parse_module(src).unwrap().functions.remove(0);
    /// let err = DefUse::new(&f).unwrap_err();
    /// assert!(err.to_string().contains("`x` is assigned more than once"));
    /// ```
    pub fn new(func: &'f Function) -> Result<DefUse<'f>, IrError> {
        Ok(DefUse {
            func,
            chains: Chains::new(func)?,
        })
    }

    /// The function the chains describe.
    ///
    /// ```
    /// use ssakit::analysis::def_use::DefUse;
    /// let f = ssakit::text::parse_module("function g() {\ne:\n    ret\n}").unwrap().functions.remove(0);
    /// assert_eq!(DefUse::new(&f).unwrap().function().name(), "g");
    /// ```
    pub fn function(&self) -> &'f Function {
        self.func
    }

    /// Where `v` is defined; `None` when nothing in the layout defines it
    /// (an original variable after construction, or a variable of a block
    /// dropped from the layout). `O(1)`, but `O(parameters)` for a
    /// parameter (to give its index).
    ///
    /// ```
    /// use ssakit::analysis::def_use::{DefUse, Definition};
    /// use ssakit::construct::{construct, Options};
    /// let src = "function f(c) {\ne:\n    x = 1\n    branch c, a, j\na:\n    x = 2\n    jump j\nj:\n    ret x\n}";
    /// let mut f = ssakit::text::parse_module(src).unwrap().functions.remove(0);
    /// construct(&mut f, &Options::default()).unwrap();
    /// let du = DefUse::new(&f).unwrap();
    /// // The original `x` is no longer defined: its versions are.
    /// assert_eq!(du.definition(f.var_by_name("x").unwrap()), None);
    /// let j = f.block_by_name("j").unwrap();
    /// let x3 = f.def(f.block_phis(j)[0]).unwrap();
    /// assert!(matches!(du.definition(x3), Some(Definition::Phi { block, .. }) if block == j));
    /// ```
    pub fn definition(&self, v: Var) -> Option<Definition> {
        let func = self.func;
        match self.chains.def[v] {
            Def::None => None,
            Def::Param => {
                let index = func.params().iter().position(|&p| p == v)?;
                Some(Definition::Param {
                    block: func.entry(),
                    index: index as u32,
                })
            }
            Def::Inst { inst, slot } => {
                let block = func.inst_block(inst)?;
                Some(if func.inst(inst).is_phi() {
                    Definition::Phi { inst, block }
                } else {
                    Definition::Inst {
                        inst,
                        block,
                        result: slot,
                    }
                })
            }
        }
    }

    /// Every read of `v`, in layout order: block by block, the phis, the
    /// ordinary instructions, then the terminator (an instruction reading
    /// `v` twice appears twice). Allocates nothing; its length is known.
    ///
    /// ```
    /// use ssakit::analysis::def_use::{DefUse, Use};
    /// let f = ssakit::text::parse_module("function f(n) {\ne:\n    print n\n    ret n\n}").unwrap().functions.remove(0);
    /// let du = DefUse::new(&f).unwrap();
    /// let e = f.entry();
    /// let mut uses = du.uses(f.params()[0]);
    /// assert_eq!(uses.len(), 2);
    /// assert_eq!(uses.next(), Some(Use::Operand { inst: f.block_insts(e)[0], block: e, index: 0 }));
    /// assert_eq!(uses.next(), Some(Use::Term { block: e }));
    /// ```
    pub fn uses(&self, v: Var) -> Uses<'_> {
        Uses {
            func: self.func,
            sites: self.chains.uses(v).iter(),
        }
    }

    /// The phis of block `b` with their operands, each labelled by the
    /// predecessor it flows from: `(defined value, operands)`.
    ///
    /// ```
    /// use ssakit::analysis::def_use::DefUse;
    /// use ssakit::ir::Operand;
    /// let src = "function f(c) {\ne:\n    branch c, a, j\na:\n    jump j\nj:\n    x = phi(e: 1, a: 2)\n    ret x\n}";
    /// let f = ssakit::text::parse_module(src).unwrap().functions.remove(0);
    /// let du = DefUse::new(&f).unwrap();
    /// let j = f.block_by_name("j").unwrap();
    /// for (x, args) in du.phis(j) {
    ///     let from: Vec<(&str, Operand)> = args.iter().map(|a| (f.block_name(a.block), a.value)).collect();
    ///     assert_eq!((f.base_name(x), from), ("x", vec![("e", Operand::Const(1)), ("a", Operand::Const(2))]));
    /// }
    /// ```
    pub fn phis(&self, b: Block) -> impl ExactSizeIterator<Item = (Var, &'f [PhiArg])> + 'f {
        let func = self.func;
        func.block_phis(b).iter().map(move |&i| match func.inst(i) {
            InstData::Phi { dst, args } => (*dst, args.as_slice(func)),
            _ => unreachable!("a block's phi list holds phis"),
        })
    }
}

/// The uses of one value, from [`DefUse::uses`].
///
/// ```
/// use ssakit::analysis::def_use::{DefUse, Use};
/// let f = ssakit::text::parse_module("function f(n) {\ne:\n    ret n\n}").unwrap().functions.remove(0);
/// let du = DefUse::new(&f).unwrap();
/// let blocks: Vec<_> = du.uses(f.params()[0]).map(|u| match u {
///     Use::Operand { block, .. } | Use::Phi { block, .. } | Use::Term { block } => block,
/// }).collect();
/// assert_eq!(blocks, [f.entry()]);
/// ```
#[derive(Clone, Debug)]
pub struct Uses<'a> {
    func: &'a Function,
    sites: std::slice::Iter<'a, UseSite>,
}

impl Iterator for Uses<'_> {
    type Item = Use;

    #[inline]
    fn next(&mut self) -> Option<Use> {
        let func = self.func;
        self.sites.next().map(|&site| match site {
            UseSite::Term(block) => Use::Term { block },
            UseSite::Inst(inst, index) => {
                let block = func.inst_block(inst).expect("a use is listed");
                match func.inst(inst) {
                    InstData::Phi { args, .. } => Use::Phi {
                        inst,
                        block,
                        pred: args.as_slice(func)[index as usize].block,
                        index,
                    },
                    _ => Use::Operand { inst, block, index },
                }
            }
        })
    }

    #[inline]
    fn size_hint(&self) -> (usize, Option<usize>) {
        self.sites.size_hint()
    }
}

impl ExactSizeIterator for Uses<'_> {}

// -------------------------------------------------------------------
// Reaching definitions.

/// A program point for [`ReachingDefs::reaching_def`].
///
/// ```
/// use ssakit::analysis::def_use::At;
/// let f = ssakit::text::parse_module("function f() {\ne:\n    x = 1\n    ret x\n}").unwrap().functions.remove(0);
/// let here = At::Before(f.block_insts(f.entry())[0]);
/// assert_ne!(here, At::End(f.entry()));
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum At {
    /// Just before an instruction, where it reads its operands. Before a
    /// phi is the entry of its block, before any of its phis.
    Before(Inst),
    /// The end of a block, after its last instruction: where its
    /// terminator and the phis of its successors read their operands.
    End(Block),
}

/// One definition of a version of a variable, in [`ReachingDefs`].
#[derive(Clone, Copy, Debug)]
struct Entry {
    /// The version defined.
    var: Var,
    block: Block,
    /// The preorder number of `block` in the dominator tree.
    pre: u32,
    /// The position in the block: 0 for phis and parameters, `k + 1` for
    /// the ordinary instruction `k`.
    pos: u32,
    /// The chapter's `reachingDef` of `var`: the position, in the same
    /// list, of the definition that reaches just before this one (the
    /// previous one of the block, or the last one of the closest dominating
    /// block defining a version).
    prev: Option<u32>,
}

/// The reaching definition of any variable at any point of an SSA function
/// (see the [module documentation](self)).
///
/// # Preconditions
/// The function is valid SSA with the dominance property (what
/// [`crate::verify::verify`] checks): every use is dominated by its
/// definition. The answer is then the version any use of the variable at
/// that point reads. In minimal SSA, it is also the last definition of a
/// version on every path from the entry to the point; in pruned or
/// semi-pruned SSA, where a variable is dead the phi that would join its
/// versions may be missing, and other versions can come last on some paths
/// (no use can read them there).
///
/// Built in `O(variables + instructions + blocks + edges)` (it computes the
/// dominator tree); each question costs a binary search among the
/// variable's definitions and a walk up its `reachingDef` chain.
///
/// ```
/// use ssakit::analysis::def_use::{At, ReachingDefs};
/// use ssakit::construct::{construct, Options};
/// let src = "function f(n) {\ne:\n    i = 0\n    jump h\nh:\n    c = i < n\n    branch c, b, x\nb:\n    i = i + 1\n    jump h\nx:\n    ret i\n}";
/// let mut f = ssakit::text::parse_module(src).unwrap().functions.remove(0);
/// construct(&mut f, &Options::default()).unwrap();
/// let rd = ReachingDefs::new(&f);
/// let i = f.var_by_name("i").unwrap();
/// let at = |b: &str| At::End(f.block_by_name(b).unwrap());
/// let names = ssakit::ir::VarNames::new(&f);
/// let name = |v| names.get(v);
/// // i1 = 0 in e, i2 = phi in h, i3 = i2 + 1 in b.
/// assert_eq!(name(rd.reaching_def(i, at("e")).unwrap()), "i1");
/// assert_eq!(name(rd.reaching_def(i, at("x")).unwrap()), "i2");
/// assert_eq!(name(rd.reaching_def(i, at("b")).unwrap()), "i3");
/// ```
#[derive(Debug)]
pub struct ReachingDefs<'f> {
    func: &'f Function,
    dt: DomTree,
    /// The position of each listed instruction in its block (as in
    /// [`Entry::pos`]).
    pos: EntityVec<Inst, u32>,
    /// By original variable: the definitions of its versions, in dominator
    /// tree preorder of their blocks, then by position.
    defs: Csr<Var, Entry>,
}

impl<'f> ReachingDefs<'f> {
    /// The definitions of every variable of `func`, grouped by original
    /// variable, with their `reachingDef` chains.
    ///
    /// # Panics
    /// If the layout is empty (the function has no entry).
    ///
    /// ```
    /// use ssakit::analysis::def_use::{At, ReachingDefs};
    /// let f = ssakit::text::parse_module("function f(a) {\ne:\n    b = a + 1\n    ret b\n}").unwrap().functions.remove(0);
    /// let rd = ReachingDefs::new(&f);
    /// let b = f.var_by_name("b").unwrap();
    /// assert_eq!(rd.reaching_def(b, At::End(f.entry())), Some(b));
    /// ```
    pub fn new(func: &'f Function) -> ReachingDefs<'f> {
        let cfg = Cfg::new(func);
        let dt = DomTree::new(&cfg);
        let mut pos: EntityVec<Inst, u32> = EntityVec::filled(func.inst_slots(), 0);
        for &b in func.layout() {
            for (k, &i) in func.block_insts(b).iter().enumerate() {
                pos[i] = k as u32 + 1;
            }
        }
        let mut defs = Csr::build(func.num_vars(), |emit| {
            let mut push = |var: Var, block: Block, pre: u32, pos: u32| {
                let entry = Entry {
                    var,
                    block,
                    pre,
                    pos,
                    prev: None,
                };
                emit.push(func.original(var), entry)
            };
            for &p in func.params() {
                push(p, func.entry(), 0, 0);
            }
            for b in dt.preorder() {
                let pre = dt.pre_number(b).expect("preorder lists reachable blocks");
                for i in func.block_all_insts(b) {
                    func.for_each_def(i, |v| push(v, b, pre, pos[i]));
                }
            }
        });
        // The chains: in preorder, a stack holds the definitions whose
        // blocks dominate the current one, the closest on top.
        let mut stack: Vec<u32> = Vec::new();
        for x in func.vars() {
            let list = defs.of_mut(x);
            stack.clear();
            for k in 0..list.len() {
                let b = list[k].block;
                while let Some(&t) = stack.last() {
                    if dt.dominates(list[t as usize].block, b) {
                        break;
                    }
                    stack.pop();
                }
                list[k].prev = stack.last().copied();
                stack.push(k as u32);
            }
        }
        ReachingDefs {
            func,
            dt,
            pos,
            defs,
        }
    }

    /// The version of `var` that reaches `at`: the definition of a version
    /// of `var`'s original variable (`var` itself may be the original,
    /// found by [`Function::var_by_name`], or any of its versions) that
    /// dominates the point, closest to it; `None` for ⊥, where no
    /// definition dominates the point (reading `var` there reads an
    /// undefined value), and for a point in a block unreachable from the
    /// entry or an instruction removed from its block.
    ///
    /// Definitions at the point itself do not reach it: before an
    /// instruction, its own results are not yet defined.
    ///
    /// ```
    /// use ssakit::analysis::def_use::{At, ReachingDefs};
    /// let src = "function f() {\ne:\n    print x\n    x = 1\n    x2 = x + 1\n    ret x2\n}";
    /// let f = ssakit::text::parse_module(src).unwrap().functions.remove(0);
    /// let rd = ReachingDefs::new(&f);
    /// let x = f.var_by_name("x").unwrap();
    /// let insts = f.block_insts(f.entry());
    /// assert_eq!(rd.reaching_def(x, At::Before(insts[0])), None); // ⊥
    /// assert_eq!(rd.reaching_def(x, At::Before(insts[1])), None); // not yet
    /// assert_eq!(rd.reaching_def(x, At::Before(insts[2])), Some(x));
    /// ```
    pub fn reaching_def(&self, var: Var, at: At) -> Option<Var> {
        let func = self.func;
        let (b, pos) = match at {
            At::Before(i) => (func.inst_block(i)?, self.pos[i]),
            At::End(b) => (b, u32::MAX),
        };
        let pre = self.dt.pre_number(b)?;
        let list = self.defs.of(func.original(var));
        // The last definition before the point in (preorder, position)
        // order; the closest dominating one is on its chain.
        let n = list.partition_point(|e| (e.pre, e.pos) < (pre, pos));
        let mut k = n.checked_sub(1)?;
        loop {
            let e = list[k];
            if e.block == b || self.dt.dominates(e.block, b) {
                return Some(e.var);
            }
            k = e.prev? as usize;
        }
    }

    /// The dominator tree the answers come from.
    ///
    /// ```
    /// use ssakit::analysis::def_use::ReachingDefs;
    /// let f = ssakit::text::parse_module("function f() {\ne:\n    jump b\nb:\n    ret\n}").unwrap().functions.remove(0);
    /// let rd = ReachingDefs::new(&f);
    /// assert_eq!(rd.dom_tree().idom(f.block_by_name("b").unwrap()), Some(f.entry()));
    /// ```
    pub fn dom_tree(&self) -> &DomTree {
        &self.dt
    }
}
