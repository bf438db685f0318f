//! `ssakit analyze`: print the analyses SSA construction stands on
//! (chapter, section 13.2).

use crate::exit::{self, Failed};
use crate::input;
use crate::json::{self, ReportArgs};
use ssakit::analysis::report;

/// Arguments of `ssakit analyze`. At least one analysis flag is required.
#[derive(clap::Args)]
#[command(group(clap::ArgGroup::new("what").required(true).multiple(true)))]
pub struct Args {
    #[command(flatten)]
    pub input: crate::format::InputArg,
    /// The dominator tree (immediate dominators).
    #[arg(long, group = "what")]
    pub dom: bool,
    /// Dominance frontiers, by DF_all.
    #[arg(long, group = "what")]
    pub df: bool,
    /// The iterated dominance frontier of the blocks defining VAR.
    #[arg(long, value_name = "VAR", group = "what")]
    pub idf: Option<String>,
    /// The DJ-graph: D-edges (dominator tree) and J-edges.
    #[arg(long, group = "what")]
    pub dj: bool,
    /// Live-in and live-out variables of each block.
    #[arg(long, group = "what")]
    pub live: bool,
    /// The function analysed (default: `main`, else the first).
    #[arg(long, value_name = "NAME")]
    pub entry: Option<String>,
    #[command(flatten)]
    pub report: ReportArgs,
}

pub fn run(a: Args) -> Result<(), Failed> {
    let (mut out, inp) = crate::format::open(&a.input, &a.report.output)?;
    let p = inp.parsed;
    let f = input::entry(&p.module, a.entry.as_deref())?;
    let idf_var = match &a.idf {
        Some(name) => match f.var_by_name(name) {
            Some(v) => Some(v),
            None => {
                crate::stderr::errln!(
                    "error: function `{}` has no variable `{}`",
                    f.name(),
                    crate::echo::echo(name)
                );
                return Err(Failed(exit::INPUT));
            }
        },
        None => None,
    };
    if a.report.json() {
        let n = json::Namer::new(f);
        let doc = json::Analysis {
            function: f.name().to_string(),
            dom: a.dom.then(|| n.dom()),
            dj: a.dj.then(|| n.dj()),
            df: a.df.then(|| n.df()),
            idf: idf_var.map(|v| n.idf(v)),
            live: a.live.then(|| n.live()),
        };
        json::write(&mut out, &doc)?;
        return out.finish();
    }
    let mut sections = Vec::new();
    if a.dom {
        sections.push(report::render_dom(f));
    }
    if a.dj {
        sections.push(report::render_dj(f));
    }
    if a.df {
        sections.push(report::render_df(f));
    }
    if let Some(v) = idf_var {
        sections.push(report::render_idf(f, v));
    }
    if a.live {
        sections.push(report::render_live(f));
    }
    for (k, s) in sections.iter().enumerate() {
        if k > 0 {
            out.write_str("\n")?;
        }
        out.write_str(s)?;
    }
    out.finish()
}
