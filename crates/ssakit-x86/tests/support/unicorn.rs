//! The Python with Unicorn that the emulator oracles drive
//! (`ssakit-x86`'s `sem_unicorn.rs`, `ssakit-cli`'s `x86_emu.rs`), made by
//! `scripts/install-unicorn.sh` under `target/` (or
//! `SSAKIT_UNICORN_PYTHON`).

use std::path::PathBuf;
use std::process::Command;

/// The interpreter, or `None` (with a message) when it cannot import
/// unicorn; with `SSAKIT_REQUIRE_UNICORN` set that is a failure instead.
pub fn python() -> Option<PathBuf> {
    let py = std::env::var_os("SSAKIT_UNICORN_PYTHON")
        .map(PathBuf::from)
        .unwrap_or_else(|| {
            let target = std::env::var_os("CARGO_TARGET_DIR")
                .map(PathBuf::from)
                .unwrap_or_else(|| PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../target"));
            target.join("unicorn-venv/bin/python")
        });
    let works = Command::new(&py)
        .args(["-c", "import unicorn"])
        .output()
        .is_ok_and(|o| o.status.success());
    if works {
        return Some(py);
    }
    assert!(
        std::env::var_os("SSAKIT_REQUIRE_UNICORN").is_none(),
        "SSAKIT_REQUIRE_UNICORN is set but {} cannot import unicorn (scripts/install-unicorn.sh)",
        py.display()
    );
    eprintln!(
        "skipped: no unicorn at {} (run scripts/install-unicorn.sh)",
        py.display()
    );
    None
}
