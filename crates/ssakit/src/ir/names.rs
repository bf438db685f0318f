//! Printed names of variables.
//!
//! An original variable prints as its name. An SSA version prints like the
//! chapter's figures: the original name followed by the version number
//! (`x1`, `x2`, ...). When that would collide with another variable's printed
//! name (a program that already has a variable `x1`, or versions `x1` of `x`
//! and `1` of a variable named `x1`... ), the version is written
//! `name_N`, then `name_N_2`, `name_N_3`, ... until the name is unused.
//! Original names are claimed first, then versions in variable order, so the
//! scheme is deterministic and never renames an original variable. The
//! words of the text format ([`RESERVED`]: `phi`, `ret`, ...) count as
//! taken, so that every printed name parses back (type names are not
//! reserved: a version `i32` of a variable `i` prints `i32`).

//!
//! All names live in one string (no allocation per name); the table of
//! names taken ([`crate::intern::NameTable`]) holds variables, compared
//! by their names in that string.

use super::{Function, Var};
use crate::decimal::push_u64;
use crate::entity::EntityVec;
use crate::intern::{hash_name, NameTable};

/// Words that cannot name a variable, a label, a function or an operator in
/// the text format: the statement keywords.
///
/// Type names (`i64`, `i32`, `f32`, `f64`, `v128`, `funcref`,
/// `externref`, `bool`) are not among them: a type appears only after `:`
/// (a parameter, a typed definition) or `->` (a function's results), so
/// `v128 = a + 1` assigns a variable named `v128`, as generators that name
/// values `v0 ... vN` need. The one place both readings could meet, a label
/// followed on its line by a statement (`l: i32 = ...`), reads as a typed
/// definition.
pub const RESERVED: [&str; 10] = [
    "function",
    "phi",
    "print",
    "jump",
    "branch",
    "switch",
    "ret",
    "undef",
    "unreachable",
    "operator",
];

/// For each first byte, the lengths (bit `min(len, 31)`) of the reserved
/// words that start with it: most names are rejected by one load.
const RESERVED_FILTER: [u32; 256] = {
    let mut m = [0u32; 256];
    let mut i = 0;
    while i < RESERVED.len() {
        let w = RESERVED[i].as_bytes();
        let len = if w.len() < 31 { w.len() } else { 31 };
        m[w[0] as usize] |= 1 << len;
        i += 1;
    }
    m
};

/// Whether `s` is one of the [`RESERVED`] words.
///
/// ```
/// use ssakit::ir::{is_reserved, RESERVED};
/// assert!(is_reserved("phi") && is_reserved("ret"));
/// assert!(!is_reserved("phis") && !is_reserved("i64")); // types are contextual
/// assert!(RESERVED.iter().all(|w| is_reserved(w)));
/// ```
#[inline]
pub fn is_reserved(s: &str) -> bool {
    let b = s.as_bytes();
    match b.first() {
        None => false,
        Some(&c) => {
            RESERVED_FILTER[c as usize] & (1 << b.len().min(31)) != 0 && RESERVED.contains(&s)
        }
    }
}

/// The printed name of every variable of a function, collision-free.
///
/// ```
/// use ssakit::construct::{construct, Options};
/// use ssakit::ir::VarNames;
/// let src = "function f(c) {\ne:\n    x = 1\n    branch c, a, j\na:\n    x = 2\n    jump j\nj:\n    ret x\n}";
/// let mut f = ssakit::text::parse_module(src).unwrap().functions.remove(0);
/// construct(&mut f, &Options::default()).unwrap();
/// // The SSA versions of `x` print as distinct names built on `x`.
/// let names = VarNames::new(&f);
/// let mut xs: Vec<&str> = f.vars().filter(|&v| f.base_name(v) == "x").map(|v| names.get(v)).collect();
/// assert!(xs.iter().all(|n| n.starts_with('x')));
/// let all = xs.len();
/// xs.sort();
/// xs.dedup();
/// assert_eq!(xs.len(), all);
/// ```
#[derive(Clone, Debug)]
pub struct VarNames {
    /// Every name, one after the other.
    text: String,
    /// `text[span.0..span.1]` is the variable's name.
    spans: EntityVec<Var, (usize, usize)>,
}

/// Names taken so far, by their [`hash_name`].
struct Taken {
    table: NameTable<Var>,
}

impl Taken {
    fn contains(&self, names: &VarNames, cand: &str) -> bool {
        is_reserved(cand)
            || self
                .table
                .find(hash_name(cand), |v| names.get(v) == cand)
                .is_some()
    }

    fn insert(&mut self, names: &VarNames, v: Var) {
        self.table.insert(hash_name(names.get(v)), v);
    }
}

impl VarNames {
    /// Computes the printed names of `func`'s variables.
    ///
    /// ```
    /// use ssakit::ir::VarNames;
    /// let f = ssakit::text::parse_module("function f(a) {\ne:\n    ret a\n}").unwrap().functions.remove(0);
    /// let names = VarNames::new(&f);
    /// assert_eq!(names.get(f.params()[0]), "a"); // an unversioned name prints as written
    /// ```
    pub fn new(func: &Function) -> VarNames {
        let n = func.num_vars();
        let mut names = VarNames {
            text: String::with_capacity(8 * n),
            spans: EntityVec::with_capacity(n),
        };
        let mut versions = false;
        for v in func.vars() {
            let start = names.text.len();
            if func.var(v).origin().is_none() {
                names.text.push_str(func.base_name(v));
            } else {
                versions = true;
            }
            names.spans.push((start, names.text.len()));
        }
        // Original names print as they are: without versions there is no
        // name to choose, and no table of names taken to build.
        if !versions {
            return names;
        }
        let mut taken = Taken {
            table: NameTable::with_capacity(n),
        };
        for v in func.vars() {
            if func.var(v).origin().is_none() {
                taken.insert(&names, v);
            }
        }
        let mut cand = String::new();
        for v in func.vars() {
            let d = *func.var(v);
            if d.origin().is_none() {
                continue;
            }
            let name = func.base_name(v);
            cand.clear();
            cand.push_str(name);
            push_u64(&mut cand, d.version().into());
            if taken.contains(&names, &cand) {
                cand.truncate(name.len());
                cand.push('_');
                push_u64(&mut cand, d.version().into());
                let base = cand.len();
                let mut k = 2u64;
                while taken.contains(&names, &cand) {
                    cand.truncate(base);
                    cand.push('_');
                    push_u64(&mut cand, k);
                    k += 1;
                }
            }
            let start = names.text.len();
            names.text.push_str(&cand);
            names.spans[v] = (start, names.text.len());
            taken.insert(&names, v);
        }
        names
    }

    /// The printed name of `v`.
    ///
    /// ```
    /// use ssakit::ir::VarNames;
    /// let f = ssakit::text::parse_module("function f(a) {\ne:\n    b = a\n    ret b\n}").unwrap().functions.remove(0);
    /// let names = VarNames::new(&f);
    /// let b = f.var_by_name("b").unwrap();
    /// assert_eq!(names.get(b), "b");
    /// ```
    pub fn get(&self, v: Var) -> &str {
        let (a, b) = self.spans[v];
        &self.text[a..b]
    }
}

impl std::ops::Index<Var> for VarNames {
    type Output = str;
    fn index(&self, v: Var) -> &str {
        self.get(v)
    }
}

#[cfg(test)]
mod tests {
    use super::{is_reserved, VarNames, RESERVED};
    use crate::ir::{Function, Type};

    #[test]
    fn is_reserved_is_membership_in_reserved() {
        for w in RESERVED {
            assert!(is_reserved(w), "{w}");
            // Every prefix, extension and near miss of a reserved word.
            for k in 0..w.len() {
                assert_eq!(is_reserved(&w[..k]), RESERVED.contains(&&w[..k]));
            }
            for near in [
                format!("{w}x"),
                format!("x{w}"),
                format!("{w}.1"),
                w.to_uppercase(),
            ] {
                assert_eq!(
                    is_reserved(&near),
                    RESERVED.contains(&near.as_str()),
                    "{near}"
                );
            }
        }
        for name in [
            "",
            "v0",
            "i",
            "i8",
            "i65",
            "f",
            "phi1",
            "v12",
            "_",
            "a.b",
            &"x".repeat(40),
        ] {
            assert!(!is_reserved(name), "{name}");
        }
    }

    #[test]
    fn versions_skip_every_taken_name() {
        let mut f = Function::new("f");
        let x = f.new_var("x", Type::I64);
        let x1 = f.new_var("x1", Type::I64);
        for taken in ["x_1", "x_1_2"] {
            f.new_var(taken, Type::I64);
        }
        let a = f.new_version(x, 1);
        let b = f.new_version(x, 2);
        let c = f.new_version(x1, 1);
        let d = f.new_version(x, 1);
        let i = f.new_var("i", Type::I64);
        let i32 = f.new_version(i, 32);
        let names = VarNames::new(&f);
        assert_eq!(&names[x], "x");
        assert_eq!(&names[x1], "x1");
        assert_eq!(&names[a], "x_1_3");
        assert_eq!(&names[b], "x2");
        assert_eq!(&names[c], "x11");
        assert_eq!(&names[d], "x_1_4", "a second version 1 still gets a name");
        assert_eq!(&names[i32], "i32", "a type name is a variable name too");
    }
}
