//! Stack slots as variables: the loads and stores of a function lifted
//! with the [semantics](crate::sem) at fixed offsets of its frame
//! ([`crate::frame`]) whose address does not escape become
//! variables of their width, before construction, so that the chapter's
//! construction places their phis (at the iterated dominance frontier of
//! their stores) and renames them like any register's. This is LLVM's
//! `mem2reg` and Ghidra's heritage of the stack space on machine code:
//! memory locations turned into variables are construction over a new
//! kind of variable (Van Emmerik, "Static Single Assignment for
//! Decompilation", 2007, treats stack locations the same way).
//!
//! # Slots and what stays memory
//!
//! A *slot* is the pair (offset from the entry `rsp`, width) of an access
//! whose address is `Frame(c)` at its point. Its variable is `sN` for the
//! slot `N` bytes below the entry `rsp` (`s16` for `[rsp_entry - 16]`),
//! an `i64` of 8 bytes or an `i32` of 4, 2 or 1 (the narrow ones
//! zero-extended, as `i32.load16_u` and `i32.load8_u` read them: a store
//! of 2 or 1 bytes keeps the low bits, `s = i32.and(v, 0xffff)`; when
//! slots of two widths start at one offset, the narrower is `s16_4`). A
//! slot is not simply promoted, and every access of it that stays memory
//! is counted by the reason ([`Left`]), when:
//!
//! * **the offset is lost** somewhere in the function
//!   ([`Frame::lost`](crate::frame::Frame::lost)): an access through the
//!   lost `rsp` may touch any slot;
//! * **an address at an unknown offset** of the frame (`rsp + rax * 8`,
//!   an array indexed by a variable) is accessed or escapes (*aliased*);
//! * **its address escapes**: a frame address `c` is stored as a value,
//!   passed to a call in an argument register, returned, or read by an
//!   opaque instruction (`rep stosq`; a vector access `movsd [rbp - 8],
//!   xmm0`, whose address `c + d` escapes too for each immediate `d` of
//!   the operation, the displacement being one of them). The escaped
//!   object is taken to run from `c` up to the next escaped address, the
//!   registers saved by `push` at the top of the frame (the run of
//!   pushed slots from offset -8 down) or the return address, whichever
//!   is lowest above it, so that a structure whose address is passed
//!   keeps its fields in memory; a slot overlapping that range has
//!   *escaped*;
//! * **it overlaps another slot**: one contains the other (a 4-byte load
//!   of an 8-byte store's low half: *overlapping*) or they share only
//!   some bytes (*partly overlapping*);
//! * **it is in the caller's frame**: offset 0 and up (the return
//!   address, the stack arguments) is the caller's memory (*incoming*;
//!   the signatures of a later round make them parameters).
//!
//! # Guarded slots: forwarding where memory may change
//!
//! A slot left memory for being escaped, aliased, overlapping or partly
//! overlapping (in the function's own frame: not lost, not incoming) is
//! still given its variable, and promoted where that is sound without
//! knowing any object's size or type: it is *guarded*. Its stores are
//! written through (kept in memory, and defining the variable), so that
//! memory always holds what the program wrote; a load of it is
//! forwarded from the variable (becomes a copy: *promoted*) where the
//! variable holds memory's bytes on every path from the entry, and
//! otherwise stays a load, counted by the slot's reason, and refreshes
//! the variable. Memory may differ from the variable after
//!
//! * a store of another slot sharing one of its bytes;
//! * a point that may write through a pointer that left the function (a
//!   call, an opaque operation, a store through an address that is not a
//!   frame address), when the slot is *exposed*: within an escaped
//!   object, or anywhere in an aliased frame from which some frame
//!   address escapes (a frame address no sink saw cannot be in memory, in
//!   a register a callee reads or in a callee's result, and the caller
//!   cannot know the frame below its `rsp`);
//! * a store through a frame address at an unknown offset, or one no
//!   slot describes (a vector store to the frame), for every slot.
//!
//! A frame address passed to a call only in argument registers its
//! callee never captures (the callee's summary, LLVM's `nocapture`, known
//! with the signatures: [`promote_signed`](crate::signature::promote_signed)) is *lent*, not escaped: the
//! callee may write its object while it runs, and no copy of the address
//! is left afterwards, so the object's slots go stale at the calls it is
//! lent to (and at the points above if it also escapes), not at the other
//! calls, opaque operations or stores through non-frame pointers. `&hbuf`
//! passed to `crc32` is the case of zlib's `inflate`.
//!
//! This is a must problem, forward, one bit per guarded slot
//! (`available_loads`). A load of a slot whose own variable is not
//! available, inside a wider guarded slot whose variable is (a 4-byte
//! `here` stored whole and read by its 1-, 1- and 2-byte fields), is
//! *extracted* from the wider variable: shifted right by the distance in
//! bits (little-endian), truncated to `i32`, masked to its width.
//!
//! A variadic function's register save area (`va_save_area`) is not
//! guarded: what `va_arg` reads there is an unnamed argument, which the
//! [signatures](crate::signature) tell from a named one by its being
//! read only through memory.
//!
//! No type is needed: within the frame, what a pointer may reach is
//! still the escape rule above (which slots are exposed); what guarding
//! adds is *when* it may write them, the points above, so that the
//! loads between two such points read the variable.
//!
//! # Calls
//!
//! A callee reads its stack arguments through its `rsp`: the `rsp` a call
//! (or an indirect call, an opaque operation) reads is the frame address `s`, and its arguments are at `s + 8` and
//! up. How many there are is the callee's signature, not known here; a
//! promoted slot within [`CALL_ARGUMENT_WINDOW`] bytes above `s + 8` is
//! therefore *written through*: its stores stay in memory as well as
//! defining the variable, and its loads read the variable. Everything
//! else a callee may touch of the frame was passed to it, and has
//! escaped.
//!
//! A callee-saved register pushed in the prologue and popped in the
//! epilogue becomes a slot variable defined by the push and read by the
//! pop: after copy propagation the register's value at the return is its
//! entry value, a register saved and restored.
//!
//! ```
//! let elf = std::fs::read(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixture/fixture")).unwrap();
//! let bin = ssakit_x86::binary::Binary::parse(&elf).unwrap();
//! let info = bin.functions().iter().find(|f| f.name == "main").unwrap();
//! let opts = ssakit_x86::lift::Options { semantics: true };
//! let mut l = ssakit_x86::lift::lift_with(&bin, info, &opts);
//! let p = ssakit_x86::slots::promote(&mut l.func, &mut l.origins);
//! assert!(p.lost.is_none() && p.promoted > 0);
//! assert!(ssakit::text::print_function(&l.func).contains("s8 = "));
//! ```

use crate::capture::{self, Lent};
use crate::frame::{self, value, Frame, Lost, Value};
use crate::lift::Origins;
use crate::regs::LocSet;
use ssakit::ir::{
    Block, Effects, Function, Inst, InstData, Opcode, Operand, Terminator, Type, Var,
};
use std::fmt::Write as _;

pub use crate::frame::CALL_ARGUMENT_WINDOW;

/// Why an access of the frame stays memory.
///
/// ```
/// use ssakit_x86::slots::Left;
/// assert_eq!(Left::ALL.map(Left::name)[2], "escaped");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Left {
    /// The offset of `rsp` is lost in the function.
    Lost,
    /// A frame address of unknown offset is accessed or escapes.
    Aliased,
    /// The slot's address escapes (or one below it, of the same object).
    Escaped,
    /// Another slot contains it or is contained in it.
    Overlapping,
    /// Another slot shares some of its bytes.
    PartlyOverlapping,
    /// The caller's frame: the return address, the stack arguments.
    Incoming,
}

impl Left {
    /// Every reason, in the order of [`Promotion::left`].
    ///
    /// ```
    /// assert_eq!(ssakit_x86::slots::Left::ALL.len(), 6);
    /// ```
    pub const ALL: [Left; 6] = [
        Left::Lost,
        Left::Aliased,
        Left::Escaped,
        Left::Overlapping,
        Left::PartlyOverlapping,
        Left::Incoming,
    ];

    /// The name used in reports.
    ///
    /// ```
    /// assert_eq!(ssakit_x86::slots::Left::PartlyOverlapping.name(), "partly-overlapping");
    /// ```
    pub fn name(self) -> &'static str {
        match self {
            Left::Lost => "lost",
            Left::Aliased => "aliased",
            Left::Escaped => "escaped",
            Left::Overlapping => "overlapping",
            Left::PartlyOverlapping => "partly-overlapping",
            Left::Incoming => "incoming",
        }
    }
}

/// What [`promote`] did to one function.
///
/// ```
/// let p = ssakit_x86::slots::Promotion::default();
/// assert_eq!(p.left.iter().sum::<usize>(), 0);
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Promotion {
    /// Where the offset of `rsp` is first lost, if it is.
    pub lost: Option<Lost>,
    /// Slots that became variables.
    pub slots: usize,
    /// Accesses (loads and stores) that became copies of a slot variable.
    pub promoted: usize,
    /// Of the promoted stores, those also kept in memory: for a call's
    /// stack arguments ([`CALL_ARGUMENT_WINDOW`]), or of a guarded slot
    /// (see the module documentation).
    pub written_through: usize,
    /// Accesses of the frame left in memory, by reason (as
    /// [`Left::ALL`]).
    pub left: [usize; 6],
}

impl Promotion {
    /// Counts one access left in memory for `why`.
    fn count_left(&mut self, why: Left) {
        self.left[Left::ALL.iter().position(|&w| w == why).expect("a reason")] += 1;
    }

    /// Adds `o`'s counts (not its lost point) to these.
    ///
    /// ```
    /// let mut a = ssakit_x86::slots::Promotion { promoted: 2, ..Default::default() };
    /// a.add(&a.clone());
    /// assert_eq!(a.promoted, 4);
    /// ```
    pub fn add(&mut self, o: &Promotion) {
        self.slots += o.slots;
        self.promoted += o.promoted;
        self.written_through += o.written_through;
        for k in 0..self.left.len() {
            self.left[k] += o.left[k];
        }
    }
}

/// One access of the frame at a known offset.
#[derive(Clone, Copy, Debug)]
struct Access {
    inst: Inst,
    block: Block,
    offset: i64,
    bytes: u8,
    /// The stored value, for a store.
    stored: Option<Operand>,
    /// A store addressed by `rsp` itself (`push`, `mov [rsp], x`).
    by_rsp: bool,
}

/// What one walk of the function finds.
#[derive(Default)]
struct Facts {
    accesses: Vec<Access>,
    /// Frame addresses that escape.
    escapes: Vec<i64>,
    /// Frame addresses passed to a callee that does not capture them
    /// (*lent*: [`crate::capture`]): (the call's number, the address);
    /// an address in `escapes` as well has escaped.
    lent: Vec<(usize, i64)>,
    /// The direct calls walked so far (numbered in [`Event::Call`]).
    calls: usize,
    /// The `rsp + 8` of each call: where its stack arguments start.
    windows: Vec<i64>,
    /// A frame address of unknown offset is accessed or escapes.
    aliased: bool,
    /// A frame address of unknown offset escapes.
    leaks: bool,
    /// The accesses (by index in `accesses`) and the clobbers, in the
    /// order of the walk: each block's contiguous, in layout order.
    events: Vec<(Block, Event)>,
}

/// A point that matters to a guarded slot's variable.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Event {
    /// The access `accesses[k]`.
    Access(usize),
    /// A point that may write the exposed bytes of the frame (those a
    /// pointer that left the function may reach): an opaque operation, a
    /// store through an address that is not a frame address.
    Exposed,
    /// The direct call of this number: it may write the exposed bytes,
    /// and those of the objects lent to it (a callee that does not
    /// capture a pointer may still write through it while it runs; no
    /// other point may, as no copy of the pointer is left).
    Call(usize),
    /// A point that may write any byte of the frame: a store through a
    /// frame address at an unknown offset, or one no slot describes.
    Wild,
}

impl Facts {
    /// A value reaching a sink: a known frame address escapes, an
    /// unknown one aliases the frame.
    fn sink(&mut self, v: Value) {
        match v {
            Value::Frame(c) => self.escapes.push(c),
            Value::Lost => {
                self.aliased = true;
                self.leaks = true;
            }
            _ => {}
        }
    }

    /// An opaque operation `i` reading `args`: an indirect call (or
    /// jump) reads its stack arguments through `rsp` as a call does;
    /// otherwise a frame
    /// address it reads escapes, and so does that address plus each of
    /// its immediates (a memory operand's displacement is one of them:
    /// `movsd [rbp - 8], xmm0` reads `rbp` and writes at `rbp - 8`).
    fn opaque(
        &mut self,
        f: &Function,
        i: Inst,
        args: &[Operand],
        state: &[Value],
        rsp: Option<Var>,
    ) {
        // Only an indirect call or jump passes the stack to a callee; other
        // opaque operations of call effects (`fnstcw [rsp + 38]`, whose
        // effects the model does not know) access the frame themselves.
        let (call, imms) = match f.inst(i) {
            InstData::Op { op, imms, .. } => (
                matches!(f.operator_name(*op), "x86.call.x" | "x86.jmp.x"),
                imms.as_slice(f),
            ),
            _ => (false, &[][..]),
        };
        for &a in args {
            match (a, value(a, state)) {
                (Operand::Var(v), Value::Frame(c)) if call && Some(v) == rsp => {
                    self.windows.push(c + 8)
                }
                (_, Value::Frame(c)) => {
                    self.escapes.push(c);
                    // The first immediate is the instruction's address.
                    for &d in imms.iter().skip(1) {
                        if d.unsigned_abs() < 1 << 16 {
                            self.escapes.push(c.wrapping_add(d));
                        }
                    }
                }
                (_, v) => self.sink(v),
            }
        }
    }
}

/// The loads and stores the semantics emit, by width.
fn is_slot_access(code: Opcode) -> bool {
    matches!(
        code,
        Opcode::I64Load
            | Opcode::I32Load
            | Opcode::I32Load16U
            | Opcode::I32Load8U
            | Opcode::I64Store
            | Opcode::I32Store
            | Opcode::I32Store16
            | Opcode::I32Store8
    )
}

/// Walks the reached blocks: accesses, escapes, calls' windows; `lent`
/// gives the argument registers a call's callee does not capture.
fn find_facts(
    f: &Function,
    frame: &frame::Frame,
    rsp: Option<Var>,
    lent: &dyn Fn(Inst) -> LocSet,
) -> Facts {
    // Only memory accesses, opaque operations and calls are facts, and
    // the walk of the facts visits no other instruction: each adds at
    // most one event, and one access.
    let mut facts = Facts {
        accesses: Vec::with_capacity(frame.num_facts()),
        events: Vec::with_capacity(frame.num_facts()),
        ..Facts::default()
    };
    let wanted = |_: Inst| true;
    for &b in f.layout() {
        if !frame.reached(b) {
            continue;
        }
        frame.walk_facts(f, b, wanted, |point, state| {
            let Some(i) = point else {
                if let Terminator::Ret { .. } = f.term(b) {
                    f.for_each_term_operand(b, |o| {
                        // The returned `rsp` is the caller's (`+8`).
                        if !rsp.is_some_and(|r| o == Operand::Var(r)) {
                            facts.sink(value(o, state));
                        }
                    });
                }
                return;
            };
            match f.inst(i) {
                InstData::Op { op, args, .. } => {
                    let args = args.as_slice(f);
                    match frame.class(*op) {
                        frame::Class::Memory => {
                            let code = f.opcode(*op).expect("an operation of the set");
                            let a = code.access().expect("a memory access");
                            let addr = value(args[0], state);
                            if a.store {
                                facts.sink(value(args[1], state));
                            }
                            match addr {
                                Value::Frame(c) if is_slot_access(code) => {
                                    facts.events.push((b, Event::Access(facts.accesses.len())));
                                    facts.accesses.push(Access {
                                        inst: i,
                                        block: b,
                                        offset: c,
                                        bytes: a.bytes,
                                        stored: a.store.then(|| args[1]),
                                        by_rsp: rsp.is_some_and(|r| args[0] == Operand::Var(r)),
                                    })
                                }
                                v => {
                                    if v.may_be_frame() {
                                        facts.aliased = true;
                                    }
                                    if a.store {
                                        let e = if v.may_be_frame() {
                                            Event::Wild
                                        } else {
                                            Event::Exposed
                                        };
                                        facts.events.push((b, e));
                                    }
                                }
                            }
                        }
                        frame::Class::Opaque => {
                            facts.events.push((b, Event::Exposed));
                            facts.opaque(f, i, args, state, rsp)
                        }
                        _ => {}
                    }
                }
                InstData::Call { args, .. } => {
                    let call = facts.calls;
                    facts.calls += 1;
                    facts.events.push((b, Event::Call(call)));
                    let free = lent(i);
                    for &a in args.as_slice(f) {
                        match (a, value(a, state)) {
                            (Operand::Var(v), Value::Frame(c)) if Some(v) == rsp => {
                                facts.windows.push(c + 8)
                            }
                            (Operand::Var(v), Value::Frame(c))
                                if capture::pointer_arg(f.base_name(v))
                                    .is_some_and(|l| free.contains(l)) =>
                            {
                                facts.lent.push((call, c))
                            }
                            (_, v) => facts.sink(v),
                        }
                    }
                }
                _ => {}
            }
        });
    }
    facts
}

/// A slot: offset and width, and its fate.
#[derive(Clone, Copy, Debug)]
struct Slot {
    offset: i64,
    bytes: u8,
    left: Option<Left>,
    /// A pointer that left the function may reach its bytes.
    exposed: bool,
    /// A pointer lent to a callee that does not capture it may reach its
    /// bytes (during that call).
    lent: bool,
    /// Within a variadic function's register save area ([`va_save_area_in`]).
    in_save_area: bool,
    through: bool,
    var: Option<Var>,
}

impl Slot {
    fn end(&self) -> i64 {
        self.offset + self.bytes as i64
    }

    /// Whether the slot is *guarded*: left in memory for a reason that
    /// flow-sensitive forwarding answers (its address escapes, the frame
    /// is aliased, another slot overlaps it), in the function's own
    /// frame. Its stores are written through, and its loads read the
    /// variable where `available_loads` says it holds memory's bytes.
    fn guarded(&self) -> bool {
        self.end() <= 0
            && !self.in_save_area
            && matches!(
                self.left,
                Some(Left::Aliased | Left::Escaped | Left::Overlapping | Left::PartlyOverlapping)
            )
    }
}

/// The bottom of the registers saved by `push` at the top of the frame:
/// the lowest `L` such that 8-byte stores addressed by `rsp` itself write
/// each of `-8, -16, ..., L` (0 when there is none). A `push` lower in
/// the frame (a stack argument) is not a boundary of an object.
fn saved_registers_bottom(facts: &Facts) -> i64 {
    let mut pushed: Vec<i64> = facts
        .accesses
        .iter()
        .filter(|a| a.by_rsp && a.stored.is_some() && a.bytes == 8)
        .map(|a| a.offset)
        .collect();
    pushed.sort_unstable();
    pushed.dedup();
    let mut bottom = 0;
    while pushed.binary_search(&(bottom - 8)).is_ok() {
        bottom -= 8;
    }
    bottom
}

/// Decides each slot's fate from the facts (the rules of the module
/// documentation); `slots` sorted by (offset, width), unique. Returns
/// the objects lent to each call: (the call's number, start, end).
fn decide(slots: &mut [Slot], facts: &Facts, lost: bool) -> Vec<(usize, i64, i64)> {
    let whole = if lost {
        Some(Left::Lost)
    } else if facts.aliased {
        Some(Left::Aliased)
    } else {
        None
    };
    if let Some(why) = whole {
        // Where the frame is aliased, a pointer that left the function
        // may reach any byte of it if any frame address escapes.
        let exposed = facts.leaks || !facts.escapes.is_empty();
        for s in slots.iter_mut() {
            s.left = Some(why);
            s.exposed = exposed;
            s.lent = !facts.lent.is_empty();
        }
        // Lent into an aliased frame, a pointer may reach any byte of it.
        return (facts.lent.iter())
            .map(|&(call, _)| (call, i64::MIN, i64::MAX))
            .collect();
    }
    // Overlaps: `slots` sorted by start, so each slot's overlaps are the
    // slots after it that start before it ends.
    for k in 0..slots.len() {
        for j in k + 1..slots.len() {
            if slots[j].offset >= slots[k].end() {
                break;
            }
            let (a, b) = (slots[k], slots[j]);
            let nested = (a.offset <= b.offset && b.end() <= a.end())
                || (b.offset <= a.offset && a.end() <= b.end());
            let why = if nested {
                Left::Overlapping
            } else {
                Left::PartlyOverlapping
            };
            for s in [k, j] {
                slots[s].left = Some(slots[s].left.map_or(why, |w| w.max(why)));
            }
        }
    }
    // Escaped (and lent) objects: from each escaped (lent) address to
    // the next boundary, escaped or lent.
    let mut bounds: Vec<i64> = facts.escapes.clone();
    bounds.extend(facts.lent.iter().map(|l| l.1));
    bounds.push(saved_registers_bottom(facts));
    bounds.push(0);
    bounds.sort_unstable();
    bounds.dedup();
    let end = |c: i64| {
        bounds[bounds.partition_point(|&b| b <= c)..]
            .first()
            .copied()
            .unwrap_or(0)
    };
    let objects = |starts: &mut dyn Iterator<Item = i64>| {
        let mut objects: Vec<(i64, i64)> = starts.filter(|&c| c < 0).map(|c| (c, end(c))).collect();
        objects.sort_unstable();
        objects.dedup();
        objects
    };
    let escaped = objects(&mut facts.escapes.iter().copied());
    let lent = objects(&mut facts.lent.iter().map(|l| l.1));
    let within = |objects: &[(i64, i64)], s: &Slot| {
        objects
            .iter()
            .any(|&(lo, hi)| lo < s.end() && s.offset < hi)
    };
    for s in slots.iter_mut() {
        s.exposed = within(&escaped, s);
        s.lent = within(&lent, s);
        if s.end() > 0 {
            s.left = Some(Left::Incoming);
        } else if s.left.is_none() && (s.exposed || s.lent) {
            s.left = Some(Left::Escaped);
        }
        s.through = s.left.is_none()
            && facts
                .windows
                .iter()
                .any(|&w| w < s.end() && s.offset < w + CALL_ARGUMENT_WINDOW);
    }
    (facts.lent.iter())
        .filter(|l| l.1 < 0)
        .map(|&(call, c)| (call, c, end(c)))
        .collect()
}

/// The words of the caller's frame that a function loads, from its
/// frame's `facts` (the function lifted with the semantics, not yet in
/// SSA form): the offsets from the entry `rsp` of 8 and up (the stack
/// arguments; 0 is the return address), sorted and distinct, each
/// rounded down to its word; none when the offset of `rsp` is lost
/// somewhere.
fn stack_arguments(facts: &Facts, frame: &Frame) -> Vec<i64> {
    if frame.lost().is_some() {
        return Vec::new();
    }
    let mut words: Vec<i64> = (facts.accesses.iter())
        .filter(|a| a.stored.is_none() && a.offset >= 8)
        .map(|a| a.offset & !7)
        .collect();
    words.sort_unstable();
    words.dedup();
    words
}

/// The register save area a System V variadic function's prologue
/// fills for `va_arg` (gcc's and clang's `va_start`): the argument
/// registers `rdi`..`r9` from some position `j` on, at least `r8` and
/// `r9`, each stored with its entry value (before any write to it) by an
/// 8-byte store of the entry block at the frame offset `B + 8k` (`k` its
/// position, `B` the area's start), and some of `xmm0`-`xmm7` stored by
/// a `movaps` or `movups` at `B + 48 + 16m` (without them, two spills
/// of `r8` and `r9` side by side would look the same: libc's
/// `clntudp_call` has 7 named parameters). Or, when the function only
/// takes integers through `va_arg` (gcc then saves no vector register
/// and only the integer registers it may read: `sem_open` saves `rdx`
/// and `rcx`), the registers from `j` to the last one saved, contiguous
/// at `B + 8k`, when the function also stores the addresses `va_start`
/// puts in its `va_list`: the area's start `B` (`reg_save_area`) and the
/// entry `rsp` plus 8, the caller's stack arguments
/// (`overflow_arg_area`), which no spill of named parameters stores.
/// Returns the parameters of `f` (lifted with the semantics, not yet in
/// SSA form) so saved; none when there is no such area or the offset of
/// `rsp` is lost.
/// (`frame`: [`frame::analyse_for_slots`] of `f`.)
pub(crate) fn va_save_area_in(f: &Function, frame: &Frame) -> Vec<Var> {
    save_area(f, frame)
        .map(|(saved, _)| saved.clone())
        .unwrap_or_default()
}

/// [`va_save_area_in`], the frame analysed here.
#[cfg(test)]
pub(crate) fn va_save_area(f: &Function, origins: &Origins) -> Vec<Var> {
    va_save_area_in(f, &frame::analyse_for_slots(f, origins))
}

/// [`va_save_area_in`]'s answer: the parameters saved and
/// the area's start `B` (its 176 bytes: six words, eight vector
/// registers), or `None`; found once per frame analysis.
fn save_area<'a>(f: &Function, frame: &'a frame::Frame) -> Option<&'a (Vec<Var>, i64)> {
    frame.save_area(|| find_save_area(f, frame))
}

/// [`save_area`], found.
fn find_save_area(f: &Function, frame: &frame::Frame) -> Option<(Vec<Var>, i64)> {
    const INT: [&str; 6] = ["rdi", "rsi", "rdx", "rcx", "r8", "r9"];
    if frame.lost().is_some() || f.layout().is_empty() {
        return None;
    }
    const VEC: [&str; 8] = [
        "xmm0", "xmm1", "xmm2", "xmm3", "xmm4", "xmm5", "xmm6", "xmm7",
    ];
    // The first parameter of each name, in one pass over the parameters.
    let mut ints: [Option<Var>; 6] = [None; 6];
    let mut vecs: [Option<Var>; 8] = [None; 8];
    for &p in f.params() {
        let name = f.base_name(p);
        let slot = match INT.iter().position(|&n| n == name) {
            Some(k) => &mut ints[k],
            None => match VEC.iter().position(|&n| n == name) {
                Some(m) => &mut vecs[m],
                None => continue,
            },
        };
        slot.get_or_insert(p);
    }
    let prologue = prologue(f);
    // No integer argument register stored in the prologue's blocks: no
    // area (the walk below would find no `int_at`), without walking.
    let stores_an_argument = f.layout().iter().filter(|b| prologue[b.index()]).any(|&b| {
        f.block_insts(b).iter().any(|&i| match f.inst(i) {
            InstData::Op { op, args, .. } => {
                let args = args.as_slice(f);
                f.opcode(*op) == Some(Opcode::I64Store)
                    && args.len() > 1
                    && matches!(args[1], Operand::Var(v) if ints.contains(&Some(v)))
            }
            _ => false,
        })
    });
    if !stores_an_argument {
        return None;
    }
    let position = |set: &[Option<Var>], v: Operand| match v {
        Operand::Var(v) => set.iter().position(|&p| p == Some(v)),
        _ => None,
    };
    // The integer registers' stores, in the prologue's blocks only.
    let mut int_at: [Option<i64>; 6] = [None; 6];
    // Which of `ints` the prologue's blocks walked so far write.
    let mut written = [false; 6];
    for &b in f.layout() {
        if !frame.reached(b) || !prologue[b.index()] {
            continue;
        }
        frame.walk(f, b, |point, state| {
            let Some(i) = point else { return };
            if let InstData::Op { op, args, .. } = f.inst(i) {
                let args = args.as_slice(f);
                if f.opcode(*op) == Some(Opcode::I64Store) {
                    if let (Value::Frame(c), Some(k)) =
                        (value(args[0], state), position(&ints, args[1]))
                    {
                        if !written[k] && int_at[k].is_none() {
                            int_at[k] = Some(c);
                        }
                    }
                }
            }
            f.for_each_def(i, |v| {
                if let Some(k) = ints.iter().position(|&p| p == Some(v)) {
                    written[k] = true;
                }
            });
        });
    }
    let last = int_at.iter().rposition(|c| c.is_some())?;
    let base = int_at[last].map(|c| c - 8 * last as i64)?;
    let mut j = last + 1;
    while j > 0 && int_at[j - 1] == Some(base + 8 * (j as i64 - 1)) {
        j -= 1;
    }
    // Neither a full area (`r9` saved, and `r8`) nor a `va_start` (a
    // register before the first saved one) can follow: no more walking.
    if !(last == 5 && j <= 4) && j == 0 {
        return None;
    }
    let mut vec_at: [Option<i64>; 8] = [None; 8];
    // The frame addresses stored to memory (a `va_list`'s pointers).
    let mut addresses: Vec<i64> = Vec::new();
    // Only stores and opaque operations (the vector stores) are looked
    // at: the walk visits no other.
    let wanted = |i: Inst| match f.inst(i) {
        InstData::Op { op, .. } => matches!(
            frame.class(*op),
            frame::Class::Memory | frame::Class::Opaque
        ),
        _ => false,
    };
    for &b in f.layout() {
        if !frame.reached(b) {
            continue;
        }
        frame.walk_facts(f, b, wanted, |point, state| {
            let Some(i) = point else { return };
            if let InstData::Op { op, args, imms, .. } = f.inst(i) {
                let (args, imms) = (args.as_slice(f), imms.as_slice(f));
                let code = f.opcode(*op);
                if code == Some(Opcode::I64Store) {
                    if let Value::Frame(c) = value(args[1], state) {
                        addresses.push(c);
                    }
                } else if code.is_none()
                    && matches!(f.operator_name(*op), "x86.movaps.w" | "x86.movups.w")
                    && args.len() == 2
                {
                    if let (Value::Frame(c), Some(m), Some(&d)) =
                        (value(args[0], state), position(&vecs, args[1]), imms.get(1))
                    {
                        vec_at[m].get_or_insert(c + d);
                    }
                }
            }
        });
    }
    let saved_vecs: Vec<Var> = (0..8)
        .filter(|&m| vec_at[m] == Some(base + 48 + 16 * m as i64))
        .filter_map(|m| vecs[m])
        .collect();
    let full = last == 5 && j <= 4 && !saved_vecs.is_empty();
    let va_start = j > 0 && addresses.contains(&base) && addresses.contains(&8);
    if !full && !va_start {
        return None;
    }
    let mut out: Vec<Var> = ints[j..=last].iter().flatten().copied().collect();
    out.extend(saved_vecs);
    Some((out, base))
}

/// The blocks of `f`'s prologue, by index: the entry block, and each
/// later block of the layout that only blocks of the prologue before it
/// branch to (gcc saves the argument registers in the entry block;
/// clang -O0 tests `al` first, saves the vector registers in a block of
/// their own and the integer ones where both paths meet). A register
/// not written in the prologue holds its entry value all through it.
fn prologue(f: &Function) -> Vec<bool> {
    let n = f.num_blocks();
    // Per block: its incoming edges, and those from a block of the
    // prologue earlier in the layout (counted when that block is
    // decided; an edge from a later block, or from itself, is never one).
    let mut preds = vec![0u32; n];
    for &b in f.layout() {
        f.for_each_succ(b, |s| preds[s.index()] += 1);
    }
    let mut from_inside = vec![0u32; n];
    let mut decided = vec![false; n];
    let mut inside = vec![false; n];
    for (k, &b) in f.layout().iter().enumerate() {
        let x = b.index();
        decided[x] = true;
        inside[x] = k == 0 || (preds[x] > 0 && from_inside[x] == preds[x]);
        if inside[x] {
            f.for_each_succ(b, |s| {
                if !decided[s.index()] {
                    from_inside[s.index()] += 1;
                }
            });
        }
    }
    inside
}

/// Turns the frame slots of `f` (lifted with the semantics, not yet in
/// SSA form) whose address does not escape into variables, in place;
/// `origins` follow the instructions it rewrites. What it promoted and
/// what it left, by reason.
///
/// ```
/// let src = "operator i64.sub pure\noperator i64.store trap write\noperator i64.load trap read\n\n\
///            function f(rsp, rbx) -> i64 {\ne:\n    rsp = i64.sub(rsp, 8)\n    i64.store[0, 0, 0](rsp, rbx)\n    \
///            rbx = 5\n    rbx = i64.load[0, 0, 0](rsp)\n    ret rbx\n}\n";
/// let mut f = ssakit::text::parse_module(src).unwrap().functions.remove(0);
/// let p = ssakit_x86::slots::promote(&mut f, &mut ssakit_x86::lift::Origins::none());
/// assert_eq!((p.slots, p.promoted), (1, 2));
/// let text = ssakit::text::print_function(&f);
/// assert!(text.contains("s8 = rbx\n") && text.contains("rbx = s8\n"), "{text}");
/// ```
pub fn promote(f: &mut Function, origins: &mut Origins) -> Promotion {
    promote_lending(f, origins, &Lent::default())
}

/// [`promote`], `lent` saying which argument registers each direct
/// call's callee does not capture ([`crate::capture`]).
pub(crate) fn promote_lending(f: &mut Function, origins: &mut Origins, lent: &Lent) -> Promotion {
    let frame = frame::analyse_for_slots(f, origins);
    promote_finding_arguments(f, origins, &frame, lent).0
}

/// [`promote_lending`] with `f`'s frame analysed already
/// ([`frame::analyse_for_slots`] of `f` as it is: signature inference reads the
/// save area from the same analysis), and the stack arguments `f` loads
/// as it was before (the words of its caller's frame, from the same
/// walk; see [`stack_arguments`]): signature inference asks both.
pub(crate) fn promote_finding_arguments(
    f: &mut Function,
    origins: &mut Origins,
    frame: &Frame,
    lent: &Lent,
) -> (Promotion, Vec<i64>) {
    let rsp = f
        .params()
        .iter()
        .copied()
        .find(|&p| f.base_name(p) == "rsp");
    let facts = if lent.is_empty() {
        find_facts(f, frame, rsp, &|_| LocSet::EMPTY)
    } else {
        find_facts(f, frame, rsp, &|i| {
            lent.at(origins.inst(i).map(|o| o.address))
        })
    };
    let arguments = stack_arguments(&facts, frame);
    let mut out = Promotion {
        lost: frame.lost(),
        ..Default::default()
    };
    let mut slots: Vec<Slot> = facts
        .accesses
        .iter()
        .map(|a| Slot {
            offset: a.offset,
            bytes: a.bytes,
            left: None,
            exposed: false,
            lent: false,
            in_save_area: false,
            through: false,
            var: None,
        })
        .collect();
    slots.sort_unstable_by_key(|s| (s.offset, s.bytes));
    slots.dedup_by_key(|s| (s.offset, s.bytes));
    let lent_objects = decide(&mut slots, &facts, out.lost.is_some());
    // A variadic function's register save area stays memory: what
    // `va_arg` reads there is an unnamed argument, which the signatures
    // tell from a named one by its being read only through memory.
    if let Some(&(_, base)) = save_area(f, frame) {
        for s in &mut slots {
            s.in_save_area = base < s.end() && s.offset < base + 176;
        }
    }
    // Each variable's name written in one buffer (`new_var` copies it).
    let mut name = String::new();
    for k in 0..slots.len() {
        let s = slots[k];
        if s.left.is_none() || s.guarded() {
            let ty = if s.bytes == 8 { Type::I64 } else { Type::I32 };
            let shared = (k > 0 && slots[k - 1].offset == s.offset)
                || slots.get(k + 1).is_some_and(|t| t.offset == s.offset);
            name.clear();
            let _ = match shared {
                true => write!(name, "s{}_{}", -s.offset, s.bytes),
                false => write!(name, "s{}", -s.offset),
            };
            slots[k].var = Some(f.new_var(&name, ty));
            out.slots += 1;
        }
    }
    let slot_of: Vec<usize> = facts
        .accesses
        .iter()
        .map(|a| slots.partition_point(|s| (s.offset, s.bytes) < (a.offset, a.bytes)))
        .collect();
    let available = available_loads(f, &facts, &slots, &slot_of, &lent_objects);
    // Stores written through and loads left in memory, rebuilt after:
    // each is followed by the definition of its slot's variable.
    let mut after: Vec<(Inst, InstData)> = Vec::new();
    for (k, a) in facts.accesses.iter().enumerate() {
        let s = slots[slot_of[k]];
        let Some(var) = s.var else {
            out.count_left(s.left.expect("a slot not promoted has a reason"));
            continue;
        };
        match a.stored {
            None => {
                let dst = f.def(a.inst).expect("a load defines its result");
                if s.guarded() && available[k].is_none() {
                    // Left in memory, and the variable refreshed from it.
                    out.count_left(s.left.expect("a guarded slot has a reason"));
                    let src = Operand::Var(dst);
                    after.push((a.inst, InstData::Copy { dst: var, src }));
                } else if let Some(t) = available[k].filter(|&t| t != slot_of[k]) {
                    // Bytes of a wider slot holding them: extracted.
                    out.promoted += 1;
                    let mut ops = extract(f, slots[t], s, dst).into_iter();
                    f.set_inst(a.inst, ops.next().expect("one operation at least"));
                    after.extend(ops.map(|d| (a.inst, d)));
                    let src = Operand::Var(dst);
                    after.push((a.inst, InstData::Copy { dst: var, src }));
                } else {
                    out.promoted += 1;
                    let src = Operand::Var(var);
                    f.set_inst(a.inst, InstData::Copy { dst, src });
                }
            }
            Some(v) => {
                out.promoted += 1;
                let data = define(f, var, a.bytes, v);
                if s.through || s.guarded() {
                    out.written_through += 1;
                    after.push((a.inst, data));
                } else {
                    f.set_inst(a.inst, data);
                }
            }
        }
    }
    if !after.is_empty() {
        write_through(f, origins, &facts, after);
    }
    (out, arguments)
}

/// For each access of `facts` (by index), when it is a load of a
/// guarded slot whose variable holds the bytes memory holds there on
/// every path from the entry (an *available* load, forwarded from the
/// variable), that slot (its index in `slots`); or else, when a guarded
/// slot containing it is available, that one (the load is extracted
/// from its variable: a 4-byte `here` stored whole and read by its 1-,
/// 1- and 2-byte fields); `slot_of` gives each access's slot.
///
/// A must problem, forward, one bit per guarded slot: a store of the
/// slot or a load of it (which refreshes the variable) makes it
/// available; a store of another slot sharing one of its bytes, or a
/// clobber, makes it unavailable; at a join, available on every
/// incoming path. Solved from "all available" everywhere but at the
/// entry (nothing available), rounds in layout order until no block's
/// entry set shrinks. `lent` gives the objects lent to each call
/// (the call's number, start, end), which it may write.
fn available_loads(
    f: &Function,
    facts: &Facts,
    slots: &[Slot],
    slot_of: &[usize],
    lent: &[(usize, i64, i64)],
) -> Vec<Option<usize>> {
    let mut out = vec![None; facts.accesses.len()];
    let mut bit = vec![usize::MAX; slots.len()];
    let mut guarded = 0;
    for (k, s) in slots.iter().enumerate() {
        if s.guarded() {
            bit[k] = guarded;
            guarded += 1;
        }
    }
    if guarded == 0 {
        return out;
    }
    // The guarded slots sharing a byte with each slot.
    let mut overlaps: Vec<Vec<usize>> = vec![Vec::new(); slots.len()];
    for k in 0..slots.len() {
        for j in k + 1..slots.len() {
            if slots[j].offset >= slots[k].end() {
                break;
            }
            overlaps[k].push(j);
            overlaps[j].push(k);
        }
    }
    // The guarded slots containing each slot (wider, holding its bytes).
    let containers: Vec<Vec<usize>> = (0..slots.len())
        .map(|k| {
            let s = slots[k];
            overlaps[k]
                .iter()
                .copied()
                .filter(|&t| {
                    bit[t] != usize::MAX && slots[t].offset <= s.offset && s.end() <= slots[t].end()
                })
                .collect()
        })
        .collect();
    let mut events: Vec<(usize, usize)> = vec![(0, 0); f.num_blocks()];
    let mut k = 0;
    while k < facts.events.len() {
        let b = facts.events[k].0;
        let start = k;
        while k < facts.events.len() && facts.events[k].0 == b {
            k += 1;
        }
        events[b.index()] = (start, k);
    }
    let words = guarded.div_ceil(64);
    // What a pointer that left the function may reach; what each call
    // lent an object may reach besides (by the call's number; none for
    // the others).
    let mut exposed = vec![0u64; words];
    for (k, s) in slots.iter().enumerate() {
        if s.exposed && bit[k] != usize::MAX {
            exposed[bit[k] / 64] |= 1 << (bit[k] % 64);
        }
    }
    let mut called: Vec<Vec<u64>> = vec![Vec::new(); facts.calls];
    for &(call, lo, hi) in lent {
        let mask = &mut called[call];
        if mask.is_empty() {
            *mask = exposed.clone();
        }
        for (k, s) in slots.iter().enumerate() {
            if bit[k] != usize::MAX && lo < s.end() && s.offset < hi {
                mask[bit[k] / 64] |= 1 << (bit[k] % 64);
            }
        }
    }
    let clear = |set: &mut [u64], s: usize| {
        if bit[s] != usize::MAX {
            set[bit[s] / 64] &= !(1 << (bit[s] % 64));
        }
    };
    let is_set = |set: &[u64], s: usize| set[bit[s] / 64] & (1 << (bit[s] % 64)) != 0;
    let transfer = |b: Block, set: &mut [u64], out: &mut [Option<usize>]| {
        let (lo, hi) = events[b.index()];
        for &(_, e) in &facts.events[lo..hi] {
            let k = match e {
                Event::Wild => {
                    set.fill(0);
                    continue;
                }
                Event::Exposed | Event::Call(_) => {
                    let mask = match e {
                        Event::Call(c) if !called[c].is_empty() => &called[c],
                        _ => &exposed,
                    };
                    for (w, m) in set.iter_mut().zip(mask) {
                        *w &= !m;
                    }
                    continue;
                }
                Event::Access(k) => k,
            };
            let s = slot_of[k];
            if facts.accesses[k].stored.is_some() {
                for &j in &overlaps[s] {
                    clear(set, j);
                }
            } else if bit[s] != usize::MAX {
                out[k] = if is_set(set, s) {
                    Some(s)
                } else {
                    containers[s].iter().copied().find(|&t| is_set(set, t))
                };
            }
            if bit[s] != usize::MAX {
                set[bit[s] / 64] |= 1 << (bit[s] % 64);
            }
        }
    };
    let mut entry = vec![u64::MAX; words * f.num_blocks()];
    let e = f.entry().index();
    entry[e * words..(e + 1) * words].fill(0);
    let mut set = vec![0u64; words];
    let mut changed = true;
    while changed {
        changed = false;
        for &b in f.layout() {
            set.copy_from_slice(&entry[b.index() * words..(b.index() + 1) * words]);
            transfer(b, &mut set, &mut out);
            f.for_each_succ(b, |s| {
                for (w, &x) in entry[s.index() * words..(s.index() + 1) * words]
                    .iter_mut()
                    .zip(&set)
                {
                    if *w & x != *w {
                        *w &= x;
                        changed = true;
                    }
                }
            });
        }
    }
    // The last round changed nothing: `out` holds its answers.
    out
}

/// `var = v` for a store of `bytes` bytes of `v`: the narrow ones keep
/// their low bits, as the load that reads them back zero-extends.
fn define(f: &mut Function, var: Var, bytes: u8, v: Operand) -> InstData {
    let mask = match bytes {
        1 => 0xff,
        2 => 0xffff,
        _ => return InstData::Copy { dst: var, src: v },
    };
    if let Operand::Const(k) = v {
        return InstData::Copy {
            dst: var,
            src: Operand::Const(k & mask),
        };
    }
    let op = f
        .operator("i32.and", Effects::PURE)
        .expect("i32.and is pure");
    let imms = f.list(&[]);
    let args = f.list(&[v, Operand::Const(mask)]);
    let results = f.list(&[var]);
    InstData::Op {
        op,
        imms,
        args,
        results,
    }
}

/// The operations computing `dst`, the bytes of slot `s` (1, 2 or 4),
/// from the variable of `t`, a slot containing them: shifted right by
/// their distance from `t`'s start (little-endian), truncated to `i32`,
/// masked to their width.
fn extract(f: &mut Function, t: Slot, s: Slot, dst: Var) -> Vec<InstData> {
    let src = t.var.expect("an available slot has its variable");
    let shift = 8 * (s.offset - t.offset);
    let op = |f: &mut Function, name: &str, args: &[Operand], dst: Var| {
        let op = f.operator(name, Effects::PURE).expect("a pure operation");
        let imms = f.list(&[]);
        let args = f.list(args);
        let results = f.list(&[dst]);
        InstData::Op {
            op,
            imms,
            args,
            results,
        }
    };
    let mut out = Vec::new();
    let mut cur = Operand::Var(src);
    if t.bytes == 8 {
        if shift > 0 {
            let wide = f.new_var("sx64", Type::I64);
            out.push(op(f, "i64.shr_u", &[cur, Operand::Const(shift)], wide));
            cur = Operand::Var(wide);
        }
        let narrow = if s.bytes == 4 {
            dst
        } else {
            f.new_var("sx32", Type::I32)
        };
        out.push(op(f, "i32.wrap_i64", &[cur], narrow));
        cur = Operand::Var(narrow);
    } else if shift > 0 {
        let narrow = if s.bytes == 4 {
            dst
        } else {
            f.new_var("sx32", Type::I32)
        };
        out.push(op(f, "i32.shr_u", &[cur, Operand::Const(shift)], narrow));
        cur = Operand::Var(narrow);
    }
    if s.bytes < 4 {
        let mask = (1i64 << (8 * s.bytes)) - 1;
        out.push(op(f, "i32.and", &[cur, Operand::Const(mask)], dst));
    } else if cur != Operand::Var(dst) {
        out.push(InstData::Copy { dst, src: cur });
    }
    out
}

/// Rebuilds the blocks of the stores in `after`, each store followed by
/// its variable's definition.
fn write_through(
    f: &mut Function,
    origins: &mut Origins,
    facts: &Facts,
    mut after: Vec<(Inst, InstData)>,
) {
    // Stable: the operations after one instruction keep their order.
    after.sort_by_key(|(i, _)| *i);
    let mut blocks: Vec<Block> = facts
        .accesses
        .iter()
        .filter(|a| after.binary_search_by_key(&a.inst, |(i, _)| *i).is_ok())
        .map(|a| a.block)
        .collect();
    blocks.sort_unstable();
    blocks.dedup();
    for b in blocks {
        let old = f.block_insts(b).to_vec();
        f.retain_insts(b, |_, _| false);
        for i in old {
            let data = *f.inst(i);
            let n = f.push_inst(b, data);
            origins.moved(i, n);
            let from = after.partition_point(|(j, _)| *j < i);
            for (_, d) in after[from..].iter().take_while(|(j, _)| *j == i) {
                let m = f.push_inst(b, *d);
                origins.moved(i, m);
            }
        }
    }
}

/// Whether `name` is the name of a slot variable: `s` and digits (the
/// bytes below the entry `rsp`; `-` and digits above it, the caller's
/// frame: `s-8`), then `_` and the width when slots of two widths start
/// there (`s16_4`, a 4-byte slot at `[rsp_entry - 16]` beside an 8-byte
/// one).
///
/// ```
/// assert!(ssakit_x86::slots::is_slot_name("s16") && ssakit_x86::slots::is_slot_name("s16_4"));
/// assert!(ssakit_x86::slots::is_slot_name("s-8") && ssakit_x86::slots::is_slot_name("s-8_4"));
/// assert!(!ssakit_x86::slots::is_slot_name("sel") && !ssakit_x86::slots::is_slot_name("s"));
/// assert!(!ssakit_x86::slots::is_slot_name("s16_") && !ssakit_x86::slots::is_slot_name("s-"));
/// ```
pub fn is_slot_name(name: &str) -> bool {
    let digits = |d: &str| !d.is_empty() && d.bytes().all(|c| c.is_ascii_digit());
    name.strip_prefix('s')
        .map(|rest| rest.strip_prefix('-').unwrap_or(rest))
        .is_some_and(|rest| match rest.split_once('_') {
            Some((n, w)) => digits(n) && digits(w),
            None => digits(rest),
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `sem_open(name, oflag, ...)` by gcc: only `rdx` and `rcx` saved
    /// (no vector register), then `va_start` stores the area's start and
    /// the entry `rsp` plus 8 in the `va_list`.
    const PARTIAL: &str = "operator i64.sub pure\noperator i64.add pure\noperator i64.store trap write\n\n\
        function f(rsp, rdi, rsi, rdx, rcx) -> i64 {\ne:\n    rsp = i64.sub(rsp, 96)\n    \
        q0 = i64.add(rsp, 16)\n    i64.store[0, 0, 0](q0, rdx)\n    q0 = i64.add(rsp, 24)\n    \
        i64.store[0, 0, 0](q0, rcx)\n    q0 = i64.add(rsp, 104)\n    q1 = i64.add(rsp, 64)\n    \
        i64.store[0, 0, 0](q1, q0)\n    q1 = i64.add(rsp, 72)\n    i64.store[0, 0, 0](q1, rsp)\n    ret rdi\n}\n";

    #[test]
    fn a_partial_save_area_is_found_by_its_va_start() {
        let f = ssakit::text::parse_module(PARTIAL)
            .unwrap()
            .functions
            .remove(0);
        let area = va_save_area(&f, &Origins::none());
        let names: Vec<&str> = area.iter().map(|&v| f.base_name(v)).collect();
        assert_eq!(names, ["rdx", "rcx"]);
    }

    #[test]
    fn a_save_area_after_the_test_of_al_is_found() {
        // clang -O0's layout: `test al, al` first, the vector registers
        // saved in a block of their own, the integer ones where both
        // paths meet; a register written on one path (`rdx = 5`) no
        // longer holds its entry value there.
        let split = |v: &str| {
            PARTIAL
                .replace("rcx) -> i64 {", "rcx, al: bool) -> i64 {")
                .replace(
                    "rsp = i64.sub(rsp, 96)\n",
                    &format!(
                        "rsp = i64.sub(rsp, 96)\n    branch al, v, j\nv:\n{v}    jump j\nj:\n"
                    ),
                )
        };
        let names = |src: &str| {
            let f = ssakit::text::parse_module(src).unwrap().functions.remove(0);
            let area = va_save_area(&f, &Origins::none());
            area.iter()
                .map(|&v| f.base_name(v).to_string())
                .collect::<Vec<_>>()
        };
        assert_eq!(names(&split("")), ["rdx", "rcx"]);
        assert_eq!(names(&split("    rdx = 5\n")), ["rcx"]);
    }

    /// Promotes the one function of `src`: the promotion and the text.
    fn promoted(src: &str) -> (Promotion, String) {
        let ops = "operator i64.sub pure\noperator i64.add pure\noperator i64.store trap write\n\
                   operator i64.load trap read\noperator i32.store trap write\n\
                   operator i32.load8_u trap read\noperator i32.wrap_i64 pure\n\
                   operator i64.extend_i32_u pure\noperator x86.ext call\n\n";
        let mut f = ssakit::text::parse_module(&format!("{ops}{src}"))
            .unwrap()
            .functions
            .remove(0);
        let p = promote(&mut f, &mut Origins::none());
        (p, ssakit::text::print_function(&f))
    }

    #[test]
    fn an_escaped_slot_is_forwarded_between_the_points_that_may_write_it() {
        // `[rsp]` escapes to the opaque call: its store is written
        // through, the load before the call and the second one after it
        // are forwarded, the first one after it stays (and refreshes the
        // variable).
        let (p, text) = promoted(
            "function f(rsp, rdi, rax) -> i64 {\ne:\n    rsp = i64.sub(rsp, 16)\n    \
             i64.store[0, 0, 0](rsp, rdi)\n    q0 = i64.load[0, 0, 0](rsp)\n    \
             rax = x86.ext(rsp)\n    q1 = i64.load[0, 0, 0](rsp)\n    \
             q2 = i64.load[0, 0, 0](rsp)\n    rax = i64.add(q0, q1)\n    \
             rax = i64.add(rax, q2)\n    ret rax\n}\n",
        );
        assert_eq!((p.promoted, p.written_through), (3, 1), "{p:?}");
        assert_eq!(
            p.left[Left::ALL.iter().position(|&w| w == Left::Escaped).unwrap()],
            1
        );
        for line in [
            "s16 = rdi\n",
            "q0 = s16\n",
            "q1 = i64.load",
            "s16 = q1\n",
            "q2 = s16\n",
        ] {
            assert!(text.contains(line), "{line} in {text}");
        }
    }

    /// Promotes the one function of `src` with the callees' summary
    /// `lent`: the promotion and the text.
    fn promoted_lending(src: &str, lent: &Lent) -> (Promotion, String) {
        let ops = "operator i64.sub pure\noperator i64.store trap write\n\
                   operator i64.load trap read\n\n";
        let mut f = ssakit::text::parse_module(&format!("{ops}{src}"))
            .unwrap()
            .functions
            .remove(0);
        let p = promote_lending(&mut f, &mut Origins::none(), lent);
        (p, ssakit::text::print_function(&f))
    }

    #[test]
    fn a_slot_lent_to_a_nocapture_callee_is_written_by_that_call_only() {
        // `x = rdi; g(&x); h(rsi); *rsi = 5; return x + x`: after `g`
        // (which may write `x` through its argument) `x` is loaded; then
        // `h` and the store through `rsi` may write `x` only if `g` kept
        // its address (captured it).
        let src = "function f(rsp, rdi, rsi, rax) -> i64 {\ne:\n    rsp = i64.sub(rsp, 16)\n    \
                   i64.store[0, 0, 0](rsp, rdi)\n    rdi = rsp\n    rax = g(rdi, rsp)\n    \
                   q0 = i64.load[0, 0, 0](rsp)\n    rax = h(rsi, rsp)\n    \
                   i64.store[0, 0, 0](rsi, 5)\n    q1 = i64.load[0, 0, 0](rsp)\n    \
                   rax = i64.add(q0, q1)\n    ret rax\n}\n";
        let src = format!("operator i64.add pure\n{src}");
        let escaped =
            |p: &Promotion| p.left[Left::ALL.iter().position(|&w| w == Left::Escaped).unwrap()];
        // `g` captures (as any callee without a summary): both loads stay.
        let (p, text) = promoted_lending(&src, &Lent::default());
        assert_eq!((p.promoted, escaped(&p)), (1, 2), "{p:?} {text}");
        assert!(text.contains("q1 = i64.load"), "{text}");
        // `g` does not capture `rdi`: the second load reads the variable.
        let lent = Lent::everywhere(crate::regs::LocSet::of(&[crate::regs::Loc::RDI]));
        let (p, text) = promoted_lending(&src, &lent);
        assert_eq!((p.promoted, escaped(&p)), (2, 1), "{p:?} {text}");
        assert!(
            text.contains("q0 = i64.load") && text.contains("q1 = s16\n"),
            "{text}"
        );
    }

    #[test]
    fn a_field_of_a_wider_slot_is_extracted() {
        // `here`: stored as 4 bytes, its second byte read alone.
        let (p, text) = promoted(
            "function f(rsp, rdi, rax) -> i64 {\ne:\n    rsp = i64.sub(rsp, 16)\n    \
             d0: i32 = i32.wrap_i64(rdi)\n    i32.store[0, 0, 0](rsp, d0)\n    \
             q0 = i64.add(rsp, 1)\n    d1: i32 = i32.load8_u[0, 0, 0](q0)\n    \
             rax = i64.extend_i32_u(d1)\n    ret rax\n}\n",
        );
        assert_eq!((p.promoted, p.left.iter().sum::<usize>()), (2, 0), "{p:?}");
        assert!(
            text.contains("i32.shr_u(s16, 8)") && text.contains("= i32.and(sx32, 255)"),
            "{text}"
        );
    }

    #[test]
    fn a_slot_stale_on_one_path_is_loaded() {
        // The 4-byte store on one path changes half of the 8-byte slot:
        // where the paths meet its variable is not memory's bytes.
        let (p, text) = promoted(
            "function f(rsp, rdi, rsi, c: i32) -> i64 {\ne:\n    rsp = i64.sub(rsp, 16)\n    \
             i64.store[0, 0, 0](rsp, rdi)\n    branch c, a, j\na:\n    \
             d0: i32 = i32.wrap_i64(rsi)\n    i32.store[0, 0, 0](rsp, d0)\n    jump j\nj:\n    \
             q0 = i64.load[0, 0, 0](rsp)\n    ret q0\n}\n",
        );
        assert_eq!((p.promoted, p.written_through), (2, 2), "{p:?}");
        assert_eq!(
            p.left[Left::ALL
                .iter()
                .position(|&w| w == Left::Overlapping)
                .unwrap()],
            1
        );
        assert!(text.contains("q0 = i64.load"), "{text}");
    }

    #[test]
    fn two_spills_without_va_start_are_no_save_area() {
        // The same without the store of the entry `rsp` plus 8.
        let src = PARTIAL.replace("q0 = i64.add(rsp, 104)", "q0 = i64.add(rsp, 112)");
        let f = ssakit::text::parse_module(&src)
            .unwrap()
            .functions
            .remove(0);
        assert!(va_save_area(&f, &Origins::none()).is_empty());
    }
}
