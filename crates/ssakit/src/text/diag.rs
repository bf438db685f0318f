//! Diagnostics: an error message tied to a span of the source text.
//!
//! The library reports errors as [`Diagnostic`] values (message, byte span,
//! label, optional help). [`Diagnostic::render`] prints them in the
//! `file:line:column` form of compilers; the command-line tool hands the
//! same data to `miette` for the graphical form.

use std::fmt;
use std::ops::Range;

/// An error located in a source text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Diagnostic {
    /// What is wrong, one sentence without a trailing period.
    pub message: String,
    /// Byte range of the offending text (may be empty, at end of input).
    pub span: Range<usize>,
    /// A short label shown under the offending text.
    pub label: String,
    /// An optional hint on how to fix it.
    pub help: Option<String>,
}

impl Diagnostic {
    /// A diagnostic at `span`.
    pub fn new(message: impl Into<String>, span: Range<usize>, label: impl Into<String>) -> Self {
        Diagnostic {
            message: message.into(),
            span,
            label: label.into(),
            help: None,
        }
    }

    /// Adds a help line.
    pub fn with_help(mut self, help: impl Into<String>) -> Self {
        self.help = Some(help.into());
        self
    }

    /// 1-based line and column (in characters) of the span start in `src`.
    pub fn line_col(&self, src: &str) -> (usize, usize) {
        line_col(src, self.span.start)
    }

    /// Renders `error: file:line:col: message`, the source line, and a caret
    /// line under the offending text.
    pub fn render(&self, file: &str, src: &str) -> String {
        let (line, col) = self.line_col(src);
        let start = self.span.start.min(src.len());
        let line_start = src[..start].rfind('\n').map_or(0, |i| i + 1);
        let line_end = src[start..].find('\n').map_or(src.len(), |i| start + i);
        let text = &src[line_start..line_end];
        // Keep huge lines readable: show at most 120 characters around the error.
        let shown: String = text
            .chars()
            .skip(col.saturating_sub(60))
            .take(120)
            .collect();
        let caret_col = col - 1 - col.saturating_sub(60).min(col - 1);
        let width = src[start..self.span.end.clamp(start, line_end.max(start))]
            .chars()
            .count()
            .max(1);
        let mut out = format!(
            "error: {file}:{line}:{col}: {}\n  |\n  | {shown}\n  | {}{} {}\n",
            self.message,
            " ".repeat(caret_col),
            "^".repeat(width.min(120)),
            self.label
        );
        if let Some(h) = &self.help {
            out.push_str(&format!("  = help: {h}\n"));
        }
        out
    }
}

/// 1-based line and column (in characters) of byte `offset` in `src`.
pub fn line_col(src: &str, offset: usize) -> (usize, usize) {
    let mut offset = offset.min(src.len());
    while !src.is_char_boundary(offset) {
        offset -= 1;
    }
    let before = &src[..offset];
    let line = before.bytes().filter(|&b| b == b'\n').count() + 1;
    let line_start = before.rfind('\n').map_or(0, |i| i + 1);
    let col = src[line_start..offset].chars().count() + 1;
    (line, col)
}

impl fmt::Display for Diagnostic {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.message)
    }
}

impl std::error::Error for Diagnostic {}
