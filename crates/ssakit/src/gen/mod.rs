//! The program generator: reproducible, valid, terminating non-SSA programs
//! of a chosen shape and size, for tests, benchmarks and fuzzing.
//!
//! [`generate`] returns one function `main(a, b)` in which
//!
//! * the variables are the parameters `a` and `b`, the program variables
//!   `v0 .. v{V-1}`, loop counters `k0`, `k1`, ..., the condition temporary
//!   `c`, and for some shapes the budget counter `g` or the flag `zero`;
//! * some `v` variables are read before they are written on some paths (the
//!   chapter's ⊥ case): only a third of them, the *safe* ones, are assigned
//!   in the entry block, and the rest are first assigned deep in the body;
//! * every branch condition and switch selector reads only the parameters,
//!   safe variables and counters, so control never depends on `undef`;
//! * every loop is bounded by a counter initialised before the loop and
//!   stepped and tested inside it, and nesting is limited, so the program
//!   terminates for *all* arguments and its dynamic instruction count stays
//!   within a small multiple of its size (see [`Shape`]);
//! * division and remainder only divide by non-zero constants; there are no
//!   calls; `print`s show a few variables every few blocks and several at
//!   the exit, which returns one of them.
//!
//! Everything is drawn from a SplitMix64 generator seeded with
//! [`GenOptions::seed`] and no hash map is iterated, so a seed gives the same
//! program on every machine. Generation takes time and memory linear in the
//! number of blocks and never recurses: a million blocks take about a second,
//! printing included, in a release build.
//!
//! ```
//! use ssakit::gen::{generate, GenOptions, Shape};
//! let f = generate(&GenOptions { shape: Shape::Switchy, blocks: 12, vars: 4, seed: 7 });
//! assert_eq!(f.layout().len(), 12);
//! ```

mod rng;
pub mod second;
mod shapes;
mod sketch;
mod structured;
pub mod wide;

#[cfg(test)]
pub(crate) use rng::Rng;

use crate::ir::Function;
use sketch::Sketch;
use std::fmt;
use std::str::FromStr;

/// The control-flow shape of a generated program. `N` is
/// [`GenOptions::blocks`]; each variant says how many blocks it produces.
///
/// # Example
///
/// ```
/// use ssakit::analysis::DomTree;
/// use ssakit::gen::{generate, GenOptions, Shape};
/// use ssakit::ir::Cfg;
/// // Back edges (`b -> s` where `s` dominates `b`) of an 11-block program.
/// let back_edges = |shape| {
///     let f = generate(&GenOptions { shape, blocks: 11, ..GenOptions::default() });
///     let cfg = Cfg::new(&f);
///     let dt = DomTree::new(&cfg);
///     let edges = f.layout().iter().flat_map(|&b| cfg.succs(b).iter().map(move |&s| (b, s)));
///     edges.filter(|&(b, s)| dt.dominates(s, b)).count()
/// };
/// assert_eq!(back_edges(Shape::NestedLoops), 3); // (11 - 2) / 3 loops
/// assert_eq!(back_edges(Shape::Chain), 0); // straight-line code
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Shape {
    /// Random structured control flow: sequences, if/else diamonds, small
    /// switches, counted while and repeat-until loops (nested at most three
    /// deep, at most three trips each) with breaks and continues, composed
    /// until the program has exactly `max(N, 3)` blocks.
    ///
    /// ```text
    ///   entry -> [ seq | diamond | switch | while | repeat ]* -> exit
    ///                  each part again a region, recursively
    /// ```
    Random,
    /// A ladder of `R = max(1, (N - 2) / 2)` nested repeat-until loops, the
    /// shape that made Cranelift's SSA construction quadratic: `2R + 2`
    /// blocks. Each rung is a header and a latch; latch `i` branches back to
    /// header `i` or falls to latch `i - 1`, so there are `R` back edges and
    /// a variable assigned in the innermost rung needs a phi at every
    /// header. The outer two rungs loop up to three times; deeper ones share
    /// the budget counter `g` (see the `shapes` module), so the innermost
    /// loops twice and the rest once.
    ///
    /// ```text
    ///   entry -> rung0 -> rung1 -> ... -> rungR-1
    ///              ^        ^                ^  |
    ///              |        |                |  v
    ///              |        |                latchR-1    latch i: back to
    ///              |        |                   |        rung i, or down
    ///              |        |                  ...       to latch i-1
    ///              |        +------------ latch1
    ///              |                        |
    ///              +--------------------- latch0 -> exit
    /// ```
    Ladder,
    /// A [`Ladder`](Shape::Ladder) of `2R + 2` blocks in which every phi
    /// would be redundant: all `v` variables are assigned once, in the entry
    /// block, and only read (printed) in the rungs; the innermost rung reads
    /// several. Rung 0 runs once or twice on its counter `k0`; the others
    /// branch back on `zero`, a variable set to 0 in the entry, so they run
    /// once and assign nothing.
    LadderRedundant,
    /// A chain of `max(N, 3) - 2` blocks between entry and exit, block `j`
    /// doing `v[i] = v[i] op constant` for `i` cycling through the
    /// variables, with a print every eight blocks.
    ///
    /// ```text
    ///   entry -> b1: v3 = v3 + 2 -> b2: v4 = v4 + 7 -> ... -> exit
    /// ```
    Chain,
    /// A nest of `D = max(1, (N - 2) / 3)` while loops, each a header, a
    /// body and a latch: `3D + 2` blocks. The outer two loops run up to
    /// three times each; deeper ones share the budget counter `g`.
    ///
    /// ```text
    ///   entry -> head0 -> body0 -> head1 -> body1 -> ... -> headD-1 -> bodyD-1
    ///             |  ^              |  ^                     |  ^         |
    ///             v  |              v  |                     v  |         v
    ///           exit +-- latch0 <---+  +-- latch1 <- ... <---+  +-- latchD-1
    /// ```
    /// (a header's exit edge goes to the latch of the enclosing loop).
    NestedLoops,
    /// Loops with two or three entries (irreducible), counter-bounded,
    /// composed with the other structures as in [`Random`](Shape::Random):
    /// exactly `max(N, 3)` blocks, and at least one irreducible loop when
    /// `N >= 6`.
    ///
    /// ```text
    ///          pre: k = ..
    ///          /        \
    ///        C0 -> C1 -> C2 -> latch: k = k - 1; branch k > 0, C0, after
    ///        ^      ^                  |
    ///        +------|------------------+     (pre enters at C0 and at C1)
    /// ```
    Irreducible,
    /// One switch on `a`, `b` or a safe variable modulo `N - 2` with
    /// `max(N, 3) - 2` cases, each assigning a variable and jumping to the
    /// exit, which is also the default: `max(N, 3)` blocks (`--blocks 10002`
    /// gives 10,000 cases).
    ///
    /// ```text
    ///             entry: switch c, exit, [case1, ..., caseN-2]
    ///           /    |     ...    |    \
    ///       case1  case2  ...  caseN-2  |
    ///           \    |     ...    |    /
    ///                     exit
    /// ```
    Switchy,
    /// Many variables live across many blocks: [`Random`](Shape::Random)
    /// control flow (loops at most two deep) with two to five assignments
    /// per block, half the variables assigned in the entry, and every `v`
    /// variable printed at the exit, ten per line. Exactly `max(N, 3)`
    /// blocks; use a large `V`.
    ManyVars,
}

impl Shape {
    /// Every shape, in a fixed order.
    pub const ALL: [Shape; 8] = [
        Shape::Random,
        Shape::Ladder,
        Shape::LadderRedundant,
        Shape::Chain,
        Shape::NestedLoops,
        Shape::Irreducible,
        Shape::Switchy,
        Shape::ManyVars,
    ];

    /// The shape's name on the command line (`nested-loops`, ...).
    ///
    /// ```
    /// use ssakit::gen::Shape;
    /// assert_eq!(Shape::NestedLoops.name(), "nested-loops");
    /// for s in Shape::ALL {
    ///     assert_eq!(s.name().parse::<Shape>(), Ok(s)); // names parse back
    /// }
    /// ```
    pub fn name(self) -> &'static str {
        match self {
            Shape::Random => "random",
            Shape::Ladder => "ladder",
            Shape::LadderRedundant => "ladder-redundant",
            Shape::Chain => "chain",
            Shape::NestedLoops => "nested-loops",
            Shape::Irreducible => "irreducible",
            Shape::Switchy => "switchy",
            Shape::ManyVars => "many-vars",
        }
    }

    /// The number of blocks [`generate`] produces for `blocks` requested.
    ///
    /// ```
    /// use ssakit::gen::{generate, GenOptions, Shape};
    /// for shape in Shape::ALL {
    ///     let f = generate(&GenOptions { shape, blocks: 12, ..GenOptions::default() });
    ///     assert_eq!(f.num_blocks(), shape.block_count(12), "{shape}");
    /// }
    /// ```
    pub fn block_count(self, blocks: usize) -> usize {
        let n = clamp_blocks(blocks);
        (match self {
            Shape::Ladder | Shape::LadderRedundant => 2 * shapes::rungs(n) + 2,
            Shape::NestedLoops => 3 * shapes::depth(n) + 2,
            _ => n.max(3),
        }) as usize
    }
}

impl fmt::Display for Shape {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.pad(self.name())
    }
}

/// The error of parsing an unknown shape name.
///
/// ```
/// use ssakit::gen::{Shape, UnknownShape};
/// let err = "spiral".parse::<Shape>().unwrap_err();
/// assert_eq!(err, UnknownShape("spiral".to_string()));
/// assert!(err.to_string().starts_with("unknown shape `spiral` (expected one of: random"));
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UnknownShape(pub String);

impl fmt::Display for UnknownShape {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "unknown shape `{}` (expected one of:", self.0)?;
        for s in Shape::ALL {
            write!(f, " {s}")?;
        }
        f.write_str(")")
    }
}

impl std::error::Error for UnknownShape {}

impl FromStr for Shape {
    type Err = UnknownShape;
    fn from_str(s: &str) -> Result<Shape, UnknownShape> {
        Shape::ALL
            .into_iter()
            .find(|sh| sh.name() == s)
            .ok_or_else(|| UnknownShape(s.to_string()))
    }
}

/// What to generate.
///
/// ```
/// use ssakit::gen::{generate, GenOptions, Shape};
/// let opts = GenOptions { shape: Shape::Chain, blocks: 5, vars: 2, seed: 7 };
/// assert_eq!(generate(&opts).num_blocks(), 5);
/// assert_eq!(GenOptions::default().blocks, 20);
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GenOptions {
    /// The control-flow shape.
    pub shape: Shape,
    /// The approximate number of blocks (see each [`Shape`] for the exact
    /// count; at least 3, at most 2^31).
    pub blocks: usize,
    /// The number of `v` variables (at least 1).
    pub vars: usize,
    /// The seed: equal options give equal programs.
    pub seed: u64,
}

impl Default for GenOptions {
    fn default() -> Self {
        GenOptions {
            shape: Shape::Random,
            blocks: 20,
            vars: 4,
            seed: 0,
        }
    }
}

fn clamp_blocks(blocks: usize) -> u32 {
    blocks.clamp(3, 1 << 31) as u32
}

/// Generates the program described by `opts` (see the module documentation).
///
/// ```
/// use ssakit::gen::{generate, GenOptions, Shape};
/// use ssakit::construct::{construct, Options};
/// use ssakit::{text::print_function, verify::verify_valid};
/// let opts = GenOptions { shape: Shape::Irreducible, blocks: 30, vars: 3, seed: 1 };
/// let mut f = generate(&opts);
/// assert_eq!(print_function(&f), print_function(&generate(&opts))); // deterministic
/// construct(&mut f, &Options::default()).unwrap(); // a program construction accepts
/// verify_valid(&f).unwrap();
/// ```
pub fn generate(opts: &GenOptions) -> Function {
    let blocks = clamp_blocks(opts.blocks);
    let vars = opts.vars.clamp(1, 1 << 24) as u32;
    let mut sk = Sketch::new(opts.seed, vars);
    match opts.shape {
        Shape::Random => structured::generate(&mut sk, structured::RANDOM, blocks),
        Shape::Irreducible => structured::generate(&mut sk, structured::IRREDUCIBLE, blocks),
        Shape::ManyVars => structured::generate(&mut sk, structured::MANY_VARS, blocks),
        Shape::Ladder => shapes::ladder(&mut sk, blocks),
        Shape::LadderRedundant => shapes::ladder_redundant(&mut sk, blocks),
        Shape::Chain => shapes::chain(&mut sk, blocks),
        Shape::NestedLoops => shapes::nested_loops(&mut sk, blocks),
        Shape::Switchy => shapes::switchy(&mut sk, blocks),
    }
    sk.finish()
}
