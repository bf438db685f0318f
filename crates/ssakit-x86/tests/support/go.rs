//! The Go fixture (`scripts/build-go-fixture.sh`, Debian's `golang-go`
//! installed by `scripts/install-x86-corpus.sh`), built for a test.

use std::path::{Path, PathBuf};
use std::process::Command;

/// Builds the Go fixture into `out` and reads it; `None` (and a note)
/// when `go` is not installed, which fails instead with
/// `SSAKIT_REQUIRE_GO=1`.
pub fn build(out: &Path) -> Option<Vec<u8>> {
    let have_go = Command::new("go").arg("version").output().is_ok();
    if !have_go {
        assert!(
            std::env::var_os("SSAKIT_REQUIRE_GO").is_none(),
            "SSAKIT_REQUIRE_GO is set but `go` is not installed (scripts/install-x86-corpus.sh)"
        );
        eprintln!("skipped: `go` is not installed (scripts/install-x86-corpus.sh)");
        return None;
    }
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let st = Command::new(root.join("scripts/build-go-fixture.sh"))
        .arg(out)
        .output()
        .expect("the build script runs");
    assert!(
        st.status.success(),
        "{}",
        String::from_utf8_lossy(&st.stderr)
    );
    Some(std::fs::read(out).expect("the Go fixture is built"))
}

/// A path for this process's copy of the fixture.
pub fn temp_path() -> PathBuf {
    std::env::temp_dir().join(format!("ssakit-gofixture-{}", std::process::id()))
}
