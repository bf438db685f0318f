//! Exit codes, one list for the whole tool, and the failure that carries
//! one up to `main`.

/// A failure that ends the command with exit code `.0`: its message is
/// already printed.
#[derive(Debug)]
pub struct Failed(pub i32);

/// Bad input or arguments: a parse error, invalid SSA, a usage error, or
/// output that could not be written.
pub const INPUT: i32 = 1;
/// A runtime error of the interpreted program (`run`).
pub const RUNTIME: i32 = 2;
/// An internal error: a pass produced invalid SSA (a bug in ssakit).
pub const INTERNAL: i32 = 3;
/// `reduce` found a pipeline that changes the program's behaviour.
pub const MISMATCH: i32 = 4;

/// The end of every subcommand's `--help`.
pub const HELP: &str = "\
Exit codes:
  0  success
  1  bad input or arguments (parse error, invalid SSA, usage error, output not written)
  2  runtime error of `run`
  3  internal error (a pass produced invalid SSA)
  4  `reduce` found a mismatch";
