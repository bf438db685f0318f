//! Reading input files (`-` is standard input) and reporting diagnostics.

use crate::exit::{self, Failed};
use miette::{LabeledSpan, MietteDiagnostic, NamedSource, Report};
use ssakit::text::{self, Diagnostic, Parsed};
use std::io::Read;

/// A source text and the name it is reported under.
pub struct Source {
    pub name: String,
    pub text: String,
}

/// Reads `path` (or standard input for `-`) as UTF-8 text.
pub fn read(path: &str) -> Result<Source, Failed> {
    let mut bytes = Vec::new();
    let name = if path == "-" {
        "<stdin>".to_string()
    } else {
        path.to_string()
    };
    let res = if path == "-" {
        std::io::stdin().read_to_end(&mut bytes).map(|_| ())
    } else {
        std::fs::File::open(path)
            .and_then(|mut f| f.read_to_end(&mut bytes))
            .map(|_| ())
    };
    if let Err(e) = res {
        crate::errln!("error: cannot read {name}: {e}");
        return Err(Failed(exit::INPUT));
    }
    match String::from_utf8(bytes) {
        Ok(text) => Ok(Source { name, text }),
        Err(e) => {
            let off = e.utf8_error().valid_up_to();
            let prefix = String::from_utf8_lossy(&e.as_bytes()[..off]);
            let (line, col) = text::diag::line_col(&prefix, off);
            crate::errln!("error: {name}:{line}:{col}: invalid UTF-8 at byte offset {off}");
            Err(Failed(exit::INPUT))
        }
    }
}

/// Lines longer than this are shown by the library's own renderer, which
/// cuts them around the error, instead of miette's graphical one (slow and
/// fragile on multi-megabyte lines).
const MAX_GRAPHICAL_LINE: usize = 1000;

/// Prints `d` against `src` on standard error: a first line
/// `error: FILE:LINE:COLUMN: MESSAGE`, then miette's graphical rendering of
/// the source around it.
pub fn report(src: &Source, d: &Diagnostic) {
    let start = d.span.start.min(src.text.len());
    let line_start = src.text[..start].rfind('\n').map_or(0, |i| i + 1);
    let line_end = src.text[start..]
        .find('\n')
        .map_or(src.text.len(), |i| start + i);
    if line_end - line_start > MAX_GRAPHICAL_LINE || d.span.end > src.text.len() {
        crate::err!("{}", d.render(&src.name, &src.text));
        return;
    }
    let mut md = MietteDiagnostic::new(d.message.clone())
        .with_labels(vec![LabeledSpan::at(d.span.clone(), d.label.clone())]);
    if let Some(h) = &d.help {
        md = md.with_help(h.clone());
    }
    let report =
        Report::new(md).with_source_code(NamedSource::new(src.name.clone(), src.text.clone()));
    let (line, col) = d.line_col(&src.text);
    crate::errln!("error: {}:{line}:{col}: {}", src.name, d.message);
    crate::errln!("{report:?}");
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
            .position(|f| f.name == func.name)
            .map(|k| &p.spans[k])
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
                Some(b) => format!("in block `{}`", func.blocks[b].name),
                None => format!("in function `{}`", func.name),
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
