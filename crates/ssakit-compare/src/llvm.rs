//! LLVM 14's `mem2reg` on the same program: `ssakit emit-llvm`'s module
//! (one `alloca` per variable) through `opt -passes=mem2reg -time-passes`.
//! The time is the `PromotePass` row of the timing report (parsing, the
//! verifier and printing excluded; the dominator tree it requests is
//! reported apart); the phis are counted in opt's output.

use std::io::{BufRead, BufReader};
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// One run of `opt`.
#[derive(Clone, Debug, Default)]
pub struct OptRun {
    /// `PromotePass` wall seconds.
    pub promote_s: f64,
    /// `DominatorTreeAnalysis` wall seconds (requested by mem2reg).
    pub domtree_s: f64,
    /// Phis in the output.
    pub phis: usize,
    /// Peak resident set of the `opt` process, in bytes, if `/usr/bin/time`
    /// could tell.
    pub peak_rss: Option<u64>,
}

/// Whether `opt` runs, and its version line.
pub fn available() -> Option<String> {
    let out = Command::new("opt").arg("--version").output().ok()?;
    if !out.status.success() {
        return None;
    }
    String::from_utf8_lossy(&out.stdout)
        .lines()
        .find(|l| l.contains("version"))
        .map(|l| l.trim().to_string())
}

/// Why a run of `opt` gave no time: the report tells a timeout from the
/// other failures by this kind, not by the message.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum OptFailure {
    /// `opt` ran longer than the limit, in seconds, and was killed.
    TimedOut(u64),
    /// `opt` did not start or failed, or its report could not be read.
    Failed(String),
}

impl std::fmt::Display for OptFailure {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            OptFailure::TimedOut(limit) => write!(f, "timeout: over {limit} s"),
            OptFailure::Failed(why) => f.write_str(why),
        }
    }
}

impl From<String> for OptFailure {
    fn from(why: String) -> Self {
        OptFailure::Failed(why)
    }
}

impl From<&str> for OptFailure {
    fn from(why: &str) -> Self {
        OptFailure::Failed(why.to_string())
    }
}

/// Runs mem2reg on the module in `input`, writing the result next to it;
/// gives up after `limit`.
pub fn run(input: &Path, limit: Duration) -> Result<OptRun, OptFailure> {
    let output = input.with_extension("out.ll");
    let use_time = Path::new("/usr/bin/time").exists();
    let mut cmd = if use_time {
        let mut c = Command::new("/usr/bin/time");
        c.args(["-f", "maxrss_kb=%M", "opt"]);
        c
    } else {
        Command::new("opt")
    };
    cmd.args(["-passes=mem2reg", "-time-passes", "-S", "-o"])
        .arg(&output)
        .arg(input)
        .stdout(Stdio::null())
        .stderr(Stdio::piped());
    let mut child = cmd.spawn().map_err(|e| format!("opt: {e}"))?;
    let stderr = child.stderr.take().unwrap();
    let reader = std::thread::spawn(move || {
        let mut s = String::new();
        let _ = std::io::Read::read_to_string(&mut BufReader::new(stderr), &mut s);
        s
    });
    let start = Instant::now();
    let status = loop {
        if let Some(s) = child.try_wait().map_err(|e| e.to_string())? {
            break s;
        }
        if start.elapsed() > limit {
            let _ = child.kill();
            let _ = child.wait();
            let _ = std::fs::remove_file(&output);
            return Err(OptFailure::TimedOut(limit.as_secs()));
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    let err = reader.join().unwrap_or_default();
    if !status.success() {
        return Err(OptFailure::Failed(format!(
            "opt failed: {}",
            err.lines().last().unwrap_or("")
        )));
    }
    // Columns present vary (LLVM drops System Time when it is zero): find
    // the wall-time column from the header of the first report.
    let wall = err
        .lines()
        .find(|l| l.contains("Wall Time"))
        .and_then(|h| {
            h.split("  ")
                .map(str::trim)
                .filter(|c| !c.is_empty())
                .position(|c| c.contains("Wall"))
        })
        .ok_or("no -time-passes header")?;
    let row = |name: &str| -> Option<f64> {
        err.lines()
            .find(|l| l.trim_end().ends_with(name))
            .and_then(|l| nth_time(l, wall))
    };
    let promote_s = row("PromotePass").ok_or("no PromotePass row in -time-passes")?;
    let phis = BufReader::new(std::fs::File::open(&output).map_err(|e| e.to_string())?)
        .lines()
        .map_while(Result::ok)
        .filter(|l| l.contains(" = phi "))
        .count();
    let _ = std::fs::remove_file(&output);
    let peak_rss = err
        .lines()
        .find_map(|l| l.strip_prefix("maxrss_kb="))
        .and_then(|k| k.trim().parse::<u64>().ok())
        .map(|k| k * 1024);
    Ok(OptRun {
        promote_s,
        domtree_s: row("DominatorTreeAnalysis").unwrap_or(0.0),
        phis,
        peak_rss,
    })
}

/// The `k`-th time of a `-time-passes` row, `seconds (percent%)` per
/// column, then the name.
fn nth_time(line: &str, k: usize) -> Option<f64> {
    let mut times = Vec::new();
    let mut in_paren = false;
    for w in line.split_whitespace() {
        if w.starts_with('(') {
            in_paren = !w.ends_with(')');
            continue;
        }
        if in_paren {
            in_paren = !w.ends_with(')');
            continue;
        }
        if let Ok(x) = w.parse::<f64>() {
            times.push(x);
        }
    }
    times.get(k).copied()
}

#[cfg(test)]
mod tests {
    #[test]
    fn times_skip_percentages() {
        let l =
            "   0.0128 ( 40.9%)   0.0000 (100.0%)   0.0129 ( 41.0%)   0.0131 ( 41.0%)  PromotePass";
        assert_eq!(super::nth_time(l, 3), Some(0.0131));
        let l = "   0.0018 ( 41.8%)   0.0018 ( 41.8%)   0.0058 ( 69.5%)  PromotePass";
        assert_eq!(super::nth_time(l, 2), Some(0.0058));
    }
}
