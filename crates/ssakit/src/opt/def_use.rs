//! The def-use chains under the names `const_prop` imports; the one
//! implementation is [`crate::analysis::def_use`].

pub(crate) use crate::analysis::def_use::{Chains as DefUse, Def, UseSite};
