//! The committed fixture (`tests/fixture/fixture.c`, built by `build.sh`
//! beside it with gcc -O2, PIE and non-PIE): every function through lift,
//! the three flavours, verification, destruction and the text round trip;
//! then each shape the lifter must recognise, asserted on the function
//! that has it.

use ssakit::construct::{self, Flavor};
use ssakit::destruct::{destruct, DestructOptions};
use ssakit::ir::{Function, Module};
use ssakit::text::{parse_module, print_function, print_module};
use ssakit_x86::binary::Binary;
use ssakit_x86::lift::{lift, lift_with, Options};

const FIXTURES: [&str; 2] = ["fixture", "fixture-nopie"];

fn read(name: &str) -> Vec<u8> {
    let path = format!("{}/tests/fixture/{name}", env!("CARGO_MANIFEST_DIR"));
    std::fs::read(&path).unwrap_or_else(|e| panic!("{path}: {e}"))
}

/// The lifted text of function `name` of fixture `which`, and the function.
fn lifted(which: &str, name: &str) -> (String, Function) {
    let elf = read(which);
    let bin = Binary::parse(&elf).unwrap();
    let info = bin
        .functions()
        .iter()
        .find(|f| f.name == name)
        .unwrap_or_else(|| panic!("{which}: no function {name}"));
    let f = lift(&bin, info).func;
    (print_function(&f), f)
}

/// Printing (with the operators' declarations), parsing and printing
/// again gives the same text.
fn round_trip(f: &Function, what: &str) {
    let m = Module {
        functions: vec![f.clone()],
    };
    let text = print_module(&m);
    let back = parse_module(&text).unwrap_or_else(|e| panic!("{what}: {e:?}\n{text}"));
    assert_eq!(back.functions.len(), 1, "{what}");
    assert_eq!(print_module(&back), text, "{what}");
}

#[test]
fn every_function_goes_through_every_flavour_destruction_and_the_text() {
    for which in FIXTURES {
        let elf = read(which);
        let bin = Binary::parse(&elf).unwrap();
        assert!(bin.functions().len() >= 12, "{which}");
        for info in bin.functions() {
            let what = format!("{which}: {} at {:#x}", info.name, info.extent.start);
            let f = lift(&bin, info).func;
            round_trip(&f, &what);
            for flavor in [Flavor::Minimal, Flavor::SemiPruned, Flavor::Pruned] {
                let mut g = constructed(&f, flavor, &what);
                round_trip(&g, &what);
                destruct(&mut g, &DestructOptions::default())
                    .unwrap_or_else(|e| panic!("{what}: {flavor:?}: destruct: {}", e.describe(&g)));
                round_trip(&g, &what);
            }
        }
    }
}

/// `cmp edi, 7; ja cold; ...; jmp` through a table of 8 entries: one
/// `switch` whose default is the `ja` target (outside the extent:
/// `classify.cold`, a tail call), in both of GCC's shapes.
#[test]
fn both_jump_table_shapes_become_a_switch() {
    for which in FIXTURES {
        let (text, _) = lifted(which, "classify");
        let line = text
            .lines()
            .find(|l| l.trim_start().starts_with("switch sel, "))
            .unwrap_or_else(|| panic!("{which}: no switch\n{text}"));
        assert_eq!(
            line.matches(", b").count() + line.matches("[b").count(),
            8,
            "{which}: {line}"
        );
        assert!(
            line.contains("switch sel, x"),
            "{which}: default is the exit: {line}"
        );
        assert!(
            text.contains("= classify.cold.call(rdi, rsi,"),
            "{which}\n{text}"
        );
    }
    // The non-PIE shape reads the table from memory: a trapping read.
    let (text, _) = lifted("fixture-nopie", "classify");
    assert!(text.contains("sel = x86.jmp.r["), "{text}");
    let (text, _) = lifted("fixture", "classify");
    assert!(text.contains("sel = x86.jmp["), "{text}");
}

/// `call die` is the last instruction of `checked`'s extent: it never
/// returns. `die` itself calls `puts` and `exit` through the PLT.
#[test]
fn a_call_leaving_the_extent_never_returns_and_plt_calls_are_named() {
    let (text, _) = lifted("fixture", "checked");
    let call = text
        .find("= die.call(rdi, rsi, rdx, rcx, r8, r9, rax, rsp, xmm0,")
        .expect(&text);
    assert!(
        text[call..].lines().nth(1).unwrap().trim() == "unreachable",
        "{text}"
    );
    let (text, _) = lifted("fixture", "die");
    assert!(
        text.contains("= puts.plt(rdi,") && text.contains("= exit.plt(rdi,"),
        "{text}"
    );
    assert!(text.trim_end().ends_with("unreachable\n}"), "{text}");
}

/// `jmp classify` leaves `tail`'s extent: a call, then `ret` of the ABI's
/// return and callee-saved registers.
#[test]
fn a_jump_out_of_the_extent_is_a_tail_call() {
    let (text, _) = lifted("fixture", "tail");
    let at = text.find("= classify.call(rdi,").expect(&text);
    assert_eq!(
        text[at..].lines().nth(1).unwrap().trim(),
        "ret rax, rdx, rbx, rbp, r12, r13, r14, r15, rsp, xmm0, xmm1"
    );
}

/// A call reads the argument registers and writes exactly the
/// caller-saved ones, the flags and the vector registers.
#[test]
fn a_call_writes_the_caller_saved_registers() {
    let (text, _) = lifted("fixture", "checked");
    let line = text.lines().find(|l| l.contains("= die.call(")).unwrap();
    let results = line.split(" = ").next().unwrap();
    for r in [
        "rax",
        "rcx",
        "rdx",
        "rsi",
        "rdi",
        "r8",
        "r9",
        "r10",
        "r11",
        "cf: bool",
        "df: bool",
        "xmm15: v128",
    ] {
        assert!(results.contains(r), "{r}: {line}");
    }
    for r in ["rbx", "rbp", "r12", "r15", "rsp"] {
        assert!(
            !results.split(['(', ',', ' ']).any(|w| w == r),
            "{r}: {line}"
        );
    }
}

/// `setg al` writes a byte of `rax`: it reads the old `rax`; `xor eax,
/// eax` reads nothing; `mov eax, esi` (a 32-bit write) does not read
/// `rax`; `imul` writes the flags it leaves undefined.
#[test]
fn sub_registers_zero_idioms_and_undefined_flags() {
    let (text, _) = lifted("fixture", "pack");
    let setg = text.lines().find(|l| l.contains("x86.setg[")).expect(&text);
    assert!(
        setg.trim().starts_with("rax = ") && setg.ends_with("](rax, zf, sf, of)"),
        "{setg}"
    );
    let xor = text.lines().find(|l| l.contains("x86.xor[")).expect(&text);
    assert!(
        xor.ends_with("]()") && xor.contains("(rax, cf: bool,"),
        "{xor}"
    );
    let (text, _) = lifted("fixture", "classify");
    assert!(
        text.lines()
            .any(|l| l.trim().starts_with("rax = x86.mov[") && l.ends_with("](rsi)")),
        "{text}"
    );
    let imul = text.lines().find(|l| l.contains("x86.imul[")).expect(&text);
    assert!(
        imul.contains("(rax, cf: bool, pf: bool, af: bool, zf: bool, sf: bool, of: bool)"),
        "{imul}"
    );
}

/// `cmovge` may leave `rax` alone: it reads it.
#[test]
fn cmov_reads_the_old_value() {
    let (text, _) = lifted("fixture", "maxl");
    let cmov = text
        .lines()
        .find(|l| l.contains("x86.cmovge["))
        .expect(&text);
    assert!(
        cmov.trim().starts_with("rax = ") && cmov.ends_with("](rax, rsi, sf, of)"),
        "{cmov}"
    );
}

/// `dot` computes in `xmm` registers: `v128` variables, with phis in the
/// pruned form (the loop's sum).
#[test]
fn vector_registers_are_v128_variables() {
    let (text, mut f) = lifted("fixture", "dot");
    assert!(text.contains("xmm0: v128 = x86."), "{text}");
    let opts = construct::Options {
        flavor: Flavor::Pruned,
        ..Default::default()
    };
    construct::construct(&mut f, &opts).unwrap();
    assert!(
        ssakit_x86::pipeline::PhiCounts::of(&f).vectors >= 1,
        "{}",
        print_function(&f)
    );
}

/// `spin` starts with its loop: a fresh entry block jumps to it.
#[test]
fn a_loop_at_the_entry_gets_a_fresh_entry_block() {
    let (text, f) = lifted("fixture", "spin");
    assert!(text.contains("{\nentry:\n    jump b"), "{text}");
    assert_eq!(f.block_name(f.entry()), "entry");
    let (text, _) = lifted("fixture", "classify");
    assert!(!text.contains("entry:"), "{text}");
}

/// `overlap` is `eb ff c0 c3`: `jmp` into its own second byte, `inc eax`
/// there, `ret`: two instructions sharing a byte, each in its block.
#[test]
fn overlapping_instructions_are_decoded_by_address() {
    let (text, _) = lifted("fixture", "overlap");
    assert!(text.contains(":\n    jump b"), "{text}");
    assert!(text.contains("= x86.inc["), "{text}");
    let elf = read("fixture");
    let bin = Binary::parse(&elf).unwrap();
    let info = bin
        .functions()
        .iter()
        .find(|f| f.name == "overlap")
        .unwrap();
    let cfg = ssakit_x86::cfg::recover(&bin, info);
    let starts: Vec<u64> = cfg
        .blocks
        .iter()
        .map(|b| b.start - info.extent.start)
        .collect();
    assert_eq!(starts, [0, 1]);
}

/// `pick`'s table has an entry outside its extent (`maxl`, as GCC's cold
/// parts are other symbols): the switch keeps it, as a tail call.
#[test]
fn a_table_entry_outside_the_extent_is_a_tail_call() {
    for which in FIXTURES {
        let (text, _) = lifted(which, "pick");
        let line = text
            .lines()
            .find(|l| l.trim_start().starts_with("switch sel, "))
            .unwrap_or_else(|| panic!("{which}: no switch\n{text}"));
        let exit = line.rsplit(", ").next().unwrap().trim_end_matches(']');
        assert!(exit.starts_with('x'), "{which}: {line}");
        let block = text.split(&format!("{exit}:\n")).nth(1).expect(&text);
        assert!(block.contains("= maxl.call(rdi,"), "{which}\n{text}");
    }
}

/// `fixture-stripped` (`strip` of `fixture`) has no symbol table: its
/// functions are `.eh_frame`'s FDEs, at the same addresses as the
/// symbols; with `fixture` as the debug file, the names come back and
/// every function lifts to the same text.
#[test]
fn a_stripped_binary_has_its_functions_from_eh_frame_and_names_from_a_debug_file() {
    use ssakit_x86::binary::Origin;
    let full_elf = read("fixture");
    let full = Binary::parse(&full_elf).unwrap();
    let stripped_elf = read("fixture-stripped");
    let mut stripped = Binary::parse(&stripped_elf).unwrap();
    let starts = |b: &Binary<'_>| {
        b.functions()
            .iter()
            .map(|f| f.extent.start)
            .collect::<Vec<_>>()
    };
    assert_eq!(starts(&stripped), starts(&full));
    for f in stripped.functions() {
        assert_eq!(f.origin, Origin::Fde);
        assert_eq!(f.name, format!("sub_{:x}", f.extent.start));
    }
    stripped.add_symbols(&full_elf).unwrap();
    assert_eq!(stripped.functions(), full.functions());
    for (a, b) in full.functions().iter().zip(stripped.functions()) {
        let (fa, fb) = (lift(&full, a).func, lift(&stripped, b).func);
        assert_eq!(print_function(&fa), print_function(&fb), "{}", a.name);
    }
}

/// `pick2`'s table block is walked first from a path with no bound; the
/// bounded path that reaches it later resolves the table.
#[test]
fn a_table_bounded_on_another_path_is_resolved_on_the_second_visit() {
    for which in FIXTURES {
        let (text, _) = lifted(which, "pick2");
        assert!(text.contains("switch sel, "), "{which}\n{text}");
    }
}

/// The switches of `name` in `tables.so` (`tables.c`): the number of
/// targets of each, and the function through pruned SSA and verification.
fn switches(name: &str) -> Vec<usize> {
    let (text, f) = lifted("tables.so", name);
    let mut g = f.clone();
    construct::construct(&mut g, &construct::Options::default()).unwrap();
    ssakit::verify::verify_valid(&g).unwrap_or_else(|e| panic!("{name}: {e:?}"));
    text.lines()
        .filter(|l| l.trim_start().starts_with("switch sel, "))
        .map(|l| l.split('[').nth(1).unwrap().split(',').count())
        .collect()
}

/// `cmp dword [rbx+0x70], 5; ja D; mov eax, [rbx+0x70]; lea; movsxd; add;
/// jmp`: the bound is on a memory word addressed by a register (not only
/// `rip`), loaded again as the index.
#[test]
fn a_table_bounded_on_a_field_is_resolved() {
    assert_eq!(switches("field"), [6]);
}

/// `mov esi, eax` before a first table indexed by `rsi`; a case then
/// bounds `eax` (`cmp eax, 2; ja D`) and indexes a second table by
/// `rsi`: the copy is known along the table's edges.
#[test]
fn a_second_table_indexed_by_the_first_ones_copy_is_resolved() {
    assert_eq!(switches("copied"), [4, 3]);
}

/// With the semantics table (`--semantics`): every function of both
/// fixtures through lift, the three flavours, verification, the passes
/// (`copy-prop,const-prop,dce`, which now fold and remove operations of
/// the set), destruction and the text round trip; and the passes remove
/// most of what the flags cost.
#[test]
fn every_function_with_semantics_goes_through_the_passes() {
    let sem = Options { semantics: true };
    let passes = [
        ssakit::opt::Pass::CopyProp,
        ssakit::opt::Pass::ConstProp,
        ssakit::opt::Pass::Dce,
    ];
    let (mut before, mut after) = (0, 0);
    for which in FIXTURES {
        let elf = read(which);
        let bin = Binary::parse(&elf).unwrap();
        for info in bin.functions() {
            let what = format!("{which}: {} at {:#x}", info.name, info.extent.start);
            let f = lift_with(&bin, info, &sem).func;
            round_trip(&f, &what);
            for flavor in [Flavor::Minimal, Flavor::SemiPruned, Flavor::Pruned] {
                let mut g = constructed(&f, flavor, &what);
                let n = |g: &Function| g.blocks().map(|b| g.block_insts(b).len()).sum::<usize>();
                let m = n(&g);
                ssakit::opt::run_passes(&mut g, &passes)
                    .unwrap_or_else(|e| panic!("{what}: {flavor:?}: passes: {}", e.describe(&g)));
                ssakit::verify::verify_valid(&g)
                    .unwrap_or_else(|e| panic!("{what}: {flavor:?}: {}", e[0].describe(&g)));
                if flavor == Flavor::Pruned {
                    before += m;
                    after += n(&g);
                }
                round_trip(&g, &what);
                destruct(&mut g, &DestructOptions::default())
                    .unwrap_or_else(|e| panic!("{what}: {flavor:?}: destruct: {}", e.describe(&g)));
                round_trip(&g, &what);
            }
        }
    }
    eprintln!("pruned SSA with semantics: {before} instructions before the passes, {after} after");
    assert!(
        after * 2 < before,
        "{before} instructions before the passes, {after} after"
    );
}

/// `f` in SSA of `flavor`, verified (`what` names it in a failure).
fn constructed(f: &Function, flavor: Flavor, what: &str) -> Function {
    let mut g = f.clone();
    let opts = construct::Options {
        flavor,
        ..Default::default()
    };
    construct::construct(&mut g, &opts).unwrap_or_else(|e| panic!("{what}: {}", e.describe(f)));
    ssakit::verify::verify_valid(&g)
        .unwrap_or_else(|e| panic!("{what}: {flavor:?}: {}", e[0].describe(&g)));
    g
}
