//! `--format json`: the reports of `check`, `analyze`, `--stats` and
//! `--time-passes` on the chapter's example, compared with golden files
//! exactly (`BLESS=1` re-blesses) and parsed with serde_json, and the
//! schema's promises checked on the parsed values (docs/cli.md documents
//! it).

mod common;

use common::{golden, ok, ssakit, stderr, stdout};
use serde_json::Value;

fn parse(text: &str) -> Value {
    serde_json::from_str(text).unwrap_or_else(|e| panic!("not JSON: {e}\n{text}"))
}

#[test]
fn check_json_of_seed_before_and_after_construction() {
    // Not SSA: x, y assigned twice; exit 1 after the whole document.
    let o = ssakit(&["check", "--format", "json", "seed.ssa"], None);
    assert_eq!(o.status.code(), Some(1));
    assert_eq!(stderr(&o), "");
    golden("seed.check.invalid.json", &stdout(&o));
    let v = parse(&stdout(&o));
    let f = &v["functions"][0];
    assert_eq!(f["valid"], false);
    assert!(f["properties"].is_null());
    assert_eq!(f["errors"][0]["line"], 18);
    assert_eq!(f["errors"][0]["column"], 5);
    assert_eq!(f["errors"][0]["file"], "seed.ssa");

    let ssa = ok(&["construct", "seed.ssa"], None);
    let text = ok(&["check", "--format", "json", "-"], Some(&ssa));
    golden("seed.check.json", &text);
    let p = &parse(&text)["functions"][0]["properties"];
    assert_eq!(p["phis"], 9);
    assert_eq!(
        (
            &p["minimal"],
            &p["pruned"],
            &p["conventional"],
            &p["strict"]
        ),
        (
            &Value::Bool(true),
            &Value::Bool(false),
            &Value::Bool(true),
            &Value::Bool(false)
        )
    );
    assert_eq!(
        p["dead_phis"],
        serde_json::json!(["tmp1", "tmp3", "tmp4", "y5"])
    );
    assert_eq!(p["undef_operands"], 3);
    // The same verdicts as the text report.
    let text = ok(&["check", "-"], Some(&ssa));
    assert!(text.contains("minimal: yes\n  pruned: no"), "{text}");
    assert!(p.get("constant_conflict").is_none(), "absent when none");
    // Issue 32, defect 8: a constant phi operand that keeps SSA from being
    // conventional is named.
    let src = "function main(c) {\nentry:\n    m = c + 1\n    branch c, s, t\n\
               s:\n    y = phi(entry: 2, t: m)\n    print y\n    ret\n\
               t:\n    print m\n    jump s\n}\n";
    let json = parse(&ok(&["check", "--format", "json", "-"], Some(src)));
    let p = &json["functions"][0]["properties"];
    assert_eq!(p["conventional"], Value::Bool(false));
    assert_eq!(
        p["constant_conflict"],
        "the constant `y` takes from entry is copied into its web at the end of entry, \
         where `m` of the same web is still needed"
    );
}

#[test]
fn analyze_json_of_seed() {
    let text = ok(
        &[
            "analyze", "--format", "json", "--dom", "--dj", "--df", "--idf", "x", "--live",
            "seed.ssa",
        ],
        None,
    );
    golden("seed.analyze.json", &text);
    let v = parse(&text);
    assert_eq!(v["function"], "main");
    let dom = v["dom"].as_array().unwrap();
    assert_eq!(dom.len(), 6);
    assert_eq!(dom[0]["idom"], Value::Null);
    assert!(dom[1..].iter().skip(1).all(|d| d["idom"] == "A"));
    assert_eq!(v["dj"]["d_edges"].as_array().unwrap().len(), 5);
    assert_eq!(v["dj"]["j_edges"].as_array().unwrap().len(), 5);
    assert_eq!(
        v["dj"]["j_edges"][4],
        serde_json::json!({"from": "D", "to": "E"})
    );
    // DF(B) = {D}, DF(C) = {D, E}, DF(D) = {A, E}; DF+ = {A, D, E}.
    assert_eq!(v["df"][2], serde_json::json!({"block": "B", "df": ["D"]}));
    assert_eq!(v["df"][3]["df"], serde_json::json!(["D", "E"]));
    assert_eq!(v["df"][4]["df"], serde_json::json!(["A", "E"]));
    assert_eq!(v["idf"]["idf"], serde_json::json!(["A", "D", "E"]));
    assert_eq!(v["live"].as_array().unwrap().len(), 6);
    // Only what is asked for.
    let v = parse(&ok(
        &["analyze", "--format", "json", "--df", "seed.ssa"],
        None,
    ));
    let mut keys: Vec<&String> = v.as_object().unwrap().keys().collect();
    keys.sort();
    assert_eq!(keys, ["df", "function"]);
}

#[test]
fn stats_json_on_standard_error() {
    let o = ssakit(
        &["destruct", "--stats", "--format", "json", "swap.ssa"],
        None,
    );
    assert!(o.status.success());
    assert_eq!(stdout(&o), ok(&["destruct", "swap.ssa"], None));
    golden("swap.destruct.stats.json", &stderr(&o));
    let v = parse(&stderr(&o));
    assert_eq!(v["stats"][0]["function"], "main");
    assert_eq!(v["stats"][0]["stats"]["edges_split"], 1);
    assert_eq!(v["stats"][0]["stats"]["temporaries"], 1);
    assert!(v.get("time_passes").is_none());

    let o = ssakit(
        &[
            "opt",
            "--passes",
            "copy-prop,dce",
            "--stats",
            "--format",
            "json",
            "-",
        ],
        Some(&ok(&["construct", "seed.ssa"], None)),
    );
    assert!(o.status.success());
    golden("seed.opt.stats.json", &stderr(&o));
    let v = parse(&stderr(&o));
    assert!(v["stats"]["phis_removed"].as_u64().unwrap() > 0);
}

#[test]
fn time_passes_json_names_every_phase_with_its_seconds() {
    for args in [
        &["construct", "--time-passes", "--format", "json", "seed.ssa"][..],
        &[
            "opt",
            "--passes",
            "dce",
            "--time-passes",
            "--format",
            "json",
            "lost_copy.ssa",
        ],
        &[
            "destruct",
            "--time-passes",
            "--stats",
            "--format",
            "json",
            "swap.ssa",
        ],
    ] {
        let o = ssakit(args, None);
        assert!(o.status.success(), "{args:?}: {}", stderr(&o));
        let v = parse(&stderr(&o));
        let t = &v["time_passes"];
        assert!(t["wall"].as_f64().unwrap() >= 0.0, "{args:?}");
        let phases = t["phases"].as_array().unwrap();
        assert!(!phases.is_empty());
        let mut sum = 0.0;
        for p in phases {
            assert!(p["phase"].is_string());
            sum += p["seconds"].as_f64().unwrap();
        }
        assert!(
            (sum - t["total"].as_f64().unwrap()).abs() < 1e-9,
            "{args:?}"
        );
        assert!(phases.iter().any(|p| p["phase"] == "verification"));
    }
    // Without --stats or --time-passes, nothing on standard error.
    let o = ssakit(&["destruct", "--format", "json", "swap.ssa"], None);
    assert_eq!(stderr(&o), "");
}
