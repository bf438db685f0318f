//! Diagnostics: an error message tied to a span of the source text.
//!
//! The library reports errors as [`Diagnostic`] values (message, byte span,
//! label, optional help). [`Diagnostic::render`] prints them in the
//! `file:line:column` form of compilers, with the source line under it; the
//! command-line tool prints exactly that.
//!
//! Lines end at `\n`, `\r\n` or a lone `\r`, as in the lexer, and a
//! UTF-8 byte-order mark at the start of the text is not a column: the
//! location in the first line of the report and the line shown under it
//! agree whatever the file's convention.

use std::fmt;
use std::ops::Range;

/// A byte range of a source text in 8 bytes, where a `Range<usize>` takes
/// 16: the parser keeps one for every instruction and two for every block
/// ([`FunctionSpans`](super::FunctionSpans)), so a million-instruction
/// program's spans take 8 MB instead of 16. The parser refuses a source
/// of more than `u32::MAX` bytes, so every span of one fits.
///
/// ```
/// use ssakit::text::Span;
/// let s = Span::from(4..9);
/// assert_eq!(s.range(), 4..9);
/// assert_eq!(&"let x = 1"[s.range()], "x = 1");
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Default)]
pub struct Span {
    /// First byte.
    pub start: u32,
    /// One past the last byte.
    pub end: u32,
}

impl Span {
    /// The span as a range of byte offsets, to index the source with.
    ///
    /// ```
    /// use ssakit::text::Span;
    /// assert_eq!(Span { start: 2, end: 3 }.range(), 2..3);
    /// ```
    pub fn range(self) -> Range<usize> {
        self.start as usize..self.end as usize
    }
}

impl From<Range<usize>> for Span {
    /// Panics past `u32::MAX` (the parser never makes such a span: it
    /// refuses longer sources first).
    fn from(r: Range<usize>) -> Span {
        let fit = |x: usize| u32::try_from(x).expect("a span past 4 GiB");
        Span {
            start: fit(r.start),
            end: fit(r.end),
        }
    }
}

impl From<Span> for Range<usize> {
    fn from(s: Span) -> Range<usize> {
        s.range()
    }
}

/// An error located in a source text.
///
/// ```
/// use ssakit::text::parse_module;
/// let src = "function f() {\nentry:\n    jump nowhere\n}\n";
/// let d = parse_module(src).unwrap_err();
/// assert_eq!(&src[d.span.clone()], "nowhere");
/// assert!(d.message.contains("nowhere"));
/// assert_eq!(ssakit::text::diag::line_col(src, d.span.start), (3, 10));
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Diagnostic {
    /// What is wrong, one sentence without a trailing period.
    pub message: String,
    /// Byte range of the offending text (may be empty, at end of input).
    pub span: Range<usize>,
    /// A short label shown under the offending text.
    pub(crate) label: String,
    /// An optional hint on how to fix it.
    pub help: Option<String>,
}

impl Diagnostic {
    /// A diagnostic at `span`.
    ///
    /// ```
    /// use ssakit::text::Diagnostic;
    /// let d = Diagnostic::new("bad thing", 3..5, "here");
    /// assert_eq!((d.message.as_str(), d.span.clone(), d.help), ("bad thing", 3..5, None));
    /// ```
    pub fn new(message: impl Into<String>, span: Range<usize>, label: impl Into<String>) -> Self {
        Diagnostic {
            message: message.into(),
            span,
            label: label.into(),
            help: None,
        }
    }

    /// Adds a help line.
    pub(crate) fn with_help(mut self, help: impl Into<String>) -> Self {
        self.help = Some(help.into());
        self
    }

    /// 1-based line and column (in characters) of the span start in `src`.
    pub(crate) fn line_col(&self, src: &str) -> (usize, usize) {
        line_col(src, self.span.start)
    }

    /// Renders `error: file:line:col: message`, the source line numbered
    /// in a margin, and a caret line under the offending text:
    ///
    /// ```text
    /// error: t.ssa:3:10: unknown label `nowhere`
    ///   |
    /// 3 |     jump nowhere
    ///   |          ^^^^^^^ no block has this label
    /// ```
    ///
    /// ```
    /// use ssakit::text::parse_module;
    /// let src = "function f() {\nentry:\n    jump nowhere\n}\n";
    /// let text = parse_module(src).unwrap_err().render("t.ssa", src);
    /// assert!(text.starts_with("error: t.ssa:3:10: "));
    /// assert!(text.contains("3 |     jump nowhere\n"));
    /// ```
    pub fn render(&self, file: &str, src: &str) -> String {
        self.render_at(file, src, self.line_col(src))
    }

    /// [`Diagnostic::render`] with the line found in `lines`, an index of
    /// `src` built once for many diagnostics (each [`Diagnostic::render`]
    /// counts the lines before its span: 20,000 errors in one file took
    /// time quadratic in its size).
    ///
    /// ```
    /// use ssakit::text::{diag::LineIndex, Diagnostic};
    /// let src = "one\ntwo\n";
    /// let d = Diagnostic::new("odd", 4..7, "this word");
    /// assert_eq!(d.render_indexed("t", src, &LineIndex::new(src)), d.render("t", src));
    /// ```
    pub fn render_indexed(&self, file: &str, src: &str, lines: &LineIndex) -> String {
        self.render_at(file, src, lines.line_col(src, self.span.start))
    }

    fn render_at(&self, file: &str, src: &str, (line, col): (usize, usize)) -> String {
        let start = point(src, self.span.start);
        let (line_start, line_end) = line_bounds(src, start);
        let text = &src[line_start..line_end];
        // Keep huge lines readable: show at most 120 characters around the error.
        let skipped = col.saturating_sub(60).min(col - 1);
        let shown: String = text.chars().skip(skipped).take(120).collect();
        // Under a tab, a tab, so that the caret lines up.
        let under: String = shown
            .chars()
            .take(col - 1 - skipped)
            .map(|c| if c == '\t' { '\t' } else { ' ' })
            .collect();
        let end = floor(src, self.span.end.clamp(start, line_end.max(start)));
        let width = src[start..end.max(start)].chars().count().max(1);
        let number = line.to_string();
        let margin = " ".repeat(number.len());
        let mut out = format!(
            "error: {file}:{line}:{col}: {}\n{margin} |\n{number} | {shown}\n{margin} | {under}{} {}\n",
            self.message,
            "^".repeat(width.min(120)),
            self.label
        );
        if let Some(h) = &self.help {
            out.push_str(&format!("{margin} = help: {h}\n"));
        }
        out
    }
}

/// `offset` within `src`, on a character boundary, after a byte-order mark,
/// and at the `\r` of a `\r\n` rather than at its `\n` (both are one line
/// end).
fn point(src: &str, offset: usize) -> usize {
    let mut offset = floor(src, offset);
    if src.starts_with(BOM) {
        offset = offset.max(BOM.len_utf8());
    }
    let bytes = src.as_bytes();
    if offset > 0 && bytes.get(offset) == Some(&b'\n') && bytes[offset - 1] == b'\r' {
        offset - 1
    } else {
        offset
    }
}

/// The last character boundary of `src` at or before `offset`.
fn floor(src: &str, offset: usize) -> usize {
    let mut offset = offset.min(src.len());
    while !src.is_char_boundary(offset) {
        offset -= 1;
    }
    offset
}

/// The line holding byte `offset` (a [`point`]): where it starts (after a
/// byte-order mark on the first line) and where its line end starts.
fn line_bounds(src: &str, offset: usize) -> (usize, usize) {
    let is_end = |c: char| c == '\n' || c == '\r';
    let start = match src[..offset].rfind(is_end) {
        Some(i) => i + 1,
        None if src.starts_with(BOM) => BOM.len_utf8(),
        None => 0,
    };
    let end = src[offset..].find(is_end).map_or(src.len(), |i| offset + i);
    (start, end)
}

/// The UTF-8 byte-order mark, skipped at the start of a text.
const BOM: char = '\u{feff}';

/// 1-based line and column (in characters) of byte `offset` in `src`.
/// Lines end at `\n`, `\r\n` or a lone `\r`; a byte-order mark at the
/// start is not counted.
///
/// ```
/// use ssakit::text::diag::line_col;
/// assert_eq!(line_col("ab\r\ncd", 4), (2, 1)); // `\r\n` is one line end
/// assert_eq!(line_col("\u{feff}x", 3), (1, 1)); // a byte-order mark is not counted
/// ```
pub fn line_col(src: &str, offset: usize) -> (usize, usize) {
    let offset = point(src, offset);
    let bytes = src.as_bytes();
    let line = 1 + bytes[..offset]
        .iter()
        .enumerate()
        .filter(|&(i, &b)| b == b'\n' || (b == b'\r' && bytes.get(i + 1) != Some(&b'\n')))
        .count();
    let (line_start, _) = line_bounds(src, offset);
    let col = src[line_start..offset].chars().count() + 1;
    (line, col)
}

/// Where the lines of a text end, for [`line_col`] in time logarithmic in
/// the text's size instead of linear.
///
/// ```
/// use ssakit::text::diag::{line_col, LineIndex};
/// let src = "a\nbb\nccc";
/// let idx = LineIndex::new(src);
/// for off in 0..src.len() {
///     assert_eq!(idx.line_col(src, off), line_col(src, off));
/// }
/// ```
#[derive(Clone, Debug)]
pub struct LineIndex {
    /// Byte offsets of the line ends [`line_col`] counts: each `\n`, and
    /// each `\r` not followed by `\n`.
    ends: Vec<usize>,
}

impl LineIndex {
    /// Indexes `src`, in one pass.
    ///
    /// ```
    /// use ssakit::text::diag::LineIndex;
    /// let idx = LineIndex::new("x\ny\n");
    /// assert_eq!(idx.line_col("x\ny\n", 2), (2, 1));
    /// ```
    pub fn new(src: &str) -> LineIndex {
        let bytes = src.as_bytes();
        let ends = (0..bytes.len())
            .filter(|&i| {
                bytes[i] == b'\n' || (bytes[i] == b'\r' && bytes.get(i + 1) != Some(&b'\n'))
            })
            .collect();
        LineIndex { ends }
    }

    /// [`line_col`] of `offset` in `src`, the text indexed.
    ///
    /// ```
    /// use ssakit::text::diag::LineIndex;
    /// let src = "first\nsecond";
    /// assert_eq!(LineIndex::new(src).line_col(src, 9), (2, 4));
    /// ```
    pub fn line_col(&self, src: &str, offset: usize) -> (usize, usize) {
        let offset = point(src, offset);
        let line = 1 + self.ends.partition_point(|&e| e < offset);
        let (line_start, _) = line_bounds(src, offset);
        let col = src[line_start..offset].chars().count() + 1;
        (line, col)
    }
}

impl fmt::Display for Diagnostic {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.message)
    }
}

impl std::error::Error for Diagnostic {}
