//! Printers of ssakit programs in other compilers' formats.
//!
//! * [`llvm`]: LLVM 14 textual IR with one `alloca` per variable, the input
//!   of LLVM's `mem2reg` in the side-by-side benchmark.

pub mod llvm;
