//! The `.ssa` lexer: source text to tokens with byte spans, one at a time.
//!
//! The lexer is pulled by the parser ([`Lexer::next_token`]) instead of
//! producing a token list first: the parser looks at most three tokens
//! ahead, so a token vector (24 bytes per token, a token every three bytes
//! of input) would be most of the memory parsing takes.

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
    /// Text that is no token; the lexer's [`Diagnostic`] says why. No rule
    /// of the grammar accepts it.
    Bad,
    /// End of input.
    Eof,
}

/// A token: its kind and where it is.
#[derive(Clone, Debug)]
pub(crate) struct Token {
    pub kind: Tok,
    pub span: Range<usize>,
}

/// Two-byte punctuation: `<< >> == != <= >= ->`.
fn is_punct2(a: u8, b: u8) -> bool {
    matches!(
        (a, b),
        (b'<', b'<')
            | (b'>', b'>')
            | (b'=', b'=')
            | (b'!', b'=')
            | (b'<', b'=')
            | (b'>', b'=')
            | (b'-', b'>')
    )
}

/// Byte classes, one table load per byte.
const IDENT_CONT: u8 = 1;
const DIGIT: u8 = 2;
const PUNCT1: u8 = 4;
const CLASS: [u8; 256] = {
    let mut t = [0u8; 256];
    let mut c = 0;
    while c < 256 {
        let b = c as u8;
        if b.is_ascii_alphanumeric() || b == b'_' || b == b'.' {
            t[c] |= IDENT_CONT;
        }
        if b.is_ascii_digit() {
            t[c] |= DIGIT;
        }
        c += 1;
    }
    let p = b"+-*/%&|^<>!=(),:{}[];";
    let mut k = 0;
    while k < p.len() {
        t[p[k] as usize] |= PUNCT1;
        k += 1;
    }
    t
};

/// Splits a source text into tokens. Comments (`#` to end of line) and
/// blanks are skipped; `;` is returned as a newline. Lines end at `\n`,
/// `\r\n` (one newline token) or a lone `\r`; a UTF-8 byte-order mark at the
/// start is skipped.
pub(crate) struct Lexer<'s> {
    src: &'s str,
    pos: usize,
    /// The first text that is no token, once the lexer has reached it.
    error: Option<Diagnostic>,
}

impl<'s> Lexer<'s> {
    pub(crate) fn new(src: &'s str) -> Self {
        Lexer {
            src,
            pos: if src.starts_with('\u{feff}') { 3 } else { 0 },
            error: None,
        }
    }

    /// Why the lexer stopped with a [`Tok::Bad`] token, if it did.
    pub(crate) fn take_error(&mut self) -> Option<Diagnostic> {
        self.error.take()
    }

    /// The next token; after the end of input or an error, [`Tok::Eof`] or
    /// [`Tok::Bad`] again.
    pub(crate) fn next_token(&mut self) -> Token {
        let bytes = self.src.as_bytes();
        let len = bytes.len();
        if self.error.is_some() {
            return Token {
                kind: Tok::Bad,
                span: len..len,
            };
        }
        let mut i = self.pos;
        loop {
            if i >= len {
                self.pos = len;
                return Token {
                    kind: Tok::Eof,
                    span: len..len,
                };
            }
            let c = bytes[i];
            let start = i;
            let kind = match c {
                b' ' | b'\t' => {
                    i += 1;
                    continue;
                }
                b'#' => {
                    while i < len && bytes[i] != b'\n' && bytes[i] != b'\r' {
                        i += 1;
                    }
                    continue;
                }
                b'\n' | b'\r' | b';' => {
                    i += if bytes[i..].starts_with(b"\r\n") {
                        2
                    } else {
                        1
                    };
                    Tok::Newline
                }
                b'A'..=b'Z' | b'a'..=b'z' | b'_' => {
                    while i < len && CLASS[bytes[i] as usize] & IDENT_CONT != 0 {
                        i += 1;
                    }
                    Tok::Ident
                }
                b'0'..=b'9' => {
                    while i < len && CLASS[bytes[i] as usize] & DIGIT != 0 {
                        i += 1;
                    }
                    if i < len && (bytes[i].is_ascii_alphabetic() || bytes[i] == b'_') {
                        let mut j = i;
                        while j < len && (bytes[j].is_ascii_alphanumeric() || bytes[j] == b'_') {
                            j += 1;
                        }
                        return self.fail(Diagnostic::new(
                            format!("malformed number `{}`", &self.src[start..j]),
                            start..j,
                            "names start with a letter or `_`; numbers are decimal digits",
                        ));
                    }
                    Tok::Int
                }
                _ => {
                    if i + 1 < len && is_punct2(c, bytes[i + 1]) {
                        i += 2;
                    } else if CLASS[c as usize] & PUNCT1 != 0 {
                        i += 1;
                    } else {
                        let ch = self.src[i..].chars().next().unwrap_or('?');
                        let end = i + ch.len_utf8();
                        return self.fail(Diagnostic::new(
                            format!("unexpected character `{}`", ch.escape_debug()),
                            start..end,
                            "not part of the .ssa syntax",
                        ));
                    }
                    Tok::Punct
                }
            };
            self.pos = i;
            return Token {
                kind,
                span: start..i,
            };
        }
    }

    fn fail(&mut self, d: Diagnostic) -> Token {
        let span = d.span.clone();
        self.error = Some(d);
        self.pos = self.src.len();
        Token {
            kind: Tok::Bad,
            span,
        }
    }
}

/// Every token of `src`, the last one [`Tok::Eof`], or the first text that
/// is no token (for [`super::comments`], which relates comments to the
/// statements around them).
pub(crate) fn lex(src: &str) -> Result<Vec<Token>, Diagnostic> {
    let mut lexer = Lexer::new(src);
    let mut toks = Vec::new();
    loop {
        let t = lexer.next_token();
        match t.kind {
            Tok::Bad => return Err(lexer.take_error().expect("a bad token has its error")),
            Tok::Eof => {
                toks.push(t);
                return Ok(toks);
            }
            _ => toks.push(t),
        }
    }
}
