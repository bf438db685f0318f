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
//! names taken ([`crate::intern::NameSet`], four bytes a slot) holds
//! variables, compared by their names in that string.

use super::{Function, Var};
use crate::decimal::push_u64;
use crate::entity::EntityVec;
use crate::intern::{hash_name, NameSet};

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
    /// Every name, one after the other, in variable order.
    text: String,
    /// `text[ends[v - 1]..ends[v]]` is variable `v`'s name (from 0 for
    /// the first): four bytes per variable, the text's length fitting in
    /// a `u32` (checked).
    ends: EntityVec<Var, u32>,
}

/// Names taken so far, by their [`hash_name`]: the original variables'
/// (entered first) and the versions' written so far.
struct Taken {
    table: NameSet<Var>,
}

impl Taken {
    /// The printed name of `v`, taken already: an original's is its own,
    /// a version's is in `names`.
    fn name_of<'a>(func: &'a Function, names: &'a VarNames, v: Var) -> &'a str {
        if func.var(v).origin().is_none() {
            func.base_name(v)
        } else {
            names.get(v)
        }
    }

    fn contains(&self, func: &Function, names: &VarNames, cand: &str) -> bool {
        is_reserved(cand)
            || self
                .table
                .find(hash_name(cand), |v| Self::name_of(func, names, v) == cand)
                .is_some()
    }
}

/// Whether every version's plain name (its original's name and its
/// number, `x12`) is free without asking a table of names taken: no
/// original's name ends with a digit (so none is a version's plain name,
/// and a plain name splits one way into a name and a number: the longest
/// run of digits at its end), no two originals share a name, and the
/// versions of each original come in increasing numbers (so no two share
/// one; the caller checks the originals' names are distinct). The reserved words end with no digit either. This is the case
/// of every program construction renames (`x` becomes `x1`, `x2`, ...);
/// a program already holding `x1` takes the table.
fn plain_names_are_free(func: &Function) -> bool {
    let ends_with_digit = |v: Var| func.base_name(v).ends_with(|c: char| c.is_ascii_digit());
    if func
        .vars()
        .any(|v| func.var(v).origin().is_none() && ends_with_digit(v))
    {
        return false;
    }
    // The number after the last version seen of each original.
    let mut next: EntityVec<Var, u32> = EntityVec::filled(func.num_vars(), 0);
    for v in func.vars() {
        let d = func.var(v);
        if let Some(o) = d.origin() {
            if d.version() < next[o] {
                return false;
            }
            match d.version().checked_add(1) {
                Some(n) => next[o] = n,
                None => return false,
            }
        }
    }
    true
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
        Self::choose(func, true)
    }

    /// [`VarNames::new`], taking the table of names taken even where the
    /// plain names are free when `allow_plain` is false (the tests
    /// compare both ways).
    fn choose(func: &Function, allow_plain: bool) -> VarNames {
        let n = func.num_vars();
        let versions = func.vars().any(|v| func.var(v).origin().is_some());
        // The originals' names, entered first; without versions there is
        // no name to choose and no table to build.
        let mut taken = None;
        if versions {
            let mut table = NameSet::with_capacity(
                func.vars()
                    .filter(|&v| func.var(v).origin().is_none())
                    .count(),
            );
            // Only originals are in the table when it grows.
            let original_hash = |v: Var| hash_name(func.base_name(v));
            let mut dups = false;
            for v in func.vars().filter(|&v| func.var(v).origin().is_none()) {
                let name = func.base_name(v);
                let h = hash_name(name);
                dups |= table.find(h, |o| func.base_name(o) == name).is_some();
                table.insert(h, v, original_hash);
            }
            if dups || !allow_plain || !plain_names_are_free(func) {
                // The versions' names join the originals' as they are
                // chosen: one slot per variable.
                table.reserve(n, original_hash);
                taken = Some(Taken { table });
            }
        }
        let mut names = VarNames {
            text: String::with_capacity(8 * n),
            ends: EntityVec::with_capacity(n),
        };
        let mut cand = String::new();
        for v in func.vars() {
            let d = *func.var(v);
            let name = func.base_name(v);
            if d.origin().is_none() {
                names.text.push_str(name);
            } else if let Some(taken) = &mut taken {
                cand.clear();
                cand.push_str(name);
                push_u64(&mut cand, d.version().into());
                if taken.contains(func, &names, &cand) {
                    cand.truncate(name.len());
                    cand.push('_');
                    push_u64(&mut cand, d.version().into());
                    let base = cand.len();
                    let mut k = 2u64;
                    while taken.contains(func, &names, &cand) {
                        cand.truncate(base);
                        cand.push('_');
                        push_u64(&mut cand, k);
                        k += 1;
                    }
                }
                names.text.push_str(&cand);
                // Room for every variable was reserved, so the table does
                // not grow; if it did, every entry's name is written.
                taken.table.insert(hash_name(&cand), v, |o| {
                    hash_name(Taken::name_of(func, &names, o))
                });
            } else {
                names.text.push_str(name);
                push_u64(&mut names.text, d.version().into());
            }
            let end = u32::try_from(names.text.len()).expect("printed names beyond 4 GiB");
            names.ends.push(end);
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
        let start = match v.index() {
            0 => 0,
            k => self.ends[Var::new(k - 1)],
        };
        &self.text[start as usize..self.ends[v] as usize]
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

    /// The names of every variable both ways: without the table where the
    /// plain names are free, and with it.
    fn both_ways(f: &Function) -> (Vec<String>, Vec<String>) {
        let (plain, table) = (VarNames::new(f), VarNames::choose(f, false));
        let all = |n: &VarNames| f.vars().map(|v| n[v].to_string()).collect();
        (all(&plain), all(&table))
    }

    /// On generated programs (variables `v0`, `v1`, ...: the table
    /// decides) and on the same programs with their variables renamed
    /// `v_a`, `v_b`, ... (no name ends with a digit: the plain names), after
    /// construction in each flavour, both ways give the same names.
    #[test]
    fn plain_names_are_the_names_the_table_chooses() {
        use crate::construct::{construct, Flavor, Options};
        use crate::gen::{generate, GenOptions, Shape};
        let letters = |k: usize| -> String {
            let mut s = String::from("_");
            let mut k = k + 1;
            while k > 0 {
                s.push((b'a' + ((k - 1) % 26) as u8) as char);
                k = (k - 1) / 26;
            }
            s
        };
        let (mut plain_checked, mut table_checked) = (0, 0);
        for (k, shape) in [Shape::Random, Shape::Ladder, Shape::Irreducible]
            .into_iter()
            .enumerate()
        {
            for seed in 0..3 {
                let f = generate(&GenOptions {
                    shape,
                    blocks: 60,
                    vars: 30,
                    seed,
                });
                let text = crate::text::print_function(&f);
                // Every word `xN` (variables `v3`, `k0`, labels `b12`)
                // becomes `x` and letters.
                let mut renamed = String::new();
                for word in text.split_inclusive(|c: char| !c.is_alphanumeric()) {
                    let (w, sep) =
                        word.split_at(word.trim_end_matches(|c: char| !c.is_alphanumeric()).len());
                    let stem = w.trim_end_matches(|c: char| c.is_ascii_digit());
                    match w[stem.len()..].parse::<usize>() {
                        Ok(i) if !stem.is_empty() => {
                            renamed.push_str(stem);
                            renamed.push_str(&letters(i));
                        }
                        _ => renamed.push_str(w),
                    }
                    renamed.push_str(sep);
                }
                for (src, plain) in [(text, false), (renamed, true)] {
                    let mut f = crate::text::parse_module(&src).unwrap().functions.remove(0);
                    let opts = Options {
                        flavor: [Flavor::Minimal, Flavor::Pruned, Flavor::SemiPruned][k],
                        ..Options::default()
                    };
                    construct(&mut f, &opts).unwrap();
                    assert_eq!(super::plain_names_are_free(&f), plain, "{shape} {seed}");
                    let (a, b) = both_ways(&f);
                    assert_eq!(a, b, "{shape} seed {seed}");
                    *if plain {
                        &mut plain_checked
                    } else {
                        &mut table_checked
                    } += a.len();
                }
            }
        }
        assert!(plain_checked > 1000 && table_checked > 1000);
    }

    #[test]
    fn the_table_decides_when_plain_names_could_collide() {
        let mut f = Function::new("f");
        let x = f.new_var("x", Type::I64);
        let x2 = f.new_var("x", Type::I64); // a second original named `x`
        let (a, b) = (f.new_version(x, 1), f.new_version(x2, 1));
        let names = VarNames::new(&f);
        assert_eq!((&names[a], &names[b]), ("x1", "x_1"));
        let mut g = Function::new("g");
        let y = g.new_var("y", Type::I64);
        let (c, d) = (g.new_version(y, 2), g.new_version(y, 2)); // same number
        let e = g.new_version(y, 1); // numbers not increasing
        assert!(!super::plain_names_are_free(&g));
        let names = VarNames::new(&g);
        assert_eq!((&names[c], &names[d], &names[e]), ("y2", "y_2", "y1"));
        for f in [&f, &g] {
            let (plain, table) = both_ways(f);
            assert_eq!(plain, table);
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
