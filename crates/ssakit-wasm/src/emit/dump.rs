//! The results of the emitter's steps as readable text, one step at a
//! time (`ssakit wasm opt --dump structure|stackify|locals`), like QBE's
//! debug flags: what [`Steps`] holds, per function.
//!
//! * **structure**: the structured items, indented by nesting; every
//!   `block`, `loop` and `if` gets a label (`L0`, `L1`, ... in the order
//!   they open) and every branch names the label its depth reaches
//!   (`fn`: the function's body, a return). Past [`MAX_INDENT`] levels
//!   the indentation stops growing and the line starts with its depth
//!   (`[40001] `), so that the text of 100,000 nested loops stays linear
//!   in their number.
//! * **stackify**: per block body, in emitted order, each instruction
//!   (numbered by its position; `-` for the terminator) and what
//!   [`super::stackify`] made of it: not emitted, a tree's root, or
//!   absorbed into the tree at a position; ending with `local.tee`; and
//!   where each result goes (the stack, under later trees, a local, or
//!   dropped).
//! * **locals**: each local with its type and the variables that share
//!   it, the declarations' groups, and the variables with no local.

use super::ctl::Ctl;
use super::plan::val_type;
use super::stackify::Stackified;
use super::{Dump, Lowering, Steps};
use crate::error::WasmError;
use ssakit::entity::{EntityRef, SecondaryMap};
use ssakit::ir::{Block, Function, Var, VarNames};
use std::fmt::Write;
use wasm_encoder::ValType;

/// The text of step `what` of emitting `f` (destructed): a header line
/// naming the function, then the step's result, indented.
///
/// # Errors
/// What emitting `f` fails with in the steps before the code is written.
pub(crate) fn function(f: &Function, low: &Lowering<'_>, what: Dump) -> Result<String, WasmError> {
    let steps = Steps::run(f, low).map_err(|e| e.located(f))?;
    let mut out = format!("function {}:\n", f.name());
    match what {
        Dump::Structure => structure(&mut out, f, &steps),
        Dump::Stackify => stackify(&mut out, f, &steps),
        Dump::Locals => locals(&mut out, f, &steps),
    }
    Ok(out)
}

/// The deepest nesting shown by indentation (two spaces a level); deeper
/// lines are indented as deep and say their depth.
const MAX_INDENT: usize = 32;

/// The structured items, indented by nesting, labels resolved.
fn structure(out: &mut String, f: &Function, steps: &Steps) {
    let s = &steps.structured;
    // The labels open around the current item, innermost last.
    let mut open: Vec<u32> = Vec::new();
    let mut next = 0u32;
    let label = |open: &[u32], depth: u32| match open.len().checked_sub(depth as usize + 1) {
        Some(k) => format!("L{}", open[k]),
        None => "fn".to_string(),
    };
    for &c in &s.items {
        let indent = match c {
            Ctl::Else | Ctl::End => open.len().saturating_sub(1),
            _ => open.len(),
        };
        out.push_str(&"  ".repeat(indent.min(MAX_INDENT) + 1));
        if indent > MAX_INDENT {
            let _ = write!(out, "[{indent}] ");
        }
        let name = |b: Block| f.block_name(b).to_string();
        let mut opens = |kind: &str| {
            open.push(next);
            next += 1;
            format!("{kind} L{}", next - 1)
        };
        let line = match c {
            Ctl::Body(b) => format!("body {}", name(b)),
            Ctl::Block => opens("block"),
            Ctl::Loop => opens("loop"),
            Ctl::If(b) => format!("{} (branch of {})", opens("if"), name(b)),
            Ctl::IfNot(b) => format!("{} (branch of {}, negated)", opens("if"), name(b)),
            Ctl::Else => "else".to_string(),
            Ctl::End => match open.pop() {
                Some(l) => format!("end L{l}"),
                None => "end".to_string(),
            },
            Ctl::Br(d) => format!("br {}", label(&open, d)),
            Ctl::BrIf {
                block,
                negate,
                depth,
            } => {
                let not = if negate { ", negated" } else { "" };
                format!(
                    "br_if {} (branch of {}{not})",
                    label(&open, depth),
                    name(block)
                )
            }
            Ctl::BrTable {
                start,
                len,
                default,
                block,
            } => {
                let targets: Vec<String> = s.depths[start as usize..(start + len) as usize]
                    .iter()
                    .map(|&d| label(&open, d))
                    .collect();
                format!(
                    "br_table [{}] default {} (switch of {})",
                    targets.join(", "),
                    label(&open, default),
                    name(block)
                )
            }
            Ctl::Ret(b) => format!("ret (of {})", name(b)),
            Ctl::Unreachable => "unreachable".to_string(),
        };
        out.push_str(&line);
        out.push('\n');
    }
}

/// Each instruction's `.ssa` text, by the printer: the printed function
/// split into lines, and where each block's lines start.
struct Text {
    lines: Vec<String>,
    /// The line of each block's first instruction.
    first: SecondaryMap<Block, usize>,
}

impl Text {
    fn new(f: &Function) -> Text {
        let printed = ssakit::text::print_function(f);
        let lines: Vec<String> = printed.lines().map(|l| l.trim().to_string()).collect();
        let mut first = SecondaryMap::new(0);
        // The header, then per block its label, its phis, its
        // instructions and its terminator (`print_function`'s layout).
        let mut at = 1;
        for &b in f.layout() {
            at += 1 + f.block_phis(b).len();
            first[b] = at;
            at += f.block_insts(b).len() + 1;
        }
        debug_assert_eq!(at + 1, lines.len(), "one line per instruction, then `}}`");
        Text { lines, first }
    }

    /// The text of the `k`-th instruction of `b` (`k` its length: the
    /// terminator).
    fn line(&self, b: Block, k: usize) -> &str {
        self.lines.get(self.first[b] + k).map_or("", |l| l.as_str())
    }
}

/// Per block body in emitted order, what stackify made of each
/// instruction.
fn stackify(out: &mut String, f: &Function, steps: &Steps) {
    let st = &steps.stackified;
    let text = Text::new(f);
    let names = VarNames::new(f);
    for c in &steps.structured.items {
        let Ctl::Body(b) = *c else { continue };
        let _ = writeln!(out, "  {}:", f.block_name(b));
        let insts = f.block_insts(b);
        for (k, &i) in insts.iter().enumerate() {
            let mut what: Vec<String> = Vec::new();
            if st.drops(f, i) {
                what.push("not emitted".into());
            } else if st.absorbed[i] {
                let at = st.at[i] as usize;
                what.push(match at {
                    a if a == k => "absorbed (in place)".into(),
                    a if a == insts.len() => "absorbed, moved to the terminator".into(),
                    a => format!("absorbed, moved to {a}"),
                });
            } else {
                what.push("root".into());
            }
            if st.teed[i] {
                what.push("local.tee".into());
            }
            if !st.drops(f, i) {
                f.for_each_def(i, |v| {
                    let place = off_locals(st, v).unwrap_or("to a local");
                    what.push(format!("{} {place}", &names[v]));
                    if st.tee_under[v].is_some() {
                        what.push("and on the stack under later trees".into());
                    }
                });
            }
            let _ = writeln!(
                out,
                "    {k:>3}  {:<36} {}",
                text.line(b, k),
                what.join("; ")
            );
        }
        let _ = writeln!(out, "      -  {:<36} root", text.line(b, insts.len()));
    }
}

/// Each local with its type and variables, the groups, the variables
/// with none.
fn locals(out: &mut String, f: &Function, steps: &Steps) {
    let a = &steps.locals;
    let names = VarNames::new(f);
    let params = f.params().len();
    // The type of every local: the parameters', then the groups'.
    let mut types: Vec<ValType> = f
        .params()
        .iter()
        .map(|&p| val_type(f.var_type(p)))
        .collect();
    for &(n, t) in &a.groups {
        types.extend(std::iter::repeat_n(t, n as usize));
    }
    let mut held: Vec<Vec<&str>> = vec![Vec::new(); types.len()];
    let mut none: Vec<String> = Vec::new();
    let st = &steps.stackified;
    // The variables the emitted code names (destruction leaves others
    // in the function's table).
    let mut named: SecondaryMap<Var, bool> = SecondaryMap::new(false);
    for &p in f.params() {
        named[p] = true;
    }
    for c in &steps.structured.items {
        let Ctl::Body(b) = *c else { continue };
        for &i in f.block_insts(b) {
            f.for_each_def(i, |v| named[v] = true);
            f.for_each_use(i, |v| named[v] = true);
        }
        f.for_each_term_use(b, |v| named[v] = true);
    }
    for v in (0..f.num_vars()).filter(|&v| named[Var::new(v)]) {
        let var = Var::new(v);
        match a
            .local
            .get(var)
            .and_then(|l| l.expand())
            .map(EntityRef::index)
        {
            Some(l) if l < held.len() => held[l].push(&names[var]),
            _ => {
                let why = off_locals(st, var).unwrap_or("not emitted");
                none.push(format!("{} ({why})", &names[var]));
            }
        }
    }
    let groups: Vec<String> = a
        .groups
        .iter()
        .map(|(n, t)| format!("{n} {}", ty(*t)))
        .collect();
    let _ = writeln!(
        out,
        "  {params} params, {} declared locals (groups: {})",
        a.count,
        if groups.is_empty() {
            "none".to_string()
        } else {
            groups.join(", ")
        }
    );
    // Declared (a selector is `i64`) when past the assigned locals.
    let scratch = Some(steps.scratch as usize).filter(|&l| l < params + a.count);
    for (l, vars) in held.iter().enumerate() {
        let role = if l < params {
            " (param)"
        } else if Some(l) == scratch {
            " (scratch of an i64 switch selector)"
        } else {
            ""
        };
        let _ = writeln!(
            out,
            "  local {l} {}{role}: {}",
            ty(types[l]),
            vars.join(", ")
        );
    }
    if !none.is_empty() {
        let _ = writeln!(out, "  no local: {}", none.join(", "));
    }
}

/// Where stackify keeps the value of `v` when not in a local.
fn off_locals(st: &Stackified, v: Var) -> Option<&'static str> {
    if st.on_stack[v] {
        Some("on the stack")
    } else if st.stacked[v] {
        Some("on the stack under later trees")
    } else if st.dead[v] {
        Some("never read, dropped")
    } else {
        None
    }
}

/// A value type as the text format writes it.
fn ty(t: ValType) -> &'static str {
    match t {
        ValType::I32 => "i32",
        ValType::I64 => "i64",
        ValType::F32 => "f32",
        ValType::F64 => "f64",
        ValType::V128 => "v128",
        ValType::Ref(r) if r == wasm_encoder::RefType::FUNCREF => "funcref",
        ValType::Ref(_) => "externref",
    }
}

#[cfg(test)]
mod tests {
    use super::{function, Dump};
    use crate::emit::plan::tests::with_function;

    /// Step `what` of the one function of `text` (no calls).
    fn dump(text: &str, what: Dump) -> String {
        with_function(text, |f, low| function(f, low, what).unwrap())
    }

    /// 100 nested loops: the indentation stops at `MAX_INDENT` levels and
    /// deeper lines say their depth, so the text grows linearly.
    #[test]
    fn deep_nesting_is_indented_up_to_a_bound() {
        let n = 100;
        let mut text = String::from("function f(a) {\ne:\n  jump h0\n");
        for k in 0..n - 1 {
            text += &format!("h{k}:\n  jump h{}\n", k + 1);
        }
        // The innermost loop, then each tail: back to its header or out.
        let tail = |k: usize| {
            if k == 0 {
                "x".to_string()
            } else {
                format!("t{}", k - 1)
            }
        };
        text += &format!("h{}:\n  branch a, {}, h{}\n", n - 1, tail(n - 1), n - 1);
        for k in (0..n - 1).rev() {
            text += &format!("t{k}:\n  branch a, {}, h{k}\n", tail(k));
        }
        text += "x:\n  ret a\n}\n";
        let st = dump(&text, Dump::Structure);
        let widest = st.lines().map(|l| l.len() - l.trim_start().len()).max();
        assert_eq!(widest, Some(2 * (super::MAX_INDENT + 1)), "{st}");
        assert!(
            st.contains(&format!("[{}] loop L{}\n", n - 1, n - 1)),
            "{st}"
        );
    }

    /// Each fate of a value is named: read twice (a `local.tee` in its
    /// first reader's tree, then a local), read once next (on the
    /// stack), read once later as the first operand (under the trees in
    /// between, here `v`, never read), never read (dropped); and the
    /// locals that hold them.
    #[test]
    fn stackify_and_locals_name_each_fate_of_a_value() {
        let text = "function f(a, b) {\ne:\n  d = a * b\n  x = a + b\n  y = x * 3\n  z = y - b\n  v = b * 3\n  w = z + x\n  ret w\n}\n";
        let st = dump(text, Dump::Stackify);
        let lines: Vec<&str> = st.lines().map(str::trim).collect();
        for want in [
            "0  d = a * b                            root; d never read, dropped",
            "1  x = a + b                            absorbed (in place); local.tee; x to a local",
            "2  y = x * 3                            absorbed (in place); y on the stack",
            "3  z = y - b                            root; z on the stack under later trees",
            "-  ret w                                root",
        ] {
            assert!(lines.contains(&want), "{want}\n{st}");
        }
        let locals = dump(text, Dump::Locals);
        assert!(locals.contains("  local 0 i64 (param): a, x\n"), "{locals}");
        assert!(
            locals.contains("no local: d (never read, dropped), y (on the stack), "),
            "{locals}"
        );
    }
}
