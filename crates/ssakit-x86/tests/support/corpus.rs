//! The binaries a test runs on: this machine's defaults (`/usr/bin/ls`),
//! skipped with a message where absent, and the paths a test was given
//! (committed fixtures, an environment variable's list), which must be
//! there: a path given and absent fails the test, so that a corpus
//! installed elsewhere or misspelt cannot pass having checked nothing
//! (issue 46, item 20).

/// One binary of a corpus.
pub struct Entry {
    /// Its path.
    pub path: String,
    /// Where it was given (`SSAKIT_X86_CORPUS`, "the fixtures"), or `None`
    /// for a default of this machine.
    pub given: Option<&'static str>,
}

/// `defaults` (skipped where absent), then `required` (given by the
/// test), then the paths `$var` holds, separated by `:`.
pub fn corpus(defaults: &[&str], required: &[String], var: &'static str) -> Vec<Entry> {
    let mut v: Vec<Entry> = defaults
        .iter()
        .map(|p| Entry {
            path: p.to_string(),
            given: None,
        })
        .collect();
    v.extend(required.iter().map(|p| Entry {
        path: p.clone(),
        given: Some("the test"),
    }));
    if let Ok(extra) = std::env::var(var) {
        v.extend(extra.split(':').filter(|s| !s.is_empty()).map(|p| Entry {
            path: p.to_string(),
            given: Some(var),
        }));
    }
    v
}

/// The bytes of `e`: `None`, with a message, for a default absent here; a
/// panic for a path given and unreadable.
pub fn read(e: &Entry) -> Option<Vec<u8>> {
    match (std::fs::read(&e.path), e.given) {
        (Ok(bytes), _) => Some(bytes),
        (Err(err), None) => {
            eprintln!("skipped: {} is absent ({err})", e.path);
            None
        }
        (Err(err), Some(by)) => panic!("{by} names {}, which cannot be read: {err}", e.path),
    }
}
