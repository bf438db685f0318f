//! `ssakit reduce`: run the differential oracle on a program and, if some
//! pipeline changes its behaviour, shrink it to a minimal failing case.

use crate::exit::{self, Failed};
use crate::input;
use crate::out::OutputArg;
use ssakit::oracle::{self, Plan};

/// Arguments of `ssakit reduce`.
#[derive(clap::Args)]
pub struct Args {
    #[command(flatten)]
    pub input: crate::format::InputArg,
    /// An argument vector to run on, comma-separated (repeatable); default:
    /// all zeros, all ones and all sevens.
    #[arg(long = "args", value_name = "A,B,...", allow_hyphen_values = true)]
    pub args: Vec<String>,
    /// The function checked (default: `main`, else the first).
    #[arg(long, value_name = "NAME")]
    pub entry: Option<String>,
    /// Step limit of each run of the original program (a vector on which
    /// it fails or runs out is not compared; transformed programs get more).
    #[arg(long, value_name = "N", default_value_t = 100_000)]
    pub fuel: u64,
    #[command(flatten)]
    pub output: OutputArg,
}

pub fn run(a: Args) -> Result<(), Failed> {
    let (mut out, inp) = crate::format::open(&a.input, &a.output)?;
    let crate::format::Input { src, parsed: p, .. } = inp;
    let f = input::entry(&p.module, a.entry.as_deref())?;
    // A program construction refuses is bad input, as for `construct`, not
    // a mismatch of the first pipeline.
    if let Err(e) = oracle::check_input(f) {
        input::report_ir(&src, Some(&p), f, &e);
        return Err(Failed(exit::INPUT));
    }
    let n = f.params().len();
    let mut vectors = Vec::new();
    for s in &a.args {
        let v: Result<Vec<i64>, _> = s
            .split(',')
            .filter(|x| !x.trim().is_empty())
            .map(|x| x.trim().parse::<i64>())
            .collect();
        match v {
            Ok(v) if v.len() == n => vectors.push(v),
            _ => {
                crate::stderr::errln!(
                    "error: `--args {}` is not {n} comma-separated integer(s)",
                    crate::echo::echo(s)
                );
                return Err(Failed(exit::INPUT));
            }
        }
    }
    if vectors.is_empty() {
        vectors = vec![vec![0; n], vec![1; n], vec![7; n]];
        // Without parameters, three times the same run.
        vectors.dedup();
    }
    let mut plan = Plan::full(vectors);
    plan.fuel = a.fuel;
    // Runs of the original that fail are not compared: say which.
    for (args, run) in plan.args.iter().zip(oracle::original_runs(f, &plan)) {
        if let Err(e) = run {
            crate::stderr::errln!("note: not compared on {args:?}, where the original fails: {e}");
        }
    }
    match oracle::check(f, &plan) {
        Ok(c) if c.comparisons == 0 => {
            crate::stderr::errln!(
                "error: nothing compared: the original fails on every argument vector \
                 ({} transformed programs checked for validity only); give others with \
                 --args, or more steps with --fuel",
                c.programs
            );
            Err(Failed(exit::INPUT))
        }
        Ok(c) => {
            writeln!(
                out,
                "no mismatch: {} transformed programs, {} runs compared",
                c.programs, c.comparisons
            )?;
            out.finish()
        }
        Err(m) => {
            let (small, m) = oracle::reduce(f, &plan, &m);
            crate::stderr::errln!("mismatch at `{}`: {}", m.stage, m.detail);
            out.write_str(&ssakit::text::print_function(&small))?;
            out.finish()?;
            Err(Failed(exit::MISMATCH))
        }
    }
}
