//! A proptest strategy for random non-SSA programs: any CFG (reducible or
//! not, unreachable blocks, self loops, multi-edges, an entry with
//! predecessors), few variables, uses before definitions. Programs may not
//! terminate; tests run them with a small fuel and skip those that run out.

use proptest::prelude::*;
use ssakit::interp::{self, ErrorKind, Outcome, RunOptions};
use ssakit::ir::{BinOp, Block, Function, FunctionBuilder, Module, Operand, UnOp, Var};

/// The argument vectors a program (parameters `a` and `b`) is run on.
pub const ARGS: [[i64; 2]; 3] = [[0, 0], [1, -1], [7, 3]];

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
    /// Variable number (parameters first).
    Var(u8),
    /// A constant.
    Const(i8),
}

/// An instruction choice.
#[derive(Clone, Debug)]
pub enum Ins {
    /// `v = o`.
    Copy(u8, Opd),
    /// `v = o op o` (no division: it can trap).
    Bin(u8, u8, Opd, Opd),
    /// `v = -o` or `v = !o`.
    Un(u8, bool, Opd),
    /// `print o, o`.
    Print(Opd, Opd),
    /// `v = h(o)`, an external call.
    Call(u8, Opd),
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

/// A program: variable count and blocks.
#[derive(Clone, Debug)]
pub struct Program {
    /// Number of ordinary variables (besides parameters `a`, `b`).
    pub vars: u8,
    /// Instructions and terminator of each block.
    pub blocks: Vec<(Vec<Ins>, Term)>,
}

fn opd(nv: u8) -> impl Strategy<Value = Opd> {
    prop_oneof![3 => (0..nv + 2).prop_map(Opd::Var), 1 => (-3i8..4).prop_map(Opd::Const)]
}

fn ins(nv: u8) -> impl Strategy<Value = Ins> {
    prop_oneof![
        3 => (0..nv, opd(nv)).prop_map(|(d, o)| Ins::Copy(d, o)),
        3 => (0..nv, 0u8..16, opd(nv), opd(nv)).prop_map(|(d, op, a, b)| Ins::Bin(d, op, a, b)),
        1 => (0..nv, any::<bool>(), opd(nv)).prop_map(|(d, n, a)| Ins::Un(d, n, a)),
        1 => (opd(nv), opd(nv)).prop_map(|(a, b)| Ins::Print(a, b)),
        1 => (0..nv, opd(nv)).prop_map(|(d, a)| Ins::Call(d, a)),
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

/// Random programs of up to `max_blocks` blocks and `max_vars` variables.
pub fn program(max_blocks: u8, max_vars: u8) -> impl Strategy<Value = Program> {
    (1..=max_blocks, 1..=max_vars).prop_flat_map(|(nb, nv)| {
        prop::collection::vec(
            (prop::collection::vec(ins(nv), 0..5), term(nv, nb)),
            nb as usize,
        )
        .prop_map(move |blocks| Program { vars: nv, blocks })
    })
}

impl Program {
    /// Builds the function `main(a, b)`.
    pub fn build(&self) -> Function {
        let mut fb = FunctionBuilder::new("main");
        let mut vars: Vec<Var> = vec![fb.param("a"), fb.param("b")];
        for k in 0..self.vars {
            vars.push(fb.var(&format!("v{k}")));
        }
        let blocks: Vec<Block> = (0..self.blocks.len())
            .map(|k| fb.block(&format!("b{k}")))
            .collect();
        let o = |x: &Opd| match x {
            Opd::Var(k) => Operand::Var(vars[*k as usize % vars.len()]),
            Opd::Const(c) => Operand::Const(*c as i64),
        };
        let d = |k: &u8| vars[2 + (*k as usize % self.vars as usize)];
        let bl = |k: &u8| blocks[*k as usize % blocks.len()];
        for (k, (insts, t)) in self.blocks.iter().enumerate() {
            fb.switch_to(blocks[k]);
            for i in insts {
                match i {
                    Ins::Copy(x, a) => {
                        fb.copy(d(x), o(a));
                    }
                    Ins::Bin(x, op, a, b) => {
                        let mut op = BinOp::ALL[*op as usize % 16];
                        if matches!(op, BinOp::Div | BinOp::Rem) {
                            op = BinOp::Sub;
                        }
                        fb.binary(d(x), op, o(a), o(b));
                    }
                    Ins::Un(x, neg, a) => {
                        fb.unary(d(x), if *neg { UnOp::Neg } else { UnOp::Not }, o(a));
                    }
                    Ins::Print(a, b) => {
                        fb.print(&[o(a), o(b)]);
                    }
                    Ins::Call(x, a) => {
                        fb.call(Some(d(x)), "h", &[o(a)]);
                    }
                }
            }
            match t {
                Term::Ret(a) => fb.ret(Some(o(a))),
                Term::Jump(b) => fb.jump(bl(b)),
                Term::Branch(c, t, e) => fb.branch(o(c), bl(t), bl(e)),
                Term::Switch(c, dflt, ts) => {
                    let targets: Vec<Block> = ts.iter().map(bl).collect();
                    fb.switch(o(c), bl(dflt), &targets)
                }
            }
        }
        fb.finish()
    }
}
