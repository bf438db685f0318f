//! LLVM 14 textual IR for a program *not* in SSA form, the way a C front end
//! hands it to LLVM: every variable lives in an `alloca` slot, every use is a
//! `load` and every definition a `store`, so that LLVM's `mem2reg`
//! (`PromotePass`) does the SSA construction. It is the input of the
//! side-by-side benchmark against LLVM (`ssakit-compare`).
//!
//! ```text
//! define i64 @main(i64 %arg.0, i64 %arg.1) {
//! allocas:
//!   %n.addr = alloca i64                ; one slot per variable, parameters
//!   %x.addr = alloca i64                ; included, all in the entry block
//!   store i64 %arg.0, i64* %n.addr
//!   br label %entry.bb
//! entry.bb:
//!   %t.0 = load i64, i64* %n.addr
//!   %t.1 = add i64 %t.0, 1              ; x = n + 1
//!   store i64 %t.1, i64* %x.addr
//!   ...
//! ```
//!
//! # Names
//! Slots are `%NAME.addr`, blocks `%NAME.bb`, temporaries `%t.N`, incoming
//! arguments `%arg.N`, and the extra entry block `allocas` (our entry may
//! have predecessors, LLVM's may not). The suffixes keep the four kinds
//! apart whatever the program's names are; a name that is not a plain LLVM
//! identifier is quoted. Typed pointers (`i64*`) are used: LLVM 14's default.
//!
//! # Semantics
//! The output passes `opt -passes=verify` and executes with the
//! interpreter's semantics ([`crate::interp`]) wherever those are defined,
//! without introducing undefined behaviour of its own:
//!
//! * arithmetic is on `i64` and wraps (no `nsw`/`nuw` flags);
//! * `/` and `%` become `sdiv`/`srem` directly when the divisor is a
//!   constant other than 0 and -1 (the program generator's only case);
//!   otherwise the divisor is frozen and replaced by 1 when it is 0 or -1,
//!   and a `select` gives `-x` (wrapping) or 0 for a divisor of -1. A
//!   division by zero, an error for the interpreter, yields a value;
//! * shift amounts are masked to their low six bits (`and 63`);
//! * comparisons and `!` produce `i1` and are zero-extended to 0 or 1;
//! * a variable read before any store reads `undef`, exactly the chapter's
//!   ⊥ (and what `mem2reg` turns into `undef` operands). Branching on such a
//!   value is undefined in LLVM as it is an error for the interpreter;
//! * `print a, b` becomes one `call void @print_i64(i64)` per value and one
//!   `call void @print_newline()`; both are declared, not defined;
//! * a call to a function of the module is a direct call with its arity; a
//!   call to anything else is an external, declared variadic
//!   (`declare i64 @f(...)`) so that any arity works;
//! * every function returns `i64`; a bare `ret` returns 0;
//! * `unreachable` is LLVM's `unreachable`.
//!
//! What LLVM's `i64` world cannot express is refused with an [`EmitError`]
//! naming it: a variable of a type other than `i64`, a generic operation
//! (its meaning is not known here), a `ret` of several values and a call
//! with several results.
//!
//! With [`EmitOptions::opaque`], for timing `mem2reg` on programs this
//! world cannot express (lifted WebAssembly and machine code), only a
//! call of a module function with the wrong arity is refused: every
//! variable gets an `i64` slot whatever its type, an operation becomes a
//! call of an external `@op.NAME` (declared variadic; its immediates left
//! out) whose result every destination stores, a call's result is stored
//! into each of its destinations, and `ret` returns its first value. The loads and stores,
//! what `mem2reg` works on, are those of the program; its meaning is not
//! kept.
//!
//! Parallel copies are all loads, then all stores. The input is meant not to
//! be in SSA form, but phis are accepted too, demoted the way LLVM's
//! `reg2mem` does: a phi `x = phi(P: a, ...)` gets a second slot `%x.in`;
//! each predecessor `P` loads its operands and stores them into the `.in`
//! slots of its successors' phis just before its terminator, and the block
//! loads all its `.in` slots on entry and stores them into the phis' own
//! slots. Storing into `.in` rather than `x`'s own slot keeps the value of
//! `x` on the predecessor's other edges (the lost-copy problem), and loading
//! every `.in` before storing any slot keeps the phis simultaneous.

use crate::ir::{
    BinOp, Block, Function, Inst, InstData, Module, Operand, Terminator, Type, UnOp, Var, VarNames,
};
use std::collections::BTreeSet;
use std::fmt::{self, Write};

/// Why a module cannot be emitted.
///
/// ```
/// use ssakit::backend::llvm::emit_module;
/// // An LLVM function returns one `i64`.
/// let m = ssakit::text::parse_module("function pair() {\ne:\n    ret 1, 2\n}").unwrap();
/// let e = emit_module(&m).unwrap_err();
/// assert_eq!(e.func, "pair");
/// assert!(e.message.contains("`ret` of 2 values"));
/// assert!(e.to_string().starts_with("function `pair`: block `e`:"));
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EmitError {
    /// The function concerned.
    pub func: String,
    /// What is wrong.
    pub message: String,
}

impl fmt::Display for EmitError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "function `{}`: {}", self.func, self.message)
    }
}

impl std::error::Error for EmitError {}

/// Prints `m` as an LLVM 14 module: one `define` per function, then the
/// declarations of the print helpers and of every external called.
///
/// ```
/// use ssakit::backend::llvm::emit_module;
/// let m = ssakit::text::parse_module("function f(n) {\ne:\n    m = n + 1\n    ret m\n}\nfunction g() {\ne:\n    r = f(1)\n    print r\n    ret\n}").unwrap();
/// let ll = emit_module(&m).unwrap();
/// assert!(ll.contains("define i64 @f(i64 %arg.0) {"));
/// assert!(ll.contains("alloca i64"));
/// assert!(ll.contains("declare void @print_i64(i64)"));
/// ```
pub fn emit_module(m: &Module) -> Result<String, EmitError> {
    emit_module_with(m, &EmitOptions::default())
}

/// How [`emit_module_with`] emits.
///
/// ```
/// let o = ssakit::backend::llvm::EmitOptions::default();
/// assert!(!o.opaque);
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct EmitOptions {
    /// Refuse only calls of the wrong arity: every variable an `i64`
    /// slot, operations calls of externals (see the module doc). For timing `mem2reg` only: the
    /// output does not keep the program's meaning.
    pub opaque: bool,
}

/// [`emit_module`] with `opts`.
///
/// ```
/// use ssakit::backend::llvm::{emit_module, emit_module_with, EmitOptions};
/// let src = "operator i32.add pure\nfunction f(a: i32) {\ne:\n    b: i32 = i32.add(a, a)\n    ret b\n}\n";
/// let m = ssakit::text::parse_module(src).unwrap();
/// assert!(emit_module(&m).is_err());
/// let ll = emit_module_with(&m, &EmitOptions { opaque: true }).unwrap();
/// assert!(ll.contains("call i64 (...) @op.i32.add(i64 "));
/// assert!(ll.contains("declare i64 @op.i32.add(...)"));
/// ```
pub fn emit_module_with(m: &Module, opts: &EmitOptions) -> Result<String, EmitError> {
    let mut out = String::new();
    let mut externals = BTreeSet::new();
    for f in &m.functions {
        let mut e = FunctionEmitter::new(m, f, &mut out, &mut externals);
        e.opaque = opts.opaque;
        e.emit()?;
        out.push('\n');
    }
    out.push_str("declare void @print_i64(i64)\n");
    out.push_str("declare void @print_newline()\n");
    for e in &externals {
        let _ = writeln!(out, "declare i64 @{}(...)", ident(e));
    }
    Ok(out)
}

/// `name` as an LLVM identifier body: unchanged when it is a plain
/// identifier (`[-a-zA-Z$._][-a-zA-Z$._0-9]*`), else quoted with `\XX`
/// escapes for `"`, `\` and non-printable bytes.
fn ident(name: &str) -> String {
    let plain = |c: u8| c.is_ascii_alphanumeric() || matches!(c, b'-' | b'$' | b'.' | b'_');
    let b = name.as_bytes();
    if !b.is_empty() && !b[0].is_ascii_digit() && b.iter().all(|&c| plain(c)) {
        return name.to_string();
    }
    let mut s = String::from("\"");
    for &c in b {
        if c == b'"' || c == b'\\' || !(0x20..0x7f).contains(&c) {
            let _ = write!(s, "\\{c:02X}");
        } else {
            s.push(c as char);
        }
    }
    s.push('"');
    s
}

/// An operand once loaded: the text LLVM reads (`%t.3`, `42`, `undef`).
type Val = String;

struct FunctionEmitter<'a> {
    module: &'a Module,
    f: &'a Function,
    out: &'a mut String,
    externals: &'a mut BTreeSet<Box<str>>,
    /// The printed name of each variable.
    names: VarNames,
    /// `%NAME.addr` of each variable.
    slot: Vec<String>,
    /// Next temporary number.
    temp: usize,
    /// Per block `P`, the phi operands flowing out of it: `(phi
    /// destination, value)`, stored into the destinations' `.in` slots.
    incoming: Vec<Vec<(Var, Operand)>>,
    /// `%NAME.in` of each phi destination (empty for other variables).
    in_slot: Vec<String>,
    /// [`EmitOptions::opaque`].
    opaque: bool,
}

impl<'a> FunctionEmitter<'a> {
    fn new(
        module: &'a Module,
        f: &'a Function,
        out: &'a mut String,
        externals: &'a mut BTreeSet<Box<str>>,
    ) -> Self {
        let names = VarNames::new(f);
        let slot = f
            .vars()
            .map(|v| format!("%{}", ident(&format!("{}.addr", &names[v]))))
            .collect();
        FunctionEmitter {
            module,
            f,
            out,
            externals,
            names,
            slot,
            temp: 0,
            incoming: Vec::new(),
            in_slot: Vec::new(),
            opaque: false,
        }
    }

    /// Fills `incoming` and `in_slot` from the phis of `f`.
    fn collect_phis(&mut self) {
        let f = self.f;
        for &b in f.layout() {
            for &i in f.block_phis(b) {
                let InstData::Phi { dst, args } = f.inst(i) else {
                    continue;
                };
                if self.incoming.is_empty() {
                    self.incoming = vec![Vec::new(); f.num_blocks()];
                    self.in_slot = vec![String::new(); f.num_vars()];
                }
                self.in_slot[dst.index()] =
                    format!("%{}", ident(&format!("{}.in", &self.names[*dst])));
                for a in args.as_slice(f) {
                    self.incoming[a.block.index()].push((*dst, a.value));
                }
            }
        }
    }

    /// Refuses what cannot be emitted: a variable of a type other than
    /// `i64` (every variable gets an `i64` slot), a generic operation, a
    /// `ret` of several values, a call with several results.
    fn check(&self) -> Result<(), EmitError> {
        let f = self.f;
        if self.opaque {
            return Ok(());
        }
        if let Some(v) = f.vars().find(|&v| f.var_type(v) != Type::I64) {
            return Err(self.err(format!(
                "variable `{}` has type `{}`: only `i64` can be emitted",
                &self.names[v],
                f.var_type(v)
            )));
        }
        for &b in f.layout() {
            for i in f.block_all_insts(b) {
                match f.inst(i) {
                    InstData::Op { op, .. } => {
                        return Err(self.err(format!(
                            "block `{}`: operation `{}` cannot be emitted",
                            f.block_name(b),
                            f.operator_name(*op)
                        )))
                    }
                    InstData::Call {
                        callee, results, ..
                    } if results.len() > 1 => {
                        return Err(self.err(format!(
                            "block `{}`: call of `{}` with {} results cannot be emitted \
                             (a function returns one `i64`)",
                            f.block_name(b),
                            f.callee_name(*callee),
                            results.len()
                        )))
                    }
                    _ => {}
                }
            }
            if let Terminator::Ret(vals) = f.term(b) {
                if vals.len() > 1 {
                    return Err(self.err(format!(
                        "block `{}`: `ret` of {} values cannot be emitted \
                         (a function returns one `i64`)",
                        f.block_name(b),
                        vals.len()
                    )));
                }
            }
        }
        Ok(())
    }

    fn err(&self, message: impl Into<String>) -> EmitError {
        EmitError {
            func: self.f.name().to_string(),
            message: message.into(),
        }
    }

    fn label(&self, b: Block) -> String {
        format!("%{}", ident(&format!("{}.bb", self.f.block_name(b))))
    }

    fn fresh(&mut self) -> String {
        let t = format!("%t.{}", self.temp);
        self.temp += 1;
        t
    }

    /// Loads `o` if it is a variable; constants and `undef` are used as is.
    fn value(&mut self, o: Operand) -> Val {
        match o {
            Operand::Var(v) => {
                let t = self.fresh();
                let _ = writeln!(self.out, "  {t} = load i64, i64* {}", self.slot[v.index()]);
                t
            }
            Operand::Const(c) => c.to_string(),
            Operand::Undef => "undef".to_string(),
        }
    }

    fn store(&mut self, v: Var, val: &str) {
        let _ = writeln!(self.out, "  store i64 {val}, i64* {}", self.slot[v.index()]);
    }

    /// Emits `op` and returns the temporary holding its `i64` result.
    fn inst(&mut self, op: &str) -> Val {
        let t = self.fresh();
        let _ = writeln!(self.out, "  {t} = {op}");
        t
    }

    fn emit(mut self) -> Result<(), EmitError> {
        let f = self.f;
        if f.layout().is_empty() {
            return Err(self.err("function has no blocks"));
        }
        self.check()?;
        let params: Vec<String> = (0..f.params().len())
            .map(|k| format!("i64 %arg.{k}"))
            .collect();
        let _ = writeln!(
            self.out,
            "define i64 @{}({}) {{\nallocas:",
            ident(f.name()),
            params.join(", ")
        );
        self.collect_phis();
        for v in f.vars() {
            let _ = writeln!(self.out, "  {} = alloca i64", self.slot[v.index()]);
        }
        for s in self.in_slot.iter().filter(|s| !s.is_empty()) {
            let _ = writeln!(self.out, "  {s} = alloca i64");
        }
        for (k, &p) in f.params().iter().enumerate() {
            self.store(p, &format!("%arg.{k}"));
        }
        let entry = self.label(f.entry());
        let _ = writeln!(self.out, "  br label {entry}");
        for &b in f.layout() {
            let _ = writeln!(self.out, "{}:", &self.label(b)[1..]);
            // Phis: every `.in` slot loaded, then every own slot stored.
            let mut phi_vals = Vec::with_capacity(f.block_phis(b).len());
            for &i in f.block_phis(b) {
                let Some(d) = f.def(i) else { continue };
                let t = self.fresh();
                let _ = writeln!(
                    self.out,
                    "  {t} = load i64, i64* {}",
                    self.in_slot[d.index()]
                );
                phi_vals.push((d, t));
            }
            for (d, t) in phi_vals {
                self.store(d, &t);
            }
            for &i in f.block_insts(b) {
                self.emit_inst(i)?;
            }
            // Operands of successors' phis, into their `.in` slots.
            if let Some(out) = self.incoming.get(b.index()).cloned() {
                let vals: Vec<Val> = out.iter().map(|&(_, o)| self.value(o)).collect();
                for (&(d, _), v) in out.iter().zip(&vals) {
                    let _ = writeln!(
                        self.out,
                        "  store i64 {v}, i64* {}",
                        self.in_slot[d.index()]
                    );
                }
            }
            self.emit_term(f.term(b));
        }
        self.out.push_str("}\n");
        Ok(())
    }

    fn emit_inst(&mut self, i: Inst) -> Result<(), EmitError> {
        let f = self.f;
        match f.inst(i) {
            InstData::Copy { dst, src } => {
                let v = self.value(*src);
                self.store(*dst, &v);
            }
            InstData::Unary { dst, op, arg } => {
                let a = self.value(*arg);
                let r = match op {
                    UnOp::Neg => self.inst(&format!("sub i64 0, {a}")),
                    UnOp::Not => {
                        let c = self.inst(&format!("icmp eq i64 {a}, 0"));
                        self.inst(&format!("zext i1 {c} to i64"))
                    }
                };
                self.store(*dst, &r);
            }
            InstData::Binary { dst, op, lhs, rhs } => {
                let l = self.value(*lhs);
                let r = self.value(*rhs);
                let res = self.binary(*op, &l, &r, *rhs);
                self.store(*dst, &res);
            }
            InstData::Call {
                callee,
                args,
                results,
            } => {
                let func = f.callee_name(*callee);
                let args = args.as_slice(f);
                let vals: Vec<String> = args
                    .iter()
                    .map(|&a| format!("i64 {}", self.value(a)))
                    .collect();
                let callee = match self.module.function(func) {
                    Some(g) if g.params().len() == args.len() => format!("@{}", ident(func)),
                    Some(g) => {
                        return Err(self.err(format!(
                            "call of `{func}` with {} argument(s); it takes {}",
                            args.len(),
                            g.params().len()
                        )))
                    }
                    None => {
                        if matches!(func, "print_i64" | "print_newline") {
                            return Err(self
                                .err(format!("external `{func}` clashes with the print helpers")));
                        }
                        self.externals.insert(func.into());
                        format!("(...) @{}", ident(func))
                    }
                };
                let r = self.inst(&format!("call i64 {callee}({})", vals.join(", ")));
                for &d in results.as_slice(f) {
                    self.store(d, &r);
                }
            }
            InstData::Print { args } => {
                for &a in args.as_slice(f) {
                    let v = self.value(a);
                    let _ = writeln!(self.out, "  call void @print_i64(i64 {v})");
                }
                self.out.push_str("  call void @print_newline()\n");
            }
            InstData::ParCopy { copies } => {
                let copies = copies.as_slice(f);
                let vals: Vec<Val> = copies.iter().map(|&(_, s)| self.value(s)).collect();
                for (&(d, _), v) in copies.iter().zip(&vals) {
                    self.store(d, v);
                }
            }
            InstData::Op {
                op, args, results, ..
            } if self.opaque => {
                let vals: Vec<String> = args
                    .as_slice(f)
                    .iter()
                    .map(|&a| format!("i64 {}", self.value(a)))
                    .collect();
                let name = format!("op.{}", f.operator_name(*op));
                let r = self.inst(&format!(
                    "call i64 (...) @{}({})",
                    ident(&name),
                    vals.join(", ")
                ));
                self.externals.insert(name.into());
                for &d in results.as_slice(f) {
                    self.store(d, &r);
                }
            }
            InstData::Op { op, .. } => {
                return Err(self.err(format!(
                    "operation `{}` cannot be emitted",
                    f.operator_name(*op)
                )));
            }
            InstData::Phi { .. } => {
                return Err(self.err("phi among ordinary instructions"));
            }
        }
        Ok(())
    }

    /// `l op r` with the interpreter's semantics and no undefined behaviour
    /// (see the module doc); `rhs` is the unloaded right operand.
    fn binary(&mut self, op: BinOp, l: &str, r: &str, rhs: Operand) -> Val {
        let simple = |name: &str| format!("{name} i64 {l}, {r}");
        let cmp = |pred: &str| format!("icmp {pred} i64 {l}, {r}");
        match op {
            BinOp::Add => self.inst(&simple("add")),
            BinOp::Sub => self.inst(&simple("sub")),
            BinOp::Mul => self.inst(&simple("mul")),
            BinOp::And => self.inst(&simple("and")),
            BinOp::Or => self.inst(&simple("or")),
            BinOp::Xor => self.inst(&simple("xor")),
            BinOp::Shl | BinOp::Shr => {
                let name = if op == BinOp::Shl { "shl" } else { "ashr" };
                let amount = match rhs {
                    Operand::Const(c) => (c & 63).to_string(),
                    _ => self.inst(&format!("and i64 {r}, 63")),
                };
                self.inst(&format!("{name} i64 {l}, {amount}"))
            }
            BinOp::Div | BinOp::Rem => {
                let name = if op == BinOp::Div { "sdiv" } else { "srem" };
                match rhs {
                    Operand::Const(c) if c != 0 && c != -1 => self.inst(&simple(name)),
                    _ => {
                        let fr = self.inst(&format!("freeze i64 {r}"));
                        let z = self.inst(&format!("icmp eq i64 {fr}, 0"));
                        let m = self.inst(&format!("icmp eq i64 {fr}, -1"));
                        let bad = self.inst(&format!("or i1 {z}, {m}"));
                        let safe = self.inst(&format!("select i1 {bad}, i64 1, i64 {fr}"));
                        let q = self.inst(&format!("{name} i64 {l}, {safe}"));
                        let at_minus_one = if op == BinOp::Div {
                            self.inst(&format!("sub i64 0, {l}"))
                        } else {
                            "0".to_string()
                        };
                        self.inst(&format!("select i1 {m}, i64 {at_minus_one}, i64 {q}"))
                    }
                }
            }
            BinOp::Eq | BinOp::Ne | BinOp::Lt | BinOp::Le | BinOp::Gt | BinOp::Ge => {
                let pred = match op {
                    BinOp::Eq => "eq",
                    BinOp::Ne => "ne",
                    BinOp::Lt => "slt",
                    BinOp::Le => "sle",
                    BinOp::Gt => "sgt",
                    _ => "sge",
                };
                let c = self.inst(&cmp(pred));
                self.inst(&format!("zext i1 {c} to i64"))
            }
        }
    }

    fn emit_term(&mut self, t: &Terminator) {
        match t {
            Terminator::Jump(b) => {
                let _ = writeln!(self.out, "  br label {}", self.label(*b));
            }
            Terminator::Branch {
                cond,
                then_dest,
                else_dest,
            } => {
                let c = self.value(*cond);
                let c = self.inst(&format!("icmp ne i64 {c}, 0"));
                let _ = writeln!(
                    self.out,
                    "  br i1 {c}, label {}, label {}",
                    self.label(*then_dest),
                    self.label(*else_dest)
                );
            }
            Terminator::Switch {
                value,
                default,
                targets,
            } => {
                let v = self.value(*value);
                let _ = write!(
                    self.out,
                    "  switch i64 {v}, label {} [",
                    self.label(*default)
                );
                for (k, &t) in targets.as_slice(self.f).iter().enumerate() {
                    let _ = write!(self.out, "\n    i64 {k}, label {}", self.label(t));
                }
                self.out.push_str("\n  ]\n");
            }
            Terminator::Ret(vals) => {
                let v = match vals.as_slice(self.f) {
                    [] => "0".to_string(),
                    [o, ..] => self.value(*o),
                };
                let _ = writeln!(self.out, "  ret i64 {v}");
            }
            Terminator::Unreachable => self.out.push_str("  unreachable\n"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn plain_names_stay_and_others_are_quoted() {
        assert_eq!(ident("x.addr"), "x.addr");
        assert_eq!(ident("1x"), "\"1x\"");
        assert_eq!(ident("a\"b"), "\"a\\22b\"");
    }

    #[test]
    fn a_small_function() {
        let m = crate::text::parse_module(
            "function main(n) {\nentry:\n    x = n / 3\n    y = n % x\n    print x, y\n    z = ext(x)\n    ret z\n}\n",
        )
        .unwrap();
        let ir = emit_module(&m).unwrap();
        assert!(
            ir.contains("define i64 @main(i64 %arg.0) {\nallocas:\n"),
            "{ir}"
        );
        assert!(ir.contains("sdiv i64 %t.0, 3"), "{ir}");
        assert!(ir.contains("freeze"), "{ir}");
        assert!(ir.contains("call i64 (...) @ext(i64 "), "{ir}");
        assert!(ir.contains("declare i64 @ext(...)"), "{ir}");
        assert_eq!(ir.matches("call void @print_i64").count(), 2);
    }

    /// What the plain emitter refuses, `opaque` emits: a `bool` and an
    /// `i32` variable get `i64` slots, an operation with two results is
    /// one external call stored into both, a call with two results too,
    /// `ret` returns its first value.
    #[test]
    fn opaque_emits_what_the_plain_emitter_refuses() {
        let src = "operator two pure\nfunction g(x) {\ne:\n    ret x\n}\n\
                   function f(a: i32) -> (i32, bool) {\ne:\n    (b: i32, c: bool) = two(a, 7)\n    \
                   (d, e) = h(a)\n    ret b, c\n}\n";
        let m = crate::text::parse_module(src).unwrap();
        assert!(emit_module(&m).is_err());
        let ir = emit_module_with(&m, &EmitOptions { opaque: true }).unwrap();
        assert!(ir.contains("%c.addr = alloca i64"), "{ir}");
        assert!(
            ir.contains("call i64 (...) @op.two(i64 %t.0, i64 7)"),
            "{ir}"
        );
        assert!(
            ir.contains("store i64 %t.1, i64* %b.addr\n  store i64 %t.1, i64* %c.addr"),
            "{ir}"
        );
        assert!(
            ir.contains("store i64 %t.3, i64* %d.addr\n  store i64 %t.3, i64* %e.addr"),
            "{ir}"
        );
        assert!(
            ir.contains("declare i64 @h(...)\ndeclare i64 @op.two(...)"),
            "{ir}"
        );
        assert_eq!(ir.matches("  ret i64 %t.").count(), 2, "{ir}");
    }

    #[test]
    fn phis_are_demoted_through_in_slots() {
        let m = crate::text::parse_module(
            "function main(n) {\nentry:\n    jump b\nb:\n    x = phi(entry: n)\n    ret x\n}\n",
        )
        .unwrap();
        let ir = emit_module(&m).unwrap();
        assert!(ir.contains("%x.in = alloca i64"), "{ir}");
        assert!(
            ir.contains("store i64 %t.0, i64* %x.in\n  br label %b.bb"),
            "{ir}"
        );
        assert!(
            ir.contains("b.bb:\n  %t.1 = load i64, i64* %x.in\n  store i64 %t.1, i64* %x.addr"),
            "{ir}"
        );
    }

    #[test]
    fn unreachable_is_llvm_unreachable() {
        let m = crate::text::parse_module(
            "function main(n) {\nentry:\n    branch n, a, b\na:\n    unreachable\nb:\n    ret n\n}\n",
        )
        .unwrap();
        let ir = emit_module(&m).unwrap();
        assert!(ir.contains("a.bb:\n  unreachable\nb.bb:"), "{ir}");
    }

    #[test]
    fn what_llvm_i64_cannot_express_is_refused_by_name() {
        let err = |src: &str| {
            let m = crate::text::parse_module(src).unwrap();
            emit_module(&m).unwrap_err().to_string()
        };
        assert_eq!(
            err("function main(n) {\nentry:\n    x: f64 = undef\n    ret n\n}\n"),
            "function `main`: variable `x` has type `f64`: only `i64` can be emitted"
        );
        assert_eq!(
            err("operator i64.popcnt pure\n\nfunction main(n) {\nentry:\n    x = i64.popcnt(n)\n    ret x\n}\n"),
            "function `main`: block `entry`: operation `i64.popcnt` cannot be emitted"
        );
        assert_eq!(
            err("function main(n) {\nentry:\n    ret n, n\n}\n"),
            "function `main`: block `entry`: `ret` of 2 values cannot be emitted \
             (a function returns one `i64`)"
        );
    }
}
