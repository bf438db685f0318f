//! The fixed shapes: ladders, chains, deep loop nests and wide switches.
//! Each is a straight loop over its blocks (no recursion), drawn in the
//! documentation of [`Shape`](super::Shape).
//!
//! # Deep loop nests and the budget counter
//!
//! A ladder or nest of `D` loops cannot give every loop its own counter
//! with two or three iterations: the dynamic instruction count would be
//! exponential in `D`. Nor should every loop have its own counter at all:
//! in minimal SSA a variable assigned in the innermost loop needs a phi at
//! every enclosing header, so `D` counters would need `D²/2` phis, and a
//! 10,000-deep nest fifty million. So only the outermost [`COUNTED`] loops
//! have their own counters `k0`, `k1`, ...; every deeper loop is bounded by
//! one shared *budget* counter `g`, set to [`BUDGET`] in the body of the
//! last counted loop and decremented by every deeper latch. A back edge of a
//! deep loop is taken only while `g > 0`, and `g` only decreases until the
//! counted loop's next iteration resets it, so between resets at most
//! `BUDGET` deep back edges are taken: the innermost loop runs a few times,
//! the others once.

use super::sketch::{var_a, var_c, Counter, Ctx, Exit, Sketch, MAX_TRIPS};
use crate::ir::{BinOp, Block, InstData, Operand, Var};

/// Loops of a ladder or nest with a counter of their own, from the outside.
pub(super) const COUNTED: u32 = 2;
/// The initial value of the budget counter `g` of deeper loops.
pub(super) const BUDGET: i64 = 2;

/// How the `i`-th loop of a ladder or nest is bounded.
struct Bounds {
    counters: Vec<Counter>,
    budget: Option<Var>,
}

impl Bounds {
    fn new() -> Bounds {
        Bounds {
            counters: Vec::new(),
            budget: None,
        }
    }

    /// Emits, in the open block, the initialisation for loop `i`: its own
    /// counter, or the budget for the first uncounted loop, or nothing.
    fn init(&mut self, sk: &mut Sketch, i: u32) {
        if i < COUNTED {
            let k = sk.counter_init(MAX_TRIPS);
            self.counters.push(k);
        } else if i == COUNTED {
            let g = *self.budget.get_or_insert_with(|| sk.new_var("g"));
            sk.push(InstData::Copy {
                dst: g,
                src: Operand::Const(BUDGET),
            });
        }
    }

    /// The counter bounding loop `i`.
    fn counter(&self, i: u32) -> Counter {
        match self.counters.get(i as usize) {
            Some(&k) => k,
            None => Counter {
                var: self.budget.expect("budget initialised"),
                bound: None,
            },
        }
    }
}

/// Rungs of a ladder of `blocks` blocks: `(blocks - 2) / 2`, at least one.
pub(super) fn rungs(blocks: u32) -> u32 {
    (blocks.saturating_sub(2) / 2).max(1)
}

/// `ladder`: `2 * rungs + 2` blocks.
pub(super) fn ladder(sk: &mut Sketch, blocks: u32) {
    let n = rungs(blocks);
    let entry = sk.block("entry");
    let heads: Vec<Block> = (0..n).map(|_| sk.block("rung")).collect();
    let latches: Vec<Block> = (0..n).map(|_| sk.block("latch")).collect();
    let exit = sk.block("exit");
    let mut bounds = Bounds::new();
    sk.begin(entry);
    sk.init_safe();
    bounds.init(sk, 0);
    sk.end(Exit::Jump(heads[0]));
    for i in 0..n {
        sk.begin(heads[i as usize]);
        let ctx = Ctx {
            counter: Some(bounds.counter(i).var),
        };
        sk.code(ctx, 1, 2);
        if i + 1 < n {
            bounds.init(sk, i + 1);
            sk.end(Exit::Jump(heads[i as usize + 1]));
        } else {
            sk.end(Exit::Jump(latches[i as usize]));
        }
    }
    for i in (0..n).rev() {
        sk.begin(latches[i as usize]);
        let k = bounds.counter(i);
        sk.code(
            Ctx {
                counter: Some(k.var),
            },
            0,
            1,
        );
        sk.counter_step(k);
        let c = sk.counter_test(k);
        let out = if i == 0 {
            exit
        } else {
            latches[i as usize - 1]
        };
        sk.end(Exit::Branch {
            cond: c,
            then_dest: heads[i as usize],
            else_dest: out,
        });
    }
    sk.begin(exit);
    sk.exit_code(false);
}

/// `ladder-redundant`: `2 * rungs + 2` blocks; the `v` variables are
/// assigned in the entry block only.
pub(super) fn ladder_redundant(sk: &mut Sketch, blocks: u32) {
    let n = rungs(blocks);
    let entry = sk.block("entry");
    let heads: Vec<Block> = (0..n).map(|_| sk.block("rung")).collect();
    let latches: Vec<Block> = (0..n).map(|_| sk.block("latch")).collect();
    let exit = sk.block("exit");
    sk.begin(entry);
    sk.init_all();
    let zero = sk.new_var("zero");
    sk.push(InstData::Copy {
        dst: zero,
        src: Operand::Const(0),
    });
    // k0 = (a & 1) + 1: one or two trips; k0 stays >= 0, so `branch k0`
    // needs no comparison temporary.
    let k0 = sk.counter_var();
    sk.binary(k0, BinOp::And, var_a().into(), Operand::Const(1));
    sk.binary(k0, BinOp::Add, k0.into(), Operand::Const(1));
    sk.end(Exit::Jump(heads[0]));
    for i in 0..n {
        sk.begin(heads[i as usize]);
        if i + 1 == n {
            // The innermost rung reads several variables: looking each up
            // walks every header of the ladder.
            let m = sk.nvars().min(4);
            let args: Vec<Operand> = (0..m).map(|j| sk.v(j).into()).collect();
            sk.print(&args);
            sk.end(Exit::Jump(latches[i as usize]));
        } else {
            if sk.rng.chance(1, 4) {
                let j = sk.rng.below(sk.nvars());
                let v = sk.v(j);
                sk.print(&[v.into()]);
            }
            sk.end(Exit::Jump(heads[i as usize + 1]));
        }
    }
    for i in (0..n).rev() {
        sk.begin(latches[i as usize]);
        let t = if i == 0 {
            sk.binary(k0, BinOp::Sub, k0.into(), Operand::Const(1));
            Exit::Branch {
                cond: k0.into(),
                then_dest: heads[0],
                else_dest: exit,
            }
        } else {
            Exit::Branch {
                cond: zero.into(),
                then_dest: heads[i as usize],
                else_dest: latches[i as usize - 1],
            }
        };
        sk.end(t);
    }
    sk.begin(exit);
    sk.exit_code(false);
}

/// `chain`: `max(blocks, 3)` blocks.
pub(super) fn chain(sk: &mut Sketch, blocks: u32) {
    let n = blocks.max(3) - 2;
    let entry = sk.block("entry");
    let first = sk.block("b");
    sk.begin(entry);
    sk.init_safe();
    sk.end(Exit::Jump(first));
    let offset = sk.rng.below(sk.nvars());
    let mut cur = first;
    for j in 0..n {
        let next = if j + 1 < n {
            sk.block("b")
        } else {
            sk.block("exit")
        };
        sk.begin(cur);
        let v = sk.v((offset + j) % sk.nvars());
        let op = sk
            .rng
            .pick(&[BinOp::Add, BinOp::Add, BinOp::Sub, BinOp::Xor]);
        let k = i64::from(sk.rng.range(1, 9));
        sk.binary(v, op, v.into(), Operand::Const(k));
        if j % 8 == 7 {
            sk.print(&[v.into()]);
        }
        sk.end(Exit::Jump(next));
        cur = next;
    }
    sk.begin(cur);
    sk.exit_code(false);
}

/// Depth of a loop nest of `blocks` blocks: `(blocks - 2) / 3`, at least one.
pub(super) fn depth(blocks: u32) -> u32 {
    (blocks.saturating_sub(2) / 3).max(1)
}

/// `nested-loops`: `3 * depth + 2` blocks.
pub(super) fn nested_loops(sk: &mut Sketch, blocks: u32) {
    let d = depth(blocks);
    let entry = sk.block("entry");
    let mut heads = Vec::with_capacity(d as usize);
    let mut bodies = Vec::with_capacity(d as usize);
    for _ in 0..d {
        heads.push(sk.block("head"));
        bodies.push(sk.block("body"));
    }
    let latches: Vec<Block> = (0..d).map(|_| sk.block("latch")).collect();
    let exit = sk.block("exit");
    let mut bounds = Bounds::new();
    sk.begin(entry);
    sk.init_safe();
    bounds.init(sk, 0);
    sk.end(Exit::Jump(heads[0]));
    for i in 0..d as usize {
        let k = bounds.counter(i as u32);
        let ctx = Ctx {
            counter: Some(k.var),
        };
        sk.begin(heads[i]);
        let c = sk.counter_test(k);
        let out = if i == 0 { exit } else { latches[i - 1] };
        sk.end(Exit::Branch {
            cond: c,
            then_dest: bodies[i],
            else_dest: out,
        });
        sk.begin(bodies[i]);
        sk.code(ctx, 1, 1);
        if i + 1 < d as usize {
            bounds.init(sk, i as u32 + 1);
            sk.end(Exit::Jump(heads[i + 1]));
        } else {
            sk.end(Exit::Jump(latches[i]));
        }
    }
    for i in (0..d as usize).rev() {
        let k = bounds.counter(i as u32);
        sk.begin(latches[i]);
        sk.code(
            Ctx {
                counter: Some(k.var),
            },
            0,
            1,
        );
        sk.counter_step(k);
        sk.end(Exit::Jump(heads[i]));
    }
    sk.begin(exit);
    sk.exit_code(false);
}

/// `switchy`: one switch with `max(blocks, 3) - 2` cases, joining at the
/// exit, which is also the default: `max(blocks, 3)` blocks.
pub(super) fn switchy(sk: &mut Sketch, blocks: u32) {
    let m = blocks.max(3) - 2;
    let entry = sk.block("entry");
    let cases: Vec<Block> = (0..m).map(|_| sk.block("case")).collect();
    let exit = sk.block("exit");
    let ctx = Ctx::default();
    sk.begin(entry);
    sk.init_safe();
    // Mostly in range: `x % m` with x = a, b or a safe variable.
    let x = sk.safe_var_operand(ctx);
    sk.binary(var_c(), BinOp::Rem, x, Operand::Const(i64::from(m)));
    sk.end(Exit::Switch {
        value: var_c().into(),
        default: exit,
        targets: cases.clone(),
    });
    for &b in &cases {
        sk.begin(b);
        sk.assign(ctx);
        sk.maybe_print(ctx, 8);
        sk.end(Exit::Jump(exit));
    }
    sk.begin(exit);
    sk.exit_code(false);
}
