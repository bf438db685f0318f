//! Function discovery beyond the symbols and the FDEs
//! (`ssakit_x86::discover`) on the committed fixtures: the functions
//! given are kept as they were, the ones found start where no function
//! did, lie outside the given extents, and leave no code outside every
//! function; and, where busybox-static is installed
//! (`scripts/install-x86-corpus.sh`), its code outside functions falls
//! below 1% of its executable bytes.

use ssakit_x86::binary::{Binary, Origin};
use ssakit_x86::discover::discover;
use ssakit_x86::lost::outside_functions;

fn fixture(name: &str) -> Vec<u8> {
    std::fs::read(format!(
        "{}/tests/fixture/{name}",
        env!("CARGO_MANIFEST_DIR")
    ))
    .unwrap()
}

#[test]
fn the_functions_found_lie_outside_the_given_ones() {
    for name in [
        "fixture",
        "fixture-stripped",
        "fixture-nopie",
        "round4-stripped",
        "tables.so",
        "eh",
    ] {
        let elf = fixture(name);
        let mut bin = Binary::parse(&elf).unwrap();
        let given = bin.functions().to_vec();
        let d = discover(&mut bin);
        assert!(!d.exhausted, "{name}: {d:?}");
        assert_eq!(bin.functions().len(), given.len() + d.found(), "{name}");
        for g in &given {
            assert!(bin.functions().contains(g), "{name}: {} changed", g.name);
        }
        for f in bin.functions().iter().filter(|f| !given.contains(f)) {
            assert!(f.origin > Origin::Fde, "{name}: {f:?}");
            assert!(f.extent.start < f.extent.end, "{name}: {f:?}");
            assert_eq!(f.name, format!("sub_{:x}", f.extent.start));
            for g in &given {
                assert!(
                    f.extent.end <= g.extent.start || f.extent.start >= g.extent.end,
                    "{name}: {f:?} overlaps {g:?}"
                );
            }
        }
        // The extents of the functions found do not overlap each other.
        let mut found: Vec<_> = bin
            .functions()
            .iter()
            .filter(|f| f.origin > Origin::Fde)
            .collect();
        found.sort_by_key(|f| f.extent.start);
        assert!(
            found
                .windows(2)
                .all(|w| w[0].extent.end <= w[1].extent.start),
            "{name}"
        );
        assert_eq!(outside_functions(&bin).bytes, 0, "{name}");
    }
}

/// The stripped fixture: `_init` and `_fini` (entry points),
/// `frame_dummy` and `__do_global_dtors_aux` (`.init_array`,
/// `.fini_array`, relocated in a PIE), `register_tm_clones` (a call of
/// `frame_dummy`).
#[test]
fn each_source_finds_its_functions() {
    let elf = fixture("fixture-stripped");
    let mut bin = Binary::parse(&elf).unwrap();
    let d = discover(&mut bin);
    let count = |o: Origin| d.by_origin.iter().find(|p| p.0 == o).map_or(0, |p| p.1);
    assert_eq!(count(Origin::Entry), 2, "{d:?}");
    assert!(count(Origin::Pointer) >= 2, "{d:?}");
    assert!(count(Origin::Call) >= 1, "{d:?}");
    assert_eq!(
        d.found(),
        bin.functions()
            .iter()
            .filter(|f| f.origin > Origin::Fde)
            .count()
    );
}

/// Running discovery twice finds nothing the second time: a fixed point.
#[test]
fn discovery_reaches_a_fixed_point() {
    let elf = fixture("fixture-stripped");
    let mut bin = Binary::parse(&elf).unwrap();
    discover(&mut bin);
    let n = bin.functions().len();
    let again = discover(&mut bin);
    assert_eq!(again.found(), 0, "{again:?}");
    assert_eq!(bin.functions().len(), n);
}

/// Debian's busybox-static (stripped, its `.eh_frame` stops short): 39%
/// of its executable bytes lay outside every function before discovery;
/// after, below 1%. Skipped where it is not installed.
#[test]
fn busybox_has_almost_no_code_outside_functions() {
    let Ok(elf) = std::fs::read("/bin/busybox") else {
        eprintln!("skipped: /bin/busybox is not installed");
        return;
    };
    let Ok(mut bin) = Binary::parse(&elf) else {
        eprintln!("skipped: /bin/busybox is no ELF file here");
        return;
    };
    let before = outside_functions(&bin);
    let d = discover(&mut bin);
    let after = outside_functions(&bin);
    assert!(!d.exhausted, "{d:?}");
    assert!(after.bytes <= before.bytes, "{before:?} → {after:?}");
    assert!(
        after.bytes * 100 < after.executable,
        "{before:?} → {after:?}"
    );
}

#[path = "support/elf.rs"]
mod elf;

/// Where the synthetic file's code is (file offset = address).
const TEXT: u64 = 0x1000;

/// A file with no symbol and no `.eh_frame`: `n` functions of 16 bytes,
/// the entry point the first. Function `k` calls `k + 1` (`call; ret`,
/// then `int3` padding), except each fourth, which returns at once
/// (`xor eax, eax; ret`): the next one is only found after its padding.
/// The calls make a chain `n / 4` deep, which the worklist follows
/// without recursion.
fn chain(n: u64) -> Vec<u8> {
    let mut text = Vec::with_capacity(16 * n as usize);
    for k in 0..n {
        let at = text.len();
        if k % 4 == 3 || k + 1 == n {
            text.extend([0x31, 0xc0, 0xc3]);
        } else {
            let rel: i32 = 16 - 5; // to the next function
            text.push(0xe8);
            text.extend(rel.to_le_bytes());
            text.push(0xc3);
        }
        text.resize(at + 16, 0xcc);
    }
    let shstrtab = b"\0.text\0.shstrtab\0".to_vec();
    let mut f = vec![0u8; TEXT as usize];
    f.extend(&text);
    let [_, _, shstr_off, sh_off] = elf::append_tables(&mut f, &[], &[], &shstrtab);
    let sh = elf::section_header;
    f.extend(vec![0u8; 64]);
    f.extend(sh(1, 1, 6, TEXT, TEXT as usize, text.len(), 0, 0, 0));
    f.extend(sh(7, 3, 0, 0, shstr_off, shstrtab.len(), 0, 0, 0));
    let h = elf::file_header(TEXT, sh_off, 3, 2);
    f[..64].copy_from_slice(&h);
    f
}

/// Discovery on the chain at two sizes 16x apart: every function found,
/// each decoded once (the instructions decoded are exactly the code's),
/// none rejected, no code left outside: the work grows linearly.
#[test]
fn a_long_call_chain_and_many_gaps_are_found_linearly() {
    for n in [2_048u64, 32_768] {
        let elf = chain(n);
        let mut bin = Binary::parse(&elf).unwrap();
        assert!(bin.functions().is_empty());
        let d = discover(&mut bin);
        let count = |o: Origin| d.by_origin.iter().find(|p| p.0 == o).map_or(0, |p| p.1);
        assert_eq!(d.found() as u64, n, "{n}: {d:?}");
        assert_eq!(count(Origin::Entry), 1, "{n}: {d:?}");
        assert_eq!(count(Origin::Gap) as u64, (n - 1) / 4, "{n}: {d:?}");
        assert_eq!(d.decoded as u64, 2 * n, "{n}: {d:?}");
        assert_eq!(d.rejected, 0, "{n}: {d:?}");
        assert_eq!(outside_functions(&bin).bytes, 0, "{n}");
        assert!(bin
            .functions()
            .iter()
            .all(|f| f.extent.end - f.extent.start == 6 || f.extent.end - f.extent.start == 3));
    }
}
