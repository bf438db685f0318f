//! `-o FILE`'s temporary files removed when a termination signal (SIGTERM,
//! SIGINT, SIGHUP) ends the process, which skips every destructor: without
//! this, `kill` or Ctrl-C during `gen -o big.ssa` would leave
//! `.big.ssa.ssakit-PID.tmp` behind.
//!
//! A signal handler may only call async-signal-safe functions: no
//! allocation, no lock. So each temporary path is registered beforehand as
//! a NUL-terminated string in one of a few atomic slots ([`TempFile`]);
//! the handler takes every path out of its slot with an atomic swap,
//! `unlink`s it, then restores the signal's default action and raises the
//! signal again, so that the process ends as the signal asked (the shell
//! sees "terminated by SIGTERM", exit status 143). Whoever swaps a path out
//! first owns it: the handler (the string is then leaked, the process is
//! ending) or [`TempFile`]'s drop (which frees it). A signal that was
//! ignored when the handler would be installed (`nohup`) stays ignored.
//!
//! Unix only; elsewhere registering does nothing.

/// A registered temporary file: removed by the handler if a termination
/// signal arrives while this lives; unregistered on drop (the file itself
/// is then the owner's business: renamed or removed).
pub struct TempFile {
    #[cfg(unix)]
    slot: Option<usize>,
}

#[cfg(unix)]
mod imp {
    use std::ffi::{c_char, c_int, CString};
    use std::os::unix::ffi::OsStrExt;
    use std::path::Path;
    use std::ptr;
    use std::sync::atomic::{AtomicPtr, Ordering};
    use std::sync::Once;

    /// More `-o` outputs than a command ever has open at once.
    const SLOTS: usize = 8;

    static PATHS: [AtomicPtr<c_char>; SLOTS] = [const { AtomicPtr::new(ptr::null_mut()) }; SLOTS];

    const SIGNALS: [c_int; 3] = [libc::SIGTERM, libc::SIGINT, libc::SIGHUP];

    extern "C" fn on_signal(sig: c_int) {
        for slot in &PATHS {
            let p = slot.swap(ptr::null_mut(), Ordering::AcqRel);
            if !p.is_null() {
                // SAFETY: `p` is a NUL-terminated string leaked by
                // `register` and now owned here; unlink is
                // async-signal-safe.
                unsafe { libc::unlink(p) };
            }
        }
        // SAFETY: signal and raise are async-signal-safe; the default
        // action ends the process with this signal.
        unsafe {
            libc::signal(sig, libc::SIG_DFL);
            libc::raise(sig);
        }
    }

    /// Installs the handler for each signal not ignored, once.
    fn install() {
        static ONCE: Once = Once::new();
        ONCE.call_once(|| {
            for sig in SIGNALS {
                // SAFETY: plain sigaction calls with zeroed, then filled,
                // structures; the handler only does async-signal-safe work.
                unsafe {
                    let mut old: libc::sigaction = std::mem::zeroed();
                    if libc::sigaction(sig, ptr::null(), &mut old) != 0
                        || old.sa_sigaction == libc::SIG_IGN
                    {
                        continue;
                    }
                    let mut act: libc::sigaction = std::mem::zeroed();
                    act.sa_sigaction = on_signal as extern "C" fn(c_int) as libc::sighandler_t;
                    libc::sigemptyset(&mut act.sa_mask);
                    libc::sigaction(sig, &act, ptr::null_mut());
                }
            }
        });
    }

    /// Puts `path` in a free slot; its index, or `None` if every slot is
    /// taken or the path holds a NUL byte.
    pub(super) fn register(path: &Path) -> Option<usize> {
        install();
        let c = CString::new(path.as_os_str().as_bytes()).ok()?;
        let p = c.into_raw();
        for (k, slot) in PATHS.iter().enumerate() {
            if slot
                .compare_exchange(ptr::null_mut(), p, Ordering::AcqRel, Ordering::Acquire)
                .is_ok()
            {
                return Some(k);
            }
        }
        // SAFETY: `p` came from `into_raw` just above and was not stored.
        drop(unsafe { CString::from_raw(p) });
        None
    }

    /// Empties slot `k`, freeing its path unless the handler took it.
    pub(super) fn unregister(k: usize) {
        let p = PATHS[k].swap(ptr::null_mut(), Ordering::AcqRel);
        if !p.is_null() {
            // SAFETY: `p` came from `into_raw` in `register`, and the swap
            // made it ours alone.
            drop(unsafe { CString::from_raw(p) });
        }
    }
}

impl TempFile {
    /// Registers `path` for removal by a termination signal.
    pub fn register(path: &std::path::Path) -> TempFile {
        #[cfg(unix)]
        return TempFile {
            slot: imp::register(path),
        };
        #[cfg(not(unix))]
        {
            let _ = path;
            TempFile {}
        }
    }
}

impl Drop for TempFile {
    fn drop(&mut self) {
        #[cfg(unix)]
        if let Some(k) = self.slot.take() {
            imp::unregister(k);
        }
    }
}
