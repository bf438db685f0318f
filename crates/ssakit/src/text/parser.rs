//! The `.ssa` parser: tokens to a [`Module`], with spans for diagnostics.
//!
//! A hand-written recursive-descent parser over the lexer's tokens (a
//! ring of four ahead), with a fast path for plain assignments; the
//! grammar has no nesting deeper than one function, so nothing recurses on
//! input size. Every error is a [`Diagnostic`] naming the offending text.
//! Checks done here, beyond syntax: duplicate and unknown labels, blocks
//! without terminator, statements after a terminator, phis after ordinary
//! instructions, phi labels that are not exactly the block's predecessors
//! (and phis in a block without predecessors), duplicate parameters and
//! parallel-copy destinations, a variable given two types, unknown and
//! redeclared operators, calls to functions of the module with the wrong
//! number of arguments, and duplicate function names.
//!
//! Operators are declared before the first function (`operator NAME
//! EFFECT...`); the module's operators and callee names are interned in one
//! [`Symbols`] table that all its functions share.

use super::diag::{Diagnostic, Span};
use super::lexer::{punct, Lexer, Tok, Token};
use crate::entity::{EntityVec, SecondaryMap};
use crate::intern::NameTable;
use crate::ir::{
    BinOp, Block, Cfg, Effects, Function, Inst, InstData, Module, Operand, PhiArg, Symbols,
    Terminator, Type, UnOp, Var,
};
use rustc_hash::{FxHashMap as HashMap, FxHashSet as HashSet};
use std::ops::Range;
use std::sync::Arc;

/// The longest source the parser reads, in bytes: its spans are `u32`
/// offsets ([`Span`]); a longer one is an error.
pub(crate) const MAX_SOURCE: usize = u32::MAX as usize;

/// Where each part of a parsed function came from in the source.
///
/// ```
/// use ssakit::text::parse;
/// let src = "function f(n) {\nentry:\n    m = n + 1\n    ret m\n}\n";
/// let p = parse(src).unwrap();
/// let (f, spans) = (&p.module.functions[0], &p.spans[0]);
/// assert_eq!(&src[spans.name.range()], "f");
/// assert_eq!(&src[spans.blocks[f.entry()].range()], "entry");
/// assert_eq!(&src[spans.insts[f.block_insts(f.entry())[0]].range()], "m = n + 1");
/// assert_eq!(&src[spans.terms[f.entry()].range()], "ret m");
/// ```
#[derive(Clone, Debug, Default)]
pub struct FunctionSpans {
    /// The function's name.
    pub name: Span,
    /// Each instruction's statement.
    pub insts: EntityVec<Inst, Span>,
    /// Each block's label.
    pub blocks: EntityVec<Block, Span>,
    /// Each block's terminator statement.
    pub terms: EntityVec<Block, Span>,
}

/// A parsed module and the spans of its functions (same order).
///
/// ```
/// use ssakit::text::parse;
/// let src = "function f() {\nentry:\n    ret 0\n}\n\nfunction g() {\nentry:\n    ret 1\n}\n";
/// let p = parse(src).unwrap();
/// assert_eq!(p.module.functions.len(), 2);
/// assert_eq!(p.spans.len(), 2);
/// assert_eq!(&src[p.spans[1].name.range()], "g");
/// ```
#[derive(Clone, Debug)]
pub struct Parsed {
    /// The module.
    pub module: Module,
    /// Spans of `module.functions[i]` at index `i`.
    pub spans: Vec<FunctionSpans>,
}

/// A call to check against the callee's parameter count once every
/// function is known: callee name, argument count, statement span.
type CallSite = (Range<usize>, usize, Range<usize>);

/// Parses a module, returning the first error.
///
/// ```
/// use ssakit::text::parse;
/// let ok = parse("function f() {\nentry:\n    ret 0\n}\n").unwrap();
/// assert_eq!(ok.module.functions[0].name(), "f");
/// let src = "function f() {\nentry:\n    ret 0\n}\nfunction f() {\nentry:\n    ret 1\n}\n";
/// let err = parse(src).unwrap_err();
/// assert_eq!(ssakit::text::diag::line_col(src, err.span.start).0, 5); // the second `f` is the error
/// ```
pub fn parse(src: &str) -> Result<Parsed, Diagnostic> {
    parse_with(Parser::new(src))
}

fn parse_with(mut p: Parser) -> Result<Parsed, Diagnostic> {
    refuse_too_long(p.src.len())?;
    let res = parse_tokens(&mut p);
    // Text that is no token is the error, wherever the parser stopped: the
    // parser reads at most a few tokens past the one it stumbled on.
    match p.lexer.take_error() {
        Some(e) => Err(e),
        None => res.map_err(|d| *d),
    }
}

/// A source of `len` bytes is an error past [`MAX_SOURCE`].
fn refuse_too_long(len: usize) -> Result<(), Diagnostic> {
    if len <= MAX_SOURCE {
        return Ok(());
    }
    Err(Diagnostic::new(
        format!("the program is {len} bytes long, more than the {MAX_SOURCE} bytes (4 GiB) the parser reads"),
        0..0,
        "too long",
    )
    .with_help("split its functions among several files"))
}

fn parse_tokens<'s>(p: &mut Parser<'s>) -> Res<Parsed> {
    let src = p.src;
    let mut functions = Vec::new();
    let mut spans = Vec::new();
    let mut calls = Vec::new();
    let mut fn_index: HashMap<&str, usize> = HashMap::default();
    loop {
        p.skip_newlines();
        if p.peek().kind == Tok::Eof {
            break;
        }
        if p.is_word("operator") {
            if !functions.is_empty() {
                return fail(
                    Diagnostic::new(
                        "operator declaration after a function",
                        p.peek().span.clone(),
                        "declare operators first",
                    )
                    .with_help("`operator NAME EFFECT...` lines come before the first function"),
                );
            }
            p.operator_declaration()?;
            continue;
        }
        let (f, s) = p.function(&mut calls)?;
        if let Some(&prev) = fn_index.get(&src[s.name.range()]) {
            let prev: &FunctionSpans = &spans[prev];
            let (l, _) = super::diag::line_col(src, prev.name.start as usize);
            return fail(Diagnostic::new(
                format!("duplicate function `{}`", &src[s.name.range()]),
                s.name.range(),
                format!("first defined on line {l}"),
            ));
        }
        fn_index.insert(&src[s.name.range()], functions.len());
        functions.push(f);
        spans.push(s);
    }
    if functions.is_empty() {
        return fail(Diagnostic::new(
            "no function in input",
            0..0,
            "expected `function NAME(...) {`",
        ));
    }
    for (name, arity, span) in calls {
        if let Some(&fi) = fn_index.get(&src[name.clone()]) {
            let want = functions[fi].params().len();
            if want != arity {
                return fail(Diagnostic::new(
                    format!(
                        "function `{}` takes {want} argument(s), called with {arity}",
                        &src[name]
                    ),
                    span,
                    "wrong number of arguments",
                ));
            }
        }
    }
    // Every function shares the module's table, complete now.
    let symbols = Arc::new(std::mem::take(&mut p.symbols));
    for f in &mut functions {
        f.replace_symbols(symbols.clone());
    }
    Ok(Parsed {
        module: Module { functions },
        spans,
    })
}

/// Parses a module, dropping spans.
///
/// # Example
/// ```
/// use ssakit::text::{parse_module, print_module};
/// let src = "function main(n) {\nentry:\n    x = n + 1\n    ret x\n}\n";
/// let m = parse_module(src).unwrap();
/// assert_eq!(m.functions[0].name(), "main");
/// assert_eq!(print_module(&m), src); // canonical text prints back the same
/// let bad = "function main() {\nentry:\n    jump nowhere\n}\n";
/// let err = parse_module(bad).unwrap_err();
/// assert_eq!(ssakit::text::diag::line_col(bad, err.span.start), (3, 10)); // errors carry their location
/// ```
pub fn parse_module(src: &str) -> Result<Module, Diagnostic> {
    parse(src).map(|p| p.module)
}

/// How many tokens the parser sees ahead (`peek_at(0..LOOKAHEAD)`); a
/// power of two, so that the ring's index wraps with a mask. The grammar
/// needs three; [`Parser::plain_assignment`] decides on four.
const LOOKAHEAD: usize = 4;

struct Parser<'s> {
    src: &'s str,
    lexer: Lexer<'s>,
    /// The next tokens, a ring starting at `head`.
    ahead: [Token; LOOKAHEAD],
    head: usize,
    /// Where the last token consumed ends.
    prev_end: usize,
    /// The module's operators and callees, interned as they are read.
    symbols: Symbols,
    /// Each binary operator with the [`punct`] code of its symbol.
    binops: Vec<(u32, BinOp)>,
    /// Whether [`Parser::plain_assignment`] may take the statements it
    /// knows (off in the test that compares it with the general path).
    quick: bool,
}

/// Per-function state: names to entities, and label bookkeeping.
struct FnState {
    func: Function,
    spans: FunctionSpans,
    vars: NameTable<Var>,
    /// Where each variable is first mentioned: its name, compared with
    /// the source's bytes when the name table finds its hash.
    var_at: EntityVec<Var, Span>,
    /// Where each variable's type was written, if it was.
    typed_at: SecondaryMap<Var, Option<Range<usize>>>,
    labels: NameTable<Block>,
    /// Whether each block's label was seen; until it is, `spans.blocks`
    /// holds the block's first mention, for "unknown label" errors.
    defined: EntityVec<Block, bool>,
    terminated: EntityVec<Block, bool>,
    /// The current block's phis and ordinary instructions so far, given
    /// to it at its terminator: its lists are then allocated once, at
    /// their size, instead of growing by doubling.
    phis: Vec<Inst>,
    insts: Vec<Inst>,
}

/// A parse result. The error is boxed so that the `Ok` path, taken for
/// every token, passes a few words in registers instead of a diagnostic's
/// 88 bytes through memory.
type Res<T> = Result<T, Box<Diagnostic>>;

/// The error `d`, as [`Res`] carries it.
#[cold]
fn fail<T>(d: Diagnostic) -> Res<T> {
    Err(Box::new(d))
}

impl<'s> Parser<'s> {
    fn new(src: &'s str) -> Self {
        let mut lexer = Lexer::new(src);
        let ahead = std::array::from_fn(|_| lexer.next_token());
        Parser {
            src,
            lexer,
            ahead,
            head: 0,
            prev_end: 0,
            symbols: Symbols::new(),
            binops: BinOp::ALL
                .iter()
                .map(|&op| (punct(op.symbol()), op))
                .collect(),
            quick: true,
        }
    }
    fn peek(&self) -> &Token {
        &self.ahead[self.head]
    }
    /// The token `k < LOOKAHEAD` places ahead.
    fn peek_at(&self, k: usize) -> &Token {
        debug_assert!(k < LOOKAHEAD);
        &self.ahead[(self.head + k) & (LOOKAHEAD - 1)]
    }
    fn text(&self, t: &Token) -> &'s str {
        &self.src[t.span.clone()]
    }
    /// Consumes the next token; the end of input and text that is no token
    /// are never consumed.
    fn bump(&mut self) -> Token {
        let t = self.peek().clone();
        self.advance();
        t
    }
    /// [`Parser::bump`] without a copy of the token.
    #[inline(always)]
    fn advance(&mut self) {
        let t = &self.ahead[self.head];
        if !matches!(t.kind, Tok::Eof | Tok::Bad) {
            self.prev_end = t.span.end;
            self.ahead[self.head] = self.lexer.next_token();
            self.head = (self.head + 1) & (LOOKAHEAD - 1);
        }
    }
    fn prev_end(&self) -> usize {
        self.prev_end
    }
    #[inline]
    fn is_punct(&self, s: &str) -> bool {
        let t = self.peek();
        t.kind == Tok::Punct && t.code == punct(s)
    }
    #[inline]
    fn is_punct_at(&self, k: usize, s: &str) -> bool {
        let t = self.peek_at(k);
        t.kind == Tok::Punct && t.code == punct(s)
    }
    fn is_word(&self, s: &str) -> bool {
        let t = self.peek();
        t.kind == Tok::Ident && self.text(t) == s
    }
    fn at_end_of_statement(&self) -> bool {
        matches!(self.peek().kind, Tok::Newline | Tok::Eof) || self.is_punct("}")
    }
    fn skip_newlines(&mut self) {
        while self.peek().kind == Tok::Newline {
            self.bump();
        }
    }
    fn describe(&self, t: &Token) -> String {
        match t.kind {
            Tok::Eof => "end of input".into(),
            Tok::Newline => "end of line".into(),
            _ => format!("`{}`", self.text(t)),
        }
    }
    fn err_here(&self, what: &str) -> Diagnostic {
        let t = self.peek();
        Diagnostic::new(
            format!("expected {what}, found {}", self.describe(t)),
            t.span.clone(),
            format!("expected {what}"),
        )
    }
    fn expect_punct(&mut self, s: &str) -> Res<Token> {
        if self.is_punct(s) {
            Ok(self.bump())
        } else {
            fail(self.err_here(&format!("`{s}`")))
        }
    }
    /// An identifier that is not a keyword.
    fn name(&mut self, what: &str) -> Res<(&'s str, Range<usize>)> {
        self.hashed_name(what).map(|(s, span, _)| (s, span))
    }
    /// [`Parser::name`] with the hash the lexer computed for it.
    #[inline]
    fn hashed_name(&mut self, what: &str) -> Res<(&'s str, Range<usize>, u32)> {
        let t = self.peek();
        if t.kind != Tok::Ident {
            return fail(self.err_here(what));
        }
        let (span, hash) = (t.span.clone(), t.code);
        let s = &self.src[span.clone()];
        if crate::ir::is_reserved(s) {
            return fail(Diagnostic::new(
                format!("`{s}` is a keyword and cannot be used as {what}"),
                span,
                "keyword",
            ));
        }
        self.bump();
        Ok((s, span, hash))
    }
    /// A comma-separated list of `item`s, possibly empty, up to `close`
    /// (consumed).
    fn list<T>(&mut self, close: &str, mut item: impl FnMut(&mut Self) -> Res<T>) -> Res<Vec<T>> {
        let mut out = Vec::new();
        if !self.is_punct(close) {
            loop {
                out.push(item(self)?);
                if !self.is_punct(",") {
                    break;
                }
                self.bump();
            }
        }
        self.expect_punct(close)?;
        Ok(out)
    }
    fn end_of_statement(&mut self) -> Res<()> {
        match self.peek().kind {
            Tok::Newline => {
                self.bump();
                Ok(())
            }
            Tok::Eof => Ok(()),
            _ if self.is_punct("}") => Ok(()),
            _ => fail(self.err_here("end of line")),
        }
    }

    /// A type name.
    fn ty(&mut self) -> Res<Type> {
        let t = self.peek().clone();
        match (t.kind, Type::from_name(self.text(&t))) {
            (Tok::Ident, Some(ty)) => {
                self.bump();
                Ok(ty)
            }
            _ => {
                fail(self.err_here(
                    "a type (`i64`, `i32`, `f32`, `f64`, `v128`, `funcref` or `externref`)",
                ))
            }
        }
    }

    /// `operator NAME EFFECT...`: declares an operator with its effects.
    fn operator_declaration(&mut self) -> Res<()> {
        self.bump(); // `operator`
        let (name, span) = self.name("an operator name")?;
        let mut effects = Effects::PURE;
        let mut any = false;
        while self.peek().kind == Tok::Ident {
            let t = self.bump();
            let Some(e) = Effects::from_word(self.text(&t)) else {
                return fail(
                    Diagnostic::new(
                        format!("unknown effect `{}`", self.text(&t)),
                        t.span,
                        "not an effect",
                    )
                    .with_help("effects are `pure`, or any of `trap`, `read`, `write`, `call`"),
                );
            };
            effects = effects.union(e);
            any = true;
        }
        if !any {
            return fail(
                self.err_here("the operator's effects (`pure`, `trap`, `read`, `write`, `call`)"),
            );
        }
        if self.symbols.find_operator(name).is_some() {
            return fail(Diagnostic::new(
                format!("operator `{name}` is declared twice"),
                span,
                "already declared",
            ));
        }
        self.symbols
            .operator(name, effects)
            .expect("a new operator has no conflict");
        self.end_of_statement()
    }

    fn function(&mut self, calls: &mut Vec<CallSite>) -> Res<(Function, FunctionSpans)> {
        if !self.is_word("function") {
            return fail(self.err_here("`function`"));
        }
        self.bump();
        let (name, name_span) = self.name("a function name")?;
        let mut st = FnState {
            func: Function::new(name),
            spans: FunctionSpans {
                name: name_span.into(),
                ..Default::default()
            },
            vars: NameTable::new(),
            var_at: EntityVec::new(),
            typed_at: SecondaryMap::new(None),
            labels: NameTable::new(),
            defined: EntityVec::new(),
            terminated: EntityVec::new(),
            phis: Vec::new(),
            insts: Vec::new(),
        };
        self.expect_punct("(")?;
        if !self.is_punct(")") {
            loop {
                let (p, span, hash) = self.hashed_name("a parameter name")?;
                if find_var(self.src, &st, p, hash).is_some() {
                    return fail(Diagnostic::new(
                        format!("duplicate parameter `{p}`"),
                        span,
                        "already a parameter",
                    ));
                }
                let v = self.var(&mut st, p, span.clone(), hash);
                self.type_annotation(&mut st, v, span)?;
                st.func.add_param(v);
                if !self.is_punct(",") {
                    break;
                }
                self.bump();
            }
        }
        self.expect_punct(")")?;
        if self.is_punct("->") {
            self.bump();
            let types = if self.is_punct("(") {
                self.bump();
                self.list(")", |p| p.ty())?
            } else {
                vec![self.ty()?]
            };
            st.func.set_returns(Some(types));
        }
        self.expect_punct("{")?;
        let mut current: Option<Block> = None;
        loop {
            self.skip_newlines();
            if self.is_punct("}") {
                break;
            }
            if self.peek().kind == Tok::Eof {
                return fail(self.err_here("`}` closing the function"));
            }
            // A label: `NAME:` (`NAME: TYPE` begins a typed definition).
            if self.peek().kind == Tok::Ident
                && self.is_punct_at(1, ":")
                && !(self.peek_at(2).kind == Tok::Ident
                    && Type::from_name(self.text(self.peek_at(2))).is_some())
            {
                if let Some(b) = current {
                    self.check_terminated(&st, b)?;
                }
                let (l, span, hash) = self.hashed_name("a label")?;
                self.bump(); // ':'
                let b = self.block_ref(&mut st, l, span.clone(), hash);
                if st.defined[b] {
                    let (line, _) =
                        super::diag::line_col(self.src, st.spans.blocks[b].start as usize);
                    return fail(Diagnostic::new(
                        format!("duplicate label `{l}`"),
                        span,
                        format!("first defined on line {line}"),
                    ));
                }
                st.defined[b] = true;
                st.spans.blocks[b] = span.into();
                st.func.append_to_layout(b);
                current = Some(b);
                continue;
            }
            let Some(b) = current else {
                return fail(
                    Diagnostic::new(
                        "statement before the first label",
                        self.peek().span.clone(),
                        "not in a block",
                    )
                    .with_help("start the function body with a label such as `entry:`"),
                );
            };
            if st.terminated[b] {
                return fail(Diagnostic::new(
                    format!("statement after the terminator of block `{}`", st.func.block_name(b)),
                    self.peek().span.clone(),
                    "unreachable statement",
                )
                .with_help("a block ends at its `jump`, `branch`, `switch`, `ret` or `unreachable`; start a new block with a label"));
            }
            if !(self.quick && self.plain_assignment(&mut st)?) {
                self.statement(&mut st, b, calls)?;
            }
            self.end_of_statement()?;
        }
        let close = self.bump();
        match current {
            None => {
                return fail(Diagnostic::new(
                    format!("function `{name}` has no blocks"),
                    close.span,
                    "empty body",
                ))
            }
            Some(b) => self.check_terminated(&st, b)?,
        }
        for b in st.func.blocks() {
            if !st.defined[b] {
                return fail(Diagnostic::new(
                    format!("unknown label `{}`", st.func.block_name(b)),
                    st.spans.blocks[b].range(),
                    "no block has this label",
                ));
            }
        }
        self.check_phis(&st)?;
        renumber_blocks_in_layout_order(&mut st.func, &mut st.spans);
        Ok((st.func, st.spans))
    }

    fn check_terminated(&self, st: &FnState, b: Block) -> Res<()> {
        if st.terminated[b] {
            return Ok(());
        }
        fail(Diagnostic::new(
            format!("block `{}` has no terminator", st.func.block_name(b)),
            st.spans.blocks[b].range(),
            "this block does not end in `jump`, `branch`, `switch`, `ret` or `unreachable`",
        ))
    }

    /// The block labelled `l`, created on first mention.
    fn block_ref(&self, st: &mut FnState, l: &'s str, span: Range<usize>, hash: u32) -> Block {
        let src = self.src.as_bytes();
        // `spans.blocks` holds the label or the first mention: the name.
        if let Some(b) = st
            .labels
            .find(hash, |b| src[st.spans.blocks[b].range()] == *l.as_bytes())
        {
            return b;
        }
        let b = st.func.create_block(l);
        st.labels.insert(hash, b);
        st.defined.push(false);
        st.terminated.push(false);
        st.spans.blocks.push(span.clone().into());
        st.spans.terms.push(span.into());
        b
    }

    fn label(&mut self, st: &mut FnState) -> Res<Block> {
        let (l, span, hash) = self.hashed_name("a label")?;
        Ok(self.block_ref(st, l, span, hash))
    }

    /// The variable named `name` (at `span`, of hash `hash`), created on
    /// first mention.
    #[inline]
    fn var(&self, st: &mut FnState, name: &'s str, span: Range<usize>, hash: u32) -> Var {
        if let Some(v) = find_var(self.src, st, name, hash) {
            return v;
        }
        let v = st.func.new_var(name, Type::I64);
        st.vars.insert(hash, v);
        st.var_at.push(span.into());
        v
    }

    /// An optional `: TYPE` after the name of `v` (at `span`): sets `v`'s
    /// type, which must agree with any type written for `v` before.
    fn type_annotation(&mut self, st: &mut FnState, v: Var, span: Range<usize>) -> Res<()> {
        if !self.is_punct(":") {
            return Ok(());
        }
        self.bump();
        let ty = self.ty()?;
        let here = span.start..self.prev_end();
        if let Some(prev) = st.typed_at[v].clone() {
            let had = st.func.var_type(v);
            if had != ty {
                let (line, _) = super::diag::line_col(self.src, prev.start);
                return fail(
                    Diagnostic::new(
                        format!(
                            "`{}` is given type `{ty}` here but `{had}` on line {line}",
                            &self.src[span]
                        ),
                        here,
                        "conflicting type",
                    )
                    .with_help("a variable has one type for the whole function"),
                );
            }
            return Ok(());
        }
        st.func.set_var_type(v, ty);
        st.typed_at[v] = Some(here);
        Ok(())
    }

    /// A definition's destination: `NAME` or `NAME: TYPE`.
    fn destination(&mut self, st: &mut FnState) -> Res<(Var, Range<usize>)> {
        let (d, span, hash) = self.hashed_name("a variable name")?;
        let v = self.var(st, d, span.clone(), hash);
        self.type_annotation(st, v, span.clone())?;
        Ok((v, span))
    }

    fn operand(&mut self, st: &mut FnState) -> Res<Operand> {
        let t = self.peek().clone();
        match t.kind {
            Tok::Int => {
                self.bump();
                self.int(&t.span).map(Operand::Const)
            }
            Tok::Punct
                if self.text(&t) == "-"
                    && self.peek_at(1).kind == Tok::Int
                    && self.peek_at(1).span.start == t.span.end =>
            {
                self.bump();
                let n = self.bump();
                self.int(&(t.span.start..n.span.end)).map(Operand::Const)
            }
            Tok::Ident if self.text(&t) == "undef" => {
                self.bump();
                Ok(Operand::Undef)
            }
            Tok::Ident => {
                let (n, span, hash) = self.hashed_name("an operand")?;
                Ok(Operand::Var(self.var(st, n, span, hash)))
            }
            _ => fail(self.err_here("an operand (variable, integer or `undef`)")),
        }
    }

    /// An integer literal, with a leading `-` written against its digits.
    fn literal(&mut self) -> Res<i64> {
        let t = self.peek().clone();
        if t.kind == Tok::Int {
            self.bump();
            return self.int(&t.span);
        }
        if t.kind == Tok::Punct && self.text(&t) == "-" && self.peek_at(1).kind == Tok::Int {
            self.bump();
            let n = self.bump();
            return self.int(&(t.span.start..n.span.end));
        }
        fail(self.err_here("an integer"))
    }

    /// The literal spelled at `span` (digits, with a leading `-` if negative).
    fn int(&self, span: &Range<usize>) -> Res<i64> {
        let digits = &self.src[span.clone()];
        digits.parse::<i64>().ok().ok_or_else(|| {
            Box::new(Diagnostic::new(
                format!("integer literal `{}` does not fit in 64 bits", if digits.len() > 40 { &digits[..40] } else { digits }),
                span.clone(),
                "out of range",
            )
            .with_help("values are 64-bit signed integers, from -9223372036854775808 to 9223372036854775807"))
        })
    }

    fn operand_list(&mut self, st: &mut FnState, close: &str) -> Res<Vec<Operand>> {
        self.list(close, |p| p.operand(st))
    }

    /// Whether the tokens ahead are a call or an operation: `NAME(` or
    /// `NAME[`.
    fn at_call(&self) -> bool {
        let t = self.peek();
        t.kind == Tok::Ident
            && !crate::ir::is_reserved(self.text(t))
            && (self.is_punct_at(1, "(") || self.is_punct_at(1, "["))
    }

    /// `NAME[imms](args)` or `NAME(args)`: an operation if `NAME` is a
    /// declared operator, else a call; `results` receive its results.
    fn call_or_op(
        &mut self,
        st: &mut FnState,
        results: &[Var],
        start: usize,
        calls: &mut Vec<CallSite>,
    ) -> Res<InstData> {
        let (f, fspan) = self.name("a function or operator name")?;
        let op = self.symbols.find_operator(f);
        let imms = if self.is_punct("[") {
            if op.is_none() {
                return fail(
                    Diagnostic::new(
                        format!("`{f}` has immediates but is not a declared operator"),
                        fspan,
                        "unknown operator",
                    )
                    .with_help(format!(
                    "declare it before the first function: `operator {f} pure` (or its effects)"
                )),
                );
            }
            self.bump();
            self.list("]", |p| p.literal())?
        } else {
            Vec::new()
        };
        self.expect_punct("(")?;
        let args = self.operand_list(st, ")")?;
        let args = st.func.list(&args);
        let results = st.func.list(results);
        Ok(match op {
            Some(op) => InstData::Op {
                op,
                imms: st.func.list(&imms),
                args,
                results,
            },
            None => {
                calls.push((fspan, args.len(), start..self.prev_end()));
                InstData::Call {
                    callee: self.symbols.callee(f),
                    args,
                    results,
                }
            }
        })
    }

    fn statement(&mut self, st: &mut FnState, b: Block, calls: &mut Vec<CallSite>) -> Res<()> {
        let start = self.peek().span.start;
        let t = self.peek().clone();
        let word = if t.kind == Tok::Ident {
            self.text(&t)
        } else {
            ""
        };
        let term = match word {
            "jump" => {
                self.bump();
                Some(Terminator::Jump(self.label(st)?))
            }
            "branch" => {
                self.bump();
                let cond = self.operand(st)?;
                self.expect_punct(",")?;
                let then_dest = self.label(st)?;
                self.expect_punct(",")?;
                let else_dest = self.label(st)?;
                Some(Terminator::Branch {
                    cond,
                    then_dest,
                    else_dest,
                })
            }
            "switch" => {
                self.bump();
                let value = self.operand(st)?;
                self.expect_punct(",")?;
                let default = self.label(st)?;
                self.expect_punct(",")?;
                self.expect_punct("[")?;
                let targets = self.list("]", |p| p.label(st))?;
                Some(st.func.switch_term(value, default, &targets))
            }
            "ret" => {
                self.bump();
                let mut vals = Vec::new();
                if !self.at_end_of_statement() {
                    loop {
                        vals.push(self.operand(st)?);
                        if !self.is_punct(",") {
                            break;
                        }
                        self.bump();
                    }
                }
                Some(st.func.ret_term(&vals))
            }
            "unreachable" => {
                self.bump();
                Some(Terminator::Unreachable)
            }
            _ => None,
        };
        if let Some(term) = term {
            if !st.phis.is_empty() {
                st.func.set_phis(b, &st.phis);
                st.phis.clear();
            }
            if !st.insts.is_empty() {
                st.func.set_insts(b, &st.insts);
                st.insts.clear();
            }
            st.func.set_term(b, term);
            st.terminated[b] = true;
            st.spans.terms[b] = (start..self.prev_end()).into();
            return Ok(());
        }
        let data = if word == "print" {
            self.bump();
            let mut args = Vec::new();
            if !self.at_end_of_statement() {
                loop {
                    args.push(self.operand(st)?);
                    if !self.is_punct(",") {
                        break;
                    }
                    self.bump();
                }
            }
            InstData::Print {
                args: st.func.list(&args),
            }
        } else if self.is_punct("(") {
            self.multi_definition(st, start, calls)?
        } else if self.at_call() {
            self.call_or_op(st, &[], start, calls)?
        } else if t.kind == Tok::Ident {
            let (dst, _) = self.destination(st)?;
            self.expect_punct("=")?;
            self.rhs(st, dst, start, calls)?
        } else {
            return fail(self.err_here("a statement"));
        };
        self.add_inst(st, data, start)
    }

    /// Adds the instruction of the statement that began at `start` and
    /// ended with the last token consumed to the current block's lists.
    fn add_inst(&self, st: &mut FnState, data: InstData, start: usize) -> Res<()> {
        let phi = data.is_phi();
        if phi && !st.insts.is_empty() {
            return fail(Diagnostic::new(
                "phi after an ordinary instruction",
                start..self.prev_end(),
                "phis must come first in their block",
            ));
        }
        let i = st.func.new_inst(data);
        if phi { &mut st.phis } else { &mut st.insts }.push(i);
        debug_assert_eq!(
            i.index(),
            st.spans.insts.len(),
            "instructions are created in order"
        );
        st.spans.insts.push((start..self.prev_end()).into());
        Ok(())
    }

    /// The statements most programs are made of, `NAME = OPERAND` and
    /// `NAME = OPERAND OP OPERAND`, read without [`Parser::statement`]'s
    /// search through every statement form; `false`, with nothing
    /// consumed, when the tokens ahead may begin anything else.
    ///
    /// The same as [`Parser::statement`] on the statements it takes: the
    /// four tokens ahead (`NAME`, `=`, then a variable not followed by `(`
    /// or `[`, or an integer) rule out a label, a type annotation, a
    /// keyword, a call, an operation, a phi and a unary operation; the
    /// variables are created in the same order (destination, then
    /// operands); an error past those tokens comes from the functions
    /// `statement` calls.
    #[inline]
    fn plain_assignment(&mut self, st: &mut FnState) -> Res<bool> {
        let (t0, t1, t2, t3) = (
            self.peek_at(0),
            self.peek_at(1),
            self.peek_at(2),
            self.peek_at(3),
        );
        let simple_operand = match t2.kind {
            Tok::Int => true,
            Tok::Ident => {
                !crate::ir::is_reserved(self.text(t2))
                    && !(t3.kind == Tok::Punct && (t3.code == punct("(") || t3.code == punct("[")))
            }
            _ => false,
        };
        if !(t0.kind == Tok::Ident
            && t1.kind == Tok::Punct
            && t1.code == punct("=")
            && simple_operand
            && !crate::ir::is_reserved(self.text(t0)))
        {
            return Ok(false);
        }
        let start = t0.span.start;
        let (d, span, hash) = self.hashed_name("a variable name")?;
        let dst = self.var(st, d, span, hash);
        self.advance(); // `=`
        let data = self.copy_or_binary(st, dst)?;
        self.add_inst(st, data, start)?;
        Ok(true)
    }

    /// `(d1, ..., dn) = (s1, ..., sn)`, a parallel copy, or
    /// `(d1, ..., dn) = f(...)`, a call or operation with several results.
    fn multi_definition(
        &mut self,
        st: &mut FnState,
        start: usize,
        calls: &mut Vec<CallSite>,
    ) -> Res<InstData> {
        self.expect_punct("(")?;
        let mut dsts: Vec<(Var, Range<usize>)> = Vec::new();
        loop {
            dsts.push(self.destination(st)?);
            if !self.is_punct(",") {
                break;
            }
            self.bump();
        }
        let close = self.expect_punct(")")?;
        self.expect_punct("=")?;
        let what = if self.at_call() {
            "one call or operation"
        } else {
            "one parallel copy"
        };
        let mut seen: HashSet<Var> = HashSet::default();
        for (v, span) in &dsts {
            if !seen.insert(*v) {
                return fail(Diagnostic::new(
                    format!("`{}` is written twice by {what}", &self.src[span.clone()]),
                    span.clone(),
                    "duplicate destination",
                ));
            }
        }
        if self.at_call() {
            let results: Vec<Var> = dsts.iter().map(|d| d.0).collect();
            return self.call_or_op(st, &results, start, calls);
        }
        let open = self.expect_punct("(")?;
        let srcs = self.operand_list(st, ")")?;
        if srcs.len() != dsts.len() {
            return fail(Diagnostic::new(
                format!(
                    "parallel copy has {} destination(s) but {} source(s)",
                    dsts.len(),
                    srcs.len()
                ),
                dsts[0].1.start..close.span.end.max(open.span.end),
                "counts differ",
            ));
        }
        let copies: Vec<(Var, Operand)> = dsts.into_iter().map(|(d, _)| d).zip(srcs).collect();
        Ok(InstData::ParCopy {
            copies: st.func.list(&copies),
        })
    }

    fn rhs(
        &mut self,
        st: &mut FnState,
        dst: Var,
        start: usize,
        calls: &mut Vec<CallSite>,
    ) -> Res<InstData> {
        let t = self.peek().clone();
        if t.kind == Tok::Ident && self.text(&t) == "phi" {
            self.bump();
            self.expect_punct("(")?;
            let args = self.list(")", |p| {
                let block = p.label(st)?;
                p.expect_punct(":")?;
                let value = p.operand(st)?;
                Ok(PhiArg { block, value })
            })?;
            return Ok(InstData::Phi {
                dst,
                args: st.func.list(&args),
            });
        }
        if self.at_call() {
            return self.call_or_op(st, &[dst], start, calls);
        }
        if t.kind == Tok::Punct {
            let s = self.text(&t);
            let neg_literal = s == "-"
                && self.peek_at(1).kind == Tok::Int
                && self.peek_at(1).span.start == t.span.end;
            if (s == "-" && !neg_literal) || s == "!" {
                self.bump();
                let op = if s == "-" { UnOp::Neg } else { UnOp::Not };
                let arg = self.operand(st)?;
                return Ok(InstData::Unary { dst, op, arg });
            }
        }
        self.copy_or_binary(st, dst)
    }

    /// `OPERAND` or `OPERAND OP OPERAND`, the right-hand side of a copy or
    /// a binary operation into `dst`.
    fn copy_or_binary(&mut self, st: &mut FnState, dst: Var) -> Res<InstData> {
        let lhs = self.operand(st)?;
        let t = self.peek();
        let op = (t.kind == Tok::Punct)
            .then(|| self.binops.iter().find(|b| b.0 == t.code))
            .flatten();
        Ok(match op {
            Some(&(_, op)) => {
                self.advance();
                let rhs = self.operand(st)?;
                InstData::Binary { dst, op, lhs, rhs }
            }
            None => InstData::Copy { dst, src: lhs },
        })
    }

    /// Checks that each phi has exactly one operand per distinct
    /// predecessor, and that no block without predecessors has phis.
    fn check_phis(&self, st: &FnState) -> Res<()> {
        let f = &st.func;
        if f.layout().iter().all(|&b| f.block_phis(b).is_empty()) {
            return Ok(()); // no CFG to build
        }
        let cfg = Cfg::new(f);
        // pred_stamp[p] == stamp marks p as a predecessor of the current
        // block; used_stamp[p] == stamp2 marks it as already labelled in the
        // current phi.
        let mut pred_stamp = vec![0u32; f.num_blocks()];
        let mut used_stamp = vec![0u32; f.num_blocks()];
        let mut stamp = 0u32;
        for &b in f.layout() {
            if f.block_phis(b).is_empty() {
                continue;
            }
            stamp += 1;
            let bstamp = stamp;
            let mut npreds = 0;
            for p in cfg.unique_preds(b) {
                pred_stamp[p.index()] = bstamp;
                npreds += 1;
            }
            if npreds == 0 {
                let i = f.block_phis(b)[0];
                return fail(
                    Diagnostic::new(
                        format!(
                            "phi in block `{}`, which has no predecessors",
                            f.block_name(b)
                        ),
                        st.spans.insts[i].range(),
                        "no edge leads here",
                    )
                    .with_help("a phi chooses a value by the edge taken into its block"),
                );
            }
            for &i in f.block_phis(b) {
                stamp += 1;
                let span = st.spans.insts[i].range();
                let args = f.phi_args(i);
                for a in args {
                    let name = f.block_name(a.block);
                    if pred_stamp[a.block.index()] != bstamp {
                        return fail(Diagnostic::new(
                            format!("phi operand labelled `{name}`, which is not a predecessor of block `{}`", f.block_name(b)),
                            span,
                            "not a predecessor",
                        ));
                    }
                    if used_stamp[a.block.index()] == stamp {
                        return fail(Diagnostic::new(
                            format!("phi has two operands for predecessor `{name}`"),
                            span,
                            "duplicate label",
                        ));
                    }
                    used_stamp[a.block.index()] = stamp;
                }
                if args.len() != npreds {
                    let missing = cfg
                        .unique_preds(b)
                        .find(|p| used_stamp[p.index()] != stamp)
                        .expect("a missing predecessor");
                    return fail(Diagnostic::new(
                        format!(
                            "phi has no operand for predecessor `{}`",
                            f.block_name(missing)
                        ),
                        span,
                        format!("block `{}` has {npreds} predecessor(s)", f.block_name(b)),
                    ));
                }
            }
        }
        Ok(())
    }
}

/// The variable of `st` named `name`, whose hash is `hash`.
#[inline]
fn find_var(src: &str, st: &FnState, name: &str, hash: u32) -> Option<Var> {
    let src = src.as_bytes();
    st.vars
        .find(hash, |v| src[st.var_at[v].range()] == *name.as_bytes())
}

/// Renumbers blocks so that block indices follow the layout (blocks are
/// created at their first mention, which may be a forward `jump`). Analyses
/// that order by index (dominator-tree children, for instance) then follow
/// program order.
fn renumber_blocks_in_layout_order(f: &mut Function, spans: &mut FunctionSpans) {
    if f.layout().iter().enumerate().all(|(i, b)| b.index() == i) {
        return;
    }
    let order = f.layout().to_vec();
    let new_of = f.renumber_blocks(&order);
    spans.blocks.permute(&new_of);
    spans.terms.permute(&new_of);
}

#[cfg(test)]
mod tests {
    use super::{parse, parse_with, refuse_too_long, Parser, MAX_SOURCE};

    #[test]
    fn a_source_past_4_gib_is_refused() {
        assert!(refuse_too_long(MAX_SOURCE).is_ok());
        let d = refuse_too_long(MAX_SOURCE + 1).unwrap_err();
        assert!(d.message.contains("4294967296 bytes long"), "{}", d.message);
        assert_eq!(d.span, 0..0);
    }

    use crate::text::print_module;

    /// The fast path for plain assignments against the general path, on
    /// every statement of up to four tokens from an alphabet of the
    /// tokens that decide between them (names, keywords, literals,
    /// punctuation, calls, types, comments), and on every one of up to
    /// three more after `x =` and up to two after `x = y +`: the same
    /// module, spans and variables in the same order, or the same error.
    #[test]
    fn plain_assignments_read_as_the_general_path_reads_them() {
        let alphabet = [
            "x",
            "y",
            "=",
            "1",
            "-",
            "-1",
            "+",
            "<<",
            "==",
            "undef",
            "phi",
            "jump",
            "(",
            ")",
            "[",
            ":",
            "i32",
            "f",
            ",",
            "#c",
            "!",
            "99999999999999999999",
            "1x",
            "@",
        ];
        let mut seen = 0;
        let mut stmt = Vec::new();
        let n = alphabet.len();
        let prefixes: [(&[&str], u32); 3] =
            [(&[], 4), (&["x", "="], 3), (&["x", "=", "y", "+"], 2)];
        for (prefix, most) in prefixes {
            for len in 1..=most {
                for mut code in 0..n.pow(len) {
                    stmt.clear();
                    stmt.extend_from_slice(prefix);
                    for _ in 0..len {
                        stmt.push(alphabet[code % n]);
                        code /= n;
                    }
                    // Tokens with and without spaces between them where they
                    // would not fuse.
                    for sep in [" ", ""] {
                        let line = stmt.join(sep);
                        let src = format!(
                            "function f(a) {{\nentry:\n    x = a\n    {line}\n    ret x\n}}\n"
                        );
                        let quick = parse(&src);
                        let mut p = Parser::new(&src);
                        p.quick = false;
                        let general = parse_with(p);
                        match (&quick, &general) {
                            (Ok(q), Ok(g)) => {
                                seen += 1;
                                let (fq, fg) = (&q.module.functions[0], &g.module.functions[0]);
                                assert_eq!(
                                    print_module(&q.module),
                                    print_module(&g.module),
                                    "{src}"
                                );
                                assert_eq!(q.spans[0].insts, g.spans[0].insts, "{src}");
                                let names = |f: &crate::ir::Function| {
                                    f.vars()
                                        .map(|v| f.base_name(v).to_string())
                                        .collect::<Vec<_>>()
                                };
                                assert_eq!(names(fq), names(fg), "{src}");
                            }
                            (Err(q), Err(g)) => assert_eq!(q, g, "{src}"),
                            _ => panic!("{src}: {:?} against {:?}", quick.is_ok(), general.is_ok()),
                        }
                    }
                }
            }
        }
        assert!(seen > 3000, "{seen} statements parsed");
    }
}
