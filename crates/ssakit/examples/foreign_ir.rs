//! A compiler author's own IR, using ssakit's phi placement and
//! parallel-copy sequentialization without converting to ssakit's IR.
//!
//! ```sh
//! cargo run -p ssakit --example foreign_ir
//! ```
//!
//! `MyBlock` and `MyInst` below are the client's types, not ssakit's. The
//! program is the chapter's running example (section 13: blocks r, A, B,
//! C, D, E; `x`, `y`, `tmp` assigned in B, C and D). The example
//!
//! 1. hands ssakit only the edges, as a [`CsrGraph`] (any type implementing
//!    the [`Graph`] trait would do), and asks for the dominator tree, the
//!    dominance frontiers (DF_all, section 13.2) and, per variable, DF⁺ of
//!    its definition blocks (section 13.3), by the chapter's worklist and by
//!    the linear-time [`IdfCalculator`], which must agree;
//! 2. inserts its own phi instructions at DF⁺ (minimal SSA's placement);
//! 3. after a (pretend) register allocation, sequentializes the parallel
//!    copy on the edge D → A (section 13.7) over its own register type,
//!    once with a scratch register and once with swaps, and checks both
//!    sequences against the parallel semantics on a register file.
//!
//! The test `tests/foreign_ir.rs` compares what it prints with a golden
//! file.

use ssakit::analysis::{CsrGraph, DomTree, DominanceFrontiers, IdfCalculator, WorklistIdf};
use ssakit::destruct::parallel_copy::{Location, Move, Sequentializer, Src};
use ssakit::ir::Block;
use std::fmt::Write;

/// The client's instructions: its own variables are plain names.
#[derive(Clone, Debug)]
enum MyInst {
    /// `dst = op(args)`.
    Assign {
        dst: &'static str,
        args: Vec<&'static str>,
    },
    /// `dst = phi(...)`, one operand per predecessor (named later, by
    /// renaming, which this example leaves to the client).
    Phi { dst: &'static str },
}

/// The client's basic block: a name, instructions, successor indices.
#[derive(Clone, Debug)]
struct MyBlock {
    name: &'static str,
    insts: Vec<MyInst>,
    succs: Vec<usize>,
}

fn block(name: &'static str, insts: Vec<MyInst>, succs: Vec<usize>) -> MyBlock {
    MyBlock { name, insts, succs }
}

fn assign(dst: &'static str, args: &[&'static str]) -> MyInst {
    MyInst::Assign {
        dst,
        args: args.to_vec(),
    }
}

/// The chapter's example in the client's IR; block 0 is the entry.
fn chapter_example() -> Vec<MyBlock> {
    let (a, b, c, d, e) = (1, 2, 3, 4, 5);
    vec![
        block("r", vec![], vec![a]),
        block("A", vec![], vec![b, c]),
        block("B", vec![assign("y", &["0"]), assign("x", &["0"])], vec![d]),
        block(
            "C",
            vec![
                assign("tmp", &["x"]),
                assign("x", &["y"]),
                assign("y", &["tmp"]),
            ],
            vec![d, e],
        ),
        block("D", vec![assign("x", &["f", "x", "y"])], vec![e, a]),
        block("E", vec![], vec![]),
    ]
}

/// The client's physical registers: a dense index is all ssakit needs.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
struct Reg(u8);

impl Location for Reg {
    fn index(self) -> usize {
        self.0 as usize
    }
}

/// Applies `moves` to `regs` one after the other, as the machine would.
fn execute(moves: &[Move<Reg, i64>], regs: &mut [i64]) {
    for m in moves {
        match *m {
            Move::Copy { dst, src } => regs[dst.index()] = regs[src.index()],
            Move::Swap(a, b) => regs.swap(a.index(), b.index()),
            Move::Set { dst, val } => regs[dst.index()] = val,
        }
    }
}

fn show_moves(out: &mut String, moves: &[Move<Reg, i64>]) {
    for m in moves {
        let _ = match *m {
            Move::Copy { dst, src } => writeln!(out, "    r{} = r{}", dst.0, src.0),
            Move::Swap(a, b) => writeln!(out, "    swap r{}, r{}", a.0, b.0),
            Move::Set { dst, val } => writeln!(out, "    r{} = {val}", dst.0),
        };
    }
}

/// Everything the example does, as the text it prints.
pub fn report() -> String {
    let mut out = String::new();
    let mut blocks = chapter_example();
    let name = |b: Block, blocks: &[MyBlock]| blocks[b.index()].name;

    // 1. The graph: ssakit sees nodes 0..n and edges, nothing else.
    let edges: Vec<(u32, u32)> = blocks
        .iter()
        .enumerate()
        .flat_map(|(i, b)| b.succs.iter().map(move |&s| (i as u32, s as u32)))
        .collect();
    let graph = CsrGraph::from_edges(blocks.len(), Block::new(0), &edges);
    let tree = DomTree::new(&graph);
    let frontiers = DominanceFrontiers::new(&graph, &tree);
    let _ = writeln!(out, "dominators and frontiers:");
    for (i, b) in blocks.iter().enumerate() {
        let n = Block::new(i);
        let idom = tree.idom(n).map_or("-", |p| name(p, &blocks));
        let df: Vec<&str> = frontiers.df(n).iter().map(|&y| name(y, &blocks)).collect();
        let _ = writeln!(out, "  {}: idom {idom}, DF = {{{}}}", b.name, df.join(", "));
    }

    // 2. Phi placement: Defs(v) from the client's instructions, DF⁺ by both
    // algorithms, then the client's own phi at the front of each block.
    let mut vars: Vec<&'static str> = Vec::new();
    let mut defs: Vec<Vec<Block>> = Vec::new();
    for (i, b) in blocks.iter().enumerate() {
        for inst in &b.insts {
            if let MyInst::Assign { dst, .. } = inst {
                let v = match vars.iter().position(|w| w == dst) {
                    Some(v) => v,
                    None => {
                        vars.push(dst);
                        defs.push(Vec::new());
                        vars.len() - 1
                    }
                };
                if defs[v].last() != Some(&Block::new(i)) {
                    defs[v].push(Block::new(i));
                }
            }
        }
    }
    let mut linear = IdfCalculator::new(&graph, &tree);
    let mut worklist = WorklistIdf::new(&frontiers);
    let _ = writeln!(out, "phi placement (minimal SSA):");
    for (v, var) in vars.iter().enumerate() {
        let idf = linear.idf(&defs[v]);
        assert_eq!(idf, worklist.idf(&defs[v]), "the two DF+ algorithms agree");
        let names = |s: &[Block]| s.iter().map(|&b| name(b, &blocks)).collect::<Vec<_>>();
        let _ = writeln!(
            out,
            "  {var}: Defs = {{{}}}, DF+ = {{{}}}",
            names(&defs[v]).join(", "),
            names(&idf).join(", ")
        );
        for b in idf {
            blocks[b.index()].insts.insert(0, MyInst::Phi { dst: var });
        }
    }
    let _ = writeln!(out, "the client's blocks with their phis:");
    for b in &blocks {
        let insts: Vec<String> = b
            .insts
            .iter()
            .map(|i| match i {
                MyInst::Phi { dst } => format!("{dst} = phi"),
                MyInst::Assign { dst, args } => format!("{dst} = {}", args.join(" ")),
            })
            .collect();
        let insts = if insts.is_empty() {
            "(empty)".to_string()
        } else {
            insts.join("; ")
        };
        let _ = writeln!(out, "  {}: {}", b.name, insts);
    }

    // 3. Out of SSA on the client's registers. Say x lives in r1 and y in
    // r2 around the loop (the swap of C), and the edge D -> A must also set
    // r3 = r5 and r4 = 7 (a constant): (r1, r2, r3, r4) = (r2, r1, r5, 7).
    let copies = [
        (Reg(1), Src::Loc(Reg(2))),
        (Reg(2), Src::Loc(Reg(1))),
        (Reg(3), Src::Loc(Reg(5))),
        (Reg(4), Src::Val(7)),
    ];
    let _ = writeln!(
        out,
        "parallel copy on D -> A: (r1, r2, r3, r4) = (r2, r1, r5, 7)"
    );
    let before: Vec<i64> = vec![0, 10, 20, 30, 40, 50, 0];
    let mut expected = before.clone();
    for &(dst, src) in &copies {
        expected[dst.index()] = match src {
            Src::Loc(s) => before[s.index()],
            Src::Val(v) => v,
        };
    }
    let mut seq = Sequentializer::new();
    let mut moves = Vec::new();
    seq.with_temp(&copies, |_| Reg(6), &mut moves)
        .expect("destinations are distinct");
    let _ = writeln!(out, "  with the scratch register r6:");
    show_moves(&mut out, &moves);
    let mut regs = before.clone();
    execute(&moves, &mut regs);
    assert_eq!(regs[..6], expected[..6], "same effect as the parallel copy");
    moves.clear();
    seq.with_swaps(&copies, &mut moves)
        .expect("destinations are distinct");
    let _ = writeln!(out, "  with swaps:");
    show_moves(&mut out, &moves);
    let mut regs = before.clone();
    execute(&moves, &mut regs);
    assert_eq!(regs, expected, "same effect as the parallel copy");
    let _ = writeln!(
        out,
        "both sequences give r1..r5 = {:?} from {:?}",
        &expected[1..6],
        &before[1..6]
    );
    out
}

fn main() {
    print!("{}", report());
}
