//! One recovered function ([`FuncCfg`]) → one non-SSA
//! [`Function`]: the machine's registers and flags are its variables, and
//! every instruction is one generic operation with exactly the reads and
//! writes of [`regs`](crate::regs).
//!
//! The function's parameters are all 39 locations (`rax`…`r15`,
//! `cf`…`df`, `xmm0`…`xmm15`), so every register has a definition at the
//! entry; it returns, at every exit, what the binary's
//! [convention](crate::conv) says a return reads (System V:
//! [`RET_LOCS`](crate::regs::RET_LOCS), `rax rdx rbx rbp r12`–`r15 rsp
//! xmm0 xmm1`), or with [signatures](crate::signature)
//! ([`lift_with_signatures`](crate::signature::lift_with_signatures)) the function's results. An instruction at
//! address `A` becomes
//!
//! ```text
//! (written...) = x86.MNEMONIC[A, immediates...](read...)
//! ```
//!
//! with the operator's name carrying its effect class (`x86.mov.r` loads,
//! `x86.mov.w` stores, see [`effect_suffix`]). Control transfers are the
//! IR's terminators, chosen by the instruction's [`Flow`]:
//!
//! * `jcc` → `cc = x86.jne[A, T](zf)` and `branch cc, T, F`;
//! * a jump table → `sel = x86.jmp[A](index...)` and
//!   `switch sel, D, [T0, ...]`;
//! * `call f` → `(rax, ..., xmm15) = f(rdi, ..., xmm7)` (the
//!   convention's reads and clobbers, System V's [`LocSet::CALL_READS`]
//!   and [`LocSet::CALL_WRITES`]; with signatures, the callee's
//!   parameters and what it does not preserve),
//!   named after the callee's symbol, `NAME.call`, `NAME.plt` for a PLT
//!   stub, `NAME.got` for a call through a GOT slot, or
//!   `sub_ADDRESS.call`; an indirect call is the operation `x86.call.x`
//!   reading its target's registers too;
//! * a tail call → the call, then `ret`; an unresolved indirect jump →
//!   `x86.jmp.x` like an indirect call, then `ret`;
//! * a call that never returns → the call, then `unreachable`.
//!
//! A block whose first address is also reached by a branch gets a fresh
//! entry block before it (the entry of a function has no predecessor).
//!
//! With [`Options::semantics`] ([`lift_with`]), an instruction the
//! [semantics table](crate::sem) covers becomes the operations of the set
//! that compute it instead (`q0 = i64.add(rax, rbx)`, the flags as `i32`
//! operations of its operands), and a `jcc`'s `cc` the expression of the
//! flags it tests; the flags and `cc` are then `i32` variables, and a
//! function whose instructions use `fs:` or `gs:` gets the parameter
//! `fs_base` or `gs_base` after the 39 (the [semantics'
//! conventions](crate::sem)).

use crate::binary::{Binary, FuncInfo};
use crate::cfg::{recover, BlockInfo, End, FuncCfg, Insn, Target};
use crate::conv::Convention;
use crate::regs::{effect_suffix, mnemonic_name, Flow, Loc, LocKind, LocMap, LocSet};
use crate::sem;
use iced_x86::{Mnemonic, OpKind};
use rustc_hash::FxHashMap;
use ssakit::entity::SecondaryMap;
use ssakit::ir::{
    Block, Callee, Effects, Function, FunctionBuilder, Inst, InstData, Operand, Operator, Type, Var,
};

/// A lifted function and the figures of its recovery.
///
/// ```
/// # let elf = std::fs::read(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixture/fixture")).unwrap();
/// # let bin = ssakit_x86::binary::Binary::parse(&elf).unwrap();
/// let info = bin.functions().iter().find(|f| f.name == "classify").unwrap();
/// let l = ssakit_x86::lift::lift(&bin, info);
/// assert_eq!(l.jump_tables, 1);
/// assert!(l.instructions > 20 && l.func.num_blocks() > 9);
/// ```
#[derive(Clone, Debug)]
pub struct Lifted {
    /// The function, not in SSA form.
    pub func: Function,
    /// Instructions decoded.
    pub instructions: usize,
    /// Jump tables resolved.
    pub jump_tables: usize,
    /// Calls covered by a landing pad ([`crate::cfg::End::Invoke`]).
    pub invokes: usize,
    /// With [`Options::semantics`], the definitions of flags (`cf` ...
    /// `df`) by the copies and operations of the instructions' meaning,
    /// before the lifter left out those their block overwrites unread
    /// (the [semantics'](crate::sem) local flag liveness); 0 without.
    /// `func` has fewer: what was emitted.
    pub meaning_flag_defs: usize,
    /// The machine instruction each instruction and terminator of `func`
    /// came from.
    pub origins: Origins,
    /// The ranges of the extent never decoded ([`crate::lost`]).
    pub lost: Vec<crate::lost::LostRange>,
    /// Of the instructions decoded, those in cold fragments outside the
    /// extent (cold parts of other functions, [`crate::lost::FragmentCover`]),
    /// as `x86 stats` counts them.
    pub fragment_instructions: usize,
}

/// Where a machine instruction sits: its address and length in bytes.
///
/// ```
/// let o = ssakit_x86::lift::Site { address: 0x1330, size: 3 };
/// assert_eq!(o.address + o.size as u64, 0x1333);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Site {
    /// Its address.
    pub address: u64,
    /// Its length in bytes.
    pub size: u8,
}

/// Where the instructions and terminators of a lifted function came
/// from: the machine instruction of each operation and call, and the
/// one that ends each block (`ret`, `jcc`, `jmp`, a tail `jmp`, the call
/// before `unreachable`). Construction keeps instructions (it adds phis
/// and renames operands in place), so the side table still answers for
/// the SSA form: this is what `ssakit x86 lift --construct --format json`
/// prints for the emulator oracle (docs/x86.md). Blocks and
/// instructions of no machine instruction (the fresh `entry` block, the
/// exit blocks of a branch out of the extent) answer `None`.
///
/// ```
/// # let elf = std::fs::read(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixture/fixture")).unwrap();
/// # let bin = ssakit_x86::binary::Binary::parse(&elf).unwrap();
/// let info = bin.functions().iter().find(|f| f.name == "sum").unwrap();
/// let l = ssakit_x86::lift::lift(&bin, info);
/// let entry = l.func.entry();
/// let first = l.func.block_insts(entry)[0];
/// let o = l.origins.inst(first).unwrap();
/// assert_eq!((o.address, o.size), (info.extent.start, 3)); // test rsi, rsi
/// assert_eq!(l.origins.term(entry).unwrap().address, info.extent.start + 3); // jle
/// ```
#[derive(Clone, Debug)]
pub struct Origins {
    insts: SecondaryMap<Inst, Option<Site>>,
    terms: SecondaryMap<Block, Option<Site>>,
    starts: SecondaryMap<Block, Option<u64>>,
}

impl Origins {
    /// The origins of a function of no machine code (written by hand,
    /// parsed from text): every query answers `None`.
    ///
    /// ```
    /// let o = ssakit_x86::lift::Origins::none();
    /// assert_eq!(o.block(ssakit::ir::Block::new(0)), None);
    /// ```
    pub fn none() -> Origins {
        Origins {
            insts: SecondaryMap::new(None),
            terms: SecondaryMap::new(None),
            starts: SecondaryMap::new(None),
        }
    }

    /// Gives instruction `to` the origin of `from` (an instruction
    /// rewritten into a new one).
    pub(crate) fn moved(&mut self, from: Inst, to: Inst) {
        self.insts[to] = self.insts[from];
    }

    /// The machine instruction operation or call `i` came from.
    ///
    /// ```
    /// # let elf = std::fs::read(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixture/fixture")).unwrap();
    /// # let bin = ssakit_x86::binary::Binary::parse(&elf).unwrap();
    /// # let info = bin.functions().iter().find(|f| f.name == "sum").unwrap();
    /// let l = ssakit_x86::lift::lift(&bin, info);
    /// let i = l.func.block_insts(l.func.entry())[0];
    /// assert_eq!(l.origins.inst(i).unwrap().address, info.extent.start);
    /// ```
    pub fn inst(&self, i: Inst) -> Option<Site> {
        self.insts[i]
    }

    /// The machine instruction that ends block `b`.
    ///
    /// ```
    /// # let elf = std::fs::read(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixture/fixture")).unwrap();
    /// # let bin = ssakit_x86::binary::Binary::parse(&elf).unwrap();
    /// # let info = bin.functions().iter().find(|f| f.name == "sum").unwrap();
    /// let l = ssakit_x86::lift::lift(&bin, info);
    /// assert_eq!(l.origins.term(l.func.entry()).unwrap().size, 2); // jle rel8
    /// ```
    pub fn term(&self, b: Block) -> Option<Site> {
        self.terms[b]
    }

    /// The address where block `b` starts (`None` for the fresh `entry`
    /// block and the exit blocks).
    ///
    /// ```
    /// # let elf = std::fs::read(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixture/fixture")).unwrap();
    /// # let bin = ssakit_x86::binary::Binary::parse(&elf).unwrap();
    /// # let info = bin.functions().iter().find(|f| f.name == "sum").unwrap();
    /// let l = ssakit_x86::lift::lift(&bin, info);
    /// assert_eq!(l.origins.block(l.func.entry()), Some(info.extent.start));
    /// ```
    pub fn block(&self, b: Block) -> Option<u64> {
        self.starts[b]
    }
}

/// Recovers and lifts function `info` of `bin`.
///
/// ```
/// let elf = std::fs::read(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixture/fixture")).unwrap();
/// let bin = ssakit_x86::binary::Binary::parse(&elf).unwrap();
/// let info = bin.functions().iter().find(|f| f.name == "checked").unwrap();
/// let l = ssakit_x86::lift::lift(&bin, info);
/// let text = ssakit::text::print_function(&l.func);
/// assert!(text.contains("die.call(rdi,") && text.contains("unreachable"));
/// ```
pub fn lift(bin: &Binary<'_>, info: &FuncInfo) -> Lifted {
    lift_with(bin, info, &Options::default())
}

/// How to lift.
///
/// ```
/// let o = ssakit_x86::lift::Options::default();
/// assert!(!o.semantics); // the default: one opaque operation per instruction
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Options {
    /// Lift the instructions the [semantics table](crate::sem) covers
    /// onto the operation set (`i64.add`, `i32.load`, `select`, ...), the
    /// flags and `cc` as `i32` variables holding 0 or 1; the others stay
    /// opaque `x86.MNEMONIC` operations.
    pub semantics: bool,
}

/// Recovers and lifts function `info` of `bin` as `opts` say.
///
/// ```
/// let elf = std::fs::read(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixture/fixture")).unwrap();
/// let bin = ssakit_x86::binary::Binary::parse(&elf).unwrap();
/// let info = bin.functions().iter().find(|f| f.name == "sum").unwrap();
/// let opts = ssakit_x86::lift::Options { semantics: true };
/// let text = ssakit::text::print_function(&ssakit_x86::lift::lift_with(&bin, info, &opts).func);
/// assert!(text.contains("i64.add(") && !text.contains("x86.add"));
/// assert!(text.contains("cf: i32"));
/// ```
pub fn lift_with(bin: &Binary<'_>, info: &FuncInfo, opts: &Options) -> Lifted {
    let cfg = recover(bin, info);
    let lifted = lift_with_origins(bin, info, &cfg, opts);
    Lifted::of(bin, info, &cfg, lifted)
}

impl Lifted {
    /// The figures of `cfg` beside what its lift made.
    pub(crate) fn of(
        bin: &Binary<'_>,
        info: &FuncInfo,
        cfg: &FuncCfg,
        (func, origins, flags): (Function, Origins, sem::FlagDefs),
    ) -> Lifted {
        Lifted {
            func,
            instructions: cfg.insts.len(),
            jump_tables: cfg.jump_tables,
            invokes: cfg.invokes,
            lost: crate::lost::lost_code(bin, info, cfg),
            fragment_instructions: crate::lost::FragmentCover::of_cfg(info, cfg).len(),
            meaning_flag_defs: flags.meaning,
            origins,
        }
    }
}

pub use crate::binary::ident;

/// The name of code at `a` as a callee: `NAME.plt` for a PLT stub,
/// `LABEL.call` for a function of the binary (its unique
/// [label](crate::binary::FuncInfo::label)), `sub_ADDRESS.call`
/// otherwise. The suffix keeps a callee from naming a function of the
/// lifted module: a call is an uninterpreted external (the module's
/// functions take all 39 registers, a call passes the ABI's 16).
fn callee_name(bin: &Binary<'_>, a: u64) -> String {
    // Concatenated, not formatted: one per call site.
    if let Some(n) = bin.plt_name(a) {
        ident(&[n, ".plt"].concat())
    } else if let Some(f) = bin.function_at(a) {
        [f.label.as_str(), ".call"].concat()
    } else {
        let mut name = String::with_capacity(25);
        name.push_str("sub");
        hex_name('_', a, &mut name);
        name.push_str(".call");
        name
    }
}

/// The canonical effects of each suffix, so that a name has one class.
fn canonical(e: Effects) -> Effects {
    match effect_suffix(e) {
        "" => Effects::PURE,
        ".r" => Effects::TRAP.union(Effects::READ),
        ".w" => Effects::TRAP.union(Effects::WRITE),
        ".rw" => Effects::TRAP.union(Effects::READ).union(Effects::WRITE),
        _ => Effects::CALL,
    }
}

struct Lifter<'a, 'd> {
    bin: &'a Binary<'d>,
    b: FunctionBuilder,
    vars: LocMap<Var>,
    cc: Var,
    sel: Var,
    /// The block being filled.
    cur: Block,
    blocks: FxHashMap<u64, Block>,
    exits: FxHashMap<u64, Block>,
    ops: FxHashMap<(Mnemonic, Effects), Operator>,
    /// The callee of each call target so far ([`callee_name`]'s).
    callees: FxHashMap<u64, Callee>,
    args: Vec<Operand>,
    results: Vec<Var>,
    /// The machine instruction being lifted, if any.
    origin: Option<Site>,
    origins: Origins,
    /// With [`Options::semantics`], the semantics' operators and
    /// temporaries.
    sem: Option<sem::Cache>,
    /// The flags whose definitions the instruction being emitted leaves
    /// out ([`sem::dead_after`]); empty outside a block's body.
    leave_out: LocSet,
    /// What calls and returns read and write.
    calls: &'a CallModel<'a>,
    /// The signature's reads and writes of each call target asked so far.
    known: KnownCalls,
    /// What every return reads, in order.
    ret_vals: Vec<Operand>,
}

/// What is known of callees beyond the convention: the
/// [signatures](crate::signature) found with SSA, which implement it (a
/// trait, so that lifting does not depend on the analysis that lifts).
pub(crate) trait Callees: Sync {
    /// The reads (in operand order) and writes of a call of the
    /// function at `target`, when its signature is known (not the
    /// convention's fallback).
    fn call(&self, conv: &Convention, target: u64) -> Option<(Vec<Loc>, LocSet)>;
    /// What a call of an unknown callee at `site` reads, if the analysis
    /// saw it.
    fn site_reads(&self, site: u64) -> Option<LocSet>;
}

/// The reads (in operand order) and writes of a call of each target
/// asked so far, `None` for a target of no signature: what
/// [`Callees::call`] answered, asked once per target and lifted
/// function (each call site asks twice, for its flag report and its
/// emission, and most targets are called more than once).
type KnownCalls = FxHashMap<u64, Option<(Vec<Loc>, LocSet)>>;

/// What the calls and returns of a lifted function read and write: the
/// binary's [convention](crate::conv) for every call, or with
/// [signatures](crate::signature) the callee's where it has one; and
/// what a return reads.
pub(crate) struct CallModel<'a> {
    /// The binary's convention.
    pub(crate) conv: &'a Convention,
    /// The signatures known so far, if any.
    pub(crate) sigs: Option<&'a dyn Callees>,
    /// What every return of the function reads, in order.
    pub(crate) ret: Vec<Loc>,
}

impl<'a> CallModel<'a> {
    /// Every call and return as the convention says.
    pub(crate) fn convention(conv: &'a Convention) -> CallModel<'a> {
        CallModel {
            conv,
            sigs: None,
            ret: conv.ret_locs.clone(),
        }
    }

    /// The reads and writes of a call of `target` by the instruction at
    /// `site`: `read` is given each read, in operand order; the writes
    /// are returned. A signature is looked up once per target in
    /// `known`; the convention's case (a callee of no signature)
    /// allocates nothing.
    fn call_each(
        &self,
        known: &mut KnownCalls,
        target: Option<u64>,
        site: Option<u64>,
        mut read: impl FnMut(Loc),
    ) -> LocSet {
        let sig = match (self.sigs, target) {
            (Some(s), Some(a)) => known
                .entry(a)
                .or_insert_with(|| s.call(self.conv, a))
                .as_ref(),
            _ => None,
        };
        match sig {
            Some((reads, writes)) => {
                reads.iter().copied().for_each(read);
                *writes
            }
            None => {
                let reads = self.unknown_reads(site);
                for &l in &self.conv.call_args {
                    if reads.contains(l) {
                        read(l);
                    }
                }
                self.conv.call_writes
            }
        }
    }

    /// The reads and writes of [`call_each`](Self::call_each) as sets.
    fn call_sets(
        &self,
        known: &mut KnownCalls,
        target: Option<u64>,
        site: Option<u64>,
    ) -> (LocSet, LocSet) {
        let mut reads = LocSet::EMPTY;
        let writes = self.call_each(known, target, site, |l| reads.insert(l));
        (reads, writes)
    }

    /// What a call of an unknown callee at `site` reads: the
    /// convention's arguments, less the optional ones the signatures
    /// found unwritten there.
    fn unknown_reads(&self, site: Option<u64>) -> LocSet {
        self.sigs
            .zip(site)
            .and_then(|(s, a)| s.site_reads(a))
            .unwrap_or(self.conv.call_reads)
    }
}

impl Lifter<'_, '_> {
    /// Ends the current block as `blk` ends (its last instruction `last`
    /// when that is a terminator): a jump, a branch on the condition, a
    /// switch, a return, a tail call, an invoke or no return.
    fn end_block(&mut self, cfg: &FuncCfg, blk: &BlockInfo, last: Option<&Insn>) {
        match &blk.end {
            End::Jump(a) => {
                let t = self.blocks[a];
                self.b.jump(t);
            }
            End::Branch(t, f) => {
                let insn = last.expect("a branch ends in its jcc");
                let cc = self.cc;
                if !self.with_semantics(|e| sem::branch_condition(e, &insn.ins, cc)) {
                    self.set_lists(insn.access.reads, insn.access.writes);
                    self.results.insert(0, self.cc);
                    self.emit_op(insn.ins.mnemonic(), insn.access.effects, &imms(insn));
                }
                let (tb, fb) = (self.target(*t), self.target(*f));
                self.b.branch(Operand::Var(self.cc), tb, fb);
            }
            End::Switch(targets, default) => {
                let insn = last.expect("a switch ends in its jmp");
                self.set_lists(insn.access.reads, LocSet::EMPTY);
                self.results.push(self.sel);
                self.emit_op(insn.ins.mnemonic(), insn.access.effects, &imms(insn));
                let d = self.target(*default);
                let ts: Vec<Block> = targets.iter().map(|&t| self.target(t)).collect();
                self.b.switch(Operand::Var(self.sel), d, &ts);
            }
            End::Ret => {
                let imm = last
                    .filter(|i| i.ins.mnemonic() == Mnemonic::Ret && i.ins.op_count() == 1)
                    .map_or(0, |i| i.ins.immediate(0) as i64);
                self.emit_ret_popping(8 + imm);
            }
            End::TailCall(a) => {
                match (last, a) {
                    (Some(insn), Some(a)) if insn.access.flow == Flow::Jump => {
                        self.emit_call_to(*a);
                    }
                    (Some(insn), _) => self.emit_indirect(insn),
                    (None, Some(a)) => self.emit_call_to(*a),
                    (None, None) => {}
                }
                self.emit_ret();
            }
            End::Invoke { next, pad } => {
                // The call (the block's last instruction, emitted above)
                // wrote `rax` and `rdx`, the pad's exception pointer and
                // selector; `cc` says whether it unwound.
                let call =
                    cfg.insts[*blk.insts.last().expect("an invoke ends in its call") as usize];
                let pb = self.target(*pad);
                match next {
                    Some(n) => {
                        self.emit_unwinds(call.ins.ip());
                        let nb = self.blocks[n];
                        self.b.branch(Operand::Var(self.cc), pb, nb);
                    }
                    None => self.b.jump(pb),
                }
            }
            End::NoReturn => {
                if let Some(insn) = last {
                    self.emit_insn(insn);
                }
                self.b.unreachable();
            }
        }
    }

    /// The flags `insn` reads and defines as [`emit_insn`](Self::emit_insn)
    /// lifts it ([`sem::flag_report`], with a call's from its
    /// signature or the convention).
    fn flag_report(&mut self, insn: &Insn) -> sem::FlagReport {
        let ins = &insn.ins;
        let site = Some(ins.ip());
        let known = &mut self.known;
        let (reads, writes) = match insn.access.flow {
            Flow::Call => self
                .calls
                .call_sets(known, Some(ins.near_branch_target()), site),
            Flow::IndirectCall => {
                let (reads, writes) = self.calls.call_sets(known, None, site);
                let more = insn.access.reads.union(self.calls.unknown_reads(site));
                let reads = reads.union(more);
                return sem::FlagReport {
                    reads: reads.intersection(LocSet::FLAGS),
                    defs: writes.intersection(LocSet::FLAGS),
                };
            }
            _ => return sem::flag_report(insn),
        };
        sem::FlagReport {
            reads: reads.intersection(LocSet::FLAGS),
            defs: writes.intersection(LocSet::FLAGS),
        }
    }

    /// The flags live before the calls [`end_block`](Self::end_block)
    /// emits for `blk`'s exits: its tail call, or the exit blocks of its
    /// successors outside the function (each a call of the target, then
    /// the return, which reads every flag): what each call reads and
    /// what it does not define ([`sem::live_out`]'s `exits`).
    fn exit_flags(&mut self, cfg: &FuncCfg, blk: &BlockInfo) -> LocSet {
        let live = |(reads, writes): (LocSet, LocSet)| {
            reads
                .union(LocSet::FLAGS.difference(writes))
                .intersection(LocSet::FLAGS)
        };
        let mut out = LocSet::EMPTY;
        let (calls, known) = (self.calls, &mut self.known);
        let mut outside = |t: &Target| {
            if let Target::Outside(a) = *t {
                out = out.union(live(calls.call_sets(known, Some(a), None)));
            }
        };
        match &blk.end {
            End::TailCall(a) => {
                let last = blk.insts.last().map(|&i| &cfg.insts[i as usize]);
                let last = last.filter(|i| i.access.flow.is_terminator());
                let site = last.and_then(origin).map(|o| o.address);
                return match (last, a) {
                    (Some(insn), Some(a)) if insn.access.flow == Flow::Jump => {
                        live(self.calls.call_sets(&mut self.known, Some(*a), site))
                    }
                    (Some(insn), _) => self.indirect_flags(insn, site),
                    (None, Some(a)) => live(self.calls.call_sets(&mut self.known, Some(*a), site)),
                    (None, None) => LocSet::FLAGS,
                };
            }
            End::Branch(t, f) => {
                outside(t);
                outside(f);
            }
            End::Switch(ts, d) => {
                ts.iter().for_each(&mut outside);
                outside(d);
            }
            End::Invoke { pad, .. } => outside(pad),
            End::Jump(_) | End::Ret | End::NoReturn => {}
        }
        out
    }

    /// The flags live before [`emit_indirect`](Self::emit_indirect)'s call
    /// for the tail jump `insn` at `site`: what it reads and what it does
    /// not define.
    fn indirect_flags(&mut self, insn: &Insn, site: Option<u64>) -> LocSet {
        let ins = &insn.ins;
        let got = ins
            .is_ip_rel_memory_operand()
            .then(|| self.bin.got_name(ins.ip_rel_memory_address()))
            .flatten();
        let (reads, writes) = match got {
            Some(_) => self.calls.call_sets(&mut self.known, None, site),
            None => (
                insn.access.reads.union(self.calls.unknown_reads(site)),
                self.calls.conv.call_writes,
            ),
        };
        reads
            .union(LocSet::FLAGS.difference(writes))
            .intersection(LocSet::FLAGS)
    }

    fn note(&mut self, i: Inst) {
        if self.origin.is_some() {
            self.origins.insts[i] = self.origin;
        }
    }

    /// With [`Options::semantics`], `what` emits the meaning of an
    /// instruction through the [semantics table](crate::sem); every
    /// operation it emits gets the instruction's origin. `false` when
    /// the table does not cover it (nothing emitted) or without the
    /// option.
    fn with_semantics(&mut self, what: impl FnOnce(&mut sem::Emitter<'_>) -> bool) -> bool {
        let Some(cache) = self.sem.as_mut() else {
            return false;
        };
        let before = self.b.func().block_insts(self.cur).len();
        let mut e = sem::Emitter::new(&mut self.b, &self.vars, cache).leave_out(self.leave_out);
        if !what(&mut e) {
            return false;
        }
        if let Some(site) = self.origin {
            for &i in &self.b.func().block_insts(self.cur)[before..] {
                self.origins.insts[i] = Some(site);
            }
        }
        true
    }

    fn operator(&mut self, m: Mnemonic, effects: Effects) -> Operator {
        let effects = canonical(effects);
        if let Some(&op) = self.ops.get(&(m, effects)) {
            return op;
        }
        let name = format!("x86.{}{}", mnemonic_name(m), effect_suffix(effects));
        let op = self
            .b
            .func_mut()
            .operator(&name, effects)
            .expect("an x86 operator's name determines its effects");
        self.ops.insert((m, effects), op);
        op
    }

    fn set_lists(&mut self, reads: LocSet, writes: LocSet) {
        self.args.clear();
        self.args
            .extend(reads.iter().map(|l| Operand::Var(self.vars[l])));
        self.results.clear();
        self.results.extend(writes.iter().map(|l| self.vars[l]));
    }

    /// `(results) = x86.M[imms](args)`, lists already set.
    fn emit_op(&mut self, m: Mnemonic, effects: Effects, imms: &[i64]) {
        let op = self.operator(m, effects);
        let f = self.b.func_mut();
        let imms = f.list(imms);
        let args = f.list(&self.args);
        let results = f.list(&self.results);
        let i = self.b.inst(InstData::Op {
            op,
            imms,
            args,
            results,
        });
        self.note(i);
    }

    /// A call of the code at `a`, named by [`callee_name`] (interned once
    /// per function and target).
    fn emit_call_to(&mut self, a: u64) {
        let callee = match self.callees.get(&a) {
            Some(&c) => c,
            None => {
                let c = self.b.func_mut().callee(&callee_name(self.bin, a));
                self.callees.insert(a, c);
                c
            }
        };
        self.emit_call(callee, Some(a));
    }

    /// A call of `callee` (at `target`, if known) with the reads and
    /// writes of its signature or the convention's.
    fn emit_call(&mut self, callee: Callee, target: Option<u64>) {
        let site = self.origin.map(|o| o.address);
        self.args.clear();
        let (args, vars) = (&mut self.args, &self.vars);
        let writes = self.calls.call_each(&mut self.known, target, site, |l| {
            args.push(Operand::Var(vars[l]))
        });
        self.results.clear();
        self.results.extend(writes.iter().map(|l| self.vars[l]));
        let f = self.b.func_mut();
        let args = f.list(&self.args);
        let results = f.list(&self.results);
        let i = self.b.inst(InstData::Call {
            callee,
            args,
            results,
        });
        self.note(i);
    }

    /// `cc = x86.unwinds[A]()`: whether the call at `A` returned by
    /// unwinding (to its landing pad) rather than normally. No machine
    /// instruction stands behind it (no origin).
    fn emit_unwinds(&mut self, call: u64) {
        let origin = self.origin.take();
        let f = self.b.func_mut();
        let op = f
            .operator("x86.unwinds", Effects::PURE)
            .expect("x86.unwinds is pure");
        let imms = f.list(&[call as i64]);
        let args = f.list(&[]);
        let results = f.list(&[self.cc]);
        self.b.inst(InstData::Op {
            op,
            imms,
            args,
            results,
        });
        self.origin = origin;
    }

    /// An exit: with the semantics, `rsp += 8` first (the return address
    /// popped, by this function's `ret` or a tail callee's).
    fn emit_ret(&mut self) {
        self.emit_ret_popping(8);
    }

    /// An exit whose return pops `bytes` (`ret imm16`: `8 + imm16`).
    fn emit_ret_popping(&mut self, bytes: i64) {
        self.with_semantics(|e| {
            sem::release(e, bytes);
            true
        });
        let vals = std::mem::take(&mut self.ret_vals);
        self.b.ret_values(&vals);
        self.ret_vals = vals;
    }

    /// One ordinary instruction (a call included).
    fn emit_insn(&mut self, insn: &Insn) {
        let ins = &insn.ins;
        let m = ins.mnemonic();
        match insn.access.flow {
            Flow::Invalid => {
                self.set_lists(LocSet::EMPTY, LocSet::EMPTY);
                self.emit_op(Mnemonic::INVALID, Effects::CALL, &[ins.ip() as i64]);
            }
            _ if matches!(m, Mnemonic::Nop | Mnemonic::Endbr64 | Mnemonic::Endbr32) => {}
            Flow::Call => {
                let saved = self.push_return_address(ins);
                self.emit_call_to(ins.near_branch_target());
                self.restore_rsp(saved);
            }
            Flow::IndirectCall => self.emit_indirect(insn),
            _ if self.with_semantics(|e| sem::emit(e, ins)) => {}
            _ => {
                self.set_lists(insn.access.reads, insn.access.writes);
                self.emit_op(m, insn.access.effects, &imms(insn));
            }
        }
    }

    /// A call or tail call of no immediate target: of `NAME.got` through
    /// a GOT slot, else the operation `x86.MNEMONIC.x` with the ABI's
    /// reads and writes and its target's registers.
    fn emit_indirect(&mut self, insn: &Insn) {
        let ins = &insn.ins;
        // A call (not a tail jump) pushes its return address with the
        // semantics; the callee's return releases it.
        let saved = match insn.access.flow {
            Flow::IndirectCall => self.push_return_address(ins),
            _ => None,
        };
        let got = ins
            .is_ip_rel_memory_operand()
            .then(|| self.bin.got_name(ins.ip_rel_memory_address()))
            .flatten();
        match got {
            Some(n) => {
                let callee = self.b.func_mut().callee(&ident(&format!("{n}.got")));
                self.emit_call(callee, None);
            }
            None => {
                let site = self.origin.map(|o| o.address);
                self.set_lists(
                    insn.access.reads.union(self.calls.unknown_reads(site)),
                    self.calls.conv.call_writes,
                );
                self.emit_op(ins.mnemonic(), Effects::CALL, &imms(insn));
            }
        }
        self.restore_rsp(saved);
    }

    /// With the semantics, a call's push of its return address; the
    /// temporary holding `rsp` before it.
    fn push_return_address(&mut self, ins: &iced_x86::Instruction) -> Option<Var> {
        let mut saved = None;
        self.with_semantics(|e| {
            saved = sem::push_return_address(e, ins);
            saved.is_some()
        });
        saved
    }

    /// After a call whose return address was pushed: `rsp` as before it.
    fn restore_rsp(&mut self, saved: Option<Var>) {
        if let Some(v) = saved {
            self.with_semantics(|e| {
                sem::restore_rsp(e, v);
                true
            });
        }
    }

    fn target(&mut self, t: Target) -> Block {
        match t {
            Target::Inside(a) => self.blocks[&a],
            Target::Outside(a) => {
                if let Some(&b) = self.exits.get(&a) {
                    return b;
                }
                let blk = self.b.block(hex_name('x', a, &mut String::new()));
                self.exits.insert(a, blk);
                self.b.switch_to(blk);
                let origin = self.origin.take();
                self.emit_call_to(a);
                self.emit_ret();
                self.origin = origin;
                self.b.switch_to(self.cur);
                blk
            }
        }
    }
}

/// `prefix` then `a` in lowercase hexadecimal (what `format!("b{a:x}")`
/// writes) appended to `out`, which is returned: a block's name without
/// formatting machinery (nor a check that the digits are UTF-8).
fn hex_name(prefix: char, a: u64, out: &mut String) -> &str {
    const DIGITS: &[u8; 16] = b"0123456789abcdef";
    let digits = (64 - a.leading_zeros()).div_ceil(4).max(1);
    out.push(prefix);
    for k in (0..digits).rev() {
        out.push(char::from(DIGITS[((a >> (4 * k)) & 0xf) as usize]));
    }
    out
}

/// The immediates of an instruction: its address, then each operand's
/// immediate, branch target or memory displacement (`rip`-relative ones
/// as the address they name). At most 5 operands: 6 values.
fn imms(insn: &Insn) -> Imms {
    let ins = &insn.ins;
    let mut v = Imms {
        vals: [0; 6],
        len: 1,
    };
    v.vals[0] = ins.ip() as i64;
    for i in 0..ins.op_count().min(5) {
        let x = match ins.op_kind(i) {
            OpKind::NearBranch16 | OpKind::NearBranch32 | OpKind::NearBranch64 => {
                ins.near_branch_target()
            }
            OpKind::Memory if ins.is_ip_rel_memory_operand() => ins.ip_rel_memory_address(),
            OpKind::Memory => ins.memory_displacement64(),
            k if crate::insn::is_imm(k) => ins.immediate(i),
            _ => continue,
        };
        v.vals[v.len] = x as i64;
        v.len += 1;
    }
    v
}

/// The immediates of one operation, without allocating.
struct Imms {
    vals: [i64; 6],
    len: usize,
}

impl std::ops::Deref for Imms {
    type Target = [i64];
    fn deref(&self) -> &[i64] {
        &self.vals[..self.len]
    }
}

/// Lifts the recovered function `cfg` of `info`.
///
/// ```
/// let elf = std::fs::read(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixture/fixture")).unwrap();
/// let bin = ssakit_x86::binary::Binary::parse(&elf).unwrap();
/// let info = bin.functions().iter().find(|f| f.name == "classify").unwrap();
/// let cfg = ssakit_x86::cfg::recover(&bin, info);
/// let f = ssakit_x86::lift::lift_cfg(&bin, info, &cfg);
/// assert!(ssakit::text::print_function(&f).contains("switch sel, "));
/// ```
pub fn lift_cfg(bin: &Binary<'_>, info: &FuncInfo, cfg: &FuncCfg) -> Function {
    lift_with_origins(bin, info, cfg, &Options::default()).0
}

/// The origin of the machine instruction `insn`.
fn origin(insn: &Insn) -> Option<Site> {
    Some(Site {
        address: insn.ins.ip(),
        size: insn.ins.len() as u8,
    })
}

/// [`lift_cfg`], the origins of what it emits, and with the semantics
/// the flag definitions of the meaning and those left out as overwritten
/// unread in their block ([`sem::drop_dead_flags`]).
pub(crate) fn lift_with_origins(
    bin: &Binary<'_>,
    info: &FuncInfo,
    cfg: &FuncCfg,
    opts: &Options,
) -> (Function, Origins, sem::FlagDefs) {
    let conv = Convention::of_kind(bin.convention());
    lift_with_calls(bin, info, cfg, opts, &CallModel::convention(&conv))
}

/// Room at once in `f` for what the lift of `cfg` will hold, instead of
/// doubling as it grows: with the semantics, about five operations, a
/// temporary or two and one or two immediates per machine instruction,
/// and a call's results (up to every location); 60 variables (the
/// locations and the temporaries) named in about 256 bytes; the blocks,
/// each named by its address.
fn reserve_room(f: &mut Function, cfg: &FuncCfg, opts: &Options) {
    let n = cfg.insts.len();
    let calls = (cfg.insts.iter())
        .filter(|i| matches!(i.access.flow, Flow::Call | Flow::IndirectCall))
        .count();
    let blocks = cfg.blocks.len() + 1;
    f.reserve_vars(64);
    f.reserve_params(41);
    f.reserve_blocks(blocks);
    f.reserve_names(64 + blocks, 256 + 12 * blocks);
    if opts.semantics {
        f.reserve_insts(6 * n);
        f.reserve_list_items::<Operand>(12 * n);
        f.reserve_list_items::<Var>(6 * n + 40 * calls);
        f.reserve_list_items::<i64>(2 * n);
    } else {
        f.reserve_insts(2 * n);
    }
}

/// [`lift_with_origins`] with the calls and returns of `calls`.
pub(crate) fn lift_with_calls(
    bin: &Binary<'_>,
    info: &FuncInfo,
    cfg: &FuncCfg,
    opts: &Options,
    calls: &CallModel<'_>,
) -> (Function, Origins, sem::FlagDefs) {
    let mut b = FunctionBuilder::new(&info.label);
    reserve_room(b.func_mut(), cfg, opts);
    let flag_ty = if opts.semantics {
        Type::I32
    } else {
        Type::Bool
    };
    let vars = LocMap::from_fn(|l| match l.kind() {
        LocKind::Flag => b.typed_param(l.name(), flag_ty),
        _ => b.typed_param(l.name(), l.ty()),
    });
    let cc = b.typed_var("cc", flag_ty);
    let sel = b.var("sel");
    let ret_types: Vec<Type> = calls
        .ret
        .iter()
        .map(|l| match l.kind() {
            LocKind::Flag => flag_ty,
            _ => l.ty(),
        })
        .collect();
    b.returns(&ret_types);
    let ret_vals = calls.ret.iter().map(|&l| Operand::Var(vars[l])).collect();
    let mut l = Lifter {
        bin,
        b,
        vars,
        cc,
        sel,
        cur: Block::new(0),
        blocks: FxHashMap::with_capacity_and_hasher(cfg.blocks.len(), Default::default()),
        exits: FxHashMap::default(),
        ops: FxHashMap::default(),
        callees: FxHashMap::default(),
        known: FxHashMap::default(),
        // Room for every location (39), the most an operation or call
        // reads or writes, so that the lists never grow.
        args: Vec::with_capacity(64),
        results: Vec::with_capacity(64),
        origin: None,
        sem: opts.semantics.then(sem::Cache::for_function),
        leave_out: LocSet::EMPTY,
        origins: Origins {
            insts: SecondaryMap::with_capacity(6 * cfg.insts.len(), None),
            terms: SecondaryMap::with_capacity(cfg.blocks.len() + 1, None),
            starts: SecondaryMap::with_capacity(cfg.blocks.len() + 1, None),
        },
        calls,
        ret_vals,
    };
    let entry = cfg.entry_is_target.then(|| l.b.block("entry"));
    let mut name = String::with_capacity(17);
    for blk in &cfg.blocks {
        name.clear();
        let nb = l.b.block(hex_name('b', blk.start, &mut name));
        l.blocks.insert(blk.start, nb);
        l.origins.starts[nb] = Some(blk.start);
    }
    l.cur = entry.unwrap_or(l.blocks[&cfg.blocks[0].start]);
    if let Some(e) = entry {
        l.b.switch_to(e);
        let first = l.blocks[&cfg.blocks[0].start];
        l.b.jump(first);
    }
    // With the semantics, each instruction's flag report, the flags that
    // may be live out of each block, and per instruction of a block's
    // body the flags it may leave out.
    let (reports, flags_out) = match opts.semantics {
        true => {
            let reports: Vec<sem::FlagReport> =
                cfg.insts.iter().map(|i| l.flag_report(i)).collect();
            let exits: Vec<LocSet> = cfg.blocks.iter().map(|b| l.exit_flags(cfg, b)).collect();
            let out = sem::live_out(cfg, &reports, &exits);
            (reports, out)
        }
        false => (Vec::new(), Vec::new()),
    };
    let mut dead = Vec::new();
    for (k, blk) in cfg.blocks.iter().enumerate() {
        l.cur = l.blocks[&blk.start];
        l.b.switch_to(l.cur);
        let (body, last) = match blk.insts.split_last() {
            Some((&last, body)) if cfg.insts[last as usize].access.flow.is_terminator() => {
                (body, Some(&cfg.insts[last as usize]))
            }
            _ => (&blk.insts[..], None),
        };
        if opts.semantics {
            let end = LocSet::FLAGS
                .difference(flags_out[k])
                .difference(last.map_or(LocSet::EMPTY, sem::term_reads));
            let reports = body.iter().map(|&i| reports[i as usize]);
            sem::dead_after(reports, end, &mut dead);
        }
        for (j, &i) in body.iter().enumerate() {
            let insn = &cfg.insts[i as usize];
            l.origin = origin(insn);
            l.leave_out = match insn.access.flow {
                Flow::Next => dead.get(j).copied().unwrap_or(LocSet::EMPTY),
                _ => LocSet::EMPTY,
            };
            l.emit_insn(insn);
        }
        l.leave_out = LocSet::EMPTY;
        l.origin = last.and_then(origin);
        if l.origin.is_some() {
            l.origins.terms[l.cur] = l.origin;
        }
        l.end_block(cfg, blk, last);
    }
    let mut func = l.b.finish();
    let flags = match &l.sem {
        Some(cache) => {
            let flag_vars: Vec<Var> = LocSet::FLAGS.iter().map(|f| l.vars[f]).collect();
            let temps: Vec<Var> = cache.temps().collect();
            let mut counts = sem::drop_dead_flags(&mut func, &flag_vars, &temps);
            // What was left out unemitted, the step would have dropped.
            counts.meaning += cache.left_out;
            counts.dropped += cache.left_out;
            counts
        }
        None => sem::FlagDefs::default(),
    };
    (func, l.origins, flags)
}

#[cfg(test)]
mod tests {
    /// `hex_name` writes what `format!` does.
    #[test]
    fn hex_name_is_format() {
        for a in [0u64, 1, 0xf, 0x10, 0x1000, 0x95ef0, 0xdead_beef, u64::MAX] {
            assert_eq!(
                super::hex_name('b', a, &mut String::new()),
                format!("b{a:x}")
            );
            let mut name = String::from("sub");
            assert_eq!(super::hex_name('_', a, &mut name), format!("sub_{a:x}"));
        }
    }
}
