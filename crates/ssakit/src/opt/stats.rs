//! What the passes of [`crate::opt`] did: counters summed over every
//! pass run, shared by the passes (each returns its own) and the driver
//! [`run_passes`](crate::opt::run_passes) (which sums them).

/// What the passes did, summed over every pass run.
///
/// ```
/// use ssakit::{opt::{run_passes, Pass}, text::parse_module};
/// let mut m = parse_module("function f(a) {\nentry:\n    b = a\n    c = b + 1\n    ret c\n}\n").unwrap();
/// let stats = run_passes(&mut m.functions[0], &[Pass::CopyProp]).unwrap();
/// assert_eq!(stats.copies_propagated, 1);
/// assert_eq!(stats.insts_removed, 0); // counted by dce only
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct Stats {
    /// `copy-prop`: copies `x = y` propagated and deleted.
    pub copies_propagated: usize,
    /// `copy-prop`: trivial phis propagated and deleted.
    pub phis_simplified: usize,
    /// `dce`: dead non-phi instructions removed (a dead pair of a parallel
    /// copy counts as one).
    pub insts_removed: usize,
    /// `dce`: dead phis removed.
    pub phis_removed: usize,
    /// `const-prop`: definitions of constant (or always-`undef`) variables
    /// replaced by the constant at their uses and deleted.
    pub constants_folded: usize,
    /// `const-prop`: branches and switches on a constant made jumps.
    pub branches_folded: usize,
    /// `dce`, `const-prop`, `fold`: unreachable blocks removed.
    pub blocks_removed: usize,
    /// `fold`: instructions rewritten or made unused by a rule.
    pub insts_folded: usize,
}

impl Stats {
    /// Adds `other`'s counts to these.
    ///
    /// ```
    /// use ssakit::opt::Stats;
    /// let mut total = Stats { insts_removed: 2, ..Stats::default() };
    /// total.add(&Stats { insts_removed: 1, phis_removed: 4, ..Stats::default() });
    /// assert_eq!((total.insts_removed, total.phis_removed), (3, 4));
    /// ```
    pub fn add(&mut self, other: &Stats) {
        self.copies_propagated += other.copies_propagated;
        self.phis_simplified += other.phis_simplified;
        self.insts_removed += other.insts_removed;
        self.phis_removed += other.phis_removed;
        self.constants_folded += other.constants_folded;
        self.branches_folded += other.branches_folded;
        self.blocks_removed += other.blocks_removed;
        self.insts_folded += other.insts_folded;
    }

    /// One line `counter: N` per counter (`instructions folded` only when
    /// not zero).
    ///
    /// ```
    /// use ssakit::opt::Stats;
    /// let text = Stats { copies_propagated: 2, ..Stats::default() }.render();
    /// assert!(text.starts_with("copies propagated: 2\ntrivial phis propagated: 0\n"));
    /// assert_eq!(text.lines().count(), 7);
    /// ```
    pub fn render(&self) -> String {
        format!(
            "copies propagated: {}\ntrivial phis propagated: {}\ndead instructions removed: {}\n\
             dead phis removed: {}\nconstants folded: {}\nbranches folded: {}\n\
             unreachable blocks removed: {}\n{}",
            self.copies_propagated,
            self.phis_simplified,
            self.insts_removed,
            self.phis_removed,
            self.constants_folded,
            self.branches_folded,
            self.blocks_removed,
            match self.insts_folded {
                0 => String::new(),
                n => format!("instructions folded: {n}\n"),
            }
        )
    }
}
