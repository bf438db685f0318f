//! ssakit's IR back into a Bril syntax tree, SSA included.
//!
//! * **Phis** in one of Bril's two spellings ([`SsaForm`]): `x: T = get`
//!   at the start of the block and `set x v` at the end of each
//!   predecessor, before its jump (`docs/lang/ssa2.md`; the `set`s of one
//!   block read the values before any `get` writes, so they are the phis'
//!   simultaneous copies), or the old `x: T = phi v1 v2 .P1 .P2`
//!   (`docs/lang/ssa.md`).
//! * **Operands that are not variables** (constants after constant
//!   propagation, `undef`) of ordinary instructions read a variable
//!   defined once per function, at its start (`const.5: int = const 5;`,
//!   `const.m5` for −5, `undef.int: int = undef;`): the start dominates
//!   every use, and a constant used in a loop costs no instruction per
//!   iteration.
//! * **A phi's constant or `undef` operand** gets a variable of its own,
//!   defined at the end of the predecessor it comes from (before the
//!   `set`s; for the old `phi`, where its operands are read). Such a
//!   variable joins the phi's web, so a shared one would put two webs
//!   together, and one defined at the start would be live across the
//!   other members of the web: conventional SSA (chapter 13.5: renaming
//!   each web to one variable is correct) would stop being conventional
//!   in Bril. Defined at the edge, it lives exactly where the copy that
//!   out-of-SSA translation inserts for it would.
//! * **Jumps** to the next block of the layout are left out (Bril falls
//!   through), and so is the `ret` of a function without result at the end
//!   of its last block.
//! * **What Bril cannot say** is an error naming the function and the
//!   block: types other than `i64` and `bool`, operators other than Bril's
//!   (`%`, `^`, shifts, `!=`, `-x`), a branch on an `i64`, `switch`,
//!   parallel copies (`destruct` sequentializes them), generic
//!   operations, several results, calls of functions not in the module.
//! * **Names:** see [`names`](super::names).

use super::ast::{Code, Func, Instr, Literal, Loc, Program, Ty};
use super::lower::bril_type;
use super::names::{bril_name, Namer};
use super::Error;
use crate::entity::EntityVec;
use crate::ir::{
    BinOp, Block, Cfg, Function, Inst, InstData, Module, Operand, Terminator, Type, UnOp, Var,
};
use rustc_hash::FxHashMap;

/// Bril's two spellings of SSA.
///
/// ```
/// use ssakit::bril::{raise, read, Syntax, SsaForm};
/// use ssakit::construct::{construct_module, Options};
/// let src = "@main(c: bool) {\n  x: int = const 1;\n  br c .t .j;\n.t:\n  x: int = const 2;\n.j:\n  print x;\n}";
/// let mut m = read(src, Syntax::Text).unwrap().module;
/// construct_module(&mut m, &Options::default()).unwrap();
/// let ops = |form| {
///     let p = raise(&m, form).unwrap();
///     let text = ssakit::bril::print(&p, Syntax::Text);
///     (text.contains("get;"), text.contains("set "), text.contains("phi "))
/// };
/// assert_eq!(ops(SsaForm::SetGet), (true, true, false));
/// assert_eq!(ops(SsaForm::Phi), (false, false, true));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum SsaForm {
    /// `set` and `get` (and `undef`), the current extension.
    #[default]
    SetGet,
    /// The old `phi` instruction.
    Phi,
}

/// The Bril program of `module`.
///
/// ```
/// use ssakit::bril::{raise, SsaForm};
/// let m = ssakit::text::parse_module("function main(a) {\ne:\n    b = a + 1\n    print b\n    ret\n}").unwrap();
/// let p = raise(&m, SsaForm::default()).unwrap();
/// assert_eq!(p.functions[0].name, "main");
/// let shift = ssakit::text::parse_module("function main(a) {\ne:\n    b = a << 1\n    ret b\n}").unwrap();
/// assert!(raise(&shift, SsaForm::default()).is_err()); // Bril has no shifts
/// ```
pub fn raise(module: &Module, form: SsaForm) -> Result<Program, Error> {
    let mut fnames = Namer::default();
    let names: Vec<String> = module
        .functions
        .iter()
        .map(|f| fnames.fresh(&bril_name(f.name())))
        .collect();
    // Each function's Bril name and parameter types, by IR name (the
    // first of a name, as the interpreter calls it).
    let mut sigs: Sigs = FxHashMap::default();
    for (g, name) in module.functions.iter().zip(&names) {
        let params = g.params().iter().map(|&p| g.var_type(p)).collect();
        sigs.entry(g.name()).or_insert((name.clone(), params));
    }
    let mut program = Program::default();
    for (k, f) in module.functions.iter().enumerate() {
        program
            .functions
            .push(Raise::new(f, form, &names[k], &sigs)?.run()?);
    }
    Ok(program)
}

/// Bril name and parameter types of each function, by IR name.
type Sigs<'a> = FxHashMap<&'a str, (String, Vec<Type>)>;

struct Raise<'a> {
    f: &'a Function,
    form: SsaForm,
    out: Func,
    var: EntityVec<Var, String>,
    label: EntityVec<Block, String>,
    vars: Namer,
    /// The variable holding each constant (or `undef`) of each type that
    /// an operand needs, defined once in `preamble`, at the start of the
    /// function (which dominates every use).
    pool: FxHashMap<(Type, Operand), String>,
    preamble: Vec<Code>,
    /// `outgoing[p]`: the phis that take an operand from `p`, with the
    /// Bril variable holding it.
    outgoing: EntityVec<Block, Vec<(Var, String)>>,
    /// The variable defined at the end of the predecessor for each phi
    /// operand that is a constant or `undef`, by phi and operand position.
    edge_vars: FxHashMap<(Inst, usize), String>,
    /// `edge_defs[p]`: the definitions of those variables at the end of `p`.
    edge_defs: EntityVec<Block, Vec<Code>>,
    sigs: &'a Sigs<'a>,
}

impl<'a> Raise<'a> {
    fn new(f: &'a Function, form: SsaForm, name: &str, sigs: &'a Sigs<'a>) -> Result<Self, Error> {
        let mut vars = Namer::default();
        let mut var: EntityVec<Var, String> = EntityVec::filled(f.num_vars(), String::new());
        // Originals first, so that they keep their names; then versions.
        for v in f.vars() {
            if f.var(v).origin().is_none() {
                var[v] = vars.fresh(&bril_name(f.base_name(v)));
            }
        }
        for v in f.vars() {
            let d = f.var(v);
            if d.origin().is_some() {
                var[v] = vars.fresh(&format!("{}.{}", bril_name(f.base_name(v)), d.version()));
            }
        }
        let mut labels = Namer::default();
        let mut label: EntityVec<Block, String> = EntityVec::filled(f.num_blocks(), String::new());
        for &b in f.layout() {
            label[b] = labels.fresh(&bril_name(f.block_name(b)));
        }
        let ret = match f.returns() {
            None | Some([]) => None,
            Some([t]) => Some(ty_of(f, *t, "the result")?),
            Some(_) => {
                return Err(Error::at(
                    Some(f.name()),
                    None,
                    "Bril functions return at most one value",
                ))
            }
        };
        let mut args = Vec::new();
        for &p in f.params() {
            args.push((
                var[p].clone(),
                ty_of(f, f.var_type(p), &format!("parameter `{}`", var[p]))?,
            ));
        }
        Ok(Raise {
            f,
            form,
            out: Func {
                name: name.to_string(),
                args,
                ret,
                body: Vec::new(),
                loc: Loc::None,
            },
            var,
            label,
            vars,
            pool: FxHashMap::default(),
            preamble: Vec::new(),
            outgoing: EntityVec::filled(f.num_blocks(), Vec::new()),
            edge_vars: FxHashMap::default(),
            edge_defs: EntityVec::filled(f.num_blocks(), Vec::new()),
            sigs,
        })
    }

    fn err(&self, b: Block, msg: impl Into<String>) -> Error {
        Error::at(
            Some(self.f.name()),
            None,
            &format!("block `{}`: {}", self.f.block_name(b), msg.into()),
        )
    }

    fn bty(&self, b: Block, t: Type) -> Result<Ty, Error> {
        bril_type(t).ok_or_else(|| self.err(b, format!("type `{t}` has no Bril equivalent")))
    }

    fn push(&mut self, i: Instr) {
        self.out.body.push(Code::Instr(i));
    }

    /// The variable holding operand `o` of type `t`: a fresh one for a
    /// constant or `undef`, defined here.
    fn operand(&mut self, b: Block, o: Operand, t: Type) -> Result<String, Error> {
        let ty = self.bty(b, t)?;
        if let Operand::Var(v) = o {
            return Ok(self.var[v].clone());
        }
        let key = (t, o);
        if let Some(name) = self.pool.get(&key) {
            return Ok(name.clone());
        }
        let (want, op, value) = constant_def(&ty, o);
        let name = self.vars.fresh(&want);
        self.preamble.push(Code::Instr(Instr {
            op: op.into(),
            dest: Some(name.clone()),
            ty: Some(ty),
            value,
            ..Default::default()
        }));
        self.pool.insert(key, name.clone());
        Ok(name)
    }

    fn op_type(&self, o: Operand, default: Type) -> Type {
        match o {
            Operand::Var(v) => self.f.var_type(v),
            _ => default,
        }
    }

    fn run(mut self) -> Result<Func, Error> {
        let f = self.f;
        let cfg = Cfg::new(f);
        let layout = f.layout();
        for &b in layout {
            for &i in f.block_phis(b) {
                let Some(dst) = f.def(i) else { continue };
                for (k, a) in f.phi_args(i).iter().enumerate() {
                    let name = match a.value {
                        Operand::Var(v) => self.var[v].clone(),
                        o => {
                            let name = self.edge_operand(a.block, o, f.var_type(dst))?;
                            self.edge_vars.insert((i, k), name.clone());
                            name
                        }
                    };
                    self.outgoing[a.block].push((dst, name));
                }
            }
        }
        for (k, &b) in layout.iter().enumerate() {
            let is_entry = k == 0;
            // The entry needs no label unless a jump or an old-style phi
            // names it.
            let named = !cfg.preds(b).is_empty() || self.form == SsaForm::Phi;
            if !is_entry || named {
                self.out.body.push(Code::Label {
                    name: self.label[b].clone(),
                    loc: Loc::None,
                });
            }
            for &i in f.block_phis(b) {
                let InstData::Phi { dst, args } = *f.inst(i) else {
                    unreachable!("a phi")
                };
                let ty = self.bty(b, f.var_type(dst))?;
                let mut ins = Instr {
                    op: "get".into(),
                    dest: Some(self.var[dst].clone()),
                    ty: Some(ty),
                    ..Default::default()
                };
                if self.form == SsaForm::Phi {
                    // The operands are named at the end of the predecessors.
                    ins.op = "phi".into();
                    for (k, a) in args.as_slice(f).iter().enumerate() {
                        let name = match a.value {
                            Operand::Var(v) => self.var[v].clone(),
                            _ => self.edge_vars[&(i, k)].clone(),
                        };
                        ins.args.push(name);
                        ins.labels.push(self.label[a.block].clone());
                    }
                }
                self.push(ins);
            }
            for &i in f.block_insts(b) {
                self.instruction(b, *f.inst(i))?;
            }
            self.edge_values(b)?;
            let next = layout.get(k + 1).copied();
            self.terminator(b, next)?;
        }
        // The constants first: code before the first label falls through
        // into the entry block.
        let body = std::mem::take(&mut self.out.body);
        self.out.body = std::mem::take(&mut self.preamble);
        self.out.body.extend(body);
        Ok(self.out)
    }

    /// At the end of `b`: what the phis of its successors take from it
    /// (constants and `undef` in fresh variables, and with `set`/`get`,
    /// the `set`s).
    fn edge_values(&mut self, b: Block) -> Result<(), Error> {
        let defs = std::mem::take(&mut self.edge_defs[b]);
        self.out.body.extend(defs);
        if self.form == SsaForm::Phi {
            return Ok(());
        }
        for (dst, src) in std::mem::take(&mut self.outgoing[b]) {
            self.push(Instr {
                op: "set".into(),
                args: vec![self.var[dst].clone(), src],
                ..Default::default()
            });
        }
        Ok(())
    }

    /// A fresh variable for the constant or `undef` `o` of type `t` that a
    /// phi takes from `p`, defined at the end of `p` (see the module
    /// documentation).
    fn edge_operand(&mut self, p: Block, o: Operand, t: Type) -> Result<String, Error> {
        let ty = self.bty(p, t)?;
        let (want, op, value) = constant_def(&ty, o);
        let name = self.vars.fresh(&want);
        self.edge_defs[p].push(Code::Instr(Instr {
            op: op.into(),
            dest: Some(name.clone()),
            ty: Some(ty),
            value,
            ..Default::default()
        }));
        Ok(name)
    }

    fn instruction(&mut self, b: Block, data: InstData) -> Result<(), Error> {
        let f = self.f;
        let ins = match data {
            InstData::Copy { dst, src } => {
                let ty = self.bty(b, f.var_type(dst))?;
                let mut ins = Instr {
                    dest: Some(self.var[dst].clone()),
                    ty: Some(ty.clone()),
                    ..Default::default()
                };
                match src {
                    Operand::Var(v) => {
                        ins.op = "id".into();
                        ins.args.push(self.var[v].clone());
                    }
                    Operand::Const(c) => {
                        ins.op = "const".into();
                        ins.value = Some(literal(&ty, c));
                    }
                    Operand::Undef => ins.op = "undef".into(),
                }
                ins
            }
            InstData::Unary { dst, op, arg } => {
                let dt = f.var_type(dst);
                if op != UnOp::Not
                    || dt != Type::Bool
                    || self.op_type(arg, Type::Bool) != Type::Bool
                {
                    return Err(self.err(
                        b,
                        format!(
                            "`{}` on `{}` has no Bril equivalent",
                            op.symbol(),
                            f.var_type(dst)
                        ),
                    ));
                }
                let a = self.operand(b, arg, Type::Bool)?;
                Instr {
                    op: "not".into(),
                    dest: Some(self.var[dst].clone()),
                    ty: Some(Ty::Bool),
                    args: vec![a],
                    ..Default::default()
                }
            }
            InstData::Binary { dst, op, lhs, rhs } => {
                let dt = f.var_type(dst);
                let (name, arg) = match (op, dt) {
                    (BinOp::Add, Type::I64) => ("add", Type::I64),
                    (BinOp::Sub, Type::I64) => ("sub", Type::I64),
                    (BinOp::Mul, Type::I64) => ("mul", Type::I64),
                    (BinOp::Div, Type::I64) => ("div", Type::I64),
                    (BinOp::Eq, Type::Bool) => ("eq", Type::I64),
                    (BinOp::Lt, Type::Bool) => ("lt", Type::I64),
                    (BinOp::Gt, Type::Bool) => ("gt", Type::I64),
                    (BinOp::Le, Type::Bool) => ("le", Type::I64),
                    (BinOp::Ge, Type::Bool) => ("ge", Type::I64),
                    (BinOp::And, Type::Bool) => ("and", Type::Bool),
                    (BinOp::Or, Type::Bool) => ("or", Type::Bool),
                    _ => {
                        return Err(self.err(
                            b,
                            format!("`{}` writing `{dt}` has no Bril equivalent", op.symbol()),
                        ))
                    }
                };
                if self.op_type(lhs, arg) != arg || self.op_type(rhs, arg) != arg {
                    return Err(self.err(
                        b,
                        format!(
                            "`{}` on these operand types has no Bril equivalent",
                            op.symbol()
                        ),
                    ));
                }
                let l = self.operand(b, lhs, arg)?;
                let r = self.operand(b, rhs, arg)?;
                Instr {
                    op: name.into(),
                    dest: Some(self.var[dst].clone()),
                    ty: Some(self.bty(b, dt)?),
                    args: vec![l, r],
                    ..Default::default()
                }
            }
            InstData::Call {
                callee,
                args,
                results,
            } => {
                let cname = f.callee_name(callee);
                let Some((bname, params)) = self.sigs.get(cname).cloned() else {
                    return Err(self.err(
                        b,
                        format!("call of `{cname}`, not a function of the module"),
                    ));
                };
                let results = results.as_slice(f);
                if results.len() > 1 {
                    return Err(self.err(b, "a call with several results has no Bril equivalent"));
                }
                let mut names = Vec::new();
                for (k, &a) in args.as_slice(f).iter().enumerate() {
                    let want = params.get(k).copied().unwrap_or(Type::I64);
                    names.push(self.operand(b, a, self.op_type(a, want))?);
                }
                let mut ins = Instr {
                    op: "call".into(),
                    funcs: vec![bname],
                    args: names,
                    ..Default::default()
                };
                if let Some(&r) = results.first() {
                    ins.dest = Some(self.var[r].clone());
                    ins.ty = Some(self.bty(b, f.var_type(r))?);
                }
                ins
            }
            InstData::Print { args } => {
                let mut names = Vec::new();
                for &a in args.as_slice(f) {
                    names.push(self.operand(b, a, self.op_type(a, Type::I64))?);
                }
                Instr {
                    op: "print".into(),
                    args: names,
                    ..Default::default()
                }
            }
            InstData::Phi { .. } => unreachable!("phis are listed apart"),
            InstData::ParCopy { .. } => {
                return Err(self.err(
                    b,
                    "a parallel copy has no Bril equivalent (`destruct` sequentializes them)",
                ))
            }
            InstData::Op { op, .. } => {
                return Err(self.err(
                    b,
                    format!("operation `{}` has no Bril equivalent", f.operator_name(op)),
                ))
            }
        };
        self.push(ins);
        Ok(())
    }

    fn terminator(&mut self, b: Block, next: Option<Block>) -> Result<(), Error> {
        let f = self.f;
        let ins = match *f.term(b) {
            Terminator::Jump(t) if Some(t) == next => return Ok(()),
            Terminator::Jump(t) => Instr {
                op: "jmp".into(),
                labels: vec![self.label[t].clone()],
                ..Default::default()
            },
            Terminator::Branch {
                cond,
                then_dest,
                else_dest,
            } => {
                if self.op_type(cond, Type::Bool) != Type::Bool {
                    return Err(self.err(
                        b,
                        "a branch on an `i64` has no Bril equivalent (Bril branches on `bool`)",
                    ));
                }
                let c = self.operand(b, cond, Type::Bool)?;
                Instr {
                    op: "br".into(),
                    args: vec![c],
                    labels: vec![self.label[then_dest].clone(), self.label[else_dest].clone()],
                    ..Default::default()
                }
            }
            Terminator::Switch { .. } => return Err(self.err(b, "`switch` has no Bril equivalent")),
            Terminator::Ret(vals) => {
                let vals = vals.as_slice(f);
                if vals.is_empty() && next.is_none() {
                    return Ok(());
                }
                let want = f
                    .returns()
                    .and_then(|r| r.first().copied())
                    .unwrap_or(Type::I64);
                let mut args = Vec::new();
                for &v in vals {
                    args.push(self.operand(b, v, self.op_type(v, want))?);
                }
                Instr {
                    op: "ret".into(),
                    args,
                    ..Default::default()
                }
            }
            Terminator::Unreachable => {
                if next.is_none() {
                    return Ok(());
                }
                // Falling off the end is what the original did; elsewhere,
                // return an undefined value.
                let mut args = Vec::new();
                if let Some(&t) = f.returns().and_then(|r| r.first()) {
                    args.push(self.operand(b, Operand::Undef, t)?);
                }
                Instr {
                    op: "ret".into(),
                    args,
                    ..Default::default()
                }
            }
        };
        self.push(ins);
        Ok(())
    }
}

/// The `const` literal of `c` for a destination of type `ty`.
/// The wanted name, opcode and literal of the definition of constant or
/// `undef` operand `o` of Bril type `ty`.
fn constant_def(ty: &Ty, o: Operand) -> (String, &'static str, Option<Literal>) {
    match o {
        Operand::Const(c) if c < 0 => (
            format!("const.m{}", c.unsigned_abs()),
            "const",
            Some(literal(ty, c)),
        ),
        Operand::Const(c) => (format!("const.{c}"), "const", Some(literal(ty, c))),
        _ => (format!("undef.{}", ty.name()), "undef", None),
    }
}

fn literal(ty: &Ty, c: i64) -> Literal {
    match ty {
        Ty::Bool => Literal::Bool(c != 0),
        _ => Literal::Int(c),
    }
}

fn ty_of(f: &Function, t: Type, what: &str) -> Result<Ty, Error> {
    bril_type(t).ok_or_else(|| {
        Error::at(
            Some(f.name()),
            None,
            &format!("{what} has type `{t}`, which has no Bril equivalent"),
        )
    })
}
