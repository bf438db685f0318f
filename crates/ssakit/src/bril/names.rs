//! Bril identifiers as ssakit names, and back.
//!
//! A Bril identifier may hold characters a `.ssa` name may not (`%`, and
//! in JSON anything), may start with a digit or a dot, and may be a word
//! of the `.ssa` format (`phi`, `print`, `ret`). `encode` maps it to a
//! valid `.ssa` name, injectively, by escaping with `_`:
//!
//! | Bril | ssakit |
//! |---|---|
//! | `A`-`Z` `a`-`z` `0`-`9` `.` (not first, for digits and `.`) | itself |
//! | `_` | `__` |
//! | any other character `c` (and a first digit or `.`) | `_x` + hex code of `c` + `_` |
//! | a whole name that is a `.ssa` keyword, e.g. `phi` | `_k` + the name |
//!
//! After `_` comes `_`, `x` or `k` (`k` only first), so [`decode`] reads
//! an encoded name back exactly, and two Bril names never meet. Names
//! ssakit makes itself (SSA versions `x1` or `x_1`, split blocks `A_B`)
//! may not decode;
//! the printer (`Namer`) then writes them as they are, since every
//! `.ssa` name is a Bril identifier, and makes every printed name unique in
//! its function: the Bril names of the input are claimed first, so they
//! never change, and a version `k` of `x` prints `x.k` (`x.k_2`, ... if
//! taken).

use crate::ir::RESERVED;
use rustc_hash::FxHashSet;
use std::fmt::Write;

/// The `.ssa` name standing for Bril identifier `s`.
pub(crate) fn encode(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    if RESERVED.contains(&s) {
        out.push_str("_k");
        out.push_str(s);
        return out;
    }
    for (i, c) in s.chars().enumerate() {
        match c {
            'A'..='Z' | 'a'..='z' => out.push(c),
            '0'..='9' | '.' if i > 0 => out.push(c),
            '_' => out.push_str("__"),
            _ => {
                let _ = write!(out, "_x{:x}_", c as u32);
            }
        }
    }
    if out.is_empty() {
        // The empty name (JSON only).
        out.push_str("_x_");
    }
    out
}

/// The Bril identifier `encode` made `s` from, if it did.
///
/// ```
/// use ssakit::bril::names::decode;
/// assert_eq!(decode("_kphi").as_deref(), Some("phi")); // a `.ssa` keyword, escaped
/// assert_eq!(decode("a_x25_b").as_deref(), Some("a%b"));
/// assert_eq!(decode("x_1"), None); // not made by `encode`
/// ```
pub fn decode(s: &str) -> Option<String> {
    if let Some(k) = s.strip_prefix("_k") {
        return RESERVED.contains(&k).then(|| k.to_string());
    }
    if s == "_x_" {
        return Some(String::new());
    }
    let mut out = String::with_capacity(s.len());
    let mut chars = s.chars();
    while let Some(c) = chars.next() {
        if c != '_' {
            out.push(c);
            continue;
        }
        match chars.next()? {
            '_' => out.push('_'),
            'x' => {
                let hex: String = chars.by_ref().take_while(|&c| c != '_').collect();
                out.push(char::from_u32(u32::from_str_radix(&hex, 16).ok()?)?);
            }
            _ => return None,
        }
    }
    (encode(&out) == s).then_some(out)
}

/// Unique printed names in one namespace (a function's variables, or its
/// labels, or the program's functions).
#[derive(Default)]
pub(crate) struct Namer {
    taken: FxHashSet<String>,
}

impl Namer {
    /// Claims `name`; whether it was free.
    pub(crate) fn claim(&mut self, name: &str) -> bool {
        self.taken.insert(name.to_string())
    }

    /// `want` if free, else `want_2`, `want_3`, ...; claimed.
    pub(crate) fn fresh(&mut self, want: &str) -> String {
        if self.claim(want) {
            return want.to_string();
        }
        let mut k = 2;
        loop {
            let cand = format!("{want}_{k}");
            if self.claim(&cand) {
                return cand;
            }
            k += 1;
        }
    }
}

/// The Bril name of a `.ssa` name: decoded, or as it is.
pub(crate) fn bril_name(s: &str) -> String {
    decode(s).unwrap_or_else(|| s.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn encoding_is_valid_and_reversible() {
        for s in [
            "x", "x.1", "v_2", "_", "__x", "%t", "phi", "print", "1a", ".a", "a-b", "é", "", "_k",
            "_kphi", "x_1",
        ] {
            let e = encode(s);
            let mut cs = e.chars();
            let first = cs.next().unwrap();
            assert!(first.is_ascii_alphabetic() || first == '_', "{e}");
            assert!(
                cs.all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '.'),
                "{e}"
            );
            assert!(!RESERVED.contains(&e.as_str()), "{e}");
            assert_eq!(decode(&e).as_deref(), Some(s), "{s} -> {e}");
        }
        // Distinct names stay distinct.
        assert_ne!(encode("x_1"), encode("x__1"));
        assert_ne!(encode("_kphi"), encode("phi"));
        // ssakit's own names do not decode, or decode to themselves.
        assert_eq!(decode("x_1"), None);
        assert_eq!(decode("_b0"), None);
        assert_eq!(decode("x1").as_deref(), Some("x1"));
    }

    #[test]
    fn namer_suffixes() {
        let mut n = Namer::default();
        assert!(n.claim("x"));
        assert_eq!(n.fresh("x"), "x_2");
        assert_eq!(n.fresh("x"), "x_3");
        assert_eq!(n.fresh("y"), "y");
    }
}
