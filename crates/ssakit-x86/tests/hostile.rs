//! Bad input: truncated and byte-mutated ELF files give one error with a
//! byte offset inside the file, never a panic or a hang; a mutant that
//! still reads as an ELF file must go through the whole pipeline (lift,
//! the three flavours, verification, destruction) with no failure:
//! mutated code decodes to other instructions, and the recovery must cope.
//! Function discovery runs first on every input (as `x86 stats` does),
//! and on a file whose data is code pointers everywhere.

use ssakit_x86::binary::Binary;
use ssakit_x86::error::{ErrorKind::Malformed, Field};
use ssakit_x86::pipeline::{run, Options};
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::time::{Duration, Instant};

fn fixture() -> Vec<u8> {
    std::fs::read(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/fixture/fixture"
    ))
    .unwrap()
}

/// What happened to one input.
#[derive(Debug, PartialEq)]
enum Outcome {
    Lifted,
    Refused,
}

/// Reads `bytes`, discovers its functions, runs the pipeline on every function (opaque, with
/// the semantics and the passes, with `--stack`, with `--signatures`)
/// and counts the code outside functions; panics (failing
/// the test) on a panic, an error without an offset inside the file, a
/// pipeline failure or a slow input.
fn feed(bytes: &[u8], what: &str) -> Outcome {
    let start = Instant::now();
    let r = catch_unwind(AssertUnwindSafe(|| {
        let mut bin = Binary::parse(bytes)?;
        let given = bin.functions().to_vec();
        let d = ssakit_x86::discover::discover(&mut bin);
        // Discovery adds functions, never changes one given.
        assert!(given.iter().all(|f| bin.functions().contains(f)), "{what}");
        assert_eq!(bin.functions().len(), given.len() + d.found(), "{what}");
        // Opaque, then with the semantics table and the passes that
        // fold and remove its operations, then with the frame's slots
        // promoted too (`--stack`), then with the signatures found
        // first (`--signatures`).
        let configs = [
            (false, false, false),
            (true, false, false),
            (true, true, false),
            (true, true, true),
        ];
        for (semantics, stack, signatures) in configs {
            let passes = match semantics {
                true => ssakit::opt::Pass::parse("copy-prop,const-prop,dce").unwrap(),
                false => Vec::new(),
            };
            let mut opts = Options {
                semantics,
                stack,
                signatures,
                ..Default::default()
            };
            opts.pipeline.destruct = Some(Default::default());
            opts.pipeline.passes = passes;
            let stats = run(&bin, &opts, &|| {});
            if let Some(f) = stats.failures.first() {
                panic!(
                    "{what}: semantics {semantics}, stack {stack}, signatures {signatures}: {} at {:#x}: {}",
                    f.name, f.address, f.error
                );
            }
        }
        // The code outside every extent (`x86 stats`' row): counted,
        // never more than the executable bytes.
        let out = ssakit_x86::lost::outside_functions(&bin);
        assert!(out.bytes <= out.executable, "{what}: {out:?}");
        Ok::<(), ssakit_x86::X86Error>(())
    }));
    assert!(
        start.elapsed() < Duration::from_secs(60),
        "{what}: too slow (a hang?)"
    );
    match r {
        Ok(Ok(())) => Outcome::Lifted,
        Ok(Err(e)) => {
            let off = e
                .offset
                .unwrap_or_else(|| panic!("{what}: no offset in `{e}`"));
            assert!(off <= bytes.len() as u64, "{what}: `{e}` is past the end");
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

#[test]
fn the_fixture_itself_lifts() {
    assert_eq!(feed(&fixture(), "fixture"), Outcome::Lifted);
}

/// Every prefix up to the end of the headers, then every 61st byte: a
/// truncated file is refused (the section headers are at the end).
#[test]
fn truncated_files_are_refused_with_an_offset() {
    let elf = fixture();
    let mut cuts: Vec<usize> = (0..=128).collect();
    cuts.extend((128..elf.len()).step_by(61));
    for cut in cuts {
        assert_eq!(
            feed(&elf[..cut], &format!("cut at {cut}")),
            Outcome::Refused,
            "cut at {cut}"
        );
    }
}

/// A fixed-seed xorshift generator (no dependency).
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
}

/// 1 to 4 random bytes changed, 1500 times: the headers' 64 bytes a third
/// of the time, anywhere otherwise.
#[test]
fn mutated_files_are_refused_or_lifted() {
    let elf = fixture();
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
    let (mut lifted, mut refused) = (0, 0);
    for k in 0..1500 {
        let mut m = elf.clone();
        let n = 1 + rng.next() % 4;
        let mut changed = Vec::new();
        for _ in 0..n {
            let at = if k % 3 == 0 {
                (rng.next() % 64) as usize
            } else {
                (rng.next() % m.len() as u64) as usize
            };
            m[at] = rng.next() as u8;
            changed.push(at);
        }
        match feed(&m, &format!("mutant {k} (bytes {changed:?})")) {
            Outcome::Lifted => lifted += 1,
            Outcome::Refused => refused += 1,
        }
    }
    assert!(
        lifted > 500 && refused > 50,
        "lifted {lifted}, refused {refused}"
    );
}

/// Code overwritten with random bytes (the whole `.text` of the fixture):
/// every function still goes through.
#[test]
fn random_code_goes_through() {
    let elf = fixture();
    let bin = Binary::parse(&elf).unwrap();
    let (lo, hi) = bin.functions().iter().fold((u64::MAX, 0), |(lo, hi), f| {
        (lo.min(f.extent.start), hi.max(f.extent.end))
    });
    // The fixture maps its code at file offset = address.
    assert_eq!(&elf[lo as usize..lo as usize + 4], bin.read(lo, 4).unwrap());
    let mut rng = Rng(42);
    for round in 0..20 {
        let mut m = elf.clone();
        for b in &mut m[lo as usize..hi as usize] {
            *b = rng.next() as u8;
        }
        assert_eq!(feed(&m, &format!("random code {round}")), Outcome::Lifted);
    }
}

/// The section headers' (name, address, file offset, size) of an ELF
/// file.
fn sections(elf: &[u8]) -> Vec<(String, u64, usize, usize)> {
    let word = |o: usize| u64::from_le_bytes(elf[o..o + 8].try_into().unwrap());
    let half = |o: usize| u16::from_le_bytes(elf[o..o + 2].try_into().unwrap()) as usize;
    let (shoff, shnum, shstrndx) = (word(0x28) as usize, half(0x3c), half(0x3e));
    let names = word(shoff + shstrndx * 64 + 0x18) as usize;
    (0..shnum)
        .map(|i| {
            let h = shoff + i * 64;
            let at = names + u32::from_le_bytes(elf[h..h + 4].try_into().unwrap()) as usize;
            let end = at + elf[at..].iter().position(|&b| b == 0).unwrap();
            let name = String::from_utf8_lossy(&elf[at..end]).into_owned();
            let ty = u32::from_le_bytes(elf[h + 4..h + 8].try_into().unwrap());
            let size = if ty == 8 { 0 } else { word(h + 0x20) as usize }; // NOBITS
            (name, word(h + 0x10), word(h + 0x18) as usize, size)
        })
        .collect()
}

/// A static-like file whose data is code pointers everywhere (every
/// aligned word of every loaded data section points at a random byte of
/// the code) and whose code is random: discovery tries them all within
/// its budget, never panics or hangs, and the pipeline goes through
/// every function it found.
#[test]
fn pointers_everywhere_are_tried_within_the_budget() {
    let elf = std::fs::read(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/fixture/fixture-nopie"
    ))
    .unwrap();
    let bin = Binary::parse(&elf).unwrap();
    let (lo, hi) = bin.functions().iter().fold((u64::MAX, 0), |(lo, hi), f| {
        (lo.min(f.extent.start), hi.max(f.extent.end))
    });
    let (_, addr, off, _) = sections(&elf)
        .into_iter()
        .find(|&(_, a, _, size)| (a..a + size as u64).contains(&lo))
        .unwrap();
    let code_off = off + (lo - addr) as usize;
    assert_eq!(&elf[code_off..code_off + 4], bin.read(lo, 4).unwrap());
    let mut rng = Rng(7);
    let mut found = 0;
    for round in 0..10 {
        let mut m = elf.clone();
        for (name, _, off, size) in sections(&elf) {
            // The data a program keeps (not the tables the loader reads).
            let data = [
                ".rodata",
                ".data",
                ".data.rel.ro",
                ".init_array",
                ".fini_array",
                ".got",
            ];
            if data.contains(&name.as_str()) {
                for w in m[off..off + size].chunks_exact_mut(8) {
                    let p = lo + rng.next() % (hi - lo);
                    w.copy_from_slice(&p.to_le_bytes());
                }
            }
        }
        if round % 2 == 1 {
            let len = (hi - lo) as usize;
            for b in &mut m[code_off..code_off + len] {
                *b = rng.next() as u8;
            }
        }
        let mut b = Binary::parse(&m).unwrap();
        let d = ssakit_x86::discover::discover(&mut b);
        let executable: usize = b.code_sections().map(|(_, c)| c.len()).sum();
        assert!(d.decoded <= executable + 200_000, "round {round}: {d:?}");
        found += d.found();
        assert_eq!(
            feed(&m, &format!("pointers everywhere {round}")),
            Outcome::Lifted
        );
    }
    assert!(found > 0);
}

/// Every section's `sh_link` set to every section index and past the
/// end (issue 46, item 7): a link `object` follows and finds wrong is
/// refused at that header's `sh_link` field, never at offset 0 with the
/// ELF library's words.
#[test]
fn every_bad_sh_link_is_refused_at_its_field() {
    let elf = fixture();
    let shoff = u64::from_le_bytes(elf[0x28..0x30].try_into().unwrap()) as usize;
    let shentsize = u16::from_le_bytes(elf[0x3a..0x3c].try_into().unwrap()) as usize;
    let shnum = u16::from_le_bytes(elf[0x3c..0x3e].try_into().unwrap()) as usize;
    let (mut refused, mut tried) = (0, 0);
    for i in 0..shnum {
        let field = shoff + i * shentsize + 0x28;
        for link in (0..shnum as u32).chain([shnum as u32, 0xffff, u32::MAX]) {
            let mut m = elf.clone();
            m[field..field + 4].copy_from_slice(&link.to_le_bytes());
            tried += 1;
            let what = format!("section {i}'s sh_link {link}");
            // (A link that is not followed changes no code: the file
            // lifts as the fixture does, which the tests above run.)
            if let Err(e) = Binary::parse(&m) {
                assert_eq!(e.offset, Some(field as u64), "{what}: {e}");
                assert_eq!(e.kind, Malformed(Field::SectionLink), "{what}: {e}");
                refused += 1;
            }
        }
    }
    assert!(
        refused > 50 && tried > refused,
        "{refused} of {tried} refused"
    );
}
