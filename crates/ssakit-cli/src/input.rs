//! Reading input files (`-` is standard input) and reporting diagnostics.

use crate::exit::{self, Failed};
use ssakit::text::{self, Diagnostic, Parsed};
use std::io::Read;

/// A source text and the name it is reported under.
pub struct Source {
    pub name: String,
    pub text: String,
}

/// Reads `path` (or standard input for `-`) as UTF-8 text.
pub fn read(path: &str) -> Result<Source, Failed> {
    let name = if path == "-" {
        "<stdin>".to_string()
    } else {
        path.to_string()
    };
    let res = if path == "-" {
        read_utf8(&mut std::io::stdin().lock(), 0)
    } else {
        match std::fs::File::open(path) {
            Ok(mut f) => {
                let size = f.metadata().map_or(0, |m| m.len() as usize);
                read_utf8(&mut f, size)
            }
            Err(e) => Err(ReadError::Io(e)),
        }
    };
    match res {
        Ok(text) => Ok(Source { name, text }),
        Err(ReadError::Io(e)) => {
            crate::errln!("error: cannot read {name}: {e}");
            Err(Failed(exit::INPUT))
        }
        Err(ReadError::OutOfMemory(n)) => {
            crate::errln!("error: cannot read {name}: out of memory after {n} bytes");
            Err(Failed(exit::INPUT))
        }
        Err(ReadError::Utf8 { prefix, offset }) => {
            let (line, col) = text::diag::line_col(&prefix, offset);
            crate::errln!("error: {name}:{line}:{col}: invalid UTF-8 at byte offset {offset}");
            Err(Failed(exit::INPUT))
        }
    }
}

/// Why [`read_utf8`] stopped.
enum ReadError {
    Io(std::io::Error),
    /// The buffer could not grow past this many bytes.
    OutOfMemory(usize),
    /// The byte at `offset` does not continue valid UTF-8; `prefix` is the
    /// text before it.
    Utf8 {
        prefix: String,
        offset: usize,
    },
}

/// Bytes read, and checked, at a time.
const READ_CHUNK: usize = 1 << 16;

/// Reads all of `r` as UTF-8 (`size_hint`: the expected length, 0 if
/// unknown). The text is checked chunk by chunk as it arrives, so the
/// first invalid byte ends the reading: an endless stream of bytes (`-` on
/// `/dev/urandom`) is refused at once instead of being read until memory
/// runs out. The buffer grows with `try_reserve`, so input too large to
/// hold is an error, not an abort.
fn read_utf8(r: &mut impl Read, size_hint: usize) -> Result<String, ReadError> {
    let mut buf: Vec<u8> = Vec::new();
    buf.try_reserve_exact(size_hint.saturating_add(1))
        .map_err(|_| ReadError::OutOfMemory(0))?;
    // buf[..checked] is valid UTF-8; buf[checked..] is at most the start of
    // one character cut by the end of a chunk.
    let mut checked = 0;
    loop {
        if buf.capacity() - buf.len() < READ_CHUNK {
            buf.try_reserve(buf.len().max(READ_CHUNK))
                .map_err(|_| ReadError::OutOfMemory(buf.len()))?;
        }
        let n = r
            .by_ref()
            .take(READ_CHUNK as u64)
            .read_to_end(&mut buf)
            .map_err(ReadError::Io)?;
        let invalid = match std::str::from_utf8(&buf[checked..]) {
            Ok(_) => {
                checked = buf.len();
                None
            }
            Err(e) => {
                let at = checked + e.valid_up_to();
                checked = at;
                // A character cut by the end of the chunk is completed by
                // the next one, unless there is none.
                (e.error_len().is_some() || n == 0).then_some(at)
            }
        };
        if let Some(offset) = invalid {
            buf.truncate(offset);
            let prefix = String::from_utf8(buf).expect("checked up to the offset");
            return Err(ReadError::Utf8 { prefix, offset });
        }
        if n == 0 {
            return Ok(String::from_utf8(buf).expect("every byte checked"));
        }
    }
}

/// Prints `d` against `src` on standard error, once: the first line
/// `error: FILE:LINE:COLUMN: MESSAGE`, then the source line with a caret
/// under the offending text ([`Diagnostic::render`]).
pub fn report(src: &Source, d: &Diagnostic) {
    crate::err!("{}", d.render(&src.name, &src.text));
}

/// Reads and parses `path`, reporting any error.
pub fn parse(path: &str) -> Result<(Source, Parsed), Failed> {
    let src = read(path)?;
    match text::parse(&src.text) {
        Ok(p) => Ok((src, p)),
        Err(d) => {
            report(&src, &d);
            Err(Failed(exit::INPUT))
        }
    }
}

/// The program as parsed again, for a report after the parsed module was
/// transformed in place (error paths only: the text parsed once already).
pub fn reparse(src: &Source) -> Parsed {
    text::parse(&src.text).expect("the source parsed a moment ago")
}

/// Hands the command's big structures to the operating system instead of
/// freeing them one allocation at a time: freeing a million-instruction
/// module took up to a tenth of a command's time (glibc's
/// `malloc_consolidate`). The process exits right after.
pub fn skip_freeing<T>(data: T) {
    std::mem::forget(data);
}

/// Reports an error of a pass or of the verifier. When the function came
/// from `parsed` and the error names an instruction or block that has a
/// span, the report points at the source; otherwise it names the function
/// and block.
pub fn report_ir(
    src: &Source,
    parsed: Option<&Parsed>,
    func: &ssakit::ir::Function,
    e: &ssakit::error::IrError,
) {
    let spans = parsed.and_then(|p| {
        p.module
            .functions
            .iter()
            .position(|f| f.name() == func.name())
            .and_then(|k| p.spans.get(k))
    });
    let span = spans.and_then(|s| {
        e.inst
            .and_then(|i| s.insts.get(i).cloned())
            .or_else(|| {
                e.block.and_then(|b| {
                    if e.inst.is_none() {
                        s.terms.get(b).cloned()
                    } else {
                        None
                    }
                })
            })
            .or_else(|| e.block.and_then(|b| s.blocks.get(b).cloned()))
            .or_else(|| Some(s.name.clone()))
    });
    match span {
        Some(span) if span.end <= src.text.len() => {
            let label = match e.block {
                Some(b) => format!("in block `{}`", func.block_name(b)),
                None => format!("in function `{}`", func.name()),
            };
            report(src, &Diagnostic::new(e.message.clone(), span, label));
        }
        _ => crate::errln!("error: {}: {}", src.name, e.describe(func)),
    }
}

/// The function that `--entry NAME` picks in `module` (without it, `main`,
/// else the first), or an error, printed, when the module has none such.
pub fn entry<'m>(
    module: &'m ssakit::ir::Module,
    name: Option<&str>,
) -> Result<&'m ssakit::ir::Function, Failed> {
    module.entry_function(name).ok_or_else(|| {
        crate::errln!("error: no function named `{}`", name.unwrap_or("main"));
        Failed(exit::INPUT)
    })
}
