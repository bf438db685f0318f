//! `ssakit run`: interpret a program.

use crate::exit::{self, Failed};
use crate::input;
use crate::out::{Out, OutputArg};
use ssakit::interp::{Interpreter, RunOptions, DEFAULT_FUEL};
use ssakit::ir::Type;

/// Arguments of `ssakit run`.
#[derive(clap::Args)]
pub struct Args {
    #[command(flatten)]
    pub input: crate::format::InputArg,
    /// Arguments of the entry function: integers, and `true` or `false`
    /// for a `bool` parameter.
    #[arg(allow_negative_numbers = true)]
    pub args: Vec<String>,
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
    let inp = crate::format::load(&a.input)?;
    let p = &inp.parsed;
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
    let mut args = Vec::with_capacity(a.args.len());
    for (s, &v) in a.args.iter().zip(f.params()) {
        let parsed = match (f.var_type(v), s.as_str()) {
            (Type::Bool, "true") => Some(1),
            (Type::Bool, "false") => Some(0),
            (Type::Bool, _) => None,
            _ => s.parse::<i64>().ok(),
        };
        let Some(n) = parsed else {
            let want = match f.var_type(v) {
                Type::Bool => "`true` or `false`",
                _ => "a 64-bit integer",
            };
            crate::errln!("error: argument `{s}`: expected {want}");
            return Err(Failed(exit::INPUT));
        };
        args.push(n);
    }
    // A Bril program counts and prints as `brili` does.
    let bril = inp.is_bril();
    let opts = RunOptions {
        fuel: a.fuel,
        trace_calls: a.trace_calls,
        count_blocks: bril && a.profile,
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
    match interp.run(index, &args, &opts) {
        Ok(mut outcome) => {
            for c in &outcome.calls {
                writeln!(out, "call {c}")?;
            }
            let count = match bril {
                true => ssakit::bril::dyn_insts(&inp.costs, &outcome.block_visits),
                false => outcome.dyn_insts,
            };
            if bril {
                // brili prints only what `print` prints.
                outcome.ret = None;
                outcome.extra_rets.clear();
            }
            out.write_str(&outcome.render())?;
            out.finish()?;
            if a.profile {
                crate::errln!("total_dyn_inst: {count}");
            }
            Ok(())
        }
        Err(e) => {
            crate::errln!("{e}");
            Err(Failed(exit::RUNTIME))
        }
    }
}
