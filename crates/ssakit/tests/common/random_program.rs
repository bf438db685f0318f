//! A proptest strategy for random non-SSA programs: any CFG (reducible or
//! not, unreachable blocks, self loops, multi-edges, an entry with
//! predecessors), uses before definitions, parallel copies (swaps and
//! rotations of the same variables, wide ones), safe division.
//!
//! Every program terminates and never branches on `undef`, so that nearly
//! every run is compared (`tests/random_programs.rs` asserts it):
//!
//! * **Bounded trip counts.** Every backward edge (to a block of lower or
//!   equal number, which every cycle has) decrements the parameter `t`, the
//!   trip budget, and is taken only while `t > 0`: a `jump` or a `branch`
//!   with one backward target tests `t` in the block itself (a `branch c, X,
//!   Y` becomes `branch (c != 0) & (t > 0), X, Y`, self loops and latches
//!   that branch back and out stay so), other terminators go through a
//!   guard block per (block, target) that tests `t` and leaves to the exit
//!   block.
//! * **Defined conditions.** The first `defined` variables are assigned in
//!   the entry block and only ever from parameters, constants and each
//!   other; conditions, switch values and divisors read only those. The
//!   other variables may be read before they are assigned (`undef`).
//! * **Safe division.** A divisor is a non-zero constant or a defined value
//!   made odd (`q = x | 1`).

use proptest::prelude::*;
use ssakit::interp::{self, ErrorKind, Outcome, RunOptions};
use ssakit::ir::{BinOp, Block, Function, FunctionBuilder, Module, Operand, UnOp, Var};

/// The argument vectors a program (parameters `a`, `b` and the trip budget
/// `t`) is run on.
pub const ARGS: [[i64; 3]; 3] = [[0, 0, 3], [1, -1, 8], [7, 3, 20]];

/// Fuel of the original's runs: far more than any program needs (at most
/// `t + 1` passes over its blocks).
pub const FUEL: u64 = 200_000;

/// Runs the first function of `m` on `args` with `fuel`, recording its
/// external calls, so that runs compare on them too.
pub fn run_module(m: &Module, args: &[i64], fuel: u64) -> Result<Outcome, ErrorKind> {
    let opts = RunOptions {
        fuel,
        trace_calls: true,
        ..Default::default()
    };
    interp::run(m, &m.functions[0], args, &opts).map_err(|e| e.kind)
}

/// [`run_module`] on a module of `f` alone.
pub fn run(f: &Function, args: &[i64], fuel: u64) -> Result<Outcome, ErrorKind> {
    let m = Module {
        functions: vec![f.clone()],
    };
    run_module(&m, args, fuel)
}

/// An operand choice: variable index, or a small constant.
#[derive(Clone, Debug)]
pub enum Opd {
    /// Variable number (parameters first), taken modulo the variables the
    /// place may read.
    Var(u8),
    /// A constant.
    Const(i8),
}

/// An instruction choice (variable numbers taken modulo the variables).
#[derive(Clone, Debug)]
pub enum Ins {
    /// `v = o`.
    Copy(u8, Opd),
    /// `v = o op o`; a division or remainder by a variable divides by
    /// `q = o | 1`, by the constant 0 by 3.
    Bin(u8, u8, Opd, Opd),
    /// `v = -o` or `v = !o`.
    Un(u8, bool, Opd),
    /// `print o, o`.
    Print(Opd, Opd),
    /// `v = h(o)`, an external call.
    Call(u8, Opd),
    /// Rotates the values of the variables (of the first one's kind,
    /// defined or not, duplicates dropped): `(x0, x1, .., xk) = (x1, .., xk,
    /// x0)` as one parallel copy, or as sequential copies through a
    /// temporary (`s = x0; x0 = x1; ..; xk = s`) when the flag is false.
    /// Two variables are a swap.
    Rotate(Vec<u8>, bool),
    /// A parallel copy of any sources to distinct destinations.
    ParCopy(Vec<(u8, Opd)>),
    /// Prints the variables [`Ins::Rotate`] of the same numbers rotates.
    Show(Vec<u8>),
    /// Sets each of those variables to a different value (`a + j` for the
    /// `j`-th).
    Set(Vec<u8>),
}

/// A terminator choice (block numbers taken modulo the block count).
#[derive(Clone, Debug)]
pub enum Term {
    /// `ret o`.
    Ret(Opd),
    /// `jump b`.
    Jump(u8),
    /// `branch o, b, b`.
    Branch(Opd, u8, u8),
    /// `switch o, b, [b...]`.
    Switch(Opd, u8, Vec<u8>),
}

/// A program: its variables, blocks, and what its exit block prints.
#[derive(Clone, Debug)]
pub struct Program {
    /// Number of ordinary variables `v0`.. (besides parameters `a`, `b`, `t`).
    pub vars: u8,
    /// How many of them (the first) are defined: assigned at the top of the
    /// entry block, from parameters and constants, and only ever from
    /// defined values.
    pub defined: u8,
    /// The initial values of the defined variables (cycled).
    pub init: Vec<Opd>,
    /// Instructions and terminator of each block.
    pub blocks: Vec<(Vec<Ins>, Term)>,
    /// The variables the exit block prints.
    pub exit_prints: Vec<u8>,
}

fn opd(nv: u8) -> impl Strategy<Value = Opd> {
    prop_oneof![3 => (0..nv + 3).prop_map(Opd::Var), 1 => (-3i8..4).prop_map(Opd::Const)]
}

fn ins(nv: u8) -> impl Strategy<Value = Ins> {
    prop_oneof![
        3 => (0..nv, opd(nv)).prop_map(|(d, o)| Ins::Copy(d, o)),
        3 => (0..nv, 0u8..16, opd(nv), opd(nv)).prop_map(|(d, op, a, b)| Ins::Bin(d, op, a, b)),
        1 => (0..nv, any::<bool>(), opd(nv)).prop_map(|(d, n, a)| Ins::Un(d, n, a)),
        1 => (opd(nv), opd(nv)).prop_map(|(a, b)| Ins::Print(a, b)),
        1 => (0..nv, opd(nv)).prop_map(|(d, a)| Ins::Call(d, a)),
        4 => (prop::collection::vec(0..nv, 2..5), any::<bool>()).prop_map(|(v, p)| Ins::Rotate(v, p)),
        1 => prop::collection::vec((0..nv, opd(nv)), 1..9).prop_map(Ins::ParCopy),
    ]
}

fn term(nv: u8, nb: u8) -> impl Strategy<Value = Term> {
    prop_oneof![
        1 => opd(nv).prop_map(Term::Ret),
        2 => (0..nb).prop_map(Term::Jump),
        4 => (opd(nv), 0..nb, 0..nb).prop_map(|(c, t, e)| Term::Branch(c, t, e)),
        1 => (opd(nv), 0..nb, prop::collection::vec(0..nb, 0..4)).prop_map(|(c, d, t)| Term::Switch(c, d, t)),
    ]
}

/// Random programs of up to `max_blocks` blocks and `max_vars` variables;
/// half of them with a rotating loop (see [`with_rotating_loop`]).
pub fn program(max_blocks: u8, max_vars: u8) -> impl Strategy<Value = Program> {
    let rotating = (
        any_program(max_blocks, max_vars),
        any::<u8>(),
        any::<u8>(),
        2u8..5,
        opd(max_vars),
    )
        .prop_map(|(p, k, first, n, c)| {
            let vs: Vec<u8> = (0..n).map(|j| first.wrapping_add(j)).collect();
            with_rotating_loop(p, k, &vs, c)
        });
    prop_oneof![any_program(max_blocks, max_vars), rotating]
}

/// `p` with a reachable block (the `k`-th other than the entry, if there
/// is one) made a loop that prints the variables `vs`, rotates them and
/// branches on `c` back to itself or on to the next block, with the entry
/// setting them first and the exit block printing them: after
/// construction and copy propagation, the loop's phis read each other in a
/// cycle (the swap problem, or a rotation of more variables), which
/// destruction must break with a temporary.
pub fn with_rotating_loop(mut p: Program, k: u8, vs: &[u8], c: Opd) -> Program {
    let nb = p.blocks.len() as u8;
    // A block reachable from the entry.
    let mut reachable = vec![0u8];
    let mut seen = vec![false; nb as usize];
    seen[0] = true;
    let mut next = 0;
    while next < reachable.len() {
        let succs: Vec<u8> = match &p.blocks[reachable[next] as usize].1 {
            Term::Ret(_) => vec![],
            Term::Jump(x) => vec![*x],
            Term::Branch(_, x, y) => vec![*x, *y],
            Term::Switch(_, d, ts) => std::iter::once(d).chain(ts).copied().collect(),
        };
        next += 1;
        for x in succs {
            let x = x % nb;
            if !seen[x as usize] {
                seen[x as usize] = true;
                reachable.push(x);
            }
        }
    }
    // Not the entry if another block is reachable: the entry sets the
    // defined variables each time round.
    let k = match reachable.len() {
        1 => 0,
        n => reachable[1 + k as usize % (n - 1)],
    };
    let vs: Vec<u8> = vs.iter().map(|v| v % p.vars).collect();
    if k != 0 {
        p.blocks[0].0.insert(0, Ins::Set(vs.clone()));
    }
    let block = &mut p.blocks[k as usize];
    block.0 = vec![Ins::Show(vs.clone()), Ins::Rotate(vs.clone(), k % 2 == 0)];
    block.1 = Term::Branch(c, k, (k + 1) % nb);
    p.exit_prints.extend(vs);
    p
}

/// Random programs of up to `max_blocks` blocks and `max_vars` variables.
fn any_program(max_blocks: u8, max_vars: u8) -> impl Strategy<Value = Program> {
    (1..=max_blocks, 1..=max_vars).prop_flat_map(|(nb, nv)| {
        (
            0..=nv,
            prop::collection::vec(opd(0), 1..4),
            prop::collection::vec(
                (prop::collection::vec(ins(nv), 0..5), term(nv, nb)),
                nb as usize,
            ),
            prop::collection::vec(0..nv, 0..=nv as usize),
        )
            .prop_map(move |(defined, init, blocks, exit_prints)| Program {
                vars: nv,
                defined,
                init,
                blocks,
                exit_prints,
            })
    })
}

/// Names of the builder's variables for [`Program::build`].
struct Vars {
    /// `a`, `b`, `t`, then the defined variables: what a defined value may
    /// read.
    defined: Vec<Var>,
    /// `a`, `b`, `t`, then every ordinary variable.
    all: Vec<Var>,
    /// The ordinary variables.
    ordinary: Vec<Var>,
    /// How many ordinary variables are defined.
    nd: usize,
}

impl Vars {
    fn is_defined(&self, k: u8) -> bool {
        (k as usize % self.ordinary.len()) < self.nd
    }

    fn dst(&self, k: u8) -> Var {
        self.ordinary[k as usize % self.ordinary.len()]
    }

    /// Operand `x` for a place that must be defined (`def`) or not.
    fn opd(&self, x: &Opd, def: bool) -> Operand {
        let pool = if def { &self.defined } else { &self.all };
        match x {
            Opd::Var(k) => Operand::Var(pool[*k as usize % pool.len()]),
            Opd::Const(c) => Operand::Const(*c as i64),
        }
    }

    /// The variables of `ks` of the kind of the first (of the other kind if
    /// the first's has only one and the other more), without duplicates.
    fn same_kind(&self, ks: &[u8]) -> Vec<Var> {
        let n = self.ordinary.len();
        let mut def = self.is_defined(ks[0]);
        let size = |def: bool| if def { self.nd } else { n - self.nd };
        if size(def) < 2 && size(!def) >= 2 {
            def = !def;
        }
        let pool = if def {
            &self.ordinary[..self.nd]
        } else {
            &self.ordinary[self.nd..]
        };
        let mut out: Vec<Var> = Vec::new();
        for &k in ks {
            let v = pool[k as usize % pool.len()];
            if !out.contains(&v) {
                out.push(v);
            }
        }
        out
    }
}

impl Program {
    /// Builds the function `main(a, b, t)`.
    pub fn build(&self) -> Function {
        let mut fb = FunctionBuilder::new("main");
        let params = [fb.param("a"), fb.param("b"), fb.param("t")];
        let ordinary: Vec<Var> = (0..self.vars).map(|k| fb.var(&format!("v{k}"))).collect();
        let nd = self.defined.min(self.vars) as usize;
        let mut vars = Vars {
            defined: params.to_vec(),
            all: params.to_vec(),
            ordinary: ordinary.clone(),
            nd,
        };
        vars.defined.extend(&ordinary[..nd]);
        vars.all.extend(&ordinary);
        let t = params[2];
        // Scratch: the guard's test, a condition made 0/1, a divisor, a
        // rotation's temporary.
        let (g, k, q, s) = (fb.var("g"), fb.var("k"), fb.var("q"), fb.var("s"));
        let nb = self.blocks.len();
        let blocks: Vec<Block> = (0..nb).map(|k| fb.block(&format!("b{k}"))).collect();
        let exit = fb.block("exit");
        let mut guards: Vec<(usize, usize, Block)> = Vec::new();
        for (bi, (insts, term)) in self.blocks.iter().enumerate() {
            fb.switch_to(blocks[bi]);
            if bi == 0 {
                for (j, &v) in ordinary[..nd].iter().enumerate() {
                    let x = vars.opd(&self.init[j % self.init.len()], true);
                    fb.copy(v, x);
                }
            }
            for i in insts {
                self.build_inst(&mut fb, &vars, i, q, s);
            }
            let tgt = |x: &u8| *x as usize % nb;
            let backward = |x: &u8| tgt(x) <= bi;
            let mut guard = |fb: &mut FunctionBuilder, x: &u8| -> Block {
                if !backward(x) {
                    return blocks[tgt(x)];
                }
                let key = (bi, tgt(x));
                if let Some(&(_, _, gb)) = guards.iter().find(|&&(a, b, _)| (a, b) == key) {
                    return gb;
                }
                let gb = fb.block(&format!("g{}_{}", key.0, key.1));
                guards.push((key.0, key.1, gb));
                gb
            };
            let dec = |fb: &mut FunctionBuilder| {
                fb.binary(t, BinOp::Sub, Operand::Var(t), Operand::Const(1));
                fb.binary(g, BinOp::Gt, Operand::Var(t), Operand::Const(0));
            };
            match term {
                Term::Ret(a) => fb.ret(Some(vars.opd(a, false))),
                Term::Jump(x) if backward(x) => {
                    dec(&mut fb);
                    fb.branch(Operand::Var(g), blocks[tgt(x)], exit);
                }
                Term::Jump(x) => fb.jump(blocks[tgt(x)]),
                Term::Branch(c, x, y) if backward(x) != backward(y) => {
                    // Taken backward only while t > 0, then forward.
                    dec(&mut fb);
                    let c = vars.opd(c, true);
                    let (op, back, fwd) = if backward(x) {
                        (BinOp::Ne, x, y)
                    } else {
                        (BinOp::Eq, y, x)
                    };
                    fb.binary(k, op, c, Operand::Const(0));
                    fb.binary(g, BinOp::And, Operand::Var(g), Operand::Var(k));
                    fb.branch(Operand::Var(g), blocks[tgt(back)], blocks[tgt(fwd)]);
                }
                Term::Branch(c, x, y) => {
                    let c = vars.opd(c, true);
                    let (x, y) = (guard(&mut fb, x), guard(&mut fb, y));
                    fb.branch(c, x, y)
                }
                Term::Switch(c, d, ts) => {
                    let c = vars.opd(c, true);
                    let d = guard(&mut fb, d);
                    let targets: Vec<Block> = ts.iter().map(|x| guard(&mut fb, x)).collect();
                    fb.switch(c, d, &targets)
                }
            }
        }
        for &(_, b, gb) in &guards {
            fb.switch_to(gb);
            fb.binary(t, BinOp::Sub, Operand::Var(t), Operand::Const(1));
            fb.binary(g, BinOp::Gt, Operand::Var(t), Operand::Const(0));
            fb.branch(Operand::Var(g), blocks[b], exit);
        }
        fb.switch_to(exit);
        let printed: Vec<Operand> = self
            .exit_prints
            .iter()
            .map(|&k| Operand::Var(vars.dst(k)))
            .collect();
        if !printed.is_empty() {
            fb.print(&printed);
        }
        fb.ret(Some(Operand::Var(t)));
        fb.finish()
    }

    fn build_inst(&self, fb: &mut FunctionBuilder, vars: &Vars, i: &Ins, q: Var, s: Var) {
        match i {
            Ins::Copy(x, a) => {
                fb.copy(vars.dst(*x), vars.opd(a, vars.is_defined(*x)));
            }
            Ins::Bin(x, op, a, b) => {
                let op = BinOp::ALL[*op as usize % 16];
                let def = vars.is_defined(*x);
                let lhs = vars.opd(a, def);
                let rhs = if matches!(op, BinOp::Div | BinOp::Rem) {
                    match vars.opd(b, true) {
                        Operand::Const(0) => Operand::Const(3),
                        Operand::Var(r) => {
                            fb.binary(q, BinOp::Or, Operand::Var(r), Operand::Const(1));
                            Operand::Var(q)
                        }
                        c => c,
                    }
                } else {
                    vars.opd(b, def)
                };
                fb.binary(vars.dst(*x), op, lhs, rhs);
            }
            Ins::Un(x, neg, a) => {
                let op = if *neg { UnOp::Neg } else { UnOp::Not };
                fb.unary(vars.dst(*x), op, vars.opd(a, vars.is_defined(*x)));
            }
            Ins::Print(a, b) => {
                fb.print(&[vars.opd(a, false), vars.opd(b, false)]);
            }
            Ins::Call(x, a) => {
                let a = vars.opd(a, vars.is_defined(*x));
                fb.call(Some(vars.dst(*x)), "h", &[a]);
            }
            Ins::Rotate(ks, parallel) => {
                let vs = vars.same_kind(ks);
                if vs.len() < 2 {
                    return;
                }
                if *parallel {
                    let copies: Vec<(Var, Operand)> = (0..vs.len())
                        .map(|j| (vs[j], Operand::Var(vs[(j + 1) % vs.len()])))
                        .collect();
                    fb.par_copy(&copies);
                } else {
                    fb.copy(s, Operand::Var(vs[0]));
                    for w in vs.windows(2) {
                        fb.copy(w[0], Operand::Var(w[1]));
                    }
                    fb.copy(vs[vs.len() - 1], Operand::Var(s));
                }
            }
            Ins::Show(ks) => {
                let vs: Vec<Operand> = vars.same_kind(ks).into_iter().map(Operand::Var).collect();
                fb.print(&vs);
            }
            Ins::Set(ks) => {
                for (j, v) in vars.same_kind(ks).into_iter().enumerate() {
                    fb.binary(
                        v,
                        BinOp::Add,
                        vars.opd(&Opd::Var(0), true),
                        Operand::Const(j as i64),
                    );
                }
            }
            Ins::ParCopy(entries) => {
                let mut copies: Vec<(Var, Operand)> = Vec::new();
                for (x, a) in entries {
                    let d = vars.dst(*x);
                    if copies.iter().all(|&(e, _)| e != d) {
                        copies.push((d, vars.opd(a, vars.is_defined(*x))));
                    }
                }
                fb.par_copy(&copies);
            }
        }
    }
}

/// How the runs of sampled programs ended (each program on every vector of
/// [`ARGS`]).
#[derive(Clone, Debug, Default)]
pub struct Census {
    /// Runs that finished: the property tests compare these.
    pub finished: usize,
    /// Runs that ran out of fuel.
    pub out_of_fuel: usize,
    /// Runs that branched or switched on `undef`.
    pub branch_on_undef: usize,
    /// Runs that failed otherwise (a division trap).
    pub other_error: usize,
}

impl Census {
    /// All runs.
    pub fn runs(&self) -> usize {
        self.finished + self.out_of_fuel + self.branch_on_undef + self.other_error
    }
}

/// Samples `n` programs of `program(max_blocks, max_vars)` with a fixed
/// seed and counts how their runs end with `fuel`.
pub fn census(max_blocks: u8, max_vars: u8, n: usize, fuel: u64) -> Census {
    use proptest::strategy::ValueTree;
    let mut runner = proptest::test_runner::TestRunner::deterministic();
    let strategy = program(max_blocks, max_vars);
    let mut c = Census::default();
    for _ in 0..n {
        let p = strategy.new_tree(&mut runner).unwrap().current();
        let f = p.build();
        for a in ARGS {
            match run(&f, &a, fuel) {
                Ok(_) => c.finished += 1,
                Err(ErrorKind::OutOfFuel { .. }) => c.out_of_fuel += 1,
                Err(ErrorKind::BranchOnUndef | ErrorKind::SwitchOnUndef) => c.branch_on_undef += 1,
                Err(_) => c.other_error += 1,
            }
        }
    }
    c
}
