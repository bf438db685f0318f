//! Diagnostics on standard error that never panic: `errln!` and `err!`,
//! the CLI's `eprintln!` and `eprint!` (`main.rs` denies both, see
//! [`crate::out`]). A module of its own, with no dependency, so that every
//! other module can report without importing the crate root.

/// `eprintln!` that ignores a failing standard error (`2> /dev/full`)
/// instead of panicking: a message that cannot be shown must not turn an
/// error of the input into a crash (exit 101).
macro_rules! errln {
    ($($arg:tt)*) => {{
        use std::io::Write as _;
        let _ = writeln!(std::io::stderr(), $($arg)*);
    }};
}

/// `eprint!` that ignores a failing standard error (see [`errln!`]).
macro_rules! err {
    ($($arg:tt)*) => {{
        use std::io::Write as _;
        let _ = write!(std::io::stderr(), $($arg)*);
    }};
}

pub(crate) use {err, errln};
