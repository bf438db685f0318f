//! Sequentialization of parallel copies (chapter section 13.7, "Secuencializar
//! copias paralelas"), in linear time after Algorithm 1 of Boissinot, Darte,
//! Rastello, Dupont de Dinechin and Guillon, "Revisiting Out-of-SSA
//! Translation for Correctness, Code Quality, and Efficiency" (CGO 2009).
//!
//! # Semantics
//!
//! A *parallel copy* `(d1, ..., dn) = (s1, ..., sn)` reads **every** source
//! before it writes **any** destination. Destinations are distinct (one
//! writer per location); a source is either a location ([`Src::Loc`]) or a
//! value that no write can change, such as a constant ([`Src::Val`]). A
//! location may be the source of several copies (*fan-out*) and may be both
//! a source and a destination. A self-copy `a ← a` changes nothing and is
//! dropped.
//!
//! Sequentializing means finding a sequence of ordinary moves with the same
//! effect on every location: each destination ends with the value its
//! source had before, and every other location (except a temporary the
//! caller gave us) keeps its value.
//!
//! # The transfer graph, and why only simple cycles occur
//!
//! Draw one node per location and an edge `a → b` for each copy `b ← a`
//! (the chapter's picture). Since destinations are distinct, every node has
//! **at most one incoming edge**. A graph where every node has in-degree at
//! most one is a set of components, each either a tree (edges pointing away
//! from its root) or a single *simple* cycle with trees hanging off its
//! nodes. There is never a more complex strongly connected component, so
//! the moment a cycle is found it is a whole cycle. We call a cycle
//! *closed* when none of its nodes feeds a tree, and *open* otherwise.
//!
//! ```text
//!   c ← a,  a ← b,  b ← a,  d ← c
//!
//!   a ⇄ b        the cycle a → b → a is open: a also feeds
//!   ↓            the tree a → c → d hanging off it
//!   c → d
//! ```
//!
//! # Two ways of breaking cycles
//!
//! * **Temporary** ([`Sequentializer::with_temp`]): the caller supplies a
//!   spare location per closed cycle (a closure, so it can hand out one
//!   scratch register every time or create a fresh variable each time). The
//!   result has exactly `T + C` copies, where `T` is the number of
//!   non-self transfers and `C` the number of *closed* cycles. This is
//!   minimal: every non-self destination must be written once, and in a
//!   closed cycle the first write destroys a value that exists nowhere else
//!   unless one extra copy saved it. An open cycle needs no temporary: once
//!   one of its values has been copied into the tree hanging off it, that
//!   copy serves as the saved value (Boissinot's `loc` trick). The
//!   chapter's algorithm spends one temporary on *every* cycle, so `T + C`
//!   here is at most its "cycles plus non-self edges", with equality when no
//!   cycle feeds a tree.
//! * **Swaps** ([`Sequentializer::with_swaps`]): no spare location; trees
//!   are emitted as copies (reading each source in place, before it is
//!   overwritten) and then each cycle of length `k` as `k − 1` swaps, open
//!   or closed. Result: `T − Σ len(cycle)` copies and `Σ (len(cycle) − 1)`
//!   swaps.
//!
//! Copies from [`Src::Val`] sources never take part in a cycle (nothing can
//! overwrite a constant) and are emitted last, as [`Move::Set`], after every
//! location has been read.
//!
//! # Locations and cost
//!
//! Locations are any [`Location`]: a copyable type with a dense index (every
//! [`EntityRef`] such as [`Var`](crate::ir::Var), and the unsigned
//! integers). A [`Sequentializer`] keeps scratch tables indexed by that
//! index, grown on demand and reset after each call by visiting only the
//! entries it touched, so a call on `n` copies costs `O(n)` amortised and no
//! hashing or sorting is ever done. The one-shot functions
//! `sequentialize_with_temp` and `sequentialize_with_swaps` build a
//! fresh `Sequentializer` and so also pay `O(largest index)` once.

use crate::entity::EntityRef;
use std::fmt;

/// A storage location that a parallel copy moves values between.
///
/// `index` must be injective (distinct locations, distinct indices) and
/// should be dense: the sequentializer keeps tables of size
/// `largest index + 1`.
///
/// # Example
/// ```
/// use ssakit::destruct::parallel_copy::{Location, Move, Sequentializer, Src};
/// // Machine registers of some back end.
/// #[derive(Clone, Copy, PartialEq, Eq, Debug)]
/// struct Reg(u8);
/// impl Location for Reg {
///     fn index(self) -> usize {
///         self.0 as usize
///     }
/// }
/// let copies = [(Reg(1), Src::<Reg, i64>::Loc(Reg(0)))];
/// let mut moves = Vec::new();
/// Sequentializer::new().with_temp(&copies, |_| Reg(15), &mut moves).unwrap();
/// assert_eq!(
///     moves,
///     [Move::Copy {
///         dst: Reg(1),
///         src: Reg(0)
///     }]
/// );
/// ```
pub trait Location: Copy + Eq + fmt::Debug {
    /// This location's dense index.
    ///
    /// # Example
    ///
    /// ```
    /// use ssakit::destruct::parallel_copy::Location;
    /// // Block, Var and the other entity types are locations, as are integers;
    /// // the index is what the sequentializer's dense tables are keyed by.
    /// assert_eq!(Location::index(ssakit::ir::Var::new(3)), 3);
    /// assert_eq!(Location::index(5u8), 5);
    /// ```
    fn index(self) -> usize;
}

impl<T: EntityRef> Location for T {
    #[inline]
    fn index(self) -> usize {
        EntityRef::index(self)
    }
}

macro_rules! integer_location {
    ($($t:ty),*) => {$(
        impl Location for $t {
            #[inline]
            fn index(self) -> usize {
                self as usize
            }
        }
    )*};
}
integer_location!(u8, u16, u32, usize);

/// The source of one copy: a location, or a value no write can change.
///
/// # Example
/// ```
/// use ssakit::destruct::parallel_copy::{Move, Sequentializer, Src};
/// // (r0, r1) = (r1, 7): the constant is set after r1 is read.
/// let copies = [(0u32, Src::Loc(1)), (1, Src::Val(7i64))];
/// let mut moves = Vec::new();
/// Sequentializer::new().with_swaps(&copies, &mut moves).unwrap();
/// assert_eq!(
///     moves,
///     [Move::Copy { dst: 0, src: 1 }, Move::Set { dst: 1, val: 7 }]
/// );
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Src<L, V> {
    /// The value held by a location before the parallel copy.
    Loc(L),
    /// A value that is not in any location (a constant, `undef`).
    Val(V),
}

/// One sequential move.
///
/// # Example
/// ```
/// use ssakit::destruct::parallel_copy::{Move, Sequentializer, Src};
/// // The swap (r0, r1) = (r1, r0) without a spare register: one swap.
/// let copies: [(u32, Src<u32, i64>); 2] = [(0, Src::Loc(1)), (1, Src::Loc(0))];
/// assert_eq!(
///     { let mut out = Vec::new(); Sequentializer::new().with_swaps(&copies, &mut out).unwrap(); out },
///     [Move::Swap(0, 1)]
/// );
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Move<L, V> {
    /// `dst ← src`.
    Copy {
        /// Destination.
        dst: L,
        /// Source.
        src: L,
    },
    /// Exchange the contents of two locations (swap mode only).
    Swap(L, L),
    /// `dst ← val` for a non-location source.
    Set {
        /// Destination.
        dst: L,
        /// The value.
        val: V,
    },
}

/// Why a parallel copy cannot be sequentialized.
///
/// # Example
/// ```
/// use ssakit::destruct::parallel_copy::{ParallelCopyError, Sequentializer, Src};
/// let copies: [(u32, Src<u32, i64>); 2] = [(0, Src::Loc(1)), (0, Src::Val(3))];
/// let err = Sequentializer::new().with_swaps(&copies, &mut Vec::new()).unwrap_err();
/// assert_eq!(err, ParallelCopyError::DuplicateDestination(0));
/// assert_eq!(err.to_string(), "0 is written twice by one parallel copy");
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum ParallelCopyError<L> {
    /// The location is the destination of more than one copy, so the
    /// parallel copy has no meaning.
    DuplicateDestination(L),
}

impl<L: fmt::Debug> fmt::Display for ParallelCopyError<L> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ParallelCopyError::DuplicateDestination(l) => {
                write!(f, "{l:?} is written twice by one parallel copy")
            }
        }
    }
}

impl<L: fmt::Debug> std::error::Error for ParallelCopyError<L> {}

/// "No slot" / "no location" in the scratch tables.
const NONE: u32 = u32::MAX;

/// Reusable scratch state for sequentializing parallel copies over
/// locations of type `L`.
///
/// Every location mentioned by the current parallel copy gets a *slot*, a
/// number in `0..m`; one extra slot, number `m`, stands
/// for the temporary. Outside a call every table below is empty except
/// `slot_of`, which is all `NONE`.
///
/// # Example
///
/// ```
/// use ssakit::destruct::parallel_copy::{Move, Sequentializer, Src};
/// // One scratch state for many parallel copies.
/// let mut seq: Sequentializer<u32> = Sequentializer::new();
/// let mut out: Vec<Move<u32, i64>> = Vec::new();
/// seq.with_temp(&[(0, Src::Loc(1)), (1, Src::Loc(0))], |_| 9, &mut out).unwrap();
/// seq.with_temp(&[(2, Src::Loc(3))], |_| 9, &mut out).unwrap();
/// assert_eq!(out.len(), 4);
/// ```
#[derive(Clone, Debug)]
pub struct Sequentializer<L> {
    /// By location index: the location's slot in the current copy, or `NONE`.
    slot_of: Vec<u32>,
    /// By slot: the location (the temporary's entry is overwritten per cycle).
    locs: Vec<L>,
    /// By slot: whether some copy writes this location (duplicate check).
    written: Vec<bool>,
    /// By slot: for a destination still to be written, the slot of its
    /// source (the chapter's pending `b ← a`); `NONE` once written or if the
    /// location is not a destination of a location copy.
    pred: Vec<u32>,
    /// By slot (temporary mode): for a source `a`, the slot currently
    /// holding `a`'s original value; `NONE` for non-sources.
    loc: Vec<u32>,
    /// By slot (swap mode): how many pending copies read this location.
    readers: Vec<u32>,
    /// Destinations that may be written now: nobody still needs the value
    /// they hold.
    ready: Vec<u32>,
    /// Every destination of a location copy, in input order.
    todo: Vec<u32>,
    /// Indices (into the input) of copies from [`Src::Val`].
    sets: Vec<usize>,
}

impl<L: Location> Default for Sequentializer<L> {
    fn default() -> Self {
        Self::new()
    }
}

impl<L: Location> Sequentializer<L> {
    /// Empty scratch state.
    ///
    /// # Example
    ///
    /// ```
    /// use ssakit::destruct::parallel_copy::{Move, Sequentializer, Src};
    /// let mut seq = Sequentializer::new();
    /// let mut out = Vec::new();
    /// seq.with_swaps(&[(0u32, Src::<u32, i64>::Loc(1))], &mut out).unwrap();
    /// assert_eq!(out, [Move::Copy { dst: 0, src: 1 }]);
    /// ```
    pub fn new() -> Self {
        Sequentializer {
            slot_of: Vec::new(),
            locs: Vec::new(),
            written: Vec::new(),
            pred: Vec::new(),
            loc: Vec::new(),
            readers: Vec::new(),
            ready: Vec::new(),
            todo: Vec::new(),
            sets: Vec::new(),
        }
    }

    /// The slot of `l`, allocating one on first sight.
    fn slot(&mut self, l: L) -> u32 {
        let i = l.index();
        if i >= self.slot_of.len() {
            self.slot_of.resize(i + 1, NONE);
        }
        if self.slot_of[i] == NONE {
            self.slot_of[i] = self.locs.len() as u32;
            self.locs.push(l);
            self.written.push(false);
            self.pred.push(NONE);
        }
        self.slot_of[i]
    }

    /// The slot standing for the temporary: one past the real locations.
    fn temp_slot(&self) -> u32 {
        self.locs.len() as u32
    }

    /// Step 0, common to both modes: numbers the locations, records `pred`
    /// for every non-self location copy, lists the destinations in `todo`
    /// and the value copies in `sets`, and rejects duplicate destinations.
    fn setup<V>(&mut self, copies: &[(L, Src<L, V>)]) -> Result<(), ParallelCopyError<L>> {
        debug_assert!(self.locs.is_empty() && self.todo.is_empty());
        for (i, (dst, src)) in copies.iter().enumerate() {
            let b = self.slot(*dst);
            if self.written[b as usize] {
                return Err(ParallelCopyError::DuplicateDestination(*dst));
            }
            self.written[b as usize] = true;
            match src {
                Src::Val(_) => self.sets.push(i),
                Src::Loc(s) => {
                    let a = self.slot(*s);
                    if a != b {
                        self.pred[b as usize] = a;
                        self.todo.push(b);
                    }
                }
            }
        }
        Ok(())
    }

    /// Resets the touched scratch entries (`O(slots)`, not `O(largest index)`).
    fn clear(&mut self) {
        for l in self.locs.drain(..) {
            self.slot_of[l.index()] = NONE;
        }
        self.written.clear();
        self.pred.clear();
        self.loc.clear();
        self.readers.clear();
        self.ready.clear();
        self.todo.clear();
        self.sets.clear();
    }

    /// Appends the value copies, which go last: by then every location has
    /// been read, and no location copy writes their destinations.
    fn emit_sets<V: Copy>(&self, copies: &[(L, Src<L, V>)], out: &mut Vec<Move<L, V>>) {
        for &i in &self.sets {
            if let (dst, Src::Val(val)) = copies[i] {
                out.push(Move::Set { dst, val });
            }
        }
    }

    /// Sequentializes `copies` into `out`, breaking each closed cycle with a
    /// temporary obtained from `temp`.
    ///
    /// `temp(l)` is called once per closed cycle, with the location `l`
    /// whose value is being saved, and must return a location that appears
    /// nowhere in `copies` (it may return the same one every time: a cycle's
    /// temporary is dead before the next cycle starts). Exactly
    /// `T + C` [`Move::Copy`] are emitted (see the module doc), followed by
    /// one [`Move::Set`] per value copy; no swaps.
    ///
    /// # Errors
    /// [`ParallelCopyError::DuplicateDestination`] if two copies write one
    /// location; nothing is appended then.
    ///
    /// # Example
    ///
    /// ```
    /// use ssakit::destruct::parallel_copy::{Move, Sequentializer, Src};
    /// // A rotation of three locations: one temporary, four copies.
    /// let copies: [(u32, Src<u32, i64>); 3] = [(0, Src::Loc(1)), (1, Src::Loc(2)), (2, Src::Loc(0))];
    /// let mut out = Vec::new();
    /// let mut temps = 0;
    /// Sequentializer::new()
    ///     .with_temp(&copies, |_| { temps += 1; 9 }, &mut out)
    ///     .unwrap();
    /// assert_eq!((temps, out.len()), (1, 4));
    /// assert!(out.iter().all(|m| matches!(m, Move::Copy { .. })));
    /// ```
    pub fn with_temp<V: Copy>(
        &mut self,
        copies: &[(L, Src<L, V>)],
        mut temp: impl FnMut(L) -> L,
        out: &mut Vec<Move<L, V>>,
    ) -> Result<(), ParallelCopyError<L>> {
        if let Err(e) = self.setup(copies) {
            self.clear();
            return Err(e);
        }
        let n = self.locs.len();
        let tmp = self.temp_slot();

        // Step 1 (Algorithm 1, initialisation): every source's value is
        // where it started; a destination that is not a source may be
        // written at once.
        self.loc.resize(n, NONE);
        for &b in &self.todo {
            let a = self.pred[b as usize];
            self.loc[a as usize] = a;
        }
        for &b in &self.todo {
            if self.loc[b as usize] == NONE {
                self.ready.push(b);
            }
        }

        // Invariants of the main loop, for every pending destination `b`
        // (`pred[b] != NONE`) with source `a = pred[b]`:
        //   (I1) `loc[a]` currently holds `a`'s original value;
        //   (I2) `b` is in `ready` exactly when the value `b` holds is no
        //        longer needed: `b` is not a source, or its original value
        //        has been copied elsewhere (`loc[b] != b`);
        //   (I3) a location written by an emitted copy (other than the
        //        temporary) already holds its final value and is never
        //        written again.
        let mut next_todo = 0;
        loop {
            // Step 2: emit every ready copy. Reading from `loc[a]` rather
            // than `a` lets `a` itself be overwritten as soon as one copy of
            // its value exists. Example, `c ← a, a ← b, b ← a`: `c` is
            // ready; emitting `c ← a` sets `loc[a] = c` and frees `a`;
            // `a ← b` frees `b`; `b ← c` (not `b ← a`!) ends the cycle with
            // three copies and no temporary.
            while let Some(b) = self.ready.pop() {
                let a = self.pred[b as usize];
                let c = self.loc[a as usize];
                out.push(Move::Copy {
                    dst: self.locs[b as usize],
                    src: self.locs[c as usize],
                });
                self.pred[b as usize] = NONE;
                self.loc[a as usize] = b;
                // First time `a`'s value leaves `a`: if `a` is itself a
                // pending destination it becomes writable (I2).
                if c == a && self.pred[a as usize] != NONE {
                    self.ready.push(a);
                }
            }
            // Step 3: nothing is ready. Find a destination still pending;
            // if none, we are done.
            while next_todo < self.todo.len() && self.pred[self.todo[next_todo] as usize] == NONE {
                next_todo += 1;
            }
            let Some(&b) = self.todo.get(next_todo) else {
                break;
            };
            // Why `b` lies on a closed cycle with every value in place: by
            // (I2) with `ready` empty, every pending node is a source whose
            // value has not moved, so none of its readers was written and
            // each has a pending reader. Pending nodes thus have in-degree
            // at most 1 and out-degree at least 1 among themselves, hence
            // exactly 1 and 1: disjoint simple cycles, feeding nothing
            // that is done. Save `b` in the temporary, after which `b` is
            // free and the cycle unwinds as a chain ending with
            // `reader(b) ← temp`.
            debug_assert_eq!(self.loc[b as usize], b);
            let t = temp(self.locs[b as usize]);
            debug_assert!(
                !matches!(self.slot_of.get(t.index()), Some(&s) if s != NONE),
                "the temporary {t:?} appears in the parallel copy"
            );
            // The temporary's entry in `locs`: pushed at the first cycle,
            // replaced at the next ones.
            if self.locs.len() == n {
                self.locs.push(t);
            } else {
                self.locs[tmp as usize] = t;
            }
            out.push(Move::Copy {
                dst: t,
                src: self.locs[b as usize],
            });
            self.loc[b as usize] = tmp;
            self.ready.push(b);
        }
        self.emit_sets(copies, out);
        self.locs.truncate(n);
        self.clear();
        Ok(())
    }

    /// Sequentializes `copies` into `out` without a spare location: trees
    /// become copies and each cycle of length `k` becomes `k − 1`
    /// [`Move::Swap`]s, followed by one [`Move::Set`] per value copy.
    ///
    /// # Errors
    /// [`ParallelCopyError::DuplicateDestination`] if two copies write one
    /// location; nothing is appended then.
    ///
    /// # Example
    ///
    /// ```
    /// use ssakit::destruct::parallel_copy::{Move, Sequentializer, Src};
    /// // A tree: r2 = r1 and r1 = r0 need no swap, r1 is read first.
    /// let copies: [(u32, Src<u32, i64>); 2] = [(1, Src::Loc(0)), (2, Src::Loc(1))];
    /// let mut out = Vec::new();
    /// Sequentializer::new().with_swaps(&copies, &mut out).unwrap();
    /// assert_eq!(out, [Move::Copy { dst: 2, src: 1 }, Move::Copy { dst: 1, src: 0 }]);
    /// ```
    pub fn with_swaps<V: Copy>(
        &mut self,
        copies: &[(L, Src<L, V>)],
        out: &mut Vec<Move<L, V>>,
    ) -> Result<(), ParallelCopyError<L>> {
        if let Err(e) = self.setup(copies) {
            self.clear();
            return Err(e);
        }
        let n = self.locs.len();
        // Step 1: count the pending readers of every location; a
        // destination nobody reads is ready.
        self.readers.resize(n, 0);
        for &b in &self.todo {
            self.readers[self.pred[b as usize] as usize] += 1;
        }
        for &b in &self.todo {
            if self.readers[b as usize] == 0 {
                self.ready.push(b);
            }
        }
        // Step 2: the trees, leaves first (a topological order of the
        // transfer graph, as in Kahn's algorithm). Sources are read in
        // place: a location is written only after its last reader, so
        // cycle values never move and the cycles stay intact for step 3.
        while let Some(b) = self.ready.pop() {
            let a = self.pred[b as usize];
            out.push(Move::Copy {
                dst: self.locs[b as usize],
                src: self.locs[a as usize],
            });
            self.pred[b as usize] = NONE;
            self.readers[a as usize] -= 1;
            if self.readers[a as usize] == 0 && self.pred[a as usize] != NONE {
                self.ready.push(a);
            }
        }
        // Step 3: what is still pending has exactly one pending reader per
        // node (its tree readers are done), so it is a set of disjoint
        // simple cycles. Walk each from `start`: `swap(x, pred[x])` gives
        // `x` its final value and moves `start`'s original value one step
        // along, into `pred[x]`; the last node, whose source is `start`,
        // receives it from the last swap. Example, `a ← b, b ← c, c ← a`:
        // swap(a, b) → (B, A, C); swap(b, c) → (B, C, A). Done.
        for i in 0..self.todo.len() {
            let start = self.todo[i];
            if self.pred[start as usize] == NONE {
                continue;
            }
            let mut x = start;
            loop {
                let p = self.pred[x as usize];
                self.pred[x as usize] = NONE;
                if p == start {
                    break;
                }
                out.push(Move::Swap(self.locs[x as usize], self.locs[p as usize]));
                x = p;
            }
        }
        self.emit_sets(copies, out);
        self.clear();
        Ok(())
    }
}

/// Sequentializes `copies` with a temporary per closed cycle (see
/// [`Sequentializer::with_temp`]); for many calls, reuse a
/// [`Sequentializer`] instead.
///
/// # Example
///
/// The swap `(a, b) = (b, a)` plus `c = 5`, over plain `u32` locations,
/// with location 9 as the temporary:
///
/// ```
/// use ssakit::destruct::parallel_copy::{sequentialize_with_temp, Move, Src};
/// let copies = [(0u32, Src::Loc(1)), (1, Src::Loc(0)), (2, Src::Val(5))];
/// let moves = sequentialize_with_temp(&copies, |_| 9).unwrap();
/// assert_eq!(moves, [
///     Move::Copy { dst: 9, src: 0 },
///     Move::Copy { dst: 0, src: 1 },
///     Move::Copy { dst: 1, src: 9 },
///     Move::Set { dst: 2, val: 5 },
/// ]);
/// ```
#[cfg(test)]
pub(crate) fn sequentialize_with_temp<L: Location, V: Copy>(
    copies: &[(L, Src<L, V>)],
    temp: impl FnMut(L) -> L,
) -> Result<Vec<Move<L, V>>, ParallelCopyError<L>> {
    let mut out = Vec::with_capacity(copies.len() + 1);
    Sequentializer::new().with_temp(copies, temp, &mut out)?;
    Ok(out)
}

/// Sequentializes `copies` with swaps (see [`Sequentializer::with_swaps`]);
/// for many calls, reuse a [`Sequentializer`] instead.
///
/// # Example
///
/// ```
/// use ssakit::destruct::parallel_copy::{sequentialize_with_swaps, Move, Src};
/// // a rotation a <- b <- c <- a: two swaps
/// let copies: [(u32, Src<u32, i64>); 3] = [(0, Src::Loc(1)), (1, Src::Loc(2)), (2, Src::Loc(0))];
/// assert_eq!(sequentialize_with_swaps(&copies).unwrap(), [Move::Swap(0, 1), Move::Swap(1, 2)]);
/// ```
#[cfg(test)]
pub(crate) fn sequentialize_with_swaps<L: Location, V: Copy>(
    copies: &[(L, Src<L, V>)],
) -> Result<Vec<Move<L, V>>, ParallelCopyError<L>> {
    let mut out = Vec::with_capacity(copies.len());
    Sequentializer::new().with_swaps(copies, &mut out)?;
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    type Pc = Vec<(u32, Src<u32, i64>)>;

    fn loc(d: u32, s: u32) -> (u32, Src<u32, i64>) {
        (d, Src::Loc(s))
    }

    #[test]
    fn chain_needs_no_temp() {
        // b ← a, c ← b: write c first.
        let pc: Pc = vec![loc(1, 0), loc(2, 1)];
        let out = sequentialize_with_temp(&pc, |_| panic!("no temp needed")).unwrap();
        assert_eq!(
            out,
            vec![Move::Copy { dst: 2, src: 1 }, Move::Copy { dst: 1, src: 0 }]
        );
    }

    #[test]
    fn swap_uses_one_temp() {
        // The swap problem's parallel copy: a ← b ‖ b ← a.
        let pc: Pc = vec![loc(0, 1), loc(1, 0)];
        let out = sequentialize_with_temp(&pc, |_| 9).unwrap();
        assert_eq!(out.len(), 3);
        assert_eq!(out[0], Move::Copy { dst: 9, src: 0 });
        let out = sequentialize_with_swaps(&pc).unwrap();
        assert_eq!(out, vec![Move::Swap(0, 1)]);
    }

    #[test]
    fn open_cycle_needs_no_temp() {
        // c ← a, a ← b, b ← a (the example in `with_temp`).
        let pc: Pc = vec![loc(2, 0), loc(0, 1), loc(1, 0)];
        let out = sequentialize_with_temp(&pc, |_| panic!("no temp needed")).unwrap();
        assert_eq!(
            out,
            vec![
                Move::Copy { dst: 2, src: 0 },
                Move::Copy { dst: 0, src: 1 },
                Move::Copy { dst: 1, src: 2 },
            ]
        );
    }

    #[test]
    fn self_copies_dropped_and_values_last() {
        let pc: Pc = vec![loc(0, 0), (1, Src::Val(7)), loc(2, 1)];
        let out = sequentialize_with_temp(&pc, |_| 9).unwrap();
        assert_eq!(
            out,
            vec![Move::Copy { dst: 2, src: 1 }, Move::Set { dst: 1, val: 7 }]
        );
    }

    #[test]
    fn duplicate_destination_is_an_error() {
        let pc: Pc = vec![loc(0, 1), loc(0, 2)];
        assert_eq!(
            sequentialize_with_temp(&pc, |_| 9),
            Err(ParallelCopyError::DuplicateDestination(0))
        );
        assert_eq!(
            sequentialize_with_swaps(&pc),
            Err(ParallelCopyError::DuplicateDestination(0))
        );
        // The scratch state is clean after an error.
        let mut s = Sequentializer::new();
        let mut out = Vec::new();
        assert!(s.with_temp(&pc, |_| 9, &mut out).is_err());
        s.with_temp(&[loc(0, 1), loc(1, 0)], |_| 9, &mut out)
            .unwrap();
        assert_eq!(out.len(), 3);
    }

    #[test]
    fn temp_is_asked_once_per_closed_cycle() {
        // Two 2-cycles and a 3-cycle.
        let pc: Pc = vec![
            loc(0, 1),
            loc(1, 0),
            loc(2, 3),
            loc(3, 2),
            loc(4, 5),
            loc(5, 6),
            loc(6, 4),
        ];
        let mut asked = Vec::new();
        let out = sequentialize_with_temp(&pc, |l| {
            asked.push(l);
            100 + l
        })
        .unwrap();
        assert_eq!(asked.len(), 3);
        assert_eq!(out.len(), 7 + 3);
        let swaps = sequentialize_with_swaps(&pc).unwrap();
        assert_eq!(swaps.len(), 1 + 1 + 2);
    }
}
