//! The second program generator: the same shape names as [`generate`](super::generate),
//! drawn another way, so that a figure measured on generated programs is
//! not a claim about one generator (performance round 4).
//!
//! The first generator composes *structured* regions (diamonds, counted
//! loops, small switches) and assigns one or two variables per block. This
//! one draws an *unstructured* graph over the layout and assigns many
//! variables in most blocks:
//!
//! * **Layout first, edges second.** Blocks `0 .. N-1` (entry first, exit
//!   last) each fall through to the next, so every block is reachable;
//!   then back edges `i -> j` (`j < i`) from one block in six, with
//!   windows of every size (loops nest and overlap at random), and from
//!   the others up to three forward jumps, half of them to the *hot*
//!   join that follows every 32 blocks (a fan-in of tens of predecessors),
//!   and for [`Shape::Irreducible`] one to three extra entries into the
//!   middle of each loop from blocks before its header (loops of several
//!   entries). A block of three or more targets ends in a `switch`.
//! * **Dense definitions.** A block assigns each variable with a
//!   probability fixed per shape ([`density`]): 30% in `random` and
//!   `irreducible`, 25% in `chain`, 60% in a `ladder`'s headers (the
//!   phi-densest programs: about 190 phis per rung at 256 variables).
//!   Values are `vX = vY op vZ` or `vX = vY op K` over `+ - * ^ & |`. The
//!   entry assigns the first three quarters of the variables, from the
//!   parameters, and operands read only those, so values stay defined;
//!   the last quarter are assigned in the body and read only by the
//!   exit's prints, so some are printed before any write on the path
//!   taken (the chapter's ⊥).
//! * **Termination by fuel.** The entry sets `f` to [`FUEL`]; every back
//!   edge is `f = f - 1; t = f > 0; branch t, header, next`, and nothing
//!   else writes `f`. Between two back edges taken, control only moves
//!   forward, so a run visits at most `(FUEL + 1) · N` blocks for any
//!   arguments. Branch conditions and switch selectors read only the
//!   parameter `a`, constants and `f`: never `undef`.
//!
//! Shapes drawn: [`Shape::Random`], [`Shape::Irreducible`] and
//! [`Shape::Chain`] (`max(N, 3)` blocks) and [`Shape::Ladder`] (`2R + 2`
//! blocks as the first generator's, every latch on the fuel). The others
//! are refused with [`UnsupportedShape`].
//!
//! ```
//! use ssakit::gen::{second, GenOptions, Shape};
//! use ssakit::construct::{construct, Options};
//! let opts = GenOptions { shape: Shape::Irreducible, blocks: 40, vars: 8, seed: 3 };
//! let mut f = second::generate(&opts).unwrap();
//! assert_eq!(f.num_blocks(), 40);
//! construct(&mut f, &Options::default()).unwrap();
//! ssakit::verify::verify_valid(&f).unwrap();
//! ```

use super::rng::Rng;
use super::{clamp_blocks, shapes, GenOptions, Shape};
use crate::ir::{BinOp, Block, Function, FunctionBuilder, Operand, Var};
use std::fmt;

/// The back edges a run may take in all: the initial value of `f`.
pub const FUEL: i64 = 4;

/// Hot joins: every block whose index is a multiple of this receives
/// half the forward jumps of the blocks before it.
const HOT: u32 = 32;

/// Per mille of the variables a body block assigns, per shape (a ladder's
/// headers; its latches assign a quarter as many).
///
/// ```
/// use ssakit::gen::{second::density, Shape};
/// assert_eq!(density(Shape::Ladder), Some(600));
/// assert_eq!(density(Shape::Switchy), None); // not drawn by this generator
/// ```
pub fn density(shape: Shape) -> Option<u32> {
    match shape {
        Shape::Random | Shape::Irreducible => Some(300),
        Shape::Chain => Some(250),
        Shape::Ladder => Some(600),
        _ => None,
    }
}

/// A shape the second generator does not draw.
///
/// ```
/// use ssakit::gen::{second, GenOptions, Shape};
/// let e = second::generate(&GenOptions { shape: Shape::Switchy, ..GenOptions::default() });
/// assert_eq!(e.unwrap_err(), second::UnsupportedShape(Shape::Switchy));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct UnsupportedShape(pub Shape);

impl fmt::Display for UnsupportedShape {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "the second generator draws random, irreducible, ladder and chain, not `{}`",
            self.0
        )
    }
}

impl std::error::Error for UnsupportedShape {}

/// Generates the program `opts` describes, drawn as the module
/// documentation says: `main(a, b)` with variables `v0 .. v{V-1}`, the
/// fuel `f`, the condition `t` and the selector `s`.
///
/// ```
/// use ssakit::gen::{second, GenOptions, Shape};
/// use ssakit::text::print_function;
/// let opts = GenOptions { shape: Shape::Ladder, blocks: 12, vars: 3, seed: 1 };
/// let f = second::generate(&opts).unwrap();
/// assert_eq!(f.num_blocks(), Shape::Ladder.block_count(12));
/// assert_eq!(print_function(&f), print_function(&second::generate(&opts).unwrap()));
/// ```
pub fn generate(opts: &GenOptions) -> Result<Function, UnsupportedShape> {
    let density = density(opts.shape).ok_or(UnsupportedShape(opts.shape))?;
    let n = clamp_blocks(opts.blocks);
    let vars = opts.vars.clamp(1, 1 << 24) as u32;
    let mut g = Gen::new(opts.seed, vars, density);
    match opts.shape {
        Shape::Ladder => g.ladder(shapes::rungs(n)),
        shape => {
            let n = n.max(3);
            let plan = Plan::draw(&mut g.rng, n, shape);
            g.graph(&plan)
        }
    }
    Ok(g.fb.finish())
}

/// The edges of an unstructured program besides the fall-through ones.
struct Plan {
    /// Per block: the header its back edge returns to.
    back: Vec<Option<u32>>,
    /// Forward jumps `(from, to)`, `to > from + 1`, sorted by `from`.
    jumps: Vec<(u32, u32)>,
}

impl Plan {
    /// Draws the edges of an `n`-block program of `shape`.
    fn draw(rng: &mut Rng, n: u32, shape: Shape) -> Plan {
        let mut back = vec![None; n as usize];
        let mut jumps = Vec::new();
        if shape == Shape::Chain {
            return Plan { back, jumps };
        }
        let exit = n - 1;
        for i in 2..exit {
            if rng.chance(1, 6) {
                // Windows of every size: mostly small, some spanning
                // hundreds of blocks, so loops nest and overlap.
                let w = match rng.below(20) {
                    0 => 1024,
                    1..=5 => 64,
                    _ => 8,
                };
                let j = i - 1 - rng.below(w.min(i - 1));
                back[i as usize] = Some(j.max(1));
            }
        }
        for i in 0..exit {
            if back[i as usize].is_some() || i + 2 > exit {
                continue;
            }
            // None, one, two or three jumps (1/2, 1/4, 1/8, 1/8), half
            // of them to the next hot join.
            let k = match rng.below(8) {
                0..=3 => 0,
                4 | 5 => 1,
                6 => 2,
                _ => 3,
            };
            for _ in 0..k {
                let to = if rng.chance(1, 2) {
                    (i / HOT + 1) * HOT
                } else {
                    i + 2 + rng.below(16)
                };
                jumps.push((i, to.clamp(i + 2, exit)));
            }
        }
        if shape == Shape::Irreducible {
            // Extra entries into the middle of each loop, from blocks
            // before its header that end in no back edge.
            for i in 0..n {
                let Some(j) = back[i as usize] else { continue };
                if i < j + 1 {
                    continue;
                }
                for _ in 0..rng.range(1, 3) {
                    let from = j - 1 - rng.below(j.min(16));
                    let to = j + 1 + rng.below(i - j);
                    if back[from as usize].is_none() && to > from + 1 {
                        jumps.push((from, to));
                    }
                }
            }
        }
        jumps.sort_unstable();
        jumps.dedup();
        Plan { back, jumps }
    }
}

/// The program being built.
struct Gen {
    rng: Rng,
    fb: FunctionBuilder,
    a: Var,
    b: Var,
    fuel: Var,
    t: Var,
    s: Var,
    v: Vec<Var>,
    /// The variables the entry assigns, `v0 .. v{early-1}`; operands
    /// read only these, so values stay defined.
    early: usize,
    density: u32,
    targets: Vec<Block>,
}

impl Gen {
    fn new(seed: u64, vars: u32, density: u32) -> Gen {
        let mut fb = FunctionBuilder::new("main");
        let a = fb.param("a");
        let b = fb.param("b");
        let fuel = fb.var("f");
        let t = fb.var("t");
        let s = fb.var("s");
        let v = (0..vars).map(|i| fb.var(&format!("v{i}"))).collect();
        Gen {
            rng: Rng::new(seed ^ 0x5ec0_4d00_6e4e_7261),
            fb,
            a,
            b,
            fuel,
            t,
            s,
            early: (vars - vars / 4) as usize,
            v,
            density,
            targets: Vec::new(),
        }
    }

    /// Creates `n` blocks in layout order: `entry`, `b1` ..., `exit`.
    fn blocks(&mut self, n: u32) -> Vec<Block> {
        (0..n)
            .map(|i| match i {
                0 => self.fb.block("entry"),
                _ if i == n - 1 => self.fb.block("exit"),
                _ => self.fb.block(&format!("b{i}")),
            })
            .collect()
    }

    /// The entry's code: the fuel, and half the variables from the
    /// parameters and constants.
    fn entry(&mut self) {
        self.fb.copy(self.fuel, Operand::Const(FUEL));
        for k in 0..self.early {
            let x = if self.rng.chance(1, 2) {
                self.a
            } else {
                self.b
            };
            let c = self.constant();
            self.fb
                .binary(self.v[k], BinOp::Add, Operand::Var(x), Operand::Const(c));
        }
    }

    fn constant(&mut self) -> i64 {
        i64::from(self.rng.below(19)) - 9
    }

    /// Assigns each variable with probability `per_mille / 1000`.
    fn assignments(&mut self, per_mille: u32) {
        const OPS: [BinOp; 6] = [
            BinOp::Add,
            BinOp::Sub,
            BinOp::Mul,
            BinOp::Xor,
            BinOp::And,
            BinOp::Or,
        ];
        let nv = self.early as u32;
        for k in 0..self.v.len() {
            if !self.rng.chance(per_mille, 1000) {
                continue;
            }
            let y = self.v[self.rng.below(nv) as usize];
            let op = self.rng.pick(&OPS);
            let z = if self.rng.chance(1, 2) {
                Operand::Var(self.v[self.rng.below(nv) as usize])
            } else {
                Operand::Const(self.constant())
            };
            self.fb.binary(self.v[k], op, Operand::Var(y), z);
        }
    }

    /// `f = f - 1; t = f > 0; branch t, header, next`.
    fn back_edge(&mut self, header: Block, next: Block) {
        let f = Operand::Var(self.fuel);
        self.fb.binary(self.fuel, BinOp::Sub, f, Operand::Const(1));
        self.fb.binary(self.t, BinOp::Gt, f, Operand::Const(0));
        self.fb.branch(Operand::Var(self.t), header, next);
    }

    /// Ends the open block with a jump, a branch on `a < K` or a switch on
    /// `a % K` over `targets` (the first is the fall-through and the
    /// switch's default).
    fn forward(&mut self, targets: &[Block]) {
        match *targets {
            [next] => self.fb.jump(next),
            [next, other] => {
                let k = self.constant();
                let a = Operand::Var(self.a);
                self.fb.binary(self.t, BinOp::Lt, a, Operand::Const(k));
                if self.rng.chance(1, 2) {
                    self.fb.branch(Operand::Var(self.t), next, other)
                } else {
                    self.fb.branch(Operand::Var(self.t), other, next)
                }
            }
            [next, ref cases @ ..] => {
                let a = Operand::Var(self.a);
                let k = cases.len() as i64 + 1;
                self.fb.binary(self.s, BinOp::Rem, a, Operand::Const(k));
                self.fb.switch(Operand::Var(self.s), next, cases)
            }
            [] => unreachable!("a block falls through at least"),
        }
    }

    /// The exit: every variable printed, ten per line, `v0` returned.
    fn exit(&mut self) {
        let vs: Vec<Operand> = self.v.iter().map(|&v| Operand::Var(v)).collect();
        for line in vs.chunks(10) {
            self.fb.print(line);
        }
        self.fb.ret(Some(vs[0]));
    }

    /// An unstructured program of `plan`'s edges.
    fn graph(&mut self, plan: &Plan) {
        let n = plan.back.len() as u32;
        let blocks = self.blocks(n);
        let mut jumps = plan.jumps.iter().peekable();
        for i in 0..n - 1 {
            self.fb.switch_to(blocks[i as usize]);
            if i == 0 {
                self.entry();
            } else {
                self.assignments(self.density);
            }
            let next = blocks[i as usize + 1];
            if let Some(h) = plan.back[i as usize] {
                self.back_edge(blocks[h as usize], next);
                continue;
            }
            let mut targets = std::mem::take(&mut self.targets);
            targets.clear();
            targets.push(next);
            while let Some(&(_, to)) = jumps.next_if(|&&(from, _)| from == i) {
                targets.push(blocks[to as usize]);
            }
            self.forward(&targets);
            self.targets = targets;
        }
        self.fb.switch_to(blocks[n as usize - 1]);
        self.exit();
    }

    /// A ladder of `r` rungs: headers `h0 .. h{r-1}` in a line, then
    /// latches `l{r-1} .. l0`, latch `i` back to header `i` on the fuel or
    /// down to latch `i - 1` (the exit after `l0`).
    fn ladder(&mut self, r: u32) {
        let blocks = self.blocks(2 * r + 2);
        let (entry, exit) = (blocks[0], blocks[2 * r as usize + 1]);
        let header = |i: u32| blocks[1 + i as usize];
        let latch = |i: u32| blocks[2 * r as usize - i as usize];
        self.fb.switch_to(entry);
        self.entry();
        self.fb.jump(header(0));
        for i in 0..r {
            self.fb.switch_to(header(i));
            self.assignments(self.density);
            self.fb.jump(if i + 1 < r {
                header(i + 1)
            } else {
                latch(r - 1)
            });
        }
        for i in (0..r).rev() {
            self.fb.switch_to(latch(i));
            self.assignments(self.density / 4);
            self.back_edge(header(i), if i > 0 { latch(i - 1) } else { exit });
        }
        self.fb.switch_to(exit);
        self.exit();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analysis::DomTree;
    use crate::interp::{run, RunOptions};
    use crate::ir::{Cfg, Module};

    fn opts(shape: Shape, blocks: usize, vars: usize, seed: u64) -> GenOptions {
        GenOptions {
            shape,
            blocks,
            vars,
            seed,
        }
    }

    /// Every program terminates within its fuel for several arguments,
    /// and the block counts are those documented.
    #[test]
    fn programs_run_to_the_end() {
        for seed in 0..40 {
            for shape in [
                Shape::Random,
                Shape::Irreducible,
                Shape::Chain,
                Shape::Ladder,
            ] {
                let o = opts(shape, 3 + seed as usize * 5, 1 + seed as usize % 7, seed);
                let f = generate(&o).unwrap();
                assert_eq!(f.num_blocks(), shape.block_count(o.blocks), "{o:?}");
                let m = Module { functions: vec![f] };
                for args in [[0, 0], [-5, 3], [7, 1]] {
                    let out = run(&m, &m.functions[0], &args, &RunOptions::default());
                    assert!(out.is_ok(), "{o:?}: {:?}", out.err());
                }
            }
        }
    }

    /// `irreducible` programs have loops of several entries: a back edge
    /// whose target does not dominate its source's region.
    #[test]
    fn irreducible_programs_have_irreducible_loops() {
        let mut irreducible = 0;
        for seed in 0..10 {
            let f = generate(&opts(Shape::Irreducible, 200, 4, seed)).unwrap();
            let cfg = Cfg::new(&f);
            let dt = DomTree::new(&cfg);
            // A retreating edge in layout order whose target does not
            // dominate its source.
            let pos = |b: Block| f.layout().iter().position(|&x| x == b).unwrap();
            irreducible += f
                .layout()
                .iter()
                .flat_map(|&b| cfg.succs(b).iter().map(move |&s| (b, s)))
                .filter(|&(b, s)| pos(s) <= pos(b) && !dt.dominates(s, b))
                .count();
        }
        assert!(irreducible >= 10, "{irreducible}");
    }

    /// Hot joins collect many predecessors.
    #[test]
    fn hot_joins_have_high_fan_in() {
        let f = generate(&opts(Shape::Random, 2000, 4, 9)).unwrap();
        let cfg = Cfg::new(&f);
        let most = f
            .layout()
            .iter()
            .map(|&b| cfg.preds(b).len())
            .max()
            .unwrap();
        assert!(most >= 10, "{most}");
    }
}
