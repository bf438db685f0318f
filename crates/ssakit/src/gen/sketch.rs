//! The program under construction, and the straight-line code every shape
//! shares: assignments, branch conditions, loop counters, prints.
//!
//! Shapes allocate blocks in whatever order suits them (a branch names its
//! join before the join is filled), but *emit* each block's code in one go,
//! in layout order: [`Sketch::begin`] creates the block in the
//! [`FunctionBuilder`], so that blocks are numbered in layout order, and
//! [`Sketch::end`] closes it with its terminator. Variables are created on
//! first mention, destination before operands. That is exactly how the
//! parser numbers blocks and variables, so `parse_module(print_module(m)) ==
//! m` holds by construction.
//!
//! Inside the sketch, blocks and variables have their own numbers (a block
//! is numbered when allocated, a variable when named); [`Sketch::push`] and
//! [`Sketch::end`] translate variables at once, and [`Sketch::finish`]
//! translates the terminators' targets, which may name blocks allocated but
//! not yet placed when the terminator was emitted.
//!
//! # The safety discipline
//!
//! The interpreter rejects a branch or switch on `undef`, and every program
//! must run for all arguments. So the `v` variables come in two kinds:
//!
//! * **safe** ones, `v0 .. v{S-1}` with `S = V / 3`, are assigned in the
//!   entry block and afterwards only from safe operands (the parameters, safe
//!   variables, the innermost loop counter, constants): they always hold a
//!   number;
//! * **wild** ones, the rest, are assigned from anything and first assigned
//!   somewhere in the body (except where a shape initialises some or all of
//!   them in the entry: `many-vars`, `ladder-redundant`), so they are read
//!   before being written on many paths: the chapter's ⊥ case.
//!
//! Branch conditions, switch selectors and counter initial values read only
//! safe operands; prints and wild assignments read anything. Division and
//! remainder only ever divide by a non-zero constant.

use super::rng::Rng;
use crate::ir::{BinOp, Block, Function, FunctionBuilder, InstData, Operand, UnOp, Var};
use std::fmt::Write;

/// The first parameter.
pub(super) fn var_a() -> Var {
    Var::new(0)
}
/// The second parameter.
pub(super) fn var_b() -> Var {
    Var::new(1)
}
/// The condition temporary: written just before each branch that tests it.
pub(super) fn var_c() -> Var {
    Var::new(2)
}
/// Index of `v0`.
const V0: usize = 3;

/// The largest number of times one loop may iterate.
pub(super) const MAX_TRIPS: u32 = 3;

/// What straight-line code may read besides the parameters and variables.
#[derive(Clone, Copy, Debug, Default)]
pub(super) struct Ctx {
    /// The counter of the innermost enclosing loop, always defined there.
    pub(crate) counter: Option<Var>,
}

/// A loop counter: counts down to 0 (`bound == None`, initial value at most
/// [`MAX_TRIPS`], test `k > 0`) or up from 0 (test `k < bound`).
#[derive(Clone, Copy, Debug)]
pub(super) struct Counter {
    pub(crate) var: Var,
    pub(crate) bound: Option<i64>,
}

/// How a block ends, naming sketch blocks and variables (translated by
/// [`Sketch::end`] and [`Sketch::finish`]); the generator's terminators.
#[derive(Clone, Debug)]
pub(super) enum Exit {
    /// `jump L`.
    Jump(Block),
    /// `branch cond, then_dest, else_dest`.
    Branch {
        cond: Operand,
        then_dest: Block,
        else_dest: Block,
    },
    /// `switch value, default, [targets]`.
    Switch {
        value: Operand,
        default: Block,
        targets: Vec<Block>,
    },
    /// `ret v`.
    Ret(Operand),
}

#[derive(Clone, Debug)]
struct SketchBlock {
    /// Label prefix; the label is the prefix and the layout position.
    kind: &'static str,
    /// The function's block, once placed.
    placed: Option<Block>,
}

/// A function being generated (see the module documentation).
#[derive(Debug)]
pub(super) struct Sketch {
    /// The random source of every choice.
    pub(crate) rng: Rng,
    fb: FunctionBuilder,
    /// Every block allocated, by sketch number.
    blocks: Vec<SketchBlock>,
    /// Names of the sketch's variables, and their function variables once
    /// mentioned.
    names: Vec<Box<str>>,
    vars: Vec<Option<Var>>,
    open: bool,
    label: String,
    nvars: u32,
    nsafe: u32,
    ncounters: u32,
}

impl Sketch {
    /// An empty sketch with variables `v0 .. v{vars-1}` (at least one).
    pub(crate) fn new(seed: u64, vars: u32) -> Sketch {
        let nvars = vars.max(1);
        let mut names: Vec<Box<str>> = Vec::with_capacity(V0 + nvars as usize);
        names.extend(["a".into(), "b".into(), "c".into()]);
        names.extend((0..nvars).map(|i| format!("v{i}").into()));
        let mut fb = FunctionBuilder::new("main");
        let mut vars = vec![None; names.len()];
        vars[var_a().index()] = Some(fb.param("a"));
        vars[var_b().index()] = Some(fb.param("b"));
        Sketch {
            rng: Rng::new(seed),
            fb,
            blocks: Vec::new(),
            names,
            vars,
            open: false,
            label: String::new(),
            nvars,
            nsafe: nvars / 3,
            ncounters: 0,
        }
    }

    /// The number of `v` variables.
    pub(crate) fn nvars(&self) -> u32 {
        self.nvars
    }

    /// Variable `v{i}`.
    pub(crate) fn v(&self, i: u32) -> Var {
        debug_assert!(i < self.nvars);
        Var::new(V0 + i as usize)
    }

    /// A fresh variable named `name` (must not clash with another).
    pub(crate) fn new_var(&mut self, name: &str) -> Var {
        let v = Var::new(self.names.len());
        self.names.push(name.into());
        self.vars.push(None);
        v
    }

    /// A fresh loop counter `k0`, `k1`, ...
    pub(crate) fn counter_var(&mut self) -> Var {
        let v = self.new_var(&format!("k{}", self.ncounters));
        self.ncounters += 1;
        v
    }

    /// Allocates a block labelled `kind` followed by its layout position
    /// (`entry` and `exit` are used as they are). It is placed by `begin`.
    pub(crate) fn block(&mut self, kind: &'static str) -> Block {
        let b = Block::new(self.blocks.len());
        self.blocks.push(SketchBlock { kind, placed: None });
        b
    }

    /// Appends `b` to the layout and makes it the block code goes to.
    pub(crate) fn begin(&mut self, b: Block) {
        debug_assert!(!self.open, "block {b} begun inside another");
        let sb = &self.blocks[b.index()];
        assert!(sb.placed.is_none(), "block {b} placed twice");
        self.label.clear();
        self.label.push_str(sb.kind);
        if sb.kind != "entry" && sb.kind != "exit" {
            let _ = write!(self.label, "{}", self.fb.func().layout().len());
        }
        let fb_block = self.fb.block(&self.label);
        self.blocks[b.index()].placed = Some(fb_block);
        self.fb.switch_to(fb_block);
        self.open = true;
    }

    /// The function's variable for sketch variable `v`, created on first
    /// mention.
    fn lower(&mut self, v: &mut Var) {
        let fb = &mut self.fb;
        let names = &self.names;
        *v = *self.vars[v.index()].get_or_insert_with(|| fb.var(&names[v.index()]));
    }

    /// The function's operand for sketch operand `o`.
    fn lower_operand(&mut self, o: &mut Operand) {
        if let Operand::Var(v) = o {
            self.lower(v)
        }
    }

    /// Closes the open block with terminator `t` (whose targets are sketch
    /// blocks, translated by `finish`).
    pub(crate) fn end(&mut self, t: Exit) {
        assert!(self.open, "no open block");
        match t {
            Exit::Jump(b) => self.fb.jump(b),
            Exit::Branch {
                mut cond,
                then_dest,
                else_dest,
            } => {
                self.lower_operand(&mut cond);
                self.fb.branch(cond, then_dest, else_dest)
            }
            Exit::Switch {
                mut value,
                default,
                targets,
            } => {
                self.lower_operand(&mut value);
                self.fb.switch(value, default, &targets)
            }
            Exit::Ret(mut v) => {
                self.lower_operand(&mut v);
                self.fb.ret(Some(v))
            }
        }
        self.open = false;
    }

    /// Appends a copy, unary or binary instruction to the open block.
    pub(crate) fn push(&mut self, mut data: InstData) {
        debug_assert!(self.open, "instruction outside a block");
        // The parser meets the destination before the operands.
        match &mut data {
            InstData::Copy { dst, src } => {
                self.lower(dst);
                self.lower_operand(src);
            }
            InstData::Unary { dst, arg, .. } => {
                self.lower(dst);
                self.lower_operand(arg);
            }
            InstData::Binary { dst, lhs, rhs, .. } => {
                self.lower(dst);
                self.lower_operand(lhs);
                self.lower_operand(rhs);
            }
            other => unreachable!("the generator pushes no {other:?}"),
        }
        self.fb.inst(data);
    }

    /// Appends `print args` to the open block.
    pub(crate) fn print(&mut self, args: &[Operand]) {
        debug_assert!(self.open, "instruction outside a block");
        let mut args = args.to_vec();
        for o in &mut args {
            self.lower_operand(o);
        }
        self.fb.print(&args);
    }

    /// `dst = lhs op rhs`.
    pub(crate) fn binary(&mut self, dst: Var, op: BinOp, lhs: Operand, rhs: Operand) {
        self.push(InstData::Binary { dst, op, lhs, rhs })
    }

    // -----------------------------------------------------------------------
    // Operands

    /// A small constant, sometimes negative.
    pub(crate) fn constant(&mut self) -> i64 {
        self.rng.pick(&[0, 1, 1, 2, 3, 5, 7, 10, 100, -1, -4])
    }

    /// A safe variable, if there is one.
    fn safe_var(&mut self) -> Option<Var> {
        (self.nsafe > 0).then(|| {
            let i = self.rng.below(self.nsafe);
            self.v(i)
        })
    }

    /// A wild variable (any variable when none is wild).
    fn any_var(&mut self) -> Var {
        let i = self.rng.below(self.nvars);
        self.v(i)
    }

    /// A variable that always holds a number: a parameter, a safe variable
    /// or the innermost counter.
    pub(crate) fn safe_var_operand(&mut self, ctx: Ctx) -> Operand {
        match self.rng.below(8) {
            0..=2 => var_a().into(),
            3..=4 => var_b().into(),
            5 if ctx.counter.is_some() => ctx.counter.unwrap().into(),
            _ => self.safe_var().unwrap_or(var_a()).into(),
        }
    }

    /// An operand that always holds a number.
    pub(crate) fn safe_operand(&mut self, ctx: Ctx) -> Operand {
        if self.rng.chance(1, 4) {
            Operand::Const(self.constant())
        } else {
            self.safe_var_operand(ctx)
        }
    }

    /// Any operand: mostly `v` variables, possibly undefined here.
    pub(crate) fn any_operand(&mut self, ctx: Ctx) -> Operand {
        if self.rng.chance(3, 5) {
            self.any_var().into()
        } else {
            self.safe_operand(ctx)
        }
    }

    // -----------------------------------------------------------------------
    // Straight-line code

    /// One random assignment to a `v` variable, following the safety
    /// discipline: a safe destination reads only safe operands.
    pub(crate) fn assign(&mut self, ctx: Ctx) {
        let safe = self.nsafe > 0 && self.rng.chance(1, 3);
        let (dst, x, y) = if safe {
            let d = self.safe_var().unwrap();
            let x = self.safe_var_operand(ctx);
            (d, x, self.safe_operand(ctx))
        } else {
            let i = self.nsafe + self.rng.below(self.nvars - self.nsafe);
            let d = self.v(i);
            let x = if self.rng.chance(4, 5) {
                self.any_var().into()
            } else {
                self.safe_var_operand(ctx)
            };
            (d, x, self.any_operand(ctx))
        };
        self.assign_to(dst, x, y);
    }

    /// `dst = ...` combining `x` and `y` with a random operator.
    pub(crate) fn assign_to(&mut self, dst: Var, x: Operand, y: Operand) {
        let data = match self.rng.below(20) {
            0..=9 => {
                let op = self.rng.pick(&[
                    BinOp::Add,
                    BinOp::Add,
                    BinOp::Add,
                    BinOp::Sub,
                    BinOp::Sub,
                    BinOp::Mul,
                    BinOp::Xor,
                    BinOp::And,
                    BinOp::Or,
                ]);
                InstData::Binary {
                    dst,
                    op,
                    lhs: x,
                    rhs: y,
                }
            }
            10 => {
                let op = self.rng.pick(&[BinOp::Shl, BinOp::Shr]);
                let rhs = Operand::Const(i64::from(self.rng.range(1, 4)));
                InstData::Binary {
                    dst,
                    op,
                    lhs: x,
                    rhs,
                }
            }
            11 => {
                // Only constant, non-zero divisors: division never traps.
                let op = self.rng.pick(&[BinOp::Div, BinOp::Rem]);
                let rhs = Operand::Const(self.rng.pick(&[2, 3, 5, 7, -3]));
                InstData::Binary {
                    dst,
                    op,
                    lhs: x,
                    rhs,
                }
            }
            12..=13 => {
                let op = self.rng.pick(&[
                    BinOp::Eq,
                    BinOp::Ne,
                    BinOp::Lt,
                    BinOp::Le,
                    BinOp::Gt,
                    BinOp::Ge,
                ]);
                InstData::Binary {
                    dst,
                    op,
                    lhs: x,
                    rhs: y,
                }
            }
            14..=17 => InstData::Copy { dst, src: x },
            _ => {
                let op = self.rng.pick(&[UnOp::Neg, UnOp::Not]);
                InstData::Unary { dst, op, arg: x }
            }
        };
        self.push(data)
    }

    /// `print` of one or two variables, with probability `1 / every`.
    pub(crate) fn maybe_print(&mut self, ctx: Ctx, every: u32) {
        if !self.rng.chance(1, every) {
            return;
        }
        let n = self.rng.range(1, 2);
        let args: Vec<Operand> = (0..n)
            .map(|_| match ctx.counter {
                Some(k) if self.rng.chance(1, 6) => k.into(),
                _ => self.any_var().into(),
            })
            .collect();
        self.print(&args)
    }

    /// The code of an ordinary block: `min..=max` assignments, then maybe a
    /// print (one block in six).
    pub(crate) fn code(&mut self, ctx: Ctx, min: u32, max: u32) {
        for _ in 0..self.rng.range(min, max) {
            self.assign(ctx)
        }
        self.maybe_print(ctx, 6);
    }

    /// A branch condition that is never `undef`: a safe variable tested
    /// against zero, or `c = x cmp y` over safe operands.
    pub(crate) fn cond(&mut self, ctx: Ctx) -> Operand {
        if self.rng.chance(1, 5) {
            return self.safe_var_operand(ctx);
        }
        let op = self.rng.pick(&[
            BinOp::Lt,
            BinOp::Le,
            BinOp::Gt,
            BinOp::Ge,
            BinOp::Eq,
            BinOp::Ne,
            BinOp::And,
        ]);
        let x = self.safe_var_operand(ctx);
        let y = self.safe_operand(ctx);
        self.binary(var_c(), op, x, y);
        var_c().into()
    }

    /// A switch selector over `n` targets that is never `undef`: in range
    /// for most arguments, negative or too large for some (the default).
    pub(crate) fn selector(&mut self, ctx: Ctx, n: u32) -> Operand {
        let x = self.safe_var_operand(ctx);
        let n = i64::from(n);
        match self.rng.below(3) {
            0 => self.binary(var_c(), BinOp::Rem, x, Operand::Const(n)),
            1 => self.binary(var_c(), BinOp::Rem, x, Operand::Const(n + 1)),
            _ => {
                let mask = (n.max(2) as u64).next_power_of_two() as i64 - 1;
                self.binary(var_c(), BinOp::And, x, Operand::Const(mask))
            }
        }
        var_c().into()
    }

    /// `v = p op q` from the parameters and constants: an entry-block
    /// definition that always holds a number.
    pub(crate) fn init_var(&mut self, v: Var) {
        let x = self.rng.pick(&[var_a(), var_b()]).into();
        let y = if self.rng.chance(1, 3) {
            self.rng.pick(&[var_a(), var_b()]).into()
        } else {
            Operand::Const(self.constant())
        };
        let op = self
            .rng
            .pick(&[BinOp::Add, BinOp::Sub, BinOp::Xor, BinOp::Mul]);
        self.binary(v, op, x, y);
    }

    /// The entry block's definitions of the safe variables.
    pub(crate) fn init_safe(&mut self) {
        for i in 0..self.nsafe {
            self.init_var(self.v(i));
        }
    }

    /// Entry-block definitions of every other wild variable (the others stay
    /// undefined until the body assigns them).
    pub(crate) fn init_wild(&mut self) {
        for i in (self.nsafe..self.nvars).step_by(2) {
            self.init_var(self.v(i));
        }
    }

    /// Entry-block definitions of every `v` variable.
    pub(crate) fn init_all(&mut self) {
        for i in 0..self.nvars {
            self.init_var(self.v(i));
        }
    }

    // -----------------------------------------------------------------------
    // Loop counters

    /// A new counter for a loop that runs at most `max_trips` times (1 to
    /// [`MAX_TRIPS`]), initialised in the open block from constants and the
    /// parameters.
    pub(crate) fn counter_init(&mut self, max_trips: u32) -> Counter {
        let var = self.counter_var();
        self.counter_init_of(var, max_trips)
    }

    /// Initialises counter variable `var` (see [`Sketch::counter_init`]).
    pub(crate) fn counter_init_of(&mut self, var: Var, max_trips: u32) -> Counter {
        let max_trips = max_trips.clamp(1, MAX_TRIPS);
        if self.rng.chance(1, 4) {
            let bound = i64::from(self.rng.range(1, max_trips));
            self.push(InstData::Copy {
                dst: var,
                src: Operand::Const(0),
            });
            return Counter {
                var,
                bound: Some(bound),
            };
        }
        if self.rng.chance(1, 2) {
            let n = i64::from(self.rng.range(1, max_trips));
            self.push(InstData::Copy {
                dst: var,
                src: Operand::Const(n),
            });
        } else {
            // `p & m` is in 0..=m for every p: 0 trips possible.
            let mask = if max_trips >= 3 { 3 } else { 1 };
            let p = self.rng.pick(&[var_a(), var_b()]).into();
            self.binary(var, BinOp::And, p, Operand::Const(mask));
        }
        Counter { var, bound: None }
    }

    /// `k = k - 1` (or `k = k + 1` for an up-counter).
    pub(crate) fn counter_step(&mut self, k: Counter) {
        let op = if k.bound.is_some() {
            BinOp::Add
        } else {
            BinOp::Sub
        };
        self.binary(k.var, op, k.var.into(), Operand::Const(1));
    }

    /// `c = k > 0` (or `c = k < bound`): whether the loop goes on.
    pub(crate) fn counter_test(&mut self, k: Counter) -> Operand {
        match k.bound {
            None => self.binary(var_c(), BinOp::Gt, k.var.into(), Operand::Const(0)),
            Some(n) => self.binary(var_c(), BinOp::Lt, k.var.into(), Operand::Const(n)),
        }
        var_c().into()
    }

    // -----------------------------------------------------------------------
    // Exit

    /// The exit block's code and `ret`: prints every `v` variable (ten per
    /// line) when `all`, else up to eight consecutive ones from a random
    /// start.
    pub(crate) fn exit_code(&mut self, all: bool) {
        let n = self.nvars;
        let (start, count) = if all {
            (0, n)
        } else {
            (self.rng.below(n), n.min(8))
        };
        let vars: Vec<Operand> = (0..count).map(|i| self.v((start + i) % n).into()).collect();
        for line in vars.chunks(10) {
            self.print(line);
        }
        let r = self.v(start);
        self.end(Exit::Ret(r.into()));
    }

    // -----------------------------------------------------------------------
    // Finishing

    /// The function: `main(a, b)`, with the terminators' targets translated
    /// to the function's blocks.
    pub(crate) fn finish(self) -> Function {
        assert!(!self.open, "a block was left open");
        let map: Vec<Block> = self
            .blocks
            .iter()
            .map(|b| b.placed.expect("a block was allocated but never placed"))
            .collect();
        let mut f = self.fb.finish();
        for b in f.blocks() {
            f.redirect_succs(b, |s| map[s.index()]);
        }
        f
    }
}
