//! The `.ssa` lexer: source text to tokens with byte spans.

use super::diag::Diagnostic;
use std::ops::Range;

/// A token kind.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Tok {
    /// An identifier `[A-Za-z_][A-Za-z0-9_.]*`.
    Ident,
    /// A decimal integer literal (no sign).
    Int,
    /// Punctuation or an operator, spelled by the span.
    Punct,
    /// End of a line (statements are separated by newlines or `;`).
    Newline,
    /// End of input.
    Eof,
}

/// A token: its kind and where it is.
#[derive(Clone, Debug)]
pub(crate) struct Token {
    pub kind: Tok,
    pub span: Range<usize>,
}

const PUNCT2: [&str; 7] = ["<<", ">>", "==", "!=", "<=", ">=", "->"];
const PUNCT1: &[u8] = b"+-*/%&|^<>!=(),:{}[];";

/// Splits `src` into tokens. Comments (`#` to end of line) and blanks are
/// skipped; `;` is returned as a newline. Lines end at `\n`, `\r\n` (one
/// newline token) or a lone `\r`; a UTF-8 byte-order mark at the start is
/// skipped.
pub(crate) fn lex(src: &str) -> Result<Vec<Token>, Diagnostic> {
    let bytes = src.as_bytes();
    let mut toks = Vec::with_capacity(src.len() / 3);
    let mut i = if src.starts_with('\u{feff}') { 3 } else { 0 };
    while i < bytes.len() {
        let c = bytes[i];
        let start = i;
        match c {
            b' ' | b'\t' => i += 1,
            b'\n' | b'\r' | b';' => {
                i += if bytes[i..].starts_with(b"\r\n") {
                    2
                } else {
                    1
                };
                toks.push(Token {
                    kind: Tok::Newline,
                    span: start..i,
                });
            }
            b'#' => {
                while i < bytes.len() && bytes[i] != b'\n' && bytes[i] != b'\r' {
                    i += 1;
                }
            }
            b'A'..=b'Z' | b'a'..=b'z' | b'_' => {
                while i < bytes.len()
                    && (bytes[i].is_ascii_alphanumeric() || bytes[i] == b'_' || bytes[i] == b'.')
                {
                    i += 1;
                }
                toks.push(Token {
                    kind: Tok::Ident,
                    span: start..i,
                });
            }
            b'0'..=b'9' => {
                while i < bytes.len() && bytes[i].is_ascii_digit() {
                    i += 1;
                }
                if i < bytes.len() && (bytes[i].is_ascii_alphabetic() || bytes[i] == b'_') {
                    let mut j = i;
                    while j < bytes.len() && (bytes[j].is_ascii_alphanumeric() || bytes[j] == b'_')
                    {
                        j += 1;
                    }
                    return Err(Diagnostic::new(
                        format!("malformed number `{}`", &src[start..j]),
                        start..j,
                        "names start with a letter or `_`; numbers are decimal digits",
                    ));
                }
                toks.push(Token {
                    kind: Tok::Int,
                    span: start..i,
                });
            }
            _ => {
                if i + 1 < bytes.len() && PUNCT2.iter().any(|p| p.as_bytes() == &bytes[i..i + 2]) {
                    i += 2;
                    toks.push(Token {
                        kind: Tok::Punct,
                        span: start..i,
                    });
                } else if PUNCT1.contains(&c) {
                    i += 1;
                    toks.push(Token {
                        kind: Tok::Punct,
                        span: start..i,
                    });
                } else {
                    let ch = src[i..].chars().next().unwrap_or('?');
                    let end = i + ch.len_utf8();
                    return Err(Diagnostic::new(
                        format!("unexpected character `{}`", ch.escape_debug()),
                        start..end,
                        "not part of the .ssa syntax",
                    ));
                }
            }
        }
    }
    toks.push(Token {
        kind: Tok::Eof,
        span: src.len()..src.len(),
    });
    Ok(toks)
}
