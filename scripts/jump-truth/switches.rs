//! Switch-heavy Rust for scripts/x86-jump-truth.sh (issue 42, item 4):
//! a `match` over a big enum, a bytecode interpreter's loop, a lexer,
//! `?` error paths, and values with `Drop` live across calls that may
//! panic (landing pads in `.gcc_except_table`). Compiled as a library
//! (`rustc --crate-type=lib --emit asm`), never run.

/// A big enum: LLVM switches over its tag.
#[derive(Clone, Copy)]
pub enum Op {
    Add(i64),
    Sub(i64),
    Mul(i64),
    Div(i64),
    Rem(i64),
    And(i64),
    Or(i64),
    Xor(i64),
    Shl(u32),
    Shr(u32),
    Neg,
    Not,
    Abs,
    Inc,
    Dec,
    Halve,
}

/// One operation applied: a `match` over every variant.
#[inline(never)]
pub fn apply(op: Op, x: i64) -> Option<i64> {
    Some(match op {
        Op::Add(k) => x.wrapping_add(k),
        Op::Sub(k) => x.wrapping_sub(k),
        Op::Mul(k) => x.wrapping_mul(k),
        Op::Div(k) => x.checked_div(k)?,
        Op::Rem(k) => x.checked_rem(k)?,
        Op::And(k) => x & k,
        Op::Or(k) => x | k,
        Op::Xor(k) => x ^ k,
        Op::Shl(k) => x.checked_shl(k)?,
        Op::Shr(k) => x.checked_shr(k)?,
        Op::Neg => x.wrapping_neg(),
        Op::Not => !x,
        Op::Abs => x.wrapping_abs(),
        Op::Inc => x.wrapping_add(1),
        Op::Dec => x.wrapping_sub(1),
        Op::Halve => x / 2,
    })
}

/// Why a run stopped early.
#[derive(Debug)]
pub enum Error {
    Underflow(usize),
    BadOpcode(u8, usize),
    DivideByZero(usize),
    Overflow(usize),
}

/// A stack machine's loop over bytecode: a switch over the opcode byte
/// in a loop, every error path through `?`.
#[inline(never)]
pub fn run(code: &[u8], stack: &mut Vec<i64>) -> Result<i64, Error> {
    let mut pc = 0;
    while pc < code.len() {
        let at = pc;
        let op = code[pc];
        pc += 1;
        let mut pop = || stack.pop().ok_or(Error::Underflow(at));
        match op {
            0 => {
                let k = *code.get(pc).ok_or(Error::Underflow(at))? as i64;
                pc += 1;
                stack.push(k);
            }
            1 => {
                let (b, a) = (pop()?, pop()?);
                stack.push(a.checked_add(b).ok_or(Error::Overflow(at))?);
            }
            2 => {
                let (b, a) = (pop()?, pop()?);
                stack.push(a.checked_sub(b).ok_or(Error::Overflow(at))?);
            }
            3 => {
                let (b, a) = (pop()?, pop()?);
                stack.push(a.checked_mul(b).ok_or(Error::Overflow(at))?);
            }
            4 => {
                let (b, a) = (pop()?, pop()?);
                stack.push(a.checked_div(b).ok_or(Error::DivideByZero(at))?);
            }
            5 => {
                let a = pop()?;
                stack.push(a);
                stack.push(a);
            }
            6 => {
                pop()?;
            }
            7 => {
                let (b, a) = (pop()?, pop()?);
                stack.push(b);
                stack.push(a);
            }
            8 => {
                let a = pop()?;
                if a == 0 {
                    pc = *code.get(pc).ok_or(Error::Underflow(at))? as usize;
                } else {
                    pc += 1;
                }
            }
            9 => pc = *code.get(pc).ok_or(Error::Underflow(at))? as usize,
            10 => {
                let a = pop()?;
                stack.push(-a);
            }
            11 => return pop(),
            _ => return Err(Error::BadOpcode(op, at)),
        }
    }
    stack.pop().ok_or(Error::Underflow(code.len()))
}

/// A lexer's token kinds.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Tok {
    Ident,
    Number,
    Plus,
    Minus,
    Star,
    Slash,
    LParen,
    RParen,
    LBrace,
    RBrace,
    Semi,
    Comma,
    Eq,
    Lt,
    Gt,
    Bang,
}

/// Counts the tokens of `src` by kind: a switch over the byte, and one
/// over the token kind.
#[inline(never)]
pub fn lex(src: &[u8], counts: &mut [u32; 16]) -> Result<usize, usize> {
    let mut i = 0;
    let mut n = 0;
    while i < src.len() {
        let c = src[i];
        let tok = match c {
            b' ' | b'\t' | b'\n' | b'\r' => {
                i += 1;
                continue;
            }
            b'a'..=b'z' | b'A'..=b'Z' | b'_' => {
                while i < src.len() && (src[i].is_ascii_alphanumeric() || src[i] == b'_') {
                    i += 1;
                }
                Tok::Ident
            }
            b'0'..=b'9' => {
                while i < src.len() && src[i].is_ascii_digit() {
                    i += 1;
                }
                Tok::Number
            }
            b'+' => Tok::Plus,
            b'-' => Tok::Minus,
            b'*' => Tok::Star,
            b'/' => Tok::Slash,
            b'(' => Tok::LParen,
            b')' => Tok::RParen,
            b'{' => Tok::LBrace,
            b'}' => Tok::RBrace,
            b';' => Tok::Semi,
            b',' => Tok::Comma,
            b'=' => Tok::Eq,
            b'<' => Tok::Lt,
            b'>' => Tok::Gt,
            b'!' => Tok::Bang,
            _ => return Err(i),
        };
        if !matches!(tok, Tok::Ident | Tok::Number) {
            i += 1;
        }
        counts[tok as usize] += 1;
        n += weight(tok);
    }
    Ok(n)
}

/// A token's weight: a switch over the kind.
#[inline(never)]
pub fn weight(t: Tok) -> usize {
    match t {
        Tok::Ident => 7,
        Tok::Number => 3,
        Tok::Plus | Tok::Minus => 11,
        Tok::Star => 13,
        Tok::Slash => 17,
        Tok::LParen => 19,
        Tok::RParen => 23,
        Tok::LBrace => 29,
        Tok::RBrace => 31,
        Tok::Semi => 37,
        Tok::Comma => 41,
        Tok::Eq => 43,
        Tok::Lt => 47,
        Tok::Gt => 53,
        Tok::Bang => 59,
    }
}

/// Parses lines of `op k` pairs, `?` on every step; a `String` and a
/// `Vec` live across the calls, so unwinding drops them (landing pads).
#[inline(never)]
pub fn parse(text: &str) -> Result<Vec<Op>, String> {
    let mut out = Vec::new();
    for (n, line) in text.lines().enumerate() {
        let mut words = line.split_whitespace();
        let name = words.next().ok_or_else(|| format!("line {n}: empty"))?;
        let arg = || -> Result<i64, String> {
            let w = line.split_whitespace().nth(1).ok_or(format!("line {n}: no argument"))?;
            w.parse::<i64>().map_err(|e| format!("line {n}: {e}"))
        };
        let op = match name {
            "add" => Op::Add(arg()?),
            "sub" => Op::Sub(arg()?),
            "mul" => Op::Mul(arg()?),
            "div" => Op::Div(arg()?),
            "rem" => Op::Rem(arg()?),
            "and" => Op::And(arg()?),
            "or" => Op::Or(arg()?),
            "xor" => Op::Xor(arg()?),
            "shl" => Op::Shl(arg()? as u32),
            "shr" => Op::Shr(arg()? as u32),
            "neg" => Op::Neg,
            "not" => Op::Not,
            "abs" => Op::Abs,
            "inc" => Op::Inc,
            "dec" => Op::Dec,
            "halve" => Op::Halve,
            other => return Err(format!("line {n}: unknown {other}")),
        };
        out.push(op);
    }
    Ok(out)
}

/// Runs a parsed program on `x`, each step through `apply`; a panic in
/// `parse` or `apply` unwinds through the `Vec` and `String` here.
#[inline(never)]
pub fn eval(text: &str, x: i64) -> Result<i64, String> {
    let ops = parse(text)?;
    let mut log = String::new();
    let mut v = x;
    for (i, op) in ops.iter().enumerate() {
        v = apply(*op, v).ok_or_else(|| format!("step {i}: {log}"))?;
        log.push_str(&v.to_string());
        log.push(' ');
    }
    Ok(v)
}

/// A register machine's step: a switch over the opcode's low 4 bits
/// (a masked index), each arm a different update of the registers.
#[inline(never)]
pub fn step(insn: u16, r: &mut [u64; 4]) -> u64 {
    let (d, s) = (((insn >> 4) & 3) as usize, ((insn >> 6) & 3) as usize);
    match insn & 15 {
        0 => r[d] = r[s],
        1 => r[d] = r[d].wrapping_add(r[s]),
        2 => r[d] = r[d].wrapping_sub(r[s]),
        3 => r[d] = r[d].wrapping_mul(r[s]),
        4 => r[d] &= r[s],
        5 => r[d] |= r[s],
        6 => r[d] ^= r[s],
        7 => r[d] = r[d].rotate_left(r[s] as u32),
        8 => r[d] = r[d].rotate_right(r[s] as u32),
        9 => r[d] = (insn >> 8) as u64,
        10 => r[d] = r[d].count_ones() as u64,
        11 => r[d] = r[d].leading_zeros() as u64,
        12 => r.swap(d, s),
        13 => r[d] = r[d].max(r[s]),
        14 => r[d] = r[d].min(r[s]),
        _ => return r[d],
    }
    r[0]
}

/// A state machine over a byte stream (quoted strings with escapes and
/// comments): a switch over the state in a loop.
#[inline(never)]
pub fn scan(src: &[u8]) -> (usize, usize) {
    #[derive(Clone, Copy)]
    enum S {
        Code,
        Slash,
        Line,
        Block,
        Star,
        Quote,
        Escape,
    }
    let (mut state, mut strings, mut comments) = (S::Code, 0, 0);
    for &c in src {
        state = match (state, c) {
            (S::Code, b'/') => S::Slash,
            (S::Code, b'"') => S::Quote,
            (S::Code, _) => S::Code,
            (S::Slash, b'/') => S::Line,
            (S::Slash, b'*') => S::Block,
            (S::Slash, _) => S::Code,
            (S::Line, b'\n') => {
                comments += 1;
                S::Code
            }
            (S::Line, _) => S::Line,
            (S::Block, b'*') => S::Star,
            (S::Block, _) => S::Block,
            (S::Star, b'/') => {
                comments += 1;
                S::Code
            }
            (S::Star, b'*') => S::Star,
            (S::Star, _) => S::Block,
            (S::Quote, b'\\') => S::Escape,
            (S::Quote, b'"') => {
                strings += 1;
                S::Code
            }
            (S::Quote, _) => S::Quote,
            (S::Escape, _) => S::Quote,
        };
    }
    (strings, comments)
}
