//! # ssakit-x86
//!
//! The x86-64 front end of ssakit: the chapter's algorithms on machine
//! code (section 13.8, "En binarios"). Each function of an ELF binary
//! becomes one non-SSA [`Function`](ssakit::ir::Function) whose variables
//! are the machine's registers and flags; construction, verification, the
//! optimisations, destruction and printing then work on it unchanged.
//!
//! * [`binary`]: the ELF file: code, data, function extents (symbols,
//!   `.eh_frame`, a separate debug file), PLT names.
//! * [`discover`]: the functions neither a symbol nor an FDE gives:
//!   call targets, entry points, code pointers in data, the code after
//!   padding between extents.
//! * [`except`]: the landing pads of `.gcc_except_table`'s call sites.
//! * [`regs`]: the machine model: registers, flags and vector registers
//!   as variables ([`Loc`](regs::Loc), [`LocSet`](regs::LocSet)); what
//!   each instruction reads and writes, and where control goes next.
//! * [`mod@cfg`]: recursive descent inside a function's extent, jump tables,
//!   tail calls, calls that never return.
//! * [`conv`]: the calling conventions (System V, Go's register ABI,
//!   Windows x64): what a call of an unknown callee reads and clobbers.
//! * `insn` (private): the CFG's instruction, target and block-end
//!   types, shown as [`mod@cfg`]'s.
//! * `jumps` (private): the jump tables the shapes of [`mod@cfg`] miss, by
//!   a backward slice of the target and the conditions on its index.
//! * [`lift`]: one recovered function → one IR function.
//! * [`lost`]: the bytes of an extent never decoded, each range with
//!   its reason (padding apart).
//! * [`sem`]: what the integer instructions compute, in one table
//!   (`--semantics`).
//! * [`frame`]: the offset of `rsp` (and `rbp`) from its entry value at
//!   every point, and where it is lost (`--stack`).
//! * [`slots`]: the stack slots of fixed offset whose address does not
//!   escape become variables before construction (`--stack`).
//! * [`signature`]: parameters, results and preserved registers of
//!   each function from its SSA form, bottom-up over the call graph
//!   (`--signatures`).
//! * [`pipeline`]: every function through lift, the three flavours,
//!   verification, passes and destruction, with counts and times.
//! * [`error`]: errors located by byte offset, each of a kind callers
//!   decide on.
//!
//! ```
//! let elf = std::fs::read(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixture/fixture")).unwrap();
//! let bin = ssakit_x86::binary::Binary::parse(&elf).unwrap();
//! let info = bin.functions().iter().find(|f| f.name == "maxl").unwrap();
//! let f = ssakit_x86::lift::lift(&bin, info).func;
//! assert!(ssakit::text::print_function(&f).contains("x86.cmp"));
//! ```
#![deny(missing_docs)]

pub mod binary;
mod capture;
pub mod cfg;
pub mod conv;
mod demanded;
pub mod discover;
pub mod error;
pub mod except;
pub mod frame;
mod insn;
mod jumps;
pub mod lift;
pub mod lost;
pub mod pipeline;
pub mod regs;
pub mod sem;
pub mod signature;
pub mod slots;
mod syscalls;

pub use error::X86Error;
