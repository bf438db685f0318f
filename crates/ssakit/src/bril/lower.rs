//! Bril's syntax tree into ssakit's IR.
//!
//! * **Blocks.** A label starts a block; a block without a terminator
//!   falls through into the next (a `jump` in the IR), and the last one
//!   returns (`ret`, or `unreachable` in a function with a return type:
//!   falling off its end is a runtime error). Code after a terminator
//!   and before the next label is never executed and is dropped. Code
//!   before the first label is the entry block, named `entry` (`entry.1`,
//!   `entry.2`, ... if the function has such a label); when the function
//!   starts with a label that some jump targets, an empty entry falls
//!   through into it, so that the entry has no predecessor.
//! * **Instructions.** `const` and `id` are copies, `add mul sub div eq lt
//!   gt le ge and or` binary operators, `not` the unary `!`, `call` a call
//!   (with or without result), `print` a print; `nop` is nothing (but is
//!   counted, see [`Lowered::costs`]); `undef` is `x = undef`.
//! * **SSA.** The old `x: T = phi a b .A .B` and the current `x: T = get`
//!   are phis. A `get` or `phi` must open its block; a `set x y` must close
//!   it (only `set`s and the terminator after it), and gives the phi `x` of
//!   a successor its operand from this block (`docs/lang/ssa2.md`: "Put
//!   `set` at the end of one basic block and `get` at the beginning of a
//!   successor block"). A predecessor with no `set x` gives `undef`.
//! * **Types.** `int` is `i64`, `bool` is [`Type::Bool`]; every operation
//!   is checked against Bril's signature. Anything else (memory, float,
//!   char, speculation, ...) is an error naming the instruction.
//! * **Names** go through `names::encode`.

use super::ast::{Code, Func, Instr, Literal, Loc, Program, Ty};
use super::names::encode;
use super::Error;
use crate::entity::EntityVec;
use crate::ir::{
    BinOp, Block, Cfg, Function, InstData, Module, Operand, PhiArg, Symbols, Terminator, Type,
    UnOp, Var,
};
use rustc_hash::FxHashMap;
use std::sync::Arc;

/// A lowered program.
///
/// ```
/// use ssakit::bril::{read, Syntax};
/// let src = "@main {\n  a: int = const 1;\n  nop;\n.next:\n  print a;\n}";
/// let lowered = read(src, Syntax::Text).unwrap();
/// assert_eq!(lowered.module.functions.len(), 1);
/// // `const` and `nop` in the entry, `print` after `.next` (labels not counted).
/// let f = &lowered.module.functions[0];
/// let costs: Vec<u64> = f.layout().iter().map(|&b| lowered.costs[0][b]).collect();
/// assert_eq!(costs, [2, 1]);
/// ```
#[derive(Clone, Debug)]
pub struct Lowered {
    /// The module, functions in program order.
    pub module: Module,
    /// `costs[f][b]`: how many Bril instructions (labels excluded) block
    /// `b` of function `f` holds as written, the instructions `brili`
    /// counts each time the block runs: with the entries into each block
    /// ([`RunOptions::count_blocks`](crate::interp::RunOptions)) they give
    /// `brili -p`'s `total_dyn_inst`.
    pub costs: Vec<EntityVec<Block, u64>>,
}

/// Why the extension of an unsupported opcode, for the error.
fn extension(op: &str) -> Option<&'static str> {
    Some(match op {
        "alloc" | "free" | "store" | "load" | "ptradd" => "memory",
        "fadd" | "fsub" | "fmul" | "fdiv" | "feq" | "flt" | "fle" | "fgt" | "fge" => "float",
        "ceq" | "clt" | "cle" | "cgt" | "cge" | "char2int" | "int2char" => "char",
        "speculate" | "commit" | "guard" => "speculation",
        "bitcast" | "float2bits" | "bits2float" => "bitcast",
        _ => return None,
    })
}

/// A Bril type as an IR type, or why not.
fn ir_type(t: &Ty) -> Result<Type, String> {
    match t {
        Ty::Int => Ok(Type::I64),
        Ty::Bool => Ok(Type::Bool),
        Ty::Other(s) => {
            let ext = match s.as_str() {
                "float" => "float",
                "char" => "char",
                _ if s.starts_with("ptr") => "memory",
                _ => return Err(format!("unknown type `{s}`")),
            };
            Err(format!("type `{s}` is not supported ({ext} extension)"))
        }
    }
}

/// The Bril name of an IR type (`int`, `bool`).
pub(super) fn bril_type(t: Type) -> Option<Ty> {
    match t {
        Type::I64 => Some(Ty::Int),
        Type::Bool => Some(Ty::Bool),
        _ => None,
    }
}

struct Sig {
    params: Vec<Type>,
    ret: Option<Type>,
}

/// Lowers a Bril program into a module.
///
/// ```
/// use ssakit::bril::{lower, parse, Syntax};
/// let p = parse("@main { x: int = const 2; y: int = add x x; print y; }", Syntax::Text).unwrap();
/// let m = lower(&p).unwrap().module;
/// assert!(ssakit::text::print_module(&m).contains("y = x + x"));
/// let float = parse("@main { x: float = const 1.5; }", Syntax::Text).unwrap();
/// assert!(lower(&float).unwrap_err().describe().contains("float"));
/// ```
pub fn lower(p: &Program) -> Result<Lowered, Error> {
    let mut sigs: FxHashMap<&str, Sig> = FxHashMap::default();
    let mut symbols = Symbols::new();
    for f in &p.functions {
        let err = |m: String| Error::located(Some(&f.name), &f.loc, m, "");
        let mut params = Vec::new();
        for (_, t) in &f.args {
            params.push(ir_type(t).map_err(err)?);
        }
        let ret = f.ret.as_ref().map(ir_type).transpose().map_err(err)?;
        if sigs.insert(&f.name, Sig { params, ret }).is_some() {
            return Err(err(format!("duplicate function `@{}`", f.name)));
        }
        symbols.callee(&encode(&f.name));
    }
    let symbols = Arc::new(symbols);
    let mut module = Module::default();
    let mut costs = Vec::new();
    for f in &p.functions {
        let (func, cost) = FuncLowering::new(f, &sigs, symbols.clone()).run()?;
        module.functions.push(func);
        costs.push(cost);
    }
    Ok(Lowered { module, costs })
}

/// A block as written: its label, instructions and terminator.
struct RawBlock<'p> {
    label: Option<&'p str>,
    body: Vec<&'p Instr>,
    term: Option<&'p Instr>,
}

struct FuncLowering<'p> {
    src: &'p Func,
    sigs: &'p FxHashMap<&'p str, Sig>,
    func: Function,
    vars: FxHashMap<&'p str, Var>,
}

const TERMINATORS: [&str; 3] = ["jmp", "br", "ret"];

impl<'p> FuncLowering<'p> {
    fn new(src: &'p Func, sigs: &'p FxHashMap<&'p str, Sig>, symbols: Arc<Symbols>) -> Self {
        FuncLowering {
            src,
            sigs,
            func: Function::with_symbols(&encode(&src.name), symbols),
            vars: FxHashMap::default(),
        }
    }

    fn err(&self, loc: &Loc, msg: impl Into<String>) -> Error {
        Error::located(Some(&self.src.name), loc, msg.into(), "")
    }

    fn ierr(&self, i: &Instr, msg: impl Into<String>) -> Error {
        Error::located(Some(&self.src.name), &i.loc, msg.into(), &i.op)
    }

    fn run(mut self) -> Result<(Function, EntityVec<Block, u64>), Error> {
        let src = self.src;
        // Parameters, then every destination, with one type each.
        for (name, t) in &src.args {
            let ty = ir_type(t).expect("checked with the signatures");
            if self.vars.contains_key(name.as_str()) {
                return Err(self.err(&src.loc, format!("duplicate parameter `{name}`")));
            }
            let v = self.func.new_var(&encode(name), ty);
            self.func.add_param(v);
            self.vars.insert(name, v);
        }
        self.func
            .set_returns(Some(self.sigs[src.name.as_str()].ret.into_iter().collect()));
        for c in &src.body {
            let Code::Instr(i) = c else { continue };
            self.check_op(i)?;
            let Some(d) = &i.dest else { continue };
            let Some(t) = &i.ty else {
                return Err(self.ierr(i, format!("`{d}` has no type")));
            };
            let ty = ir_type(t).map_err(|m| self.ierr(i, m))?;
            match self.vars.get(d.as_str()) {
                Some(&v) if self.func.var_type(v) != ty => {
                    let was = bril_type(self.func.var_type(v)).expect("a Bril type");
                    return Err(self.ierr(
                        i,
                        format!(
                            "`{d}` is `{}` here and `{}` elsewhere",
                            t.name(),
                            was.name()
                        ),
                    ));
                }
                Some(_) => {}
                None => {
                    let v = self.func.new_var(&encode(d), ty);
                    self.vars.insert(d, v);
                }
            }
        }
        let raw = self.split_blocks()?;
        // Blocks, by label.
        let mut labels: FxHashMap<&str, Block> = FxHashMap::default();
        let mut blocks = Vec::with_capacity(raw.len());
        for (k, rb) in raw.iter().enumerate() {
            let name = match rb.label {
                Some(l) => encode(l),
                None => {
                    debug_assert_eq!(k, 0, "only the entry has no label");
                    let mut name = "entry".to_string();
                    let mut n = 0;
                    while raw.iter().any(|r| r.label == Some(name.as_str())) {
                        n += 1;
                        name = format!("entry.{n}");
                    }
                    encode(&name)
                }
            };
            let b = self.func.new_block(&name);
            if let Some(l) = rb.label {
                labels.insert(l, b);
            }
            blocks.push(b);
        }
        let mut cost: EntityVec<Block, u64> = EntityVec::filled(blocks.len(), 0);
        // `gets[b]`: the phis that get or phi instructions make, with their
        // instruction; `sets[(b, x)]`: the operand `set x y` gives from b.
        let mut pending: Vec<(Block, Var, &'p Instr)> = Vec::new();
        let mut sets: FxHashMap<(Block, Var), (Operand, &'p Instr)> = FxHashMap::default();
        let mut set_list: Vec<(Block, Var, &'p Instr)> = Vec::new();
        for (k, rb) in raw.iter().enumerate() {
            let b = blocks[k];
            cost[b] = (rb.body.len() + usize::from(rb.term.is_some())) as u64;
            let mut seen_other = false;
            let mut seen_set = false;
            for &i in &rb.body {
                let opening = matches!(i.op.as_str(), "get" | "phi");
                if opening && seen_other {
                    return Err(self.ierr(i, format!("`{}` must open its block", i.op)));
                }
                if i.op == "set" {
                    seen_set = true;
                } else if seen_set {
                    return Err(self.ierr(
                        i,
                        "`set` must close its block: only `set`s and the jump may follow it",
                    ));
                }
                if opening {
                    let d = self.dest(i)?;
                    pending.push((b, d, i));
                    continue;
                }
                seen_other = true;
                if i.op == "set" {
                    let x = self.use_var(i, &i.args[0])?;
                    let y = self.use_var(i, &i.args[1])?;
                    self.same_type(i, x, y)?;
                    sets.insert((b, x), (Operand::Var(y), i));
                    set_list.push((b, x, i));
                    continue;
                }
                self.instruction(b, i)?;
            }
            let term = match rb.term {
                Some(t) => self.terminator(t, &labels)?,
                None => match blocks.get(k + 1) {
                    Some(&next) => Terminator::Jump(next),
                    None if self.func.returns().is_some_and(|r| !r.is_empty()) => {
                        Terminator::Unreachable
                    }
                    None => self.func.ret_term(&[]),
                },
            };
            self.func.set_term(b, term);
        }
        self.phis(&pending, &sets, &set_list, &labels)?;
        Ok((self.func, cost))
    }

    /// Rejects unknown and unsupported opcodes and wrong argument counts.
    fn check_op(&self, i: &Instr) -> Result<(), Error> {
        if let Some(Err(m)) = i.ty.as_ref().map(ir_type) {
            return Err(self.ierr(i, m));
        }
        if let Some(ext) = extension(&i.op) {
            return Err(self.ierr(i, format!("`{}` is not supported ({ext} extension)", i.op)));
        }
        // (arguments, labels, functions, whether it has a destination)
        let (args, labels, funcs, dest): (Option<usize>, usize, usize, Option<bool>) =
            match i.op.as_str() {
                "const" => (Some(0), 0, 0, Some(true)),
                "id" | "not" => (Some(1), 0, 0, Some(true)),
                "add" | "mul" | "sub" | "div" | "eq" | "lt" | "gt" | "le" | "ge" | "and" | "or" => {
                    (Some(2), 0, 0, Some(true))
                }
                "jmp" => (Some(0), 1, 0, Some(false)),
                "br" => (Some(1), 2, 0, Some(false)),
                "ret" | "nop" | "print" => (None, 0, 0, Some(false)),
                "call" => (None, 0, 1, None),
                "set" => (Some(2), 0, 0, Some(false)),
                "get" | "undef" => (Some(0), 0, 0, Some(true)),
                "phi" => (None, i.args.len(), 0, Some(true)),
                _ => return Err(self.ierr(i, format!("unknown Bril instruction `{}`", i.op))),
            };
        let count = |what: &str, want: usize, got: usize| {
            (want != got)
                .then(|| self.ierr(i, format!("`{}` takes {want} {what}, {got} given", i.op)))
        };
        if let Some(e) = args.and_then(|n| count("argument(s)", n, i.args.len())) {
            return Err(e);
        }
        if i.op == "ret" && i.args.len() > 1 {
            return Err(self.ierr(i, "`ret` takes 0 or 1 argument"));
        }
        if let Some(e) = count("label(s)", labels, i.labels.len()) {
            return Err(e);
        }
        if let Some(e) = count("function name(s)", funcs, i.funcs.len()) {
            return Err(e);
        }
        match (dest, &i.dest) {
            (Some(true), None) => Err(self.ierr(i, format!("`{}` needs a destination", i.op))),
            (Some(false), Some(_)) => Err(self.ierr(i, format!("`{}` has no destination", i.op))),
            _ => Ok(()),
        }
        .and_then(|()| match (&i.value, i.op.as_str()) {
            (None, "const") => Err(self.ierr(i, "`const` needs a value")),
            (Some(_), op) if op != "const" => Err(self.ierr(i, format!("`{op}` takes no value"))),
            (Some(Literal::Other(v)), _) => Err(self.ierr(
                i,
                format!("literal `{v}` is not supported (only int and bool)"),
            )),
            _ => Ok(()),
        })
    }

    /// The blocks of the body as written.
    fn split_blocks(&self) -> Result<Vec<RawBlock<'p>>, Error> {
        let mut raw = vec![RawBlock {
            label: None,
            body: Vec::new(),
            term: None,
        }];
        let mut seen: FxHashMap<&str, ()> = FxHashMap::default();
        let mut targeted: FxHashMap<&str, ()> = FxHashMap::default();
        for c in &self.src.body {
            match c {
                Code::Label { name, loc } => {
                    if seen.insert(name, ()).is_some() {
                        return Err(self.err(loc, format!("duplicate label `.{name}`")));
                    }
                    raw.push(RawBlock {
                        label: Some(name),
                        body: Vec::new(),
                        term: None,
                    });
                }
                Code::Instr(i) => {
                    for l in &i.labels {
                        if i.op != "phi" {
                            targeted.insert(l, ());
                        }
                    }
                    let cur = raw.last_mut().expect("a block");
                    if cur.term.is_some() {
                        // Dead: after a terminator, before any label.
                        continue;
                    }
                    if TERMINATORS.contains(&i.op.as_str()) {
                        cur.term = Some(i);
                    } else {
                        cur.body.push(i);
                    }
                }
            }
        }
        let first_empty = raw[0].body.is_empty() && raw[0].term.is_none();
        if first_empty && raw.len() > 1 && !targeted.contains_key(raw[1].label.expect("labelled")) {
            raw.remove(0);
        }
        Ok(raw)
    }

    fn use_var(&self, i: &Instr, name: &str) -> Result<Var, Error> {
        self.vars
            .get(name)
            .copied()
            .ok_or_else(|| self.ierr(i, format!("undefined variable `{name}`")))
    }

    fn dest(&self, i: &Instr) -> Result<Var, Error> {
        let d = i.dest.as_deref().expect("checked by check_op");
        self.use_var(i, d)
    }

    fn same_type(&self, i: &Instr, x: Var, y: Var) -> Result<(), Error> {
        let (tx, ty) = (self.func.var_type(x), self.func.var_type(y));
        if tx != ty {
            return Err(self.ierr(
                i,
                format!("`{}` wants `{}`, got `{}`", i.op, tname(tx), tname(ty)),
            ));
        }
        Ok(())
    }

    /// The arguments of `i`, each checked to have type `want[k]` (or
    /// `want[0]` for all when `want` has one type).
    fn args(&self, i: &Instr, want: &[Type]) -> Result<Vec<Operand>, Error> {
        let mut ops = Vec::with_capacity(i.args.len());
        for (k, a) in i.args.iter().enumerate() {
            let v = self.use_var(i, a)?;
            let t = want.get(k).or(want.first()).copied();
            if let Some(t) = t {
                if self.func.var_type(v) != t {
                    return Err(self.ierr(
                        i,
                        format!(
                            "argument {} of `{}`, `{a}`, is `{}`, not `{}`",
                            k + 1,
                            i.op,
                            tname(self.func.var_type(v)),
                            tname(t)
                        ),
                    ));
                }
            }
            ops.push(Operand::Var(v));
        }
        Ok(ops)
    }

    fn want_dest(&self, i: &Instr, t: Type) -> Result<Var, Error> {
        let d = self.dest(i)?;
        if self.func.var_type(d) != t {
            return Err(self.ierr(
                i,
                format!(
                    "`{}` gives `{}`, not `{}`",
                    i.op,
                    tname(t),
                    tname(self.func.var_type(d))
                ),
            ));
        }
        Ok(d)
    }

    fn instruction(&mut self, b: Block, i: &'p Instr) -> Result<(), Error> {
        use Type::{Bool, I64};
        let data = match i.op.as_str() {
            "const" => {
                let d = self.dest(i)?;
                let (c, t) = match i.value {
                    Some(Literal::Int(v)) => (v, I64),
                    Some(Literal::Bool(v)) => (i64::from(v), Bool),
                    _ => unreachable!("checked by check_op"),
                };
                let d = if self.func.var_type(d) == t {
                    d
                } else {
                    self.want_dest(i, t)?
                };
                InstData::Copy {
                    dst: d,
                    src: Operand::Const(c),
                }
            }
            "undef" => InstData::Copy {
                dst: self.dest(i)?,
                src: Operand::Undef,
            },
            "id" => {
                let d = self.dest(i)?;
                let src = self.args(i, &[self.func.var_type(d)])?[0];
                InstData::Copy { dst: d, src }
            }
            "not" => {
                let a = self.args(i, &[Bool])?;
                InstData::Unary {
                    dst: self.want_dest(i, Bool)?,
                    op: UnOp::Not,
                    arg: a[0],
                }
            }
            "nop" => return Ok(()),
            "print" => {
                let args = self.args(i, &[])?;
                let args = self.func.list(&args);
                InstData::Print { args }
            }
            "call" => {
                let name = &i.funcs[0];
                let Some(sig) = self.sigs.get(name.as_str()) else {
                    return Err(self.ierr(i, format!("call to undefined function `@{name}`")));
                };
                if sig.params.len() != i.args.len() {
                    return Err(self.ierr(
                        i,
                        format!(
                            "`@{name}` takes {} argument(s), {} given",
                            sig.params.len(),
                            i.args.len()
                        ),
                    ));
                }
                let args = if sig.params.is_empty() {
                    Vec::new()
                } else {
                    self.args(i, &sig.params)?
                };
                let results: Vec<Var> = match (&i.dest, sig.ret) {
                    (None, _) => Vec::new(),
                    (Some(_), Some(t)) => vec![self.want_dest(i, t)?],
                    (Some(_), None) => {
                        return Err(self.ierr(i, format!("`@{name}` returns no value")))
                    }
                };
                let callee = self.func.callee(&encode(name));
                let args = self.func.list(&args);
                let results = self.func.list(&results);
                InstData::Call {
                    callee,
                    args,
                    results,
                }
            }
            op => {
                let (bop, arg, res) = match op {
                    "add" => (BinOp::Add, I64, I64),
                    "sub" => (BinOp::Sub, I64, I64),
                    "mul" => (BinOp::Mul, I64, I64),
                    "div" => (BinOp::Div, I64, I64),
                    "eq" => (BinOp::Eq, I64, Bool),
                    "lt" => (BinOp::Lt, I64, Bool),
                    "gt" => (BinOp::Gt, I64, Bool),
                    "le" => (BinOp::Le, I64, Bool),
                    "ge" => (BinOp::Ge, I64, Bool),
                    "and" => (BinOp::And, Bool, Bool),
                    "or" => (BinOp::Or, Bool, Bool),
                    _ => unreachable!("check_op knows every opcode: {op}"),
                };
                let a = self.args(i, &[arg])?;
                InstData::Binary {
                    dst: self.want_dest(i, res)?,
                    op: bop,
                    lhs: a[0],
                    rhs: a[1],
                }
            }
        };
        self.func.push_inst(b, data);
        Ok(())
    }

    fn label(&self, i: &Instr, l: &str, labels: &FxHashMap<&str, Block>) -> Result<Block, Error> {
        labels
            .get(l)
            .copied()
            .ok_or_else(|| self.ierr(i, format!("unknown label `.{l}`")))
    }

    fn terminator(
        &mut self,
        i: &'p Instr,
        labels: &FxHashMap<&str, Block>,
    ) -> Result<Terminator, Error> {
        Ok(match i.op.as_str() {
            "jmp" => Terminator::Jump(self.label(i, &i.labels[0], labels)?),
            "br" => Terminator::Branch {
                cond: self.args(i, &[Type::Bool])?[0],
                then_dest: self.label(i, &i.labels[0], labels)?,
                else_dest: self.label(i, &i.labels[1], labels)?,
            },
            _ => {
                let want: Vec<Type> = self.func.returns().unwrap_or(&[]).to_vec();
                if want.len() != i.args.len() {
                    let msg = match want.first() {
                        Some(t) => format!("`@{}` returns a `{}`", self.src.name, tname(*t)),
                        None => format!("`@{}` returns no value", self.src.name),
                    };
                    return Err(self.ierr(i, msg));
                }
                let vals = self.args(i, &want)?;
                self.func.ret_term(&vals)
            }
        })
    }

    /// Turns the `get`s and `phi`s into the IR's phis, one operand per
    /// distinct predecessor.
    fn phis(
        &mut self,
        pending: &[(Block, Var, &'p Instr)],
        sets: &FxHashMap<(Block, Var), (Operand, &'p Instr)>,
        set_list: &[(Block, Var, &'p Instr)],
        labels: &FxHashMap<&str, Block>,
    ) -> Result<(), Error> {
        let cfg = Cfg::new(&self.func);
        let nb = self.func.num_blocks();
        let mut got: FxHashMap<Var, Block> = FxHashMap::default();
        // The distinct predecessors of the block in hand (`pending` lists
        // a block's phis together), marked in `is_pred`; `from[p]`, the
        // operand a `phi` names for predecessor `p`. Both are cleared as
        // they are left, so the work is linear in the operands.
        let mut uniq: Vec<Block> = Vec::new();
        let mut is_pred: EntityVec<Block, bool> = EntityVec::filled(nb, false);
        let mut from: EntityVec<Block, Option<Operand>> = EntityVec::filled(nb, None);
        let mut current: Option<Block> = None;
        for &(b, d, i) in pending {
            if current != Some(b) {
                for &p in &uniq {
                    is_pred[p] = false;
                }
                uniq.clear();
                for &p in cfg.preds(b) {
                    if !is_pred[p] {
                        is_pred[p] = true;
                        uniq.push(p);
                    }
                }
                current = Some(b);
            }
            if uniq.is_empty() {
                return Err(self.ierr(i, format!("`{}` in a block without predecessors", i.op)));
            }
            let mut args = Vec::with_capacity(uniq.len());
            if i.op == "get" {
                if got.insert(d, b).is_some() {
                    return Err(self.ierr(
                        i,
                        format!("a second `get` of `{}`", i.dest.as_deref().unwrap_or("")),
                    ));
                }
                for &p in &uniq {
                    let value = sets.get(&(p, d)).map_or(Operand::Undef, |s| s.0);
                    args.push(PhiArg { block: p, value });
                }
            } else {
                if i.args.len() != i.labels.len() {
                    return Err(self.ierr(i, "`phi` takes as many labels as arguments"));
                }
                let t = self.func.var_type(d);
                let mut named: Vec<Block> = Vec::with_capacity(i.labels.len());
                for (a, l) in i.args.iter().zip(&i.labels) {
                    let p = self.label(i, l, labels)?;
                    if !is_pred[p] {
                        return Err(
                            self.ierr(i, format!("`.{l}` is not a predecessor of this block"))
                        );
                    }
                    // An argument defined nowhere is undefined (old to_ssa
                    // passes write `__undefined`).
                    let value = match self.vars.get(a.as_str()) {
                        Some(&v) => {
                            if self.func.var_type(v) != t {
                                return Err(self.ierr(i, format!("`{a}` is not `{}`", tname(t))));
                            }
                            Operand::Var(v)
                        }
                        None => Operand::Undef,
                    };
                    if from[p].is_none() {
                        from[p] = Some(value);
                        named.push(p);
                    }
                }
                for &p in &uniq {
                    let value = from[p].unwrap_or(Operand::Undef);
                    args.push(PhiArg { block: p, value });
                }
                for p in named {
                    from[p] = None;
                }
            }
            let args = self.func.list(&args);
            self.func.push_inst(b, InstData::Phi { dst: d, args });
        }
        // Every `set` feeds a `get` of a successor.
        for &(p, x, i) in set_list {
            let ok = got.get(&x).is_some_and(|&g| cfg.succs(p).contains(&g));
            if !ok {
                return Err(self.ierr(
                    i,
                    format!(
                        "`set {}` feeds no `get` at the start of a successor",
                        i.args[0]
                    ),
                ));
            }
        }
        Ok(())
    }
}

fn tname(t: Type) -> &'static str {
    match t {
        Type::I64 => "int",
        Type::Bool => "bool",
        other => other.name(),
    }
}
