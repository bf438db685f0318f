//! Bril's text format (`.bril`), after the grammar of `bril-txt`
//! (`briltxt.py`): functions `@f(a: int, b: bool): int { ... }`,
//! instructions ending in `;`, labels `.name:`, comments from `#` to the
//! end of the line.
//!
//! ```text
//! instr  := IDENT [":" type] "=" "const" literal ";"      a constant
//!         | IDENT [":" type] "=" op ";"                    a value operation
//!         | op ";"                                         an effect operation
//!         | LABEL ":"
//! op     := IDENT (IDENT | "@" IDENT | "." IDENT)*       opcode, then arguments,
//!                                                          functions and labels
//! IDENT  := [_%A-Za-z][_%.A-Za-z0-9]*
//! ```

use super::ast::{Code, Func, Instr, Literal, Loc, Program, Ty};
use super::Error;
use crate::text::Diagnostic;
use std::fmt::Write;
use std::ops::Range;

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Tok {
    Ident,
    /// `@name`.
    Func,
    /// `.name`.
    Label,
    /// An integer, float or character literal.
    Number,
    Char,
    Punct(u8),
    Eof,
}

struct Lexer<'s> {
    src: &'s str,
    pos: usize,
}

fn ident_start(c: u8) -> bool {
    c.is_ascii_alphabetic() || c == b'_' || c == b'%'
}

fn ident_char(c: u8) -> bool {
    ident_start(c) || c.is_ascii_digit() || c == b'.'
}

impl<'s> Lexer<'s> {
    fn skip_space(&mut self) {
        let b = self.src.as_bytes();
        while self.pos < b.len() {
            match b[self.pos] {
                b' ' | b'\t' | b'\n' | b'\r' => self.pos += 1,
                b'#' => {
                    while self.pos < b.len() && b[self.pos] != b'\n' && b[self.pos] != b'\r' {
                        self.pos += 1;
                    }
                }
                _ => break,
            }
        }
    }

    fn next(&mut self) -> Result<(Tok, Range<usize>), Diagnostic> {
        self.skip_space();
        let b = self.src.as_bytes();
        let start = self.pos;
        let Some(&c) = b.get(start) else {
            return Ok((Tok::Eof, start..start));
        };
        let word = |from: usize| {
            let mut i = from;
            while i < b.len() && ident_char(b[i]) {
                i += 1;
            }
            i
        };
        let tok = match c {
            b'@' | b'.' if b.get(start + 1).is_some_and(|&c| ident_start(c)) => {
                self.pos = word(start + 1);
                if c == b'@' {
                    Tok::Func
                } else {
                    Tok::Label
                }
            }
            c if ident_start(c) => {
                self.pos = word(start);
                Tok::Ident
            }
            b'-' | b'+' | b'0'..=b'9' => {
                let mut i = start + 1;
                while i < b.len() && (b[i].is_ascii_alphanumeric() || b[i] == b'.') {
                    i += 1;
                }
                self.pos = i;
                Tok::Number
            }
            b'\'' => {
                let rest = &self.src[start + 1..];
                let end = rest.find('\'').map(|k| start + 2 + k);
                match end {
                    Some(e) if e - start <= 6 => {
                        self.pos = e;
                        Tok::Char
                    }
                    _ => return Err(stray(self.src, start, "an unterminated character literal")),
                }
            }
            b':' | b'=' | b';' | b'{' | b'}' | b'(' | b')' | b',' | b'<' | b'>' => {
                self.pos += 1;
                Tok::Punct(c)
            }
            _ => return Err(stray(self.src, start, "a character Bril does not use here")),
        };
        Ok((tok, start..self.pos))
    }
}

fn stray(src: &str, at: usize, what: &str) -> Diagnostic {
    let end = at + src[at..].chars().next().map_or(0, char::len_utf8);
    Diagnostic::new(format!("unexpected character: {what}"), at..end, "here")
}

/// Parses Bril text into its syntax tree.
pub(crate) fn parse(src: &str) -> Result<Program, Diagnostic> {
    let mut p = Parser {
        src,
        lex: Lexer { src, pos: 0 },
        tok: (Tok::Eof, 0..0),
    };
    p.bump()?;
    let mut program = Program::default();
    while p.tok.0 != Tok::Eof {
        program.functions.push(p.function()?);
    }
    Ok(program)
}

struct Parser<'s> {
    src: &'s str,
    lex: Lexer<'s>,
    tok: (Tok, Range<usize>),
}

impl Parser<'_> {
    fn bump(&mut self) -> Result<(Tok, Range<usize>), Diagnostic> {
        let next = self.lex.next()?;
        Ok(std::mem::replace(&mut self.tok, next))
    }

    fn text(&self, r: &Range<usize>) -> &str {
        &self.src[r.clone()]
    }

    fn error(&self, msg: impl Into<String>, label: &str) -> Diagnostic {
        Diagnostic::new(msg, self.tok.1.clone(), label)
    }

    fn expect(&mut self, c: u8, what: &str) -> Result<Range<usize>, Diagnostic> {
        if self.tok.0 == Tok::Punct(c) {
            Ok(self.bump()?.1)
        } else {
            Err(self.error(
                format!("expected `{}` {what}", c as char),
                &format!("expected `{}`", c as char),
            ))
        }
    }

    fn ident(&mut self, what: &str) -> Result<(String, Range<usize>), Diagnostic> {
        if self.tok.0 == Tok::Ident {
            let (_, r) = self.bump()?;
            Ok((self.text(&r).to_string(), r))
        } else {
            Err(self.error(format!("expected {what}"), "expected a name"))
        }
    }

    fn ty(&mut self) -> Result<Ty, Diagnostic> {
        let (name, r) = self.ident("a type")?;
        if self.tok.0 == Tok::Punct(b'<') {
            self.bump()?;
            self.ty()?;
            let end = self.expect(b'>', "to close the type")?;
            return Ok(Ty::Other(self.src[r.start..end.end].to_string()));
        }
        Ok(Ty::from_name(&name))
    }

    fn function(&mut self) -> Result<Func, Diagnostic> {
        if self.tok.0 != Tok::Func {
            let what = if self.tok.0 == Tok::Ident && self.text(&self.tok.1) == "struct" {
                "`struct` (memory extension) is not supported"
            } else {
                "expected a function `@name`"
            };
            return Err(self.error(what, "here"));
        }
        let (_, r) = self.bump()?;
        let name = self.src[r.start + 1..r.end].to_string();
        let mut func = Func {
            name,
            args: Vec::new(),
            ret: None,
            body: Vec::new(),
            loc: Loc::Text(r),
        };
        if self.tok.0 == Tok::Punct(b'(') {
            self.bump()?;
            while self.tok.0 != Tok::Punct(b')') {
                if !func.args.is_empty() {
                    self.expect(b',', "between parameters")?;
                }
                let (a, _) = self.ident("a parameter name")?;
                self.expect(b':', "before the parameter's type")?;
                func.args.push((a, self.ty()?));
            }
            self.bump()?;
        }
        if self.tok.0 == Tok::Punct(b':') {
            self.bump()?;
            func.ret = Some(self.ty()?);
        }
        self.expect(b'{', "to open the function's body")?;
        while self.tok.0 != Tok::Punct(b'}') {
            if self.tok.0 == Tok::Eof {
                return Err(self.error("unexpected end of input in a function", "expected `}`"));
            }
            func.body.push(self.code()?);
        }
        self.bump()?;
        Ok(func)
    }

    fn code(&mut self) -> Result<Code, Diagnostic> {
        let start = self.tok.1.start;
        if self.tok.0 == Tok::Label {
            let (_, r) = self.bump()?;
            let name = self.src[r.start + 1..r.end].to_string();
            self.expect(b':', "after a label")?;
            return Ok(Code::Label {
                name,
                loc: Loc::Text(r),
            });
        }
        let (first, _) = self.ident("an instruction")?;
        let mut ins = Instr::default();
        if matches!(self.tok.0, Tok::Punct(b':') | Tok::Punct(b'=')) {
            ins.dest = Some(first);
            if self.tok.0 == Tok::Punct(b':') {
                self.bump()?;
                ins.ty = Some(self.ty()?);
            }
            self.expect(b'=', "after the destination")?;
            let (op, _) = self.ident("an operation")?;
            ins.op = op;
            if ins.op == "const" {
                ins.value = Some(self.literal()?);
            }
        } else {
            ins.op = first;
        }
        while !matches!(self.tok.0, Tok::Punct(b';')) {
            let (t, r) = self.tok.clone();
            match t {
                Tok::Ident => ins.args.push(self.text(&r).to_string()),
                Tok::Func => ins.funcs.push(self.src[r.start + 1..r.end].to_string()),
                Tok::Label => ins.labels.push(self.src[r.start + 1..r.end].to_string()),
                _ => return Err(self.error("expected an argument or `;`", "expected `;`")),
            }
            self.bump()?;
        }
        let end = self.bump()?.1.end;
        ins.loc = Loc::Text(start..end);
        Ok(Code::Instr(ins))
    }

    fn literal(&mut self) -> Result<Literal, Diagnostic> {
        let (t, r) = self.tok.clone();
        let s = self.text(&r).to_string();
        let lit = match t {
            Tok::Ident if s == "true" => Literal::Bool(true),
            Tok::Ident if s == "false" => Literal::Bool(false),
            Tok::Ident if s == "nullptr" => Literal::Other(s),
            Tok::Char => Literal::Other(s),
            Tok::Number => match s.parse::<i64>() {
                Ok(v) => Literal::Int(v),
                Err(_) if s.contains(['.', 'e', 'E']) && s.parse::<f64>().is_ok() => {
                    Literal::Other(s)
                }
                Err(_) => {
                    return Err(
                        self.error(format!("malformed number `{s}`"), "not a 64-bit integer")
                    )
                }
            },
            _ => return Err(self.error("expected a literal", "expected a literal")),
        };
        self.bump()?;
        Ok(lit)
    }
}

/// Whether `s` is an identifier of the text format, `IDENT` of the grammar
/// above (`bril-txt`'s `("_"|"%"|LETTER) ("_"|"%"|"."|LETTER|DIGIT)*`, with
/// Lark's ASCII `LETTER`). JSON takes any string as a name; the text
/// format only these.
pub(crate) fn is_ident(s: &str) -> bool {
    let b = s.as_bytes();
    b.first().is_some_and(|&c| ident_start(c)) && b.iter().all(|&c| ident_char(c))
}

/// Checks that [`print()`] can write every name of `p`: a function, a
/// parameter, a variable, a label or a callee that is not an
/// [`is_ident`] (a name from JSON: `a b`, `ü`) is an error naming it, so
/// that nothing is written that Bril's text parser cannot read back.
pub(crate) fn check(p: &Program) -> Result<(), Error> {
    for f in &p.functions {
        let bad = |what: &str, name: &str, index: Option<usize>| {
            let message = format!(
                "{what} `{name}` has no Bril text spelling (an identifier is \
                 [_%A-Za-z][_%.A-Za-z0-9]*); Bril's JSON form takes any name"
            );
            Err(Error::at(Some(&f.name), index, &message))
        };
        if !is_ident(&f.name) {
            return bad("function", &f.name, None);
        }
        for (a, _) in &f.args {
            if !is_ident(a) {
                return bad("parameter", a, None);
            }
        }
        for (k, c) in f.body.iter().enumerate() {
            match c {
                Code::Label { name, .. } if !is_ident(name) => {
                    return bad("label", name, Some(k));
                }
                Code::Label { .. } => {}
                Code::Instr(i) => {
                    let vars = i.dest.iter().chain(&i.args);
                    if let Some(v) = vars.into_iter().find(|v| !is_ident(v)) {
                        return bad("variable", v, Some(k));
                    }
                    if let Some(g) = i.funcs.iter().find(|g| !is_ident(g)) {
                        return bad("function", g, Some(k));
                    }
                    if let Some(l) = i.labels.iter().find(|l| !is_ident(l)) {
                        return bad("label", l, Some(k));
                    }
                }
            }
        }
    }
    Ok(())
}

/// Prints a program in the text format, as `bril2txt` lays it out; a name
/// that is not an identifier of the format is written as it is ([`check()`]
/// refuses such a program first).
pub(crate) fn print(p: &Program) -> String {
    let mut s = String::new();
    for (k, f) in p.functions.iter().enumerate() {
        if k > 0 {
            s.push('\n');
        }
        let _ = write!(s, "@{}", f.name);
        if !f.args.is_empty() {
            s.push('(');
            for (i, (a, t)) in f.args.iter().enumerate() {
                let sep = if i > 0 { ", " } else { "" };
                let _ = write!(s, "{sep}{a}: {}", t.name());
            }
            s.push(')');
        }
        if let Some(t) = &f.ret {
            let _ = write!(s, ": {}", t.name());
        }
        s.push_str(" {\n");
        for c in &f.body {
            match c {
                Code::Label { name, .. } => {
                    let _ = writeln!(s, ".{name}:");
                }
                Code::Instr(i) => {
                    s.push_str("  ");
                    print_instr(&mut s, i);
                    s.push_str(";\n");
                }
            }
        }
        s.push_str("}\n");
    }
    s
}

fn print_instr(s: &mut String, i: &Instr) {
    if let Some(d) = &i.dest {
        s.push_str(d);
        if let Some(t) = &i.ty {
            let _ = write!(s, ": {}", t.name());
        }
        s.push_str(" = ");
    }
    s.push_str(&i.op);
    if let Some(v) = &i.value {
        let _ = match v {
            Literal::Int(n) => write!(s, " {n}"),
            Literal::Bool(b) => write!(s, " {b}"),
            Literal::Other(o) => write!(s, " {o}"),
        };
    }
    for f in &i.funcs {
        let _ = write!(s, " @{f}");
    }
    for a in &i.args {
        let _ = write!(s, " {a}");
    }
    for l in &i.labels {
        let _ = write!(s, " .{l}");
    }
}
