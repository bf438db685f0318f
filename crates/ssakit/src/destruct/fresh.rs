//! Fresh variables for the copies that out-of-SSA translation introduces.
//!
//! The chapter's algorithm (section 13.6) asks for "una variable fresca"
//! `ai'` for every phi operand, and sequentialization (13.7) for a fresh
//! temporary per cycle. A fresh variable here is a new *version* of the
//! variable it stands for (`x` gives `x7` when `x1` to `x6` exist), so
//! printed programs stay readable and the fresh variable has the type of
//! the one it stands for; [`VarNames`](crate::ir::VarNames) resolves any
//! clash with an existing name.

use crate::ir::{Function, Var};

/// Hands out new versions of variables, numbered after the highest version
/// each original variable already has.
#[derive(Clone, Debug)]
pub(crate) struct FreshVars {
    /// By original variable: the next unused version number (1 for a
    /// variable without versions, or created after the scan, which may lie
    /// past the end).
    next_version: Vec<u32>,
}

impl FreshVars {
    /// Scans `func`'s variables once to find the versions in use.
    pub(crate) fn new(func: &Function) -> FreshVars {
        let nv = func.num_vars();
        // Every origin is a variable of `func`: one table, no growth.
        let mut next_version = vec![1u32; nv];
        for v in func.vars() {
            let d = func.var(v);
            if let Some(o) = d.origin() {
                let next = &mut next_version[o.index()];
                *next = (*next).max(d.version() + 1);
            }
        }
        FreshVars { next_version }
    }

    /// A new version of `v`'s original variable, of its type.
    pub(crate) fn version_of(&mut self, func: &mut Function, v: Var) -> Var {
        let orig = func.original(v);
        if orig.index() >= self.next_version.len() {
            self.next_version.resize(orig.index() + 1, 1);
        }
        let next = &mut self.next_version[orig.index()];
        let n = *next;
        *next = n + 1;
        func.new_version(orig, n)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ir::Type;

    #[test]
    fn versions_follow_existing_ones() {
        let mut f = Function::new("f");
        let x = f.new_var("x", Type::I64);
        let _x1 = f.new_version(x, 1);
        let x4 = f.new_version(x, 4);
        let mut fresh = FreshVars::new(&f);
        let a = fresh.version_of(&mut f, x4);
        let b = fresh.version_of(&mut f, x);
        assert_eq!(f.var(a).version(), 5);
        assert_eq!(f.var(b).version(), 6);
        assert_eq!(f.var(a).origin(), Some(x));
        // A variable created after the scan.
        let y = f.new_var("y", Type::I64);
        let y1 = fresh.version_of(&mut f, y);
        assert_eq!((f.var(y1).origin(), f.var(y1).version()), (Some(y), 1));
    }

    #[test]
    fn fresh_versions_keep_the_type() {
        let mut f = Function::new("f");
        let d = f.new_var("d", Type::F64);
        let w = f.new_var("w", Type::V128);
        let d1 = f.new_version(d, 1);
        let mut fresh = FreshVars::new(&f);
        let d2 = fresh.version_of(&mut f, d1);
        let w1 = fresh.version_of(&mut f, w);
        assert_eq!((f.var(d2).ty(), f.var(d2).version()), (Type::F64, 2));
        assert_eq!((f.var(w1).ty(), f.var(w1).origin()), (Type::V128, Some(w)));
    }
}
