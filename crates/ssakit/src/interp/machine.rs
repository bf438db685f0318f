//! Execution: the interpreter's main loop over the compiled tables, with an
//! explicit frame stack.

use super::compile::{CFunc, Callee, Code, Edge, ExecCode, Op, OpCode, Term};
use super::error::{ErrorKind, Location, Position, RuntimeError};
use super::external::{external_result, fnv1a, uninterpreted_result, FNV_OFFSET_BASIS};
use super::memory::State;
use super::options::{Mode, RunOptions};
use super::outcome::{CallRecord, OpRecord, Outcome, Output};
use super::Value;
use crate::eval::{self, Trap};
use crate::ir::{BinOp, Block, OpKind, OpTrap, Var, VarNames};

/// Runs function number `entry` of `funcs` on `args`, its prints and calls
/// going to `out` as they happen, its loads, stores and globals on `world`.
pub(super) fn execute(
    funcs: &[CFunc<'_>],
    mode: Mode,
    entry: u32,
    args: &[i64],
    opts: &RunOptions,
    out: &mut dyn Output,
    world: &mut State,
) -> Result<Outcome, RuntimeError> {
    let mut m = Machine {
        funcs,
        opts,
        world,
        vals: Vec::new(),
        frames: Vec::new(),
        scratch: Vec::new(),
        dyn_insts: 0,
        out,
        line: Vec::new(),
        mode,
        state: Some(FNV_OFFSET_BASIS),
        visits: match opts.count_blocks {
            true => funcs.iter().map(|f| vec![0; f.blocks.len()]).collect(),
            false => Vec::new(),
        },
    };
    let mut rets = m.exec(entry, args)?.into_iter();
    Ok(Outcome {
        output: Vec::new(),
        ret: rets.next(),
        extra_rets: rets.collect(),
        calls: Vec::new(),
        ops: Vec::new(),
        dyn_insts: m.dyn_insts,
        block_visits: m.visits,
    })
}

/// An activation: the function, where it is, and its variables
/// `vals[base..base + nvars]`. A suspended caller's `ip` is just past its
/// call, whose results receive the callee's values.
#[derive(Clone, Copy, Debug)]
struct Frame {
    func: u32,
    block: u32,
    /// Index of the next ordinary instruction of `block`.
    ip: usize,
    base: usize,
}

/// How a block is left: along an edge, or by a return (its values in
/// the machine's `scratch`).
enum Exit<'t> {
    Edge(&'t Edge),
    Ret,
}

struct Machine<'a, 'm> {
    funcs: &'a [CFunc<'m>],
    opts: &'a RunOptions,
    /// The memory and globals the operations of the set access.
    world: &'a mut State,
    /// The variables of every frame, the callee's on top.
    vals: Vec<Value>,
    /// Suspended callers (the running frame is kept apart).
    frames: Vec<Frame>,
    /// Values read before any is written: the sources of a parallel copy or
    /// of an edge's phis, the arguments of an external call, the values
    /// returned.
    scratch: Vec<Value>,
    dyn_insts: u64,
    /// Where prints and traced calls go.
    out: &'a mut dyn Output,
    /// The values of the `print` being executed.
    line: Vec<Value>,
    mode: Mode,
    /// The effect state of [`Mode::Uninterpreted`]; `None` once an `undef`
    /// reached an operation with an effect.
    state: Option<u64>,
    /// Entries into each block of each function, if
    /// [`RunOptions::count_blocks`] (else empty).
    visits: Vec<Vec<u64>>,
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
        let b = Block::from_u32(block);
        let inst = match position {
            Position::Inst(i) => f.block_all_insts(b).nth(i),
            Position::Terminator => None,
        };
        RuntimeError {
            kind,
            location: Some(Location {
                function: f.name().into(),
                block: f.block_name(b).into(),
                position,
                inst,
            }),
        }
    }

    /// The value of `op` read by the instruction at `position` of `fr`
    /// (whose variables start at `base`): with
    /// [`RunOptions::strict_reads`], a variable holding `undef` is an error.
    #[inline]
    fn get(
        &self,
        base: usize,
        op: Op,
        fr: &Frame,
        position: Position,
    ) -> Result<Value, RuntimeError> {
        let v = read(&self.vals, base, op);
        match op {
            Op::Slot(s) if v == Value::Undef && self.opts.strict_reads => {
                Err(self.undefined(fr, position, s))
            }
            _ => Ok(v),
        }
    }

    /// Runs an operation of the set: its value (`undef` for one with no
    /// result), or the trap it raises. An operand that is `undef` makes
    /// the value `undef`, or is a trap where the operation may trap (its
    /// behaviour would be undefined); a store of `undef` is a trap too
    /// (memory holds bytes, not ⊥).
    fn exec_op(
        &mut self,
        x: &ExecCode,
        base: usize,
        fr: &Frame,
        pos: Position,
    ) -> Result<Result<Value, OpTrap>, RuntimeError> {
        let mut words = [0i64; 3];
        let mut undef = false;
        for (k, &a) in x.args.iter().enumerate() {
            match self.get(base, a, fr, pos)?.as_int() {
                Some(w) => words[k.min(2)] = w,
                None => undef = true,
            }
        }
        let words = &words[..x.args.len().min(3)];
        let op = x.opcode;
        if undef {
            return Ok(match op.effects().may_trap() || op.effects().writes() {
                true => Err(OpTrap::Undef),
                false => Ok(Value::Undef),
            });
        }
        let imm = |k: usize| x.imms.get(k).copied().unwrap_or(0);
        Ok(match op.kind() {
            OpKind::Compute => op.eval(&x.imms, words).map(Value::Int),
            OpKind::Select => Ok(Value::Int(match words.get(2) {
                Some(0) => words.get(1).copied().unwrap_or(0),
                _ => words.first().copied().unwrap_or(0),
            })),
            OpKind::Memory(access) => {
                // The address: an `i32` is unsigned (WebAssembly's memory),
                // an `i64` all its bits; plus the offset immediate.
                let a = words.first().copied().unwrap_or(0);
                let a = match x.addr32 {
                    true => a as u32 as u64,
                    false => a as u64,
                };
                let Some(addr) = a.checked_add(imm(0) as u64) else {
                    return Ok(Err(OpTrap::OutOfBounds));
                };
                let n = u64::from(access.bytes);
                if access.store {
                    let v = words.get(1).copied().unwrap_or(0);
                    self.world
                        .memory
                        .write(addr, &v.to_le_bytes()[..n as usize])
                        .map(|()| Value::Undef)
                } else {
                    self.world.memory.read(addr, n).map(|v| {
                        let shift = 64 - 8 * n as u32;
                        Value::Int(match access.signed {
                            true => ((v << shift) as i64) >> shift,
                            false => v as i64,
                        })
                    })
                }
            }
            OpKind::GlobalGet => Ok(self
                .world
                .globals
                .get(imm(0) as usize)
                .copied()
                .unwrap_or(Value::Undef)),
            OpKind::GlobalSet => {
                let g = imm(0) as usize;
                if self.world.globals.len() <= g {
                    self.world.globals.resize(g + 1, Value::Undef);
                }
                self.world.globals[g] = Value::Int(words.first().copied().unwrap_or(0));
                Ok(Value::Undef)
            }
            OpKind::MemorySize => Ok(Value::Int(self.world.memory.size_pages() as i64)),
            OpKind::MemoryGrow => {
                let delta = words.first().copied().unwrap_or(0) as u32 as u64;
                Ok(Value::Int(
                    self.world.memory.grow(delta).map_or(-1, |old| old as i64),
                ))
            }
        })
    }

    #[cold]
    fn undefined(&self, fr: &Frame, position: Position, slot: u32) -> RuntimeError {
        let f = self.funcs[fr.func as usize].src;
        let name = VarNames::new(f)[Var::from_u32(slot)].into();
        let kind = ErrorKind::UndefinedVariable { name };
        self.error(fr.func, fr.block, position, kind)
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
    fn enter(&mut self, g: u32) -> Result<Frame, RuntimeError> {
        let gf = &self.funcs[g as usize];
        let base = self.vals.len();
        self.vals.resize(base + gf.nvars, Value::Undef);
        let fr = Frame {
            func: g,
            block: gf.entry,
            ip: 0,
            base,
        };
        if let Some(v) = self.visits.get_mut(g as usize) {
            v[gf.entry as usize] += 1;
        }
        if gf.blocks[gf.entry as usize].nphis > 0 {
            let kind = ErrorKind::MissingPhiArg { pred: None };
            return Err(self.error(g, gf.entry, Position::Inst(0), kind));
        }
        Ok(fr)
    }

    /// Runs the entry function; its returned values.
    ///
    /// The loop runs the ordinary instructions of the current block
    /// ([`Machine::inst`]), then its terminator ([`Machine::terminator`]):
    /// a call suspends the frame and enters the callee, a return resumes
    /// the caller, and an edge moves to its target through its phis
    /// ([`Machine::take_edge`]).
    fn exec(&mut self, entry: u32, args: &[i64]) -> Result<Vec<Value>, RuntimeError> {
        let funcs = self.funcs;
        let ef = &funcs[entry as usize];
        if args.len() != ef.params.len() {
            return Err(RuntimeError {
                kind: ErrorKind::ArityMismatch {
                    callee: ef.src.name().into(),
                    expected: ef.params.len(),
                    got: args.len(),
                },
                location: None,
            });
        }
        let mut fr = self.enter(entry)?;
        for (&p, &a) in ef.params.iter().zip(args) {
            self.vals[p as usize] = Value::Int(a);
        }
        'frame: loop {
            let block = &funcs[fr.func as usize].blocks[fr.block as usize];
            while let Some(code) = block.insts.get(fr.ip) {
                let pos = Position::Inst(block.nphis as usize + fr.ip);
                if let Some(callee) = self.inst(code, &fr, pos)? {
                    fr.ip += 1;
                    self.frames.push(fr);
                    fr = callee;
                    continue 'frame;
                }
                fr.ip += 1;
            }
            match self.terminator(&block.term, &fr)? {
                Exit::Edge(edge) => self.take_edge(edge, &mut fr)?,
                Exit::Ret => {
                    self.vals.truncate(fr.base);
                    let Some(caller) = self.frames.pop() else {
                        return Ok(std::mem::take(&mut self.scratch));
                    };
                    self.bind_results(&fr, &caller)?;
                    fr = caller;
                }
            }
        }
    }

    /// Runs the ordinary instruction `code` of `fr`, at `pos` of its block:
    /// `Some` callee frame (its parameters bound) for a call of a function
    /// of the program, `None` when the instruction is done.
    #[inline(always)]
    fn inst(
        &mut self,
        code: &Code<'_>,
        fr: &Frame,
        pos: Position,
    ) -> Result<Option<Frame>, RuntimeError> {
        let base = fr.base;
        let cost = match code {
            Code::ParCopy { dsts, .. } => dsts.len() as u64,
            _ => 1,
        };
        self.charge(cost, fr, pos)?;
        match code {
            Code::Copy { dst, src } => {
                // A copy moves `undef` even with strict reads (Bril's
                // `id` may copy an `undef`).
                self.vals[base + *dst as usize] = read(&self.vals, base, *src);
            }
            Code::Unary { dst, op, arg } => {
                let v = eval::unary(*op, self.get(base, *arg, fr, pos)?);
                self.vals[base + *dst as usize] = v;
            }
            Code::Binary { dst, op, lhs, rhs } => {
                let a = self.get(base, *lhs, fr, pos)?;
                let b = self.get(base, *rhs, fr, pos)?;
                let v = match eval::binary(*op, a, b) {
                    Ok(v) => v,
                    Err(trap) => return Err(self.binary_trap(*op, trap, fr, pos)),
                };
                self.vals[base + *dst as usize] = v;
            }
            Code::Print { args, bools } => self.print(args, bools, fr, pos)?,
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
                results,
                callee: Callee::External { name, seed },
                args,
            } => self.external_call(name, *seed, args, results, fr, pos)?,
            Code::Exec(x) => self.exec_code(x, fr, pos)?,
            Code::Op(op) => {
                self.read_args(&op.args, fr, pos)?;
                self.uninterpreted_op(op, base);
            }
            Code::Call {
                callee: Callee::Internal(g),
                args,
                ..
            } => return self.call(*g, args, fr, pos).map(Some),
        }
        Ok(None)
    }

    /// The values of `args` into `scratch`, in order.
    #[inline(always)]
    fn read_args(&mut self, args: &[Op], fr: &Frame, pos: Position) -> Result<(), RuntimeError> {
        self.scratch.clear();
        for &a in args.iter() {
            let v = self.get(fr.base, a, fr, pos)?;
            self.scratch.push(v);
        }
        Ok(())
    }

    /// The error of a binary operation that trapped.
    #[cold]
    fn binary_trap(&self, op: BinOp, trap: Trap, fr: &Frame, pos: Position) -> RuntimeError {
        let kind = match trap {
            Trap::DivisionByZero => ErrorKind::DivisionByZero(op),
            Trap::DivisionByUndef => ErrorKind::DivisionByUndef(op),
        };
        self.error(fr.func, fr.block, pos, kind)
    }

    /// A `print` of `args` (the ones flagged in `bools` shown as booleans).
    fn print(
        &mut self,
        args: &[Op],
        bools: &[bool],
        fr: &Frame,
        pos: Position,
    ) -> Result<(), RuntimeError> {
        let mut line = std::mem::take(&mut self.line);
        line.clear();
        for (&a, &b) in args.iter().zip(bools.iter()) {
            line.push(match self.get(fr.base, a, fr, pos)? {
                Value::Int(v) if b => Value::Bool(v != 0),
                v => v,
            });
        }
        self.out.print(&line);
        self.line = line;
        Ok(())
    }

    /// A call of the external function `name` (its hash state after the
    /// name is `seed`): its result from the hash of its arguments, traced
    /// with [`RunOptions::trace_calls`].
    #[inline]
    fn external_call(
        &mut self,
        name: &str,
        seed: u64,
        args: &[Op],
        results: &[u32],
        fr: &Frame,
        pos: Position,
    ) -> Result<(), RuntimeError> {
        self.read_args(args, fr, pos)?;
        let result = match self.mode {
            Mode::Strict => external_result(seed, &self.scratch),
            Mode::Uninterpreted => self.uninterpreted_call(seed, results, fr.base),
        };
        if self.opts.trace_calls {
            self.out.call(CallRecord {
                func: name.into(),
                args: self.scratch.clone(),
                result,
            });
        }
        if let Some(&d) = results.first() {
            self.vals[fr.base + d as usize] = result;
        }
        Ok(())
    }

    /// An operation of the set: its value to its result, or, where it
    /// traps, the hash of its uninterpreted fallback ([`Mode::Uninterpreted`])
    /// or the trap as an error.
    #[inline]
    fn exec_code(&mut self, x: &ExecCode, fr: &Frame, pos: Position) -> Result<(), RuntimeError> {
        let base = fr.base;
        let v = match self.exec_op(x, base, fr, pos)? {
            Ok(v) => v,
            // Uninterpreted: where it would trap, the hash.
            Err(_) if x.fallback.is_some() => {
                let op = x.fallback.as_deref().expect("a fallback");
                self.read_args(&op.args, fr, pos)?;
                self.uninterpreted_op(op, base);
                return Ok(());
            }
            Err(trap) => {
                let kind = ErrorKind::Trap { op: x.opcode, trap };
                return Err(self.error(fr.func, fr.block, pos, kind));
            }
        };
        if let Some(r) = x.result {
            self.vals[base + r as usize] = v;
        }
        Ok(())
    }

    /// A call of function number `g` of the program with `args`: the
    /// callee's frame, its parameters bound, after the checks of arity and
    /// call depth.
    #[inline]
    fn call(
        &mut self,
        g: u32,
        args: &[Op],
        fr: &Frame,
        pos: Position,
    ) -> Result<Frame, RuntimeError> {
        let funcs = self.funcs;
        let gf = &funcs[g as usize];
        if args.len() != gf.params.len() {
            let kind = ErrorKind::ArityMismatch {
                callee: gf.src.name().into(),
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
        let callee = self.enter(g)?;
        // The caller's slots stay below the callee's.
        for (&p, &a) in gf.params.iter().zip(args.iter()) {
            let v = self.get(fr.base, a, fr, pos)?;
            self.vals[callee.base + p as usize] = v;
        }
        Ok(callee)
    }

    /// Runs the terminator `term` of the current block: the edge to take,
    /// or a return with the values in `scratch`.
    #[inline(always)]
    fn terminator<'t>(&mut self, term: &'t Term, fr: &Frame) -> Result<Exit<'t>, RuntimeError> {
        let at = Position::Terminator;
        self.charge(1, fr, at)?;
        let cur = fr.base;
        Ok(Exit::Edge(match term {
            Term::Jump(e) => e,
            Term::Branch {
                cond,
                then_edge,
                else_edge,
            } => match self.get(cur, *cond, fr, at)?.as_int() {
                Some(0) => else_edge,
                Some(_) => then_edge,
                None => {
                    let kind = ErrorKind::BranchOnUndef;
                    return Err(self.error(fr.func, fr.block, at, kind));
                }
            },
            Term::Switch {
                value,
                default,
                targets,
            } => match self.get(cur, *value, fr, at)?.as_int() {
                Some(v) => usize::try_from(v)
                    .ok()
                    .and_then(|i| targets.get(i))
                    .unwrap_or(default),
                None => {
                    let kind = ErrorKind::SwitchOnUndef;
                    return Err(self.error(fr.func, fr.block, at, kind));
                }
            },
            Term::Ret(vals) => {
                self.read_args(vals, fr, at)?;
                return Ok(Exit::Ret);
            }
            Term::Unreachable => {
                let kind = ErrorKind::Unreachable;
                return Err(self.error(fr.func, fr.block, at, kind));
            }
        }))
    }

    /// Moves `fr` along `edge` to its target: the target's phis as one
    /// parallel copy.
    #[inline]
    fn take_edge(&mut self, edge: &Edge, fr: &mut Frame) -> Result<(), RuntimeError> {
        let funcs = self.funcs;
        let target = &funcs[fr.func as usize].blocks[edge.target as usize];
        if let Some(v) = self.visits.get_mut(fr.func as usize) {
            v[edge.target as usize] += 1;
        }
        let from = fr.block;
        fr.block = edge.target;
        fr.ip = 0;
        if target.nphis == 0 {
            return Ok(());
        }
        self.charge(u64::from(target.nphis), fr, Position::Inst(0))?;
        if let Some(k) = edge.missing {
            let pred = funcs[fr.func as usize]
                .src
                .block_name(Block::from_u32(from))
                .into();
            let kind = ErrorKind::MissingPhiArg { pred: Some(pred) };
            return Err(self.error(fr.func, fr.block, Position::Inst(k as usize), kind));
        }
        let cur = fr.base;
        self.scratch.clear();
        for &(_, s) in edge.moves.iter() {
            let v = read(&self.vals, cur, s);
            self.scratch.push(v);
        }
        for (&(d, _), &v) in edge.moves.iter().zip(&self.scratch) {
            self.vals[cur + d as usize] = v;
        }
        Ok(())
    }

    /// The hash of an uninterpreted function from `seed` (its name's, and
    /// its immediates'), the effect state if `reads_state`, and the
    /// arguments in `scratch`; `None` if any of them is `undef`.
    fn uninterpreted_hash(&self, seed: u64, reads_state: bool) -> Option<u64> {
        let mut h = seed;
        if reads_state {
            h = fnv1a(h, &self.state?.to_le_bytes());
        }
        for a in &self.scratch {
            h = fnv1a(h, &a.as_int()?.to_le_bytes());
        }
        Some(h)
    }

    /// Runs `op` on the arguments in `scratch` (see "Uninterpreted
    /// operations" in the module documentation).
    fn uninterpreted_op(&mut self, op: &OpCode<'_>, base: usize) {
        let h = self.uninterpreted_hash(op.seed, op.reads_state);
        for (k, (&d, &b)) in op.results.iter().zip(op.bools.iter()).enumerate() {
            let v = h.map_or(Value::Undef, |h| uninterpreted_result(h, k, b));
            self.vals[base + d as usize] = v;
        }
        if op.recorded {
            self.state = h;
            if self.opts.trace_calls {
                self.out.op(OpRecord {
                    op: op.name.into(),
                    imms: op.imms.clone(),
                    args: self.scratch.clone(),
                    results: op
                        .results
                        .iter()
                        .map(|&d| self.vals[base + d as usize])
                        .collect(),
                });
            }
        }
    }

    /// An external call in [`Mode::Uninterpreted`], its arguments in
    /// `scratch`: result 0 is returned, results from 1 on are written to
    /// their variables, and the state advances.
    fn uninterpreted_call(&mut self, seed: u64, results: &[u32], base: usize) -> Value {
        let h = self.state.map(|s| fnv1a(seed, &s.to_le_bytes()));
        let first = h.map_or(Value::Undef, |h| external_result(h, &self.scratch));
        for (k, &d) in results.iter().enumerate().skip(1) {
            let v = h.map_or(Value::Undef, |h| {
                external_result(fnv1a(h, &(k as u64).to_le_bytes()), &self.scratch)
            });
            self.vals[base + d as usize] = v;
        }
        self.state = match first {
            Value::Undef => None,
            _ => self.uninterpreted_hash(h.unwrap_or(seed), false),
        };
        first
    }

    /// Binds the values `callee` returned (in `scratch`) to the results of
    /// the call `caller` is suspended at: a call with no result ignores
    /// them, a bare `ret` makes every result `undef`, and otherwise their
    /// numbers must agree.
    fn bind_results(&mut self, callee: &Frame, caller: &Frame) -> Result<(), RuntimeError> {
        let funcs = self.funcs;
        let block = &funcs[caller.func as usize].blocks[caller.block as usize];
        let Code::Call { results, .. } = &block.insts[caller.ip - 1] else {
            unreachable!("a suspended frame is just past a call")
        };
        let returned = self.scratch.len();
        match (results.len(), returned) {
            (0, _) => {}
            (n, m) if n == m => {
                for (&d, &v) in results.iter().zip(&self.scratch) {
                    self.vals[caller.base + d as usize] = v;
                }
            }
            (_, 0) => {
                for &d in results.iter() {
                    self.vals[caller.base + d as usize] = Value::Undef;
                }
            }
            (expected, _) => {
                let kind = ErrorKind::ResultCountMismatch {
                    callee: funcs[callee.func as usize].src.name().into(),
                    returned,
                    expected,
                };
                let pos = Position::Inst(block.nphis as usize + caller.ip - 1);
                return Err(self.error(caller.func, caller.block, pos, kind));
            }
        }
        Ok(())
    }
}
