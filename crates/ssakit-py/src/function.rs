//! The Python `Function`: one ssakit function, immutable (every pass
//! returns a new one), with where its instructions came from when it was
//! lifted, and the tables its questions need made on the first question
//! (printed names, def-use chains, reaching definitions, the address
//! index), so that lifting a thousand functions and reading their phi
//! counts makes no Python object per instruction.

use crate::errors::{ir_error, key_error, value_error};
use pyo3::prelude::*;
use rustc_hash::FxHashMap;
use ssakit::analysis::def_use::{At, DefUse, ReachingDefs};
use ssakit::error::IrError;
use ssakit::ir::{Block, Function, Inst, InstData, Operand, Terminator, Var, VarNames};
use ssakit_wasm::lift::Offsets;
use ssakit_x86::lift::Origins;
use std::sync::{Arc, OnceLock};

/// Where a function came from, for the addresses of its instructions.
#[derive(Clone)]
pub enum Source {
    /// Parsed, built or read from Bril: no addresses.
    Text,
    /// Lifted from an x86-64 ELF: each instruction's machine address.
    X86 {
        /// The side table of the lifter.
        origins: Arc<Origins>,
        /// The function's start address.
        start: u64,
        /// What control-flow recovery found.
        recovery: Recovery,
    },
    /// Lifted from WebAssembly: the function's index in the module and
    /// each instruction's byte offset.
    Wasm {
        /// The function index (imports counted).
        index: u32,
        /// The side table of the lifter.
        offsets: Arc<Offsets>,
    },
    /// Lifted, then renumbered by a pass or destruction: no addresses.
    Renumbered {
        /// The start address of an x86 function.
        start: Option<u64>,
        /// What control-flow recovery found in an x86 function.
        recovery: Option<Recovery>,
        /// The function index of a WebAssembly function.
        index: Option<u32>,
    },
}

/// What control-flow recovery found in a lifted x86 function, as
/// `ssakit x86 stats` counts it.
#[derive(Clone)]
pub struct Recovery {
    /// Machine instructions decoded.
    pub instructions: usize,
    /// Jump tables resolved.
    pub jump_tables: usize,
    /// Calls covered by a landing pad.
    pub invokes: usize,
    /// Where the function was found (`symbol`, `fde`, `entry`, `call`,
    /// `pointer`, `gap`), as `x86 stats --format json`'s `found`; None
    /// without discovery.
    pub found: Option<&'static str>,
    /// Of the instructions decoded, those in cold fragments of other
    /// functions.
    pub fragment_instructions: usize,
    /// The ranges of the extent never decoded.
    pub lost: Arc<[ssakit_x86::lost::LostRange]>,
}

/// The printed name of every value, and back.
pub struct Names {
    pub names: VarNames,
    by_name: FxHashMap<String, Var>,
}

/// The def-use chains and reaching definitions, which borrow the
/// function.
pub struct Queries<'f> {
    pub du: DefUse<'f>,
    pub rd: ReachingDefs<'f>,
}

self_cell::self_cell!(
    /// A function shared with its def-use tables.
    pub struct Tables {
        owner: Arc<Function>,
        #[covariant]
        dependent: Queries,
    }
);

/// A function and what is made of it on demand.
pub struct Inner {
    pub func: Arc<Function>,
    pub source: Source,
    names: OnceLock<Names>,
    tables: OnceLock<Result<Tables, IrError>>,
    /// For lifted x86 code: (address, the point before the first
    /// instruction at it), by address.
    addresses: OnceLock<Vec<(u64, At)>>,
}

/// An ssakit function (see the module documentation).
#[pyclass(name = "Function", module = "ssakit", frozen)]
pub struct PyFunction {
    pub inner: Arc<Inner>,
}

impl PyFunction {
    /// Wraps `func`.
    pub fn new(func: Function, source: Source) -> PyFunction {
        PyFunction {
            inner: Arc::new(Inner {
                func: Arc::new(func),
                source,
                names: OnceLock::new(),
                tables: OnceLock::new(),
                addresses: OnceLock::new(),
            }),
        }
    }

    /// The function.
    pub fn func(&self) -> &Function {
        &self.inner.func
    }

    /// A new function from this one changed by `change`. With
    /// `keeps_insts` (construction: it adds phis and renames in place) it
    /// keeps the addresses; otherwise (the passes and destruction compact
    /// the instruction table, renumbering it) the addresses are dropped.
    pub fn derive(
        &self,
        py: Python<'_>,
        keeps_insts: bool,
        change: impl FnOnce(&mut Function) -> Result<(), IrError> + Send,
    ) -> PyResult<PyFunction> {
        let mut f = (*self.inner.func).clone();
        let r = py.detach(|| change(&mut f));
        r.map_err(|e| ir_error(&e, &f))?;
        Ok(PyFunction::new(f, self.source_after(keeps_insts)))
    }

    /// The source of a function derived from this one.
    pub fn source_after(&self, keeps_insts: bool) -> Source {
        match (&self.inner.source, keeps_insts) {
            (s, true) => s.clone(),
            (
                Source::X86 {
                    start, recovery, ..
                },
                false,
            ) => Source::Renumbered {
                start: Some(*start),
                recovery: Some(recovery.clone()),
                index: None,
            },
            (Source::Wasm { index, .. }, false) => Source::Renumbered {
                start: None,
                recovery: None,
                index: Some(*index),
            },
            (s, false) => s.clone(),
        }
    }

    /// What control-flow recovery found (lifted x86 code).
    pub fn recovery(&self) -> Option<Recovery> {
        match &self.inner.source {
            Source::X86 { recovery, .. } => Some(recovery.clone()),
            Source::Renumbered { recovery, .. } => recovery.clone(),
            _ => None,
        }
    }

    /// The printed names.
    pub fn names(&self) -> &Names {
        self.inner.names.get_or_init(|| {
            let f = self.func();
            let names = VarNames::new(f);
            let by_name = f.vars().map(|v| (names.get(v).to_string(), v)).collect();
            Names { names, by_name }
        })
    }

    /// The printed name of `v`.
    pub fn name(&self, v: Var) -> String {
        self.names().names.get(v).to_string()
    }

    /// An operand as Python sees it: a value's name, an integer, `None`
    /// for `undef`.
    pub fn operand(&self, py: Python<'_>, op: Operand) -> Py<PyAny> {
        match op {
            Operand::Var(v) => self.name(v).into_pyobject(py).unwrap().into_any().unbind(),
            Operand::Const(c) => c.into_pyobject(py).unwrap().into_any().unbind(),
            Operand::Undef => py.None(),
        }
    }

    /// The value printed `name`, else the original variable of base
    /// name `name`.
    pub fn value(&self, name: &str) -> PyResult<Var> {
        if let Some(&v) = self.names().by_name.get(name) {
            return Ok(v);
        }
        self.func().var_by_name(name).ok_or_else(|| {
            key_error(format!(
                "function `{}` has no value `{name}`",
                self.func().name()
            ))
        })
    }

    /// The block named `name`.
    pub fn block(&self, name: &str) -> PyResult<Block> {
        self.func().block_by_name(name).ok_or_else(|| {
            key_error(format!(
                "function `{}` has no block `{name}`",
                self.func().name()
            ))
        })
    }

    /// The def-use tables; an error when the function is not in SSA form.
    pub fn tables(&self) -> PyResult<&Tables> {
        let t = self.inner.tables.get_or_init(|| {
            Tables::try_new(self.inner.func.clone(), |f| {
                let du = DefUse::new(f)?;
                let rd = ReachingDefs::new(f);
                Ok::<_, IrError>(Queries { du, rd })
            })
        });
        t.as_ref().map_err(|e| ir_error(e, self.func()))
    }

    /// The machine address (x86) or byte offset (WebAssembly) of
    /// instruction `i`.
    pub fn inst_address(&self, i: Inst) -> Option<u64> {
        match &self.inner.source {
            Source::X86 { origins, .. } => origins.inst(i).map(|s| s.address),
            Source::Wasm { offsets, .. } => offsets.inst(i),
            Source::Text | Source::Renumbered { .. } => None,
        }
    }

    /// The machine address (x86) or byte offset (WebAssembly) of the
    /// terminator of `b`.
    pub fn term_address(&self, b: Block) -> Option<u64> {
        match &self.inner.source {
            Source::X86 { origins, .. } => origins.term(b).map(|s| s.address),
            Source::Wasm { offsets, .. } => offsets.term(b),
            Source::Text | Source::Renumbered { .. } => None,
        }
    }

    /// The address where block `b` starts (x86 lifted code).
    pub fn block_address(&self, b: Block) -> Option<u64> {
        match &self.inner.source {
            Source::X86 { origins, .. } => origins.block(b),
            _ => None,
        }
    }

    /// The point just before the first instruction at machine address
    /// or byte offset `a` (the end of the block when only its terminator
    /// is there).
    pub fn at_address(&self, a: u64) -> PyResult<At> {
        match self.inner.source {
            Source::Text => {
                return Err(value_error(format!(
                    "function `{}` was not lifted from a binary: give `at` as a block name or (block, index)",
                    self.func().name()
                )))
            }
            Source::Renumbered { .. } => {
                return Err(value_error(format!(
                    "function `{}` has no addresses after a pass or destruction renumbered its instructions: ask the constructed function",
                    self.func().name()
                )))
            }
            _ => {}
        }
        let index = self.inner.addresses.get_or_init(|| {
            let f = self.func();
            let mut v: Vec<(u64, At)> = Vec::new();
            for &b in f.layout() {
                for &i in f.block_insts(b) {
                    if let Some(a) = self.inst_address(i) {
                        v.push((a, At::Before(i)));
                    }
                }
                if let Some(a) = self.term_address(b) {
                    v.push((a, At::End(b)));
                }
            }
            // Stable: the first instruction at an address comes first.
            v.sort_by_key(|&(a, _)| a);
            v
        });
        let k = index.partition_point(|&(x, _)| x < a);
        match index.get(k) {
            Some(&(x, at)) if x == a => Ok(at),
            _ => Err(key_error(format!(
                "function `{}` has no instruction at {a:#x}",
                self.func().name()
            ))),
        }
    }

    /// The position of the ordinary instruction `i` in its block.
    pub fn position(&self, b: Block, i: Inst) -> usize {
        let f = self.func();
        let list = if matches!(f.inst(i), InstData::Phi { .. }) {
            f.block_phis(b)
        } else {
            f.block_insts(b)
        };
        list.iter().position(|&x| x == i).unwrap_or(0)
    }
}

/// What instruction `i` does, in a word: the operator or callee's name,
/// `copy`, `phi`, `print`, `parcopy`, or the arithmetic (`add`, `neg`).
pub fn op_name(f: &Function, i: Inst) -> String {
    match f.inst(i) {
        InstData::Op { op, .. } => f.operator_name(*op).to_string(),
        InstData::Call { callee, .. } => f.callee_name(*callee).to_string(),
        InstData::Copy { .. } => "copy".into(),
        InstData::Phi { .. } => "phi".into(),
        InstData::Print { .. } => "print".into(),
        InstData::ParCopy { .. } => "parcopy".into(),
        InstData::Unary { op, .. } => format!("{op:?}").to_lowercase(),
        InstData::Binary { op, .. } => format!("{op:?}").to_lowercase(),
    }
}

/// The kind of a terminator, in a word.
pub fn term_kind(t: &Terminator) -> &'static str {
    match t {
        Terminator::Jump(_) => "jump",
        Terminator::Branch { .. } => "branch",
        Terminator::Switch { .. } => "switch",
        Terminator::Ret(_) => "ret",
        Terminator::Unreachable => "unreachable",
    }
}
