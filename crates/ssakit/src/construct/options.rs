//! What construction is asked to build (chapter, sections 13.1 to
//! 13.5): the SSA flavour (13.2's minimal, Briggs et al.'s semi-pruned,
//! pruned), the treatment of ⊥ (13.5), the renaming algorithm (13.1's
//! reachingDef chains or Cytron et al.'s stacks) and the method for DF⁺
//! (13.1's worklist or Sreedhar and Gao's linear walk). The phases read
//! these; [`construct`](super::construct) takes them together as
//! [`Options`].

/// Which SSA flavour to build.
///
/// ```
/// use ssakit::construct::{construct, Flavor, Options};
/// // `y` is assigned on both paths but never read: only minimal SSA gives
/// // it a phi.
/// const SRC: &str = "function f(c) {
/// e:
///     x = 1
///     y = 1
///     branch c, t, j
/// t:
///     x = 2
///     y = 2
///     jump j
/// j:
///     ret x
/// }";
/// let phis = |flavor| {
///     let mut f = ssakit::text::parse_module(SRC).unwrap().functions.remove(0);
///     construct(&mut f, &Options { flavor, ..Options::default() }).unwrap().phis
/// };
/// assert_eq!(phis(Flavor::Minimal), 2);
/// assert_eq!(phis(Flavor::SemiPruned), 1);
/// assert_eq!(phis(Flavor::Pruned), 1);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Flavor {
    /// Phis at DF⁺(Defs(v)) for every variable, as in the chapter.
    #[default]
    Minimal,
    /// Only for variables used in some block before being defined there
    /// (Briggs et al. 1998).
    SemiPruned,
    /// Only where the variable is live on entry: no dead phi.
    Pruned,
}

/// What a use reached by no definition (⊥) becomes (chapter, 13.5).
///
/// ```
/// use ssakit::construct::{construct, Options, UndefMode};
/// // On the path through `e`, no definition of `x` reaches the phi: ⊥.
/// const SRC: &str = "function f(c) {
/// e:
///     branch c, t, j
/// t:
///     x = 1
///     jump j
/// j:
///     ret x
/// }";
/// let ssa = |undef| {
///     let mut m = ssakit::text::parse_module(SRC).unwrap();
///     construct(&mut m.functions[0], &Options { undef, ..Options::default() }).unwrap();
///     ssakit::text::print_module(&m)
/// };
/// assert!(ssa(UndefMode::Operand).contains("x2 = phi(e: undef, t: x1)"));
/// assert!(ssa(UndefMode::EntryDef).contains("x0 = undef"));
/// assert!(ssa(UndefMode::Local).contains("x1 = undef\n    branch c, t, j"));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum UndefMode {
    /// The operand `undef`.
    #[default]
    Operand,
    /// One definition `v0 = undef` per such variable at the start of the
    /// entry block.
    EntryDef,
    /// A definition `vN = undef` just before the use.
    Local,
}

/// Which renaming algorithm.
///
/// ```
/// use ssakit::construct::{construct, Options, Renaming};
/// const SRC: &str = "function f(n) {
/// e:
///     i = 0
///     jump h
/// h:
///     i = add(i, 1)
///     branch n, h, x
/// x:
///     ret i
/// }";
/// let ssa = |renaming| {
///     let mut m = ssakit::text::parse_module(SRC).unwrap();
///     construct(&mut m.functions[0], &Options { renaming, ..Options::default() }).unwrap();
///     ssakit::text::print_module(&m)
/// };
/// // Both algorithms number versions in the same walk order.
/// assert_eq!(ssa(Renaming::ReachingDef), ssa(Renaming::Stacks));
/// assert!(ssa(Renaming::Stacks).contains("i2 = phi(e: i1, h: i3)"));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Renaming {
    /// The chapter's reachingDef chains with `updateReachingDef`.
    #[default]
    ReachingDef,
    /// The classic stacks of Cytron et al.
    Stacks,
}

/// How phi insertion computes DF⁺(Defs(v)).
///
/// ```
/// use ssakit::construct::{construct, Idf, Options};
/// const SRC: &str = "function f(n) {
/// e:
///     i = 0
///     jump h
/// h:
///     i = add(i, 1)
///     branch n, h, x
/// x:
///     ret i
/// }";
/// let phis = |idf| {
///     let mut f = ssakit::text::parse_module(SRC).unwrap().functions.remove(0);
///     construct(&mut f, &Options { idf, ..Options::default() }).unwrap().phis
/// };
/// assert_eq!(phis(Idf::Linear), 1);
/// assert_eq!(phis(Idf::Worklist), 1);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Idf {
    /// Sreedhar and Gao's linear method on the DJ-graph (no DF sets); for
    /// pruned SSA where DF is small, the worklist with 64 variables to a
    /// word instead (`analysis/idf_words.rs`): the same phis.
    #[default]
    Linear,
    /// The chapter's worklist with sets W and F over DF_all's frontiers
    /// (quadratic on ladders; always used for `--trace`).
    Worklist,
}

/// Options of [`construct`](super::construct).
///
/// ```
/// use ssakit::construct::{construct, Flavor, Options, UndefMode};
/// let opts = Options { flavor: Flavor::Pruned, undef: UndefMode::EntryDef, ..Options::default() };
/// let mut m = ssakit::text::parse_module("function f() {\ne:\n    ret x\n}").unwrap();
/// construct(&mut m.functions[0], &opts).unwrap();
/// assert!(ssakit::text::print_module(&m).contains("x0 = undef"));
/// ```
#[derive(Clone, Copy, Debug, Default)]
pub struct Options {
    /// How DF⁺ is computed.
    pub idf: Idf,
    /// SSA flavour.
    pub flavor: Flavor,
    /// Treatment of ⊥.
    pub undef: UndefMode,
    /// Renaming algorithm.
    pub renaming: Renaming,
}
