//! The keyword arguments of construction (section 13.3: `flavor`,
//! `undef`, `renaming`, `idf`) and of the passes (a comma-separated
//! string or a list of names) as the library's options, a bad value a
//! `ValueError` naming the values it takes.

use crate::errors::value_error;
use pyo3::prelude::*;
use ssakit::construct::{self, Flavor, Idf, Renaming, UndefMode};
use ssakit::opt::Pass;

/// The construction options of the keyword arguments.
pub fn construct_options(
    flavor: &str,
    undef: &str,
    renaming: &str,
    idf: &str,
) -> PyResult<construct::Options> {
    let flavor = match flavor {
        "minimal" => Flavor::Minimal,
        "semi-pruned" | "semi_pruned" => Flavor::SemiPruned,
        "pruned" => Flavor::Pruned,
        _ => {
            return Err(value_error(format!(
                "flavor `{flavor}`: minimal, semi-pruned or pruned"
            )))
        }
    };
    let undef = match undef {
        "operand" => UndefMode::Operand,
        "entry" => UndefMode::EntryDef,
        "local" => UndefMode::Local,
        _ => {
            return Err(value_error(format!(
                "undef `{undef}`: operand, entry or local"
            )))
        }
    };
    let renaming = match renaming {
        "reaching-def" | "reaching_def" => Renaming::ReachingDef,
        "stacks" => Renaming::Stacks,
        _ => {
            return Err(value_error(format!(
                "renaming `{renaming}`: reaching-def or stacks"
            )))
        }
    };
    let idf = match idf {
        "linear" => Idf::Linear,
        "worklist" => Idf::Worklist,
        _ => return Err(value_error(format!("idf `{idf}`: linear or worklist"))),
    };
    Ok(construct::Options {
        idf,
        flavor,
        undef,
        renaming,
    })
}

/// The flavour named `name` (for the lifters' `construct=`).
pub fn flavor_options(name: &str) -> PyResult<construct::Options> {
    construct_options(name, "operand", "reaching-def", "linear")
}

/// Passes from a comma-separated string or a list of names.
pub fn passes(spec: &Bound<'_, PyAny>) -> PyResult<Vec<Pass>> {
    let list: String = match spec.extract::<String>() {
        Ok(s) => s,
        Err(_) => spec.extract::<Vec<String>>()?.join(","),
    };
    Pass::parse(&list).map_err(|e| value_error(e.message))
}
