//! Properties on real binaries of this machine, whose exact counts drift
//! with their versions: every function of `/usr/bin/ls` lifts, goes
//! through the three flavours, verifies and destructs with no failure, and
//! what `x86 lift` prints of it (opaque, in pruned SSA, with the
//! semantics) parses back and prints the same, every function under its
//! own label. Skipped, with
//! a message, where the binary is absent. `SSAKIT_X86_CORPUS` (paths
//! separated by `:`) adds binaries (scripts/install-x86-corpus.sh installs
//! the issue's), which must be there: one absent fails the test.

mod support {
    pub mod corpus;
}

use ssakit::construct::{self, Flavor};
use ssakit::ir::Module;
use ssakit::text::{parse_module, print_module};
use ssakit_x86::binary::Binary;
use ssakit_x86::pipeline::{run, Options};

use support::corpus::{self, Entry};

fn corpus() -> Vec<Entry> {
    corpus::corpus(&["/usr/bin/ls"], &[], "SSAKIT_X86_CORPUS")
}

/// A path the environment gives is no default: absent, it fails.
#[test]
#[should_panic(expected = "SSAKIT_X86_CORPUS names /nonexistent/ls, which cannot be read")]
fn a_corpus_path_given_and_absent_fails() {
    corpus::read(&Entry {
        path: "/nonexistent/ls".into(),
        given: Some("SSAKIT_X86_CORPUS"),
    });
}

fn text_round_trip(m: Module, what: &str) {
    let text = print_module(&m);
    let back = parse_module(&text).unwrap_or_else(|e| panic!("{what}: {e:?}"));
    assert!(
        print_module(&back) == text,
        "{what}: text round trip differs"
    );
}

#[test]
fn every_function_of_the_system_binaries_goes_through() {
    for entry in corpus() {
        let Some(elf) = corpus::read(&entry) else {
            continue;
        };
        let path = entry.path;
        let bin = Binary::parse(&elf).unwrap_or_else(|e| panic!("{path}: {e}"));
        let mut opts = Options::default();
        opts.pipeline.destruct = Some(Default::default());
        let stats = run(&bin, &opts, &|| {});
        for f in &stats.failures {
            eprintln!("{path}: {} at {:#x}: {}", f.name, f.address, f.error);
        }
        assert!(
            stats.failures.is_empty(),
            "{path}: {} failures",
            stats.failures.len()
        );
        let t = stats.total();
        eprintln!(
            "{path}: {} functions, {} instructions, {} jump tables, pruned phis {:?}",
            stats.functions.len(),
            t.instructions,
            t.jump_tables,
            t.phis.get(Flavor::Pruned)
        );
        assert!(stats.functions.len() > 10 && t.jump_tables > 0, "{path}");
        // What `x86 lift` prints parses back: the labels are unique, and
        // the module, lifted opaque, in pruned SSA (`--construct
        // --flavor pruned`) and with the semantics, round-trips (a chunk
        // of functions at a time, to bound the memory).
        let mut labels = std::collections::HashSet::new();
        for info in bin.functions() {
            assert!(
                labels.insert(info.label.as_str()),
                "{path}: two functions labelled {}",
                info.label
            );
        }
        for semantics in [false, true] {
            let opts = ssakit_x86::lift::Options { semantics };
            for (k, chunk) in bin.functions().chunks(512).enumerate() {
                let functions: Vec<_> = chunk
                    .iter()
                    .map(|info| ssakit_x86::lift::lift_with(&bin, info, &opts).func)
                    .collect();
                let what = format!("{path}: chunk {k}, semantics {semantics}");
                if !semantics {
                    let copts = construct::Options {
                        flavor: Flavor::Pruned,
                        ..Default::default()
                    };
                    let mut pruned = functions.clone();
                    for g in &mut pruned {
                        construct::construct(g, &copts).unwrap();
                    }
                    text_round_trip(Module { functions: pruned }, &format!("{what}, pruned"));
                }
                text_round_trip(Module { functions }, &what);
            }
        }
    }
}
