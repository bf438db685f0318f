//! The `.ssa` parser: tokens to a [`Module`], with spans for diagnostics.
//!
//! A hand-written recursive-descent parser over a flat token list; the
//! grammar has no nesting deeper than one function, so nothing recurses on
//! input size. Every error is a [`Diagnostic`] naming the offending text.
//! Checks done here, beyond syntax: duplicate and unknown labels, blocks
//! without terminator, statements after a terminator, phis after ordinary
//! instructions, phi labels that are not exactly the block's predecessors,
//! duplicate parameters and parallel-copy destinations, calls to functions
//! of the module with the wrong number of arguments, and duplicate function
//! names.

use super::diag::Diagnostic;
use super::lexer::{lex, Tok, Token};
use crate::entity::EntityVec;
use crate::ir::{
    BinOp, Block, BlockData, Cfg, Function, Inst, InstData, Module, Operand, PhiArg, Terminator,
    UnOp, Var,
};
use rustc_hash::FxHashMap as HashMap;
use std::ops::Range;

/// Words that cannot name a variable, a label or a function.
pub const KEYWORDS: [&str; 8] = [
    "function", "phi", "print", "jump", "branch", "switch", "ret", "undef",
];

/// Where each part of a parsed function came from in the source.
#[derive(Clone, Debug, Default)]
pub struct FunctionSpans {
    /// The function's name.
    pub name: Range<usize>,
    /// Each instruction's statement.
    pub insts: EntityVec<Inst, Range<usize>>,
    /// Each block's label.
    pub blocks: EntityVec<Block, Range<usize>>,
    /// Each block's terminator statement.
    pub terms: EntityVec<Block, Range<usize>>,
}

/// A parsed module and the spans of its functions (same order).
#[derive(Clone, Debug)]
pub struct Parsed {
    /// The module.
    pub module: Module,
    /// Spans of `module.functions[i]` at index `i`.
    pub spans: Vec<FunctionSpans>,
}

/// Parses a module, returning the first error.
pub fn parse(src: &str) -> Result<Parsed, Diagnostic> {
    let toks = lex(src)?;
    let mut p = Parser { src, toks, pos: 0 };
    let mut module = Module::default();
    let mut spans = Vec::new();
    let mut calls = Vec::new();
    let mut fn_index: HashMap<&str, usize> = HashMap::default();
    loop {
        p.skip_newlines();
        if p.peek().kind == Tok::Eof {
            break;
        }
        let (f, s) = p.function(&mut calls)?;
        if let Some(&prev) = fn_index.get(&src[s.name.clone()]) {
            let prev: &FunctionSpans = &spans[prev];
            let (l, _) = super::diag::line_col(src, prev.name.start);
            return Err(Diagnostic::new(
                format!("duplicate function `{}`", &src[s.name.clone()]),
                s.name,
                format!("first defined on line {l}"),
            ));
        }
        fn_index.insert(&src[s.name.clone()], module.functions.len());
        module.functions.push(f);
        spans.push(s);
    }
    if module.functions.is_empty() {
        return Err(Diagnostic::new(
            "no function in input",
            0..0,
            "expected `function NAME(...) {`",
        ));
    }
    for (name, arity, span) in calls {
        if let Some(&fi) = fn_index.get(&src[name.clone()]) {
            let want = module.functions[fi].params.len();
            if want != arity {
                return Err(Diagnostic::new(
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
    Ok(Parsed { module, spans })
}

/// Parses a module, dropping spans.
pub fn parse_module(src: &str) -> Result<Module, Diagnostic> {
    parse(src).map(|p| p.module)
}

struct Parser<'s> {
    src: &'s str,
    toks: Vec<Token>,
    pos: usize,
}

/// Per-function state: names to entities, and label bookkeeping.
struct FnState<'s> {
    func: Function,
    spans: FunctionSpans,
    vars: HashMap<&'s str, Var>,
    labels: HashMap<&'s str, Block>,
    /// First reference to each block, for "unknown label" errors.
    first_ref: EntityVec<Block, Range<usize>>,
    defined: EntityVec<Block, bool>,
    terminated: EntityVec<Block, bool>,
}

type Res<T> = Result<T, Diagnostic>;

impl<'s> Parser<'s> {
    fn peek(&self) -> &Token {
        &self.toks[self.pos]
    }
    fn peek_at(&self, k: usize) -> &Token {
        &self.toks[(self.pos + k).min(self.toks.len() - 1)]
    }
    fn text(&self, t: &Token) -> &'s str {
        &self.src[t.span.clone()]
    }
    fn bump(&mut self) -> Token {
        let t = self.toks[self.pos].clone();
        if t.kind != Tok::Eof {
            self.pos += 1;
        }
        t
    }
    fn is_punct(&self, s: &str) -> bool {
        let t = self.peek();
        t.kind == Tok::Punct && self.text(t) == s
    }
    fn is_word(&self, s: &str) -> bool {
        let t = self.peek();
        t.kind == Tok::Ident && self.text(t) == s
    }
    fn skip_newlines(&mut self) {
        while self.peek().kind == Tok::Newline {
            self.pos += 1;
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
            Err(self.err_here(&format!("`{s}`")))
        }
    }
    /// An identifier that is not a keyword.
    fn name(&mut self, what: &str) -> Res<(&'s str, Range<usize>)> {
        let t = self.peek().clone();
        if t.kind != Tok::Ident {
            return Err(self.err_here(what));
        }
        let s = self.text(&t);
        if KEYWORDS.contains(&s) {
            return Err(Diagnostic::new(
                format!("`{s}` is a keyword and cannot be used as {what}"),
                t.span,
                "keyword",
            ));
        }
        self.bump();
        Ok((s, t.span))
    }
    fn end_of_statement(&mut self) -> Res<()> {
        match self.peek().kind {
            Tok::Newline => {
                self.bump();
                Ok(())
            }
            Tok::Eof => Ok(()),
            _ if self.is_punct("}") => Ok(()),
            _ => Err(self.err_here("end of line")),
        }
    }

    fn function(
        &mut self,
        calls: &mut Vec<(Range<usize>, usize, Range<usize>)>,
    ) -> Res<(Function, FunctionSpans)> {
        if !self.is_word("function") {
            return Err(self.err_here("`function`"));
        }
        self.bump();
        let (name, name_span) = self.name("a function name")?;
        let mut st = FnState {
            func: Function::new(name),
            spans: FunctionSpans {
                name: name_span,
                ..Default::default()
            },
            vars: HashMap::default(),
            labels: HashMap::default(),
            first_ref: EntityVec::new(),
            defined: EntityVec::new(),
            terminated: EntityVec::new(),
        };
        self.expect_punct("(")?;
        if !self.is_punct(")") {
            loop {
                let (p, span) = self.name("a parameter name")?;
                if st.vars.contains_key(p) {
                    return Err(Diagnostic::new(
                        format!("duplicate parameter `{p}`"),
                        span,
                        "already a parameter",
                    ));
                }
                let v = st.func.new_var(p);
                st.vars.insert(p, v);
                st.func.params.push(v);
                if !self.is_punct(",") {
                    break;
                }
                self.bump();
            }
        }
        self.expect_punct(")")?;
        self.expect_punct("{")?;
        let mut current: Option<Block> = None;
        loop {
            self.skip_newlines();
            if self.is_punct("}") {
                break;
            }
            if self.peek().kind == Tok::Eof {
                return Err(self.err_here("`}` closing the function"));
            }
            // A label: `NAME:`.
            if self.peek().kind == Tok::Ident
                && self.peek_at(1).kind == Tok::Punct
                && self.text(self.peek_at(1)) == ":"
            {
                if let Some(b) = current {
                    self.check_terminated(&st, b)?;
                }
                let (l, span) = self.name("a label")?;
                self.bump(); // ':'
                let b = self.block_ref(&mut st, l, span.clone());
                if st.defined[b] {
                    let (line, _) = super::diag::line_col(self.src, st.spans.blocks[b].start);
                    return Err(Diagnostic::new(
                        format!("duplicate label `{l}`"),
                        span,
                        format!("first defined on line {line}"),
                    ));
                }
                st.defined[b] = true;
                st.spans.blocks[b] = span;
                st.func.layout.push(b);
                current = Some(b);
                continue;
            }
            let Some(b) = current else {
                return Err(Diagnostic::new(
                    "statement before the first label",
                    self.peek().span.clone(),
                    "not in a block",
                )
                .with_help("start the function body with a label such as `entry:`"));
            };
            if st.terminated[b] {
                return Err(Diagnostic::new(
                    format!("statement after the terminator of block `{}`", st.func.blocks[b].name),
                    self.peek().span.clone(),
                    "unreachable statement",
                )
                .with_help("a block ends at its `jump`, `branch`, `switch` or `ret`; start a new block with a label"));
            }
            self.statement(&mut st, b, calls)?;
            self.end_of_statement()?;
        }
        let close = self.bump();
        match current {
            None => {
                return Err(Diagnostic::new(
                    format!("function `{name}` has no blocks"),
                    close.span,
                    "empty body",
                ))
            }
            Some(b) => self.check_terminated(&st, b)?,
        }
        for b in st.func.blocks.keys() {
            if !st.defined[b] {
                return Err(Diagnostic::new(
                    format!("unknown label `{}`", st.func.blocks[b].name),
                    st.first_ref[b].clone(),
                    "no block has this label",
                ));
            }
        }
        self.check_phis(&st)?;
        renumber_blocks_in_layout_order(&mut st.func, &mut st.spans);
        Ok((st.func, st.spans))
    }

    fn check_terminated(&self, st: &FnState<'s>, b: Block) -> Res<()> {
        if st.terminated[b] {
            return Ok(());
        }
        Err(Diagnostic::new(
            format!("block `{}` has no terminator", st.func.blocks[b].name),
            st.spans.blocks[b].clone(),
            "this block does not end in `jump`, `branch`, `switch` or `ret`",
        ))
    }

    /// The block labelled `l`, created on first mention.
    fn block_ref(&self, st: &mut FnState<'s>, l: &'s str, span: Range<usize>) -> Block {
        if let Some(&b) = st.labels.get(l) {
            return b;
        }
        let b = st.func.blocks.push(BlockData {
            name: l.into(),
            phis: Vec::new(),
            insts: Vec::new(),
            term: Terminator::Ret(None),
        });
        st.labels.insert(l, b);
        st.first_ref.push(span.clone());
        st.defined.push(false);
        st.terminated.push(false);
        st.spans.blocks.push(span.clone());
        st.spans.terms.push(span);
        b
    }

    fn label(&mut self, st: &mut FnState<'s>) -> Res<Block> {
        let (l, span) = self.name("a label")?;
        Ok(self.block_ref(st, l, span))
    }

    fn var(&self, st: &mut FnState<'s>, name: &'s str) -> Var {
        if let Some(&v) = st.vars.get(name) {
            return v;
        }
        let v = st.func.new_var(name);
        st.vars.insert(name, v);
        v
    }

    fn operand(&mut self, st: &mut FnState<'s>) -> Res<Operand> {
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
                let (n, _) = self.name("an operand")?;
                Ok(Operand::Var(self.var(st, n)))
            }
            _ => Err(self.err_here("an operand (variable, integer or `undef`)")),
        }
    }

    /// The literal spelled at `span` (digits, with a leading `-` if negative).
    fn int(&self, span: &Range<usize>) -> Res<i64> {
        let digits = &self.src[span.clone()];
        digits.parse::<i64>().ok().ok_or_else(|| {
            Diagnostic::new(
                format!("integer literal `{}` does not fit in 64 bits", if digits.len() > 40 { &digits[..40] } else { digits }),
                span.clone(),
                "out of range",
            )
            .with_help("values are 64-bit signed integers, from -9223372036854775808 to 9223372036854775807")
        })
    }

    fn operand_list(&mut self, st: &mut FnState<'s>, close: &str) -> Res<Vec<Operand>> {
        let mut out = Vec::new();
        if !self.is_punct(close) {
            loop {
                out.push(self.operand(st)?);
                if !self.is_punct(",") {
                    break;
                }
                self.bump();
            }
        }
        self.expect_punct(close)?;
        Ok(out)
    }

    fn statement(
        &mut self,
        st: &mut FnState<'s>,
        b: Block,
        calls: &mut Vec<(Range<usize>, usize, Range<usize>)>,
    ) -> Res<()> {
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
                let mut targets = Vec::new();
                if !self.is_punct("]") {
                    loop {
                        targets.push(self.label(st)?);
                        if !self.is_punct(",") {
                            break;
                        }
                        self.bump();
                    }
                }
                self.expect_punct("]")?;
                Some(Terminator::Switch {
                    value,
                    default,
                    targets,
                })
            }
            "ret" => {
                self.bump();
                let v = if matches!(self.peek().kind, Tok::Newline | Tok::Eof) || self.is_punct("}")
                {
                    None
                } else {
                    Some(self.operand(st)?)
                };
                Some(Terminator::Ret(v))
            }
            _ => None,
        };
        if let Some(term) = term {
            st.func.blocks[b].term = term;
            st.terminated[b] = true;
            st.spans.terms[b] = start..self.toks[self.pos - 1].span.end;
            return Ok(());
        }
        let data = if word == "print" {
            self.bump();
            let mut args = Vec::new();
            if !matches!(self.peek().kind, Tok::Newline | Tok::Eof) && !self.is_punct("}") {
                loop {
                    args.push(self.operand(st)?);
                    if !self.is_punct(",") {
                        break;
                    }
                    self.bump();
                }
            }
            InstData::Print { args }
        } else if self.is_punct("(") {
            self.parallel_copy(st)?
        } else if t.kind == Tok::Ident
            && self.peek_at(1).kind == Tok::Punct
            && self.text(self.peek_at(1)) == "("
        {
            let (f, fspan) = self.name("a function name")?;
            self.bump();
            let args = self.operand_list(st, ")")?;
            calls.push((fspan, args.len(), start..self.toks[self.pos - 1].span.end));
            InstData::Call {
                dst: None,
                func: f.into(),
                args,
            }
        } else if t.kind == Tok::Ident {
            let (d, _) = self.name("a variable name")?;
            let dst = self.var(st, d);
            self.expect_punct("=")?;
            self.rhs(st, dst, start, calls)?
        } else {
            return Err(self.err_here("a statement"));
        };
        if data.is_phi() && !st.func.blocks[b].insts.is_empty() {
            return Err(Diagnostic::new(
                "phi after an ordinary instruction",
                start..self.toks[self.pos - 1].span.end,
                "phis must come first in their block",
            ));
        }
        let i = st.func.push_inst(b, data);
        st.spans.insts.ensure(i, 0..0);
        st.spans.insts[i] = start..self.toks[self.pos - 1].span.end;
        Ok(())
    }

    fn parallel_copy(&mut self, st: &mut FnState<'s>) -> Res<InstData> {
        self.expect_punct("(")?;
        let mut dsts: Vec<(Var, Range<usize>)> = Vec::new();
        loop {
            let (d, span) = self.name("a variable name")?;
            let v = self.var(st, d);
            if dsts.iter().any(|(x, _)| *x == v) {
                return Err(Diagnostic::new(
                    format!("`{d}` is written twice by one parallel copy"),
                    span,
                    "duplicate destination",
                ));
            }
            dsts.push((v, span));
            if !self.is_punct(",") {
                break;
            }
            self.bump();
        }
        let close = self.expect_punct(")")?;
        self.expect_punct("=")?;
        let open = self.expect_punct("(")?;
        let srcs = self.operand_list(st, ")")?;
        if srcs.len() != dsts.len() {
            return Err(Diagnostic::new(
                format!(
                    "parallel copy has {} destination(s) but {} source(s)",
                    dsts.len(),
                    srcs.len()
                ),
                dsts[0].1.start..close.span.end.max(open.span.end),
                "counts differ",
            ));
        }
        Ok(InstData::ParCopy {
            copies: dsts.into_iter().map(|(d, _)| d).zip(srcs).collect(),
        })
    }

    fn rhs(
        &mut self,
        st: &mut FnState<'s>,
        dst: Var,
        start: usize,
        calls: &mut Vec<(Range<usize>, usize, Range<usize>)>,
    ) -> Res<InstData> {
        let t = self.peek().clone();
        if t.kind == Tok::Ident && self.text(&t) == "phi" {
            self.bump();
            self.expect_punct("(")?;
            let mut args = Vec::new();
            if !self.is_punct(")") {
                loop {
                    let block = self.label(st)?;
                    self.expect_punct(":")?;
                    let value = self.operand(st)?;
                    args.push(PhiArg { block, value });
                    if !self.is_punct(",") {
                        break;
                    }
                    self.bump();
                }
            }
            self.expect_punct(")")?;
            return Ok(InstData::Phi { dst, args });
        }
        if t.kind == Tok::Ident
            && self.text(&t) != "undef"
            && self.peek_at(1).kind == Tok::Punct
            && self.text(self.peek_at(1)) == "("
        {
            let (f, fspan) = self.name("a function name")?;
            self.bump();
            let args = self.operand_list(st, ")")?;
            calls.push((fspan, args.len(), start..self.toks[self.pos - 1].span.end));
            return Ok(InstData::Call {
                dst: Some(dst),
                func: f.into(),
                args,
            });
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
        let lhs = self.operand(st)?;
        let t = self.peek().clone();
        if t.kind == Tok::Punct {
            if let Some(op) = BinOp::from_symbol(self.text(&t)) {
                self.bump();
                let rhs = self.operand(st)?;
                return Ok(InstData::Binary { dst, op, lhs, rhs });
            }
        }
        Ok(InstData::Copy { dst, src: lhs })
    }

    /// Checks that each phi has exactly one operand per distinct predecessor.
    fn check_phis(&self, st: &FnState<'s>) -> Res<()> {
        let f = &st.func;
        let cfg = Cfg::new(f);
        // seen[p] == stamp marks p as a predecessor of the current block;
        // used[p] == stamp2 marks it as already labelled in the current phi.
        let mut pred_stamp = vec![0u32; f.blocks.len()];
        let mut used_stamp = vec![0u32; f.blocks.len()];
        let mut stamp = 0u32;
        for &b in &f.layout {
            if f.blocks[b].phis.is_empty() {
                continue;
            }
            stamp += 1;
            let bstamp = stamp;
            let mut npreds = 0;
            for p in cfg.unique_preds(b) {
                pred_stamp[p.index()] = bstamp;
                npreds += 1;
            }
            for &i in &f.blocks[b].phis {
                stamp += 1;
                let InstData::Phi { args, .. } = &f.insts[i] else {
                    unreachable!()
                };
                let span = st.spans.insts[i].clone();
                for a in args {
                    let name = &f.blocks[a.block].name;
                    if pred_stamp[a.block.index()] != bstamp {
                        return Err(Diagnostic::new(
                            format!("phi operand labelled `{name}`, which is not a predecessor of block `{}`", f.blocks[b].name),
                            span,
                            "not a predecessor",
                        ));
                    }
                    if used_stamp[a.block.index()] == stamp {
                        return Err(Diagnostic::new(
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
                    return Err(Diagnostic::new(
                        format!(
                            "phi has no operand for predecessor `{}`",
                            f.blocks[missing].name
                        ),
                        span,
                        format!("block `{}` has {npreds} predecessor(s)", f.blocks[b].name),
                    ));
                }
            }
        }
        Ok(())
    }
}

/// Renumbers blocks so that block indices follow the layout (blocks are
/// created at their first mention, which may be a forward `jump`). Analyses
/// that order by index (dominator-tree children, for instance) then follow
/// program order.
fn renumber_blocks_in_layout_order(f: &mut Function, spans: &mut FunctionSpans) {
    if f.layout.iter().enumerate().all(|(i, b)| b.index() == i) {
        return;
    }
    let mut new_of = vec![Block(0); f.blocks.len()];
    for (i, &b) in f.layout.iter().enumerate() {
        new_of[b.index()] = Block::new(i);
    }
    let old = std::mem::take(&mut f.blocks).into_vec();
    let mut slots: Vec<Option<BlockData>> = old.into_iter().map(Some).collect();
    let old_spans = (
        std::mem::take(&mut spans.blocks).into_vec(),
        std::mem::take(&mut spans.terms).into_vec(),
    );
    for &b in &f.layout {
        let mut bd = slots[b.index()]
            .take()
            .expect("each block once in the layout");
        bd.term.for_each_succ_mut(|t| *t = new_of[t.index()]);
        f.blocks.push(bd);
        spans.blocks.push(old_spans.0[b.index()].clone());
        spans.terms.push(old_spans.1[b.index()].clone());
    }
    for data in f.insts.values_mut() {
        if let InstData::Phi { args, .. } = data {
            for a in args {
                a.block = new_of[a.block.index()];
            }
        }
    }
    for (i, b) in f.layout.iter_mut().enumerate() {
        *b = Block::new(i);
    }
}
