//! The `.ssa` printer. Its output parses back to the same function (up to
//! the origin of SSA versions, which the text keeps only in their names).

use crate::ir::{Function, InstData, Module, Operand, Terminator, UnOp, VarNames};
use std::fmt::Write;

/// Prints every function of a module, separated by blank lines.
pub fn print_module(m: &Module) -> String {
    let mut out = String::new();
    for (i, f) in m.functions.iter().enumerate() {
        if i > 0 {
            out.push('\n');
        }
        write_function(&mut out, f);
    }
    out
}

/// Prints one function.
pub fn print_function(f: &Function) -> String {
    // Sized up front: growing a multi-megabyte string by doubling costs
    // copies and, in glibc, consolidations of freed small blocks.
    let mut out = String::with_capacity(24 * f.insts.len() + 16 * f.layout.len() + 64);
    write_function(&mut out, f);
    out
}

fn operand(out: &mut String, names: &VarNames, o: Operand) {
    match o {
        Operand::Var(v) => out.push_str(&names[v]),
        Operand::Const(c) => {
            let _ = write!(out, "{c}");
        }
        Operand::Undef => out.push_str("undef"),
    }
}

fn operands(out: &mut String, names: &VarNames, ops: impl IntoIterator<Item = Operand>) {
    for (i, o) in ops.into_iter().enumerate() {
        if i > 0 {
            out.push_str(", ");
        }
        operand(out, names, o);
    }
}

/// Appends the text of instruction `data` (no indentation, no newline).
pub fn write_inst(out: &mut String, f: &Function, names: &VarNames, data: &InstData) {
    match data {
        InstData::Copy { dst, src } => {
            let _ = write!(out, "{} = ", &names[*dst]);
            operand(out, names, *src);
        }
        InstData::Unary { dst, op, arg } => {
            let _ = write!(out, "{} = {}", &names[*dst], op.symbol());
            // `x = -5` would read back as the literal -5: keep a space.
            if *op == UnOp::Neg && matches!(arg, Operand::Const(_)) {
                out.push(' ');
            }
            operand(out, names, *arg);
        }
        InstData::Binary { dst, op, lhs, rhs } => {
            let _ = write!(out, "{} = ", &names[*dst]);
            operand(out, names, *lhs);
            let _ = write!(out, " {} ", op.symbol());
            operand(out, names, *rhs);
        }
        InstData::Call { dst, func, args } => {
            if let Some(d) = dst {
                let _ = write!(out, "{} = ", &names[*d]);
            }
            let _ = write!(out, "{func}(");
            operands(out, names, args.iter().copied());
            out.push(')');
        }
        InstData::Print { args } => {
            out.push_str("print");
            if !args.is_empty() {
                out.push(' ');
                operands(out, names, args.iter().copied());
            }
        }
        InstData::Phi { dst, args } => {
            let _ = write!(out, "{} = phi(", &names[*dst]);
            for (i, a) in args.iter().enumerate() {
                if i > 0 {
                    out.push_str(", ");
                }
                let _ = write!(out, "{}: ", f.blocks[a.block].name);
                operand(out, names, a.value);
            }
            out.push(')');
        }
        InstData::ParCopy { copies } => {
            out.push('(');
            for (i, (d, _)) in copies.iter().enumerate() {
                if i > 0 {
                    out.push_str(", ");
                }
                out.push_str(&names[*d]);
            }
            out.push_str(") = (");
            operands(out, names, copies.iter().map(|c| c.1));
            out.push(')');
        }
    }
}

/// Appends the text of terminator `t` (no indentation, no newline).
pub fn write_term(out: &mut String, f: &Function, names: &VarNames, t: &Terminator) {
    let name = |b: crate::ir::Block| &*f.blocks[b].name;
    match t {
        Terminator::Jump(b) => {
            let _ = write!(out, "jump {}", name(*b));
        }
        Terminator::Branch {
            cond,
            then_dest,
            else_dest,
        } => {
            out.push_str("branch ");
            operand(out, names, *cond);
            let _ = write!(out, ", {}, {}", name(*then_dest), name(*else_dest));
        }
        Terminator::Switch {
            value,
            default,
            targets,
        } => {
            out.push_str("switch ");
            operand(out, names, *value);
            let _ = write!(out, ", {}, [", name(*default));
            for (i, t) in targets.iter().enumerate() {
                if i > 0 {
                    out.push_str(", ");
                }
                out.push_str(name(*t));
            }
            out.push(']');
        }
        Terminator::Ret(v) => {
            out.push_str("ret");
            if let Some(v) = v {
                out.push(' ');
                operand(out, names, *v);
            }
        }
    }
}

fn write_function(out: &mut String, f: &Function) {
    let names = VarNames::new(f);
    let _ = write!(out, "function {}(", f.name);
    for (i, p) in f.params.iter().enumerate() {
        if i > 0 {
            out.push_str(", ");
        }
        out.push_str(&names[*p]);
    }
    out.push_str(") {\n");
    for &b in &f.layout {
        let bd = &f.blocks[b];
        let _ = writeln!(out, "{}:", bd.name);
        for &i in bd.phis.iter().chain(&bd.insts) {
            out.push_str("    ");
            write_inst(out, f, &names, &f.insts[i]);
            out.push('\n');
        }
        out.push_str("    ");
        write_term(out, f, &names, &bd.term);
        out.push('\n');
    }
    out.push_str("}\n");
}
