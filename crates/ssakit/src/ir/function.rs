//! Functions and modules.

use super::{Block, Inst, InstData, Terminator, Var};
use crate::entity::EntityVec;

/// A variable: its name, and for an SSA version, where it came from.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct VarData {
    /// The name of an original variable. Empty for an SSA version, whose
    /// name is its origin's plus the version number (see
    /// [`Function::base_name`] and [`VarNames`](super::VarNames)); keeping
    /// it empty saves an allocation per version.
    pub name: Box<str>,
    /// For an SSA version: the variable it is a version of.
    pub origin: Option<Var>,
    /// For an SSA version: its number, from 1. Zero for other variables.
    pub version: u32,
}

/// A basic block: phis, then ordinary instructions, then one terminator.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct BlockData {
    /// The label.
    pub name: Box<str>,
    /// Phi instructions, evaluated simultaneously on entry.
    pub phis: Vec<Inst>,
    /// Ordinary instructions, in order.
    pub insts: Vec<Inst>,
    /// The terminator.
    pub term: Terminator,
}

/// A function: parameters, variables, blocks and instructions.
///
/// Invariants (checked by the parser and [`crate::verify`], assumed by every
/// pass): `layout` lists each block at most once and is non-empty; its first
/// block is the entry; every instruction appears in exactly one block's
/// `phis` or `insts`; terminators name blocks of `layout`.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Function {
    /// The function's name.
    pub name: Box<str>,
    /// Parameters: variables defined on entry, in order.
    pub params: Vec<Var>,
    /// Every variable.
    pub vars: EntityVec<Var, VarData>,
    /// Every block, including any removed from the layout.
    pub blocks: EntityVec<Block, BlockData>,
    /// Every instruction.
    pub insts: EntityVec<Inst, InstData>,
    /// Blocks in program order; `layout[0]` is the entry.
    pub layout: Vec<Block>,
}

impl Function {
    /// An empty function (no blocks yet).
    pub fn new(name: &str) -> Self {
        Function {
            name: name.into(),
            params: Vec::new(),
            vars: EntityVec::new(),
            blocks: EntityVec::new(),
            insts: EntityVec::new(),
            layout: Vec::new(),
        }
    }

    /// The entry block.
    pub fn entry(&self) -> Block {
        self.layout[0]
    }

    /// Creates a variable named `name` (not an SSA version).
    pub fn new_var(&mut self, name: &str) -> Var {
        self.vars.push(VarData {
            name: name.into(),
            origin: None,
            version: 0,
        })
    }

    /// Creates version number `version` of variable `origin`.
    pub fn new_version(&mut self, origin: Var, version: u32) -> Var {
        let origin = self.original(origin);
        self.vars.push(VarData {
            name: Box::default(),
            origin: Some(origin),
            version,
        })
    }

    /// Creates an empty block ending in `ret`, appended to the layout.
    pub fn new_block(&mut self, name: &str) -> Block {
        let b = self.blocks.push(BlockData {
            name: name.into(),
            phis: Vec::new(),
            insts: Vec::new(),
            term: Terminator::Ret(None),
        });
        self.layout.push(b);
        b
    }

    /// Adds an instruction at the end of `block` (a phi goes with the phis).
    pub fn push_inst(&mut self, block: Block, data: InstData) -> Inst {
        let is_phi = data.is_phi();
        let i = self.insts.push(data);
        if is_phi {
            self.blocks[block].phis.push(i);
        } else {
            self.blocks[block].insts.push(i);
        }
        i
    }

    /// The variable whose name is `name` and that is not an SSA version, by
    /// linear search (for tests and the command line, not for passes).
    pub fn var_by_name(&self, name: &str) -> Option<Var> {
        self.vars
            .iter()
            .find(|(_, d)| d.origin.is_none() && &*d.name == name)
            .map(|(v, _)| v)
    }

    /// The block labelled `name`, by linear search.
    pub fn block_by_name(&self, name: &str) -> Option<Block> {
        self.layout
            .iter()
            .copied()
            .find(|&b| &*self.blocks[b].name == name)
    }

    /// The name of `v`'s original variable (without version number).
    pub fn base_name(&self, v: Var) -> &str {
        &self.vars[self.original(v)].name
    }

    /// The original variable of `v`: `v` itself unless it is an SSA version.
    pub fn original(&self, v: Var) -> Var {
        self.vars[v].origin.unwrap_or(v)
    }

    /// Number of instructions in the layout, phis included, terminators
    /// counted one per block.
    pub fn num_insts(&self) -> usize {
        self.layout
            .iter()
            .map(|&b| self.blocks[b].phis.len() + self.blocks[b].insts.len() + 1)
            .sum()
    }
}

/// A module: functions, in order.
#[derive(Clone, PartialEq, Eq, Debug, Default)]
pub struct Module {
    /// The functions.
    pub functions: Vec<Function>,
}

impl Module {
    /// The function named `name`.
    pub fn function(&self, name: &str) -> Option<&Function> {
        self.functions.iter().find(|f| &*f.name == name)
    }

    /// The entry function: `name` if given, else `main` if present, else the
    /// first function.
    pub fn entry_function(&self, name: Option<&str>) -> Option<&Function> {
        match name {
            Some(n) => self.function(n),
            None => self.function("main").or_else(|| self.functions.first()),
        }
    }
}
