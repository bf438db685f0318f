//! Stack pointer tracking: the offset of `rsp` (and of `rbp` when it is a
//! frame pointer) from the value `rsp` had at the function's entry, at
//! every program point of a function lifted with the
//! [semantics](crate::sem) (section 13.8 of the chapter, "En binarios";
//! Ghidra's heritage of the stack space and Van Emmerik's "Static Single
//! Assignment for Decompilation" start from the same offsets): what
//! [`slots`](crate::slots) needs to turn the frame's memory into the
//! chapter's variables.
//!
//! With the semantics, `push`, `pop`, `sub rsp, 16`, `leave` and the
//! return address of a `call` are arithmetic on the variable `rsp`
//! (`rsp = i64.sub(rsp, 8)`), so the offsets are a forward data-flow
//! problem over the lifted, not yet SSA, function: a constant
//! propagation whose values say what a variable holds relative to the
//! entry `rsp`. The lattice of one variable (`Value`):
//!
//! ```text
//!            Lost                  a frame address at an unknown offset
//!          /      \                (or maybe one)
//!     Frame(c)    Other            entry rsp + c   |  not a frame address
//!          \      /  |
//!           \  Int(k)                              |  the integer k
//!            \   |
//!             Unset                no definition reaches (undef)
//! ```
//!
//! `Frame(c) + Int(k)` is `Frame(c + k)`, `Frame(c) - Frame(d)` the
//! integer `c - d`; any other operation of a frame address (`and rsp,
//! -16`, `sub rsp, rax`, a product) is `Lost`. At a join, equal values
//! stay and different offsets meet in `Lost`. Values are only ever
//! raised, and the lattice is three high, so the iteration in reverse
//! postorder ([`analyse`]) ends after a few rounds over the function (the
//! loop nesting depth plus two, in practice). Only the variables that
//! may hold a frame address (computed from `rsp`), and those whose exact
//! value such a computation reads (`sub rsp, rax` after `mov rax,
//! 4096`), are followed: the others (flags, vector registers, most
//! temporaries) never hold one, and the instructions that define none of
//! the followed variables are skipped.
//!
//! The offset of `rsp` is *kept* when it is a `Frame` value at every
//! reached point; where it is not, the function is reported lost
//! ([`Frame::lost`]) at the first such point, with why ([`LostReason`]):
//! a realignment (`and rsp, -32`), a variable adjustment (`alloca`:
//! `sub rsp, rax`), a replacement (`rsp` loaded, moved from another
//! register or written by an opaque instruction) or a join of different
//! offsets. What the slots of the frame become is [`slots`](crate::slots).
//!
//! ```
//! let elf = std::fs::read(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixture/fixture")).unwrap();
//! let bin = ssakit_x86::binary::Binary::parse(&elf).unwrap();
//! let info = bin.functions().iter().find(|f| f.name == "maxl").unwrap();
//! let opts = ssakit_x86::lift::Options { semantics: true };
//! let l = ssakit_x86::lift::lift_with(&bin, info, &opts);
//! let frame = ssakit_x86::frame::analyse(&l.func, &l.origins);
//! assert!(frame.lost().is_none());
//! let first = l.func.block_insts(l.func.entry())[0];
//! assert_eq!(frame.rsp_before(first), Some(0)); // rsp is the entry rsp
//! ```

use crate::lift::Origins;
use ssakit::entity::SecondaryMap;
use ssakit::ir::{Block, Function, Inst, InstData, Opcode, Operand, Operator, Type, Var};

/// The bytes above a call's `rsp + 8` where its callee may read its
/// stack arguments (16 of 8 bytes): the promoted slots there are written
/// through ([`crate::slots`]).
///
/// ```
/// assert_eq!(ssakit_x86::slots::CALL_ARGUMENT_WINDOW, 128);
/// ```
pub const CALL_ARGUMENT_WINDOW: i64 = 128;

/// What a variable holds, relative to the entry `rsp` (the lattice of
/// the module documentation).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Value {
    /// No definition reaches.
    Unset,
    /// The integer `k`.
    Int(i64),
    /// The entry `rsp` plus `c`.
    Frame(i64),
    /// Not a frame address (a parameter other than `rsp`, a loaded value,
    /// a call's result, a comparison).
    Other,
    /// Maybe a frame address, at an unknown offset.
    Lost,
}

impl Value {
    /// The least upper bound.
    fn join(self, o: Value) -> Value {
        use Value::*;
        match (self, o) {
            (Unset, x) | (x, Unset) => x,
            (a, b) if a == b => a,
            (Lost, _) | (_, Lost) | (Frame(_), _) | (_, Frame(_)) => Lost,
            _ => Other,
        }
    }

    /// Whether the value may be a frame address.
    pub(crate) fn may_be_frame(self) -> bool {
        matches!(self, Value::Frame(_) | Value::Lost)
    }
}

/// Why the offset of `rsp` is lost at a point.
///
/// ```
/// use ssakit_x86::frame::LostReason;
/// assert_eq!(LostReason::Realigned.name(), "realigned");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum LostReason {
    /// A realignment: `and rsp, -16` (or any operation other than adding
    /// or subtracting a constant).
    Realigned,
    /// An adjustment by a value that is not constant: `sub rsp, rax`
    /// (`alloca`, a variable-length array).
    Variable,
    /// `rsp` replaced by a value not computed from it: loaded (`pop
    /// rsp`), moved from another register, written by an opaque
    /// instruction.
    Replaced,
    /// Paths with different offsets meet.
    Join,
}

impl LostReason {
    /// Every reason, in the order of the reports.
    ///
    /// ```
    /// assert_eq!(ssakit_x86::frame::LostReason::ALL.len(), 4);
    /// ```
    pub const ALL: [LostReason; 4] = [
        LostReason::Realigned,
        LostReason::Variable,
        LostReason::Replaced,
        LostReason::Join,
    ];

    /// The name used in reports (`realigned`, `variable`, `replaced`,
    /// `join`).
    ///
    /// ```
    /// assert_eq!(ssakit_x86::frame::LostReason::Join.name(), "join");
    /// ```
    pub fn name(self) -> &'static str {
        match self {
            LostReason::Realigned => "realigned",
            LostReason::Variable => "variable",
            LostReason::Replaced => "replaced",
            LostReason::Join => "join",
        }
    }
}

/// Where and why the offset of `rsp` is first lost.
///
/// ```
/// let l = ssakit_x86::frame::Lost { address: Some(0x1130), reason: ssakit_x86::frame::LostReason::Variable };
/// assert_eq!(l.to_string(), "lost at 0x1130: variable");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Lost {
    /// The address of the instruction (or of the block, for a join);
    /// `None` at a point of no machine instruction.
    pub address: Option<u64>,
    /// Why.
    pub reason: LostReason,
}

impl std::fmt::Display for Lost {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self.address {
            Some(a) => write!(f, "lost at {a:#x}: {}", self.reason.name()),
            None => write!(f, "lost: {}", self.reason.name()),
        }
    }
}

/// The offsets of `rsp` and `rbp` at every point of one function
/// ([`analyse`]).
///
/// ```
/// # let elf = std::fs::read(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixture/fixture")).unwrap();
/// # let bin = ssakit_x86::binary::Binary::parse(&elf).unwrap();
/// let info = bin.functions().iter().find(|f| f.name == "main").unwrap();
/// let l = ssakit_x86::lift::lift_with(&bin, info, &ssakit_x86::lift::Options { semantics: true });
/// let frame: ssakit_x86::frame::Frame = ssakit_x86::frame::analyse(&l.func, &l.origins);
/// // main pushes five registers and subtracts 64 (-104); before its
/// // call of printf, `sub rsp, 8; push r14` (-120), then the call's
/// // return address (-128).
/// let lowest = l.func.layout().iter().flat_map(|&b| l.func.block_insts(b)).filter_map(|&i| frame.rsp_before(i)).min();
/// assert_eq!(lowest, Some(-128));
/// ```
///
/// # Invariants
///
/// `globals` are the relevant variables (those that may hold a frame
/// address, and those their values are computed from) some
/// block reads before it writes them (the non-local names of semi-pruned
/// SSA), `rsp` and `rbp` always among them, sorted; `entry` holds, for
/// each reached block, the value of each global at its start
/// (`globals.len()` values from `block.index() * globals.len()`, in
/// `globals`' order); an unreached block's values are all `Unset` and
/// `reached` is false. Any other relevant variable is written in a block
/// before it is read there, so its value at a block's start is never
/// asked; an irrelevant one only ever holds values that are no frame
/// address, and which of them is never asked. Keeping only the globals
/// makes the analysis cost blocks × globals instead of blocks ×
/// variables (the lifted code's temporaries are most of its variables,
/// and its flags and vector registers are irrelevant), and `steps` (the
/// instructions defining a relevant variable) are the only ones the
/// transfer function runs on.
#[derive(Clone, Debug)]
pub struct Frame {
    globals: Vec<Var>,
    /// The instructions [`step`] does not skip ([`Kept`]).
    steps: Vec<Inst>,
    steps_at: Vec<(u32, u32)>,
    /// The steps and the facts ([`Kept::walked`]).
    walked: Vec<(Inst, bool, bool)>,
    walked_at: Vec<(u32, u32)>,
    /// The number of facts among `walked` ([`Kept::facts`]).
    facts: usize,
    entry: Vec<Value>,
    /// A state of every variable for [`Frame::walk`] and
    /// [`Frame::walk_facts`], reused: the globals are loaded into it at
    /// each block's start, the other variables keep what the last walk
    /// left (never read before written).
    scratch: std::cell::RefCell<Vec<Value>>,
    reached: SecondaryMap<Block, bool>,
    rsp: Option<Var>,
    rbp: Option<Var>,
    /// What [`step`] does with each operator ([`classes`]).
    classes: SecondaryMap<Operator, Class>,
    rsp_before: SecondaryMap<Inst, Option<i64>>,
    rbp_before: SecondaryMap<Inst, Option<i64>>,
    /// Whether `rsp_before` and `rbp_before` were recorded
    /// ([`analyse_for_slots`] records neither).
    points: bool,
    lost: Option<Lost>,
    /// The variadic register save area found with this analysis (its
    /// saved parameters and start), once asked ([`crate::slots`]: the
    /// signatures and the promotion both ask).
    save_area: std::cell::OnceCell<Option<(Vec<Var>, i64)>>,
}

impl Frame {
    /// The offset of `rsp` from its entry value just before instruction
    /// `i`; `None` where it is lost (or `i` is unreached).
    ///
    /// ```
    /// # let elf = std::fs::read(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixture/fixture")).unwrap();
    /// # let bin = ssakit_x86::binary::Binary::parse(&elf).unwrap();
    /// # let info = bin.functions().iter().find(|f| f.name == "sum").unwrap();
    /// let l = ssakit_x86::lift::lift_with(&bin, info, &ssakit_x86::lift::Options { semantics: true });
    /// let frame = ssakit_x86::frame::analyse(&l.func, &l.origins);
    /// assert!(l.func.layout().iter().flat_map(|&b| l.func.block_insts(b)).all(|&i| frame.rsp_before(i) == Some(0)));
    /// ```
    pub fn rsp_before(&self, i: Inst) -> Option<i64> {
        debug_assert!(self.points, "offsets asked of an analysis without them");
        self.rsp_before[i]
    }

    /// The offset of `rbp` from the entry `rsp` just before instruction
    /// `i`, where `rbp` holds a frame address at a known offset (a frame
    /// pointer); `None` elsewhere.
    ///
    /// ```
    /// # let elf = std::fs::read(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixture/fixture")).unwrap();
    /// # let bin = ssakit_x86::binary::Binary::parse(&elf).unwrap();
    /// # let info = bin.functions().iter().find(|f| f.name == "sum").unwrap();
    /// let l = ssakit_x86::lift::lift_with(&bin, info, &ssakit_x86::lift::Options { semantics: true });
    /// let frame = ssakit_x86::frame::analyse(&l.func, &l.origins);
    /// let first = l.func.block_insts(l.func.entry())[0];
    /// assert_eq!(frame.rbp_before(first), None); // the caller's rbp
    /// ```
    pub fn rbp_before(&self, i: Inst) -> Option<i64> {
        debug_assert!(self.points, "offsets asked of an analysis without them");
        self.rbp_before[i]
    }

    /// Where and why the offset of `rsp` is first lost (the point of
    /// least address), or `None` when it is kept at every reached point.
    ///
    /// ```
    /// # let elf = std::fs::read(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixture/fixture")).unwrap();
    /// # let bin = ssakit_x86::binary::Binary::parse(&elf).unwrap();
    /// # let info = bin.functions().iter().find(|f| f.name == "sum").unwrap();
    /// let l = ssakit_x86::lift::lift_with(&bin, info, &ssakit_x86::lift::Options { semantics: true });
    /// assert_eq!(ssakit_x86::frame::analyse(&l.func, &l.origins).lost(), None);
    /// ```
    pub fn lost(&self) -> Option<Lost> {
        self.lost
    }

    /// Calls `visit` at every point of the reached block `b` with the
    /// values before it: `Some(i)` before each ordinary instruction, then
    /// `None` before the terminator.
    pub(crate) fn walk(
        &self,
        f: &Function,
        b: Block,
        mut visit: impl FnMut(Option<Inst>, &[Value]),
    ) {
        let mut state = self.scratch.borrow_mut();
        self.load(b, &mut state);
        let mut steps = self.steps_of(b).iter().peekable();
        for &i in f.block_insts(b) {
            visit(Some(i), &state);
            if steps.next_if_eq(&&i).is_some() {
                step(f, &self.classes, i, &mut state, self.rsp);
            }
        }
        visit(None, &state);
    }

    /// Calls `visit` at the facts of the reached block `b` (its memory
    /// accesses, opaque operations and calls) that `wanted` accepts, with
    /// the values before them (`Some(i)`), then `None` before the
    /// terminator. Only the facts and the steps are visited, not the
    /// other instructions ([`Kept::walked`]).
    pub(crate) fn walk_facts(
        &self,
        f: &Function,
        b: Block,
        wanted: impl Fn(Inst) -> bool,
        mut visit: impl FnMut(Option<Inst>, &[Value]),
    ) {
        let mut state = self.scratch.borrow_mut();
        self.load(b, &mut state);
        let (from, to) = self.walked_at[b.index()];
        for &(i, is_step, is_fact) in &self.walked[from as usize..to as usize] {
            if is_fact && wanted(i) {
                visit(Some(i), &state);
            }
            if is_step {
                step(f, &self.classes, i, &mut state, self.rsp);
            }
        }
        visit(None, &state);
    }

    /// The number of facts of all blocks, reached or not: a bound on
    /// the visits of [`Frame::walk_facts`] at an instruction.
    pub(crate) fn num_facts(&self) -> usize {
        self.facts
    }

    /// The instructions of block `b` that [`step`] does not skip.
    fn steps_of(&self, b: Block) -> &[Inst] {
        let (from, to) = self.steps_at[b.index()];
        &self.steps[from as usize..to as usize]
    }

    /// Sets the globals of `state` (a value per variable) to their values
    /// at the start of block `b`.
    fn load(&self, b: Block, state: &mut [Value]) {
        load(&self.globals, self.entry_state(b), state);
    }

    /// The value of the global `v` at the start of block `b`.
    fn entry_value(&self, b: Block, v: Var) -> Value {
        let k = self.globals.binary_search(&v).expect("a global variable");
        self.entry_state(b)[k]
    }

    /// The variadic register save area of the function analysed, by
    /// `find` the first time it is asked.
    pub(crate) fn save_area(
        &self,
        find: impl FnOnce() -> Option<(Vec<Var>, i64)>,
    ) -> Option<&(Vec<Var>, i64)> {
        self.save_area.get_or_init(find).as_ref()
    }

    /// What the operator `op` is to the transfer function ([`Class`]).
    pub(crate) fn class(&self, op: Operator) -> Class {
        self.classes[op]
    }

    /// Whether block `b` is reached from the entry.
    pub(crate) fn reached(&self, b: Block) -> bool {
        self.reached[b]
    }

    /// The globals' values at the start of block `b`, in `globals`' order.
    fn entry_state(&self, b: Block) -> &[Value] {
        let g = self.globals.len();
        &self.entry[b.index() * g..(b.index() + 1) * g]
    }
}

/// The value of operand `o` in `state`.
pub(crate) fn value(o: Operand, state: &[Value]) -> Value {
    match o {
        Operand::Var(v) => state[v.index()],
        Operand::Const(k) => Value::Int(k),
        _ => Value::Other,
    }
}

/// `a + b` or `a - b` in the lattice.
fn add_sub(a: Value, b: Value, sub: bool) -> Value {
    use Value::*;
    match (a, b) {
        (Unset, _) | (_, Unset) => Unset,
        (Frame(c), Int(k)) => Frame(if sub {
            c.wrapping_sub(k)
        } else {
            c.wrapping_add(k)
        }),
        (Int(k), Frame(c)) if !sub => Frame(c.wrapping_add(k)),
        (Frame(c), Frame(d)) if sub => Int(c.wrapping_sub(d)),
        (Int(a), Int(b)) => Int(if sub {
            a.wrapping_sub(b)
        } else {
            a.wrapping_add(b)
        }),
        (x, y) if x.may_be_frame() || y.may_be_frame() => Lost,
        _ => Other,
    }
}

/// What [`step`] does with an operator: the operation of the set it
/// names (`i64.add`, `i64.sub`, `select`, one that accesses memory, any
/// other), or none (an opaque operator).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Class {
    Add,
    Sub,
    Select,
    Memory,
    Compute,
    Opaque,
}

/// The [`Class`] of each operator of `f`, resolved once per analysis
/// (the transfer function asks at every instruction of every round).
fn classes(f: &Function) -> SecondaryMap<Operator, Class> {
    // Every operator's entry written, in order: allocated once.
    let n = f.symbols().operators().count();
    let mut out = SecondaryMap::with_capacity(n, Class::Opaque);
    for (op, data) in f.symbols().operators() {
        out[op] = match data.opcode {
            Some(Opcode::I64Add) => Class::Add,
            Some(Opcode::I64Sub) => Class::Sub,
            Some(Opcode::Select) => Class::Select,
            Some(code) if code.access().is_some() => Class::Memory,
            Some(_) => Class::Compute,
            None => Class::Opaque,
        };
    }
    out
}

/// The transfer function of instruction `i`: `state` after it
/// (`classes`: each operator's [`Class`]).
#[inline(always)]
fn step(
    f: &Function,
    classes: &SecondaryMap<Operator, Class>,
    i: Inst,
    state: &mut [Value],
    rsp: Option<Var>,
) {
    match f.inst(i) {
        InstData::Copy { dst, src } => state[dst.index()] = value(*src, state),
        InstData::Op {
            op, args, results, ..
        } => {
            let args = args.as_slice(f);
            let results = results.as_slice(f);
            let Some(&dst) = results.first() else {
                return;
            };
            let class = classes[*op];
            let v = match (class, args) {
                (Class::Add, &[a, b]) => add_sub(value(a, state), value(b, state), false),
                (Class::Sub, &[a, b]) => add_sub(value(a, state), value(b, state), true),
                (Class::Select, &[a, b, _]) => value(a, state).join(value(b, state)),
                (Class::Memory, _) => Value::Other,
                // An opaque instruction: a register it writes is not
                // computed from the frame, except `rsp`, which it moved
                // (`pushfq`) or replaced.
                (Class::Opaque, _) => Value::Other,
                _ if f.var_type(dst) != Type::I64 => Value::Other,
                _ => {
                    if args.iter().any(|&a| value(a, state).may_be_frame()) {
                        Value::Lost
                    } else {
                        Value::Other
                    }
                }
            };
            for &r in results {
                state[r.index()] = Value::Other;
            }
            state[dst.index()] = v;
            if class == Class::Opaque {
                if let Some(r) = rsp {
                    if results.contains(&r) {
                        state[r.index()] = Value::Lost;
                    }
                }
            }
        }
        _ => f.for_each_def(i, |v| state[v.index()] = Value::Other),
    }
}

/// Why instruction `i` makes a lost value, `before` the values before it
/// and `causes` why each lost variable was lost (within the block): a
/// copy keeps its source's reason, an addition of something not
/// constant is a variable adjustment, another operation of a frame
/// address a realignment, and anything else a replacement.
fn reason_of(f: &Function, i: Inst, before: &[Value], causes: &[Option<LostReason>]) -> LostReason {
    let inherited = |o: Operand| match o {
        Operand::Var(v) if before[v.index()] == Value::Lost => causes[v.index()],
        _ => None,
    };
    match f.inst(i) {
        InstData::Copy { src, .. } => inherited(*src).unwrap_or(LostReason::Replaced),
        InstData::Op { op, args, .. } => {
            let args = args.as_slice(f);
            if let Some(r) = args.iter().find_map(|&a| inherited(a)) {
                return r;
            }
            let reads_frame = args.iter().any(|&a| value(a, before).may_be_frame());
            match f.opcode(*op) {
                Some(Opcode::I64Add | Opcode::I64Sub) if reads_frame => LostReason::Variable,
                Some(code) if code.access().is_none() && reads_frame => LostReason::Realigned,
                _ => LostReason::Replaced,
            }
        }
        _ => LostReason::Replaced,
    }
}

/// The variables named `rsp` and `rbp` among the parameters.
fn frame_registers(f: &Function) -> (Option<Var>, Option<Var>) {
    let by = |n: &str| f.params().iter().copied().find(|&p| f.base_name(p) == n);
    (by("rsp"), by("rbp"))
}

/// The offsets of `rsp` and `rbp` at every point of `f`, a function
/// lifted with the semantics (its parameter `rsp` the entry stack
/// pointer); `origins` locate the point where the offset is lost.
///
/// ```
/// let src = "operator i64.sub pure\noperator i64.and pure\n\nfunction f(rsp, rax) {\ne:\n    rsp = i64.sub(rsp, 16)\n    rsp = i64.and(rsp, -32)\n    ret\n}\n";
/// let f = ssakit::text::parse_module(src).unwrap().functions.remove(0);
/// let origins = ssakit_x86::lift::Origins::none(); // no machine code
/// let frame = ssakit_x86::frame::analyse(&f, &origins);
/// let [sub, and] = [0, 1].map(|k| f.block_insts(f.entry())[k]);
/// assert_eq!((frame.rsp_before(sub), frame.rsp_before(and)), (Some(0), Some(-16)));
/// assert_eq!(frame.lost().unwrap().reason, ssakit_x86::frame::LostReason::Realigned);
/// ```
pub fn analyse(f: &Function, origins: &Origins) -> Frame {
    analyse_with(f, origins, true)
}

/// [`analyse`] without the offsets at each point: [`Frame::rsp_before`]
/// and [`Frame::rbp_before`] are not to be asked (the promotion and the
/// signatures ask neither), and finding where `rsp` is lost visits only
/// the instructions the transfer function runs on.
pub(crate) fn analyse_for_slots(f: &Function, origins: &Origins) -> Frame {
    analyse_with(f, origins, false)
}

/// [`analyse`], the offsets at each point recorded if `points`.
fn analyse_with(f: &Function, origins: &Origins, points: bool) -> Frame {
    let n = f.num_vars();
    let (rsp, rbp) = frame_registers(f);
    let classes = classes(f);
    let Kept {
        globals,
        steps,
        steps_at,
        walked,
        walked_at,
        facts,
    } = kept(f, &classes, [rsp, rbp], &relevant(f, &classes, rsp));
    let g = globals.len();
    let mut entry = vec![Value::Unset; g * f.num_blocks()];
    let mut reached = SecondaryMap::with_capacity(f.num_blocks(), false);
    let e = f.entry();
    for &p in f.params() {
        if let Ok(k) = globals.binary_search(&p) {
            entry[e.index() * g + k] = if Some(p) == rsp {
                Value::Frame(0)
            } else {
                Value::Other
            };
        }
    }
    reached[e] = true;
    // Round-robin iteration in layout order (roughly reverse postorder:
    // the lifter lays blocks out by address) until no entry value rises;
    // each rises at most three times per variable, and a round costs one
    // pass over the function, so the rounds are few (the loop nesting
    // depth plus two, as for any such problem in reverse postorder). A
    // block whose entry values did not change since it was last walked
    // is skipped: walking it again would give its successors the same
    // values (the same result, in less time). `state` holds every
    // variable; only the globals are loaded at a block's start (the
    // others are written before they are read).
    let mut state = vec![Value::Unset; n];
    let mut dirty = SecondaryMap::with_capacity(f.num_blocks(), false);
    dirty[e] = true;
    let mut changed = true;
    while changed {
        changed = false;
        for &b in f.layout() {
            if !reached[b] || !dirty[b] {
                continue;
            }
            dirty[b] = false;
            load(
                &globals,
                &entry[b.index() * g..(b.index() + 1) * g],
                &mut state,
            );
            let (from, to) = steps_at[b.index()];
            for &i in &steps[from as usize..to as usize] {
                step(f, &classes, i, &mut state, rsp);
            }
            f.for_each_succ(b, |s| {
                let at = s.index() * g;
                if !reached[s] {
                    // First reached: its entry values are all `Unset`
                    // (only the entry block starts otherwise, reached
                    // from the start), and `Unset` joined with a value
                    // is that value.
                    reached[s] = true;
                    for (e, &v) in entry[at..at + g].iter_mut().zip(&globals) {
                        *e = state[v.index()];
                    }
                    dirty[s] = true;
                    changed = true;
                    return;
                }
                let mut rose = false;
                for (e, &v) in entry[at..at + g].iter_mut().zip(&globals) {
                    // A value joined with itself stays: most globals
                    // arrive as they were.
                    let x = state[v.index()];
                    if x == *e {
                        continue;
                    }
                    let j = e.join(x);
                    if j != *e {
                        *e = j;
                        rose = true;
                    }
                }
                if rose {
                    dirty[s] = true;
                    changed = true;
                }
            });
        }
    }
    let mut frame = Frame {
        globals,
        steps,
        steps_at,
        walked,
        walked_at,
        facts,
        entry,
        scratch: std::cell::RefCell::new(state),
        reached,
        rsp,
        rbp,
        classes,
        rsp_before: SecondaryMap::new(None),
        rbp_before: SecondaryMap::new(None),
        points,
        lost: None,
        save_area: std::cell::OnceCell::new(),
    };
    record_points(f, origins, &mut frame, points);
    frame
}

/// Sets each of `globals` in `state` (a value per variable) to its value
/// in `values` (one per global, in order).
fn load(globals: &[Var], values: &[Value], state: &mut [Value]) {
    for (&v, &x) in globals.iter().zip(values) {
        state[v.index()] = x;
    }
}

/// The variables whose value the analysis must know, by index: those
/// that may hold a frame address (*tainted*: `rsp`, and what a copy or
/// an operation other than a memory access or an opaque one computes
/// from a tainted variable, transitively), and those whose exact value
/// such a variable's value is computed from (the operands of the copies,
/// additions, subtractions and selects defining a variable kept,
/// transitively: `sub rsp, rax` after `mov rax, 4096`). Any other
/// variable only ever holds `Unset`, an integer or `Other` (the values
/// that raise no frame address: the lattice's values from which no
/// [`step`] makes a `Frame` or `Lost`), and no kept variable's value
/// depends on which, nor does any question a walk asks of a value (is
/// it a frame address, at which offset): its value at a block's start
/// may be any of them, so it need not be carried across blocks.
///
/// Both closures are over the instructions taken without their order
/// (flow-insensitive): a variable tainted somewhere is kept everywhere,
/// which only keeps more than needed.
fn relevant(f: &Function, classes: &SecondaryMap<Operator, Class>, rsp: Option<Var>) -> Vec<bool> {
    let mut out = vec![false; f.num_vars()];
    let Some(rsp) = rsp else {
        // No `rsp`: no variable ever holds a frame address.
        return out;
    };
    // (from, to): a value of `from` flows into `to`; `exact` says the
    // value of `to` depends on the exact value of `from` (an addition, a
    // subtraction, a select, a copy), not only on its being a frame
    // address.
    // About one flow per operand: two per instruction is room for most
    // functions (an operation reads one or two variables, a copy one).
    let mut flows: Vec<(Var, Var, bool)> = Vec::with_capacity(2 * f.inst_slots());
    // Where each variable is first a source and last an exact
    // destination (by index in `flows`, plus one): a round need not be
    // followed by another when each variable it adds is read by no flow
    // it has already passed (most flows go forward: one round, usually).
    let mut first_from = vec![u32::MAX; out.len()];
    let mut last_to = vec![0u32; out.len()];
    let mut push = |from: Var, to: Var, exact: bool| {
        let k = flows.len() as u32;
        if first_from[from.index()] == u32::MAX {
            first_from[from.index()] = k;
        }
        if exact {
            last_to[to.index()] = k + 1;
        }
        flows.push((from, to, exact));
    };
    for &b in f.layout() {
        for &i in f.block_insts(b) {
            match f.inst(i) {
                InstData::Copy {
                    dst,
                    src: Operand::Var(s),
                } => push(*s, *dst, true),
                InstData::Op {
                    op, args, results, ..
                } => {
                    // As [`step`]: only the first result is computed.
                    let Some(&dst) = results.as_slice(f).first() else {
                        continue;
                    };
                    let args = args.as_slice(f);
                    let exact = match (classes[*op], args) {
                        (Class::Add | Class::Sub, &[_, _]) | (Class::Select, &[_, _, _]) => true,
                        (Class::Memory | Class::Opaque, _) => continue,
                        _ if f.var_type(dst) != Type::I64 => continue,
                        _ => false,
                    };
                    for &a in args {
                        if let Operand::Var(a) = a {
                            push(a, dst, exact);
                        }
                    }
                }
                _ => {}
            }
        }
    }
    // Tainted: forward from `rsp`, rounds in the instructions' order
    // until none adds a variable a flow already passed reads.
    out[rsp.index()] = true;
    let mut again = true;
    while again {
        again = false;
        for (k, &(from, to, _)) in flows.iter().enumerate() {
            if out[from.index()] && !out[to.index()] {
                out[to.index()] = true;
                again |= first_from[to.index()] < k as u32;
            }
        }
    }
    // Read exactly by a kept variable's computation: backward, rounds
    // in the reverse order (likewise).
    again = true;
    while again {
        again = false;
        for (k, &(from, to, exact)) in flows.iter().enumerate().rev() {
            if exact && out[to.index()] && !out[from.index()] {
                out[from.index()] = true;
                again |= last_to[from.index()] > k as u32 + 1;
            }
        }
    }
    out
}

/// What the analysis keeps of a function ([`kept`]).
struct Kept {
    /// The [`relevant`] variables some block reads before it writes them,
    /// and `rsp` and `rbp`, sorted.
    globals: Vec<Var>,
    /// The instructions that define a relevant variable, each block's
    /// contiguous, in its order: the others only write variables whose
    /// value no question asks (see [`relevant`]), so [`step`] skips them.
    steps: Vec<Inst>,
    /// Where each block's instructions are in `steps` (by block index).
    steps_at: Vec<(u32, u32)>,
    /// The instructions that are steps or facts (memory accesses, opaque
    /// operations, calls: what [`Frame::walk_facts`] visits), each
    /// block's contiguous, in its order, with whether it is a step and
    /// whether it is a fact.
    walked: Vec<(Inst, bool, bool)>,
    /// Where each block's entries are in `walked` (by block index).
    walked_at: Vec<(u32, u32)>,
    /// The number of facts in `walked`.
    facts: usize,
}

/// The variables some block of `f` reads before it writes them (an
/// instruction's operands before its results; the terminator's last)
/// among the `relevant` ones, and `always`, sorted; the instructions
/// that define a relevant one, and those a walk of the facts visits
/// ([`Kept`]). `classes`: each operator's [`Class`].
fn kept(
    f: &Function,
    classes: &SecondaryMap<Operator, Class>,
    always: [Option<Var>; 2],
    relevant: &[bool],
) -> Kept {
    let n = f.num_vars();
    let mut global = vec![false; n];
    // The block (its index plus one) that last wrote each variable.
    let mut written = vec![0u32; n];
    let mut out: Vec<Var> = always.into_iter().flatten().collect();
    for &v in &out {
        global[v.index()] = true;
    }
    let mut steps = Vec::with_capacity(f.inst_slots());
    let mut steps_at = vec![(0, 0); f.num_blocks()];
    let mut walked = Vec::with_capacity(f.inst_slots());
    let mut walked_at = vec![(0, 0); f.num_blocks()];
    let mut facts = 0;
    for &b in f.layout() {
        let here = b.index() as u32 + 1;
        let (s0, w0) = (steps.len() as u32, walked.len() as u32);
        let mut read = |o: Operand, written: &[u32]| {
            if let Operand::Var(v) = o {
                let k = v.index();
                if written[k] != here && !global[k] && relevant[k] {
                    global[k] = true;
                    out.push(v);
                }
            }
        };
        for &i in f.block_insts(b) {
            // Whether `i` defines a relevant variable (a step), and
            // whether it is a fact (a memory access, an opaque operation,
            // a call).
            let (defines, fact) = match f.inst(i) {
                InstData::Copy { dst, src } => {
                    read(*src, &written);
                    written[dst.index()] = here;
                    (relevant[dst.index()], false)
                }
                InstData::Op {
                    op, args, results, ..
                } => {
                    for &a in args.as_slice(f) {
                        read(a, &written);
                    }
                    let mut defines = false;
                    for &v in results.as_slice(f) {
                        written[v.index()] = here;
                        defines |= relevant[v.index()];
                    }
                    let fact = matches!(classes[*op], Class::Memory | Class::Opaque);
                    (defines, fact)
                }
                data => {
                    f.for_each_operand_of(data, |o| read(o, &written));
                    let mut defines = false;
                    f.for_each_def(i, |v| {
                        written[v.index()] = here;
                        defines |= relevant[v.index()];
                    });
                    (defines, matches!(data, InstData::Call { .. }))
                }
            };
            if defines {
                steps.push(i);
            }
            if defines || fact {
                walked.push((i, defines, fact));
            }
            facts += fact as usize;
        }
        f.for_each_term_operand(b, |o| read(o, &written));
        steps_at[b.index()] = (s0, steps.len() as u32);
        walked_at[b.index()] = (w0, walked.len() as u32);
    }
    out.sort_unstable();
    Kept {
        globals: out,
        steps,
        steps_at,
        walked,
        walked_at,
        facts,
    }
}

/// Finds where `rsp` is first lost and, if `points`, fills the offsets
/// before each instruction.
fn record_points(f: &Function, origins: &Origins, frame: &mut Frame, points: bool) {
    let Some(rsp) = frame.rsp else {
        return;
    };
    let offset = |v: Value| match v {
        Value::Frame(c) => Some(c),
        _ => None,
    };
    // Whether some edge into a block carries a lost `rsp`: a block whose
    // entry `rsp` is lost without one is where different offsets meet.
    let mut lost_in = SecondaryMap::with_capacity(f.num_blocks(), false);
    let mut losses: Vec<Lost> = Vec::new();
    let (mut rsp_before, mut rbp_before) = (SecondaryMap::new(None), SecondaryMap::new(None));
    if points {
        rsp_before = SecondaryMap::with_capacity(f.inst_slots(), None);
        if frame.rbp.is_some() {
            rbp_before = SecondaryMap::with_capacity(f.inst_slots(), None);
        }
    }
    // Every variable's value and cause of loss, the globals loaded at
    // each block's start (the others are written before they are read:
    // the walks' scratch state serves, whatever it holds).
    let mut state = std::mem::take(&mut *frame.scratch.borrow_mut());
    if !points {
        if let Some(lost_in) = rsp_kept(f, frame, rsp, &mut state) {
            // No instruction makes `rsp` lost: only joins may.
            frame.lost = joins(f, origins, frame, rsp, &lost_in)
                .min_by_key(|p| (p.address.unwrap_or(u64::MAX), p.reason));
            *frame.scratch.borrow_mut() = state;
            return;
        }
    }
    let mut causes = vec![None; state.len()];
    let mut before = Vec::new();
    let fr = &*frame;
    // Steps instruction `i` (one of `fr.steps`), noting why a variable it
    // defines became lost, and where `rsp` did.
    let mut lose = |i: Inst, state: &mut [Value], causes: &mut [Option<LostReason>]| {
        // The old values of what `i` defines, put back for a moment to
        // find why it made a lost value (copying the whole state at each
        // instruction would be quadratic on wide functions).
        before.clear();
        f.for_each_def(i, |v| before.push((v, state[v.index()])));
        let was_frame = matches!(state[rsp.index()], Value::Frame(_));
        step(f, &fr.classes, i, state, fr.rsp);
        let mut made_lost = None;
        for &(v, _) in &before {
            let k = v.index();
            if state[k] == Value::Lost || (v == rsp && !matches!(state[k], Value::Frame(_))) {
                made_lost = Some(v);
            }
        }
        let why = made_lost.map(|_| {
            for (v, old) in before.iter_mut() {
                std::mem::swap(&mut state[v.index()], old);
            }
            let why = reason_of(f, i, state, causes);
            for (v, old) in before.iter_mut() {
                std::mem::swap(&mut state[v.index()], old);
            }
            why
        });
        for &(v, _) in &before {
            causes[v.index()] = None;
        }
        if let (Some(v), Some(why)) = (made_lost, why) {
            causes[v.index()] = Some(why);
            if v == rsp && was_frame {
                losses.push(Lost {
                    address: origins.inst(i).map(|s| s.address),
                    reason: why,
                });
            }
        }
    };
    for &b in f.layout() {
        if !fr.reached(b) {
            continue;
        }
        fr.load(b, &mut state);
        for &v in &fr.globals {
            causes[v.index()] = None;
        }
        let steps = fr.steps_of(b);
        if points {
            let mut next = 0;
            for &i in f.block_insts(b) {
                rsp_before[i] = offset(state[rsp.index()]);
                if let Some(r) = fr.rbp {
                    rbp_before[i] = offset(state[r.index()]);
                }
                // An instruction defining no relevant variable makes none
                // lost.
                if steps.get(next) == Some(&i) {
                    next += 1;
                    lose(i, &mut state, &mut causes);
                }
            }
        } else {
            for &i in steps {
                lose(i, &mut state, &mut causes);
            }
        }
        let out = state[rsp.index()];
        f.for_each_succ(b, |s| {
            if !matches!(out, Value::Frame(_)) {
                lost_in[s] = true;
            }
        });
    }
    losses.extend(joins(f, origins, fr, rsp, &lost_in));
    *frame.scratch.borrow_mut() = state;
    frame.rsp_before = rsp_before;
    frame.rbp_before = rbp_before;
    frame.lost = losses
        .into_iter()
        .min_by_key(|p| (p.address.unwrap_or(u64::MAX), p.reason));
}

/// The points where different offsets of `rsp` meet: the reached blocks
/// whose entry `rsp` is not a frame address at a known offset though no
/// edge into them carries such an `rsp` (`lost_in`, by block).
fn joins<'a>(
    f: &'a Function,
    origins: &'a Origins,
    frame: &'a Frame,
    rsp: Var,
    lost_in: &'a SecondaryMap<Block, bool>,
) -> impl Iterator<Item = Lost> + 'a {
    f.layout()
        .iter()
        .copied()
        .filter(move |&b| {
            frame.reached(b) && !matches!(frame.entry_value(b, rsp), Value::Frame(_)) && !lost_in[b]
        })
        .map(move |b| Lost {
            address: origins
                .block(b)
                .or_else(|| origins.term(b).map(|s| s.address)),
            reason: LostReason::Join,
        })
}

/// Whether no instruction makes `rsp` lost (its value a frame address
/// at a known offset before the instruction, and not after), by the
/// transfer function over the steps of the reached blocks alone (no
/// cause followed, no offset recorded: most functions keep their `rsp`,
/// and [`record_points`] then needs no more); if so, for each block,
/// whether some edge into it carries a lost `rsp`. `state`: a value per
/// variable, any.
fn rsp_kept(
    f: &Function,
    frame: &Frame,
    rsp: Var,
    state: &mut [Value],
) -> Option<SecondaryMap<Block, bool>> {
    let mut lost_in = SecondaryMap::with_capacity(f.num_blocks(), false);
    for &b in f.layout() {
        if !frame.reached(b) {
            continue;
        }
        frame.load(b, state);
        for &i in frame.steps_of(b) {
            let was_frame = matches!(state[rsp.index()], Value::Frame(_));
            step(f, &frame.classes, i, state, frame.rsp);
            if was_frame && !matches!(state[rsp.index()], Value::Frame(_)) {
                return None;
            }
        }
        if !matches!(state[rsp.index()], Value::Frame(_)) {
            f.for_each_succ(b, |s| lost_in[s] = true);
        }
    }
    Some(lost_in)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A temporary read in another block than the one that wrote it is a
    /// global, and its frame offset reaches that block; one read only
    /// where it was written is not, and `rsp` always is.
    #[test]
    fn globals_carry_offsets_across_blocks() {
        let src = "operator i64.sub pure\noperator i64.load trap read\n\n\
                   function f(rsp, rax) {\ne:\n    t = i64.sub(rsp, 16)\n    u = i64.sub(t, 8)\n    \
                   rax = i64.load[0, 0, 0](u)\n    jump b\nb:\n    rax = i64.load[0, 0, 0](t)\n    ret rax\n}\n";
        let f = ssakit::text::parse_module(src).unwrap().functions.remove(0);
        let frame = analyse(&f, &Origins::none());
        let names: Vec<&str> = frame.globals.iter().map(|&v| f.base_name(v)).collect();
        assert_eq!(names, ["rsp", "t"]);
        let b = f.layout()[1];
        let load = f.block_insts(b)[0];
        let mut seen = None;
        frame.walk(&f, b, |point, state| {
            if point == Some(load) {
                let InstData::Op { args, .. } = f.inst(load) else {
                    unreachable!()
                };
                seen = Some(value(args.as_slice(&f)[0], state));
            }
        });
        assert_eq!(seen, Some(Value::Frame(-16)));
        assert_eq!(frame.rsp_before(load), Some(0));
    }

    /// Registers subtracted from `rsp` in another block than the one
    /// that set them are followed (their exact values are read: a
    /// constant, a loaded value), a flag is not, and neither is the
    /// instruction defining only it.
    #[test]
    fn only_the_relevant_variables_are_followed() {
        let src = "operator i64.sub pure\noperator i64.load trap read\noperator i32.eqz pure\n\n\
                   function f(rsp, rax, rbx, c: i32) {\ne:\n    rax = 4096\n    \
                   rbx = i64.load[0, 0, 0](rsp)\n    c: i32 = i32.eqz(c)\n    branch c, a, j\na:\n    \
                   jump j\nj:\n    rsp = i64.sub(rsp, rax)\n    rsp = i64.sub(rsp, rbx)\n    ret\n}\n";
        let f = ssakit::text::parse_module(src).unwrap().functions.remove(0);
        let frame = analyse(&f, &Origins::none());
        let names: Vec<&str> = frame.globals.iter().map(|&v| f.base_name(v)).collect();
        assert_eq!(names, ["rsp", "rax", "rbx"]);
        let e = f.entry();
        let steps: Vec<Inst> = frame.steps_of(e).to_vec();
        assert_eq!(steps, f.block_insts(e)[..2]);
        let [sub, subrbx] = [0, 1].map(|k| f.block_insts(f.layout()[2])[k]);
        assert_eq!(frame.rsp_before(sub), Some(0));
        assert_eq!(frame.rsp_before(subrbx), Some(-4096));
        assert_eq!(frame.lost().unwrap().reason, LostReason::Variable);
    }
}
