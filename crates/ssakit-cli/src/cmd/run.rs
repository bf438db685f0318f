//! `ssakit run`: interpret a program.

use crate::exit::{self, Failed};
use crate::input;
use crate::out::{Out, OutputArg};
use ssakit::interp::{Interpreter, RunOptions, DEFAULT_FUEL};

/// Arguments of `ssakit run`.
#[derive(clap::Args)]
pub struct Args {
    /// Input `.ssa` file (SSA or not), or `-` for standard input.
    pub file: String,
    /// Integer arguments of the entry function.
    #[arg(allow_negative_numbers = true)]
    pub args: Vec<i64>,
    /// The function to run (default: `main`, else the first).
    #[arg(long, value_name = "NAME")]
    pub entry: Option<String>,
    /// Step limit: instructions executed before giving up.
    #[arg(long, default_value_t = DEFAULT_FUEL)]
    pub fuel: u64,
    /// Print `total_dyn_inst: N` (instructions executed) on standard error.
    #[arg(long)]
    pub profile: bool,
    /// Print each external call, `call NAME(ARGS) = RESULT`, on standard
    /// output before the program's output.
    #[arg(long)]
    pub trace_calls: bool,
    #[command(flatten)]
    pub output: OutputArg,
}

pub fn run(a: Args) -> Result<(), Failed> {
    let mut out = Out::open(&a.output)?;
    let (_, p) = input::parse(&a.file)?;
    let f = input::entry(&p.module, a.entry.as_deref())?;
    if f.params().len() != a.args.len() {
        crate::errln!(
            "error: function `{}` takes {} argument(s), {} given",
            f.name(),
            f.params().len(),
            a.args.len()
        );
        return Err(Failed(exit::INPUT));
    }
    let opts = RunOptions {
        fuel: a.fuel,
        trace_calls: a.trace_calls,
        ..Default::default()
    };
    let interp = match Interpreter::new(&p.module) {
        Ok(i) => i,
        Err(e) => {
            crate::errln!("{e}");
            return Err(Failed(exit::RUNTIME));
        }
    };
    let index = interp
        .function_index(f.name())
        .expect("entry is in the module");
    match interp.run(index, &a.args, &opts) {
        Ok(outcome) => {
            for c in &outcome.calls {
                writeln!(out, "call {c}")?;
            }
            out.write_str(&outcome.render())?;
            out.finish()?;
            if a.profile {
                crate::errln!("total_dyn_inst: {}", outcome.dyn_insts);
            }
            Ok(())
        }
        Err(e) => {
            crate::errln!("{e}");
            Err(Failed(exit::RUNTIME))
        }
    }
}
