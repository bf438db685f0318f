//! Execution: the interpreter's main loop over the compiled tables, with an
//! explicit frame stack.

use super::compile::{CFunc, Callee, Code, Op, Term};
use super::error::{ErrorKind, Location, Position, RuntimeError};
use super::{external_result, CallRecord, Outcome, RunOptions, Value};
use crate::ir::{BinOp, Block};

/// Runs function number `entry` of `funcs` on `args`.
pub(super) fn execute(
    funcs: &[CFunc<'_>],
    entry: u32,
    args: &[i64],
    opts: &RunOptions,
) -> Result<Outcome, RuntimeError> {
    let mut m = Machine {
        funcs,
        opts,
        vals: Vec::new(),
        frames: Vec::new(),
        scratch: Vec::new(),
        dyn_insts: 0,
        output: Vec::new(),
        calls: Vec::new(),
    };
    let ret = m.exec(entry, args)?;
    Ok(Outcome {
        output: m.output,
        ret,
        calls: m.calls,
        dyn_insts: m.dyn_insts,
    })
}

/// An activation: the function, where it is, and its variables
/// `vals[base..base + nvars]`.
#[derive(Clone, Copy, Debug)]
struct Frame {
    func: u32,
    block: u32,
    /// Index of the next ordinary instruction of `block`.
    ip: usize,
    base: usize,
    /// The caller's slot receiving the result.
    ret_dst: Option<u32>,
}

struct Machine<'a, 'm> {
    funcs: &'a [CFunc<'m>],
    opts: &'a RunOptions,
    /// The variables of every frame, the callee's on top.
    vals: Vec<Value>,
    /// Suspended callers (the running frame is kept apart).
    frames: Vec<Frame>,
    /// Values read before any is written: the sources of a parallel copy or
    /// of an edge's phis, the arguments of an external call.
    scratch: Vec<Value>,
    dyn_insts: u64,
    output: Vec<Vec<Value>>,
    calls: Vec<CallRecord>,
}

#[inline]
fn read(vals: &[Value], base: usize, op: Op) -> Value {
    match op {
        Op::Slot(s) => vals[base + s as usize],
        Op::Const(c) => Value::Int(c),
        Op::Undef => Value::Undef,
    }
}

impl Machine<'_, '_> {
    fn error(&self, func: u32, block: u32, position: Position, kind: ErrorKind) -> RuntimeError {
        let f = self.funcs[func as usize].src;
        let b = &f.blocks[Block(block)];
        let inst = match position {
            Position::Inst(i) => b.phis.iter().chain(&b.insts).nth(i).copied(),
            Position::Terminator => None,
        };
        RuntimeError {
            kind,
            location: Some(Location {
                function: f.name.clone(),
                block: b.name.clone(),
                position,
                inst,
            }),
        }
    }

    /// Charges `cost` steps for the instruction at `(func, block, position)`.
    #[inline]
    fn charge(&mut self, cost: u64, fr: &Frame, position: Position) -> Result<(), RuntimeError> {
        if cost > self.opts.fuel - self.dyn_insts {
            let fuel = self.opts.fuel;
            return Err(self.error(fr.func, fr.block, position, ErrorKind::OutOfFuel { fuel }));
        }
        self.dyn_insts += cost;
        Ok(())
    }

    /// A new frame for function `g` at its entry block, on top of the value
    /// stack, every variable `undef`; the caller binds the parameters.
    fn enter(&mut self, g: u32, ret_dst: Option<u32>) -> Result<Frame, RuntimeError> {
        let gf = &self.funcs[g as usize];
        let base = self.vals.len();
        self.vals.resize(base + gf.nvars, Value::Undef);
        let fr = Frame {
            func: g,
            block: gf.entry,
            ip: 0,
            base,
            ret_dst,
        };
        if gf.blocks[gf.entry as usize].nphis > 0 {
            let kind = ErrorKind::MissingPhiArg { pred: None };
            return Err(self.error(g, gf.entry, Position::Inst(0), kind));
        }
        Ok(fr)
    }

    fn exec(&mut self, entry: u32, args: &[i64]) -> Result<Option<Value>, RuntimeError> {
        let funcs = self.funcs;
        let ef = &funcs[entry as usize];
        if args.len() != ef.params.len() {
            return Err(RuntimeError {
                kind: ErrorKind::ArityMismatch {
                    callee: ef.src.name.clone(),
                    expected: ef.params.len(),
                    got: args.len(),
                },
                location: None,
            });
        }
        let mut fr = self.enter(entry, None)?;
        for (&p, &a) in ef.params.iter().zip(args) {
            self.vals[p as usize] = Value::Int(a);
        }
        'frame: loop {
            let block = &funcs[fr.func as usize].blocks[fr.block as usize];
            // Ordinary instructions.
            while let Some(code) = block.insts.get(fr.ip) {
                let pos = Position::Inst(block.nphis as usize + fr.ip);
                let base = fr.base;
                let cost = match code {
                    Code::ParCopy { dsts, .. } => dsts.len() as u64,
                    _ => 1,
                };
                self.charge(cost, &fr, pos)?;
                match code {
                    Code::Copy { dst, src } => {
                        self.vals[base + *dst as usize] = read(&self.vals, base, *src);
                    }
                    Code::Unary { dst, op, arg } => {
                        let v = match read(&self.vals, base, *arg) {
                            Value::Int(a) => Value::Int(op.eval(a)),
                            Value::Undef => Value::Undef,
                        };
                        self.vals[base + *dst as usize] = v;
                    }
                    Code::Binary { dst, op, lhs, rhs } => {
                        let a = read(&self.vals, base, *lhs);
                        let b = read(&self.vals, base, *rhs);
                        let divides = matches!(op, BinOp::Div | BinOp::Rem);
                        let v = match (a, b) {
                            (Value::Int(a), Value::Int(b)) => op
                                .eval(a, b)
                                .map(Value::Int)
                                .ok_or(ErrorKind::DivisionByZero(*op)),
                            (_, Value::Int(0)) if divides => Err(ErrorKind::DivisionByZero(*op)),
                            (_, Value::Undef) if divides => Err(ErrorKind::DivisionByUndef(*op)),
                            _ => Ok(Value::Undef),
                        };
                        let v = match v {
                            Ok(v) => v,
                            Err(kind) => return Err(self.error(fr.func, fr.block, pos, kind)),
                        };
                        self.vals[base + *dst as usize] = v;
                    }
                    Code::Print { args } => {
                        let line = args.iter().map(|&a| read(&self.vals, base, a)).collect();
                        self.output.push(line);
                    }
                    Code::ParCopy { dsts, srcs } => {
                        // All reads, then all writes.
                        self.scratch.clear();
                        for &s in srcs.iter() {
                            let v = read(&self.vals, base, s);
                            self.scratch.push(v);
                        }
                        for (&d, &v) in dsts.iter().zip(&self.scratch) {
                            self.vals[base + d as usize] = v;
                        }
                    }
                    Code::Call {
                        dst,
                        callee: Callee::External { name, seed },
                        args,
                    } => {
                        self.scratch.clear();
                        for &a in args.iter() {
                            let v = read(&self.vals, base, a);
                            self.scratch.push(v);
                        }
                        let result = external_result(*seed, &self.scratch);
                        if self.opts.trace_calls {
                            self.calls.push(CallRecord {
                                func: (*name).into(),
                                args: self.scratch.clone(),
                                result,
                            });
                        }
                        if let Some(d) = dst {
                            self.vals[base + *d as usize] = result;
                        }
                    }
                    Code::Call {
                        dst,
                        callee: Callee::Internal(g),
                        args,
                    } => {
                        let gf = &funcs[*g as usize];
                        if args.len() != gf.params.len() {
                            let kind = ErrorKind::ArityMismatch {
                                callee: gf.src.name.clone(),
                                expected: gf.params.len(),
                                got: args.len(),
                            };
                            return Err(self.error(fr.func, fr.block, pos, kind));
                        }
                        // Live frames: the suspended callers, this one, the callee.
                        if self.frames.len() + 2 > self.opts.max_depth {
                            let kind = ErrorKind::CallDepthExceeded {
                                limit: self.opts.max_depth,
                            };
                            return Err(self.error(fr.func, fr.block, pos, kind));
                        }
                        let callee = self.enter(*g, *dst)?;
                        // The caller's slots stay below the callee's.
                        for (&p, &a) in gf.params.iter().zip(args.iter()) {
                            let v = read(&self.vals, base, a);
                            self.vals[callee.base + p as usize] = v;
                        }
                        fr.ip += 1;
                        self.frames.push(fr);
                        fr = callee;
                        continue 'frame;
                    }
                }
                fr.ip += 1;
            }

            // The terminator.
            self.charge(1, &fr, Position::Terminator)?;
            let cur = fr.base;
            let edge = match &block.term {
                Term::Jump(e) => e,
                Term::Branch {
                    cond,
                    then_edge,
                    else_edge,
                } => match read(&self.vals, cur, *cond) {
                    Value::Int(0) => else_edge,
                    Value::Int(_) => then_edge,
                    Value::Undef => {
                        let kind = ErrorKind::BranchOnUndef;
                        return Err(self.error(fr.func, fr.block, Position::Terminator, kind));
                    }
                },
                Term::Switch {
                    value,
                    default,
                    targets,
                } => match read(&self.vals, cur, *value) {
                    Value::Int(v) => usize::try_from(v)
                        .ok()
                        .and_then(|i| targets.get(i))
                        .unwrap_or(default),
                    Value::Undef => {
                        let kind = ErrorKind::SwitchOnUndef;
                        return Err(self.error(fr.func, fr.block, Position::Terminator, kind));
                    }
                },
                Term::Ret(v) => {
                    let v = v.map(|v| read(&self.vals, cur, v));
                    self.vals.truncate(fr.base);
                    let Some(caller) = self.frames.pop() else {
                        return Ok(v);
                    };
                    if let Some(d) = fr.ret_dst {
                        self.vals[caller.base + d as usize] = v.unwrap_or(Value::Undef);
                    }
                    fr = caller;
                    continue 'frame;
                }
            };

            // Take the edge: the target's phis as one parallel copy.
            let target = &funcs[fr.func as usize].blocks[edge.target as usize];
            if target.nphis > 0 {
                let from = fr.block;
                fr.block = edge.target;
                fr.ip = 0;
                self.charge(u64::from(target.nphis), &fr, Position::Inst(0))?;
                if let Some(k) = edge.missing {
                    let pred = funcs[fr.func as usize].src.blocks[Block(from)].name.clone();
                    let kind = ErrorKind::MissingPhiArg { pred: Some(pred) };
                    return Err(self.error(fr.func, fr.block, Position::Inst(k as usize), kind));
                }
                self.scratch.clear();
                for &(_, s) in edge.moves.iter() {
                    let v = read(&self.vals, cur, s);
                    self.scratch.push(v);
                }
                for (&(d, _), &v) in edge.moves.iter().zip(&self.scratch) {
                    self.vals[cur + d as usize] = v;
                }
            } else {
                fr.block = edge.target;
                fr.ip = 0;
            }
        }
    }
}
