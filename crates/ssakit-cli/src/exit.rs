//! Exit codes, one list for the whole tool, and the failure that carries
//! one up to `main`.

/// A failure that ends the command with exit code `.0`: its message is
/// already printed.
#[derive(Debug)]
pub struct Failed(pub i32);

/// Bad input or arguments: a parse error, invalid SSA, a usage error, or
/// output that could not be written.
pub const INPUT: i32 = 1;
/// A runtime error of the interpreted program (`run`).
pub const RUNTIME: i32 = 2;
/// An internal error: a pass produced invalid SSA (a bug in ssakit).
pub const INTERNAL: i32 = 3;
/// `reduce` found a pipeline that changes the program's behaviour.
pub const MISMATCH: i32 = 4;

/// The exit code of a library error of kind `kind`: [`INTERNAL`] for a
/// bug of ssakit, else [`INPUT`]. Decided by the kind, never by the
/// message's wording.
pub fn of_ir(kind: ssakit::error::ErrorKind) -> i32 {
    if kind.is_input() {
        INPUT
    } else {
        INTERNAL
    }
}

/// The exit code of a WebAssembly error of kind `kind`, as [`of_ir`].
pub fn of_wasm(kind: ssakit_wasm::error::ErrorKind) -> i32 {
    if kind.is_internal() {
        INTERNAL
    } else {
        INPUT
    }
}

/// The exit code of an x86-64 error of kind `kind`: [`INPUT`] for every
/// kind, none being a bug of ssakit (a failure after lifting is a
/// pipeline failure, reported by `x86 stats` with [`INTERNAL`]). The
/// match names each kind, so that a new one is decided here.
pub fn of_x86(kind: ssakit_x86::error::ErrorKind) -> i32 {
    use ssakit_x86::error::ErrorKind as K;
    match kind {
        K::NotElf
        | K::Unsupported(_)
        | K::Malformed(_)
        | K::OtherBuild
        | K::NoFunctions
        | K::NoSuchFunction
        | K::Ambiguous => INPUT,
    }
}

/// The end of every subcommand's `--help`.
pub const HELP: &str = "\
Exit codes:
  0  success
  1  bad input or arguments (parse error, invalid SSA, usage error, output not written)
  2  runtime error of `run`
  3  internal error (a pass produced invalid SSA)
  4  `reduce` found a mismatch";

#[cfg(test)]
mod tests {
    use super::*;
    use ssakit::error::ErrorKind;
    use ssakit_wasm::error::ErrorKind as WasmKind;

    /// Each kind decides its exit code: only a bug of ssakit exits with 3.
    #[test]
    fn the_kind_decides_the_exit_code() {
        use ErrorKind as K;
        let ir = [
            K::Input,
            K::NotSsa,
            K::NotConventional,
            K::ConstantConflict,
            K::Options,
            K::Internal,
        ];
        assert_eq!(ir.map(of_ir), [INPUT, INPUT, INPUT, INPUT, INPUT, INTERNAL]);
        let wasm = [
            WasmKind::Input,
            WasmKind::Unsupported,
            WasmKind::Options,
            WasmKind::Internal,
        ];
        assert_eq!(wasm.map(of_wasm), [INPUT, INPUT, INPUT, INTERNAL]);
        use ssakit_x86::error::{ErrorKind as X86Kind, Field};
        let x86 = [
            X86Kind::NotElf,
            X86Kind::Unsupported(Field::Machine),
            X86Kind::Malformed(Field::SectionLink),
            X86Kind::OtherBuild,
            X86Kind::NoFunctions,
            X86Kind::NoSuchFunction,
            X86Kind::Ambiguous,
        ];
        assert_eq!(x86.map(of_x86), [INPUT; 7]);
    }
}
