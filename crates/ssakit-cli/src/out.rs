//! Where every subcommand's results go: one writer for all of them, which
//! tells a closed pipe from a failing device.
//!
//! * A closed pipe (`ssakit construct f | head`, `EPIPE`) is not an error
//!   of ours: the rest of the output is dropped and the command ends with
//!   the exit code it would have had.
//! * Any other write error (a full disk, `> /dev/full`) is reported once on
//!   standard error, `error: cannot write to standard output: ...`, and the
//!   command fails with exit code 1.
//! * `-o FILE` ([`OutputArg`], on every subcommand that prints) writes to a
//!   temporary file beside FILE, which replaces FILE only when the command
//!   [finishes](Out::finish) its output and every write succeeded: a write
//!   error, or a command that fails before its output is complete, leaves
//!   FILE as it was (and `ssakit fmt f.ssa -o f.ssa` works). A FILE that
//!   exists and is not a regular file (`/dev/full`, a FIFO) is written in
//!   place. A termination signal (SIGTERM, SIGINT, SIGHUP) removes the
//!   temporary file too ([`crate::signals`]).
//!
//! Nothing in the CLI prints to standard output except through [`Out`];
//! `main.rs` denies `clippy::print_stdout` and `clippy::print_stderr` so
//! that no `println!` (which panics on a closed pipe) comes back.
//! Diagnostics go through [`errln!`](crate::stderr::errln), which never panics.

use crate::exit::{self, Failed};
use crate::signals::TempFile;
use std::fs::{self, File};
use std::io::{self, Write};
use std::path::{Path, PathBuf};

/// Output is collected up to this many bytes between writes to the device.
const CHUNK: usize = 1 << 16;

/// `-o FILE`, for every subcommand that prints a program or a report.
#[derive(clap::Args, Clone, Debug)]
pub struct OutputArg {
    /// Write the output to FILE instead of standard output (`-`: standard
    /// output). FILE is replaced only once all the output is written; a
    /// command stopped by an error leaves it as it was.
    #[arg(short = 'o', long = "output", value_name = "FILE")]
    pub output: Option<String>,
}

impl OutputArg {
    /// Refuse a binary output (a WebAssembly module) bound for a terminal:
    /// standard output (no `-o`, or `-o -`) when it is a terminal.
    pub fn refuse_binary_to_terminal(&self) -> Result<(), Failed> {
        use std::io::IsTerminal;
        if self.output.as_deref().is_none_or(|o| o == "-") && io::stdout().is_terminal() {
            crate::stderr::errln!(
                "error: refusing to write a binary module to a terminal (use -o FILE)"
            );
            return Err(Failed(exit::INPUT));
        }
        Ok(())
    }
}

/// Where the bytes go.
enum Sink {
    Stdout(io::Stdout),
    /// A regular file: written as `tmp`, renamed to `dest` by
    /// [`Out::finish`], removed if dropped before, or if a termination
    /// signal ends the process (`_guard`).
    Replace {
        file: File,
        tmp: PathBuf,
        dest: PathBuf,
        _guard: TempFile,
    },
    /// A device or FIFO named by `-o`, written in place.
    InPlace(File),
}

impl Sink {
    fn writer(&mut self) -> &mut dyn Write {
        match self {
            Sink::Stdout(s) => s,
            Sink::Replace { file, .. } | Sink::InPlace(file) => file,
        }
    }
}

/// A command's output. Write with [`write!`] (which returns
/// `Result<(), Failed>` here, for `?`), [`Out::write_str`] or
/// [`Out::write_bytes`]; end with [`Out::finish`], without which buffered
/// output is discarded.
pub struct Out {
    sink: Sink,
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
        Out::new(Sink::Stdout(io::stdout()), "standard output".to_string())
    }

    /// The output `-o` asks for: standard output without it (or with
    /// `-o -`), else FILE, opened now so that a FILE that cannot be written
    /// is reported before any work.
    pub fn open(arg: &OutputArg) -> Result<Out, Failed> {
        match arg.output.as_deref() {
            None | Some("-") => Ok(Out::stdout()),
            Some(path) => Out::file(Path::new(path)).map_err(|e| {
                crate::stderr::errln!("error: cannot write to {}: {e}", crate::echo::echo(path));
                Failed(exit::INPUT)
            }),
        }
    }

    fn file(path: &Path) -> io::Result<Out> {
        let name = crate::echo::echo(&path.display().to_string()).into_owned();
        let existing = fs::metadata(path).ok();
        if let Some(m) = &existing {
            if m.is_dir() {
                return Err(io::Error::other("it is a directory"));
            }
            if !m.is_file() {
                let file = fs::OpenOptions::new().write(true).open(path)?;
                return Ok(Out::new(Sink::InPlace(file), name));
            }
        }
        // Replace the file a symbolic link points to, not the link.
        let dest = match existing {
            Some(_) => fs::canonicalize(path)?,
            None => path.to_path_buf(),
        };
        let file_name = dest
            .file_name()
            .ok_or_else(|| io::Error::other("not a file name"))?;
        let mut tmp_name = std::ffi::OsString::from(".");
        tmp_name.push(file_name);
        tmp_name.push(format!(".ssakit-{}.tmp", std::process::id()));
        let tmp = dest.with_file_name(tmp_name);
        // Registered before it exists: a signal between the two finds no
        // file to remove, never a file it does not know.
        let guard = TempFile::register(&tmp);
        let file = fs::OpenOptions::new()
            .write(true)
            .create_new(true)
            .open(&tmp)?;
        if let Some(m) = fs::metadata(&dest).ok().filter(|m| m.is_file()) {
            let _ = fs::set_permissions(&tmp, m.permissions());
        }
        Ok(Out::new(
            Sink::Replace {
                file,
                tmp,
                dest,
                _guard: guard,
            },
            name,
        ))
    }

    fn new(sink: Sink, name: String) -> Out {
        Out {
            sink,
            name,
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

    /// Writes everything out; for `-o FILE`, makes sure it reached the
    /// disk and puts it in FILE's place. Output written but not finished is
    /// lost, and FILE left as it was.
    pub fn finish(mut self) -> Result<(), Failed> {
        self.flush()?;
        if self.closed {
            return Ok(());
        }
        let res = match &mut self.sink {
            Sink::Replace {
                file, tmp, dest, ..
            } => file
                .sync_all()
                .and_then(|_| fs::rename(&*tmp, &*dest))
                .map(|_| *tmp = PathBuf::new()),
            _ => Ok(()),
        };
        res.map_err(|e| {
            crate::stderr::errln!("error: cannot write to {}: {e}", self.name);
            Failed(exit::INPUT)
        })
    }

    fn emit(&mut self, bytes: &[u8]) -> Result<(), Failed> {
        if self.closed || bytes.is_empty() {
            return Ok(());
        }
        let sink = self.sink.writer();
        match sink.write_all(bytes).and_then(|_| sink.flush()) {
            Ok(()) => Ok(()),
            Err(e) => {
                self.closed = true;
                self.buf.clear();
                if e.kind() == io::ErrorKind::BrokenPipe {
                    Ok(())
                } else {
                    crate::stderr::errln!("error: cannot write to {}: {e}", self.name);
                    Err(Failed(exit::INPUT))
                }
            }
        }
    }
}

impl Drop for Out {
    /// An unfinished `-o FILE` leaves FILE as it was: the temporary file
    /// goes.
    fn drop(&mut self) {
        if let Sink::Replace { tmp, .. } = &self.sink {
            if !tmp.as_os_str().is_empty() {
                let _ = fs::remove_file(tmp);
            }
        }
    }
}
