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
//! All names live in one string (no allocation per name). Where no
//! original's name ends with a digit, every plain name (`x1`) is free and
//! nothing is looked up. Otherwise the plain names without `_` are decided
//! by [`PlainKeys`], a bit per (stem, number), and the table of names
//! taken ([`crate::intern::NameSet`], four bytes a slot, variables
//! compared by their names in that string) holds only the names with `_`:
//! the fallbacks, and plain names of originals named with `_`. The table
//! of every name, the scheme's definition, remains for what the keys
//! cannot number (more than [`MAX_DIGITS`] digits, ranges past their
//! budget); the tests check every way gives its names.
//!
//! The printer needs no string of every name ([`PrintNames`], issue 44):
//! for a large function the same choice keeps only the names that are
//! not plain (the fallbacks, a few in a hundred where they occur) with a
//! bit per variable, and writes the plain ones from the function as it
//! prints them; the table compares and hashes a plain name from its
//! parts. A small function keeps every name: copying one is cheaper than
//! writing its number again at each use.

use super::{Function, Var};
use crate::decimal::{digits_u32, push_u64};
use crate::entity::EntityVec;
use crate::intern::{hash_name, hash_step, NameSet, NameTable};
use std::num::NonZeroU32;

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
/// (entered first) and the versions' written so far; with [`PlainKeys`],
/// only those containing `_`.
struct Taken {
    table: NameSet<Var>,
}

impl Taken {
    fn contains<S: Store>(&self, func: &Function, names: &S, cand: &str) -> bool {
        is_reserved(cand)
            || self
                .table
                .find(hash_name(cand), |v| names.is_named(func, v, cand))
                .is_some()
    }
}

/// Whether `cand` is version `version`'s plain name on `base`.
fn is_plain(base: &str, version: u32, cand: &str) -> bool {
    let (buf, at) = digits_u32(version);
    cand.len() == base.len() + (buf.len() - at)
        && cand.as_bytes()[..base.len()] == *base.as_bytes()
        && cand.as_bytes()[base.len()..] == buf[at..]
}

/// The [`hash_name`] of version `version`'s plain name on `base`.
fn plain_hash(base: &str, version: u32) -> u32 {
    let (buf, at) = digits_u32(version);
    buf[at..]
        .iter()
        .fold(hash_name(base), |h, &b| hash_step(h, b))
}

/// Where [`choose`] writes the names it decides: every name
/// ([`VarNames`]), or only those that are not plain ([`PrintNames`]).
trait Store {
    /// Records the name of `v`, taken in variable order: its plain name,
    /// `name` (its original's name) and its `version` number if a version.
    fn plain(&mut self, v: Var, name: &str, version: Option<u32>);
    /// Records the name of `v`, in variable order: `name`, a version's
    /// name that is not its plain name.
    fn other(&mut self, v: Var, name: &str);
    /// Whether recorded variable `v` is named `cand`.
    fn is_named(&self, func: &Function, v: Var, cand: &str) -> bool;
    /// The [`hash_name`] of recorded variable `v`'s name.
    fn hash_of(&self, func: &Function, v: Var) -> u32;
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

/// `ONES[l]` is `(10^l - 1) / 9`, the number of digit strings shorter
/// than `l` digits: a string of `l` digits with value `x` is the
/// `ONES[l] + x`-th digit string in order of length, then value.
const ONES: [u64; MAX_DIGITS + 1] = {
    let mut ones = [0u64; MAX_DIGITS + 1];
    let mut l = 1;
    while l <= MAX_DIGITS {
        ones[l] = ones[l - 1] * 10 + 1;
        l += 1;
    }
    ones
};

/// The longest run of trailing digits a key holds: `ONES[19]` plus a
/// value below `10^19` stays below `2^64`.
const MAX_DIGITS: usize = 19;

/// The bits of [`PlainKeys`] allowed per version, beyond a fixed 2^16:
/// a byte a version, an eighth of the table of every name's four bytes a
/// slot at two slots a variable.
const BITS_PER_VERSION: u64 = 8;

/// Which plain names without `_` are taken, without a table of names.
///
/// Every fallback name (`x_1`, `x_1_2`) contains `_`, and the reserved
/// words end with no digit. So a version whose plain name `P` (its
/// original's name and its number) has no `_` finds `P` taken exactly
/// when an original is named `P` or an earlier version, in variable
/// order, has the plain name `P` (the first such version got it). A name
/// ending with digits splits into its *stem* and the run of digits at its
/// end; `P` is the stem of its original's name and that name's digits
/// followed by the number's. Numbering each stem's digit strings in order
/// of length, then value (`0`...`9`, `00`...`99`, ...: [`ONES`]), a plain
/// name is a stem and a number, and one bit a (stem, number) in each
/// stem's range of numbers tells whether the name is taken: the originals'
/// bits are set first, each version sets its own. Versions of one
/// original come with increasing numbers, so the bits are visited in a
/// few streams, not at random.
///
/// Worked example: originals `v1`, `v12`; version 3 of `v12` is `v123`
/// (stem `v`, digits `123`: number 111 + 123); version 23 of `v1` is also
/// `v123`, the same bit, taken: it falls back to `v1_23`.
struct PlainKeys {
    /// For an original variable's index, its entry in `originals` plus
    /// one; `None` for a name with `_` (and past the last original).
    of_original: Vec<Option<NonZeroU32>>,
    /// The originals without `_` in their names.
    originals: Vec<OriginalKey>,
    /// Each stem's range of numbers and its bits' place.
    stems: Vec<StemRange>,
    /// A bit per (stem, number) of the ranges: the name is taken.
    taken: Vec<u64>,
}

/// An original's name as a stem and the digits after it.
#[derive(Clone, Copy)]
struct OriginalKey {
    /// Index into [`PlainKeys::stems`].
    stem: u32,
    /// How many digits end the name (more than [`MAX_DIGITS`] possible).
    digits: usize,
    /// Their value, when `digits` is at most [`MAX_DIGITS`].
    value: u64,
}

/// The numbers a stem's plain names take, from `min` to `max` (an
/// empty range when `min > max`), and the index of `min`'s bit.
#[derive(Clone, Copy)]
struct StemRange {
    min: u64,
    max: u64,
    first_bit: u64,
}

/// The number of decimal digits of `n`.
fn decimal_digits(n: u32) -> usize {
    n.checked_ilog10().map_or(1, |l| l as usize + 1)
}

impl PlainKeys {
    /// The keys of `func`'s originals and versions, or `None` when a
    /// plain name's digits are more than [`MAX_DIGITS`] or the ranges'
    /// bits are more than the budget ([`BITS_PER_VERSION`]).
    fn new(func: &Function) -> Option<PlainKeys> {
        let last = func.vars().rfind(|&v| func.var(v).origin().is_none())?;
        let mut keys = PlainKeys {
            of_original: vec![None; last.index() + 1],
            originals: Vec::new(),
            stems: Vec::new(),
            taken: Vec::new(),
        };
        // Stems by name, each to the first original with that stem.
        let mut stems: NameTable<Var> = NameTable::new();
        let stem_of = |v: Var| {
            let name = func.base_name(v);
            name.trim_end_matches(|c: char| c.is_ascii_digit())
        };
        let mut versions = 0u64;
        for v in func.vars() {
            if func.var(v).origin().is_some() {
                versions += 1;
                continue;
            }
            let name = func.base_name(v);
            if name.contains('_') {
                continue;
            }
            let stem = stem_of(v);
            let digits = &name[stem.len()..];
            let h = hash_name(stem);
            let stem = match stems.find(h, |o| stem_of(o) == stem) {
                Some(o) => keys.original(o).stem,
                None => {
                    stems.insert(h, v);
                    keys.stems.push(StemRange {
                        min: u64::MAX,
                        max: 0,
                        first_bit: 0,
                    });
                    (keys.stems.len() - 1) as u32
                }
            };
            let value = match digits.len() {
                0..=MAX_DIGITS => digits.parse().unwrap_or(0),
                _ => 0,
            };
            keys.originals.push(OriginalKey {
                stem,
                digits: digits.len(),
                value,
            });
            keys.of_original[v.index()] = NonZeroU32::new(keys.originals.len() as u32);
        }
        // Each stem's range, from its versions.
        for v in func.vars() {
            let d = func.var(v);
            if let Some(o) = d.origin() {
                if keys.of_original[o.index()].is_none() {
                    continue;
                }
                let (stem, number) = keys.key(o, d.version())?;
                let r = &mut keys.stems[stem];
                r.min = r.min.min(number);
                r.max = r.max.max(number);
            }
        }
        let mut bits = 0u64;
        for r in &mut keys.stems {
            r.first_bit = bits;
            if r.min <= r.max {
                bits += r.max - r.min + 1;
            }
        }
        if bits > (1 << 16) + BITS_PER_VERSION * versions {
            return None;
        }
        keys.taken = vec![0; bits.div_ceil(64) as usize];
        // The originals' names are taken first.
        for k in 0..keys.originals.len() {
            let o = keys.originals[k];
            if (1..=MAX_DIGITS).contains(&o.digits) {
                let number = ONES[o.digits] + o.value;
                keys.test_and_set(o.stem as usize, number);
            }
        }
        Some(keys)
    }

    fn original(&self, o: Var) -> OriginalKey {
        let k = self.of_original[o.index()].expect("an original without `_`");
        self.originals[k.get() as usize - 1]
    }

    /// The stem and number of version `number` of original `o` (whose
    /// name has no `_`), or `None` when its digits are too many.
    #[inline]
    fn key(&self, o: Var, number: u32) -> Option<(usize, u64)> {
        let k = self.original(o);
        let len = decimal_digits(number);
        let digits = k.digits + len;
        if digits > MAX_DIGITS {
            return None;
        }
        let value = k.value * 10u64.pow(len as u32) + u64::from(number);
        Some((k.stem as usize, ONES[digits] + value))
    }

    /// Sets the bit of (`stem`, `number`), in the stem's range; whether it
    /// was set.
    #[inline]
    fn test_and_set(&mut self, stem: usize, number: u64) -> bool {
        let r = self.stems[stem];
        if !(r.min..=r.max).contains(&number) {
            return false;
        }
        let bit = r.first_bit + (number - r.min);
        let (word, mask) = ((bit / 64) as usize, 1u64 << (bit % 64));
        let was = self.taken[word] & mask != 0;
        self.taken[word] |= mask;
        was
    }

    /// Whether version `number` of original `o` (the versions asked in
    /// variable order) gets its plain name, claiming it if so; `None` when
    /// `o`'s name has `_`, for the table to decide.
    #[inline]
    fn claim(&mut self, o: Var, number: u32) -> Option<bool> {
        self.of_original.get(o.index()).copied().flatten()?;
        let (stem, number) = self.key(o, number).expect("checked in PlainKeys::new");
        Some(!self.test_and_set(stem, number))
    }
}

/// How [`VarNames::choose`] tells whether a version's plain name is taken.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Way {
    /// The cheapest way that applies: no table where the plain names are
    /// free, else [`PlainKeys`] within their budget, else the table.
    Cheapest,
    /// [`PlainKeys`] within their budget (else the table), even where the
    /// plain names are free.
    #[cfg(test)]
    Keys,
    /// The table of every name taken: the definition the others follow.
    Table,
}

/// What decides, for each version in turn, whether its plain name is free.
enum Decider {
    /// Every plain name is free ([`plain_names_are_free`], no two
    /// originals alike).
    Plain,
    /// [`PlainKeys`] for the plain names without `_`; a table of the names
    /// with `_` for the rest and for every fallback.
    Keys(PlainKeys),
    /// A table of every name taken.
    Table,
}

/// Whether two original variables share a name.
fn duplicate_originals(func: &Function) -> bool {
    let mut table = NameSet::with_capacity(16);
    let mut dups = false;
    for v in func.vars().filter(|&v| func.var(v).origin().is_none()) {
        let name = func.base_name(v);
        let h = hash_name(name);
        dups |= table.find(h, |o| func.base_name(o) == name).is_some();
        table.insert(h, v, |o| hash_name(func.base_name(o)));
    }
    dups
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
        Self::choose(func, Way::Cheapest)
    }

    /// [`VarNames::new`], deciding the plain names the `way` asked for
    /// (the tests compare the ways).
    fn choose(func: &Function, way: Way) -> VarNames {
        let n = func.num_vars();
        let mut names = VarNames {
            text: String::with_capacity(8 * n),
            ends: EntityVec::with_capacity(n),
        };
        choose(func, way, &mut names);
        names
    }
}

impl VarNames {
    /// Ends the name just written.
    fn end(&mut self) {
        let end = u32::try_from(self.text.len()).expect("printed names beyond 4 GiB");
        self.ends.push(end);
    }
}

impl Store for VarNames {
    #[inline]
    fn plain(&mut self, _: Var, name: &str, version: Option<u32>) {
        self.text.push_str(name);
        if let Some(version) = version {
            push_u64(&mut self.text, version.into());
        }
        self.end();
    }

    #[inline]
    fn other(&mut self, _: Var, name: &str) {
        self.text.push_str(name);
        self.end();
    }

    fn is_named(&self, func: &Function, v: Var, cand: &str) -> bool {
        if func.var(v).origin().is_none() {
            func.base_name(v) == cand
        } else {
            self.get(v) == cand
        }
    }

    fn hash_of(&self, func: &Function, v: Var) -> u32 {
        if func.var(v).origin().is_none() {
            hash_name(func.base_name(v))
        } else {
            hash_name(self.get(v))
        }
    }
}

/// Decides the printed name of each of `func`'s variables, in variable
/// order, by the `way` asked for, and records it in `names`.
fn choose<S: Store>(func: &Function, way: Way, names: &mut S) {
    let n = func.num_vars();
    let is_original = |v: Var| func.var(v).origin().is_none();
    let versions = func.vars().any(|v| !is_original(v));
    let decider = if !versions {
        // No name to choose and no table to build.
        Decider::Plain
    } else if way == Way::Cheapest && plain_names_are_free(func) && !duplicate_originals(func) {
        Decider::Plain
    } else if let Some(keys) = (way != Way::Table).then(|| PlainKeys::new(func)).flatten() {
        Decider::Keys(keys)
    } else {
        Decider::Table
    };
    // The names taken that the table answers for: the originals',
    // entered first (with `PlainKeys`, only those with `_`), then the
    // versions' as they are chosen.
    let mut taken = None;
    if !matches!(decider, Decider::Plain) {
        let in_table = |v: Var| {
            is_original(v) && (matches!(decider, Decider::Table) || func.base_name(v).contains('_'))
        };
        let mut table = NameSet::with_capacity(func.vars().filter(|&v| in_table(v)).count());
        let original_hash = |v: Var| hash_name(func.base_name(v));
        for v in func.vars().filter(|&v| in_table(v)) {
            table.insert(hash_name(func.base_name(v)), v, original_hash);
        }
        if matches!(decider, Decider::Table) {
            // One slot per variable: only originals are in the table
            // when it grows here.
            table.reserve(n, original_hash);
        }
        taken = Some(Taken { table });
    }
    let mut keys = match decider {
        Decider::Keys(keys) => Some(keys),
        _ => None,
    };
    let mut cand = String::new();
    for v in func.vars() {
        let d = *func.var(v);
        let name = func.base_name(v);
        let (Some(o), Some(taken)) = (d.origin(), &mut taken) else {
            // An original, or a version whose plain name is free.
            names.plain(v, name, d.origin().map(|_| d.version()));
            continue;
        };
        // `Some(free)` when the keys decide, without the table.
        let decided = keys.as_mut().and_then(|k| k.claim(o, d.version()));
        let free = match decided {
            Some(free) => free,
            None => {
                cand.clear();
                cand.push_str(name);
                push_u64(&mut cand, d.version().into());
                !taken.contains(func, names, &cand)
            }
        };
        if free {
            names.plain(v, name, Some(d.version()));
        } else {
            cand.clear();
            cand.push_str(name);
            cand.push('_');
            push_u64(&mut cand, d.version().into());
            let base = cand.len();
            let mut k = 2u64;
            while taken.contains(func, names, &cand) {
                cand.truncate(base);
                cand.push('_');
                push_u64(&mut cand, k);
                k += 1;
            }
            names.other(v, &cand);
        }
        // A plain name the keys gave has no `_`: no name the table is
        // asked about can be it. Otherwise `cand` holds the name.
        if decided != Some(true) {
            // With the table of every name, room for every variable was
            // reserved, so it does not grow; if it does, every entry's
            // name is hashed again.
            let h = hash_name(&cand);
            let names = &*names;
            taken.table.insert(h, v, |o| names.hash_of(func, o));
        }
    }
}

/// The printed names of a function's variables, for printing it: a
/// version whose name is its plain name (its original's name and number,
/// nearly every one) is written from the function as it is printed; only
/// the other names (the fallbacks `x_N`, ...) are kept, in one string.
/// A function of fewer than 65,536 variables keeps them all.
/// The names are [`VarNames`]'s.
///
/// Invariant: `rank[w]` counts the bits of `kept[..w]`, and the `k`-th
/// set bit's name is the `k`-th in `text`.
///
/// ```
/// use ssakit::ir::{PrintNames, VarNames};
/// let f = ssakit::text::parse_module("function f(a) {\ne:\n    b = a\n    ret b\n}").unwrap().functions.remove(0);
/// let (names, all) = (PrintNames::new(&f), VarNames::new(&f));
/// let mut out = String::new();
/// names.push(&mut out, f.var_by_name("b").unwrap());
/// assert_eq!(out, all.get(f.var_by_name("b").unwrap()));
/// ```
pub struct PrintNames<'f> {
    func: &'f Function,
    /// A bit per variable: its name is kept in `text` (not plain).
    kept: Vec<u64>,
    /// For each word of `kept`, how many bits the words before it set
    /// (while choosing, up to the word of the last name kept).
    rank: Vec<u32>,
    /// The kept names, one after the other, in variable order.
    text: String,
    /// `text[ends[k - 1]..ends[k]]` is the `k`-th kept name.
    ends: Vec<u32>,
    /// Every name, for a function of fewer than [`KEEP_ALL_BELOW`]
    /// variables (then the fields above are empty).
    all: Option<VarNames>,
}

/// The number of variables below which [`PrintNames`] keeps every name
/// ([`VarNames`]): copying a name is cheaper than writing its number
/// again at each use, and the names of such a function take at most a
/// megabyte or so (16 bytes a variable, the `ends` included).
const KEEP_ALL_BELOW: usize = 1 << 16;

impl<'f> PrintNames<'f> {
    /// Decides the printed names of `func`'s variables, keeping only the
    /// names that are not plain.
    pub fn new(func: &'f Function) -> PrintNames<'f> {
        if func.num_vars() < KEEP_ALL_BELOW {
            return PrintNames {
                func,
                kept: Vec::new(),
                rank: Vec::new(),
                text: String::new(),
                ends: Vec::new(),
                all: Some(VarNames::new(func)),
            };
        }
        Self::choose(func, Way::Cheapest)
    }

    /// [`PrintNames::new`], deciding the plain names the `way` asked for
    /// (the tests compare the ways).
    fn choose(func: &'f Function, way: Way) -> PrintNames<'f> {
        let mut names = PrintNames {
            func,
            kept: vec![0; func.num_vars().div_ceil(64)],
            rank: Vec::new(),
            text: String::new(),
            ends: Vec::new(),
            all: None,
        };
        choose(func, way, &mut names);
        names.rank.resize(names.kept.len(), names.ends.len() as u32);
        names
    }

    /// The kept name of `v`, if its name is not plain.
    #[inline]
    fn kept(&self, v: Var) -> Option<&str> {
        let (word, bit) = (v.index() / 64, v.index() % 64);
        let w = self.kept[word];
        if w & (1 << bit) == 0 {
            return None;
        }
        let k = self.rank[word] as usize + (w & ((1 << bit) - 1)).count_ones() as usize;
        let start = if k == 0 { 0 } else { self.ends[k - 1] };
        Some(&self.text[start as usize..self.ends[k] as usize])
    }

    /// Appends the printed name of `v` to `out`.
    #[inline]
    pub fn push(&self, out: &mut String, v: Var) {
        if let Some(all) = &self.all {
            out.push_str(all.get(v));
            return;
        }
        let d = self.func.var(v);
        if d.origin().is_none() {
            out.push_str(self.func.base_name(v));
        } else if let Some(name) = self.kept(v) {
            out.push_str(name);
        } else {
            out.push_str(self.func.base_name(v));
            push_u64(out, d.version().into());
        }
    }
}

/// Something that writes variables' printed names: [`VarNames`] or
/// [`PrintNames`] (the printer takes either).
pub(crate) trait PushName {
    /// Appends the printed name of `v` to `out`.
    fn push_name(&self, out: &mut String, v: Var);
}

impl PushName for VarNames {
    #[inline]
    fn push_name(&self, out: &mut String, v: Var) {
        out.push_str(self.get(v));
    }
}

impl PushName for PrintNames<'_> {
    #[inline]
    fn push_name(&self, out: &mut String, v: Var) {
        self.push(out, v);
    }
}

impl Store for PrintNames<'_> {
    #[inline]
    fn plain(&mut self, _: Var, _: &str, _: Option<u32>) {}

    fn other(&mut self, v: Var, name: &str) {
        let (word, bit) = (v.index() / 64, v.index() % 64);
        // The names kept before `v`'s word: all those kept so far, the
        // first time a name of the word is kept.
        while self.rank.len() <= word {
            self.rank.push(self.ends.len() as u32);
        }
        self.kept[word] |= 1 << bit;
        self.text.push_str(name);
        let end = u32::try_from(self.text.len()).expect("printed names beyond 4 GiB");
        self.ends.push(end);
    }

    fn is_named(&self, func: &Function, v: Var, cand: &str) -> bool {
        let d = func.var(v);
        match d.origin() {
            None => func.base_name(v) == cand,
            Some(_) => match self.kept(v) {
                Some(name) => name == cand,
                None => is_plain(func.base_name(v), d.version(), cand),
            },
        }
    }

    fn hash_of(&self, func: &Function, v: Var) -> u32 {
        let d = func.var(v);
        match d.origin() {
            None => hash_name(func.base_name(v)),
            Some(_) => match self.kept(v) {
                Some(name) => hash_name(name),
                None => plain_hash(func.base_name(v), d.version()),
            },
        }
    }
}

impl VarNames {
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
            // `PlainKeys` relies on it: no plain name (ending with a
            // digit) nor fallback (with `_`) is reserved.
            assert!(!w.ends_with(|c: char| c.is_ascii_digit()) && !w.contains('_'));
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

    /// The names of every variable in each [`Way`](super::Way): the
    /// cheapest, by [`PlainKeys`](super::PlainKeys) (or the table past
    /// their budget), and by the table of every name.
    fn every_way(f: &Function) -> [Vec<String>; 3] {
        use super::Way;
        [Way::Cheapest, Way::Keys, Way::Table].map(|way| {
            let names = VarNames::choose(f, way);
            let all: Vec<String> = f.vars().map(|v| names[v].to_string()).collect();
            // The printer's names, keeping only those that are not plain,
            // are the same.
            let printed = super::PrintNames::choose(f, way);
            for v in f.vars() {
                let mut out = String::from("<");
                printed.push(&mut out, v);
                assert_eq!(out[1..], all[v.index()], "{way:?}");
            }
            all
        })
    }

    /// The names of every variable both ways: the cheapest and by the
    /// table, after checking the keys agree with the table.
    fn both_ways(f: &Function) -> (Vec<String>, Vec<String>) {
        let [cheapest, keys, table] = every_way(f);
        assert_eq!(keys, table, "keys against the table");
        (cheapest, table)
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

    /// The module doc's worked example of [`PlainKeys`](super::PlainKeys):
    /// two originals whose versions' plain names meet.
    #[test]
    fn versions_of_v1_and_v12_meet_at_v123() {
        let mut f = Function::new("f");
        let v1 = f.new_var("v1", Type::I64);
        let v12 = f.new_var("v12", Type::I64);
        let a = f.new_version(v12, 3);
        let b = f.new_version(v1, 23);
        let c = f.new_version(v1, 2); // `v12`, an original's name
        let names = VarNames::new(&f);
        assert_eq!((&names[a], &names[b], &names[c]), ("v123", "v1_23", "v1_2"));
        let [cheapest, keys, table] = every_way(&f);
        assert_eq!((&cheapest, &keys), (&table, &table));
    }

    /// Random functions over names chosen to collide (originals ending
    /// with digits, with leading zeros, with `_`, like a fallback, like a
    /// reserved word, alike), versions in any order with any numbers, and
    /// originals made after versions: every way gives the table's names,
    /// and a version's name is no other variable's and no reserved word.
    #[test]
    fn every_way_gives_the_tables_names_on_adversarial_names() {
        const NAMES: [&str; 24] = [
            "x", "x1", "x12", "x123", "x_1", "x_1_2", "x1_2", "v0", "v00", "v007", "v", "1", "12",
            "", "_", "a_", "ret", "phi", "undef1", "i", "i32", "y", "y9", "x",
        ];
        let mut state = 0x2545_f491_4f6c_dd1du64;
        let mut next = |bound: u64| {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state % bound
        };
        let mut keyed = 0;
        for round in 0..400 {
            let mut f = Function::new("f");
            // Numbers far apart in one round in four (past the keys'
            // budget, mostly).
            let wide = next(4) == 0;
            let mut originals = Vec::new();
            for _ in 0..1 + next(6) {
                originals.push(f.new_var(NAMES[next(NAMES.len() as u64) as usize], Type::I64));
            }
            for _ in 0..next(60) {
                if next(10) == 0 {
                    let name = NAMES[next(NAMES.len() as u64) as usize];
                    originals.push(f.new_var(name, Type::I64));
                    continue;
                }
                let o = originals[next(originals.len() as u64) as usize];
                let number = match next(8) {
                    0 => [0, 10, 100, 1000, 1001, 9999][next(6) as usize],
                    1 if wide => [99_999, u32::MAX][next(2) as usize],
                    2 if wide => next(u32::MAX as u64) as u32,
                    _ => next(30) as u32,
                };
                f.new_version(o, number);
            }
            let [cheapest, keys, table] = every_way(&f);
            assert_eq!(keys, table, "round {round}");
            assert_eq!(cheapest, table, "round {round}");
            keyed += usize::from(super::PlainKeys::new(&f).is_some());
            let mut seen = std::collections::HashMap::new();
            for v in f.vars() {
                let name = table[v.index()].as_str();
                if f.var(v).origin().is_some() {
                    assert!(!is_reserved(name), "{name}");
                    assert!(
                        seen.insert(name, v).is_none(),
                        "round {round}: {name} twice"
                    );
                }
            }
            for v in f.vars().filter(|&v| f.var(v).origin().is_none()) {
                let name = table[v.index()].as_str();
                assert!(
                    seen.get(name).is_none_or(|&w| f.var(w).origin().is_none()),
                    "{name}"
                );
                seen.insert(name, v);
            }
        }
        assert!(keyed > 150, "{keyed}");
    }

    /// Past the budget of bits (numbers far apart) or of digits (a name
    /// ending with twenty), the keys give way to the table.
    #[test]
    fn keys_give_way_to_the_table_past_their_budget() {
        let mut f = Function::new("f");
        let x = f.new_var("x1", Type::I64);
        f.new_version(x, 1);
        f.new_version(x, u32::MAX);
        assert!(super::PlainKeys::new(&f).is_none());
        let mut g = Function::new("g");
        let y = g.new_var(&format!("y{}", "9".repeat(19)), Type::I64);
        g.new_version(y, 1);
        assert!(super::PlainKeys::new(&g).is_none());
        for f in [&f, &g] {
            let [cheapest, keys, table] = every_way(f);
            assert_eq!((&cheapest, &keys), (&table, &table));
        }
    }
}
