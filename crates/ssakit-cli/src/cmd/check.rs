//! `ssakit check`: verify SSA and report the chapter's properties.

use crate::exit::{self, Failed};
use crate::input;
use crate::json::{self, ReportArgs};

/// Arguments of `ssakit check`.
#[derive(clap::Args)]
pub struct Args {
    #[command(flatten)]
    pub input: crate::format::InputArg,
    #[command(flatten)]
    pub report: ReportArgs,
}

pub fn run(a: Args) -> Result<(), Failed> {
    let (mut out, inp) = crate::format::open(&a.input, &a.report.output)?;
    let crate::format::Input { src, parsed: p, .. } = inp;
    if a.report.json() {
        let doc = json::Check {
            functions: p
                .module
                .functions
                .iter()
                .enumerate()
                .map(|(k, f)| match ssakit::verify::verify(f) {
                    Ok(r) => json::CheckedFunction {
                        name: f.name().to_string(),
                        valid: true,
                        errors: Vec::new(),
                        properties: Some(json::Properties::new(f, &r)),
                    },
                    Err(errs) => json::CheckedFunction {
                        name: f.name().to_string(),
                        valid: false,
                        errors: errs
                            .iter()
                            .map(|e| json::Located::new(&src, p.spans.get(k), f, e))
                            .collect(),
                        properties: None,
                    },
                })
                .collect(),
        };
        json::write(&mut out, &doc)?;
        out.finish()?;
        return if doc.functions.iter().all(|f| f.valid) {
            Ok(())
        } else {
            Err(Failed(exit::INPUT))
        };
    }
    let mut failed = false;
    for (k, f) in p.module.functions.iter().enumerate() {
        match ssakit::verify::verify(f) {
            Ok(r) => out.write_str(&r.render(f))?,
            Err(errs) => {
                failed = true;
                writeln!(
                    out,
                    "function {}: not valid SSA ({} error(s))",
                    f.name(),
                    errs.len()
                )?;
                // The report line before its errors, on a terminal too.
                out.flush()?;
                for e in errs.iter().take(20) {
                    input::report_ir_in(&src, &p, k, e);
                }
            }
        }
    }
    out.finish()?;
    if failed {
        Err(Failed(exit::INPUT))
    } else {
        Ok(())
    }
}
