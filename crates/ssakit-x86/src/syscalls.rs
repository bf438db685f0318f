//! The arguments of Linux x86-64 system calls: how many registers of
//! `rdi rsi rdx r10 r8 r9` each call number reads (the kernel's
//! `SYSCALL_DEFINEn` arities, as strace's `linux/x86_64/syscallent.h`
//! and `syscallent-common.h` list them). The signatures
//! ([`crate::signature`]) use it so that a `syscall` whose number is a
//! constant reads only its own arguments (section 13.8 of the chapter,
//! the call boundary: a call reads what its callee takes), not the six
//! registers the instruction may read.

use crate::regs::Loc;

/// The argument registers of `syscall`, in order.
pub(crate) const ARGS: [Loc; 6] = [Loc::RDI, Loc::RSI, Loc::RDX, Loc::R10, Loc::R8, Loc::R9];

/// Arities of calls 0 to 334.
const LOW: [u8; 335] = [
    3, 3, 3, 1, 2, 2, 2, 3, 3, 6, // 0
    3, 2, 1, 4, 4, 0, 3, 4, 4, 3, // 10
    3, 2, 1, 5, 0, 5, 3, 3, 3, 3, // 20
    3, 3, 1, 2, 0, 2, 2, 1, 3, 0, // 30
    4, 3, 3, 3, 6, 6, 3, 3, 2, 3, // 40
    2, 3, 3, 4, 5, 5, 5, 0, 0, 3, // 50
    1, 4, 2, 1, 3, 3, 4, 1, 2, 4, // 60
    5, 3, 3, 2, 1, 1, 2, 2, 3, 2, // 70
    1, 1, 2, 2, 1, 2, 2, 1, 2, 3, // 80
    2, 2, 3, 3, 3, 1, 2, 2, 2, 1, // 90
    1, 4, 0, 3, 0, 1, 1, 0, 0, 2, // 100
    0, 0, 0, 2, 2, 2, 2, 3, 3, 3, // 110
    3, 1, 1, 1, 1, 2, 2, 2, 4, 3, // 120
    2, 2, 2, 3, 1, 1, 2, 2, 2, 3, // 130
    2, 3, 2, 2, 3, 1, 1, 1, 2, 2, // 140
    2, 1, 0, 0, 3, 2, 1, 5, 2, 1, // 150
    2, 1, 0, 1, 2, 5, 2, 2, 1, 4, // 160
    2, 2, 1, 3, 2, 3, 2, 1, 5, 4, // 170
    3, 5, 5, 5, 3, 3, 0, 3, 5, 5, // 180
    5, 4, 4, 4, 3, 3, 3, 2, 2, 2, // 190
    2, 1, 6, 3, 3, 1, 2, 1, 5, 3, // 200
    3, 1, 3, 1, 4, 4, 5, 3, 1, 0, // 210
    4, 4, 3, 4, 2, 1, 1, 2, 2, 2, // 220
    4, 1, 4, 4, 3, 2, 5, 6, 3, 5, // 230
    4, 1, 5, 5, 2, 3, 4, 5, 5, 4, // 240
    5, 3, 2, 0, 3, 2, 4, 4, 3, 4, // 250
    5, 3, 4, 3, 4, 5, 3, 4, 3, 3, // 260
    6, 5, 1, 2, 3, 6, 4, 4, 4, 6, // 270
    4, 6, 3, 2, 1, 4, 4, 2, 4, 4, // 280
    2, 1, 3, 2, 1, 4, 4, 4, 5, 5, // 290
    2, 5, 4, 5, 3, 2, 1, 4, 2, 3, // 300
    6, 6, 5, 3, 3, 4, 5, 3, 3, 2, // 310
    5, 3, 5, 1, 3, 3, 6, 6, 6, 4, // 320
    2, 1, 5, 6, 4, // 330
];

/// Arities of the calls common to every architecture, 424 to 462.
const COMMON: [u8; 39] = [
    4, 2, 6, 4, 3, 5, 2, 5, 3, 3, // 424 pidfd_send_signal .. fspick
    2, 2, 3, 4, 3, 4, 5, 6, 5, 4, // 434 pidfd_open .. quotactl_fd
    3, 4, 2, 1, 2, 5, 4, 4, 4, 3, // 444 landlock_create_ruleset .. map_shadow_stack
    4, 6, 4, 4, 4, 4, 4, 3, 3, // 454 futex_wake .. mseal
];

/// The calls whose operation argument decides how many of the others
/// they read (`ioctl`, `clone`, `fcntl`, `ptrace`, `prctl`,
/// `arch_prctl`, `futex`, `keyctl`, `bpf`): for these the arity is only
/// a bound.
const BY_OPERATION: [i64; 9] = [16, 56, 72, 101, 157, 158, 202, 250, 321];

/// Whether call number `nr` reads a number of arguments its operation
/// decides (`futex(FUTEX_WAKE)` reads 3 of its 6).
pub(crate) fn by_operation(nr: i64) -> bool {
    BY_OPERATION.contains(&nr)
}

/// How many argument registers ([`ARGS`]) call number `nr` reads
/// (`syncfs`, 306: 1); `None` for a number no kernel defines.
pub(crate) fn arg_count(nr: i64) -> Option<usize> {
    let n = usize::try_from(nr).ok()?;
    let a = match n {
        0..=334 => LOW[n],
        424..=462 => COMMON[n - 424],
        _ => return None,
    };
    Some(usize::from(a))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn arities_of_known_calls() {
        assert_eq!(arg_count(0), Some(3)); // read
        assert_eq!(arg_count(9), Some(6)); // mmap
        assert_eq!(arg_count(39), Some(0)); // getpid
        assert_eq!(arg_count(202), Some(6)); // futex
        assert_eq!(arg_count(231), Some(1)); // exit_group
        assert_eq!(arg_count(257), Some(4)); // openat
        assert_eq!(arg_count(306), Some(1)); // syncfs
        assert_eq!(arg_count(334), Some(4)); // rseq
        assert_eq!(arg_count(435), Some(2)); // clone3
        assert_eq!(arg_count(436), Some(3)); // close_range
        assert_eq!(arg_count(437), Some(4)); // openat2
        assert_eq!(arg_count(400), None);
        assert_eq!(arg_count(-1), None);
        assert!(by_operation(202) && !by_operation(0));
    }
}
