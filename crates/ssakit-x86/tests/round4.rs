//! Issue 46's x86-64 defects (items 1–8 and 16), each on the function of
//! the committed fixture `tests/fixture/round4` (`round4.c`,
//! `round4-other.c`, built by `build.sh` with its variants) that has it:
//! each test failed before its fix.

use ssakit::construct::{self, Flavor};
use ssakit::ir::{Block, Function, Inst, InstData, Module, Operand, Terminator, Var};
use ssakit::text::{parse_module, print_module};
use ssakit_x86::binary::Binary;
use ssakit_x86::cfg::{recover, End};
use ssakit_x86::error::{ErrorKind, Field};
use ssakit_x86::lift::lift;

fn read(name: &str) -> Vec<u8> {
    let path = format!("{}/tests/fixture/{name}", env!("CARGO_MANIFEST_DIR"));
    std::fs::read(&path).unwrap_or_else(|e| panic!("{path}: {e}"))
}

/// Function `label` of `round4`, lifted and put into pruned SSA form.
fn pruned(bin: &Binary<'_>, label: &str) -> Function {
    let info = bin
        .functions()
        .iter()
        .find(|f| f.label == label)
        .unwrap_or_else(|| panic!("round4: no function {label}"));
    let mut f = lift(bin, info).func;
    let opts = construct::Options {
        flavor: Flavor::Pruned,
        ..Default::default()
    };
    construct::construct(&mut f, &opts).unwrap();
    f
}

/// Every instruction of `f`, with its block.
fn insts(f: &Function) -> Vec<(Block, Inst)> {
    f.layout()
        .iter()
        .flat_map(|&b| {
            let mut v: Vec<(Block, Inst)> = f.block_phis(b).iter().map(|&i| (b, i)).collect();
            v.extend(f.block_insts(b).iter().map(|&i| (b, i)));
            v
        })
        .collect()
}

/// The operator or callee of `i` (`phi` for a phi).
fn op_name(f: &Function, i: Inst) -> String {
    match f.inst(i) {
        InstData::Op { op, .. } => f.operator_name(*op).to_string(),
        InstData::Call { callee, .. } => f.callee_name(*callee).to_string(),
        _ => "phi".to_string(),
    }
}

/// The instruction defining SSA value `v`.
fn def_of(f: &Function, v: Var) -> Inst {
    insts(f)
        .into_iter()
        .map(|(_, i)| i)
        .find(|&i| {
            let mut found = false;
            f.for_each_def(i, |d| found |= d == v);
            found
        })
        .unwrap_or_else(|| panic!("{} is a parameter", f.base_name(v)))
}

/// The value of register `reg` that instruction `i` reads.
fn read_of(f: &Function, i: Inst, reg: &str) -> Option<Var> {
    let mut out = None;
    f.for_each_operand(i, |op| {
        if let Operand::Var(v) = op {
            if f.base_name(v) == reg {
                out = Some(v);
            }
        }
    });
    out
}

/// The values `ret` returns, in every block that returns.
fn returned(f: &Function) -> Vec<Vec<Operand>> {
    f.layout()
        .iter()
        .filter(|&&b| matches!(f.term(b), Terminator::Ret(_)))
        .map(|&b| {
            let mut vals = Vec::new();
            f.for_each_term_operand(b, |op| vals.push(op));
            vals
        })
        .collect()
}

/// Item 2: a `double` returned in `xmm0` (and a second one in `xmm1`) is
/// read by `ret`, so pruned SSA merges it at the join.
#[test]
fn ret_reads_the_vector_return_registers() {
    let elf = read("round4");
    let bin = Binary::parse(&elf).unwrap();
    for (label, reg, k) in [("fret", "xmm0", 9), ("fpair", "xmm1", 10)] {
        let f = pruned(&bin, label);
        let phis: Vec<Inst> = insts(&f)
            .into_iter()
            .map(|(_, i)| i)
            .filter(|&i| op_name(&f, i) == "phi")
            .collect();
        assert_eq!(phis.len(), 1, "{label}: one phi, of {reg}");
        let dst = f.def(phis[0]).unwrap();
        assert_eq!(f.base_name(dst), reg, "{label}");
        let rets = returned(&f);
        assert_eq!(rets.len(), 1, "{label}");
        assert_eq!(
            rets[0][k],
            Operand::Var(dst),
            "{label}: ret returns the phi"
        );
    }
}

/// Item 1: `xsavec` and `fxsave` read the vector registers, `xrstor` and
/// `fxrstor` write them: what `jmp r11` and `ret` read after the restore
/// is the restored value, not the one the call in between clobbered.
#[test]
fn state_saves_read_and_restores_write_the_vector_registers() {
    let elf = read("round4");
    let bin = Binary::parse(&elf).unwrap();
    for (label, save, restore) in [
        ("resolve", "x86.xsavec.x", "x86.xrstor.x"),
        ("fxresolve", "x86.fxsave.x", "x86.fxrstor.x"),
    ] {
        let f = pruned(&bin, label);
        let all = insts(&f);
        let saver = all
            .iter()
            .find(|&&(_, i)| op_name(&f, i) == save)
            .unwrap()
            .1;
        for k in 0..16 {
            let reg = format!("xmm{k}");
            assert!(
                read_of(&f, saver, &reg).is_some(),
                "{label}: {save} reads {reg}"
            );
        }
        // What leaves the function reads xmm0 from the restore.
        let (exit_block, _) = all.last().copied().unwrap();
        let xmm0 = match all
            .iter()
            .rev()
            .find(|&&(_, i)| op_name(&f, i) == "x86.jmp.x")
        {
            Some(&(_, jmp)) => read_of(&f, jmp, "xmm0").unwrap(),
            None => match returned(&f)[0][9] {
                Operand::Var(v) => v,
                o => panic!("{label}: ret returns {o:?}"),
            },
        };
        assert_eq!(
            op_name(&f, def_of(&f, xmm0)),
            restore,
            "{label}: the exit in {} reads xmm0 of the restore",
            f.block_name(exit_block)
        );
    }
}

/// Item 3: two static functions named `helper` get the labels `helper`
/// and `helper.2`; each caller calls its own; the module parses back.
#[test]
fn two_functions_of_one_name_have_unique_labels() {
    let elf = read("round4");
    let bin = Binary::parse(&elf).unwrap();
    let helpers: Vec<&str> = bin
        .functions()
        .iter()
        .filter(|f| f.name == "helper")
        .map(|f| f.label.as_str())
        .collect();
    assert_eq!(helpers, ["helper", "helper.2"]);
    let callee = |caller: &str| {
        let info = bin.functions().iter().find(|f| f.name == caller).unwrap();
        let f = lift(&bin, info).func;
        let calls: Vec<String> = insts(&f)
            .into_iter()
            .filter(|&(_, i)| matches!(f.inst(i), InstData::Call { .. }))
            .map(|(_, i)| op_name(&f, i))
            .collect();
        calls
    };
    assert_eq!(callee("first"), ["helper.call"]);
    assert_eq!(callee("second"), ["helper.2.call"]);
    let functions = bin.functions().iter().map(|i| lift(&bin, i).func).collect();
    let text = print_module(&Module { functions });
    let back = parse_module(&text).unwrap_or_else(|e| panic!("{e:?}"));
    assert_eq!(back.functions.len(), bin.functions().len());
}

/// Item 8: `call next; pop rax` is a push of the return address and a
/// fall-through: one block, no call.
#[test]
fn a_call_of_the_next_instruction_is_a_push() {
    let elf = read("round4");
    let bin = Binary::parse(&elf).unwrap();
    let info = bin.functions().iter().find(|f| f.name == "thunk").unwrap();
    let cfg = recover(&bin, info);
    assert_eq!(cfg.blocks.len(), 1);
    assert_eq!(cfg.blocks[0].end, End::Ret);
    let f = lift(&bin, info).func;
    let ops: Vec<String> = insts(&f).into_iter().map(|(_, i)| op_name(&f, i)).collect();
    assert_eq!(ops[..2], ["x86.call.w", "x86.pop.r"], "{ops:?}");
    assert!(insts(&f)
        .iter()
        .all(|&(_, i)| !matches!(f.inst(i), InstData::Call { .. })));
}

/// Item 16: `lea rcx, [rip+T]` then `mov rcx, rsi`: the jump through
/// `[rcx+rdi*4]` is not through `T`, and stays unresolved.
#[test]
fn a_table_base_overwritten_after_its_lea_is_no_table() {
    let elf = read("round4");
    let bin = Binary::parse(&elf).unwrap();
    let info = bin.functions().iter().find(|f| f.name == "stale").unwrap();
    let cfg = recover(&bin, info);
    assert_eq!(cfg.jump_tables, 0);
    assert!(
        cfg.blocks.iter().any(|b| b.end == End::TailCall(None)),
        "{:?}",
        cfg.blocks
    );
}

/// Item 6: a relocatable object is refused at `e_type`.
#[test]
fn a_relocatable_object_is_refused() {
    let e = Binary::parse(&read("round4-other.o")).unwrap_err();
    assert_eq!(e.offset, Some(0x10), "{e}");
    assert_eq!(e.kind, ErrorKind::Unsupported(Field::Type), "{e}");
    assert!(e.message.contains("ET_REL"), "{e}");
}

/// Item 6: without section headers no function can be found, and the
/// reason says so.
#[test]
fn no_section_headers_is_a_reason_for_no_function() {
    let mut elf = read("round4");
    elf[0x3c..0x3e].fill(0);
    let bin = Binary::parse(&elf).unwrap();
    assert!(bin.functions().is_empty());
    let e = bin.check_functions().unwrap_err();
    assert_eq!(e.kind, ErrorKind::NoFunctions, "{e}");
    assert!(e.message.contains("e_shnum 0"), "{e}");
}

/// Item 6: a stripped binary without `.eh_frame` (as a stripped Go
/// binary) has no function, and the reason says so.
#[test]
fn no_symbols_and_no_eh_frame_is_a_reason_for_no_function() {
    let mut elf = read("round4-stripped");
    // Rename `.eh_frame` and `.eh_frame_hdr` in the section name table.
    let mut renamed = 0;
    for k in 0..elf.len() - 9 {
        if &elf[k..k + 9] == b".eh_frame" {
            elf[k + 1..k + 3].copy_from_slice(b"xx");
            renamed += 1;
        }
    }
    assert!(renamed >= 1);
    let bin = Binary::parse(&elf).unwrap();
    assert!(bin.functions().is_empty());
    let e = bin.check_functions().unwrap_err();
    assert_eq!(e.kind, ErrorKind::NoFunctions, "{e}");
    assert!(
        e.message
            .contains("no symbol of a function and no `.eh_frame`"),
        "{e}"
    );
}

/// Item 7: `.symtab`'s `sh_link` naming a section that is no string
/// table is reported at that field.
#[test]
fn a_bad_sh_link_is_reported_at_the_field() {
    let elf = read("round4-badlink");
    let e = Binary::parse(&elf).unwrap_err();
    let shoff = u64::from_le_bytes(elf[0x28..0x30].try_into().unwrap());
    let shentsize = u16::from_le_bytes(elf[0x3a..0x3c].try_into().unwrap()) as u64;
    let at = e.offset.unwrap();
    assert_eq!((at - shoff) % shentsize, 0x28, "{e}");
    let header = (shoff + (at - shoff) / shentsize * shentsize) as usize;
    assert_eq!(
        elf[header + 4],
        2,
        "{e}: the header of .symtab (SHT_SYMTAB)"
    );
    assert_eq!(e.kind, ErrorKind::Malformed(Field::SectionLink), "{e}");
}

/// Item 5: the debug file of another build (another build-id) is
/// refused; the binary's own is taken.
#[test]
fn a_debug_file_of_another_build_is_refused() {
    let stripped = read("round4-stripped");
    let mut bin = Binary::parse(&stripped).unwrap();
    let e = bin.add_symbols(&read("round4-O1")).unwrap_err();
    assert_eq!(e.kind, ErrorKind::OtherBuild, "{e}");
    assert!(e.message.contains("build-id"), "{e}");
    assert!(e.offset.is_some(), "{e}");
    bin.add_symbols(&read("round4")).unwrap();
    assert!(bin.functions().iter().any(|f| f.label == "helper.2"));
}

/// Item 5, where the binary has no build-id: the CRC its
/// `.gnu_debuglink` records must be the debug file's (`round4-linked`
/// links `round4`; the build-id notes are hidden here by changing their
/// type).
#[test]
fn a_debug_file_of_another_build_is_refused_by_its_crc() {
    let hide_build_id = |mut elf: Vec<u8>| {
        // namesz 4, descsz 20, type 3 (NT_GNU_BUILD_ID), "GNU\0"
        let note = [4, 0, 0, 0, 20, 0, 0, 0, 3, 0, 0, 0, b'G', b'N', b'U', 0];
        let at = (0..elf.len() - 16)
            .find(|&k| elf[k..k + 16] == note)
            .expect("a build-id note");
        elf[at + 8] = 0x7f;
        elf
    };
    let linked = hide_build_id(read("round4-linked"));
    let mut bin = Binary::parse(&linked).unwrap();
    let e = bin.add_symbols(&read("round4-O1")).unwrap_err();
    assert_eq!(e.kind, ErrorKind::OtherBuild, "{e}");
    assert!(e.message.contains("`.gnu_debuglink`"), "{e}");
    bin.add_symbols(&read("round4")).unwrap();
    assert!(bin.functions().iter().any(|f| f.label == "helper.2"));
}
