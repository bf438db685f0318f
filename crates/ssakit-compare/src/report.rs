//! The results: Markdown tables with the targets' verdicts, JSON, and the
//! plot.

use crate::{Config, Row, Time};
use serde::Serialize;
use std::fmt::Write;
use std::path::Path;

/// How the results were produced.
#[derive(Clone, Debug, Serialize)]
pub struct Meta {
    /// The command line.
    pub command: String,
    /// `opt --version`'s version line.
    pub opt_version: Option<String>,
    /// The Cranelift crate measured.
    pub cranelift_version: String,
    /// Wall seconds of the whole run.
    pub seconds: f64,
    /// The configuration.
    pub config: Config,
}

/// The JSON file.
#[derive(Serialize)]
pub struct Json<'a> {
    /// How.
    pub meta: &'a Meta,
    /// What.
    pub rows: &'a [Row],
    /// The real rows, if any were asked (`--real`).
    pub real: &'a [crate::real::Row],
}

fn ms(s: f64) -> String {
    let m = s * 1e3;
    if m >= 100.0 {
        format!("{m:.0}")
    } else if m >= 10.0 {
        format!("{m:.1}")
    } else {
        format!("{m:.2}")
    }
}

fn ms_t(t: &Time) -> String {
    match t {
        Time::Secs(s) => ms(*s),
        Time::TimedOut(_) => "timeout".into(),
        Time::Skipped(_) => "–".into(),
    }
}

fn ratio(a: Option<f64>, b: f64) -> String {
    a.map_or("–".into(), |a| format!("{:.1}", a / b))
}

fn size(n: usize) -> String {
    if n >= 1_000_000 {
        format!("{:.2}M", n as f64 / 1e6)
    } else if n >= 1_000 {
        format!("{:.0}k", n as f64 / 1e3)
    } else {
        n.to_string()
    }
}

fn pruned(r: &Row) -> f64 {
    r.construct["pruned"].total_s
}

/// Cranelift in its better sealing mode.
fn cranelift_best(r: &Row) -> Option<f64> {
    match (r.cranelift_end.secs(), r.cranelift_early.secs()) {
        (Some(a), Some(b)) => Some(a.min(b)),
        (a, b) => a.or(b),
    }
}

/// One row per shape and variable count (its largest size) of the phases
/// `of` gives, `(phases, total seconds)`, each phase a column.
fn phase_table(o: &mut String, rows: &[Row], of: impl Fn(&Row) -> Option<(&[(String, f64)], f64)>) {
    let mut phase_names: Vec<&str> = Vec::new();
    for (phases, _) in rows.iter().filter_map(&of) {
        for (n, _) in phases {
            if !phase_names.contains(&n.as_str()) {
                phase_names.push(n);
            }
        }
    }
    let _ = writeln!(
        o,
        "| shape | vars | insts | {} | total |",
        phase_names.join(" | ")
    );
    let _ = writeln!(
        o,
        "|---|---:|---:|{}---:|",
        "---:|".repeat(phase_names.len())
    );
    for r in rows {
        let largest = rows
            .iter()
            .filter(|x| x.shape == r.shape && x.vars == r.vars)
            .map(|x| x.insts)
            .max();
        if Some(r.insts) != largest {
            continue;
        }
        let Some((phases, total)) = of(r) else {
            continue;
        };
        let cells: Vec<String> = phase_names
            .iter()
            .map(|n| {
                phases
                    .iter()
                    .find(|(m, _)| m == n)
                    .map_or("–".into(), |(_, s)| ms(*s))
            })
            .collect();
        let _ = writeln!(
            o,
            "| {} | {} | {} | {} | {} |",
            r.shape,
            r.vars,
            size(r.insts),
            cells.join(" | "),
            ms(total)
        );
    }
}

/// The Markdown report: the main table, the phase tables, the verdicts.
pub fn markdown(meta: &Meta, rows: &[Row]) -> String {
    let mut o = String::new();
    let _ = writeln!(o, "# ssakit-compare results\n");
    let _ = writeln!(o, "Command: `{}`  ", meta.command);
    let _ = writeln!(
        o,
        "Peers: {}; {}. Run took {:.0} s; medians of {} repetitions (LLVM once at 1M instructions).\n",
        meta.opt_version.as_deref().unwrap_or("opt not found"),
        meta.cranelift_version,
        meta.seconds,
        meta.config.reps
    );
    let _ = writeln!(
        o,
        "Times in ms. *pruned*, *minimal*, *semi*: ssakit construction of the generated function \
         (cfg, dominators, liveness, phi insertion, renaming; verification not included). \
         *destr*: `destruct_pruned` of the pruned SSA (coalescing; `-naive` without), splitting critical edges or not: input verification and the dead-code walk excluded. *verify*: \
         the verifier the CLI runs. *clone*: `Function::clone`; *copy*: clone and rewrite every \
         operand. *LLVM*: PromotePass of `opt -passes=mem2reg`. *CL end*/*CL early*: Cranelift's \
         FunctionBuilder sealing at the end / early, building the function from the ssakit \
         description; *build*: ssakit's FunctionBuilder from the same description plus pruned \
         construction. Ratios: LLVM/pruned, best Cranelift/build, pruned/copy. Phis: pruned \
         ssakit / LLVM / Cranelift block params; *s−redund.*: pruned ssakit phis less those \
         LLVM's mem2reg simplifies away after renaming (operands all one value or undef). Memory: peak bytes allocated by pruned \
         construction per instruction, and the input function's bytes per instruction.\n"
    );
    o.push_str(
        "| shape | vars | insts | blocks | pruned | ns/inst | minimal | semi | destr split | destr no-split | verify | clone | copy | LLVM | CL end | CL early | build | LLVM/pruned | CL/build | pruned/copy | phis s/L/C | s−redund. | peak B/inst | input B/inst |\n",
    );
    o.push_str("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|---:|---:|---:|\n");
    for r in rows {
        let p = pruned(r);
        let opt_n = |x: Option<usize>| x.map_or("–".to_string(), |n| n.to_string());
        let _ = writeln!(
            o,
            "| {} | {} | {} | {} | {} | {:.0} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {:.1} | {}/{}/{} | {} | {:.0} | {:.0} |",
            r.shape,
            r.vars,
            size(r.insts),
            size(r.blocks),
            ms(p),
            p * 1e9 / r.insts as f64,
            ms(r.construct["minimal"].total_s),
            ms(r.construct["semi-pruned"].total_s),
            r.destruct.get("split").map_or("–".into(), |s| ms(*s)),
            r.destruct.get("no-split").map_or("–".into(), |s| ms(*s)),
            ms(r.verify_s),
            ms(r.clone_s),
            ms(r.copy_s),
            ms_t(&r.llvm),
            ms_t(&r.cranelift_end),
            ms_t(&r.cranelift_early),
            ms(r.ssakit_build_s),
            ratio(r.llvm.secs(), p),
            ratio(cranelift_best(r), r.ssakit_build_s),
            p / r.copy_s,
            r.construct["pruned"].phis,
            opt_n(r.llvm_phis),
            opt_n(r.cranelift_phis),
            r.construct["pruned"].phis - r.redundant_phis,
            r.peak_bytes as f64 / r.insts as f64,
            r.input_bytes as f64 / r.insts as f64,
        );
    }
    // Phases of pruned construction, and of its destruction (edges split,
    // coalescing), at each shape's largest size.
    o.push_str(
        "\n## Phases of pruned construction (ms), largest size per shape and variable count\n\n",
    );
    phase_table(&mut o, rows, |r| {
        let c = &r.construct["pruned"];
        Some((&c.phases[..], c.total_s))
    });
    o.push_str(
        "\n## Phases of destruction, edges split, coalescing (ms), largest size per shape and \
         variable count\n\n",
    );
    phase_table(&mut o, rows, |r| {
        let p = r.destruct_phases.get("split")?;
        Some((&p[..], *r.destruct.get("split")?))
    });
    o.push_str("\n## Verdicts\n\n");
    for v in verdicts(rows) {
        let _ = writeln!(o, "- {v}");
    }
    o
}

/// One line per performance target (against LLVM, against Cranelift,
/// against the clone limit): met or missed, with the worst case.
pub fn verdicts(rows: &[Row]) -> Vec<String> {
    let mut out = Vec::new();
    let mark = |ok: bool| if ok { "**met**" } else { "**missed**" };
    // 1. At least 20x faster than LLVM at 10k blocks and above, same phis.
    let big: Vec<&Row> = rows
        .iter()
        .filter(|r| r.blocks >= 10_000 && r.llvm.secs().is_some())
        .collect();
    if big.is_empty() {
        out.push("LLVM ≥20×: not measured (no LLVM run at ≥10k blocks)".into());
    } else {
        let worst = big
            .iter()
            .min_by(|a, b| {
                (a.llvm.secs().unwrap() / pruned(a))
                    .total_cmp(&(b.llvm.secs().unwrap() / pruned(b)))
            })
            .unwrap();
        let w = worst.llvm.secs().unwrap() / pruned(worst);
        let same = big
            .iter()
            .filter(|r| r.llvm_phis == Some(r.construct["pruned"].phis - r.redundant_phis))
            .count();
        let timeouts = rows
            .iter()
            .filter(|r| matches!(r.llvm, Time::TimedOut(_)))
            .count();
        out.push(format!(
            "Pruned construction ≥20× faster than LLVM 14 PromotePass at ≥10k blocks: {} \
             (worst {:.1}× on {} vars={} {} instructions; {} of {} rows with LLVM's phi count once its trivially redundant phis are removed{})",
            mark(w >= 20.0),
            w,
            worst.shape,
            worst.vars,
            size(worst.insts),
            same,
            big.len(),
            if timeouts > 0 {
                format!("; LLVM timed out on {timeouts} row(s)")
            } else {
                String::new()
            }
        ));
    }
    // 2. Faster than Cranelift in its better mode (builder to builder).
    let cl: Vec<(&Row, f64)> = rows
        .iter()
        .filter_map(|r| cranelift_best(r).map(|c| (r, c / r.ssakit_build_s)))
        .collect();
    if let Some(&(r, w)) = cl.iter().min_by(|a, b| a.1.total_cmp(&b.1)) {
        out.push(format!(
            "Faster than Cranelift's SSA builder (better sealing mode; both building from the same \
             description): {} (worst {:.2}× on {} vars={} {} instructions)",
            mark(w > 1.0),
            w,
            r.shape,
            r.vars,
            size(r.insts)
        ));
    }
    // 3. Within 3x of the clone limit; destruction within 1.5x.
    let (r, w) = rows
        .iter()
        .map(|r| (r, pruned(r) / r.clone_s))
        .max_by(|a, b| a.1.total_cmp(&b.1))
        .unwrap();
    let (r2, w2) = rows
        .iter()
        .map(|r| (r, pruned(r) / r.copy_s))
        .max_by(|a, b| a.1.total_cmp(&b.1))
        .unwrap();
    out.push(format!(
        "Pruned construction within 3× of the limit: clone {} (worst {:.1}× on {} vars={} {}); \
         clone+rewrite {} (worst {:.1}× on {} vars={} {})",
        mark(w <= 3.0),
        w,
        r.shape,
        r.vars,
        size(r.insts),
        mark(w2 <= 3.0),
        w2,
        r2.shape,
        r2.vars,
        size(r2.insts)
    ));
    let (r, w) = rows
        .iter()
        .flat_map(|r| r.destruct.values().map(move |d| (r, d / pruned(r))))
        .max_by(|a, b| a.1.total_cmp(&b.1))
        .unwrap();
    out.push(format!(
        "Destruction within 1.5× of construction: {} (worst {:.2}× on {} vars={} {})",
        mark(w <= 1.5),
        w,
        r.shape,
        r.vars,
        size(r.insts)
    ));
    // 4. Linear: ns/inst within 1.5x from 10k to 1M instructions.
    let mut shapes: Vec<(&str, usize)> = rows.iter().map(|r| (r.shape.as_str(), r.vars)).collect();
    shapes.dedup();
    let mut worst_lin: Option<(String, f64)> = None;
    let mut lines = Vec::new();
    for (s, v) in shapes {
        let ns: Vec<f64> = rows
            .iter()
            .filter(|r| r.shape == s && r.vars == v && r.insts >= 8_000 && r.insts <= 1_200_000)
            .map(|r| pruned(r) * 1e9 / r.insts as f64)
            .collect();
        if ns.len() < 2 {
            continue;
        }
        let spread = ns.iter().cloned().fold(0.0, f64::max)
            / ns.iter().cloned().fold(f64::INFINITY, f64::min);
        lines.push(format!("{s} {spread:.2}×"));
        if worst_lin.as_ref().is_none_or(|w| spread > w.1) {
            worst_lin = Some((s.to_string(), spread));
        }
    }
    if let Some((s, w)) = worst_lin {
        out.push(format!(
            "Linear (ns/instruction of pruned construction within 1.5× from 10k to 1M instructions): {} \
             (worst {w:.2}× on {s}; {})",
            mark(w <= 1.5),
            lines.join(", ")
        ));
    }
    // 5. Peak memory at most 3x the input's size.
    let (r, w) = rows
        .iter()
        .map(|r| (r, r.peak_bytes as f64 / r.input_bytes as f64))
        .max_by(|a, b| a.1.total_cmp(&b.1))
        .unwrap();
    out.push(format!(
        "Peak memory of pruned construction ≤ 3× the input IR's size: {} (worst {:.2}× on {} vars={} {})",
        mark(w <= 3.0),
        w,
        r.shape,
        r.vars,
        size(r.insts)
    ));
    out
}

/// The plot: ns per instruction against instructions, log-log, one panel
/// per shape (the size sweep's variable count), one line per tool.
pub fn plot(rows: &[Row], c: &Config, path: &Path) -> Result<(), String> {
    use plotters::prelude::*;
    let font = [
        "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf",
        "/usr/share/fonts/TTF/DejaVuSans.ttf",
        "/usr/share/fonts/truetype/liberation/LiberationSans-Regular.ttf",
    ]
    .iter()
    .find_map(|p| std::fs::read(p).ok())
    .ok_or("no TrueType font found (install fonts-dejavu-core)")?;
    plotters::style::register_font(
        "sans-serif",
        FontStyle::Normal,
        Box::leak(font.into_boxed_slice()),
    )
    .map_err(|_| "bad font file".to_string())?;

    type Get = fn(&Row) -> Option<f64>;
    let tools: [(&str, RGBColor, Get); 7] = [
        ("ssakit pruned", RGBColor(200, 30, 30), |r| Some(pruned(r))),
        ("ssakit builder+pruned", RGBColor(240, 130, 20), |r| {
            Some(r.ssakit_build_s)
        }),
        ("ssakit destruct (split)", RGBColor(150, 60, 160), |r| {
            r.destruct.get("split").copied()
        }),
        ("LLVM 14 PromotePass", RGBColor(30, 90, 200), |r| {
            r.llvm.secs()
        }),
        ("Cranelift (seal at end)", RGBColor(20, 150, 60), |r| {
            r.cranelift_end.secs()
        }),
        ("Cranelift (seal early)", RGBColor(120, 200, 120), |r| {
            r.cranelift_early.secs()
        }),
        ("clone (limit)", RGBColor(110, 110, 110), |r| {
            Some(r.clone_s)
        }),
    ];
    let shapes: Vec<&String> = c.shapes.iter().collect();
    let sel: Vec<&Row> = rows.iter().filter(|r| r.vars == c.vars).collect();
    let (mut ymin, mut ymax, mut xmin, mut xmax) = (f64::INFINITY, 0.0f64, f64::INFINITY, 0.0f64);
    for r in &sel {
        xmin = xmin.min(r.insts as f64);
        xmax = xmax.max(r.insts as f64);
        for (_, _, get) in &tools {
            if let Some(s) = get(r) {
                let ns = s * 1e9 / r.insts as f64;
                ymin = ymin.min(ns);
                ymax = ymax.max(ns);
            }
        }
    }
    if sel.is_empty() {
        return Err("no rows to plot".into());
    }
    let (xmin, xmax) = (xmin / 1.5, xmax * 1.5);
    let (ymin, ymax) = (ymin / 1.5, ymax * 1.5);
    let cols = 4usize;
    let nrows = shapes.len().div_ceil(cols);
    let root = BitMapBackend::new(path, (1600, 420 * nrows as u32 + 90)).into_drawing_area();
    root.fill(&WHITE).map_err(|e| e.to_string())?;
    let (top, body) = root.split_vertically(90);
    top.draw(&Text::new(
        format!(
            "ns per instruction vs instructions (log-log), {} variables; medians of {} runs",
            c.vars, c.reps
        ),
        (20, 10),
        ("sans-serif", 24).into_font(),
    ))
    .map_err(|e| e.to_string())?;
    for (k, (name, color, _)) in tools.iter().enumerate() {
        let x = 20 + (k as i32 % 4) * 390;
        let y = 45 + (k as i32 / 4) * 22;
        top.draw(&PathElement::new(
            vec![(x, y + 8), (x + 30, y + 8)],
            color.stroke_width(3),
        ))
        .map_err(|e| e.to_string())?;
        top.draw(&Text::new(
            name.to_string(),
            (x + 38, y),
            ("sans-serif", 17).into_font(),
        ))
        .map_err(|e| e.to_string())?;
    }
    let panels = body.split_evenly((nrows, cols));
    for (panel, shape) in panels.iter().zip(&shapes) {
        let mut chart = ChartBuilder::on(panel)
            .caption(shape.as_str(), ("sans-serif", 20))
            .margin(8)
            .x_label_area_size(35)
            .y_label_area_size(50)
            .build_cartesian_2d((xmin..xmax).log_scale(), (ymin..ymax).log_scale())
            .map_err(|e| e.to_string())?;
        chart
            .configure_mesh()
            .x_desc("instructions")
            .y_desc("ns / instruction")
            .x_label_formatter(&|x| size(*x as usize))
            .y_label_formatter(&|y| format!("{y:.0}"))
            .label_style(("sans-serif", 13))
            .draw()
            .map_err(|e| e.to_string())?;
        for (_, color, get) in &tools {
            let pts: Vec<(f64, f64)> = sel
                .iter()
                .filter(|r| &&r.shape == shape)
                .filter_map(|r| get(r).map(|s| (r.insts as f64, s * 1e9 / r.insts as f64)))
                .collect();
            chart
                .draw_series(LineSeries::new(pts.clone(), color.stroke_width(2)))
                .map_err(|e| e.to_string())?;
            chart
                .draw_series(pts.iter().map(|&p| Circle::new(p, 3, color.filled())))
                .map_err(|e| e.to_string())?;
        }
    }
    root.present().map_err(|e| e.to_string())?;
    Ok(())
}

/// One row of the CLI's table: the library's figures beside the CLI's.
struct Line<'a> {
    name: String,
    blocks: usize,
    /// The library's pruned phis.
    phis: usize,
    /// PromotePass's seconds.
    llvm: Option<f64>,
    cli: &'a Result<crate::cli::CliRow, String>,
    /// A program of 10,000 blocks x 256 variables (the peak's goal).
    dense: bool,
}

/// The rows through the CLI ([`crate::cli`]), generated then real, with
/// the verdicts of issue 44's goals on them: LLVM ÷ construct at least
/// 20 and destruct ÷ construct at most 1.5 on every row, the peak of the
/// phi-densest program of 10,000 blocks × 256 variables at most 120 MB.
pub fn cli_table(rows: &[Row], real: &[crate::real::Row], reps: usize) -> String {
    use crate::cli::{columns, CliRow};
    let mut o = format!(
        "\n## Through the CLI\n\n\
         Each program as text through the release CLI, medians of {reps} run(s) \
         (`crates/ssakit-compare/src/cli.rs`): *construct*: \
         `construct --flavor pruned --no-verify --time-passes`, its `total` (the input's type \
         check in, parse and print out); *destruct*: `destruct --time-passes` on its output, \
         `total` less the input `verification`; *LLVM ÷*: the same PromotePass seconds as \
         above over the CLI's construct; *peak*: the construct runs' largest resident set.\n\n\
         | row | blocks | pruned phis | construct s | LLVM ÷ construct | destruct s | \
         destruct ÷ construct | peak MB |\n|---|---:|---:|---:|---:|---:|---:|---:|\n"
    );
    let mut lines: Vec<Line> = Vec::new();
    for r in rows {
        if let Some(c) = &r.cli {
            let phis = r.construct["pruned"].phis;
            let name = format!("{} {} × {}", r.shape, r.blocks, r.vars);
            let dense = (9_990..=10_010).contains(&r.blocks) && r.vars == 256;
            lines.push(Line {
                name,
                blocks: r.blocks,
                phis,
                llvm: r.llvm.secs(),
                cli: c,
                dense,
            });
        }
    }
    for r in real {
        if let Some(c) = &r.cli {
            let name = r.name();
            let llvm = r.llvm.as_ref().ok().copied();
            lines.push(Line {
                name,
                blocks: r.blocks,
                phis: r.phis,
                llvm,
                cli: c,
                dense: false,
            });
        }
    }
    for l in &lines {
        let _ = writeln!(
            o,
            "| {} | {} | {} | {}",
            l.name,
            l.blocks,
            l.phis,
            columns(l.cli, l.phis, l.llvm)
        );
    }
    let ok: Vec<(&Line, &CliRow)> = lines
        .iter()
        .filter_map(|l| l.cli.as_ref().ok().map(|c| (l, c)))
        .collect();
    let failed = lines.len() - ok.len();
    o.push_str("\nVerdicts through the CLI:\n\n");
    if failed > 0 {
        let _ = writeln!(
            o,
            "- **{failed} rows not measured** (the reason in the table)"
        );
    }
    let mark = |ok: bool| if ok { "**met**" } else { "**missed**" };
    let worst = |f: &dyn Fn(&Line, &CliRow) -> Option<f64>, min: bool| {
        ok.iter()
            .filter_map(|(l, c)| f(l, c).map(|x| (x, &l.name)))
            .min_by(|a, b| match min {
                true => a.0.total_cmp(&b.0),
                false => b.0.total_cmp(&a.0),
            })
    };
    let llvm = |l: &Line, c: &CliRow| l.llvm.map(|s| s / c.construct_s);
    if let Some((x, name)) = worst(&llvm, true) {
        let n = ok
            .iter()
            .filter(|(l, c)| llvm(l, c).is_some_and(|r| r >= 20.0))
            .count();
        let m = ok.iter().filter(|(l, c)| llvm(l, c).is_some()).count();
        let _ = writeln!(
            o,
            "- LLVM ≥ 20× construct: {}, met on {n} of {m} rows (worst {x:.1}× on {name})",
            mark(n == m)
        );
        if m < ok.len() {
            let _ = writeln!(o, "  ({} rows without an LLVM time)", ok.len() - m);
        }
    } else {
        let _ = writeln!(o, "- LLVM ≥ 20× construct: not measured (no LLVM time)");
    }
    let destruct = |_: &Line, c: &CliRow| Some(c.destruct_s / c.construct_s);
    if let Some((x, name)) = worst(&destruct, false) {
        let n = ok
            .iter()
            .filter(|(_, c)| c.destruct_s <= 1.5 * c.construct_s)
            .count();
        let _ = writeln!(
            o,
            "- destruct ≤ 1.5× construct: {}, met on {n} of {} rows (worst {x:.2}× on {name})",
            mark(n == ok.len()),
            ok.len()
        );
    }
    // The phi-densest program of 10k blocks x 256 variables.
    if let Some((l, c)) = ok
        .iter()
        .filter(|(l, _)| l.dense)
        .max_by_key(|(l, _)| l.phis)
    {
        if let Some(b) = c.peak_rss {
            let mb = b as f64 / 1048576.0;
            let _ = writeln!(
                o,
                "- peak of the phi-densest 10k × 256 program ({}, {} phis) ≤ 120 MB: {} ({mb:.0} MB)",
                l.name,
                l.phis,
                mark(mb <= 120.0)
            );
        }
    }
    let phis_differ = ok.iter().filter(|(l, c)| c.phis != l.phis).count();
    if phis_differ > 0 {
        let _ = writeln!(
            o,
            "- **{phis_differ} rows where the CLI's phis differ from the library's**"
        );
    }
    o
}

/// Issue 44's goals on every row in one table: in the library (LLVM ÷
/// pruned at least 20, Cranelift ÷ ssakit above 1, `destruct_pruned` ÷
/// pruned at most 1.5) and, with `--cli`, through the CLI (LLVM ÷
/// construct, destruct ÷ construct, peak); a missed goal in bold.
pub fn goals_table(rows: &[Row], real: &[crate::real::Row]) -> String {
    let bold = |s: String, missed: bool| if missed { format!("**{s}**") } else { s };
    let llvm = |x: Option<f64>| x.map_or("–".into(), |x| bold(format!("{x:.1}"), x < 20.0));
    let cl = |x: Option<f64>| x.map_or("–".into(), |x| bold(format!("{x:.2}"), x <= 1.0));
    let de = |x: f64| bold(format!("{x:.2}"), x > 1.5);
    let through = |c: &Option<Result<crate::cli::CliRow, String>>, l: Option<f64>| match c {
        Some(Ok(c)) => format!(
            "{} | {} | {}",
            llvm(l.map(|l| l / c.construct_s)),
            de(c.destruct_s / c.construct_s),
            c.peak_rss
                .map_or("–".into(), |b| format!("{:.0}", b as f64 / 1048576.0))
        ),
        Some(Err(why)) => format!("{why} | | "),
        None => "– | – | –".into(),
    };
    let mut o = String::from(
        "\n## Issue 44's goals, row by row\n\n\
         Library: one thread, in process (*LLVM ÷*: PromotePass ÷ pruned construction; *CL ÷*: \
         Cranelift's builder ÷ ssakit's, as the tables above define them for generated and real \
         rows; *destruct ÷*: `destruct_pruned` ÷ pruned). CLI: the section above. Missed goals \
         in bold (LLVM ≥ 20, CL > 1, destruct ≤ 1.5).\n\n\
         | row | blocks | pruned phis | LLVM ÷ | CL ÷ | destruct ÷ | CLI LLVM ÷ | CLI destruct ÷ | \
         CLI peak MB |\n|---|---:|---:|---:|---:|---:|---:|---:|---:|\n",
    );
    for r in rows {
        let p = pruned(r);
        let _ = writeln!(
            o,
            "| {} {} × {} | {} | {} | {} | {} | {} | {} |",
            r.shape,
            r.blocks,
            r.vars,
            r.blocks,
            r.construct["pruned"].phis,
            llvm(r.llvm.secs().map(|l| l / p)),
            cl(cranelift_best(r).map(|c| c / r.ssakit_build_s)),
            r.destruct.get("split").map_or("–".into(), |d| de(d / p)),
            through(&r.cli, r.llvm.secs()),
        );
    }
    for r in real {
        let name = r.name();
        let l = r.llvm.as_ref().ok().copied();
        let _ = writeln!(
            o,
            "| {name} | {} | {} | {} | {} | {} | {} |",
            r.blocks,
            r.phis,
            llvm(l.map(|l| l / r.construct_s)),
            cl(Some(r.cranelift_s / r.construct_s)),
            de(r.destruct_s / r.construct_s),
            through(&r.cli, l),
        );
    }
    o
}
