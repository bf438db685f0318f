//! Printed names of variables.
//!
//! An original variable prints as its name. An SSA version prints like the
//! chapter's figures: the original name followed by the version number
//! (`x1`, `x2`, ...). When that would collide with another variable's printed
//! name (a program that already has a variable `x1`, or versions `x1` of `x`
//! and `1` of a variable named `x1`... ), the version is written
//! `name_N`, then `name_N_2`, `name_N_3`, ... until the name is unused.
//! Original names are claimed first, then versions in variable order, so the
//! scheme is deterministic and never renames an original variable.

use super::{Function, Var};
use crate::entity::EntityVec;
use rustc_hash::FxHashSet as HashSet;

/// The printed name of every variable of a function, collision-free.
#[derive(Clone, Debug)]
pub struct VarNames {
    names: EntityVec<Var, Box<str>>,
}

impl VarNames {
    /// Computes the printed names of `func`'s variables.
    pub fn new(func: &Function) -> VarNames {
        let mut taken: HashSet<Box<str>> =
            HashSet::with_capacity_and_hasher(func.vars.len(), Default::default());
        let mut names: EntityVec<Var, Box<str>> = EntityVec::with_capacity(func.vars.len());
        for (_, d) in func.vars.iter() {
            if d.origin.is_none() {
                taken.insert(d.name.clone());
            }
            names.push(d.name.clone());
        }
        for (v, d) in func.vars.iter() {
            if d.origin.is_none() {
                continue;
            }
            let name = func.base_name(v);
            let mut cand = format!("{name}{}", d.version);
            if taken.contains(cand.as_str()) {
                let base = format!("{name}_{}", d.version);
                cand = base.clone();
                let mut k = 2;
                while taken.contains(cand.as_str()) {
                    cand = format!("{base}_{k}");
                    k += 1;
                }
            }
            let cand: Box<str> = cand.into();
            taken.insert(cand.clone());
            names[v] = cand;
        }
        VarNames { names }
    }

    /// The printed name of `v`.
    pub fn get(&self, v: Var) -> &str {
        &self.names[v]
    }
}

impl std::ops::Index<Var> for VarNames {
    type Output = str;
    fn index(&self, v: Var) -> &str {
        &self.names[v]
    }
}
