//! Exception landing pads (`fixture/eh.cc`, built by `build.sh`): a pad
//! is a block reached from the call that may throw, entered with the
//! exception pointer in `rax` and the selector in `rdx` as the call
//! wrote them; no function of the binary loses code; a mutated
//! `.gcc_except_table` is read or counted as skipped, never a panic.
//!
//! ```text
//! lp:   sub rsp, 8                      b1250
//!       call g      --unwinds-->  pad:  mov rdi, rax ; mov rax, rdx ; ...
//!         | returns
//!       add eax, eax ; ...; ret
//! ```

use object::{Object, ObjectSection};
use ssakit_x86::binary::Binary;
use ssakit_x86::cfg::{recover, End, Target};
use ssakit_x86::lost::lost_code;
use ssakit_x86::pipeline::{run, Options};

fn eh() -> Vec<u8> {
    std::fs::read(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixture/eh")).unwrap()
}

/// `lp`'s call of `g` ends its block with an invoke whose pad is a block
/// of `lp` that reads `rax` and `rdx`, defined by the call; lifted, the
/// pad is a successor of the call's block and its SSA names the call's
/// results.
#[test]
fn the_catch_pad_is_a_block_reached_from_the_call() {
    let elf = eh();
    let bin = Binary::parse(&elf).unwrap();
    let f = bin.functions().iter().find(|f| f.name == "_Z2lpi").unwrap();
    let cfg = recover(&bin, f);
    assert_eq!(cfg.invokes, 1);
    let (next, pad) = cfg
        .blocks
        .iter()
        .find_map(|b| match b.end {
            End::Invoke { next, pad } => Some((next, pad)),
            _ => None,
        })
        .expect("an invoke");
    let Target::Inside(pad) = pad else {
        panic!("the pad is inside lp")
    };
    assert!(next.is_some_and(|n| n != pad));
    let pad_block = cfg.blocks.iter().find(|b| b.start == pad).unwrap();
    let reads = cfg.insts[pad_block.insts[0] as usize].access.reads;
    assert!(
        reads.contains(ssakit_x86::regs::Loc::RAX),
        "the pad reads the exception pointer"
    );
    let lifted = ssakit_x86::lift::lift(&bin, f);
    let mut g = lifted.func;
    ssakit::construct::construct(&mut g, &Default::default()).unwrap();
    let text = ssakit::text::print_function(&g);
    assert!(text.contains("x86.unwinds["), "{text}");
    // The pad's block, in SSA: `rdi = x86.mov[..](raxN)` where raxN is
    // the call's result (no phi: the call's block is its only
    // predecessor).
    let pad_label = format!("b{pad:x}:");
    let after = &text[text.find(&pad_label).unwrap()..];
    let first = after.lines().nth(1).unwrap();
    assert!(
        first.contains("x86.mov[") && first.contains("(rax"),
        "{first}"
    );
}

/// Every function of `eh` goes through the pipeline with no byte of its
/// extent lost: the pads (`lp`'s catch, `cleanup`'s destructor) were
/// the code lost before.
#[test]
fn no_function_loses_code() {
    let elf = eh();
    let bin = Binary::parse(&elf).unwrap();
    assert!(bin.except_tables().pads() >= 3);
    assert_eq!(bin.except_tables().skipped, 0);
    for f in bin.functions() {
        let cfg = recover(&bin, f);
        assert_eq!(lost_code(&bin, f, &cfg), vec![], "{}", f.name);
    }
    let mut opts = Options::default();
    opts.pipeline.destruct = Some(Default::default());
    let stats = run(&bin, &opts, &|| {});
    assert!(stats.failures.is_empty(), "{:?}", stats.failures);
    assert_eq!(stats.lost().functions, 0);
}

/// Each byte of `.gcc_except_table` set to four values (0, 0xff, 0x7f,
/// its complement): the binary reads (an LSDA that no longer parses is a
/// counted skip) and every function goes through, or the file is
/// refused with an offset; never a panic.
#[test]
fn a_mutated_except_table_is_read_or_skipped() {
    let elf = eh();
    let file = object::File::parse(&*elf).unwrap();
    let sec = file.section_by_name(".gcc_except_table").unwrap();
    let (off, len) = sec.file_range().unwrap();
    let (mut skipped, mut tried) = (0, 0);
    for at in off as usize..(off + len) as usize {
        for v in [0u8, 0xff, 0x7f, !elf[at]] {
            let mut m = elf.clone();
            m[at] = v;
            tried += 1;
            let bin = match Binary::parse(&m) {
                Ok(b) => b,
                Err(e) => {
                    assert!(e.offset.is_some(), "byte {at:#x} = {v:#x}: {e}");
                    continue;
                }
            };
            skipped += bin.except_tables().skipped.min(1);
            let stats = run(&bin, &Options::default(), &|| {});
            assert!(
                stats.failures.is_empty(),
                "byte {at:#x} = {v:#x}: {:?}",
                stats.failures
            );
        }
    }
    assert!(
        skipped > 0 && tried > skipped,
        "{skipped} of {tried} skipped"
    );
}
