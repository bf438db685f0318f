//! Function signatures found with SSA: per function, its parameters, its
//! results and the registers it preserves, from the SSA form of its own
//! code, bottom-up over the call graph (section 13.8 of the chapter, the
//! call boundary; Van Emmerik, "Static Single Assignment for
//! Decompilation", 2007, chapters 3 and 4: parameters, returns and
//! preserved locations found without assuming the ABI).
//!
//! # The analysis of one function
//!
//! The function is lifted with the semantics, every call reading and
//! clobbering what its callee's signature says (the callees come first)
//! and every return reading *all* 39 locations, its frame slots
//! promoted with `--stack` ([`crate::slots`]), and put into pruned SSA.
//! Then, over its SSA values:
//!
//! * the **origin** of a value is the location `L` whose entry value it
//!   certainly is: the parameter `L`, a copy of a value of origin `L`, a
//!   phi all of whose operands have origin `L` (an optimistic fixpoint:
//!   a loop that only carries the value keeps it). `push rbx` … `pop
//!   rbx` promoted to the slot variable `s8` is `s8 = rbx` … `rbx = s8`:
//!   the `rbx` at the return has origin `rbx`;
//! * `L` is **preserved** when the value at `L` of every return has
//!   origin `L` (and the convention's callee-saved registers are assumed
//!   preserved, as the caller of an unknown function assumes);
//! * `L` is a **result** when it is one of the convention's result
//!   registers, is not preserved, and the entry value of `L` reaches no
//!   return at `L` (it is defined at every return: a union fixpoint of
//!   the values each may be); then, once every function is analysed,
//!   only the results some direct caller reads after a call are kept (a
//!   function with no direct caller keeps them all);
//! * `L` (other than `rsp`) is a **parameter** when its entry value is
//!   *used*: read by an operation, a call, a branch, or returned as a
//!   result, directly or through copies and phis (a backward closure
//!   from those uses). A value only saved and restored, or returned at
//!   its own location, is not a use, nor is the store of a callee-saved
//!   register's entry value (its save in a slot left in memory); the
//!   store of an argument register's is (`mov [rdi+8], rsi`); nor is
//!   the upper part an 8- or 16-bit write keeps (`mov dl, al`: `rdx =
//!   (rdx & !0xff) | al`) when it is an entry value, or when no use
//!   observes those bits (demanded bits, `demanded.rs`: `mov [rax+rcx], dl`
//!   stores the low byte only);
//!   the flags are never parameters (no convention passes a value in
//!   them; System V and Go keep `DF` clear across calls);
//! * an **unknown callee** (indirect, through the PLT or GOT, of a
//!   cycle) reads the convention's arguments, each list of positional
//!   ones ([`Convention::positional`]: System V's `rdi rsi rdx rcx r8
//!   r9`, `xmm0`–`xmm7`, `rax`) only up to the last register the caller
//!   wrote before the call (an operation's result, a callee's result, a
//!   copy or phi of one; not an entry value, not what an earlier call
//!   clobbered without returning it; but a value the function moved
//!   into the register itself, `mov rdi, rbx`, entry value or not: see
//!   `moved_into`) *as an argument*: a register whose value is the
//!   call's own target (`call rcx`) or addresses memory (a scratch
//!   register: `mov rcx, [rbp-0x10]; mov rsi, [rcx+0x10]; call rax`)
//!   is read if written, but reads none of the unwritten ones before it
//!   (`positional_reads`). A result of an unknown callee
//!   other than `rax` (`rdx`, the vectors) counts as written only where
//!   something other than such an argument uses it (a second round). An
//!   argument the caller wrote on some path only uses what it wrote: an
//!   entry value merged with it by a phi is not a use. A wrapper that
//!   passes its own parameters on to an unknown callee unchanged,
//!   writing none, loses them, and so does one that writes after them
//!   only the call's target or a scratch register (libc's `xdr_free`:
//!   `mov rdx, rdi` ... `call rdx`, its `rsi` passed on): the price of
//!   not counting every argument register as every caller's parameter;
//! * a call through the **PLT stub** of a symbol the binary itself
//!   defines ([`Binary::plt_definition`]: libc's `free.plt`) is an
//!   unknown callee's (another object may interpose its own definition,
//!   so it clobbers what the convention allows), but it passes no
//!   positional argument the definition does not read; the definition
//!   is analysed first (the stub is an edge of the call graph). A tail
//!   jump through such a stub (`gzseek: jmp gzseek64@plt`) after which
//!   no argument register was written passes on the definition's
//!   parameters, the symbol's interface (`passes_on`). A stub
//!   an IFUNC's resolver fills ([`Binary::plt_resolver`]: libc's
//!   `memcpy`, `strlen`) passes none that no function the resolver may
//!   return (the addresses it computes, `lea rdx, [rip+X]`) reads;
//! * a `syscall` whose number in `rax` is a constant (through copies,
//!   phis and width changes) reads only its call's arguments (`rdi rsi
//!   rdx r10 r8 r9` up to the kernel's arity); a call whose operation
//!   decides how many it takes (`futex`, `ioctl`, `fcntl`, ...), or
//!   whose number is not a constant, reads them up to the last one the
//!   caller wrote, as an unknown callee (and, as for one, an argument
//!   written on some path reads only what was written);
//! * a register whose entry value a function only stores to memory (the
//!   register save area of a variadic function, for `va_arg`: `mov`
//!   for the general ones, `movaps` for the vectors) is an **optional**
//!   parameter: a call passes it only up to the last argument register
//!   its caller wrote or passes as a parameter that is not optional (and
//!   one written on some path only with what was written); the vector
//!   ones of a System V callee only up to `al` where it is a constant,
//!   the ABI's count of the vector registers a variadic call passes;
//! * the **stack parameters** (with `--stack`) are the words of the
//!   caller's frame the function loads ([`crate::slots`]'s *incoming*
//!   accesses: 8 bytes above the entry `rsp` and up).
//!
//! With `SSAKIT_SIGNATURE_WHY` set in the environment, the analysis
//! writes on standard error, per parameter, the first use it found of
//! its entry value (`WHY FUNCTION REGISTER ADDRESS REASON`: an
//! operation, a call of a known callee, of an unknown one, of one of its
//! own cycle, a branch or return); `scripts/x86-signature-truth.py`
//! tabulates the causes of the parameters DWARF does not have.
//!
//! # The call graph
//!
//! Direct calls and tail calls name their callee; the strongly connected
//! components of the graph (Tarjan's algorithm, iteratively) are
//! analysed callees first. A component's level in the condensation is
//! one more than its callees'; an analysis sees the findings of the
//! functions of lower levels only, as if the levels ran one after
//! another, but a component starts as soon as those of them its
//! functions call are done (a work queue that counts, per component, the
//! components it still waits for), so that a long cycle does not keep
//! the other threads waiting at the end of its level. The calls of
//! unknown callees an analysis finds are seen by none (they are known
//! once every function is analysed, for the lifting that follows).
//! The functions of a cycle (recursion) are analysed to a least
//! fixpoint by a worklist: at first every call within the cycle reads
//! no parameter; each analysis of a function reads, at a call within
//! the cycle, what its callee's analyses found so far (their union, so
//! parameters only grow), but, as for an unknown callee, only up to the
//! last positional register its caller wrote, and it clobbers what the
//! convention does not preserve. The functions start in the order of a
//! depth-first postorder (callees first), and a function is analysed
//! again only when a callee's parameters grew; the list empties when no
//! parameter is added (after at most 16 analyses per function, else the
//! calls follow the convention as an unknown callee's). A function
//! whose analysis fails gets the convention's
//! ([`Signature::of_convention`]).
//!
//! ```
//! # let elf = std::fs::read(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixture/fixture")).unwrap();
//! # let bin = ssakit_x86::binary::Binary::parse(&elf).unwrap();
//! use ssakit_x86::regs::Loc;
//! let sigs = ssakit_x86::signature::Signatures::infer(&bin, false);
//! let sum = bin.functions().iter().find(|f| f.name == "sum").unwrap();
//! let s = sigs.at(sum.extent.start).unwrap();
//! assert!(s.params.contains(Loc::RDI) && s.params.contains(Loc::RSI) && !s.params.contains(Loc::RDX));
//! assert!(s.preserved.contains(Loc::xmm(0))); // no vector register touched
//! ```

use crate::binary::{Binary, FuncInfo};
use crate::capture::{Lent, Summary};
use crate::cfg::{recover, End, FuncCfg, Target};
use crate::conv::Convention;
use crate::lift::{self, CallModel, Callees, Lifted, Origins};
use crate::regs::{Flow, Loc, LocSet};
use rayon::prelude::*;
use ssakit::construct::{self, Flavor};
use ssakit::entity::SecondaryMap;
use ssakit::ir::{Function, Inst, InstData, Opcode, Operand, Operator, Terminator, Var};
use std::cell::RefCell;
use std::cmp::Reverse;
use std::collections::BinaryHeap;
use std::fmt;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Mutex, OnceLock};

/// What one function takes, gives back and keeps.
///
/// ```
/// use ssakit_x86::conv::{Convention, ConvKind};
/// use ssakit_x86::regs::Loc;
/// let s = ssakit_x86::signature::Signature::of_convention(&Convention::of_kind(ConvKind::SystemV));
/// assert!(s.fallback && s.params.contains(Loc::RDI) && s.preserved.contains(Loc::RBX));
/// assert!(s.clobbers().contains(Loc::RAX) && !s.clobbers().contains(Loc::RSP));
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Signature {
    /// The registers (and flags) whose entry value it uses; never `rsp`.
    pub params: LocSet,
    /// The words of its caller's frame it reads (offsets from the entry
    /// `rsp`, 8 and up), with `--stack`.
    pub stack_params: Vec<i64>,
    /// The registers it returns a value in.
    pub results: LocSet,
    /// The locations that hold their entry value at every return.
    pub preserved: LocSet,
    /// Whether this is the convention's signature (a function whose
    /// analysis failed).
    pub fallback: bool,
    /// Of the parameters, the argument registers a variadic function
    /// only saves in its register save area for `va_arg` (the prologue
    /// of `va_start`): the arguments past its named ones. Calls still
    /// pass them; the named parameters are the others.
    pub unnamed: LocSet,
}

impl Signature {
    /// The convention's signature: its argument registers, its results,
    /// its callee-saved registers.
    ///
    /// ```
    /// use ssakit_x86::conv::{Convention, ConvKind};
    /// use ssakit_x86::regs::Loc;
    /// let go = Convention::of_kind(ConvKind::GoAbiInternal);
    /// let s = ssakit_x86::signature::Signature::of_convention(&go);
    /// assert!(s.params.contains(Loc::RBX) && s.results.contains(Loc::RBX));
    /// ```
    pub fn of_convention(conv: &Convention) -> Signature {
        let mut params = conv.call_reads;
        params.remove(Loc::RSP);
        Signature {
            params,
            stack_params: Vec::new(),
            results: conv.results,
            preserved: conv.preserved,
            fallback: true,
            unnamed: LocSet::EMPTY,
        }
    }

    /// The signature a function of a cycle starts its analysis with: no
    /// parameter, `rax` its result if it is the convention's, the
    /// convention's callee-saved registers preserved.
    fn within_cycle(conv: &Convention) -> Signature {
        Signature {
            params: LocSet::EMPTY,
            stack_params: Vec::new(),
            results: conv.results.intersection(LocSet::of(&[Loc::RAX])),
            preserved: conv.preserved,
            fallback: false,
            unnamed: LocSet::EMPTY,
        }
    }

    /// What a call of this function clobbers: every location it does
    /// not preserve (never `rsp`).
    ///
    /// ```
    /// use ssakit_x86::conv::{Convention, ConvKind};
    /// use ssakit_x86::regs::LocSet;
    /// let c = Convention::of_kind(ConvKind::SystemV);
    /// assert_eq!(ssakit_x86::signature::Signature::of_convention(&c).clobbers(), LocSet::CALL_WRITES);
    /// ```
    pub fn clobbers(&self) -> LocSet {
        let mut s = LocSet::ALL.difference(self.preserved);
        s.remove(Loc::RSP);
        s
    }

    /// What a call of this function reads, in operand order: `rsp` and
    /// the parameters in the convention's order, then the others in the
    /// model's.
    pub(crate) fn call_args(&self, conv: &Convention) -> Vec<Loc> {
        let mut wanted = self.params;
        wanted.insert(Loc::RSP);
        ordered(wanted, &conv.call_args)
    }

    /// What a return of this function reads, in order: the convention's
    /// for a fallback signature, else its results.
    pub(crate) fn ret_locs(&self, conv: &Convention) -> Vec<Loc> {
        match self.fallback {
            true => conv.ret_locs.clone(),
            false => ordered(self.results, &conv.ret_locs),
        }
    }
}

/// The locations of `set`: those of `order` first, in its order, then the
/// others in the model's.
fn ordered(set: LocSet, order: &[Loc]) -> Vec<Loc> {
    let mut out = Vec::with_capacity(set.len());
    out.extend(order.iter().copied().filter(|&l| set.contains(l)));
    let listed = LocSet::of(order);
    out.extend(set.difference(listed).iter());
    out
}

impl fmt::Display for Signature {
    /// `(rdi, rsi, stack+8) -> (rax) preserves rbx, rbp` with `[convention]`
    /// for a fallback; the preserved set lists the general registers only.
    ///
    /// ```
    /// use ssakit_x86::regs::{Loc, LocSet};
    /// let s = ssakit_x86::signature::Signature {
    ///     params: LocSet::of(&[Loc::RDI]),
    ///     stack_params: vec![8],
    ///     results: LocSet::of(&[Loc::RAX]),
    ///     preserved: LocSet::of(&[Loc::RBX, Loc::RSP, Loc::CF]),
    ///     fallback: false,
    ///     unnamed: LocSet::EMPTY,
    /// };
    /// assert_eq!(s.to_string(), "(rdi, stack+8) -> (rax) preserves rbx rsp");
    /// ```
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut params: Vec<String> = self.params.iter().map(|l| l.name().to_string()).collect();
        params.extend(self.stack_params.iter().map(|o| format!("stack+{o}")));
        let results: Vec<&str> = self.results.iter().map(|l| l.name()).collect();
        write!(f, "({}) -> ({})", params.join(", "), results.join(", "))?;
        let kept: Vec<&str> = self
            .preserved
            .intersection(LocSet::GPRS)
            .iter()
            .map(|l| l.name())
            .collect();
        if !kept.is_empty() {
            write!(f, " preserves {}", kept.join(" "))?;
        }
        if self.fallback {
            f.write_str(" [convention]")?;
        }
        Ok(())
    }
}

/// The signatures of a binary's functions (as [`Binary::functions`]) and
/// its convention.
///
/// ```
/// # let elf = std::fs::read(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixture/fixture")).unwrap();
/// # let bin = ssakit_x86::binary::Binary::parse(&elf).unwrap();
/// let sigs = ssakit_x86::signature::Signatures::infer(&bin, true);
/// assert_eq!(sigs.len(), bin.functions().len());
/// assert!(sigs.iter().all(|s| s.is_some()));
/// ```
#[derive(Clone, Debug)]
pub struct Signatures {
    conv: Convention,
    starts: Vec<u64>,
    /// Per function, its signature, set once its component is analysed
    /// (the components run in parallel: [`Signatures::infer`]).
    sigs: Vec<OnceLock<Signature>>,
    /// Per function, the level of its component in the call graph's
    /// condensation ([`CallOrder`]): an analysis sees the findings of
    /// the functions of lower levels only ([`Seen`]).
    levels: Vec<u32>,
    /// The calls of unknown callees: (the instruction's address, what it
    /// reads), sorted by address; empty until every function is
    /// analysed (an analysis never sees another's).
    sites: Vec<(u64, LocSet)>,
    /// Per function, its optional parameters: the general registers
    /// whose entry value it only stores to memory (a variadic function's
    /// register save area, `mov [rsp+N], rdx`, for `va_arg`). A call
    /// passes one only if the caller wrote it, as for an unknown callee.
    /// Set with `sigs`.
    optional: Vec<OnceLock<LocSet>>,
    /// The PLT stubs of symbols the binary itself defines
    /// ([`Binary::plt_definition`]): (stub, the definition's index),
    /// sorted.
    plt: Vec<(u64, usize)>,
    /// The PLT stubs an IFUNC's resolver fills ([`Binary::plt_resolver`]):
    /// (stub, the functions the resolver may return), sorted.
    ifunc: Vec<(u64, Vec<usize>)>,
    /// Per function, what it does with its pointer arguments and its
    /// caller's frame ([`crate::capture`]; with `stack` only, else it
    /// captures all). Set with `sigs`.
    captures: Vec<OnceLock<Summary>>,
}

/// Whose findings an analysis reads: every function's (once all are
/// analysed), or, during [`Signatures::infer`], those of the functions
/// of levels below its own ([`CallOrder`]), which are its callees' and
/// are done before it starts; as if the levels ran one after another,
/// whatever else the threads have finished by then.
#[derive(Clone, Copy, Debug)]
enum Seen {
    All,
    Below(u32),
}

impl Found {
    /// What a function whose analysis failed gets: the convention.
    fn of_convention(conv: &Convention) -> Found {
        Found {
            sig: Signature::of_convention(conv),
            reads_after: Vec::new(),
            sites: Vec::new(),
            optional: LocSet::EMPTY,
            captures: Summary::default(),
        }
    }
}

/// What the analysis of one function finds.
struct Found {
    sig: Signature,
    /// Per direct call: the callee's index and the results read after it.
    reads_after: Vec<(usize, LocSet)>,
    /// Its calls of unknown callees: (address, what each reads).
    sites: Vec<(u64, LocSet)>,
    /// Its optional parameters ([`Signatures`]'s `optional`).
    optional: LocSet,
    /// What it does with its pointer arguments ([`Signatures`]'s
    /// `captures`).
    captures: Summary,
}

impl Signatures {
    /// Finds the signature of every function of `bin` (lifted with the
    /// semantics, its frame slots promoted if `stack`).
    ///
    /// ```
    /// # let elf = std::fs::read(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixture/fixture")).unwrap();
    /// # let bin = ssakit_x86::binary::Binary::parse(&elf).unwrap();
    /// use ssakit_x86::regs::Loc;
    /// let sigs = ssakit_x86::signature::Signatures::infer(&bin, true);
    /// let maxl = bin.functions().iter().find(|f| f.name == "maxl").unwrap();
    /// assert_eq!(sigs.at(maxl.extent.start).unwrap().to_string().split(" preserves").next(), Some("(rsi, rdi) -> (rax)"));
    /// ```
    pub fn infer(bin: &Binary<'_>, stack: bool) -> Signatures {
        Self::infer_keeping_cfgs(bin, stack).0
    }

    /// [`Signatures::infer`], giving back the control flow it recovered
    /// of every function (as [`Binary::functions`]), for a caller that
    /// lifts them next (the pipeline: no second recovery).
    ///
    /// ```
    /// # let elf = std::fs::read(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixture/fixture")).unwrap();
    /// # let bin = ssakit_x86::binary::Binary::parse(&elf).unwrap();
    /// let (sigs, cfgs) = ssakit_x86::signature::Signatures::infer_keeping_cfgs(&bin, false);
    /// assert_eq!((sigs.len(), cfgs.len()), (bin.functions().len(), bin.functions().len()));
    /// ```
    pub fn infer_keeping_cfgs(bin: &Binary<'_>, stack: bool) -> (Signatures, Vec<FuncCfg>) {
        let funcs = bin.functions();
        let conv = Convention::of_kind(bin.convention());
        let mut sigs = Signatures {
            conv,
            starts: funcs.iter().map(|f| f.extent.start).collect(),
            sigs: vec![OnceLock::new(); funcs.len()],
            levels: vec![0; funcs.len()],
            sites: Vec::new(),
            optional: vec![OnceLock::new(); funcs.len()],
            plt: Vec::new(),
            ifunc: Vec::new(),
            captures: vec![OnceLock::new(); funcs.len()],
        };
        let mut plt: Vec<(u64, usize)> = (bin.plt_stubs())
            .filter_map(|stub| Some((stub, sigs.index(bin.plt_definition(stub)?)?)))
            .collect();
        plt.sort_unstable();
        sigs.plt = plt;
        let cfgs: Vec<FuncCfg> = funcs.par_iter().map(|f| recover(bin, f)).collect();
        let mut ifunc: Vec<(u64, Vec<usize>)> = (bin.plt_stubs())
            .filter_map(|stub| {
                let r = sigs.index(bin.plt_resolver(stub)?)?;
                Some((stub, sigs.resolved(&cfgs[r], r)))
            })
            .filter(|(_, ks)| !ks.is_empty())
            .collect();
        ifunc.sort_unstable();
        sigs.ifunc = ifunc;
        let graph: Vec<Vec<usize>> = cfgs.iter().map(|c| sigs.callees(c)).collect();
        let order = CallOrder::of(&graph);
        for (l, level) in order.levels.iter().enumerate() {
            for &k in level.iter().flatten() {
                sigs.levels[k] = l as u32;
            }
        }
        let analysed = {
            let queue = Queue::new(&sigs, &cfgs, &order);
            let sigs_ref = &sigs;
            queue.run(|comp| {
                let found = sigs_ref.analyse_component(bin, funcs, &cfgs, &graph, comp, stack);
                for (k, f) in &found {
                    let _ = sigs_ref.optional[*k].set(f.optional);
                    let _ = sigs_ref.captures[*k].set(f.captures.clone());
                    let _ = sigs_ref.sigs[*k].set(f.sig.clone());
                }
                found
            })
        };
        // What the callers read and the unknown callees' sites, in the
        // order of the levels (the sites' order is the sort's input).
        let mut reads_after = vec![LocSet::EMPTY; funcs.len()];
        let mut called = vec![false; funcs.len()];
        for (_, f) in analysed.into_iter().flatten() {
            for &(callee, read) in &f.reads_after {
                reads_after[callee] = reads_after[callee].union(read);
                called[callee] = true;
            }
            sigs.sites.extend(f.sites);
        }
        sigs.sites.sort_unstable_by_key(|s| s.0);
        for (k, s) in sigs.sigs.iter_mut().enumerate() {
            if let Some(s) = s.get_mut().filter(|s| called[k] && !s.fallback) {
                s.results = s.results.intersection(reads_after[k]);
            }
        }
        (sigs, cfgs)
    }

    /// The signature of the function starting at `addr`, if it is one
    /// of the binary's functions and analysed.
    ///
    /// ```
    /// # let elf = std::fs::read(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixture/fixture")).unwrap();
    /// # let bin = ssakit_x86::binary::Binary::parse(&elf).unwrap();
    /// let sigs = ssakit_x86::signature::Signatures::infer(&bin, false);
    /// assert!(sigs.at(0).is_none());
    /// ```
    pub fn at(&self, addr: u64) -> Option<&Signature> {
        let k = self.index(addr)?;
        self.sigs[k].get()
    }

    /// The signatures, as [`Binary::functions`].
    ///
    /// ```
    /// # let elf = std::fs::read(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixture/fixture")).unwrap();
    /// # let bin = ssakit_x86::binary::Binary::parse(&elf).unwrap();
    /// let sigs = ssakit_x86::signature::Signatures::infer(&bin, false);
    /// assert!(sigs.iter().flatten().any(|s| !s.fallback));
    /// ```
    pub fn iter(&self) -> impl Iterator<Item = Option<&Signature>> {
        self.sigs.iter().map(|s| s.get())
    }

    /// The number of functions.
    ///
    /// ```
    /// # let elf = std::fs::read(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixture/fixture")).unwrap();
    /// # let bin = ssakit_x86::binary::Binary::parse(&elf).unwrap();
    /// assert!(!ssakit_x86::signature::Signatures::infer(&bin, false).is_empty());
    /// ```
    pub fn len(&self) -> usize {
        self.sigs.len()
    }

    /// Whether there is no function.
    ///
    /// ```
    /// # let elf = std::fs::read(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixture/fixture")).unwrap();
    /// # let bin = ssakit_x86::binary::Binary::parse(&elf).unwrap();
    /// assert!(!ssakit_x86::signature::Signatures::infer(&bin, false).is_empty());
    /// ```
    pub fn is_empty(&self) -> bool {
        self.sigs.is_empty()
    }

    /// The binary's convention.
    ///
    /// ```
    /// # let elf = std::fs::read(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixture/fixture")).unwrap();
    /// # let bin = ssakit_x86::binary::Binary::parse(&elf).unwrap();
    /// let sigs = ssakit_x86::signature::Signatures::infer(&bin, false);
    /// assert_eq!(sigs.convention().kind, ssakit_x86::conv::ConvKind::SystemV);
    /// ```
    pub fn convention(&self) -> &Convention {
        &self.conv
    }

    /// The signature of function `k` if it is analysed and `seen`.
    fn found(&self, k: usize, seen: Seen) -> Option<&Signature> {
        match seen {
            Seen::Below(l) if self.levels[k] >= l => None,
            _ => self.sigs[k].get(),
        }
    }

    /// What the call of an unknown callee at `addr` reads, if the
    /// analysis saw it.
    pub(crate) fn site_reads(&self, addr: u64) -> Option<LocSet> {
        let k = self.sites.partition_point(|s| s.0 < addr);
        self.sites.get(k).filter(|s| s.0 == addr).map(|s| s.1)
    }

    /// The index of the function starting at `addr`.
    fn index(&self, addr: u64) -> Option<usize> {
        let k = self.starts.partition_point(|&s| s < addr);
        (self.starts.get(k) == Some(&addr)).then_some(k)
    }

    /// The callee of a direct call or jump to `addr`: the index of the
    /// function starting there, or of the binary's own definition of the
    /// symbol of the PLT stub there; and whether it is through the PLT
    /// (another object may interpose its own definition: the call then
    /// reads the definition's parameters, the interface both share, but
    /// may clobber all the convention lets a callee clobber).
    fn target(&self, addr: u64) -> Option<(usize, bool)> {
        if let Some(k) = self.index(addr) {
            return Some((k, false));
        }
        let k = self.plt.partition_point(|s| s.0 < addr);
        let &(_, k) = self.plt.get(k).filter(|s| s.0 == addr)?;
        Some((k, true))
    }

    /// The functions an IFUNC's resolver `cfg` (function `r`) may return:
    /// those whose address it computes (`lea rax, [rip+X]`), as glibc's
    /// resolvers pick one of their implementations.
    fn resolved(&self, cfg: &FuncCfg, r: usize) -> Vec<usize> {
        let mut out: Vec<usize> = (cfg.insts.iter())
            .filter(|i| i.ins.mnemonic() == iced_x86::Mnemonic::Lea)
            .filter(|i| i.ins.is_ip_rel_memory_operand())
            .filter_map(|i| self.index(i.ins.ip_rel_memory_address()))
            .filter(|&k| k != r)
            .collect();
        out.sort_unstable();
        out.dedup();
        out
    }

    /// The functions an IFUNC's PLT stub at `addr` may call.
    fn ifunc_at(&self, addr: u64) -> Option<&[usize]> {
        let k = self.ifunc.partition_point(|s| s.0 < addr);
        self.ifunc
            .get(k)
            .filter(|s| s.0 == addr)
            .map(|s| s.1.as_slice())
    }

    /// The functions a recovered function calls or tail-calls directly.
    fn callees(&self, cfg: &FuncCfg) -> Vec<usize> {
        let mut out: Vec<usize> = cfg
            .insts
            .iter()
            .filter(|i| i.access.flow == Flow::Call)
            .map(|i| i.ins.near_branch_target())
            .chain(cfg.blocks.iter().filter_map(|b| match &b.end {
                End::TailCall(Some(a)) => Some(*a),
                End::Branch(Target::Outside(a), _) | End::Branch(_, Target::Outside(a)) => Some(*a),
                _ => None,
            }))
            .flat_map(|a| {
                let direct = self.target(a).map(|t| t.0);
                direct
                    .into_iter()
                    .chain(self.ifunc_at(a).into_iter().flatten().copied())
            })
            .collect();
        out.sort_unstable();
        out.dedup();
        out
    }

    /// The functions whose findings the analysis of a recovered function
    /// may read: its callees ([`Signatures::callees`]) and the targets of
    /// its direct calls and jumps ([`Signatures::call_sites`]), and the
    /// functions an IFUNC's stub among them may call.
    fn reads(&self, cfg: &FuncCfg) -> Vec<usize> {
        let mut out = self.callees(cfg);
        for i in cfg.insts.iter() {
            if matches!(i.access.flow, Flow::Call | Flow::Jump) {
                let t = i.ins.near_branch_target();
                out.extend(self.target(t).map(|t| t.0));
                out.extend(self.ifunc_at(t).into_iter().flatten());
            }
        }
        out.sort_unstable();
        out.dedup();
        out
    }

    /// The call model of a function lifted with these signatures: each
    /// call as its callee's signature, each return as its own.
    pub(crate) fn call_model(&self, addr: u64) -> CallModel<'_> {
        let ret = match self.at(addr) {
            Some(s) => s.ret_locs(&self.conv),
            None => self.conv.ret_locs.clone(),
        };
        CallModel {
            conv: &self.conv,
            sigs: Some(self),
            ret,
        }
    }

    /// The analysis of one component `comp` of the call graph `graph`: a
    /// function that does not call itself once; the functions of a cycle
    /// in passes until their parameters stop growing (each pass in waves
    /// of functions analysed in parallel, below), each call within
    /// the cycle reading what its callee's analyses found so far (nothing
    /// at first: a least fixpoint, parameters only ever added) and
    /// clobbering what the convention does not preserve. A cycle that
    /// does not settle within [`CYCLE_ROUNDS`] analyses per function has
    /// its calls follow the convention, as an unknown callee's.
    fn analyse_component(
        &self,
        bin: &Binary<'_>,
        funcs: &[FuncInfo],
        cfgs: &[FuncCfg],
        graph: &[Vec<usize>],
        comp: &[usize],
        stack: bool,
    ) -> Vec<(usize, Found)> {
        let once = |k: usize, cycle: &[Member]| {
            let found = self.analyse(bin, (k, &funcs[k]), &cfgs[k], stack, cycle);
            (k, found.unwrap_or_else(|| Found::of_convention(&self.conv)))
        };
        if comp.len() == 1 && !graph[comp[0]].contains(&comp[0]) {
            return comp.iter().map(|&k| once(k, &[])).collect();
        }
        let mut cycle: Vec<Member> = comp
            .iter()
            .map(|&k| Member {
                k,
                sig: Signature::within_cycle(&self.conv),
                optional: LocSet::EMPTY,
            })
            .collect();
        cycle.sort_unstable_by_key(|c| c.k);
        let at = |k: usize| cycle.partition_point(|c| c.k < k);
        let at: Vec<usize> = comp.iter().map(|&k| at(k)).collect();
        let mut found: Vec<Option<Found>> = comp.iter().map(|_| None).collect();
        // A worklist, callees first: a function is analysed again only
        // when one of its callees' signatures grew since its last
        // analysis; each analysis sees the latest signatures of the cycle.
        let member = |w: usize| {
            let y = cycle.partition_point(|c| c.k < w);
            cycle.get(y).is_some_and(|c| c.k == w).then_some(y)
        };
        let mut callers: Vec<Vec<usize>> = vec![Vec::new(); comp.len()];
        let mut x_of = vec![0; comp.len()];
        for (x, &y) in at.iter().enumerate() {
            x_of[y] = x;
        }
        for (x, &k) in comp.iter().enumerate() {
            for &w in &graph[k] {
                if let Some(y) = member(w) {
                    callers[x_of[y]].push(x);
                }
            }
        }
        // Waves: the members in the depth-first order, callees first (a
        // call to a member later in it is a back edge), each in the wave
        // after its callees' earlier in the order. A pass analyses the
        // queued members wave by wave, those of one wave in parallel
        // against the cycle's signatures after the waves before it; a
        // member whose parameters grew queues its callers in the cycle,
        // for this pass if in a later wave, else for the next. As the
        // worklist in callees-first order it sees its callees' latest
        // signatures but for the back edges; parameters only grow, so
        // the passes end, and nothing depends on the threads' timing.
        let in_cycle = |x: usize| {
            graph[comp[x]]
                .iter()
                .filter_map(|&w| member(w))
                .map(|y| x_of[y])
        };
        let order = callees_first(comp.len(), in_cycle);
        let mut pos = vec![0; comp.len()];
        for (p, &x) in order.iter().enumerate() {
            pos[x] = p;
        }
        let mut wave_of = vec![0usize; comp.len()];
        for &x in &order {
            wave_of[x] = in_cycle(x)
                .filter(|&y| pos[y] < pos[x])
                .map(|y| wave_of[y] + 1)
                .max()
                .unwrap_or(0);
        }
        let mut waves: Vec<Vec<usize>> =
            vec![Vec::new(); wave_of.iter().max().map_or(0, |&w| w + 1)];
        for &x in &order {
            waves[wave_of[x]].push(x);
        }
        let mut queued = vec![true; comp.len()];
        let mut budget = CYCLE_ROUNDS * comp.len();
        while queued.contains(&true) {
            for wave in &waves {
                let batch: Vec<usize> = wave.iter().copied().filter(|&x| queued[x]).collect();
                if batch.is_empty() {
                    continue;
                }
                if batch.len() > budget {
                    return comp.par_iter().map(|&k| once(k, &[])).collect();
                }
                budget -= batch.len();
                let analysed: Vec<Found> = match batch.len() {
                    1 => vec![once(comp[batch[0]], &cycle).1],
                    _ => batch.par_iter().map(|&x| once(comp[x], &cycle).1).collect(),
                };
                for &x in &batch {
                    queued[x] = false;
                }
                for (&x, f) in batch.iter().zip(analysed) {
                    let m = &mut cycle[at[x]];
                    let more = m
                        .sig
                        .params
                        .union(f.sig.params.intersection(self.conv.call_reads));
                    let grew = more != m.sig.params || f.sig.fallback != m.sig.fallback;
                    m.sig.params = more;
                    m.sig.fallback = f.sig.fallback;
                    m.optional = more;
                    found[x] = Some(f);
                    if grew {
                        for &c in &callers[x] {
                            queued[c] = true;
                        }
                    }
                }
            }
        }
        comp.iter()
            .copied()
            .zip(found.into_iter().flatten())
            .collect()
    }

    /// One function's analysis (the module doc): function `k` of `info`,
    /// the functions of its cycle under analysis with the signatures
    /// `cycle` (sorted by index), the others' as of the levels below its
    /// own; `None` when its construction fails.
    fn analyse(
        &self,
        bin: &Binary<'_>,
        (k, info): (usize, &FuncInfo),
        cfg: &FuncCfg,
        stack: bool,
        cycle: &[Member],
    ) -> Option<Found> {
        let seen = Seen::Below(self.levels[k]);
        let scoped = Scoped {
            sigs: self,
            cycle,
            seen,
        };
        let model = CallModel {
            conv: &self.conv,
            sigs: Some(&scoped),
            ret: LocSet::ALL.iter().collect(),
        };
        let opts = lift::Options { semantics: true };
        let (mut f, mut origins, _) = lift::lift_with_calls(bin, info, cfg, &opts, &model);
        let mut saved = LocSet::EMPTY;
        // One analysis of the frame for the save area, the stack
        // arguments and the promotion (all of `f` as lifted).
        let frame = crate::frame::analyse_for_slots(&f, &origins);
        let area = crate::slots::va_save_area_in(&f, &frame);
        for (l, p) in LocSet::ALL.iter().zip(f.params()) {
            if area.contains(p) {
                saved.insert(l);
            }
        }
        let mut stack_params = Vec::new();
        let sites = self.call_sites(cfg);
        let lent = match stack {
            true => self.lent_at(&sites, seen),
            false => Lent::default(),
        };
        if stack {
            let promoted =
                crate::slots::promote_finding_arguments(&mut f, &mut origins, &frame, &lent);
            stack_params = promoted.1;
        }
        let copts = construct::Options {
            flavor: Flavor::Pruned,
            ..Default::default()
        };
        construct::construct(&mut f, &copts).ok()?;
        let site_at = |i| {
            let at = origins.inst(i)?.address;
            let k = sites.partition_point(|&(a, _)| a < at);
            sites.get(k).filter(|s| s.0 == at).map(|s| s.1)
        };
        let callee_at = |i| site_at(i).map(|(k, _)| k);
        let through_plt = |i| site_at(i).is_some_and(|(_, plt)| plt);
        // The machine instructions' sites, in one walk: calls and jumps
        // to an ifunc (site, target), indirect calls and jumps and system
        // calls (site, what they read), direct jumps.
        let (mut ifunc_sites, mut indirect, mut syscalls, mut jumps) =
            (Vec::new(), Vec::new(), Vec::new(), Vec::new());
        for i in &cfg.insts {
            let at = i.ins.ip();
            match i.access.flow {
                Flow::Call | Flow::Jump => {
                    let t = i.ins.near_branch_target();
                    if self.ifunc_at(t).is_some() {
                        ifunc_sites.push((at, t));
                    }
                }
                Flow::IndirectCall | Flow::IndirectJump => indirect.push((at, i.access.reads)),
                _ => {}
            }
            if i.access.flow == Flow::Jump {
                jumps.push(at);
            }
            if i.ins.mnemonic() == iced_x86::Mnemonic::Syscall {
                syscalls.push((at, i.access.reads));
            }
        }
        ifunc_sites.sort_unstable();
        let ifunc_of = |i| {
            let at = origins.inst(i)?.address;
            let k = ifunc_sites.partition_point(|&(a, _)| a < at);
            ifunc_sites.get(k).filter(|s| s.0 == at).map(|s| s.1)
        };
        indirect.sort_unstable_by_key(|s| s.0);
        syscalls.sort_unstable_by_key(|s| s.0);
        jumps.sort_unstable();
        let calls = CallSites {
            callee: &callee_at,
            through_plt: &through_plt,
            ifunc: &ifunc_of,
            site: &|i| origins.inst(i).map(|o| o.address),
            indirect: &indirect,
            syscalls: &syscalls,
            jumps: &jumps,
            cycle,
            seen,
        };
        let mut found = self.of_ssa(&f, &calls);
        found.sig.stack_params = stack_params;
        if stack {
            let all: Vec<Loc> = LocSet::ALL.iter().collect();
            // What a caller reads after the call: the convention's results
            // and the registers it preserves (a caller-saved register is
            // not read before it is written again).
            let returned = self.conv.results.union(self.conv.preserved);
            found.captures = crate::capture::captured(&f, &origins, &lent, &all, returned);
            // An argument register whose entry value it does not use, it
            // cannot capture.
            if !found.sig.fallback {
                let unused = crate::capture::POINTER_ARGS.difference(found.sig.params);
                found.captures.nocapture = found.captures.nocapture.union(unused);
            }
        }
        // The saved argument registers are unnamed only if the function
        // uses them no other way (all optional).
        let ints = saved.intersection(LocSet::GPRS);
        if !ints.is_empty() && ints.difference(found.optional).is_empty() {
            found.sig.unnamed = saved.intersection(found.sig.params);
        }
        Some(found)
    }

    /// The signature of `f`, in SSA form, whose first 39 parameters are
    /// the locations and whose returns read all of them in the model's
    /// order; and what it reads of each direct callee's results.
    fn of_ssa(&self, f: &Function, calls: &CallSites<'_>) -> Found {
        let mut values = Values::of(f);

        let all: Vec<Loc> = LocSet::ALL.iter().collect();
        let mut preserved = LocSet::ALL;
        let mut defined = self.conv.results;
        for &b in f.layout() {
            if let Terminator::Ret(vals) = f.term(b) {
                for (&l, &v) in all.iter().zip(vals.as_slice(f)) {
                    let Operand::Var(v) = v else {
                        preserved.remove(l);
                        continue;
                    };
                    if values.origin[v] != Origin::Entry(l) {
                        preserved.remove(l);
                    }
                    if values.may_be[v].contains(l) {
                        defined.remove(l);
                    }
                }
            }
        }
        let preserved = preserved.union(self.conv.preserved);
        let results = defined.difference(preserved);
        values.observe(f, results, &all);
        // Two rounds: the vector results of unknown calls carry a value
        // only where the first round found them used (where it found
        // none of those it asked about used, the second would find what
        // the first did).
        let first = self.unknown_calls(f, calls, &values, None);
        // Only the callee-saved registers' saves are not uses: a store of
        // an argument register the function never writes (`mov [rdi+8],
        // rsi`, rsi preserved as it is untouched) stores a parameter.
        let saves = self.conv.preserved;
        let why = std::env::var_os("SSAKIT_SIGNATURE_WHY").is_some();
        let first_used = values.used(f, results, saves, &all, &first, why);
        let (unknown, found) = match first.asked.iter().any(|&v| first_used.used[v]) {
            true => {
                let unknown =
                    self.unknown_calls(f, calls, &values, Some((&first, &first_used.used)));
                let asked = first_used.why.is_some();
                let found = values.used(f, results, saves, &all, &unknown, asked);
                (unknown, found)
            }
            false => (first, first_used),
        };
        let Used { used, why, beyond } = found;
        if let Some(why) = why {
            self.explain(f, calls, &used, &why);
        }
        let mut params = LocSet::EMPTY;
        for (&l, &p) in all.iter().zip(f.params()) {
            if used[p] && l != Loc::RSP && l.kind() != crate::regs::LocKind::Flag {
                params.insert(l);
            }
        }
        let mut optional = LocSet::EMPTY;
        if !params.is_empty() {
            let beyond_stores = values.beyond_stores(f, &unknown, beyond);
            for (&l, &p) in all.iter().zip(f.params()) {
                if params.contains(l) && !beyond_stores[p] && l.kind() != crate::regs::LocKind::Flag
                {
                    optional.insert(l);
                }
            }
        }
        let mut reads_after = Vec::with_capacity(values.calls.len());
        for &i in &values.calls {
            let InstData::Call { results, .. } = f.inst(i) else {
                continue;
            };
            let Some(k) = (calls.callee)(i) else {
                continue;
            };
            let clobbers = self.call_clobbers(calls, i, k);
            let mut read = LocSet::EMPTY;
            for (l, &v) in clobbers.iter().zip(results.as_slice(f)) {
                if used[v] {
                    read.insert(l);
                }
            }
            reads_after.push((k, read));
        }
        Found {
            sig: Signature {
                params,
                stack_params: Vec::new(),
                results,
                preserved,
                fallback: false,
                unnamed: LocSet::EMPTY,
            },
            reads_after,
            sites: unknown.sites,
            optional,
            captures: Summary::default(),
        }
    }

    /// With `SSAKIT_SIGNATURE_WHY` set (the module doc): one line on
    /// standard error per register parameter, `WHY FUNCTION REGISTER
    /// ADDRESS REASON`, the first use found of its entry value.
    fn explain(
        &self,
        f: &Function,
        calls: &CallSites<'_>,
        used: &SecondaryMap<Var, bool>,
        why: &SecondaryMap<Var, Option<Inst>>,
    ) {
        for (l, &p) in LocSet::ALL.iter().zip(f.params()) {
            if !used[p] || l.kind() == crate::regs::LocKind::Flag {
                continue;
            }
            let reason = match why[p].map(|i| (i, f.inst(i))) {
                None => "term".to_string(),
                Some((_, InstData::Op { op, .. })) => format!("op {}", f.operator_name(*op)),
                Some((i, InstData::Call { callee, .. })) => match (calls.callee)(i) {
                    Some(_) if self.known(calls, i).is_some() => {
                        format!("call known {}", f.callee_name(*callee))
                    }
                    Some(_) => "call fallback".to_string(),
                    None => "call unknown".to_string(),
                },
                Some(_) => "other".to_string(),
            };
            let at = why[p].and_then(|i| (calls.site)(i)).unwrap_or(0);
            eprintln!("WHY {} {} {at:#x} {reason}", f.name(), l.name());
        }
    }

    /// What direct call `i` of function `k` clobbers: what `k` does not
    /// preserve, or, through the PLT or without a signature, what the
    /// convention lets a callee clobber.
    fn call_clobbers(&self, calls: &CallSites<'_>, i: Inst, k: usize) -> LocSet {
        match self.sig(calls, k) {
            Some(s) if !(calls.through_plt)(i) => s.clobbers(),
            _ => self.conv.call_writes,
        }
    }

    /// The callee's signature of call `i`, if one was found (not the
    /// convention's) and the call is not through the PLT (a call through
    /// the PLT is an unknown callee's whose arguments the definition's
    /// signature bounds: [`Signatures::unknown_calls`]).
    fn known<'s>(&'s self, calls: &CallSites<'s>, i: Inst) -> Option<&'s Signature> {
        if (calls.through_plt)(i) {
            return None;
        }
        let k = (calls.callee)(i)?;
        self.sig(calls, k).filter(|s| !s.fallback)
    }

    /// The signature of function `k`: of its analysis of this round if
    /// it is in the cycle under analysis, else of its own analysis.
    fn sig<'s>(&'s self, calls: &CallSites<'s>, k: usize) -> Option<&'s Signature> {
        match calls.cycle.binary_search_by_key(&k, |c| c.k) {
            Ok(at) => Some(&calls.cycle[at].sig),
            Err(_) => self.found(k, calls.seen),
        }
    }

    /// What the callee of `i`, a call through a PLT stub, may read: the
    /// parameters of the binary's own definition of its symbol
    /// ([`Signatures::target`]), or of every function an IFUNC's resolver
    /// may return ([`Signatures::ifunc_at`]); `None` if one has no
    /// signature (or the convention's). A positional argument none of
    /// them reads is not one the call passes: the stub binds the call to
    /// one of them (interposition by another object is not modelled).
    fn plt_bound(&self, calls: &CallSites<'_>, i: Inst) -> Option<LocSet> {
        let params = |k: usize| Some(self.sig(calls, k).filter(|s| !s.fallback)?.params);
        if (calls.through_plt)(i) {
            return params((calls.callee)(i)?);
        }
        let ks = self.ifunc_at((calls.ifunc)(i)?)?;
        ks.iter()
            .try_fold(LocSet::EMPTY, |all, &k| Some(all.union(params(k)?)))
    }

    /// Whether call `i` (at `site`) is a tail jump through the PLT stub
    /// of a symbol the binary defines whose definition has a signature
    /// ([`Signatures::plt_bound`]; not an IFUNC's stub, whose
    /// implementations' union is no one interface). Where the caller
    /// writes no argument register before it, such a jump passes on its
    /// own parameters unchanged (`gzseek: jmp gzseek64@plt`): the caller's
    /// frame is gone, and what the callee reads of the argument registers
    /// is what the symbol's interface, its definition's parameters, reads.
    fn passes_on(&self, f: &Function, calls: &CallSites<'_>, i: Inst, site: Option<u64>) -> bool {
        let tail = site.is_some_and(|a| calls.jumps.binary_search(&a).is_ok());
        tail && matches!(f.inst(i), InstData::Call { .. })
            && (calls.through_plt)(i)
            && self.plt_bound(calls, i).is_some()
    }

    /// The optional parameters of function `k` (as [`Signatures::sig`]).
    fn optional_of(&self, calls: &CallSites<'_>, k: usize) -> LocSet {
        match calls.cycle.binary_search_by_key(&k, |c| c.k) {
            Ok(at) => calls.cycle[at].optional,
            Err(_) => match self.found(k, calls.seen) {
                Some(_) => self.optional[k].get().copied().unwrap_or(LocSet::EMPTY),
                None => LocSet::EMPTY,
            },
        }
    }

    /// The calls of unknown callees in `f` (pass-1 form): the
    /// positional arguments each does not pass (past the last one its
    /// caller wrote), and what each reads. `earlier`: a first round's
    /// answer and the values it used (`demanded`); a vector result of an
    /// unknown call carries a value only if it is demanded (none without
    /// a first round).
    ///
    /// A second round's written values are the first's with the asked
    /// values now demanded added, closed again ([`Values::close`]): the
    /// first round's seeds ([`Values::written`]) are the second's but
    /// for those asked values (false then, demanded now), and closing a
    /// subset of the seeds first gives a subset of the same least
    /// fixpoint.
    fn unknown_calls(
        &self,
        f: &Function,
        calls: &CallSites<'_>,
        values: &Values,
        earlier: Option<(&Unknown, &SecondaryMap<Var, bool>)>,
    ) -> Unknown {
        let (real, asked) = match earlier {
            None => self.first_written(f, calls, values),
            Some((first, demanded)) => {
                let mut real = first.real.clone();
                for &v in &first.asked {
                    real[v] |= demanded[v];
                }
                values.close(f, &mut real);
                (real, first.asked.clone())
            }
        };

        let mut out = Unknown {
            skip: SecondaryMap::with_capacity(f.inst_slots(), 0),
            sites: Vec::new(),
            weak: SecondaryMap::with_capacity(f.inst_slots(), 0),
            real: SecondaryMap::new(false),
            asked: Vec::new(),
        };
        let moved = moved_into(f, &values.moves, &real);
        let mut locs: Vec<Loc> = Vec::new();
        // Only calls, system calls and indirect calls and jumps are calls
        // here ([`Values::calls`]).
        for &i in &values.calls {
            let site = (calls.site)(i);
            if let InstData::Op { op, args, .. } = f.inst(i) {
                if values.ops[*op] & SYSCALL != 0 {
                    let reads = site.map_or(LocSet::EMPTY, |a| reads_at(calls.syscalls, a));
                    let (skip, weak) = syscall_skip(reads, args.as_slice(f), values, &moved);
                    (out.skip[i], out.weak[i]) = (skip, weak);
                    continue;
                }
            }
            if let (InstData::Call { args, .. }, Some(sig)) = (f.inst(i), self.known(calls, i)) {
                let optional =
                    (calls.callee)(i).map_or(LocSet::EMPTY, |k| self.optional_of(calls, k));
                if !optional.is_empty() {
                    locs = sig.call_args(&self.conv);
                    let args = args.as_slice(f);
                    out.skip[i] = self.optional_skip(optional, &locs, args, &moved, values);
                    out.weak[i] = mask_of(optional, &locs);
                }
                continue;
            }
            let (own, args) = match f.inst(i) {
                InstData::Call { args, .. } if self.known(calls, i).is_none() => {
                    locs.clone_from(&self.conv.call_args);
                    (LocSet::EMPTY, args.as_slice(f))
                }
                InstData::Op { op, args, .. } if values.ops[*op] & INDIRECT != 0 => {
                    let own = site.map_or(LocSet::EMPTY, |a| calls.indirect_reads(a));
                    locs.clear();
                    locs.extend(own.union(self.conv.call_reads).iter());
                    (own, args.as_slice(f))
                }
                _ => continue,
            };
            let placed = |l: Loc| {
                let k = locs.iter().position(|&m| m == l);
                match k.and_then(|k| args.get(k)) {
                    None => Placed::Unwritten,
                    Some(Operand::Var(v)) if !moved[*v] => Placed::Unwritten,
                    Some(Operand::Var(v)) if own.contains(l) || values.address[*v] => {
                        Placed::Scratch
                    }
                    Some(_) => Placed::Argument,
                }
            };
            let mut reads = self.conv.call_reads;
            let bound = self.plt_bound(calls, i);
            let interface = self.passes_on(f, calls, i, site)
                && (self.conv.positional.iter().flatten()).all(|&l| placed(l) == Placed::Unwritten);
            for list in &self.conv.positional {
                let read = positional_reads(list, placed);
                for &l in list {
                    let unread = bound.is_some_and(|b| !b.contains(l));
                    let passed = read.contains(l) || interface;
                    if (!passed || unread) && !own.contains(l) {
                        reads.remove(l);
                    }
                }
            }
            for (k, l) in locs.iter().enumerate() {
                if !reads.contains(*l) && !own.contains(*l) {
                    out.skip[i] |= 1 << k;
                }
            }
            out.weak[i] = !0;
            if let Some(at) = site {
                out.sites.push((at, reads));
            }
        }
        out.real = real;
        out.asked = asked;
        out
    }

    /// A first round's written values ([`Values::written`], no asked
    /// value demanded) and the values asked about: the results of
    /// unknown callees other than `rax`.
    fn first_written(
        &self,
        f: &Function,
        calls: &CallSites<'_>,
        values: &Values,
    ) -> (SecondaryMap<Var, bool>, Vec<Var>) {
        // Per call (the last one asked about, as `written` asks about
        // each result of an instruction in turn): its clobbers in result
        // order, its callee's results, whether the callee is known.
        let last: RefCell<(Option<Inst>, Option<CallResults>)> = RefCell::new((None, None));
        let asked = RefCell::new(Vec::new());
        let real = values.written(f, |i, k, v| {
            // An operation other than an indirect call defines no call's
            // results ([`Signatures::call_results`]: `None`).
            if let InstData::Op { op, .. } = f.inst(i) {
                if values.ops[*op] & INDIRECT == 0 {
                    return true;
                }
            }
            let mut last = last.borrow_mut();
            if last.0 != Some(i) {
                *last = (Some(i), self.call_results(f, calls, i));
            }
            let Some((locs, results, known)) = &last.1 else {
                return true;
            };
            locs.get(k).is_none_or(|&l| {
                results.contains(l)
                    && (l == Loc::RAX || *known || {
                        asked.borrow_mut().push(v);
                        false
                    })
            })
        });
        (real, asked.into_inner())
    }

    /// The operands (read in the order `locs`) of a call of a known
    /// callee with `optional` parameters that it does not pass: in each
    /// positional list, the optional ones past the last register the
    /// caller wrote (`real`) or passes as a parameter that is not optional.
    /// The vector list of a System V variadic callee (its vector
    /// parameters optional: only saved for `va_arg`) is cut instead by
    /// `al` where it is a constant (`values`): the ABI's count of the
    /// vector registers a variadic call passes (`mov eax, 1` before
    /// `sprintf(buf, "%g", x)` passes `xmm0`).
    fn optional_skip(
        &self,
        optional: LocSet,
        locs: &[Loc],
        args: &[Operand],
        real: &SecondaryMap<Var, bool>,
        values: &Values,
    ) -> u64 {
        let operand = |l: Loc| args.get(locs.iter().position(|&m| m == l)?);
        let passed = |l: Loc| {
            let Some(a) = operand(l) else {
                return false;
            };
            !optional.contains(l)
                || match a {
                    Operand::Var(v) => real[*v],
                    _ => true,
                }
        };
        let variadic = self.conv.kind == crate::conv::ConvKind::SystemV
            && optional
                .iter()
                .any(|l| l.kind() == crate::regs::LocKind::Vector);
        let al = operand(Loc::RAX)
            .and_then(|a| match a {
                Operand::Const(c) => Some(*c),
                Operand::Var(v) => values.constant[*v],
                _ => None,
            })
            .filter(|_| variadic)
            .map(|c| (c & 0xff).min(8) as usize);
        let mut skip = 0;
        for list in &self.conv.positional {
            let vectors = list
                .first()
                .is_some_and(|l| l.kind() == crate::regs::LocKind::Vector);
            let past = match al.filter(|_| vectors) {
                Some(n) => n,
                None => list.iter().rposition(|&l| passed(l)).map_or(0, |p| p + 1),
            };
            for &l in &list[past..] {
                if let Some(k) = locs.iter().position(|&m| m == l).filter(|&k| k < 64) {
                    skip |= 1 << k;
                }
            }
        }
        skip
    }

    /// What the callees of `cfg`'s direct calls (and tail jumps) do not
    /// capture ([`crate::capture`]).
    pub(crate) fn lent(&self, cfg: &FuncCfg) -> Lent {
        self.lent_at(&self.call_sites(cfg), Seen::All)
    }

    /// [`Signatures::lent`] of a function's [`Signatures::call_sites`]
    /// `sites` as the analysis that sees `seen` finds it (a callee it
    /// does not see, in the cycle under analysis, captures). Only the
    /// summaries other than the default (which captures all and may
    /// read any stack word) are kept.
    fn lent_at(&self, sites: &[(u64, (usize, bool))], seen: Seen) -> Lent {
        let captures = |k: usize| {
            let s = self.found(k, seen).and(self.captures[k].get())?;
            (*s != Summary::default()).then(|| s.clone())
        };
        Lent::new(
            (sites.iter())
                .filter_map(|&(a, (k, _))| Some((a, captures(k)?)))
                .collect(),
        )
    }

    /// The direct calls and tail jumps of a recovered function: (the
    /// instruction's address, (the callee's index, whether through the
    /// PLT: [`Signatures::target`])), sorted.
    fn call_sites(&self, cfg: &FuncCfg) -> Vec<(u64, (usize, bool))> {
        let mut out: Vec<(u64, (usize, bool))> = cfg
            .insts
            .iter()
            .filter(|i| matches!(i.access.flow, Flow::Call | Flow::Jump))
            .filter_map(|i| Some((i.ins.ip(), self.target(i.ins.near_branch_target())?)))
            .collect();
        out.sort_unstable();
        out
    }

    /// What call or indirect call `i` defines: the locations it
    /// clobbers, in the order of its results; those of them that are
    /// its callee's results rather than clobbers; whether the callee's
    /// signature is known. `None` for other instructions.
    fn call_results(&self, f: &Function, calls: &CallSites<'_>, i: Inst) -> Option<CallResults> {
        let (clobbers, results, known) = match f.inst(i) {
            InstData::Call { .. } => match self.known(calls, i) {
                Some(s) => (s.clobbers(), s.results, true),
                None => (self.conv.call_writes, self.conv.results, false),
            },
            InstData::Op { op, .. } if is_indirect(f.operator_name(*op)) => {
                (self.conv.call_writes, self.conv.results, false)
            }
            _ => return None,
        };
        Some((clobbers.iter().collect(), results, known))
    }
}

/// [`Signatures::call_results`]: the clobbered locations in result
/// order, the callee's results among them, whether the callee is known.
type CallResults = (Vec<Loc>, LocSet, bool);

/// How the calls of a function under analysis are found: the callee of a
/// direct call, the address of an instruction, the registers each
/// indirect call's own operands read (by address, sorted).
struct CallSites<'a> {
    callee: &'a dyn Fn(Inst) -> Option<usize>,
    /// Whether a direct call goes through the PLT ([`Signatures::target`]).
    through_plt: &'a dyn Fn(Inst) -> bool,
    /// The IFUNC's PLT stub a call goes through, if it does
    /// ([`Signatures::ifunc_at`]).
    ifunc: &'a dyn Fn(Inst) -> Option<u64>,
    site: &'a dyn Fn(Inst) -> Option<u64>,
    indirect: &'a [(u64, LocSet)],
    /// The registers each `syscall`'s operands read (by address, sorted).
    syscalls: &'a [(u64, LocSet)],
    /// The addresses of the direct jumps (sorted): a call lifted from one
    /// is a tail call.
    jumps: &'a [u64],
    /// The signatures of this round of the functions of the cycle under
    /// analysis, by index (sorted).
    cycle: &'a [Member],
    /// The other functions' signatures it sees.
    seen: Seen,
}

impl CallSites<'_> {
    fn indirect_reads(&self, at: u64) -> LocSet {
        reads_at(self.indirect, at)
    }
}

/// The reads of the instruction at `at` of a list sorted by address;
/// empty if it is not listed.
fn reads_at(list: &[(u64, LocSet)], at: u64) -> LocSet {
    let k = list.partition_point(|s| s.0 < at);
    list.get(k)
        .filter(|s| s.0 == at)
        .map_or(LocSet::EMPTY, |s| s.1)
}

/// The operands (bit `k`: operand `k` of a call reading `locs` in order)
/// that read a location of `set`.
fn mask_of(set: LocSet, locs: &[Loc]) -> u64 {
    let bits = locs.iter().enumerate().take(64);
    bits.filter(|(_, l)| set.contains(**l))
        .map(|(k, _)| 1 << k)
        .sum()
}

/// The calls of unknown callees of one function.
struct Unknown {
    /// Per call, the operands (bit `k`: operand `k`) that are optional
    /// arguments the caller never wrote: not uses.
    skip: SecondaryMap<Inst, u64>,
    /// (address, what the call reads).
    sites: Vec<(u64, LocSet)>,
    /// Per call, the operands (bit `k`: operand `k`) that are arguments
    /// of an unknown callee (and of indirect jumps) or optional ones of a
    /// known callee: such an argument that the function wrote on some
    /// path reads only what it wrote.
    weak: SecondaryMap<Inst, u64>,
    /// Whether each value was written by the function ([`Values::written`]).
    real: SecondaryMap<Var, bool>,
    /// The values whose demand by a first round `real` asked about (the
    /// results of unknown callees other than `rax`): if the first round
    /// used none, a second round finds the same.
    asked: Vec<Var>,
}

/// The operands of a `syscall` (reading `reads`, in their order) that
/// are not its arguments: when its number in `rax` is a constant of
/// known arity, the argument registers past that arity; for a call whose
/// operation decides its arguments ([`crate::syscalls::by_operation`]),
/// or whose number is not a constant (`INTERNAL_SYSCALL_NCS`: the number
/// loaded from memory), also those past the last one the caller wrote
/// (`real`; all six when it wrote none), as for an unknown callee; and
/// then which operands are arguments read weakly, as an unknown
/// callee's (an argument written on some path reads only what was
/// written: [`Unknown::weak`]).
fn syscall_skip(
    reads: LocSet,
    args: &[Operand],
    values: &Values,
    real: &SecondaryMap<Var, bool>,
) -> (u64, u64) {
    let pos = |l: Loc| reads.iter().position(|m| m == l).filter(|&k| k < 64);
    let nr = pos(Loc::RAX).and_then(|k| match args.get(k)? {
        Operand::Const(c) => Some(*c),
        Operand::Var(v) => values.constant[*v],
        _ => None,
    });
    let arg_regs = &crate::syscalls::ARGS;
    let (mut n, by_operation) = match nr {
        None => (arg_regs.len(), true),
        Some(nr) => match crate::syscalls::arg_count(nr) {
            Some(n) => (n, crate::syscalls::by_operation(nr)),
            None => return (0, 0),
        },
    };
    if by_operation {
        let written = |l: Loc| {
            pos(l).and_then(|k| args.get(k)).is_some_and(|a| match a {
                Operand::Var(v) => real[*v],
                _ => true,
            })
        };
        n = arg_regs[..n]
            .iter()
            .rposition(|&l| written(l))
            .map_or(n, |p| p + 1);
    }
    let mut skip = 0;
    for &l in &arg_regs[n..] {
        if let Some(k) = pos(l) {
            skip |= 1 << k;
        }
    }
    let weak = match by_operation {
        true => arg_regs[..n]
            .iter()
            .filter_map(|&l| pos(l))
            .map(|k| 1 << k)
            .sum(),
        false => 0,
    };
    (skip, weak)
}

/// How the caller of an unknown callee left an argument register at the
/// call ([`positional_reads`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Placed {
    /// Not written by the function: an entry value, or what a call
    /// clobbered without returning it.
    Unwritten,
    /// Written, its value the call's own target (`call rcx`) or an
    /// address the function accesses memory at (`mov rcx, [rbp-0x10];
    /// mov rsi, [rcx+0x10]; call rax`: `rcx` a scratch address
    /// register).
    Scratch,
    /// Written as an argument: for no other use the code shows.
    Argument,
}

/// The registers of one positional list (System V's `rdi rsi rdx rcx r8
/// r9`) that a call of an unknown callee reads, the caller having left
/// each as `placed` says: those it wrote, and those it left unwritten
/// before the last one it wrote as an argument (passed on from its own
/// caller, its parameters). A register written for another use
/// ([`Placed::Scratch`]) is read, as the callee may take it, but is no
/// evidence that the unwritten ones before it are arguments: reading
/// them would make their entry values the caller's parameters.
fn positional_reads(list: &[Loc], placed: impl Fn(Loc) -> Placed) -> LocSet {
    let past = (list.iter())
        .rposition(|&l| placed(l) == Placed::Argument)
        .map_or(0, |p| p + 1);
    let mut read = LocSet::EMPTY;
    for (at, &l) in list.iter().enumerate() {
        if at < past || placed(l) != Placed::Unwritten {
            read.insert(l);
        }
    }
    read
}

/// The values that address memory: the address operand of a load or a
/// store and, through the `i64` arithmetic that forms `base + index *
/// scale + disp` (`i64.add`, `i64.mul`, `i64.shl`) and copies, the
/// values it is formed from (`mov rsi, [rcx+0x10]`: `rcx`).
/// `ops`: the kinds of `f`'s operators ([`op_kinds`]).
fn addresses(f: &Function, ops: &SecondaryMap<Operator, u16>) -> SecondaryMap<Var, bool> {
    let mut def: SecondaryMap<Var, Option<Inst>> = SecondaryMap::with_capacity(f.num_vars(), None);
    let mut work = Vec::new();
    for &b in f.layout() {
        for &i in f.block_insts(b) {
            match f.inst(i) {
                InstData::Copy { dst, .. } => def[*dst] = Some(i),
                InstData::Op {
                    op, args, results, ..
                } => match (ops[*op], results.as_slice(f)) {
                    (k, &[r]) if k & FORMS_ADDRESS != 0 => def[r] = Some(i),
                    (k, _) if k & ACCESS != 0 => {
                        if let Some(Operand::Var(a)) = args.as_slice(f).first() {
                            work.push(*a);
                        }
                    }
                    _ => {}
                },
                _ => {}
            }
        }
    }
    let mut address = SecondaryMap::with_capacity(f.num_vars(), false);
    while let Some(v) = work.pop() {
        if address[v] {
            continue;
        }
        address[v] = true;
        if let Some(i) = def[v] {
            f.for_each_use(i, |u| work.push(u));
        }
    }
    address
}

/// Which width change the operator named `name` is (`mov eax, r8d` is
/// `i64.extend_i32_u(i32.wrap_i64(r8))`): [`WRAP`], [`SEXT`], or 0 for
/// other operators.
fn fold_kind(name: &str) -> u16 {
    match name {
        "i32.wrap_i64" | "i64.extend_i32_u" => WRAP,
        "i64.extend_i32_s" => SEXT,
        _ => 0,
    }
}

/// The value of the width change of an operator of `kinds`
/// ([`op_kinds`], [`fold_kind`]) applied to `c`; `None` for other
/// operators.
fn fold_by(kinds: u16, c: i64) -> Option<i64> {
    match kinds & (WRAP | SEXT) {
        WRAP => Some(c & 0xffff_ffff),
        SEXT => Some(c as i32 as i64),
        _ => None,
    }
}

/// An operator's kinds ([`op_kinds`]): a store of the set ([`is_store`]).
const STORE: u16 = 1;
/// A store of any kind ([`is_any_store`]).
const ANY_STORE: u16 = 2;
/// `i64.and`, the operator of a merge ([`is_merge`]).
const AND64: u16 = 4;
/// An indirect call or jump ([`is_indirect`]).
const INDIRECT: u16 = 8;
/// A system call (`x86.syscall.x`).
const SYSCALL: u16 = 16;
/// A width change that keeps the low 32 bits ([`fold_by`]).
const WRAP: u16 = 32;
/// A width change that sign-extends the low 32 bits ([`fold_by`]).
const SEXT: u16 = 64;
/// An operator of the `i64` arithmetic that forms addresses
/// (`i64.add`, `i64.mul`, `i64.shl`: [`addresses`]).
const FORMS_ADDRESS: u16 = 128;
/// A memory access of the set (an opcode with an access: [`addresses`]).
const ACCESS: u16 = 256;

/// The kinds of each operator of `f` (the bits above), resolved once
/// from its name and opcode: what the per-instruction questions of the
/// analysis ([`Values::used`], [`Signatures::unknown_calls`],
/// [`addresses`]) then test.
fn op_kinds(f: &Function) -> SecondaryMap<Operator, u16> {
    // Every operator's entry written, in order: allocated once.
    let n = f.symbols().operators().count();
    let mut out = SecondaryMap::with_capacity(n, 0);
    for (op, data) in f.symbols().operators() {
        let name = &*data.name;
        let mut k = fold_kind(name);
        if is_store(name) {
            k |= STORE;
        }
        if is_any_store(name) {
            k |= ANY_STORE;
        }
        if name == "i64.and" {
            k |= AND64;
        }
        if is_indirect(name) {
            k |= INDIRECT;
        }
        if name == "x86.syscall.x" {
            k |= SYSCALL;
        }
        match f.opcode(op) {
            Some(Opcode::I64Add | Opcode::I64Mul | Opcode::I64Shl) => k |= FORMS_ADDRESS,
            Some(code) if code.access().is_some() => k |= ACCESS,
            _ => {}
        }
        out[op] = k;
    }
    out
}

/// Whether `op(args)` is the `i64.and` with which the lifter keeps the
/// upper part of a register under an 8- or 16-bit write (`mov cl, al`:
/// `rcx = (rcx & !0xff) | al`).
fn is_merge(ops: &SecondaryMap<Operator, u16>, op: Operator, args: &[Operand]) -> bool {
    matches!(args, [Operand::Var(_), Operand::Const(c)] if [!0xff, !0xffff, !0xff00].contains(c))
        && ops[op] & AND64 != 0
}

/// The values the function wrote (`real`, [`Values::written`]) and
/// those an instruction of its own moved from another register (`mov
/// rdi, rbx`: an entry value kept in a callee-saved register and put
/// back before a call). Such a move into an argument register before a
/// call is the caller passing that argument, even when the value is an
/// entry value. A load of a promoted slot (`sN`) is not counted: at -O0
/// clang loads a spilled parameter into a scratch register (`mov rcx,
/// [rbp-0x10]`) to address memory, not to pass it.
/// `moves`: the function's copies and phis in layout order
/// ([`Values::of`]; only the copies are read).
fn moved_into(
    f: &Function,
    moves: &[Inst],
    real: &SecondaryMap<Var, bool>,
) -> SecondaryMap<Var, bool> {
    let mut moved = real.clone();
    // Whether a copy's value was loaded from a slot, directly or through
    // the lifter's temporaries (`q1 = s24`, `rcx = q1`).
    let mut loaded = filled(f.num_vars(), false);
    for &i in moves {
        if let InstData::Copy {
            dst,
            src: Operand::Var(src),
        } = f.inst(i)
        {
            let name = f.base_name(*src);
            loaded[*dst] = is_slot(name) || (is_temporary(name) && loaded[*src]);
            moved[*dst] |= !loaded[*dst];
        }
    }
    moved
}

/// Whether `name` is a promoted frame slot's (`s8`, `s-16`:
/// [`crate::slots::promote`]).
fn is_slot(name: &str) -> bool {
    crate::slots::is_slot_name(name)
}

/// Whether `name` is one of the lifter's temporaries (`q0`, `d1`).
fn is_temporary(name: &str) -> bool {
    name.strip_prefix(['q', 'd'])
        .is_some_and(|n| !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()))
}

/// Whether an opaque operation is an indirect call or jump.
fn is_indirect(name: &str) -> bool {
    matches!(name, "x86.call.x" | "x86.jmp.x")
}

/// Whether an operator of the set stores its last operand to memory.
fn is_store(name: &str) -> bool {
    name.starts_with("i64.store") || name.starts_with("i32.store")
}

/// Whether an operator stores its last operand to memory: one of the
/// set ([`is_store`]) or a whole-register vector move to memory
/// (`movaps [rsp+0x50], xmm0`, the vector part of a register save area).
fn is_any_store(name: &str) -> bool {
    is_store(name) || matches!(name, "x86.movaps.w" | "x86.movups.w")
}

/// What one SSA value certainly is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Origin {
    /// Not known yet (the optimistic start of copies and phis).
    Unknown,
    /// The entry value of a location.
    Entry(Loc),
    /// Anything else.
    Other,
}

impl Origin {
    fn meet(self, o: Origin) -> Origin {
        match (self, o) {
            (Origin::Unknown, x) | (x, Origin::Unknown) => x,
            (a, b) if a == b => a,
            _ => Origin::Other,
        }
    }
}

/// Per value, the first use that reached it in [`Values::used`]
/// (`None`: a terminator).
type Why = SecondaryMap<Var, Option<Inst>>;

/// The origins of a function's SSA values and the entry values each
/// may be.
struct Values {
    origin: SecondaryMap<Var, Origin>,
    may_be: SecondaryMap<Var, LocSet>,
    /// The constant a value certainly is (a copy of a constant, a copy or
    /// phi of such values all equal).
    constant: SecondaryMap<Var, Option<i64>>,
    /// The bits of each value some use may observe
    /// ([`crate::demanded`]); all until [`Values::observe`].
    demanded: SecondaryMap<Var, u64>,
    /// Whether each value addresses memory ([`addresses`]).
    address: SecondaryMap<Var, bool>,
    /// The kinds of each operator ([`op_kinds`]).
    ops: SecondaryMap<Operator, u16>,
    /// The copy or phi that defines each value so defined.
    moved_by: SecondaryMap<Var, Option<Inst>>,
    /// The copies and phis, in layout order (a block's phis first).
    moves: Vec<Inst>,
    /// The calls, system calls and indirect calls and jumps, in layout
    /// order.
    calls: Vec<Inst>,
    /// The values defined other than by a copy, a phi, a call or an
    /// indirect call or jump (the start of [`Values::written`]).
    defined: SecondaryMap<Var, bool>,
    /// Whether some operation is a merge ([`is_merge`]).
    merges: bool,
}

impl Values {
    /// Both fixpoints, by rounds over the copies and phis in layout
    /// order until nothing changes.
    fn of(f: &Function) -> Values {
        let n = f.num_vars();
        let mut origin = filled(n, Origin::Other);
        let mut may_be = filled(n, LocSet::EMPTY);
        for (l, &p) in LocSet::ALL.iter().zip(f.params()) {
            origin[p] = Origin::Entry(l);
            may_be[p] = LocSet::of(&[l]);
        }
        let ops = op_kinds(f);
        // At most one move or call per instruction slot: reserved at that
        // bound, not grown one by one.
        let mut moves = Vec::with_capacity(f.inst_slots());
        let mut calls = Vec::with_capacity(f.inst_slots());
        let mut fold_ops = Vec::new();
        let mut defined = filled(n, false);
        let mut merges = false;
        for &b in f.layout() {
            for &i in f.block_phis(b).iter().chain(f.block_insts(b)) {
                match f.inst(i) {
                    InstData::Phi { dst, .. } | InstData::Copy { dst, .. } => {
                        origin[*dst] = Origin::Unknown;
                        moves.push(i);
                    }
                    InstData::Call { .. } => calls.push(i),
                    InstData::Op {
                        op, args, results, ..
                    } => {
                        let kinds = ops[*op];
                        if kinds & (SYSCALL | INDIRECT) != 0 {
                            calls.push(i);
                        }
                        if kinds & INDIRECT == 0 {
                            for &v in results.as_slice(f) {
                                defined[v] = true;
                            }
                        }
                        if fold_by(kinds, 0).is_some() {
                            fold_ops.push(i);
                        }
                        merges |= is_merge(&ops, *op, args.as_slice(f));
                    }
                    _ => f.for_each_def(i, |v| defined[v] = true),
                }
            }
        }
        let source = |o: Operand, origin: &SecondaryMap<Var, Origin>| match o {
            Operand::Var(v) => origin[v],
            _ => Origin::Other,
        };
        let mut changed = true;
        while changed {
            changed = false;
            for &i in &moves {
                let (dst, o, m) = match f.inst(i) {
                    InstData::Copy { dst, src } => (
                        *dst,
                        source(*src, &origin),
                        match src {
                            Operand::Var(v) => may_be[*v],
                            _ => LocSet::EMPTY,
                        },
                    ),
                    InstData::Phi { dst, args } => {
                        let mut o = Origin::Unknown;
                        let mut m = LocSet::EMPTY;
                        for a in args.as_slice(f) {
                            o = o.meet(source(a.value, &origin));
                            if let Operand::Var(v) = a.value {
                                m = m.union(may_be[v]);
                            }
                        }
                        (*dst, o, m)
                    }
                    _ => continue,
                };
                if origin[dst] != o || may_be[dst] != m.union(may_be[dst]) {
                    origin[dst] = o;
                    may_be[dst] = m.union(may_be[dst]);
                    changed = true;
                }
            }
        }
        let mut moved_by = filled(n, None);
        for &i in &moves {
            if let InstData::Phi { dst, .. } | InstData::Copy { dst, .. } = f.inst(i) {
                moved_by[*dst] = Some(i);
            }
        }
        let mut folds = Vec::with_capacity(moves.len() + fold_ops.len());
        folds.extend_from_slice(&moves);
        folds.extend_from_slice(&fold_ops);
        let constant = Values::constants(f, &folds, &ops);
        Values {
            origin,
            may_be,
            constant,
            demanded: SecondaryMap::new(!0),
            address: addresses(f, &ops),
            ops,
            moved_by,
            moves,
            calls,
            defined,
            merges,
        }
    }

    /// Finds the bits of each value that some use may observe
    /// ([`crate::demanded`]), a return observing the values it returns at
    /// a location of `results` other than their origin's (as
    /// [`Values::used`] counts returns; `all`: the locations in the
    /// returns' order). Only [`Values::used`]'s merges ([`is_merge`])
    /// ask: a function with none keeps all bits demanded, unasked.
    fn observe(&mut self, f: &Function, results: LocSet, all: &[Loc]) {
        if !self.merges {
            return;
        }
        let origin = &self.origin;
        self.demanded = crate::demanded::demanded_bits(f, |k, v| {
            all.get(k)
                .is_some_and(|&l| results.contains(l) && origin[v] != Origin::Entry(l))
        });
    }

    /// The constant of each value defined by the copies, phis and
    /// width changes ([`fold_by`]) `moves`: rounds until nothing changes, a
    /// value becoming constant only once all its sources are the same
    /// constant (pessimistic: a loop-carried constant stays unknown).
    fn constants(
        f: &Function,
        moves: &[Inst],
        ops: &SecondaryMap<Operator, u16>,
    ) -> SecondaryMap<Var, Option<i64>> {
        let mut k: SecondaryMap<Var, Option<i64>> = SecondaryMap::with_capacity(f.num_vars(), None);
        let of = |o: Operand, k: &SecondaryMap<Var, Option<i64>>| match o {
            Operand::Const(c) => Some(c),
            Operand::Var(v) => k[v],
            _ => None,
        };
        let mut changed = true;
        while changed {
            changed = false;
            for &i in moves {
                let (dst, c) = match f.inst(i) {
                    InstData::Copy { dst, src } => (*dst, of(*src, &k)),
                    InstData::Phi { dst, args } => {
                        let mut vals = args.as_slice(f).iter().map(|a| of(a.value, &k));
                        let first = vals.next().flatten();
                        (*dst, first.filter(|&c| vals.all(|x| x == Some(c))))
                    }
                    InstData::Op {
                        op, args, results, ..
                    } => {
                        let (&[a], &[dst]) = (args.as_slice(f), results.as_slice(f)) else {
                            continue;
                        };
                        let c = of(a, &k).and_then(|c| fold_by(ops[*op], c));
                        (dst, c)
                    }
                    _ => continue,
                };
                if c.is_some() && k[dst] != c {
                    k[dst] = c;
                    changed = true;
                }
            }
        }
        k
    }

    /// Whether each value was written by the function: defined by an
    /// operation, by a call or indirect call as one of its callee's
    /// results (`carries` of `i`: per result, whether it carries one; an
    /// operation other than an indirect call carries all), or a copy or
    /// phi of such a value; not an entry value nor what a call clobbers.
    fn written(
        &self,
        f: &Function,
        carries: impl Fn(Inst, usize, Var) -> bool,
    ) -> SecondaryMap<Var, bool> {
        let mut real = self.defined.clone();
        for &i in &self.calls {
            match f.inst(i) {
                InstData::Op { op, .. } if self.ops[*op] & INDIRECT == 0 => {}
                InstData::Call { results: rs, .. } | InstData::Op { results: rs, .. } => {
                    for (k, &v) in rs.as_slice(f).iter().enumerate() {
                        real[v] = carries(i, k, v);
                    }
                }
                _ => {}
            }
        }
        self.close(f, &mut real);
        real
    }

    /// Closes `real` (whether each value was written) through the copies
    /// and phis: a copy or phi of a written value is one. Rounds in
    /// layout order until nothing changes; the least fixpoint above the
    /// values given, whatever the order.
    fn close(&self, f: &Function, real: &mut SecondaryMap<Var, bool>) {
        let mut changed = true;
        while changed {
            changed = false;
            for &i in &self.moves {
                let (dst, r) = match f.inst(i) {
                    InstData::Copy { dst, src } => (
                        *dst,
                        match src {
                            Operand::Var(v) => real[*v],
                            _ => true,
                        },
                    ),
                    InstData::Phi { dst, args } => (
                        *dst,
                        args.as_slice(f).iter().any(|a| match a.value {
                            Operand::Var(v) => real[v],
                            _ => true,
                        }),
                    ),
                    _ => continue,
                };
                if r && !real[dst] {
                    real[dst] = true;
                    changed = true;
                }
            }
        }
    }

    /// The values used: read by an operation, a call, a branch or a
    /// switch, or returned at a location of `results` other than their
    /// origin's, then closed backward through copies and phis (an
    /// argument of an unknown callee that the function wrote, only
    /// through the values it wrote); with the first use that reached
    /// each (`None`: a terminator) when `why` asks. A store of the set
    /// ([`is_store`]) of the entry value of a location of `preserved` is
    /// not a use. The same walk gathers the roots of the closure in which
    /// no store of any kind ([`is_any_store`]) of an entry value is a use
    /// ([`Values::beyond_stores`]).
    fn used(
        &self,
        f: &Function,
        results: LocSet,
        preserved: LocSet,
        all: &[Loc],
        unknown: &Unknown,
        why: bool,
    ) -> Used {
        let n = f.num_vars();
        // Each value is pushed on `work` and on `beyond` at most once.
        let mut m = Marks {
            used: filled(n, false),
            work: Vec::with_capacity(n),
            why: why.then(|| filled(n, None)),
            root: None,
            in_beyond: filled(n, false),
            beyond: Vec::with_capacity(n),
        };
        let mut weak_roots = Vec::new();
        for &b in f.layout() {
            for &i in f.block_phis(b).iter().chain(f.block_insts(b)) {
                m.root = Some(i);
                match f.inst(i) {
                    InstData::Phi { .. } | InstData::Copy { .. } => {}
                    InstData::Op { op, args, .. } if self.ops[*op] & ANY_STORE != 0 => {
                        // A preserved register's entry value stored (saved,
                        // `push rbx` left in memory) is not a use; nor, in
                        // the closure beyond stores, any entry value stored
                        // (a vector move to memory's too).
                        let store = self.ops[*op] & STORE != 0;
                        let args = args.as_slice(f);
                        for (k, &a) in args.iter().enumerate() {
                            let Operand::Var(v) = a else { continue };
                            let last = k + 1 == args.len();
                            let (saved, entry) = match self.origin[v] {
                                Origin::Entry(l) => (store && preserved.contains(l), true),
                                _ => (false, false),
                            };
                            if !last || !saved {
                                m.mark(v);
                            }
                            if !last || !entry {
                                m.root_beyond(v);
                            }
                        }
                    }
                    InstData::Op {
                        op, args, results, ..
                    } if is_merge(&self.ops, *op, args.as_slice(f)) => {
                        // The upper part an 8- or 16-bit write keeps: an
                        // entry value there is not a use (the kept bits
                        // are read later, if at all, through the merge),
                        // nor one merged by a phi with values the
                        // function wrote (`mov dl, al` in a loop whose
                        // header merges `rdx`'s entry value with the
                        // loop's): those written values alone are used,
                        // as for an unknown callee's weak argument. And
                        // nothing is used where no use observes the kept
                        // bits (`mov dl, al; mov [rcx], dl`: demanded bits).
                        let observed = |r: &[Var], kept: i64| {
                            r.iter().any(|&r| self.demanded[r] & kept as u64 != 0)
                        };
                        if let [Operand::Var(v), Operand::Const(kept)] = *args.as_slice(f) {
                            match self.origin[v] {
                                _ if !observed(results.as_slice(f), kept) => {}
                                Origin::Entry(_) => {}
                                _ if unknown.real[v] => weak_roots.push(v),
                                _ => m.both(v),
                            }
                        }
                    }
                    InstData::Call { args, .. } | InstData::Op { args, .. }
                        if unknown.skip[i] != 0 || unknown.weak[i] != 0 =>
                    {
                        for (k, &a) in args.as_slice(f).iter().enumerate() {
                            let Operand::Var(v) = a else { continue };
                            if unknown.skip[i] & (1 << k) != 0 {
                                continue;
                            }
                            match unknown.weak[i] & (1 << k) != 0 && unknown.real[v] {
                                true => weak_roots.push(v),
                                false => m.both(v),
                            }
                        }
                    }
                    _ => f.for_each_use(i, |v| m.both(v)),
                }
            }
            m.root = None;
            match f.term(b) {
                Terminator::Ret(vals) => {
                    for (&l, &o) in all.iter().zip(vals.as_slice(f)) {
                        if let Operand::Var(v) = o {
                            if results.contains(l) && self.origin[v] != Origin::Entry(l) {
                                m.both(v);
                            }
                        }
                    }
                }
                _ => f.for_each_term_use(b, |v| m.both(v)),
            }
        }
        let defs = &self.moved_by;
        while let Some(v) = m.work.pop() {
            let Some(i) = defs[v] else { continue };
            if let Some(why) = &m.why {
                m.root = why[v];
            }
            f.for_each_use(i, |u| m.mark(u));
        }
        let beyond = (m.beyond, weak_roots.clone());
        let mut used = m.used;
        self.close_weak(f, unknown, weak_roots, &mut used);
        Used {
            used,
            why: m.why,
            beyond,
        }
    }

    /// An argument of an unknown callee that the function wrote on some
    /// path uses only the values it wrote that reach it (through copies
    /// and phis), never an entry value merged with them: marks in `used`
    /// the written values that reach the weak arguments `roots`.
    fn close_weak(
        &self,
        f: &Function,
        unknown: &Unknown,
        mut roots: Vec<Var>,
        used: &mut SecondaryMap<Var, bool>,
    ) {
        let mut weak = filled(f.num_vars(), false);
        while let Some(v) = roots.pop() {
            if !unknown.real[v] || weak[v] {
                continue;
            }
            weak[v] = true;
            used[v] = true;
            if let Some(i) = self.moved_by[v] {
                f.for_each_use(i, |u| roots.push(u));
            }
        }
    }

    /// The values used where no store of an entry value is a use (any
    /// location's, by any store, [`is_any_store`]), as [`Values::used`]
    /// finds them with the same `unknown`: the closure of the roots
    /// `used` gathered for it (each once; the weak ones as they came).
    /// The closure is the same least set whatever the order of its roots.
    fn beyond_stores(
        &self,
        f: &Function,
        unknown: &Unknown,
        (mut work, weak_roots): (Vec<Var>, Vec<Var>),
    ) -> SecondaryMap<Var, bool> {
        let mut used = filled(f.num_vars(), false);
        for &v in &work {
            used[v] = true;
        }
        while let Some(v) = work.pop() {
            let Some(i) = self.moved_by[v] else { continue };
            f.for_each_use(i, |u| {
                if !used[u] {
                    used[u] = true;
                    work.push(u);
                }
            });
        }
        self.close_weak(f, unknown, weak_roots, &mut used);
        used
    }
}

/// A map of a function's `n` values, every entry present (no growth on
/// a first write).
fn filled<V: Clone>(n: usize, default: V) -> SecondaryMap<Var, V> {
    let mut map = SecondaryMap::with_capacity(n, default.clone());
    if n > 0 {
        map[Var::new(n - 1)] = default;
    }
    map
}

/// What [`Values::used`] finds.
struct Used {
    /// Whether each value is used.
    used: SecondaryMap<Var, bool>,
    /// The first use that reached each, when asked.
    why: Option<Why>,
    /// The roots of [`Values::beyond_stores`]: the values used by the
    /// same uses but the stores of entry values, each once; the weak
    /// arguments.
    beyond: (Vec<Var>, Vec<Var>),
}

/// The backward closure of [`Values::used`] under way.
struct Marks {
    /// The values reached.
    used: SecondaryMap<Var, bool>,
    /// Those reached whose definitions are still to follow.
    work: Vec<Var>,
    /// The first use that reached each value, when asked.
    why: Option<Why>,
    /// The use being walked (`None`: a terminator).
    root: Option<Inst>,
    /// Whether each value is one of `beyond`.
    in_beyond: SecondaryMap<Var, bool>,
    /// The roots of [`Values::beyond_stores`] so far.
    beyond: Vec<Var>,
}

impl Marks {
    /// Marks `v` used, by the use `root`.
    #[inline(always)]
    fn mark(&mut self, v: Var) {
        if !self.used[v] {
            self.used[v] = true;
            if let Some(why) = &mut self.why {
                why[v] = self.root;
            }
            self.work.push(v);
        }
    }

    /// Notes `v` a root of [`Values::beyond_stores`].
    #[inline(always)]
    fn root_beyond(&mut self, v: Var) {
        if !self.in_beyond[v] {
            self.in_beyond[v] = true;
            self.beyond.push(v);
        }
    }

    /// Both: a use that is one with or without the stores of entry values.
    #[inline(always)]
    fn both(&mut self, v: Var) {
        self.mark(v);
        self.root_beyond(v);
    }
}

/// The nodes `0..n` of a graph (`succ`: a node's callees) in postorder
/// of a depth-first search from each node in turn (iteratively):
/// callees before their callers, but for the edges that close cycles.
fn callees_first<I: Iterator<Item = usize>>(n: usize, succ: impl Fn(usize) -> I) -> Vec<usize> {
    let mut seen = vec![false; n];
    let mut out = Vec::with_capacity(n);
    for root in 0..n {
        if seen[root] {
            continue;
        }
        seen[root] = true;
        let mut stack = vec![(root, succ(root).collect::<Vec<_>>(), 0)];
        while let Some((v, next, e)) = stack.last_mut() {
            if let Some(&w) = next.get(*e) {
                *e += 1;
                if !seen[w] {
                    seen[w] = true;
                    stack.push((w, succ(w).collect(), 0));
                }
                continue;
            }
            out.push(*v);
            stack.pop();
        }
    }
    out
}

/// The components of the call graph's condensation as a work queue: a
/// component is analysed as soon as those of lower levels whose findings
/// its functions read are done (a count per component of those not yet
/// done), on rayon's threads, instead of a level waiting for the whole
/// level before it. Of the components ready, a thread takes the one of
/// highest rank: the longest chain of work that waits for it, as list
/// scheduling does, so that a large cycle (libpython's eval loop, which
/// most functions wait for) starts early and the functions that neither
/// it nor its callers need fill the threads its narrow waves leave idle.
struct Queue {
    /// The components, each the functions of one cycle (or a single
    /// function), in the order of their levels.
    comps: Vec<Vec<usize>>,
    /// Per component, the number of components it waits for.
    waits: Vec<usize>,
    /// Per component, the components that wait for it.
    waiting: Vec<Vec<usize>>,
    /// Per component, its cost (its functions' instructions, twice for a
    /// cycle, whose functions are analysed about twice each) plus the
    /// largest rank of the components waiting for it.
    rank: Vec<u64>,
}

impl Queue {
    /// The queue of `order`'s components, each waiting for the components
    /// of lower levels of the functions its own read
    /// ([`Signatures::reads`]: what [`Seen::Below`] lets them see).
    fn new(sigs: &Signatures, cfgs: &[FuncCfg], order: &CallOrder) -> Queue {
        let comps: Vec<Vec<usize>> = order.levels.iter().flatten().cloned().collect();
        let mut comp_of = vec![0; cfgs.len()];
        for (c, members) in comps.iter().enumerate() {
            for &k in members {
                comp_of[k] = c;
            }
        }
        let mut waits = vec![0; comps.len()];
        let mut waiting = vec![Vec::new(); comps.len()];
        let mut on: Vec<usize> = Vec::new();
        for (c, members) in comps.iter().enumerate() {
            on.clear();
            for &k in members {
                let below = |w: &usize| sigs.levels[*w] < sigs.levels[k];
                on.extend(
                    sigs.reads(&cfgs[k])
                        .into_iter()
                        .filter(below)
                        .map(|w| comp_of[w]),
                );
            }
            on.sort_unstable();
            on.dedup();
            waits[c] = on.len();
            for &d in &on {
                waiting[d].push(c);
            }
        }
        let mut rank = vec![0u64; comps.len()];
        for c in (0..comps.len()).rev() {
            let insts: usize = comps[c].iter().map(|&k| cfgs[k].insts.len()).sum();
            let cost = (insts * if comps[c].len() > 1 { 2 } else { 1 }) as u64;
            let after = waiting[c].iter().map(|&d| rank[d]).max().unwrap_or(0);
            rank[c] = cost + after;
        }
        Queue {
            comps,
            waits,
            waiting,
            rank,
        }
    }

    /// Runs `analyse` on every component, each once those it waits for
    /// are done; its results in the components' order.
    fn run<T: Send + Sync>(&self, analyse: impl Fn(&[usize]) -> T + Sync) -> Vec<T> {
        let run = Run {
            queue: self,
            left: self.waits.iter().map(|&n| AtomicUsize::new(n)).collect(),
            ready: Mutex::new(BinaryHeap::new()),
            out: (0..self.comps.len()).map(|_| OnceLock::new()).collect(),
            analyse,
        };
        rayon::scope(|s| {
            for c in (0..self.comps.len()).filter(|&c| self.waits[c] == 0) {
                run.start(s, c);
            }
        });
        (run.out.into_iter())
            .map(|o| o.into_inner().expect("every component runs"))
            .collect()
    }
}

/// One run of a [`Queue`]: per component, the components it still waits
/// for and its results once done; the components ready, by rank.
struct Run<'q, T, F> {
    queue: &'q Queue,
    left: Vec<AtomicUsize>,
    /// The components ready and not taken: (rank, component).
    ready: Mutex<BinaryHeap<(u64, Reverse<usize>)>>,
    out: Vec<OnceLock<T>>,
    analyse: F,
}

impl<T: Send + Sync, F: Fn(&[usize]) -> T + Sync> Run<'_, T, F> {
    /// Makes component `c` ready and spawns a task on `s` that takes the
    /// ready component of highest rank (one task per component made
    /// ready, so one is there to take), analyses it, then makes ready
    /// each component waiting for it that waits for nothing else.
    fn start<'s>(&'s self, s: &rayon::Scope<'s>, c: usize) {
        let rank = self.queue.rank[c];
        self.ready
            .lock()
            .expect("not poisoned")
            .push((rank, Reverse(c)));
        s.spawn(move |s| {
            let next = self.ready.lock().expect("not poisoned").pop();
            let (_, Reverse(c)) = next.expect("a component per task");
            let _ = self.out[c].set((self.analyse)(&self.queue.comps[c]));
            for &d in &self.queue.waiting[c] {
                if self.left[d].fetch_sub(1, Ordering::AcqRel) == 1 {
                    self.start(s, d);
                }
            }
        });
    }
}

/// The order of analysis: the call graph's strongly connected components
/// by level (a component's level is one more than its callees').
struct CallOrder {
    /// Per level, its components, each the functions of one cycle (or a
    /// single function).
    levels: Vec<Vec<Vec<usize>>>,
}

impl CallOrder {
    /// Tarjan's algorithm with an explicit stack of (node, next edge):
    /// components come out callees first.
    fn of(graph: &[Vec<usize>]) -> CallOrder {
        const NONE: u32 = u32::MAX;
        let n = graph.len();
        let mut index = vec![NONE; n];
        let mut low = vec![0u32; n];
        let mut on_stack = vec![false; n];
        let mut comp = vec![NONE; n];
        let mut stack = Vec::new();
        let mut comps: Vec<Vec<usize>> = Vec::new();
        let mut next = 0u32;
        for root in 0..n {
            if index[root] != NONE {
                continue;
            }
            let mut frames = vec![(root, 0usize)];
            index[root] = next;
            low[root] = next;
            next += 1;
            stack.push(root);
            on_stack[root] = true;
            while let Some(&mut (v, ref mut e)) = frames.last_mut() {
                if let Some(&w) = graph[v].get(*e) {
                    *e += 1;
                    if index[w] == NONE {
                        index[w] = next;
                        low[w] = next;
                        next += 1;
                        stack.push(w);
                        on_stack[w] = true;
                        frames.push((w, 0));
                    } else if on_stack[w] {
                        low[v] = low[v].min(index[w]);
                    }
                    continue;
                }
                frames.pop();
                if let Some(&(u, _)) = frames.last() {
                    low[u] = low[u].min(low[v]);
                }
                if low[v] == index[v] {
                    let mut members = Vec::new();
                    loop {
                        let w = stack.pop().expect("the component is on the stack");
                        on_stack[w] = false;
                        comp[w] = comps.len() as u32;
                        members.push(w);
                        if w == v {
                            break;
                        }
                    }
                    comps.push(members);
                }
            }
        }
        let mut level = vec![0usize; comps.len()];
        for (c, members) in comps.iter().enumerate() {
            let mut l = 0;
            for &v in members {
                for &w in &graph[v] {
                    let cw = comp[w] as usize;
                    if cw != c {
                        l = l.max(level[cw] + 1);
                    }
                }
            }
            level[c] = l;
        }
        let mut levels = vec![Vec::new(); level.iter().max().map_or(0, |&m| m + 1)];
        for (c, members) in comps.into_iter().enumerate() {
            levels[level[c]].push(members);
        }
        CallOrder { levels }
    }
}

/// [`lift::lift_with`] with signatures (the module doc): each direct call
/// reads its callee's parameters and clobbers what the callee does not
/// preserve, each return reads the function's results; calls of no
/// known signature, and a function of none, as the convention says.
///
/// ```
/// let elf = std::fs::read(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixture/fixture")).unwrap();
/// let bin = ssakit_x86::binary::Binary::parse(&elf).unwrap();
/// let sigs = ssakit_x86::signature::Signatures::infer(&bin, false);
/// let info = bin.functions().iter().find(|f| f.name == "sum").unwrap();
/// let opts = ssakit_x86::lift::Options { semantics: true };
/// let f = ssakit_x86::signature::lift_with_signatures(&bin, info, &opts, &sigs).func;
/// let text = ssakit::text::print_function(&f);
/// assert!(!text.contains("xmm0,") && !text.contains("ret rax, rdx, rbx")); // no convention's return
/// ```
pub fn lift_with_signatures(
    bin: &Binary<'_>,
    info: &FuncInfo,
    opts: &lift::Options,
    sigs: &Signatures,
) -> Lifted {
    let cfg = recover(bin, info);
    let lifted = lift_signed(bin, info, &cfg, opts, sigs);
    Lifted::of(bin, info, &cfg, lifted)
}

/// [`crate::slots::promote`] of `info` of `bin`, lifted with the
/// signatures `sigs` (found with `stack`: [`Signatures::infer`]), which
/// also say which pointer arguments each callee never captures (LLVM's
/// `nocapture`, in the private module `capture`): a
/// frame address passed only to such callees is *lent*, and its object
/// may change at those calls, not at the other points that may write
/// through a pointer (what `x86 stats --stack --signatures` does).
///
/// ```
/// let elf = std::fs::read(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixture/fixture")).unwrap();
/// let bin = ssakit_x86::binary::Binary::parse(&elf).unwrap();
/// let sigs = ssakit_x86::signature::Signatures::infer(&bin, true);
/// let info = bin.functions().iter().find(|f| f.name == "main").unwrap();
/// let opts = ssakit_x86::lift::Options { semantics: true };
/// let mut l = ssakit_x86::signature::lift_with_signatures(&bin, info, &opts, &sigs);
/// let p = ssakit_x86::signature::promote_signed(&mut l.func, &mut l.origins, &bin, info, &sigs);
/// assert!(p.lost.is_none() && p.promoted > 0);
/// ```
pub fn promote_signed(
    f: &mut Function,
    origins: &mut Origins,
    bin: &Binary<'_>,
    info: &FuncInfo,
    sigs: &Signatures,
) -> crate::slots::Promotion {
    let lent = sigs.lent(&recover(bin, info));
    crate::slots::promote_lending(f, origins, &lent)
}

/// [`lift::lift_with_origins`] with the signatures `sigs`.
pub(crate) fn lift_signed(
    bin: &Binary<'_>,
    info: &FuncInfo,
    cfg: &FuncCfg,
    opts: &lift::Options,
    sigs: &Signatures,
) -> (Function, Origins, crate::sem::FlagDefs) {
    lift::lift_with_calls(bin, info, cfg, opts, &sigs.call_model(info.extent.start))
}

/// The analyses per function of a cycle (on average) before its calls
/// fall back to the convention.
const CYCLE_ROUNDS: usize = 16;

/// A function of the cycle under analysis: its index, its signature and
/// optional parameters of the round before.
struct Member {
    k: usize,
    sig: Signature,
    optional: LocSet,
}

/// The signatures seen by the analysis of a function of a cycle: those of
/// the cycle's functions of this round, the others' as found.
struct Scoped<'a> {
    sigs: &'a Signatures,
    cycle: &'a [Member],
    /// The other functions' signatures it sees.
    seen: Seen,
}

impl Callees for Scoped<'_> {
    fn call(&self, conv: &Convention, target: u64) -> Option<(Vec<Loc>, LocSet)> {
        let k = self.sigs.index(target)?;
        let sig = match self.cycle.binary_search_by_key(&k, |c| c.k) {
            Ok(at) => &self.cycle[at].sig,
            Err(_) => self.sigs.found(k, self.seen)?,
        };
        let sig = Some(sig).filter(|s| !s.fallback)?;
        Some((sig.call_args(conv), sig.clobbers()))
    }

    fn site_reads(&self, site: u64) -> Option<LocSet> {
        self.sigs.site_reads(site)
    }
}

impl Callees for Signatures {
    fn call(&self, conv: &Convention, target: u64) -> Option<(Vec<Loc>, LocSet)> {
        let sig = self.at(target).filter(|s| !s.fallback)?;
        Some((sig.call_args(conv), sig.clobbers()))
    }

    fn site_reads(&self, site: u64) -> Option<LocSet> {
        Signatures::site_reads(self, site)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_register_moved_before_a_call_counts_as_written() {
        // `mov rbx, rdi` ... `mov rdi, rbx` in SSA form (`b`, `d`): the
        // second copy is the caller putting an argument in place (its
        // value is the entry value of rdi); the parameters themselves and
        // a constant copied are not moves.
        let src =
            "function f(rdi, rbx) {\nentry:\n    b = rdi\n    d = b\n    k = 5\n    ret d, k\n}\n";
        let mut m = ssakit::text::parse(src).unwrap().module;
        let f = m.functions.remove(0);
        let moved = moved_into(&f, &Values::of(&f).moves, &SecondaryMap::new(false));
        let insts = f.block_insts(f.layout()[0]);
        let dst = |k: usize| match f.inst(insts[k]) {
            InstData::Copy { dst, .. } => *dst,
            _ => unreachable!(),
        };
        assert!(moved[dst(0)] && moved[dst(1)] && !moved[dst(2)]);
        assert!(f.params().iter().all(|&p| !moved[p]));
        assert!(
            is_slot("s16")
                && is_slot("s-8")
                && is_slot("s16_4")
                && !is_slot("sf")
                && !is_slot("rsi")
        );
    }

    #[test]
    fn optional_operands_and_vector_saves() {
        // A call reading (rsp, rdi, rsi, xmm0): the operands of rsi and
        // xmm0, optional, are bits 2 and 3.
        let locs = [Loc::RSP, Loc::RDI, Loc::RSI, Loc::xmm(0)];
        let optional = LocSet::of(&[Loc::RSI, Loc::xmm(0), Loc::R9]);
        assert_eq!(mask_of(optional, &locs), 0b1100);
        // The vector part of a register save area is a store of the
        // register; only the set's stores count for `is_store`.
        assert!(is_any_store("x86.movaps.w") && is_any_store("i64.store"));
        assert!(!is_store("x86.movaps.w") && !is_any_store("x86.movaps"));
    }

    #[test]
    fn al_counts_the_vectors_a_variadic_call_passes() {
        // A call (rsp, rdi, rax, xmm0, xmm1) of a variadic callee whose
        // vector parameters are optional (its save area): `xmm1` written,
        // `xmm0` the caller's entry value. With `al` = 1 the call passes
        // `xmm0` and not `xmm1` (bit 4); with `al` unknown, both, up to
        // the last written.
        let src = "function f(rdi, x0, x1) {\nentry:\n    a = 1\n    ret a\n}\n";
        let mut m = ssakit::text::parse(src).unwrap().module;
        let f = m.functions.remove(0);
        let (rdi, x0, x1) = (f.params()[0], f.params()[1], f.params()[2]);
        let InstData::Copy { dst: a, .. } = *f.inst(f.block_insts(f.layout()[0])[0]) else {
            unreachable!()
        };
        let sigs = Signatures {
            conv: Convention::of_kind(crate::conv::ConvKind::SystemV),
            starts: Vec::new(),
            sigs: Vec::new(),
            levels: Vec::new(),
            sites: Vec::new(),
            optional: Vec::new(),
            plt: Vec::new(),
            ifunc: Vec::new(),
            captures: Vec::new(),
        };
        let values = Values::of(&f);
        let mut real = SecondaryMap::new(false);
        real[x1] = true;
        let locs = [Loc::RSP, Loc::RDI, Loc::RAX, Loc::xmm(0), Loc::xmm(1)];
        let optional = LocSet::of(&[Loc::xmm(0), Loc::xmm(1)]);
        let mut args = [Operand::Const(0); 5];
        for (k, v) in [rdi, a, x0, x1].into_iter().enumerate() {
            args[k + 1] = Operand::Var(v);
        }
        assert_eq!(
            sigs.optional_skip(optional, &locs, &args, &real, &values),
            1 << 4
        );
        args[2] = Operand::Var(rdi);
        assert_eq!(
            sigs.optional_skip(optional, &locs, &args, &real, &values),
            0
        );
    }

    #[test]
    fn a_syscall_of_unknown_number_reads_up_to_the_last_argument_written() {
        // `mov eax, [rbx]; syscall` with rdi and rsi written, rdx, r10,
        // r8 and r9 the entry values: the number is not a constant, so
        // the call reads rdi and rsi (weakly: only what was written),
        // as an unknown callee's; `read` (0) reads its three.
        let src = "function f(n, w, e) {\nentry:\n    z = 0\n    ret z\n}\n";
        let mut m = ssakit::text::parse(src).unwrap().module;
        let f = m.functions.remove(0);
        let (n, w, e) = (f.params()[0], f.params()[1], f.params()[2]);
        let InstData::Copy { dst: zero, .. } = *f.inst(f.block_insts(f.layout()[0])[0]) else {
            unreachable!()
        };
        let values = Values::of(&f);
        let mut real = SecondaryMap::new(false);
        real[w] = true;
        let reads = LocSet::of(&crate::syscalls::ARGS).union(LocSet::of(&[Loc::RAX]));
        let order: Vec<Loc> = reads.iter().collect();
        let bit = |l: Loc| 1u64 << order.iter().position(|&m| m == l).unwrap();
        let args: Vec<Operand> = order
            .iter()
            .map(|&l| match l {
                Loc::RAX => Operand::Var(n),
                Loc::RDI | Loc::RSI => Operand::Var(w),
                _ => Operand::Var(e),
            })
            .collect();
        let past = [Loc::RDX, Loc::R10, Loc::R8, Loc::R9];
        let skip: u64 = past.iter().map(|&l| bit(l)).sum();
        let weak = bit(Loc::RDI) | bit(Loc::RSI);
        assert_eq!(syscall_skip(reads, &args, &values, &real), (skip, weak));
        let mut read = args.clone();
        read[order.iter().position(|&l| l == Loc::RAX).unwrap()] = Operand::Var(zero);
        let skip: u64 = [Loc::R10, Loc::R8, Loc::R9].iter().map(|&l| bit(l)).sum();
        assert_eq!(syscall_skip(reads, &read, &values, &real), (skip, 0));
    }

    #[test]
    fn a_byte_write_in_a_loop_uses_no_entry_value_it_keeps() {
        // `mov dl, al` in a loop whose header merges rdx's entry value
        // with the loop's: the merge's `i64.and` keeps the upper part,
        // which is the entry value on the first iteration only; it is
        // not a use of that entry value, but `al`, read, is. With an
        // ordinary `and` the entry value is used.
        let src = |mask: i64| {
            format!(
                "operator i64.and pure\noperator i64.or pure\n\
                 function f(rdx, al, c: bool) {{\nentry:\n    jump h\nh:\n    \
                 d = phi(entry: rdx, h: w)\n    k = i64.and(d, {mask})\n    \
                 w = i64.or(k, al)\n    branch c, h, x\nx:\n    ret w\n}}\n"
            )
        };
        for (mask, entry_used) in [(!0xff, false), (0xff, true)] {
            let mut m = ssakit::text::parse(&src(mask)).unwrap().module;
            let f = m.functions.remove(0);
            let values = Values::of(&f);
            let unknown = Unknown {
                skip: SecondaryMap::new(0),
                sites: Vec::new(),
                weak: SecondaryMap::new(0),
                real: values.written(&f, |_, _, _| true),
                asked: Vec::new(),
            };
            let all = [Loc::RDX, Loc::RAX, Loc::CF];
            let used = values
                .used(&f, LocSet::EMPTY, LocSet::EMPTY, &all, &unknown, false)
                .used;
            let (rdx, al) = (f.params()[0], f.params()[1]);
            assert_eq!((used[rdx], used[al]), (entry_used, true), "mask {mask}");
        }
    }

    #[test]
    fn a_kept_upper_part_no_use_observes_is_no_use() {
        // `mov dl, al; mov [p], dl` where rdx is, at the merge, rdx's entry
        // value or what a call clobbered (`x`, not written by the
        // function): only the stored byte is observed, so rdx's entry
        // value is not used; returned in rdx as a result, it is.
        let src = "operator i64.and pure\noperator i64.or pure\n\
                   operator i32.wrap_i64 pure\noperator i32.and pure\n\
                   operator i32.store8 trap write\n\
                   function f(rdx, al, p, x, c: bool) {\nentry:\n    branch c, h, j\nh:\n    \
                   jump j\nj:\n    d = phi(entry: rdx, h: x)\n    k = i64.and(d, -256)\n    \
                   w = i64.or(k, al)\n    t: i32 = i32.wrap_i64(w)\n    \
                   b: i32 = i32.and(t, 255)\n    i32.store8[0, 0, 0](p, b)\n    ret w\n}\n";
        let mut m = ssakit::text::parse(src).unwrap().module;
        let f = m.functions.remove(0);
        let all = [Loc::RDX, Loc::RAX, Loc::RSI, Loc::RBX, Loc::CF];
        for (results, entry_used) in [(LocSet::EMPTY, false), (LocSet::of(&[Loc::RDX]), true)] {
            let mut values = Values::of(&f);
            values.observe(&f, results, &all);
            let unknown = Unknown {
                skip: SecondaryMap::new(0),
                sites: Vec::new(),
                weak: SecondaryMap::new(0),
                real: values.written(&f, |_, _, _| true),
                asked: Vec::new(),
            };
            let used = values
                .used(&f, results, LocSet::EMPTY, &all, &unknown, false)
                .used;
            let rdx = f.params()[0];
            assert_eq!(used[rdx], entry_used, "results {results:?}");
        }
    }

    #[test]
    fn a_scratch_register_is_no_evidence_of_the_arguments_before_it() {
        // clang -O0's `strm->zfree(strm->opaque, s->window)`: `mov rdi,
        // [rcx+0x50]; mov rcx, [rbp-0x10]; mov rcx, [rcx+0x38]; mov rsi,
        // [rcx+0x10]; call rax`. rdi and rsi are written as arguments,
        // rcx as an address, rdx not at all: the call reads rdi, rsi and
        // rcx, not rdx. Were rcx written as an argument (a fourth), rdx
        // would be one too, passed on from the caller's caller.
        use Loc as L;
        let list = [L::RDI, L::RSI, L::RDX, L::RCX, L::R8, L::R9];
        let placed = |scratch: bool| {
            move |l: Loc| match l {
                L::RDI | L::RSI => Placed::Argument,
                L::RCX if scratch => Placed::Scratch,
                L::RCX => Placed::Argument,
                _ => Placed::Unwritten,
            }
        };
        let reads = |set: &[Loc]| LocSet::of(set);
        assert_eq!(
            positional_reads(&list, placed(true)),
            reads(&[L::RDI, L::RSI, L::RCX])
        );
        assert_eq!(
            positional_reads(&list, placed(false)),
            reads(&[L::RDI, L::RSI, L::RDX, L::RCX])
        );
    }

    #[test]
    fn a_tail_jump_through_the_plt_passes_on_the_definitions_parameters() {
        // `gzseek: jmp gzseek64@plt` (site 0x10), gzseek64 (function 0)
        // defined in the binary with the signature (rdi, rsi, rdx): the
        // jump passes on what the definition reads. A call (not a jump),
        // or a jump that does not go through a PLT stub, does not.
        let src = "function g(a) {\nentry:\n    ret a\n}\n\
                   function f(rdi) {\nentry:\n    r = g(rdi)\n    ret r\n}\n";
        let mut m = ssakit::text::parse(src).unwrap().module;
        let f = m.functions.remove(1);
        let call = f.block_insts(f.layout()[0])[0];
        let conv = Convention::of_kind(crate::conv::ConvKind::SystemV);
        let mut g = Signature::of_convention(&conv);
        (g.params, g.fallback) = (LocSet::of(&[Loc::RDI, Loc::RSI, Loc::RDX]), false);
        let sigs = Signatures {
            conv,
            starts: vec![0x100],
            sigs: vec![OnceLock::from(g)],
            levels: vec![0],
            sites: Vec::new(),
            optional: vec![OnceLock::from(LocSet::EMPTY)],
            plt: vec![(0x50, 0)],
            ifunc: Vec::new(),
            captures: vec![OnceLock::from(Summary::default())],
        };
        for (plt, jumps, passes) in [
            (true, [0x10], true),
            (true, [0x20], false),
            (false, [0x10], false),
        ] {
            let calls = CallSites {
                callee: &|_| Some(0),
                through_plt: &|_| plt,
                ifunc: &|_| None,
                site: &|_| Some(0x10),
                indirect: &[],
                syscalls: &[],
                jumps: &jumps,
                cycle: &[],
                seen: Seen::All,
            };
            assert_eq!(
                sigs.passes_on(&f, &calls, call, Some(0x10)),
                passes,
                "plt {plt}, jumps {jumps:?}"
            );
        }
    }

    #[test]
    fn addresses_are_what_loads_and_stores_are_formed_from() {
        // `mov rcx, [rbx+0x38]; mov rsi, [rcx+0x10]`: rbx and rcx address
        // memory, the loaded rsi and the untouched rax do not.
        let src = "operator i64.add pure\noperator i64.load trap read\n\
                   function f(rbx, rax) {\nentry:\n    q = i64.add(rbx, 56)\n    \
                   c = i64.load[0, 0, 0](q)\n    rcx = c\n    r = i64.add(rcx, 16)\n    \
                   s = i64.load[0, 0, 0](r)\n    rsi = s\n    ret rsi, rcx, rax\n}\n";
        let mut m = ssakit::text::parse(src).unwrap().module;
        let f = m.functions.remove(0);
        let a = addresses(&f, &op_kinds(&f));
        let v = |name: &str| f.var_by_name(name).unwrap();
        assert!(a[v("rbx")] && a[v("q")] && a[v("rcx")] && a[v("c")]);
        assert!(!a[v("rsi")] && !a[v("s")] && !a[v("rax")]);
    }

    #[test]
    fn a_cycle_starts_with_no_parameter_and_the_conventions_clobbers() {
        let conv = Convention::of_kind(crate::conv::ConvKind::SystemV);
        let s = Signature::within_cycle(&conv);
        assert!(s.params.is_empty() && !s.fallback);
        assert_eq!(s.clobbers(), conv.call_writes);
        assert_eq!(s.results, LocSet::of(&[Loc::RAX]));
    }

    #[test]
    fn callees_first_is_a_depth_first_postorder() {
        // 0 -> 1 -> 2 -> 0 (a cycle), 1 -> 3: the walk from 0 puts 2 and
        // 3 before 1, and 1 before 0.
        let g: Vec<Vec<usize>> = vec![vec![1], vec![2, 3], vec![0], vec![]];
        assert_eq!(callees_first(4, |v| g[v].iter().copied()), vec![2, 3, 1, 0]);
    }

    #[test]
    fn call_order_puts_callees_first_and_cycles_together() {
        // 0 -> 1 -> 2, 2 -> 1 (a cycle), 3 -> 0, 4 -> 4.
        let g = vec![vec![1], vec![2], vec![1], vec![0], vec![4]];
        let o = CallOrder::of(&g);
        let level_of = |v: usize| {
            let at = |l: &Vec<Vec<usize>>| l.iter().any(|c| c.contains(&v));
            o.levels.iter().position(at).unwrap()
        };
        assert_eq!(level_of(1), level_of(2));
        assert!(level_of(0) > level_of(1) && level_of(3) > level_of(0));
        let comps: Vec<&Vec<usize>> = o.levels.iter().flatten().collect();
        assert_eq!(comps.len(), 4);
        assert!(comps
            .iter()
            .any(|c| c.len() == 2 && c.contains(&1) && c.contains(&2)));
    }
}
