//! One module per subcommand.

pub mod fmt;
pub mod gen;
