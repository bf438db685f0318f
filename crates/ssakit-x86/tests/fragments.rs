//! GCC's cold fragments (hot/cold splitting) walked as chunks of the
//! functions that jump into them (issue 42), on the Python binaries of
//! this machine: skipped, with a message, where they are absent.
//!
//! * libpython3.11: `_PyEval_EvalFrameDefault`'s computed-goto table
//!   (`opcode_targets`) has entries in the function's `.cold` fragment,
//!   which lies before it; the table is resolved, its targets there
//!   inside the function (it was rejected as `bad-table` before).
//! * python3.11 (stripped): the fragments' code that their functions
//!   reach is not lost: what stays lost in fragments is below a tenth of
//!   what their own walks leave.

use ssakit_x86::binary::Binary;
use ssakit_x86::cfg::{recover, End, JumpKind, Target};
use ssakit_x86::lost::{lost_code, lost_code_with, FragmentCover};

fn read(path: &str) -> Option<Vec<u8>> {
    match std::fs::read(path) {
        Ok(d) => Some(d),
        Err(e) => {
            eprintln!("skipped: {path}: {e}");
            None
        }
    }
}

#[test]
fn the_eval_loop_table_leads_into_its_cold_fragment() {
    let Some(elf) = read("/usr/lib/x86_64-linux-gnu/libpython3.11.so.1.0") else {
        return;
    };
    let bin = Binary::parse(&elf).unwrap();
    let frags = bin.functions().iter().filter(|f| f.fragment).count();
    eprintln!("libpython3.11: {frags} fragments");
    assert!(frags > 0);
    let Some(f) = bin
        .functions()
        .iter()
        .find(|f| f.name == "_PyEval_EvalFrameDefault")
    else {
        eprintln!("skipped: no _PyEval_EvalFrameDefault");
        return;
    };
    assert!(!f.fragment, "a function is no fragment");
    let cfg = recover(&bin, f);
    let mut into_fragment = 0;
    for b in &cfg.blocks {
        if let End::Switch(ts, _) = &b.end {
            for t in ts {
                if let Target::Inside(a) = *t {
                    if !f.extent.contains(&a) {
                        let g = bin.function_containing(a).expect("a fragment's FDE");
                        assert!(g.fragment, "{a:#x} lies in {} no fragment", g.name);
                        into_fragment += 1;
                    }
                }
            }
        }
    }
    assert!(into_fragment > 0, "no table entry leads into the fragment");
    let bad = cfg.unresolved.iter().filter(|u| u.1 == JumpKind::BadTable);
    assert_eq!(bad.count(), 0);
}

#[test]
fn code_of_fragments_their_functions_reach_is_not_lost() {
    let Some(elf) = read("/usr/bin/python3.11") else {
        return;
    };
    let bin = Binary::parse(&elf).unwrap();
    let cover = FragmentCover::compute(&bin);
    assert!(cover.instructions() > 0);
    let (mut own, mut with) = (0, 0);
    for f in bin.functions().iter().filter(|f| f.fragment) {
        let cfg = recover(&bin, f);
        own += lost_code(&bin, f, &cfg)
            .iter()
            .map(|r| r.instructions)
            .sum::<usize>();
        with += lost_code_with(&bin, f, &cfg, &cover)
            .iter()
            .map(|r| r.instructions)
            .sum::<usize>();
    }
    eprintln!("python3.11: lost in fragments {own} by their own walks, {with} less the cover");
    assert!(own > 0 && with * 10 < own, "{with} of {own}");
}
