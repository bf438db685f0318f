//! Where a module's code bytes go: per module, the bytes of each class of
//! operator (local accesses, control, the rest) and of the locals'
//! declarations; with two modules (an original and its rewrite), the same
//! side by side and the functions that grew most.
//!
//! `cargo run --release -p ssakit-wasm --example code_profile -- IN.wasm [OUT.wasm]`
//!
//! A measuring tool for issue 13 (code size of `ssakit wasm opt`), not
//! part of the library.

use std::collections::BTreeMap;
use wasmparser::{Operator, Parser, Payload};

/// Counts and bytes per class, for one function or a module.
#[derive(Clone, Default)]
struct Profile {
    /// class -> (count, bytes)
    classes: BTreeMap<&'static str, (u64, u64)>,
    /// Bytes of the whole body (its size prefix not counted).
    body: u64,
    /// Bytes of the locals' declarations.
    decl: u64,
    /// Runs in the declarations.
    runs: u64,
    /// Declared locals.
    locals: u64,
}

impl Profile {
    fn add(&mut self, class: &'static str, bytes: u64) {
        let e = self.classes.entry(class).or_default();
        e.0 += 1;
        e.1 += bytes;
    }

    fn merge(&mut self, o: &Profile) {
        for (k, &(c, b)) in &o.classes {
            let e = self.classes.entry(k).or_default();
            e.0 += c;
            e.1 += b;
        }
        self.body += o.body;
        self.decl += o.decl;
        self.runs += o.runs;
        self.locals += o.locals;
    }
}

fn class(op: &Operator<'_>) -> &'static str {
    match op {
        Operator::LocalGet { local_index } if *local_index < 128 => "local.get <128",
        Operator::LocalGet { .. } => "local.get >=128",
        Operator::LocalSet { local_index } if *local_index < 128 => "local.set <128",
        Operator::LocalSet { .. } => "local.set >=128",
        Operator::LocalTee { local_index } if *local_index < 128 => "local.tee <128",
        Operator::LocalTee { .. } => "local.tee >=128",
        Operator::Block { .. } => "block",
        Operator::Loop { .. } => "loop",
        Operator::If { .. } => "if",
        Operator::Else => "else",
        Operator::End => "end",
        Operator::Br { .. } => "br",
        Operator::BrIf { .. } => "br_if",
        Operator::BrTable { .. } => "br_table",
        Operator::Return => "return",
        Operator::Unreachable => "unreachable",
        Operator::Drop => "drop",
        Operator::Select | Operator::TypedSelect { .. } => "select",
        Operator::I32Const { .. } | Operator::I64Const { .. } => "int const",
        Operator::I32Eqz | Operator::I64Eqz => "eqz",
        Operator::I64ExtendI32U => "i64.extend_i32_u",
        Operator::Call { .. } | Operator::CallIndirect { .. } => "call",
        _ => "other",
    }
}

fn profiles(path: &str) -> Vec<Profile> {
    let bytes = std::fs::read(path).unwrap_or_else(|e| panic!("{path}: {e}"));
    let mut out = Vec::new();
    for payload in Parser::new(0).parse_all(&bytes) {
        let Payload::CodeSectionEntry(body) = payload.expect("a valid module") else {
            continue;
        };
        let mut p = Profile {
            body: {
                let r = body.range();
                r.end - r.start
            },
            ..Profile::default()
        };
        let mut locals = body.get_locals_reader().expect("locals");
        let decl_start = locals.original_position();
        for _ in 0..locals.get_count() {
            let (n, _) = locals.read().expect("a local run");
            p.runs += 1;
            p.locals += n as u64;
        }
        let mut ops = body.get_operators_reader().expect("operators");
        p.decl = ops.original_position() - decl_start;
        let mut prev_get = false;
        while !ops.eof() {
            let start = ops.original_position();
            let op = ops.read().expect("an operator");
            let len = ops.original_position() - start;
            p.add(class(&op), len);
            if prev_get && matches!(op, Operator::LocalSet { .. } | Operator::LocalTee { .. }) {
                // Counted apart, its bytes already in the two classes.
                p.classes
                    .entry("(copies: local.get; local.set/tee)")
                    .or_default()
                    .0 += 1;
            }
            prev_get = matches!(op, Operator::LocalGet { .. });
        }
        out.push(p);
    }
    out
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let mods: Vec<Vec<Profile>> = args.iter().map(|a| profiles(a)).collect();
    let totals: Vec<Profile> = mods
        .iter()
        .map(|m| {
            let mut t = Profile::default();
            for p in m {
                t.merge(p);
            }
            t
        })
        .collect();
    let mut keys: Vec<&'static str> = Vec::new();
    for t in &totals {
        for k in t.classes.keys() {
            if !keys.contains(k) {
                keys.push(k);
            }
        }
    }
    keys.sort();
    let mut header = String::from("| class |");
    for a in &args {
        header += &format!(" {a} count | bytes |");
    }
    println!("{header}");
    println!("|---|{}", "---:|---:|".repeat(args.len()));
    for k in &keys {
        let mut line = format!("| {k} |");
        for t in &totals {
            let (c, b) = t.classes.get(k).copied().unwrap_or_default();
            line += &format!(" {c} | {b} |");
        }
        println!("{line}");
    }
    let mut line = String::from("| locals declarations (runs; locals) |");
    for t in &totals {
        line += &format!(" {} ; {} | {} |", t.runs, t.locals, t.decl);
    }
    println!("{line}");
    let mut line = String::from("| bodies |");
    for t in &totals {
        line += &format!(" {} | {} |", mods[0].len(), t.body);
    }
    println!("{line}");
    if mods.len() == 2 && mods[0].len() == mods[1].len() {
        let mut grew: Vec<(i64, usize)> = mods[0]
            .iter()
            .zip(&mods[1])
            .enumerate()
            .map(|(i, (a, b))| (b.body as i64 - a.body as i64, i))
            .collect();
        grew.sort_unstable_by_key(|&(d, _)| std::cmp::Reverse(d));
        println!("\nmost grown bodies (defined-function index: before -> after bytes)");
        for &(d, i) in grew.iter().take(10) {
            println!(
                "  #{i}: {} -> {} (+{d}), locals {} -> {}",
                mods[0][i].body, mods[1][i].body, mods[0][i].locals, mods[1][i].locals
            );
        }
        let mut over: Vec<(i64, usize)> = mods[0]
            .iter()
            .zip(&mods[1])
            .enumerate()
            .map(|(i, (a, b))| (b.locals as i64 - a.locals as i64, i))
            .filter(|&(d, _)| d > 0)
            .collect();
        over.sort_unstable_by_key(|&(d, i)| (std::cmp::Reverse(d), i));
        let total: i64 = over.iter().map(|&(d, _)| d).sum();
        println!(
            "\nmore locals than the original: {} bodies, {total} locals in all",
            over.len()
        );
        for &(d, i) in over.iter().take(10) {
            println!(
                "  #{i}: locals {} -> {} (+{d}), {} -> {} bytes",
                mods[0][i].locals, mods[1][i].locals, mods[0][i].body, mods[1][i].body
            );
        }
    }
}
