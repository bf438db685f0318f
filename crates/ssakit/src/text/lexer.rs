//! The `.ssa` lexer: source text to tokens with byte spans, one at a time.
//!
//! The lexer is pulled by the parser ([`Lexer::next_token`]) instead of
//! producing a token list first: the parser looks at most four tokens
//! ahead, so a token vector (32 bytes per token, a token every three bytes
//! of input) would be most of the memory parsing takes. Each token carries
//! a code ([`Token::code`]) that makes the parser's tests on it one
//! comparison.

use super::diag::Diagnostic;
use crate::intern::hash_step;
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

/// A token: its kind, where it is, and a code that makes comparing it
/// cheap.
#[derive(Clone, Debug)]
pub(crate) struct Token {
    pub(crate) kind: Tok,
    pub(crate) span: Range<usize>,
    /// For [`Tok::Punct`], its bytes as [`punct`] encodes them, so that a
    /// punctuation test is one comparison; for [`Tok::Ident`], the
    /// [`crate::intern::hash_name`] of its text, computed while it was scanned, so that
    /// the parser's name tables never hash a name again; else 0.
    pub(crate) code: u32,
}

/// The code of punctuation `s` (one or two bytes): its bytes, first in
/// the low byte (`punct("->")` is `b'-' | b'>' << 8`). A `const fn`, so
/// that `is_punct("->")` compares with a constant.
#[inline]
pub(crate) const fn punct(s: &str) -> u32 {
    let b = s.as_bytes();
    if b.len() == 1 {
        b[0] as u32
    } else {
        b[0] as u32 | (b[1] as u32) << 8
    }
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
    #[inline]
    pub(crate) fn next_token(&mut self) -> Token {
        let bytes = self.src.as_bytes();
        let len = bytes.len();
        if self.error.is_some() {
            return Token {
                kind: Tok::Bad,
                span: len..len,
                code: 0,
            };
        }
        let mut i = self.pos;
        // Blanks and comments, in runs; the usual indentation at once.
        if bytes.get(i..i + 4) == Some(b"    ") {
            i += 4;
        }
        loop {
            match bytes.get(i) {
                Some(b' ' | b'\t') => i += 1,
                Some(b'#') => {
                    i += bytes[i..]
                        .iter()
                        .position(|&b| b == b'\n' || b == b'\r')
                        .unwrap_or(len - i);
                }
                _ => break,
            }
        }
        let start = i;
        let Some(&c) = bytes.get(i) else {
            self.pos = len;
            return Token {
                kind: Tok::Eof,
                span: len..len,
                code: 0,
            };
        };
        let (kind, code) = match c {
            b'A'..=b'Z' | b'a'..=b'z' | b'_' => {
                let mut h = hash_step(0, c);
                i += 1;
                while let Some(&b) = bytes.get(i) {
                    if CLASS[b as usize] & IDENT_CONT == 0 {
                        break;
                    }
                    h = hash_step(h, b);
                    i += 1;
                }
                (Tok::Ident, h)
            }
            b'\n' | b'\r' | b';' => {
                i += if c == b'\r' && bytes.get(i + 1) == Some(&b'\n') {
                    2
                } else {
                    1
                };
                (Tok::Newline, 0)
            }
            b'0'..=b'9' => {
                while i < len && CLASS[bytes[i] as usize] & DIGIT != 0 {
                    i += 1;
                }
                if i < len && (bytes[i].is_ascii_alphabetic() || bytes[i] == b'_') {
                    return self.malformed_number(start, i);
                }
                (Tok::Int, 0)
            }
            _ => {
                let code = if i + 1 < len && is_punct2(c, bytes[i + 1]) {
                    i += 2;
                    c as u32 | (bytes[i - 1] as u32) << 8
                } else if CLASS[c as usize] & PUNCT1 != 0 {
                    i += 1;
                    c as u32
                } else {
                    return self.unexpected_character(i);
                };
                (Tok::Punct, code)
            }
        };
        self.pos = i;
        Token {
            kind,
            span: start..i,
            code,
        }
    }

    /// Digits at `start` run into letters at `i`. Out of line, as the
    /// other error paths, to keep `next_token` small.
    #[cold]
    #[inline(never)]
    fn malformed_number(&mut self, start: usize, i: usize) -> Token {
        let bytes = self.src.as_bytes();
        let mut j = i;
        while j < bytes.len() && (bytes[j].is_ascii_alphanumeric() || bytes[j] == b'_') {
            j += 1;
        }
        self.fail(Diagnostic::new(
            format!("malformed number `{}`", &self.src[start..j]),
            start..j,
            "names start with a letter or `_`; numbers are decimal digits",
        ))
    }

    /// The character at `i` begins no token.
    #[cold]
    #[inline(never)]
    fn unexpected_character(&mut self, i: usize) -> Token {
        let ch = self.src[i..].chars().next().unwrap_or('?');
        let end = i + ch.len_utf8();
        self.fail(Diagnostic::new(
            format!("unexpected character `{}`", ch.escape_debug()),
            i..end,
            "not part of the .ssa syntax",
        ))
    }

    fn fail(&mut self, d: Diagnostic) -> Token {
        let span = d.span.clone();
        self.error = Some(d);
        self.pos = self.src.len();
        Token {
            kind: Tok::Bad,
            span,
            code: 0,
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

#[cfg(test)]
mod tests {
    use super::{lex, punct, Tok};
    use crate::intern::hash_name as name_hash;

    /// Every token carries the code the parser compares with: punctuation
    /// its [`punct`] code, a name its [`name_hash`].
    #[test]
    fn tokens_carry_their_codes() {
        let src = "f(a, b) -> x.y_1 <= 12 >> != ; { } [ ] : == ! << >= % & | ^ * / + - =\r\n";
        let toks = lex(src).unwrap();
        let mut kinds = 0;
        for t in &toks {
            let text = &src[t.span.clone()];
            match t.kind {
                Tok::Punct => assert_eq!(t.code, punct(text), "{text}"),
                Tok::Ident => assert_eq!(t.code, name_hash(text), "{text}"),
                _ => assert_eq!(t.code, 0),
            }
            kinds |= 1 << t.kind as u8;
        }
        assert_eq!(
            kinds, 0b10_1111,
            "idents, ints, puncts, newlines and the end"
        );
        assert_ne!(name_hash("ab"), name_hash("ba"));
        assert_ne!(punct("<"), punct("<<"));
    }
}
