//! Reading input files (`-` is standard input) and reporting diagnostics.

use crate::exit::{self, Failed};
use ssakit::text::diag::LineIndex;
use ssakit::text::{self, Diagnostic, FunctionSpans, Parsed};
use std::io::Read;

/// A source text and the name it is reported under.
pub struct Source {
    pub name: String,
    pub text: String,
    /// Where its lines end, built at the first error reported: each later
    /// one finds its line without counting from the start.
    lines: std::cell::OnceCell<LineIndex>,
    /// The regular file it was read from (`None`: standard input, a pipe
    /// or a device, which cannot be read again).
    path: Option<String>,
    /// While the text is released ([`Source::release`]): its length and
    /// digest, to check the file read again is the same.
    released: Option<(usize, u64)>,
}

/// The name input from `path` is reported under: `<stdin>` for `-`, else
/// the path with its control characters escaped ([`crate::echo`]).
fn reported_name(path: &str) -> String {
    if path == "-" {
        "<stdin>".to_string()
    } else {
        crate::echo::echo(path).into_owned()
    }
}

/// Reads `path` (or standard input for `-`) as UTF-8 text.
pub fn read(path: &str) -> Result<Source, Failed> {
    let name = reported_name(path);
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
        Ok(text) => Ok(Source {
            name,
            text,
            lines: Default::default(),
            // Only a regular file can be read again: standard input, a
            // pipe (`<(...)`, `/dev/stdin`) or a device gives nothing the
            // second time.
            path: (path != "-" && std::fs::metadata(path).is_ok_and(|m| m.is_file()))
                .then(|| path.to_string()),
            released: None,
        }),
        Err(ReadError::Io(e)) => {
            crate::stderr::errln!("error: cannot read {name}: {e}");
            Err(Failed(exit::INPUT))
        }
        Err(ReadError::OutOfMemory(n)) => {
            crate::stderr::errln!("error: cannot read {name}: out of memory after {n} bytes");
            Err(Failed(exit::INPUT))
        }
        Err(ReadError::Utf8 { prefix, offset }) => {
            let (line, col) = text::diag::line_col(&prefix, offset);
            crate::stderr::errln!(
                "error: {name}:{line}:{col}: invalid UTF-8 at byte offset {offset}"
            );
            Err(Failed(exit::INPUT))
        }
    }
}

/// Reads `path` (or standard input for `-`) as a WebAssembly module: the
/// bytes of a binary module (a file named `*.wasm`, or input that
/// [looks binary](ssakit_wasm::module::looks_binary)), else text, read and
/// checked as UTF-8 like any source (so an endless stream of random bytes
/// is refused at its first invalid byte). A binary without the magic
/// number `\0asm` (an empty `.wasm` file, a damaged header) is refused
/// here, with its byte offset, as a binary. Returns the name reported and
/// the bytes.
pub fn read_module_bytes(path: &str) -> Result<(String, Vec<u8>), Failed> {
    let name = reported_name(path);
    let fail = |msg: String| {
        crate::stderr::errln!("error: cannot read {name}: {msg}");
        Failed(exit::INPUT)
    };
    let (reader, size): (Box<dyn Read>, usize) = if path == "-" {
        (Box::new(std::io::stdin()), 0)
    } else {
        let f = std::fs::File::open(path).map_err(|e| fail(e.to_string()))?;
        let size = f.metadata().map_or(0, |m| m.len() as usize);
        (Box::new(f), size)
    };
    let mut r = reader;
    let mut head = Vec::with_capacity(4);
    r.by_ref()
        .take(4)
        .read_to_end(&mut head)
        .map_err(|e| fail(e.to_string()))?;
    let named_binary = path != "-"
        && std::path::Path::new(path)
            .extension()
            .is_some_and(|e| e.eq_ignore_ascii_case("wasm"));
    let binary = named_binary || ssakit_wasm::module::looks_binary(&head);
    finish(binary, &mut r, &mut head, size, &name, fail)
}

/// Reads `path` (or standard input for `-`) as an ELF file: its first four
/// bytes must be the magic number `\x7fELF`, checked before anything else
/// is read (so an endless stream is refused at once, at byte offset 0);
/// the rest is read with the buffer grown by `try_reserve` (input too
/// large to hold is an error, not an abort). Returns the name reported and
/// the bytes.
pub fn read_elf_bytes(path: &str) -> Result<(String, Vec<u8>), Failed> {
    let name = &reported_name(path);
    let fail = |msg: String| {
        crate::stderr::errln!("error: {name}: {msg}");
        Failed(exit::INPUT)
    };
    let mut r: Box<dyn Read> = if path == "-" {
        Box::new(std::io::stdin())
    } else {
        Box::new(std::fs::File::open(path).map_err(|e| fail(format!("cannot read: {e}")))?)
    };
    let mut bytes = Vec::with_capacity(4);
    r.by_ref()
        .take(4)
        .read_to_end(&mut bytes)
        .map_err(|e| fail(format!("cannot read: {e}")))?;
    if bytes != b"\x7fELF" {
        let found: Vec<String> = bytes.iter().map(|b| format!("{b:02x}")).collect();
        return Err(fail(format!(
            "byte offset 0x0: not an ELF file: expected the magic number 7f 45 4c 46, found {}",
            if found.is_empty() {
                "an empty file".to_string()
            } else {
                found.join(" ")
            }
        )));
    }
    loop {
        if bytes.capacity() - bytes.len() < READ_CHUNK {
            bytes
                .try_reserve(bytes.len().max(READ_CHUNK))
                .map_err(|_| {
                    fail(format!(
                        "too large to hold in memory ({} bytes read)",
                        bytes.len()
                    ))
                })?;
        }
        let n = r
            .by_ref()
            .take(READ_CHUNK as u64)
            .read_to_end(&mut bytes)
            .map_err(|e| fail(format!("cannot read: {e}")))?;
        if n == 0 {
            return Ok((name.to_string(), bytes));
        }
    }
}

/// The rest of [`read_module_bytes`]: `head` (the first bytes) has been
/// read already.
fn finish(
    binary: bool,
    r: &mut impl Read,
    head: &mut Vec<u8>,
    size: usize,
    name: &str,
    fail: impl Fn(String) -> Failed,
) -> Result<(String, Vec<u8>), Failed> {
    if binary {
        // Refused on its first bytes, before the rest is read: an endless
        // stream (`-` on `/dev/urandom`) must not be read to its end.
        if let Err(e) = ssakit_wasm::module::check_magic(head) {
            crate::stderr::errln!("error: {name}: {e}");
            return Err(Failed(exit::INPUT));
        }
        let mut all = std::mem::take(head);
        all.try_reserve_exact(size.saturating_sub(all.len()))
            .map_err(|_| fail("out of memory".into()))?;
        r.read_to_end(&mut all).map_err(|e| fail(e.to_string()))?;
        return Ok((name.to_string(), all));
    }
    let mut chained = std::io::Cursor::new(std::mem::take(head)).chain(r);
    match read_utf8(&mut chained, size) {
        Ok(text) => Ok((name.to_string(), text.into_bytes())),
        Err(ReadError::Io(e)) => Err(fail(e.to_string())),
        Err(ReadError::OutOfMemory(n)) => Err(fail(format!("out of memory after {n} bytes"))),
        Err(ReadError::Utf8 { prefix, offset }) => {
            let (line, col) = text::diag::line_col(&prefix, offset);
            crate::stderr::errln!(
                "error: {name}:{line}:{col}: not a binary module and not UTF-8 text: invalid byte at offset {offset}"
            );
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
    // Room for the whole file and one more chunk: the last read, which
    // finds the end, must not double the buffer.
    buf.try_reserve_exact(size_hint.saturating_add(READ_CHUNK))
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
    crate::stderr::err!(
        "{}",
        d.render_indexed(&src.name, &src.text, src.line_index())
    );
}

impl Source {
    /// The line index of the text, built at its first use.
    pub fn line_index(&self) -> &LineIndex {
        self.lines.get_or_init(|| LineIndex::new(&self.text))
    }

    /// Lets the text's memory go while the parsed program is transformed,
    /// when it came from a file that [`Source::restore`] can read again
    /// (a report needs it only if the transformation fails): as much
    /// memory as the input's size. Standard input keeps its text.
    pub fn release(&mut self) {
        if self.path.is_some() && self.released.is_none() {
            self.released = Some((self.text.len(), digest(self.text.as_bytes())));
            self.text = String::new();
            self.lines = Default::default();
        }
    }

    /// Reads the text [`Source::release`] let go again, for a report. The
    /// file must be unchanged (same length and digest): else the report
    /// could not point into it, and the error says so (exit 1).
    pub fn restore(&mut self) -> Result<(), Failed> {
        let (Some((len, sum)), Some(path)) = (self.released, self.path.as_deref()) else {
            return Ok(());
        };
        let again = match std::fs::read(path) {
            Ok(bytes) => String::from_utf8(bytes).ok(),
            Err(e) => {
                crate::stderr::errln!(
                    "error: an error was found in {}, but it cannot be read again to show where: {e}",
                    self.name
                );
                return Err(Failed(exit::INPUT));
            }
        };
        match again {
            Some(text) if text.len() == len && digest(text.as_bytes()) == sum => {
                self.text = text;
                self.released = None;
                Ok(())
            }
            _ => {
                crate::stderr::errln!(
                    "error: {} changed while it was transformed: an error was found in it, \
                     but where cannot be shown",
                    self.name
                );
                Err(Failed(exit::INPUT))
            }
        }
    }
}

/// A 64-bit digest of `bytes` (std's SipHash with its fixed keys, the
/// same in every run of the process): tells a file read again from a
/// changed one.
fn digest(bytes: &[u8]) -> u64 {
    use std::hash::{Hash, Hasher};
    let mut h = std::collections::hash_map::DefaultHasher::new();
    bytes.hash(&mut h);
    h.finish()
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

/// Where in the source an error of a pass or of the verifier is, given the
/// spans of its function's text: the span of its instruction, else of its
/// block's terminator (an error naming a block and no instruction), else of
/// its block's label, else of the function's name; `None` when the span is
/// not in `src`.
pub fn ir_span_in(
    src: &Source,
    spans: &FunctionSpans,
    e: &ssakit::error::IrError,
) -> Option<std::ops::Range<usize>> {
    let span = e
        .inst
        .and_then(|i| spans.insts.get(i).copied())
        .or_else(|| {
            e.block.and_then(|b| {
                if e.inst.is_none() {
                    spans.terms.get(b).copied()
                } else {
                    None
                }
            })
        })
        .or_else(|| e.block.and_then(|b| spans.blocks.get(b).copied()))
        .unwrap_or(spans.name)
        .range();
    (span.end <= src.text.len()).then_some(span)
}

/// The spans of `func` in `parsed`, found by name.
fn spans_of<'p>(
    parsed: Option<&'p Parsed>,
    func: &ssakit::ir::Function,
) -> Option<&'p FunctionSpans> {
    parsed.and_then(|p| {
        p.module
            .functions
            .iter()
            .position(|f| f.name() == func.name())
            .and_then(|k| p.spans.get(k))
    })
}

/// Reports an error of a pass or of the verifier. When the function came
/// from `parsed` and the error names an instruction or block that has a
/// span, the report points at the source ([`ir_span_in`]); otherwise it names
/// the function and block.
pub fn report_ir(
    src: &Source,
    parsed: Option<&Parsed>,
    func: &ssakit::ir::Function,
    e: &ssakit::error::IrError,
) {
    report_ir_spans(src, spans_of(parsed, func), func, e);
}

/// [`report_ir`] for the `k`-th function of `parsed`, found at once (a
/// search by name per error made 20,000 failing functions quadratic).
pub fn report_ir_in(src: &Source, parsed: &Parsed, k: usize, e: &ssakit::error::IrError) {
    report_ir_spans(src, parsed.spans.get(k), &parsed.module.functions[k], e);
}

/// [`report_ir`] with the spans of `func`'s text, if known.
fn report_ir_spans(
    src: &Source,
    spans: Option<&FunctionSpans>,
    func: &ssakit::ir::Function,
    e: &ssakit::error::IrError,
) {
    match spans.and_then(|s| ir_span_in(src, s, e)) {
        Some(span) => {
            let label = match e.block {
                Some(b) => format!("in block `{}`", func.block_name(b)),
                None => format!("in function `{}`", func.name()),
            };
            report(src, &Diagnostic::new(e.message.clone(), span, label));
        }
        None => crate::stderr::errln!("error: {}: {}", src.name, e.describe(func)),
    }
}

/// The function that `--entry NAME` picks in `module` (without it, `main`,
/// else the first), or an error, printed, when the module has none such.
pub fn entry<'m>(
    module: &'m ssakit::ir::Module,
    name: Option<&str>,
) -> Result<&'m ssakit::ir::Function, Failed> {
    module.entry_function(name).ok_or_else(|| {
        crate::stderr::errln!(
            "error: no function named `{}`",
            crate::echo::echo(name.unwrap_or("main"))
        );
        Failed(exit::INPUT)
    })
}

#[cfg(test)]
mod tests {
    use super::read;

    /// The text comes back as it was; a file changed or removed in
    /// between is an error, never a report against other text; a pipe
    /// keeps its text (nothing is released).
    #[test]
    fn release_and_restore() {
        let dir = std::env::temp_dir().join(format!("ssakit-release-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("p.ssa");
        let text = "function f(a) {\ne:\n    ret a\n}\n";
        std::fs::write(&path, text).unwrap();
        let mut src = read(path.to_str().unwrap()).unwrap();
        src.release();
        assert!(src.text.is_empty());
        src.restore().unwrap();
        assert_eq!(src.text, text);
        // Restoring twice, or without a release, changes nothing.
        src.restore().unwrap();
        assert_eq!(src.text, text);
        for changed in [
            "function f(b) {\ne:\n    ret b\n}\n", // same length
            "function f(a) {\ne:\n    ret a\n}",   // shorter
        ] {
            let mut src = read(path.to_str().unwrap()).unwrap();
            src.release();
            std::fs::write(&path, changed).unwrap();
            assert!(src.restore().is_err());
            std::fs::write(&path, text).unwrap();
        }
        let mut src = read(path.to_str().unwrap()).unwrap();
        src.release();
        std::fs::remove_file(&path).unwrap();
        assert!(src.restore().is_err());
        std::fs::remove_dir(&dir).unwrap();
        // A pipe keeps its text: reading it again would give nothing.
        #[cfg(unix)]
        {
            let mut child = std::process::Command::new("sh")
                .args(["-c", "printf x"])
                .stdout(std::process::Stdio::piped())
                .spawn()
                .unwrap();
            let pipe = format!("/proc/self/fd/{}", {
                use std::os::fd::AsRawFd;
                child.stdout.as_ref().unwrap().as_raw_fd()
            });
            if std::path::Path::new(&pipe).exists() {
                let mut src = read(&pipe).unwrap();
                src.release();
                assert_eq!(src.text, "x");
            }
            child.wait().unwrap();
        }
    }
}
