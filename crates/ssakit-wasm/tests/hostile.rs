//! Bad input: truncated, malformed and invalid modules give one error with
//! a byte offset, never a panic. Modules are truncated at every section
//! boundary (the small example at every byte) and mutated byte by byte
//! with a fixed seed; a mutant that still validates must lift, construct
//! and verify.

mod support;

use ssakit::construct::{self, Flavor, Options};
use ssakit_wasm::lift::{lift, ModuleSymbols};
use ssakit_wasm::module;
use std::panic::{catch_unwind, AssertUnwindSafe};

const TOUR: &str = include_str!("../../../examples/wasm_tour.wat");

/// What happened to one input.
#[derive(Debug, PartialEq)]
enum Outcome {
    Lifted,
    Refused,
}

/// Parses `bytes`, lifts the bodies that overlap `only` (all of them for
/// `None`), and constructs and verifies what lifts. Panics (failing the
/// test) on an error without a byte offset or a pipeline failure; a panic
/// of the front end is caught and reported with the input's description.
fn feed(bytes: &[u8], only: Option<std::ops::Range<usize>>, what: &str) -> Outcome {
    let r = catch_unwind(AssertUnwindSafe(
        || -> Result<(), ssakit_wasm::WasmError> {
            let m = module::parse(bytes)?;
            let syms = ModuleSymbols::new(&m);
            for body in &m.bodies {
                let range = body.body.range();
                if let Some(o) = &only {
                    if (range.end as usize) < o.start || range.start as usize > o.end {
                        continue;
                    }
                }
                let mut f = lift(&m, &syms, body)?.func;
                construct::construct(
                    &mut f,
                    &Options {
                        flavor: Flavor::Pruned,
                        ..Default::default()
                    },
                )
                .unwrap_or_else(|e| panic!("{what}: construct: {}", e.describe(&f)));
                ssakit::verify::verify_valid(&f)
                    .unwrap_or_else(|e| panic!("{what}: verify: {}", e[0].describe(&f)));
            }
            Ok(())
        },
    ));
    match r {
        Ok(Ok(())) => Outcome::Lifted,
        Ok(Err(e)) => {
            assert!(e.offset.is_some(), "{what}: no offset in `{e}`");
            assert!(
                e.offset.unwrap() <= bytes.len() as u64,
                "{what}: `{e}` is past the end"
            );
            Outcome::Refused
        }
        Err(p) => {
            // The panic's own message is already on standard error (the
            // hook ran); name the input and go on unwinding.
            eprintln!("{what}: panicked");
            std::panic::resume_unwind(p)
        }
    }
}

/// The offsets where sections start and end.
fn section_boundaries(bytes: &[u8]) -> Vec<usize> {
    let mut cuts = vec![0, 4, 8];
    for p in wasmparser::Parser::new(0).parse_all(bytes) {
        if let Some((_, range)) = p.unwrap().as_section() {
            cuts.push(range.start as usize);
            cuts.push(range.end as usize);
        }
    }
    cuts.sort();
    cuts.dedup();
    cuts
}

/// A small deterministic generator (xorshift64*).
struct Rng(u64);
impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

/// `n` mutants of `bytes`, each with 1 to 3 bytes changed inside `within`.
fn mutants(
    bytes: &[u8],
    within: std::ops::Range<usize>,
    n: usize,
    seed: u64,
) -> Vec<(Vec<u8>, usize)> {
    let mut rng = Rng(seed);
    (0..n)
        .map(|_| {
            let mut m = bytes.to_vec();
            let mut at = 0;
            for _ in 0..1 + rng.below(3) {
                at = within.start + rng.below(within.len());
                m[at] = match rng.below(4) {
                    0 => 0,
                    1 => 0xff,
                    2 => m[at] ^ (1 << rng.below(8)),
                    _ => rng.next() as u8,
                };
            }
            (m, at)
        })
        .collect()
}

#[test]
fn the_example_truncated_at_every_byte_never_panics_and_inside_a_section_is_refused() {
    let bytes = module::to_binary(TOUR.as_bytes()).unwrap().into_owned();
    assert_eq!(feed(&bytes, None, "whole"), Outcome::Lifted);
    let boundaries = section_boundaries(&bytes);
    for cut in 4..bytes.len() {
        let what = format!("truncated at {cut}");
        let outcome = feed(&bytes[..cut], None, &what);
        // A module cut between two sections may be valid (the sections
        // before the code section, or none at all); cut anywhere else, it
        // is malformed. (The prefixes shorter than the magic are not
        // binary modules: the reader takes them for text.)
        if !boundaries.contains(&cut) {
            assert_eq!(outcome, Outcome::Refused, "{what}");
        }
    }
}

#[test]
fn thousands_of_mutants_of_the_example_never_panic() {
    let bytes = module::to_binary(TOUR.as_bytes()).unwrap().into_owned();
    let mut refused = 0;
    let n = 5000;
    for (k, (m, at)) in mutants(&bytes, 8..bytes.len(), n, 0x5eed)
        .into_iter()
        .enumerate()
    {
        if feed(&m, None, &format!("mutant {k} (last change at {at})")) == Outcome::Refused {
            refused += 1;
        }
    }
    // Most mutants break the module, and some survive.
    assert!(refused > n / 4 && refused < n, "{refused} of {n} refused");
}

#[test]
fn sql_wasm_truncated_at_every_section_boundary_and_mutated() {
    let Some(bytes) = support::corpus("sql-wasm.wasm") else {
        return;
    };
    let cuts = section_boundaries(&bytes);
    for &cut in &cuts {
        if cut < bytes.len() {
            let what = format!("sql-wasm truncated at {cut}");
            // Lifting every body of a truncated module would repeat the
            // corpus test: the truncation is found by parsing (bodies
            // overlapping the cut are lifted).
            // Between sections the prefix may be valid; it must not panic.
            feed(&bytes[..cut], Some(cut.saturating_sub(1)..cut), &what);
            // Inside a section it is malformed.
            let inside = cut + 1;
            if !cuts.contains(&inside) && inside < bytes.len() {
                let what = format!("sql-wasm truncated at {inside}");
                let outcome = feed(&bytes[..inside], Some(cut..inside), &what);
                assert_eq!(outcome, Outcome::Refused, "{what}");
            }
        }
    }
    // Mutants in the code section, lifting the function mutated.
    let code = wasmparser::Parser::new(0)
        .parse_all(&bytes)
        .filter_map(|p| match p.unwrap() {
            wasmparser::Payload::CodeSectionStart {
                unchecked_range, ..
            } => Some(unchecked_range.start as usize..unchecked_range.end as usize),
            _ => None,
        })
        .next()
        .unwrap();
    let n = 1000;
    let mut refused = 0;
    for (k, (m, at)) in mutants(&bytes, code, n, 0xc0de).into_iter().enumerate() {
        if feed(
            &m,
            Some(at..at + 1),
            &format!("sql-wasm mutant {k} at {at}"),
        ) == Outcome::Refused
        {
            refused += 1;
        }
    }
    eprintln!("sql-wasm: {refused} of {n} code-section mutants refused");
}
