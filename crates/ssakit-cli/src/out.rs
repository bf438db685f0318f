//! Where every subcommand's results go: one writer for all of them, which
//! tells a closed pipe from a failing device.
//!
//! * A closed pipe (`ssakit construct f | head`, `EPIPE`) is not an error
//!   of ours: the rest of the output is dropped and the command ends with
//!   the exit code it would have had.
//! * Any other write error (a full disk, `> /dev/full`) is reported once on
//!   standard error, `error: cannot write to standard output: ...`, and the
//!   command fails with exit code 1.
//!
//! Nothing in the CLI prints to standard output except through [`Out`];
//! `main.rs` denies `clippy::print_stdout` and `clippy::print_stderr` so
//! that no `println!` (which panics on a closed pipe) comes back.
//! Diagnostics go through [`errln!`](crate::errln), which never panics.

use crate::exit::{self, Failed};
use std::io::{self, Write};

/// `eprintln!` that ignores a failing standard error (`2> /dev/full`)
/// instead of panicking: a message that cannot be shown must not turn an
/// error of the input into a crash (exit 101).
#[macro_export]
macro_rules! errln {
    ($($arg:tt)*) => {{
        use std::io::Write as _;
        let _ = writeln!(std::io::stderr(), $($arg)*);
    }};
}

/// `eprint!` that ignores a failing standard error (see [`errln!`]).
#[macro_export]
macro_rules! err {
    ($($arg:tt)*) => {{
        use std::io::Write as _;
        let _ = write!(std::io::stderr(), $($arg)*);
    }};
}

/// Output is collected up to this many bytes between writes to the device.
const CHUNK: usize = 1 << 16;

/// A command's output. Write with [`write!`] (which returns
/// `Result<(), Failed>` here, for `?`), [`Out::write_str`] or
/// [`Out::write_bytes`]; end with [`Out::finish`], without which buffered
/// output is discarded.
pub struct Out {
    sink: Box<dyn Write>,
    /// How the destination is named in messages.
    name: String,
    /// Output not yet written to `sink`.
    buf: Vec<u8>,
    /// The reader went away or a write failed: drop further output.
    closed: bool,
}

impl Out {
    /// Standard output.
    pub fn stdout() -> Out {
        Out {
            sink: Box::new(io::stdout()),
            name: "standard output".to_string(),
            buf: Vec::with_capacity(CHUNK),
            closed: false,
        }
    }

    /// Writes `s`.
    pub fn write_str(&mut self, s: &str) -> Result<(), Failed> {
        self.write_bytes(s.as_bytes())
    }

    /// Writes `bytes`; a large slice goes to the device in one write.
    pub fn write_bytes(&mut self, bytes: &[u8]) -> Result<(), Failed> {
        if self.closed {
            return Ok(());
        }
        if self.buf.len() + bytes.len() <= CHUNK {
            self.buf.extend_from_slice(bytes);
            return Ok(());
        }
        self.flush()?;
        if bytes.len() >= CHUNK {
            self.emit(bytes)
        } else {
            self.buf.extend_from_slice(bytes);
            Ok(())
        }
    }

    /// What `write!(out, ...)` calls.
    pub fn write_fmt(&mut self, args: std::fmt::Arguments<'_>) -> Result<(), Failed> {
        if self.closed {
            return Ok(());
        }
        // Formatting into a vector cannot fail.
        let _ = self.buf.write_fmt(args);
        if self.buf.len() >= CHUNK {
            self.flush()?;
        }
        Ok(())
    }

    /// Writes what is buffered to the device now (before a message on
    /// standard error, so that the two keep their order on a terminal).
    pub fn flush(&mut self) -> Result<(), Failed> {
        let buf = std::mem::take(&mut self.buf);
        let res = self.emit(&buf);
        self.buf = buf;
        self.buf.clear();
        res
    }

    /// Writes everything out. Output written but not finished is lost.
    pub fn finish(mut self) -> Result<(), Failed> {
        self.flush()
    }

    fn emit(&mut self, bytes: &[u8]) -> Result<(), Failed> {
        if self.closed || bytes.is_empty() {
            return Ok(());
        }
        match self.sink.write_all(bytes).and_then(|_| self.sink.flush()) {
            Ok(()) => Ok(()),
            Err(e) => {
                self.closed = true;
                self.buf.clear();
                if e.kind() == io::ErrorKind::BrokenPipe {
                    Ok(())
                } else {
                    crate::errln!("error: cannot write to {}: {e}", self.name);
                    Err(Failed(exit::INPUT))
                }
            }
        }
    }
}
