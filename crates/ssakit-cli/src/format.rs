//! Program formats in and out: ssakit's `.ssa`, Bril text (`.bril`) and
//! Bril JSON (`.json`). The input format comes from `--input-format`, else
//! from the file's extension (`.bril`, `.json`; anything else is `.ssa`,
//! and so is standard input); `--emit` picks the output's.

use crate::exit::{self, Failed};
use crate::input::{self, Source};
use crate::out::Out;
use clap::ValueEnum;
use ssakit::bril::{self, SsaForm, Syntax};
use ssakit::entity::EntityVec;
use ssakit::ir::{Block, Module};
use ssakit::text::Parsed;

/// A program format.
#[derive(Clone, Copy, PartialEq, Eq, Debug, ValueEnum)]
pub enum Format {
    /// ssakit's text format.
    Ssa,
    /// Bril's text format.
    Bril,
    /// Bril's JSON format.
    BrilJson,
}

impl Format {
    fn syntax(self) -> Option<Syntax> {
        match self {
            Format::Ssa => None,
            Format::Bril => Some(Syntax::Text),
            Format::BrilJson => Some(Syntax::Json),
        }
    }
}

/// The input program: `FILE` (standard input if absent or `-`) and its
/// format.
#[derive(clap::Args, Clone)]
pub struct InputArg {
    /// Input file: `.ssa`, Bril text `.bril` or Bril JSON `.json`
    /// (standard input if absent or `-`).
    pub file: Option<String>,
    /// The input's format (default: by the file's extension; `ssa` for
    /// standard input).
    #[arg(long, value_enum, value_name = "FORMAT")]
    pub input_format: Option<Format>,
}

/// A program in, a result out: the arguments of the subcommands that
/// take nothing else (`emit-llvm`, `emit-wasm`).
#[derive(clap::Args)]
pub struct FileArgs {
    #[command(flatten)]
    pub input: InputArg,
    #[command(flatten)]
    pub output: crate::out::OutputArg,
}

/// Opens the output (first, so that an output that cannot be written is
/// refused before any work), then reads the input.
pub fn open(input: &InputArg, output: &crate::out::OutputArg) -> Result<(Out, Input), Failed> {
    let out = Out::open(output)?;
    Ok((out, load(input)?))
}

/// The output program's format.
#[derive(clap::Args, Clone)]
pub struct EmitArg {
    /// Output format.
    #[arg(long, value_enum, default_value = "ssa", value_name = "FORMAT")]
    pub emit: Format,
    /// How `--emit bril` and `--emit bril-json` spell phis: `set` (Bril's
    /// current `set`/`get` extension) or `phi` (the old `phi` instruction).
    #[arg(long, value_enum, default_value = "set", value_name = "FORM")]
    pub bril_ssa: BrilSsa,
}

/// Bril's two SSA spellings.
#[derive(Clone, Copy, PartialEq, Eq, Debug, ValueEnum)]
pub enum BrilSsa {
    /// `x: T = get` at the start of a block, `set x v` at the end of each
    /// predecessor.
    Set,
    /// `x: T = phi v1 v2 .P1 .P2`.
    Phi,
}

/// A program read, with what its format adds.
pub struct Input {
    /// The text.
    pub src: Source,
    /// The module (spans only for `.ssa`).
    pub parsed: Parsed,
    /// The format it was read in.
    pub format: Format,
    /// For Bril, the instructions of each block as written (see
    /// [`bril::Lowered::costs`]).
    pub costs: Vec<EntityVec<Block, u64>>,
}

/// Reads and parses the input, reporting any error (exit 1).
pub fn load(a: &InputArg) -> Result<Input, Failed> {
    let path = a.file.as_deref().unwrap_or("-");
    let format = a.input_format.unwrap_or_else(|| {
        match std::path::Path::new(path)
            .extension()
            .and_then(|e| e.to_str())
        {
            Some("bril") => Format::Bril,
            Some("json") => Format::BrilJson,
            _ => Format::Ssa,
        }
    });
    let Some(syntax) = format.syntax() else {
        let (src, parsed) = input::parse(path)?;
        return Ok(Input {
            src,
            parsed,
            format,
            costs: Vec::new(),
        });
    };
    let src = input::read(path)?;
    match bril::read(&src.text, syntax) {
        Ok(l) => Ok(Input {
            parsed: Parsed {
                module: l.module,
                spans: Vec::new(),
            },
            src,
            format,
            costs: l.costs,
        }),
        Err(e) => {
            crate::stderr::err!("{}", e.render(&src.name, &src.text));
            Err(Failed(exit::INPUT))
        }
    }
}

impl Input {
    /// The program as read again (for a report after the module was
    /// transformed in place).
    pub fn reparse(&self) -> Parsed {
        match self.format.syntax() {
            None => input::reparse(&self.src),
            Some(s) => Parsed {
                module: bril::read(&self.src.text, s)
                    .expect("the source was read a moment ago")
                    .module,
                spans: Vec::new(),
            },
        }
    }

    /// Whether the program is Bril.
    pub fn is_bril(&self) -> bool {
        self.format != Format::Ssa
    }
}

/// Writes `module` in the format `e` asks for; a module Bril cannot
/// express is an error (exit 1) before anything is written.
pub fn emit(module: &Module, e: &EmitArg, out: &mut Out) -> Result<(), Failed> {
    let Some(syntax) = e.emit.syntax() else {
        return crate::par::print_module(module, out);
    };
    let form = match e.bril_ssa {
        BrilSsa::Set => SsaForm::SetGet,
        BrilSsa::Phi => SsaForm::Phi,
    };
    match bril::write(module, syntax, form) {
        Ok(text) => out.write_str(&text),
        Err(err) => {
            crate::stderr::errln!(
                "error: cannot write the program as Bril: {}",
                err.describe()
            );
            Err(Failed(exit::INPUT))
        }
    }
}
