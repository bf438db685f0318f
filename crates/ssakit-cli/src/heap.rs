//! The C allocator's thresholds, for commands that build and drop many
//! large tables in a row.
//!
//! glibc's `malloc` serves a request above `M_MMAP_THRESHOLD` (128 KiB at
//! first, raised as such blocks are freed, never past 32 MiB) with a
//! fresh `mmap`, and gives it back to the kernel when it is freed. A pass
//! whose tables are sized by the function (a word per variable, per block,
//! per phi operand) then pays a page fault and a zeroed page for every
//! 4 KiB it touches, again in each pass: destruction runs a dozen such
//! passes one after the other, on functions of up to millions of
//! variables. With the threshold out of reach, those tables come from the
//! heap and a freed table's pages serve the next one.
//!
//! The cost is memory kept: what the process frees stays mapped until
//! it exits. `ssakit destruct`'s peak resident memory grows by 5–20%
//! (second generator's irreducible 100k × 16 program 333 → 375 MB,
//! lifted esbuild 667 → 796 MB), and modules of small functions gain no
//! time (their tables are under the first threshold anyway). Asking for
//! it only after parsing, and only for large functions, kept the memory
//! and lost the time too (probably: the passes' tables then take pages
//! that the parse touched and freed; not verified). Other allocators, and other platforms,
//! are left alone.

/// Makes `malloc` serve every request from its heap, never from a
/// mapping of its own, and keep the heap's freed top (glibc only; nothing
/// elsewhere). Call before the work starts; harmless if called twice.
pub fn keep_freed_memory() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    // SAFETY: `mallopt` only sets two of the allocator's parameters; glibc
    // takes its own lock to do so.
    unsafe {
        libc::mallopt(libc::M_MMAP_THRESHOLD, i32::MAX);
        libc::mallopt(libc::M_TRIM_THRESHOLD, i32::MAX);
    }
}
