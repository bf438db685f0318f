//! Bril programs in and out: Cornell CS 6120's IR, in its text (`.bril`)
//! and JSON (`.json`) forms, core operations and both SSA extensions
//! (`docs/lang/core.md`, `docs/lang/ssa.md`, `docs/lang/ssa2.md` of
//! `sampsyo/bril`).
//!
//! The path in is [`parse`] (text or JSON into the syntax tree of
//! `ast`), then [`lower::lower`] (the tree into a [`Module`], with the
//! instruction count of each block); the path out is [`raise::raise`] (a
//! module into a tree, SSA in either spelling), then [`print()`]. The text
//! and JSON forms of one tree are the same program, so text → JSON → text
//! gives the text back (as `bril2txt` lays it out).
//!
//! ```
//! use ssakit::bril::{self, Syntax};
//! let src = "@main { a: int = const 4; b: bool = lt a a; print a b; }";
//! let lowered = bril::read(src, Syntax::Text).unwrap();
//! let main = lowered.module.entry_function(None).unwrap();
//! let out = ssakit::interp::run(&lowered.module, main, &[], &Default::default()).unwrap();
//! assert_eq!(out.render(), "4 false\n");
//! let json = bril::write(&lowered.module, Syntax::Json, bril::SsaForm::SetGet).unwrap();
//! assert!(json.contains("\"op\": \"lt\""));
//! ```

pub mod ast;
mod error;
pub(crate) mod json;
pub mod lower;
pub mod names;
pub mod raise;
pub mod text;

pub use error::Error;
pub use lower::{lower, Lowered};
pub use raise::{raise, SsaForm};

use crate::ir::Module;
use ast::Program;

/// Bril's two forms of one program.
///
/// ```
/// use ssakit::bril::{parse, print, Syntax};
/// let p = parse("@main { a: int = const 4; print a; }", Syntax::Text).unwrap();
/// let json = print(&p, Syntax::Json);
/// assert!(json.trim_start().starts_with('{'));
/// let back = parse(&json, Syntax::Json).unwrap();
/// assert_eq!(print(&back, Syntax::Text), print(&p, Syntax::Text));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Syntax {
    /// The text format (`.bril`).
    Text,
    /// The canonical JSON (`.json`).
    Json,
}

/// Parses Bril `src` into its syntax tree.
///
/// ```
/// use ssakit::bril::{parse, Syntax};
/// let p = parse("@main { ret; }", Syntax::Text).unwrap();
/// assert_eq!(p.functions[0].name, "main");
/// assert!(parse("@main { ret; ", Syntax::Text).is_err());
/// ```
pub fn parse(src: &str, syntax: Syntax) -> Result<Program, Error> {
    match syntax {
        Syntax::Text => text::parse(src).map_err(Error::Text),
        Syntax::Json => json::parse(src),
    }
}

/// Prints a syntax tree.
///
/// ```
/// use ssakit::bril::{parse, print, Syntax};
/// let p = parse("@main { a: int = const 4; print a; }", Syntax::Text).unwrap();
/// let text = print(&p, Syntax::Text);
/// assert!(text.contains("a: int = const 4;"));
/// // Text, then JSON, then text again: the same program.
/// let json = print(&parse(&text, Syntax::Text).unwrap(), Syntax::Json);
/// assert_eq!(print(&parse(&json, Syntax::Json).unwrap(), Syntax::Text), text);
/// ```
pub fn print(p: &Program, syntax: Syntax) -> String {
    match syntax {
        Syntax::Text => text::print(p),
        Syntax::Json => json::print(p),
    }
}

/// Parses and lowers Bril `src`.
///
/// # Example
///
/// ```
/// use ssakit::bril::{read, Syntax};
/// use ssakit::interp::{run, RunOptions};
/// let src = "@main(n: int) {\n  one: int = const 1;\n  m: int = add n one;\n  print m;\n}\n";
/// let lowered = read(src, Syntax::Text).unwrap();
/// let main = lowered.module.entry_function(None).unwrap();
/// let out = run(&lowered.module, main, &[41], &RunOptions::default()).unwrap();
/// assert_eq!(out.output.len(), 1); // one `print`
/// assert!(read("@main {\n  x: float = const 1.5;\n}\n", Syntax::Text).is_err());
/// ```
pub fn read(src: &str, syntax: Syntax) -> Result<Lowered, Error> {
    lower(&parse(src, syntax)?)
}

/// `module` as a Bril program, SSA phis spelled `form`. A name the text
/// format cannot spell (one read from JSON, `a b`) is an error in
/// [`Syntax::Text`] (`text::check`) and written as it is in JSON.
///
/// ```
/// use ssakit::bril::{read, write, SsaForm, Syntax};
/// use ssakit::construct::{construct_module, Options};
/// let src = "@main(c: bool) {\n  x: int = const 1;\n  br c .t .j;\n.t:\n  x: int = const 2;\n.j:\n  print x;\n}";
/// let mut m = read(src, Syntax::Text).unwrap().module;
/// construct_module(&mut m, &Options::default()).unwrap();
/// assert!(write(&m, Syntax::Text, SsaForm::SetGet).unwrap().contains("= get;"));
/// assert!(write(&m, Syntax::Text, SsaForm::Phi).unwrap().contains("= phi "));
/// ```
pub fn write(module: &Module, syntax: Syntax, form: SsaForm) -> Result<String, Error> {
    let p = raise(module, form)?;
    if syntax == Syntax::Text {
        text::check(&p)?;
    }
    Ok(print(&p, syntax))
}

/// `total_dyn_inst` as `brili -p` counts it: every instruction executed,
/// labels not (`brili.ts` counts in `evalInstr`). `visits` are the block
/// entries of a run with [`RunOptions::count_blocks`](crate::interp::RunOptions),
/// `costs` the [`Lowered::costs`] of the same module.
///
/// ```
/// use ssakit::bril::{dyn_insts, read, Syntax};
/// use ssakit::interp::{run, RunOptions};
/// let src = "@main {\n  i: int = const 0;\n  n: int = const 3;\n  one: int = const 1;\n.loop:\n  i: int = add i one;\n  c: bool = lt i n;\n  br c .loop .done;\n.done:\n  print i;\n}";
/// let lowered = read(src, Syntax::Text).unwrap();
/// let main = lowered.module.entry_function(None).unwrap();
/// let opts = RunOptions { count_blocks: true, ..RunOptions::default() };
/// let out = run(&lowered.module, main, &[], &opts).unwrap();
/// // 3 constants, 3 trips of 3 instructions, one print.
/// assert_eq!(dyn_insts(&lowered.costs, &out.block_visits), 3 + 3 * 3 + 1);
/// ```
pub fn dyn_insts(
    costs: &[crate::entity::EntityVec<crate::ir::Block, u64>],
    visits: &[Vec<u64>],
) -> u64 {
    costs
        .iter()
        .zip(visits)
        .map(|(c, v)| c.values().zip(v).map(|(&c, &n)| c * n).sum::<u64>())
        .sum()
}
