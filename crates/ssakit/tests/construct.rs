//! SSA construction on the chapter's running example (golden files) and on
//! the corner cases the chapter mentions.

mod common;

use common::{example, golden};
use ssakit::construct::{self, Flavor, Idf, Options, Renaming, UndefMode};
use ssakit::interp::{self, RunOptions};
use ssakit::text::{parse_module, print_module};

fn construct_text(src: &str, opts: Options) -> String {
    let mut m = parse_module(src).unwrap();
    construct::construct_module(&mut m, &opts).unwrap();
    for f in &m.functions {
        ssakit::verify::verify(f).unwrap();
    }
    print_module(&m)
}

/// The chapter's final figure (section 13.4): phis for x and y at A, D and
/// E, versions x1..x6 and y1..y5 where the chapter puts them; minimal SSA
/// also places phis for tmp, which the figure omits.
#[test]
fn seed_minimal_is_the_chapters_figure() {
    let out = construct_text(&example("seed.ssa"), Options::default());
    for line in [
        "    x1 = phi(r: undef, D: x5)",
        "    y1 = phi(r: undef, D: y4)",
        "    y2 = 0",
        "    x2 = 0",
        "    tmp2 = x1",
        "    x3 = y1",
        "    y3 = tmp2",
        "    x4 = phi(B: x2, C: x3)",
        "    y4 = phi(B: y2, C: y3)",
        "    x5 = f(x4, y4)",
        "    x6 = phi(C: x3, D: x5)",
        "    y5 = phi(C: y3, D: y4)",
        "    ret x6",
    ] {
        assert!(out.lines().any(|l| l == line), "missing `{line}` in\n{out}");
    }
    golden("seed.minimal.ssa", &out);
}

/// Pruned SSA drops tmp's phis and the dead y5.
#[test]
fn seed_pruned_drops_dead_phis() {
    let out = construct_text(
        &example("seed.ssa"),
        Options {
            flavor: Flavor::Pruned,
            ..Default::default()
        },
    );
    assert!(
        !out.contains("tmp") || !out.lines().any(|l| l.contains("tmp") && l.contains("phi")),
        "{out}"
    );
    assert!(!out.contains("y5"), "{out}");
    golden("seed.pruned.ssa", &out);
    let semi = construct_text(
        &example("seed.ssa"),
        Options {
            flavor: Flavor::SemiPruned,
            ..Default::default()
        },
    );
    golden("seed.semi-pruned.ssa", &semi);
}

#[test]
fn seed_undef_modes() {
    for (mode, name) in [
        (UndefMode::EntryDef, "seed.undef-entry.ssa"),
        (UndefMode::Local, "seed.undef-local.ssa"),
    ] {
        let out = construct_text(
            &example("seed.ssa"),
            Options {
                undef: mode,
                ..Default::default()
            },
        );
        assert!(
            !out.contains("undef)") && !out.contains("undef,"),
            "{mode:?} left undef operands:\n{out}"
        );
        golden(name, &out);
    }
}

/// The trace of x matches the hand-checked table: the worklist visits B, C,
/// D, E, A, inserting at D, E then A; renaming climbs from x2 to x1 in C,
/// from x3 to x1 at D's phi, and from x5 through x4 to x1 at E's phi.
#[test]
fn seed_trace_of_x() {
    let mut m = parse_module(&example("seed.ssa")).unwrap();
    let f = &mut m.functions[0];
    let (_, trace) = construct::construct_traced(f, &Options::default(), "x").unwrap();
    let text = trace.render(f);
    golden("seed.trace-x.txt", &text);
    // The chapter labels the eight instructions mentioning x l1..l8.
    assert!(text.contains("| l8    | E     | ret x6"), "{text}");
    assert!(!text.contains("| l9"), "{text}");
    assert!(
        text.contains("| 3    | D              | {A, E} | {A}             | {A, D, E} | {E, A}  |")
    );
    let (_, trace) = {
        let mut m = parse_module(&example("seed.ssa")).unwrap();
        let f = &mut m.functions[0];
        let r = construct::construct_traced(f, &Options::default(), "y").unwrap();
        golden("seed.trace-y.txt", &r.1.render(f));
        r
    };
    assert_eq!(trace.var, "y");
}

#[test]
fn both_renamings_agree_on_every_example() {
    for name in ["seed.ssa", "sum.ssa"] {
        for flavor in [Flavor::Minimal, Flavor::SemiPruned, Flavor::Pruned] {
            for undef in [UndefMode::Operand, UndefMode::EntryDef, UndefMode::Local] {
                let a = construct_text(
                    &example(name),
                    Options {
                        flavor,
                        undef,
                        renaming: Renaming::ReachingDef,
                        idf: Idf::Linear,
                    },
                );
                let b = construct_text(
                    &example(name),
                    Options {
                        flavor,
                        undef,
                        renaming: Renaming::Stacks,
                        idf: Idf::Worklist,
                    },
                );
                assert_eq!(a, b, "{name} {flavor:?} {undef:?}");
            }
        }
    }
}

/// An entry block with predecessors gets a fresh entry; unreachable blocks
/// are dropped; parameters redefined in a loop get versions and keep their
/// own name at the entry. (Minimal SSA gives the dead `c` a phi too.)
#[test]
fn entry_with_predecessors_unreachable_blocks_and_parameters() {
    let src = "function main(n) {\nentry:\n    n = n - 1\n    print n\n    c = n > 0\n    branch c, entry, out\ndead:\n    n = 99\n    jump entry\nout:\n    ret n\n}\n";
    let out = construct_text(src, Options::default());
    assert_eq!(
        out,
        "function main(n) {\nentry.1:\n    jump entry\nentry:\n    c1 = phi(entry.1: undef, entry: c2)\n    n1 = phi(entry.1: n, entry: n2)\n    n2 = n1 - 1\n    print n2\n    c2 = n2 > 0\n    branch c2, entry, out\nout:\n    ret n2\n}\n"
    );
    let m = parse_module(src).unwrap();
    let s = parse_module(&out).unwrap();
    let run = |m: &ssakit::ir::Module| {
        interp::run(m, &m.functions[0], &[3], &RunOptions::default())
            .unwrap()
            .render()
    };
    assert_eq!(run(&m), run(&s));
    assert_eq!(run(&s), "2\n1\n0\n=> 0\n");
}

#[test]
fn construction_refuses_ssa_input() {
    let mut m = parse_module(&example("swap.ssa")).unwrap();
    let e = construct::construct(&mut m.functions[0], &Options::default()).unwrap_err();
    assert!(e.message.contains("already has phis"), "{}", e.message);
    assert!(e.inst.is_some() && e.block.is_some());
}

#[test]
fn tracing_an_unknown_variable_is_an_error() {
    let mut m = parse_module(&example("seed.ssa")).unwrap();
    let e =
        construct::construct_traced(&mut m.functions[0], &Options::default(), "nope").unwrap_err();
    assert_eq!(e.message, "no variable named `nope`");
}

#[test]
fn verifier_reports_the_chapters_properties_of_the_seed() {
    let mut m = parse_module(&example("seed.ssa")).unwrap();
    construct::construct_module(&mut m, &Options::default()).unwrap();
    let f = &m.functions[0];
    let r = ssakit::verify::verify(f).unwrap();
    assert!(r.minimal() && r.conventional() && !r.strict());
    assert!(!r.pruned());
    golden("seed.check.txt", &r.render(f));
}

/// Each invariant of the verifier, broken once.
#[test]
fn verifier_rejects_invalid_ssa() {
    let cases = [
        ("function f(a) {\ne:\n    x = 1\n    x = 2\n    ret x\n}\n", "`x` is assigned more than once"),
        ("function f(a) {\ne:\n    a = 1\n    ret a\n}\n", "`a` is assigned more than once"),
        ("function f(a) {\ne:\n    ret y\n}\n", "`y` is used but never assigned"),
        ("function f(a) {\ne:\n    y = x\n    x = 1\n    ret y\n}\n", "use of `x` is not dominated by its definition in block `e`"),
        (
            "function f(a) {\ne:\n    branch a, l, r\nl:\n    x = 1\n    jump j\nr:\n    jump j\nj:\n    ret x\n}\n",
            "use of `x` is not dominated by its definition in block `l`",
        ),
        (
            "function f(a) {\ne:\n    branch a, l, j\nl:\n    x = 1\n    jump j\nj:\n    y = phi(e: x, l: x)\n    ret y\n}\n",
            "use of `x` is not dominated by its definition in block `l`",
        ),
    ];
    for (src, msg) in cases {
        let m = parse_module(src).unwrap();
        let errs = ssakit::verify::verify(&m.functions[0]).unwrap_err();
        assert!(
            errs.iter().any(|e| e.message == msg),
            "{src}\nexpected {msg:?}, got {errs:?}"
        );
    }
}

/// The lost-copy example is valid SSA but not conventional: x2 and x3 are
/// in one phi web and x2 is live where x3 is defined.
#[test]
fn verifier_sees_non_conventional_ssa() {
    let m = parse_module(&example("lost_copy.ssa")).unwrap();
    let r = ssakit::verify::verify(&m.functions[0]).unwrap();
    assert!(!r.conventional());
    let names = ssakit::ir::VarNames::new(&m.functions[0]);
    let (a, b) = r.interference.unwrap();
    let mut pair = [&names[a], &names[b]];
    pair.sort();
    assert_eq!(pair, ["x2", "x3"]);
    let m = parse_module(&example("swap.ssa")).unwrap();
    assert!(!ssakit::verify::verify(&m.functions[0])
        .unwrap()
        .conventional());
}

/// The trace of `v` and the SSA of `f` constructed with `idf` in `flavor`.
fn traced(
    f: &ssakit::ir::Function,
    idf: Idf,
    flavor: Flavor,
    v: &str,
) -> (construct::Trace, ssakit::ir::Function) {
    let mut g = f.clone();
    let opts = Options {
        idf,
        flavor,
        ..Options::default()
    };
    let (_, t) = construct::construct_traced(&mut g, &opts, v).unwrap();
    (t, g)
}

/// Issue 32, defect 3: the trace of a variable computes the frontiers its
/// worklist takes on demand (`Idf::Linear`, the default) instead of
/// DF_all's: the rows, their sets' sizes and the SSA are those of the
/// chapter's worklist over DF_all (`Idf::Worklist`) on every variable of
/// generated programs, in every flavour.
#[test]
fn traced_frontiers_on_demand_agree_with_df_all() {
    use ssakit::gen::{generate, GenOptions, Shape};
    for shape in [
        Shape::Random,
        Shape::Ladder,
        Shape::Irreducible,
        Shape::NestedLoops,
    ] {
        for seed in 0..3 {
            let f = generate(&GenOptions {
                shape,
                blocks: 40,
                vars: 3,
                seed,
            });
            for flavor in [Flavor::Minimal, Flavor::SemiPruned, Flavor::Pruned] {
                for v in ["v0", "v1", "v2"] {
                    let run = |idf| {
                        let (t, g) = traced(&f, idf, flavor, v);
                        let text = print_module(&ssakit::ir::Module { functions: vec![g] });
                        (t, text)
                    };
                    let (a, b) = (run(Idf::Worklist), run(Idf::Linear));
                    assert_eq!(a, b, "{shape:?} seed {seed} {flavor:?} {v}");
                }
            }
        }
    }
}

/// Issue 32, defect 3: a trace's rows keep at most `ROW_SHOWN` blocks of
/// each set and the sets' sizes, so a ladder's trace holds memory linear
/// in the function (its full sets F, W and DF(X) summed to the square of
/// the blocks); the sizes are the sets' true sizes.
#[test]
fn trace_rows_are_linear_on_a_ladder() {
    use ssakit::construct::trace::ROW_SHOWN;
    use ssakit::gen::{generate, GenOptions, Shape};
    let mut f = generate(&GenOptions {
        shape: Shape::Ladder,
        blocks: 2002,
        vars: 4,
        seed: 0,
    });
    let (_, t) = construct::construct_traced(&mut f, &Options::default(), "v0").unwrap();
    let held: usize = t
        .insert
        .iter()
        .map(|r| r.df.len() + r.inserted.len() + r.f.len() + r.w.len())
        .sum();
    let sizes: usize = t
        .insert
        .iter()
        .map(|r| r.df_len + r.inserted_len + r.f_len + r.w_len)
        .sum();
    assert!(t.insert.len() <= 2 * 2002, "{} rows", t.insert.len());
    assert!(held <= 4 * ROW_SHOWN * t.insert.len(), "{held}");
    // The sets themselves are quadratic: what the rows no longer hold.
    assert!(sizes > 100 * 2002, "{sizes}");
    let last = t.insert.last().unwrap();
    assert_eq!((last.w_len, last.w.len()), (0, 0));
    let phis = f
        .layout()
        .iter()
        .flat_map(|&b| f.block_phis(b))
        .filter(|&&i| f.base_name(f.def(i).unwrap()) == "v0")
        .count();
    assert_eq!(last.f_len, phis);
}

/// Issue 32, defect 3 (time): the traced variable's steps read DF(X)
/// without walking X's subtree ([`ssakit::construct::trace`]'s counted
/// sizes, the blocks not yet in F found in a segment tree of edges, a
/// bounded walk for the blocks shown). On programs large enough for the
/// walk to stop early, every row agrees with the chapter's worklist over
/// DF_all but for the blocks shown of a frontier too large to walk, which
/// are then blocks of DF(X) (checked against DF_all).
#[test]
fn counted_frontiers_agree_with_df_all_on_large_programs() {
    use ssakit::analysis::{DomTree, DominanceFrontiers};
    use ssakit::gen::{generate, GenOptions, Shape};
    use ssakit::ir::Cfg;
    let mut partial = 0;
    for shape in [
        Shape::Random,
        Shape::Ladder,
        Shape::Irreducible,
        Shape::NestedLoops,
        Shape::Switchy,
    ] {
        for seed in 0..2 {
            let f = generate(&GenOptions {
                shape,
                blocks: 600,
                vars: 3,
                seed,
            });
            let cfg = Cfg::new(&f);
            let df = DominanceFrontiers::new(&cfg, &DomTree::new(&cfg));
            for flavor in [Flavor::Minimal, Flavor::Pruned] {
                let run = |idf| traced(&f, idf, flavor, "v0").0;
                let (mut a, b) = (run(Idf::Worklist), run(Idf::Linear));
                assert_eq!(a.insert.len(), b.insert.len(), "{shape:?} {seed}");
                for (ra, rb) in a.insert.iter_mut().zip(&b.insert) {
                    let what = format!("{shape:?} seed {seed} {flavor:?} X = {}", rb.x);
                    if ra.df != rb.df {
                        partial += 1;
                        assert!(rb.df.windows(2).all(|w| w[0] < w[1]), "{what}");
                        for y in &rb.df {
                            assert!(df.df(rb.x).contains(y), "{what}: {y} not in DF(X)");
                        }
                        ra.df = rb.df.clone();
                    }
                    assert_eq!(*ra, *rb, "{what}");
                }
                assert_eq!(a, b, "{shape:?} seed {seed} {flavor:?}");
            }
        }
    }
    // The ladder's outer frontiers are too large to walk.
    assert!(partial > 0);
}
