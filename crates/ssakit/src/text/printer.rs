//! The `.ssa` printer. Its output parses back to the same function (up to
//! the origin of SSA versions, which the text keeps only in their names).
//!
//! Types are printed where they are not the default `i64`: on parameters,
//! on every definition of a variable, and on declared results.

use crate::decimal::push_i64;
use crate::ir::{
    Function, Inst, InstData, Module, Operand, Operator, PrintNames, PushName, Terminator, Type,
    UnOp, Var,
};
use rustc_hash::FxHashSet;
use std::fmt::Write;

/// Prints every function of a module, separated by blank lines, after the
/// declarations of the operators they use.
///
/// ```
/// use ssakit::text::{parse_module, print_module};
/// let src = "function f() {\nentry:\n    ret 1\n}\n\nfunction g(x) {\nentry:\n    ret x\n}\n";
/// let m = parse_module(src).unwrap();
/// assert_eq!(print_module(&m), src);
/// ```
pub fn print_module(m: &Module) -> String {
    let mut out = print_declarations(m);
    out.reserve(m.functions.iter().map(text_estimate).sum());
    for (i, f) in m.functions.iter().enumerate() {
        if i > 0 {
            out.push('\n');
        }
        write_function(&mut out, f);
    }
    out
}

/// The `operator NAME EFFECTS` lines of the operators the functions of
/// `m` use, in order of first use, followed by a blank line; empty when
/// no operation is used.
///
/// ```
/// use ssakit::text::{parse_module, print_declarations};
/// let src = "operator i32.add pure\n\nfunction f(a, b) {\nentry:\n    c = i32.add(a, b)\n    ret c\n}\n";
/// let m = parse_module(src).unwrap();
/// assert_eq!(print_declarations(&m), "operator i32.add pure\n\n");
/// let plain = parse_module("function f() {\nentry:\n    ret 0\n}\n").unwrap();
/// assert_eq!(print_declarations(&plain), "");
/// ```
pub fn print_declarations(m: &Module) -> String {
    let mut out = String::new();
    let mut seen: FxHashSet<&str> = FxHashSet::default();
    for f in &m.functions {
        for &b in f.layout() {
            for &i in f.block_insts(b) {
                if let InstData::Op { op, .. } = f.inst(i) {
                    let d = f.symbols().operator_data(*op);
                    if seen.insert(&d.name) {
                        let _ = writeln!(out, "operator {} {}", d.name, d.effects);
                    }
                }
            }
        }
    }
    if !out.is_empty() {
        out.push('\n');
    }
    out
}

/// Prints one function (without operator declarations: see
/// [`print_declarations`]).
///
/// ```
/// use ssakit::text::{parse_module, print_function};
/// let src = "function f(n) {\nentry:\n    m = n * 2\n    ret m\n}\n";
/// let m = parse_module(src).unwrap();
/// assert_eq!(print_function(&m.functions[0]), src);
/// ```
pub fn print_function(f: &Function) -> String {
    // Sized up front: growing a multi-megabyte string by doubling costs
    // copies and, in glibc, consolidations of freed small blocks.
    let mut out = String::with_capacity(text_estimate(f));
    write_function(&mut out, f);
    out
}

/// Prints `f` exactly as [`print_function`] does, handing the text to
/// `sink` a piece at a time: each piece ends at a line end and holds at
/// least `piece` bytes, but the last. The text of a function of a million
/// blocks (tens of megabytes) is never held whole, only one piece of it;
/// the first error of `sink` stops the printing and is returned.
///
/// ```
/// use ssakit::text::{parse_module, print_function, print_function_in_pieces};
/// let src = "function f(n) {\nentry:\n    jump a\na:\n    m = n * 2\n    ret m\n}\n";
/// let f = &parse_module(src).unwrap().functions[0];
/// let mut pieces = Vec::new();
/// print_function_in_pieces(f, 1, |s| {
///     pieces.push(s.to_string());
///     Ok::<_, ()>(())
/// })
/// .unwrap();
/// assert_eq!(pieces.concat(), print_function(f));
/// assert_eq!(pieces[0], "function f(n) {\nentry:\n    jump a\n"); // a piece a block
/// ```
pub fn print_function_in_pieces<E>(
    f: &Function,
    piece: usize,
    mut sink: impl FnMut(&str) -> Result<(), E>,
) -> Result<(), E> {
    let mut out = String::with_capacity(text_estimate(f).min(piece.saturating_add(4096)));
    write_function_with(&mut out, f, |out| {
        if out.len() >= piece {
            sink(out)?;
            out.clear();
        }
        Ok(())
    })?;
    sink(&out)
}

/// The length of the text [`print_function`] makes of `f`, roughly (a
/// little over it on generated programs): to size the output once, or to
/// decide to print it in pieces ([`print_function_in_pieces`]).
///
/// ```
/// use ssakit::text::{parse_module, print_function, text_estimate};
/// let f = &parse_module("function f(n) {\nentry:\n    m = n * 2\n    ret m\n}\n").unwrap().functions[0];
/// assert!(text_estimate(f) >= print_function(f).len());
/// ```
pub fn text_estimate(f: &Function) -> usize {
    24 * f.inst_slots() + 16 * f.layout().len() + 64
}

fn operand(out: &mut String, names: &impl PushName, o: Operand) {
    match o {
        Operand::Var(v) => names.push_name(out, v),
        Operand::Const(c) => push_i64(out, c),
        Operand::Undef => out.push_str("undef"),
    }
}

fn operands(out: &mut String, names: &impl PushName, ops: impl IntoIterator<Item = Operand>) {
    for (i, o) in ops.into_iter().enumerate() {
        if i > 0 {
            out.push_str(", ");
        }
        operand(out, names, o);
    }
}

/// A variable being defined: its name, and its type unless `i64`.
fn def(out: &mut String, f: &Function, names: &impl PushName, v: Var) {
    names.push_name(out, v);
    let ty = f.var_type(v);
    if ty != Type::I64 {
        out.push_str(": ");
        out.push_str(ty.name());
    }
}

/// `d = ` for one result, `(d1, d2) = ` for several, nothing for none.
fn results(out: &mut String, f: &Function, names: &impl PushName, vars: &[Var]) {
    match vars {
        [] => {}
        [v] => {
            def(out, f, names, *v);
            out.push_str(" = ");
        }
        _ => {
            out.push('(');
            for (k, &v) in vars.iter().enumerate() {
                if k > 0 {
                    out.push_str(", ");
                }
                def(out, f, names, v);
            }
            out.push_str(") = ");
        }
    }
}

fn operation(out: &mut String, f: &Function, names: &impl PushName, op: Operator, imms: &[i64]) {
    out.push_str(f.operator_name(op));
    if !imms.is_empty() {
        out.push('[');
        for (k, m) in imms.iter().enumerate() {
            if k > 0 {
                out.push_str(", ");
            }
            push_i64(out, *m);
        }
        out.push(']');
    }
    let _ = names;
}

/// Appends the text of instruction `i` (no indentation, no newline).
pub(crate) fn write_inst(out: &mut String, f: &Function, names: &impl PushName, i: Inst) {
    match f.inst(i) {
        InstData::Copy { dst, src } => {
            def(out, f, names, *dst);
            out.push_str(" = ");
            operand(out, names, *src);
        }
        InstData::Unary { dst, op, arg } => {
            def(out, f, names, *dst);
            out.push_str(" = ");
            out.push_str(op.symbol());
            // `x = -5` would read back as the literal -5: keep a space.
            if *op == UnOp::Neg && matches!(arg, Operand::Const(_)) {
                out.push(' ');
            }
            operand(out, names, *arg);
        }
        InstData::Binary { dst, op, lhs, rhs } => {
            def(out, f, names, *dst);
            out.push_str(" = ");
            operand(out, names, *lhs);
            out.push(' ');
            out.push_str(op.symbol());
            out.push(' ');
            operand(out, names, *rhs);
        }
        InstData::Call {
            callee,
            args,
            results: r,
        } => {
            results(out, f, names, r.as_slice(f));
            out.push_str(f.callee_name(*callee));
            out.push('(');
            operands(out, names, args.as_slice(f).iter().copied());
            out.push(')');
        }
        InstData::Op {
            op,
            imms,
            args,
            results: r,
        } => {
            results(out, f, names, r.as_slice(f));
            operation(out, f, names, *op, imms.as_slice(f));
            out.push('(');
            operands(out, names, args.as_slice(f).iter().copied());
            out.push(')');
        }
        InstData::Print { args } => {
            out.push_str("print");
            if !args.is_empty() {
                out.push(' ');
                operands(out, names, args.as_slice(f).iter().copied());
            }
        }
        InstData::Phi { dst, args } => {
            def(out, f, names, *dst);
            out.push_str(" = phi(");
            for (k, a) in args.as_slice(f).iter().enumerate() {
                if k > 0 {
                    out.push_str(", ");
                }
                out.push_str(f.block_name(a.block));
                out.push_str(": ");
                operand(out, names, a.value);
            }
            out.push(')');
        }
        InstData::ParCopy { copies } => {
            let copies = copies.as_slice(f);
            out.push('(');
            for (k, &(d, _)) in copies.iter().enumerate() {
                if k > 0 {
                    out.push_str(", ");
                }
                def(out, f, names, d);
            }
            out.push_str(") = (");
            operands(out, names, copies.iter().map(|c| c.1));
            out.push(')');
        }
    }
}

/// Appends the text of terminator `t` (no indentation, no newline).
pub(crate) fn write_term(out: &mut String, f: &Function, names: &impl PushName, t: &Terminator) {
    let name = |b| f.block_name(b);
    match t {
        Terminator::Jump(b) => {
            out.push_str("jump ");
            out.push_str(name(*b));
        }
        Terminator::Branch {
            cond,
            then_dest,
            else_dest,
        } => {
            out.push_str("branch ");
            operand(out, names, *cond);
            out.push_str(", ");
            out.push_str(name(*then_dest));
            out.push_str(", ");
            out.push_str(name(*else_dest));
        }
        Terminator::Switch {
            value,
            default,
            targets,
        } => {
            out.push_str("switch ");
            operand(out, names, *value);
            out.push_str(", ");
            out.push_str(name(*default));
            out.push_str(", [");
            for (k, &t) in targets.as_slice(f).iter().enumerate() {
                if k > 0 {
                    out.push_str(", ");
                }
                out.push_str(name(t));
            }
            out.push(']');
        }
        Terminator::Ret(vals) => {
            out.push_str("ret");
            if !vals.is_empty() {
                out.push(' ');
                operands(out, names, vals.as_slice(f).iter().copied());
            }
        }
        Terminator::Unreachable => out.push_str("unreachable"),
    }
}

fn write_function(out: &mut String, f: &Function) {
    let done: Result<(), std::convert::Infallible> = write_function_with(out, f, |_| Ok(()));
    let Ok(()) = done;
}

/// Appends `f`'s text to `out`, calling `after_block` after each block
/// (with `out`, which it may drain).
fn write_function_with<E>(
    out: &mut String,
    f: &Function,
    mut after_block: impl FnMut(&mut String) -> Result<(), E>,
) -> Result<(), E> {
    let names = PrintNames::new(f);
    out.push_str("function ");
    out.push_str(f.name());
    out.push('(');
    for (k, &p) in f.params().iter().enumerate() {
        if k > 0 {
            out.push_str(", ");
        }
        def(out, f, &names, p);
    }
    out.push(')');
    match f.returns() {
        None => {}
        Some([t]) => {
            out.push_str(" -> ");
            out.push_str(t.name());
        }
        Some(ts) => {
            out.push_str(" -> (");
            for (k, t) in ts.iter().enumerate() {
                if k > 0 {
                    out.push_str(", ");
                }
                out.push_str(t.name());
            }
            out.push(')');
        }
    }
    out.push_str(" {\n");
    for &b in f.layout() {
        out.push_str(f.block_name(b));
        out.push_str(":\n");
        for i in f.block_all_insts(b) {
            out.push_str("    ");
            write_inst(out, f, &names, i);
            out.push('\n');
        }
        out.push_str("    ");
        write_term(out, f, &names, f.term(b));
        out.push('\n');
        after_block(out)?;
    }
    out.push_str("}\n");
    Ok(())
}
