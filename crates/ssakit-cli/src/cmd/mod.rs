//! One module per subcommand.

pub mod fmt;
