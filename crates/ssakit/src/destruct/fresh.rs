//! Fresh variables for the copies that out-of-SSA translation introduces.
//!
//! The chapter's algorithm (section 13.6) asks for "una variable fresca"
//! `ai'` for every phi operand, and sequentialization (13.7) for a fresh
//! temporary per cycle. A fresh variable here is a new *version* of the
//! variable it stands for (`x` gives `x7` when `x1` to `x6` exist), so
//! printed programs stay readable; [`VarNames`](crate::ir::VarNames)
//! resolves any clash with an existing name.

use crate::entity::EntityVec;
use crate::ir::{Function, Var};

/// Hands out new versions of variables, numbered after the highest version
/// each original variable already has.
#[derive(Clone, Debug)]
pub struct FreshVars {
    /// By original variable: the next unused version number.
    next_version: EntityVec<Var, u32>,
}

impl FreshVars {
    /// Scans `func`'s variables once to find the versions in use.
    pub fn new(func: &Function) -> FreshVars {
        let mut next_version = EntityVec::filled(func.vars.len(), 1u32);
        for (_, d) in func.vars.iter() {
            if let Some(o) = d.origin {
                next_version[o] = next_version[o].max(d.version + 1);
            }
        }
        FreshVars { next_version }
    }

    /// A new version of `v`'s original variable.
    pub fn version_of(&mut self, func: &mut Function, v: Var) -> Var {
        let orig = func.original(v);
        self.next_version.ensure(orig, 1);
        let n = self.next_version[orig];
        self.next_version[orig] = n + 1;
        func.new_version(orig, n)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn versions_follow_existing_ones() {
        let mut f = Function::new("f");
        let x = f.new_var("x");
        let _x1 = f.new_version(x, 1);
        let x4 = f.new_version(x, 4);
        let mut fresh = FreshVars::new(&f);
        let a = fresh.version_of(&mut f, x4);
        let b = fresh.version_of(&mut f, x);
        assert_eq!(f.vars[a].version, 5);
        assert_eq!(f.vars[b].version, 6);
        assert_eq!(f.vars[a].origin, Some(x));
        // A variable created after the scan.
        let y = f.new_var("y");
        let y1 = fresh.version_of(&mut f, y);
        assert_eq!((f.vars[y1].origin, f.vars[y1].version), (Some(y), 1));
    }
}
