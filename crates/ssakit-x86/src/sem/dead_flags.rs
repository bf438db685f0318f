//! Local flag liveness at lift time: a flag definition that the same
//! block redefines before any read is left out of the lifted function,
//! and so are the operations that only computed it.
//!
//! Section 13.8 of the chapter: a binary's SSA form is as large as the
//! meaning of its instructions, and every ALU instruction defines up to
//! six flags (the [semantics' conventions](super)) that the next
//! flag-setting instruction of the block usually overwrites unread.
//! Emitting them only for the passes to remove them costs most of the
//! pipeline's time, so the lifter drops them at once, block by block,
//! before SSA construction. Most are not even emitted: the lifter tells
//! the emitter which flags an instruction need not define, those a later
//! instruction of its block overwrites unread or no successor reads
//! ([`flag_report`](super::flag_report)), and the step removes the rest
//! (mostly those of an instruction that also reads flags: `adc`/`sbb`, a
//! shift by `cl`, `cmpxchg`, which are never left out), finding the same
//! liveness as if all were emitted.
//!
//! # The step
//!
//! The lifted function is not yet in SSA form; its flags are the
//! variables `cf` ... `df` and the instructions' temporaries the pools
//! `q0, q1, ...` and `d0, d1, ...` (reused by every instruction). Each
//! block is scanned **backwards** keeping two sets:
//!
//! * the *dead flags*: flags that a later instruction of the block
//!   defines with no read in between, or that are not live out of the
//!   block. Live out of a block are the flags live into one of its
//!   successors, and every flag at a `ret` or `unreachable` (the
//!   function's callers and the value oracle see the flags at its
//!   exits); live into a block, the flags it reads before defining them
//!   and those live out of it it does not define (the classic backward
//!   liveness on seven bits per block, iterated to its fixpoint before
//!   the scan; an instruction the scan then drops still counts as a
//!   read there, which only keeps more).
//! * the *live temporaries*: at the block's end, those its terminator
//!   reads and those read in some block before being defined there
//!   (live into a block, so possibly live across blocks; the
//!   conventions say there are none, the step does not rely on it).
//!
//! An instruction is **dropped** when it is a copy or a pure operation
//! of the set ([`Opcode`](ssakit::ir::Opcode)) and every variable it
//! defines is a dead flag or a temporary not live: its value cannot be
//! read. Otherwise the flags it defines become dead, the temporaries it
//! defines not live, then the flags it reads (a `jcc` condition, `adc`,
//! `cmov`, `setcc`, a shift by `cl` keeping the old flags, an opaque
//! operation or call whose [access set](crate::regs) reads them) live
//! again and the temporaries it reads live. A dropped instruction reads
//! nothing, so what only fed it is dropped too (no dead arithmetic is
//! left behind); loads, stores, calls and opaque operations are never
//! dropped.
//!
//! **Invariant**: every instruction the step drops defines only
//! variables that no later instruction or terminator reads before they
//! are defined again, in this block or any other; so the function
//! computes the same registers, flags at its exits, memory and calls as
//! before it.
//!
//! The flag definitions the instructions' meaning has are counted
//! before the step, and the lifter adds those the emitter left out to
//! both counts (`x86 stats --semantics --passes` reports them beside
//! what was emitted and what the passes keep, docs/x86.md).

use ssakit::ir::{Effects, Function, Inst, InstData, Operand, Terminator, Var};

/// What the step saw: the flag definitions of the meaning and those it
/// dropped.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct FlagDefs {
    /// Definitions of a flag by a copy or an operation before the step
    /// (calls and operations of call effects, which define the flags
    /// they clobber, not counted, as in `pipeline::Size`).
    pub(crate) meaning: usize,
    /// Those the step dropped.
    pub(crate) dropped: usize,
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Class {
    Other,
    /// Flag `k` (bit `k` of a flag mask).
    Flag(u8),
    Temp,
}

/// Drops the flag definitions of `f` that their block overwrites
/// unread, and the pure operations only they read (the module's step);
/// `flags` are the flag variables, `temps` the temporaries.
///
/// With at most 8 flags and 56 temporaries (the lifter's pools: always
/// so far), the sets are the bits of one word and each instruction is
/// read from the function once ([`drop_by_masks`]); else by
/// [`drop_by_sets`].
pub(crate) fn drop_dead_flags(f: &mut Function, flags: &[Var], temps: &[Var]) -> FlagDefs {
    if flags.len() <= 8 && temps.len() <= 56 {
        drop_by_masks(f, flags, temps)
    } else {
        drop_by_sets(f, flags, temps)
    }
}

/// The bits of [`drop_by_masks`]'s words that are flags (bit `k`: flag
/// `k`); bit `8 + t` is temporary `t`.
const FLAG_BITS: u64 = 0xff;

/// What the backward scan needs of one instruction, found by the
/// forward one: the flags and temporaries it defines and reads (words
/// of [`FLAG_BITS`] and temporaries).
#[derive(Clone, Copy)]
struct Rec {
    defs: u64,
    uses: u64,
    /// 0: never dropped (it defines another variable or none, or is no
    /// copy or operation of the set); 1: a copy; 2: an operation of the
    /// set (dropped only if pure).
    kind: u8,
    /// It defines exactly one variable, a flag (what `dropped` counts).
    one_flag: bool,
}

/// The step with the sets as the bits of one word: the forward scan
/// records each instruction's [`Rec`], the backward scan reads only
/// those. Its word is what [`drop_by_sets`] keeps, complemented for the
/// flags: the flags not dead and the temporaries live, so that an
/// instruction's definitions are unread when they miss the word, and
/// the update is `(word & !defs) | uses` (definitions first, then
/// reads, as there).
fn drop_by_masks(f: &mut Function, flags: &[Var], temps: &[Var]) -> FlagDefs {
    let mut bit = vec![0u64; f.num_vars()];
    for (k, &v) in flags.iter().enumerate() {
        bit[v.index()] = 1 << k;
    }
    for (t, &v) in temps.iter().enumerate() {
        bit[v.index()] = 1 << (8 + t);
    }
    let mut counts = FlagDefs::default();
    let blocks: Vec<_> = f.layout().to_vec();
    let slots = blocks.iter().map(|b| b.index() + 1).max().unwrap_or(0);
    let mut reads = vec![0u8; slots];
    let mut defs = vec![0u8; slots];
    // Temporaries read before their definition in some block, or by a
    // terminator (bit `8 + t`): live at the end of every block.
    let mut temps_out = 0u64;
    let mut recs = Vec::with_capacity(f.inst_slots());
    for &b in &blocks {
        // Read before defined in the block so far, and defined.
        let (mut up, mut defined) = (0u64, 0u64);
        // `extend` of a slice's map: room checked once per block.
        recs.extend(f.block_insts(b).iter().map(|&i| {
            let (rec, nflags) = record(f, i, &bit);
            up |= rec.uses & !defined;
            defined |= rec.defs;
            if nflags > 0 && (rec.kind == 1 || !f.effects(i).contains(Effects::CALL)) {
                counts.meaning += nflags;
            }
            rec
        }));
        f.for_each_term_use(b, |v| {
            let m = bit[v.index()];
            up |= m & FLAG_BITS & !defined;
            temps_out |= m & !FLAG_BITS;
        });
        temps_out |= up & !FLAG_BITS;
        (reads[b.index()], defs[b.index()]) = (up as u8, defined as u8);
    }
    let flags_out = flag_liveness(f, &blocks, &reads, &defs, flags.len());
    let mut drop: Vec<bool> = Vec::new();
    // The blocks something is dropped from, each once.
    let mut touched = Vec::new();
    let mut at = 0;
    for &b in &blocks {
        let insts = f.block_insts(b);
        let block_recs = &recs[at..at + insts.len()];
        at += insts.len();
        let mut live = temps_out | u64::from(flags_out[b.index()]);
        let mut any = false;
        for (&i, rec) in insts.iter().zip(block_recs).rev() {
            let unread = rec.defs & live == 0;
            if rec.kind != 0 && unread && (rec.kind == 1 || f.effects(i) == Effects::PURE) {
                if drop.is_empty() {
                    drop = vec![false; f.inst_slots()];
                }
                drop[i.index()] = true;
                any = true;
                counts.dropped += usize::from(rec.one_flag);
                continue;
            }
            live = (live & !rec.defs) | rec.uses;
        }
        if any {
            touched.push(b);
        }
    }
    for b in touched {
        f.retain_insts(b, |_, i| !drop[i.index()]);
    }
    counts
}

/// The [`Rec`] of instruction `i` and the number of flags it defines,
/// from one look at its data: a copy and an operation read their lists
/// straight from the pools, anything else through the generic visits.
#[inline]
fn record(f: &Function, i: Inst, bit: &[u64]) -> (Rec, usize) {
    let (mut uses, mut d, mut n, mut nflags, mut other) = (0u64, 0u64, 0usize, 0usize, false);
    let mut def = |v: Var| {
        let m = bit[v.index()];
        d |= m;
        n += 1;
        nflags += usize::from(m & FLAG_BITS != 0);
        other |= m == 0;
    };
    // 1: a copy, 2: an operation, 0: anything else (never dropped).
    let (kind, op) = match f.inst(i) {
        InstData::Copy { dst, src } => {
            if let Operand::Var(v) = src {
                uses = bit[v.index()];
            }
            def(*dst);
            (1, None)
        }
        InstData::Op {
            op, args, results, ..
        } => {
            for a in args.as_slice(f) {
                if let Operand::Var(v) = a {
                    uses |= bit[v.index()];
                }
            }
            results.as_slice(f).iter().for_each(|&v| def(v));
            (2, Some(*op))
        }
        _ => {
            f.for_each_use(i, |v| uses |= bit[v.index()]);
            f.for_each_def(i, def);
            (0, None)
        }
    };
    // An operation is dropped only if of the set: its opcode is looked
    // up only when its definitions could all be unread.
    let kind = match op {
        _ if n == 0 || other => 0,
        Some(op) if f.opcode(op).is_none() => 0,
        _ => kind,
    };
    let rec = Rec {
        defs: d,
        uses,
        kind,
        one_flag: n == 1 && nflags == 1,
    };
    (rec, nflags)
}

/// The step with a set entry per variable, for any number of flags and
/// temporaries.
pub(super) fn drop_by_sets(f: &mut Function, flags: &[Var], temps: &[Var]) -> FlagDefs {
    let mut class = vec![Class::Other; f.num_vars()];
    for (k, &v) in flags.iter().enumerate() {
        class[v.index()] = Class::Flag(k as u8);
    }
    for &v in temps {
        class[v.index()] = Class::Temp;
    }
    let mut counts = FlagDefs::default();
    let blocks: Vec<_> = f.layout().to_vec();
    let slots = blocks.iter().map(|b| b.index() + 1).max().unwrap_or(0);
    // Per block, the flags read before defined (`reads`) and defined.
    let mut reads = vec![0u8; slots];
    let mut defs = vec![0u8; slots];
    // Temporaries read before their definition in some block, or by a
    // terminator: live at the end of every block. `defined_in[v]` is
    // 1 + the index of the last block that defined `v`.
    let mut live_out = vec![false; f.num_vars()];
    let mut defined_in = vec![0u32; f.num_vars()];
    for (n, &b) in blocks.iter().enumerate() {
        let stamp = n as u32 + 1;
        let (r, d) = (&mut reads[b.index()], &mut defs[b.index()]);
        let read = |v: Var, live_out: &mut [bool], defined_in: &[u32], d: u8| -> u8 {
            match class[v.index()] {
                Class::Temp if defined_in[v.index()] != stamp => live_out[v.index()] = true,
                Class::Flag(k) if d & (1 << k) == 0 => return 1 << k,
                _ => {}
            }
            0
        };
        for &i in f.block_insts(b) {
            f.for_each_use(i, |v| *r |= read(v, &mut live_out, &defined_in, *d));
            let mut flag_defs = 0;
            f.for_each_def(i, |v| match class[v.index()] {
                Class::Temp => defined_in[v.index()] = stamp,
                Class::Flag(k) => {
                    *d |= 1 << k;
                    flag_defs += 1;
                }
                Class::Other => {}
            });
            // The effects only where a flag is defined: most
            // instructions define none (and a copy has none).
            let copy = matches!(f.inst(i), InstData::Copy { .. });
            if flag_defs > 0 && (copy || !f.effects(i).contains(Effects::CALL)) {
                counts.meaning += flag_defs;
            }
        }
        f.for_each_term_use(b, |v| {
            if class[v.index()] == Class::Temp {
                live_out[v.index()] = true;
            }
            *r |= read(v, &mut live_out, &defined_in, *d);
        });
    }
    let flags_out = flag_liveness(f, &blocks, &reads, &defs, flags.len());
    let mut drop = vec![false; f.inst_slots()];
    let mut live = live_out.clone();
    let mut any = false;
    // The variables the instruction at hand defines, found once.
    let mut defs = Vec::new();
    for &b in &blocks {
        live.copy_from_slice(&live_out);
        let mut dead: u8 = !flags_out[b.index()];
        for &i in f.block_insts(b).iter().rev() {
            defs.clear();
            f.for_each_def(i, |v| defs.push(v));
            if droppable(f, i, &defs, &class, dead, &live) {
                drop[i.index()] = true;
                any = true;
                if let [v] = defs[..] {
                    if let Class::Flag(_) = class[v.index()] {
                        counts.dropped += 1;
                    }
                }
                continue;
            }
            for &v in &defs {
                match class[v.index()] {
                    Class::Flag(k) => dead |= 1 << k,
                    Class::Temp => live[v.index()] = false,
                    Class::Other => {}
                }
            }
            f.for_each_use(i, |v| match class[v.index()] {
                Class::Flag(k) => dead &= !(1 << k),
                Class::Temp => live[v.index()] = true,
                Class::Other => {}
            });
        }
    }
    if any {
        for &b in &blocks {
            f.retain_insts(b, |_, i| !drop[i.index()]);
        }
    }
    counts
}

/// The flags live out of each block (by block index), given the flags
/// each reads before defining them and those it defines: every flag out
/// of an exit (`ret`, `unreachable`), else the union of what its
/// successors need, to the fixpoint (iterative, in reverse layout order
/// until nothing changes).
fn flag_liveness(
    f: &Function,
    blocks: &[ssakit::ir::Block],
    reads: &[u8],
    defs: &[u8],
    n: usize,
) -> Vec<u8> {
    let all = ((1u16 << n) - 1) as u8;
    let mut out = vec![0u8; reads.len()];
    let mut live_in = vec![0u8; reads.len()];
    for &b in blocks {
        if matches!(f.term(b), Terminator::Ret(_) | Terminator::Unreachable) {
            out[b.index()] = all;
        }
    }
    let mut changed = true;
    while changed {
        changed = false;
        for &b in blocks.iter().rev() {
            let k = b.index();
            let mut o = out[k];
            f.for_each_succ(b, |s| o |= live_in[s.index()]);
            let i = reads[k] | (o & !defs[k]);
            if (o, i) != (out[k], live_in[k]) {
                (out[k], live_in[k]) = (o, i);
                changed = true;
            }
        }
    }
    out
}

/// Whether `i` (defining `defs`) is a copy or pure operation of the set
/// whose every definition is a flag in `dead` or a temporary not `live`.
fn droppable(
    f: &Function,
    i: Inst,
    defs: &[Var],
    class: &[Class],
    dead: u8,
    live: &[bool],
) -> bool {
    // The effects are looked up last, once the definitions are known
    // unread: most instructions fail that test first.
    let op = match f.inst(i) {
        InstData::Copy { .. } => false,
        InstData::Op { op, .. } if f.opcode(*op).is_some() => true,
        _ => return false,
    };
    let unread = defs.iter().all(|v| match class[v.index()] {
        Class::Flag(k) => dead & (1 << k) != 0,
        Class::Temp => !live[v.index()],
        Class::Other => false,
    });
    !defs.is_empty() && unread && (!op || f.effects(i) == Effects::PURE)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `src` after the step, which must count `meaning` flag
    /// definitions and drop `dropped` of them.
    fn run(src: &str, meaning: usize, dropped: usize) -> String {
        let ops = "operator i32.add pure\noperator i32.lt_u pure\noperator i32.eqz pure\noperator select pure\n";
        let mut f = ssakit::text::parse_module(&format!("{ops}{src}"))
            .unwrap()
            .functions
            .remove(0);
        let v = |n: &str| f.var_by_name(n).unwrap();
        let flags = [v("cf"), v("zf")];
        let temps = [v("d0"), v("d1")];
        let mut g = f.clone();
        let c = drop_dead_flags(&mut f, &flags, &temps);
        let text = ssakit::text::print_function(&f);
        assert_eq!(c, FlagDefs { meaning, dropped }, "{text}");
        // The masks and the sets agree.
        assert_eq!(drop_by_sets(&mut g, &flags, &temps), c);
        assert_eq!(ssakit::text::print_function(&g), text);
        text
    }

    /// `cf` and `zf` of the first `add` are overwritten by the second
    /// before any read: both go, with the temporary only `zf` read; the
    /// second's flags are live out of the block and stay.
    #[test]
    fn overwritten_flags_and_their_arithmetic_go() {
        let src = "function f(a: i32, b: i32, cf: i32, zf: i32) -> (i32, i32) {\ne:\n    d0: i32 = i32.add(a, b)\n    cf = i32.lt_u(d0, a)\n    d1: i32 = i32.eqz(d0)\n    zf = d1\n    d0 = i32.add(d0, b)\n    cf = i32.lt_u(d0, b)\n    zf = i32.eqz(d0)\n    ret cf, zf\n}\n";
        let text = run(src, 4, 2);
        assert!(!text.contains("d1"), "{text}");
        assert_eq!(text.matches("i32.lt_u").count(), 1, "{text}");
        assert_eq!(text.matches("i32.add").count(), 2, "{text}");
    }

    /// A read between two definitions keeps the first, and the last
    /// definition of each flag stays (live out of the block); a dropped
    /// definition's reads do not count: `select` reads the old `zf` but
    /// is overwritten unread, so the `zf` before it goes too.
    #[test]
    fn a_read_keeps_the_definition() {
        let src = "function f(a: i32, b: i32, cf: i32, zf: i32) -> (i32, i32) {\ne:\n    cf = i32.lt_u(a, b)\n    d0: i32 = i32.add(cf, a)\n    cf = i32.lt_u(b, a)\n    zf = i32.eqz(a)\n    zf = select(b, zf, a)\n    zf = i32.eqz(b)\n    d1: i32 = i32.eqz(a)\n    ret d0, zf\n}\n";
        let text = run(src, 5, 2);
        assert!(text.contains("i32.lt_u(a, b)"), "{text}");
        assert!(text.contains("i32.lt_u(b, a)"), "{text}");
        assert!(
            !text.contains("select") && !text.contains("i32.eqz(a)"),
            "{text}"
        );
    }

    /// Across blocks: `cf` of `e` is redefined by both successors before
    /// any read, so it goes; `zf` of `e` is read by `x` and stays, and
    /// every flag at the `ret` is live.
    #[test]
    fn flags_no_successor_reads_go() {
        let src = "function f(a: i32, b: i32, cf: i32, zf: i32) -> (i32, i32) {\ne:\n    cf = i32.lt_u(a, b)\n    zf = i32.eqz(a)\n    branch a, x, y\nx:\n    d0: i32 = i32.add(zf, b)\n    cf = i32.lt_u(d0, b)\n    jump y\ny:\n    cf = i32.eqz(b)\n    d1: i32 = i32.add(a, b)\n    ret a, b\n}\n";
        let text = run(src, 4, 2);
        assert!(!text.contains("i32.lt_u"), "{text}");
        assert!(
            text.contains("i32.eqz(a)") && text.contains("i32.eqz(b)"),
            "{text}"
        );
    }
}
