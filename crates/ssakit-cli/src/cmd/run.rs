//! `ssakit run`: interpret a program.

use crate::exit::{self, Failed};
use crate::input;
use crate::out::{Out, OutputArg};
use ssakit::interp::{
    CallRecord, ErrorKind, Interpreter, Memory, Mode, OpRecord, Outcome, Output, RunOptions, State,
    Value, DEFAULT_FUEL, WASM_PAGE,
};
use ssakit::ir::Type;
use std::fmt::Write as _;

/// Arguments of `ssakit run`.
#[derive(clap::Args)]
pub struct Args {
    #[command(flatten)]
    pub input: crate::format::InputArg,
    /// Arguments of the entry function: integers, `true` or `false` for a
    /// `bool` parameter, numbers for an `f32` or `f64` one (`1.5`, `-inf`,
    /// `NaN`).
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
    /// Run generic operations (lifted WebAssembly or x86-64) as
    /// uninterpreted functions: each result is a fixed hash of the
    /// operator, its immediates, its arguments and, for an operation with
    /// an effect, the effects before it. With --trace-calls, each
    /// operation with an effect is printed too, `op NAME[IMMS](ARGS) =
    /// RESULTS`.
    #[arg(long)]
    pub uninterpreted: bool,
    /// Give the program a zeroed WebAssembly-style linear memory of PAGES
    /// 64 KiB pages for its loads and stores (growable with
    /// `memory.grow`); without it every access traps.
    #[arg(long, value_name = "PAGES")]
    pub memory: Option<u32>,
    #[command(flatten)]
    pub output: OutputArg,
}

pub fn run(a: Args) -> Result<(), Failed> {
    let (mut out, inp) = crate::format::open(&a.input, &a.output)?;
    let p = &inp.parsed;
    let f = input::entry(&p.module, a.entry.as_deref())?;
    // An ill-typed program is refused, as by every other command, rather
    // than run on values of the wrong width.
    for (k, g) in p.module.functions.iter().enumerate() {
        if let Err(errs) = ssakit::verify::verify_types(g) {
            for e in errs.iter().take(20) {
                input::report_ir_in(&inp.src, p, k, e);
            }
            return Err(Failed(exit::INPUT));
        }
    }
    if f.params().len() != a.args.len() {
        crate::stderr::errln!(
            "error: function `{}` takes {} argument(s), {} given",
            f.name(),
            f.params().len(),
            a.args.len()
        );
        return Err(Failed(exit::INPUT));
    }
    let mut args = Vec::with_capacity(a.args.len());
    for (s, &v) in a.args.iter().zip(f.params()) {
        // A float is given as a number and passed as its IEEE bits; an
        // `i32` as a signed or unsigned 32-bit integer.
        let parsed = match (f.var_type(v), s.as_str()) {
            (Type::Bool, "true") => Some(1),
            (Type::Bool, "false") => Some(0),
            (Type::Bool, _) => None,
            (Type::F32, _) => s.parse::<f32>().ok().map(|x| x.to_bits() as i64),
            (Type::F64, _) => s.parse::<f64>().ok().map(|x| x.to_bits() as i64),
            (Type::I32, _) => s
                .parse::<i64>()
                .ok()
                .filter(|&n| (i64::from(i32::MIN)..=i64::from(u32::MAX)).contains(&n))
                .map(|n| n as i32 as i64),
            _ => s.parse::<i64>().ok(),
        };
        let Some(n) = parsed else {
            let want = match f.var_type(v) {
                Type::Bool => "`true` or `false`",
                Type::F32 | Type::F64 => "a number",
                Type::I32 => "a 32-bit integer",
                _ => "a 64-bit integer",
            };
            crate::stderr::errln!(
                "error: argument `{}`: expected {want}",
                crate::echo::echo(s)
            );
            return Err(Failed(exit::INPUT));
        };
        args.push(n);
    }
    // A Bril program counts and prints as `brili` does, and reading a
    // variable before it is assigned stops it ("undefined variable").
    let bril = inp.is_bril();
    let opts = RunOptions {
        fuel: a.fuel,
        trace_calls: a.trace_calls,
        count_blocks: bril && a.profile,
        strict_reads: bril,
        ..Default::default()
    };
    let mode = match a.uninterpreted {
        true => Mode::Uninterpreted,
        false => Mode::Strict,
    };
    let interp = match Interpreter::with_mode(&p.module.functions, mode) {
        Ok(i) => i,
        Err(e) => {
            crate::stderr::errln!("{e}");
            if matches!(e.kind, ErrorKind::Unsupported(_)) {
                crate::stderr::errln!(
                    "hint: --uninterpreted runs what the interpreter has no semantics for"
                );
            }
            return Err(Failed(exit::RUNTIME));
        }
    };
    let index = interp
        .function_index(f.name())
        .expect("entry is in the module");
    let mut sink = Printer {
        out: &mut out,
        held: a.trace_calls.then(String::new),
        failed: None,
    };
    let mut state = State::default();
    if let Some(pages) = a.memory {
        state.memory = Memory::linear(u64::from(pages), WASM_PAGE);
    }
    let res = interp.run_to_in(index, &args, &mut state, &opts, &mut sink);
    // With `--trace-calls` the lines were held back to follow the calls.
    if let Some(held) = sink.held.take() {
        sink.write(&held);
    }
    if let Some(f) = sink.failed.take() {
        return Err(f);
    }
    match res {
        Ok(outcome) => {
            let count = match bril {
                true => ssakit::bril::dyn_insts(&inp.costs, &outcome.block_visits),
                false => outcome.dyn_insts,
            };
            // brili prints only what `print` prints.
            if !bril {
                let vals: Vec<Value> = outcome.ret.into_iter().chain(outcome.extra_rets).collect();
                out.write_str(&render_returns(&vals, f.returns()))?;
            }
            out.finish()?;
            if a.profile {
                crate::stderr::errln!("total_dyn_inst: {count}");
            }
            Ok(())
        }
        Err(mut e) => {
            // What the program printed goes out before the error (with
            // `-o FILE`, FILE is left as it was: the command failed).
            out.flush()?;
            if let (true, ErrorKind::UndefinedVariable { name }) = (bril, &mut e.kind) {
                if let Some(n) = ssakit::bril::names::decode(name) {
                    *name = n.into();
                }
            }
            crate::stderr::errln!("{e}");
            Err(Failed(exit::RUNTIME))
        }
    }
}

/// The run's [`Output`]: each printed line written as it is produced (so
/// that a runtime error or the fuel limit does not lose it), each traced
/// call too, the lines then held back until the end.
struct Printer<'o> {
    out: &'o mut Out,
    /// With `--trace-calls`: the printed lines, written after the calls.
    held: Option<String>,
    /// The first write error.
    failed: Option<Failed>,
}

impl Printer<'_> {
    fn write(&mut self, s: &str) {
        if let Err(e) = self.out.write_str(s) {
            self.failed.get_or_insert(e);
        }
    }
}

impl Output for Printer<'_> {
    fn print(&mut self, line: &[Value]) {
        let mut s = String::new();
        for (i, v) in line.iter().enumerate() {
            let sep = if i == 0 { "" } else { " " };
            let _ = write!(s, "{sep}{v}");
        }
        s.push('\n');
        match &mut self.held {
            Some(held) => held.push_str(&s),
            None => self.write(&s),
        }
    }

    fn call(&mut self, call: CallRecord) {
        self.write(&format!("call {call}\n"));
    }

    fn op(&mut self, op: OpRecord) {
        self.write(&format!("op {op}\n"));
    }
}

/// The `=> V1 V2` line of the entry function's values (none without
/// values): a value of a declared `f32` or `f64` result as a number (Rust's
/// shortest form that reads back, `NaN`, `inf`), an `i32` as a signed
/// 32-bit integer, anything else as the interpreter shows it.
fn render_returns(vals: &[Value], types: Option<&[Type]>) -> String {
    let mut tail = Outcome::default();
    let mut it = vals.iter().copied();
    (tail.ret, tail.extra_rets) = (it.next(), it.collect());
    let Some(types) = types.filter(|t| t.len() == vals.len()) else {
        return tail.render();
    };
    let shown: Vec<String> = vals
        .iter()
        .zip(types)
        .map(|(v, t)| match (v, t) {
            (Value::Int(w), Type::F32) => format!("{:?}", f32::from_bits(*w as u32)),
            (Value::Int(w), Type::F64) => format!("{:?}", f64::from_bits(*w as u64)),
            (Value::Int(w), Type::I32) => format!("{}", *w as i32),
            (v, _) => v.to_string(),
        })
        .collect();
    match shown.is_empty() {
        true => String::new(),
        false => format!("=> {}\n", shown.join(" ")),
    }
}
