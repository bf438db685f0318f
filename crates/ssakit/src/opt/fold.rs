//! Peephole folds on the operation set with meaning: algebraic identities,
//! inverted comparisons and conditions read through `eqz`, each a small
//! named rule on one instruction or one terminator and the definitions of
//! its operands.
//!
//! Section 13.8 of the chapter ("En binarios") gives binary code meaning
//! ([`Opcode`]); with meaning, what binaryen's `optimize-instructions` and
//! `precompute` fold on WebAssembly, and what LLVM's InstCombine folds
//! before it, can be folded on the set, so the WebAssembly and the x86
//! front ends both gain. SSA makes each rule local: an operand's one
//! definition is one lookup, and "used once" is a count.
//!
//! # The rules
//!
//! Each rule states what it rewrites and why the result is the same value
//! (for every value of the operands, `undef` included: an `undef` operand
//! makes both sides `undef`, or the rewritten side one refinement of it).
//!
//! * **`identity`**: `y = op(x, k)` whose value is `x` for every `x`:
//!   `add`, `sub`, `or`, `xor` with 0; the shifts and rotations by a
//!   multiple of the width (WebAssembly masks the amount); `mul` by 1;
//!   `and` with all ones; `div_s`, `div_u` by 1 (which cannot trap); and
//!   `add`, `or`, `xor` with 0, `mul` by 1, `and` with all ones on the
//!   left. Also `select(a, a, c)` (either arm is `a`) and `select(a, b,
//!   k)` on a constant `k` (the arm it picks, when that arm is a
//!   variable). `y` is replaced by `x` at every use and its definition
//!   goes.
//! * **`eqz_of_compare`**: `y = eqz(c)` with `c = cmp(a, b)` an integer
//!   comparison read only here is `y = cmp'(a, b)`, `cmp'` the negated
//!   comparison (`lt_s` ↔ `ge_s`, `eq` ↔ `ne`, ...; floats are left, NaN
//!   makes `!(a < b)` differ from `a >= b`); `c` goes.
//! * **`compare_zero`**: `y = eq(x, 0)` is `y = eqz(x)`, one operation and
//!   no constant (both orders, `i32` and `i64`).
//! * **`condition`**: a condition (of a `branch`, or of a `select`) is
//!   only ever compared with zero, so `eqz(x)` read only there is `x` with
//!   the two targets (or arms) swapped, and `ne(x, 0)` is `x` (the `i32`
//!   forms: a condition is an `i32`). Repeated: `eqz(eqz(x))` is `x`.
//! * **`constant_branch`**: `branch k, T, E` on a constant is `jump T` or
//!   `jump E`; the blocks no longer reached go (as in `const_prop`, which
//!   finds more constants but is not run at `-O1`).
//!
//! An operation is looked up in the function's symbol table by its name
//! ([`Function::symbols`]): a rule whose result operation is not declared
//! (a front end that never lifts to it) does not fire.
//!
//! # Preconditions
//! Valid SSA with the dominance property. A replacement operand's
//! definition dominates the replaced definition, which dominates its uses,
//! so the dominance property is kept (as for copy propagation, the SSA
//! may no longer be conventional).
//!
//! Cost: `O(instructions + operands)`.

use super::cfg_cleanup::cleanup_cfg;
use super::stats::Stats;
use crate::analysis::def_use::{definitions, Def};
use crate::entity::EntityVec;
use crate::error::IrError;
use crate::ir::{Function, Inst, InstData, Opcode, Operand, Operator, Terminator, Var};

/// The state of one run: where each variable went, how often each is
/// read, which instructions go.
struct Fold<'a> {
    func: &'a mut Function,
    def: EntityVec<Var, Def>,
    /// `forward[y]`: the operand that replaces `y`.
    forward: EntityVec<Var, Option<Operand>>,
    /// Reads of each variable, kept up to date as rules fire.
    uses: EntityVec<Var, u32>,
    deleted: EntityVec<Inst, bool>,
    stats: Stats,
}

/// The width of an integer operation of the set: 32 or 64 bits.
fn width(o: Opcode) -> u32 {
    if o.name().starts_with("i64") {
        64
    } else {
        32
    }
}

/// Whether `k` is the constant `want` at the width of `o`.
fn is(o: Opcode, k: Operand, want: i64) -> bool {
    match k {
        Operand::Const(c) if width(o) == 32 => c as i32 == want as i32,
        Operand::Const(c) => c == want,
        _ => false,
    }
}

/// Rule `identity`: the operand `op(a, b)` always equals, if any.
fn identity(o: Opcode, a: Operand, b: Operand) -> Option<Operand> {
    use Opcode::*;
    let mask = i64::from(width(o)) - 1;
    let shift_zero = matches!(b, Operand::Const(c) if c & mask == 0);
    match o {
        I32Add | I64Add | I32Or | I64Or | I32Xor | I64Xor if is(o, a, 0) => Some(b),
        I32Add | I64Add | I32Sub | I64Sub | I32Or | I64Or | I32Xor | I64Xor if is(o, b, 0) => {
            Some(a)
        }
        I32Shl | I64Shl | I32ShrS | I64ShrS | I32ShrU | I64ShrU | I32Rotl | I64Rotl | I32Rotr
        | I64Rotr
            if shift_zero =>
        {
            Some(a)
        }
        I32Mul | I64Mul if is(o, a, 1) => Some(b),
        I32Mul | I64Mul | I32DivS | I64DivS | I32DivU | I64DivU if is(o, b, 1) => Some(a),
        I32And | I64And if is(o, a, -1) => Some(b),
        I32And | I64And if is(o, b, -1) => Some(a),
        _ => None,
    }
}

/// The integer comparison true exactly when `o` is false.
fn negated(o: Opcode) -> Option<Opcode> {
    use Opcode::*;
    Some(match o {
        I32Eq => I32Ne,
        I32Ne => I32Eq,
        I32LtS => I32GeS,
        I32GeS => I32LtS,
        I32LtU => I32GeU,
        I32GeU => I32LtU,
        I32GtS => I32LeS,
        I32LeS => I32GtS,
        I32GtU => I32LeU,
        I32LeU => I32GtU,
        I64Eq => I64Ne,
        I64Ne => I64Eq,
        I64LtS => I64GeS,
        I64GeS => I64LtS,
        I64LtU => I64GeU,
        I64GeU => I64LtU,
        I64GtS => I64LeS,
        I64LeS => I64GtS,
        I64GtU => I64LeU,
        I64LeU => I64GtU,
        _ => return None,
    })
}

impl Fold<'_> {
    /// `o` with its variable forwarded to the end of the chain.
    fn resolve(&self, mut o: Operand) -> Operand {
        while let Operand::Var(v) = o {
            match self.forward[v] {
                Some(next) => o = next,
                None => break,
            }
        }
        o
    }

    /// The instruction defining `v`, if it is an operation of the set
    /// with one result: its opcode and operands, resolved.
    fn defined_by(&self, v: Var) -> Option<(Inst, Opcode, Vec<Operand>)> {
        let Def::Inst { inst, .. } = self.def[v] else {
            return None;
        };
        if self.deleted[inst] {
            return None;
        }
        let InstData::Op {
            op, args, results, ..
        } = self.func.inst(inst)
        else {
            return None;
        };
        let o = self.func.opcode(*op)?;
        if results.len() != 1 {
            return None;
        }
        let args = args
            .as_slice(self.func)
            .iter()
            .map(|&a| self.resolve(a))
            .collect();
        Some((inst, o, args))
    }

    /// The operator of `o` in the function's symbol table, if declared.
    fn operator(&self, o: Opcode) -> Option<Operator> {
        let op = self.func.symbols().find_operator(o.name())?;
        (self.func.opcode(op) == Some(o)).then_some(op)
    }

    /// Counts the reads of `o` by one more (`+1`) or one fewer (`-1`).
    fn count(&mut self, o: Operand, delta: i32) {
        if let Operand::Var(v) = o {
            self.uses[v] = self.uses[v].wrapping_add_signed(delta);
        }
    }

    /// Deletes instruction `i` (pure, its result unread or forwarded): its
    /// operands are read once fewer.
    fn delete(&mut self, i: Inst, args: &[Operand]) {
        self.deleted[i] = true;
        for &a in args {
            self.count(a, -1);
        }
    }

    /// `y`, defined by `i` reading `args`, is `to` from now on.
    fn replace(&mut self, y: Var, to: Operand, i: Inst, args: &[Operand]) {
        self.forward[y] = Some(to);
        self.count(to, self.uses[y] as i32);
        self.delete(i, args);
        self.stats.insts_folded += 1;
    }

    /// `i` becomes `y = o(args)`.
    fn rewrite(&mut self, i: Inst, op: Operator, y: Var, args: &[Operand]) {
        let func = &mut *self.func;
        let data = InstData::Op {
            op,
            imms: func.list(&[]),
            args: func.list(args),
            results: func.list(&[y]),
        };
        func.set_inst(i, data);
        self.stats.insts_folded += 1;
    }

    /// Rules `identity`, `eqz_of_compare`, `compare_zero` and (for a
    /// `select`) `condition` on instruction `i`.
    fn inst(&mut self, i: Inst) {
        let InstData::Op { op, results, .. } = self.func.inst(i) else {
            return;
        };
        let (Some(o), &[y]) = (self.func.opcode(*op), results.as_slice(self.func)) else {
            return;
        };
        if !self.func.effects(i).removable_if_unused() {
            // A division by 1 is pure (`Function::effects` knows its
            // divisor); any other that may trap stays as it is.
            return;
        }
        let Some((_, _, args)) = self.defined_by(y) else {
            return;
        };
        match (o, args.as_slice()) {
            (Opcode::Select, &[a, b, c]) => self.select(i, y, a, b, c),
            (Opcode::I32Eqz, &[Operand::Var(c)]) => self.eqz_of_compare(i, y, c),
            (Opcode::I32Eq | Opcode::I64Eq, &[a, b]) if is(o, b, 0) || is(o, a, 0) => {
                let x = if is(o, b, 0) { a } else { b };
                let eqz = if o == Opcode::I32Eq {
                    Opcode::I32Eqz
                } else {
                    Opcode::I64Eqz
                };
                if let Some(eqz) = self.operator(eqz) {
                    self.count(if is(o, b, 0) { b } else { a }, -1);
                    self.rewrite(i, eqz, y, &[x]);
                }
            }
            (_, &[a, b]) => {
                if let Some(x) = identity(o, a, b) {
                    if x.var().is_some() {
                        self.replace(y, x, i, &[a, b]);
                    }
                }
            }
            _ => {}
        }
    }

    /// Rules `identity` and `condition` on `y = select(a, b, c)`.
    fn select(&mut self, i: Inst, y: Var, a: Operand, b: Operand, c: Operand) {
        let picked = match c {
            _ if a == b => Some(a),
            Operand::Const(k) if k as i32 != 0 => Some(a),
            Operand::Const(_) => Some(b),
            _ => None,
        };
        if let Some(x @ Operand::Var(_)) = picked {
            self.replace(y, x, i, &[a, b, c]);
            return;
        }
        if let Some((x, swap)) = self.condition(c) {
            let InstData::Op { op, .. } = *self.func.inst(i) else {
                return;
            };
            let (a, b) = if swap { (b, a) } else { (a, b) };
            self.rewrite(i, op, y, &[a, b, x]);
        }
    }

    /// Rule `eqz_of_compare` on `y = i32.eqz(c)`.
    fn eqz_of_compare(&mut self, i: Inst, y: Var, c: Var) {
        if self.uses[c] != 1 {
            return;
        }
        let Some((ci, co, cargs)) = self.defined_by(c) else {
            return;
        };
        let Some(op) = negated(co).and_then(|n| self.operator(n)) else {
            return;
        };
        for &a in &cargs {
            self.count(a, 1);
        }
        self.uses[c] = 0;
        self.delete(ci, &cargs);
        self.rewrite(i, op, y, &cargs);
    }

    /// Rule `condition`: the condition `c` (compared with zero by its
    /// reader) read through its single-use `eqz` and `ne 0` definitions:
    /// the operand it reduces to and whether the targets swap, or `None`
    /// when nothing folds. The definitions passed go; the caller's read
    /// moves to the returned operand.
    fn condition(&mut self, c: Operand) -> Option<(Operand, bool)> {
        let mut c = self.resolve(c);
        let mut swap = false;
        let mut changed = false;
        while let Operand::Var(v) = c {
            if self.uses[v] != 1 {
                break;
            }
            let Some((di, o, args)) = self.defined_by(v) else {
                break;
            };
            let (x, flips) = match (o, args.as_slice()) {
                (Opcode::I32Eqz, &[x]) => (x, true),
                (Opcode::I32Ne, &[x, k]) if is(o, k, 0) => (x, false),
                (Opcode::I32Ne, &[k, x]) if is(o, k, 0) => (x, false),
                (Opcode::I32Eq, &[x, k]) if is(o, k, 0) => (x, true),
                (Opcode::I32Eq, &[k, x]) if is(o, k, 0) => (x, true),
                _ => break,
            };
            if x.var()
                .is_some_and(|x| self.func.var_type(x) != self.func.var_type(v))
            {
                break;
            }
            self.uses[v] = 0;
            self.delete(di, &args);
            // The reader of `v` reads `x` now.
            self.count(x, 1);
            self.stats.insts_folded += 1;
            swap ^= flips;
            changed = true;
            c = x;
        }
        changed.then_some((c, swap))
    }

    /// Rules `condition` and `constant_branch` on `b`'s terminator.
    fn term(&mut self, b: crate::ir::Block) {
        let Terminator::Branch {
            cond,
            then_dest,
            else_dest,
        } = *self.func.term(b)
        else {
            return;
        };
        if then_dest == else_dest {
            return;
        }
        let cond = self.resolve(cond);
        if let Operand::Const(k) = cond {
            self.func.set_term(
                b,
                Terminator::Jump(if k != 0 { then_dest } else { else_dest }),
            );
            self.stats.branches_folded += 1;
            return;
        }
        if let Some((x, swap)) = self.condition(cond) {
            let (t, e) = if swap {
                (else_dest, then_dest)
            } else {
                (then_dest, else_dest)
            };
            self.func.set_term(
                b,
                Terminator::Branch {
                    cond: x,
                    then_dest: t,
                    else_dest: e,
                },
            );
        }
    }
}

/// Counts the reads of every variable (instructions, phis, terminators).
fn count_uses(func: &Function) -> EntityVec<Var, u32> {
    let mut uses = EntityVec::filled(func.num_vars(), 0u32);
    for &b in func.layout() {
        for i in func.block_all_insts(b) {
            func.for_each_use(i, |v| uses[v] += 1);
        }
        func.for_each_term_use(b, |v| uses[v] += 1);
    }
    uses
}

/// Applies the rules of the module documentation to every instruction and
/// terminator of `func`, in layout order, then rewrites every operand to
/// what replaced it and deletes what the rules made unused. Returns the
/// counts in [`Stats::insts_folded`], [`Stats::branches_folded`] and
/// [`Stats::blocks_removed`].
///
/// # Errors
/// A variable defined twice (the input is not SSA).
pub(crate) fn fold(func: &mut Function) -> Result<Stats, IrError> {
    let def = definitions(func)?;
    let uses = count_uses(func);
    let mut f = Fold {
        forward: EntityVec::filled(func.num_vars(), None),
        deleted: EntityVec::filled(func.inst_slots(), false),
        def,
        uses,
        func,
        stats: Stats::default(),
    };
    let mut insts: Vec<Inst> = Vec::new();
    for k in 0..f.func.layout().len() {
        let b = f.func.layout()[k];
        insts.clear();
        insts.extend_from_slice(f.func.block_insts(b));
        for &i in &insts {
            if !f.deleted[i] {
                f.inst(i);
            }
        }
        f.term(b);
    }
    let Fold {
        func,
        forward,
        deleted,
        mut stats,
        ..
    } = f;
    let resolve = |mut o: Operand| {
        while let Operand::Var(v) = o {
            match forward[v] {
                Some(next) => o = next,
                None => break,
            }
        }
        o
    };
    for k in 0..func.layout().len() {
        let b = func.layout()[k];
        insts.clear();
        insts.extend(func.block_all_insts(b).filter(|&i| !deleted[i]));
        for &i in &insts {
            func.for_each_operand_mut(i, |o| *o = resolve(*o));
        }
        func.for_each_term_operand_mut(b, |o| *o = resolve(*o));
        func.retain_insts(b, |_, i| !deleted[i]);
    }
    if stats.branches_folded > 0 {
        stats.blocks_removed = cleanup_cfg(func).blocks_removed;
    }
    Ok(stats)
}

#[cfg(test)]
mod tests {
    use crate::gen::Rng;
    use crate::interp::{run, RunOptions};
    use crate::opt::testing::check;
    use crate::text::parse_module;

    const OPS: &str = "operator i32.add pure
operator i32.sub pure
operator i32.shl pure
operator i32.rotr pure
operator i32.mul pure
operator i32.and pure
operator i32.or pure
operator i32.xor pure
operator i32.div_s trap
operator i32.div_u trap
operator i64.shr_s pure
operator i64.and pure
operator i64.div_u trap
operator i64.add pure
operator i32.eqz pure
operator i64.eqz pure
operator i32.eq pure
operator i64.eq pure
operator i32.ne pure
operator i32.lt_s pure
operator i32.ge_s pure
operator i32.le_u pure
operator i32.gt_u pure
operator i64.gt_u pure
operator i64.le_u pure
operator f64.lt pure
operator f64.convert_i32_s pure
operator select pure
";

    /// Every rule at least once, on the parameters: what the property
    /// test runs on random values.
    const ALL_RULES: &str = "function f(a: i32, b: i32, p: i64, q: i64) {
entry:
    x1: i32 = i32.add(a, 0)
    x2: i32 = i32.sub(x1, 0)
    x3: i32 = i32.shl(x2, 32)
    x4: i32 = i32.mul(1, x3)
    x5: i32 = i32.and(x4, -1)
    x6: i32 = i32.div_s(x5, 1)
    x7: i32 = i32.rotr(x6, -32)
    x8: i32 = i32.xor(0, x7)
    x9: i32 = i32.div_u(x8, 4294967297)
    y1: i64 = i64.shr_s(p, 64)
    y2: i64 = i64.and(-1, y1)
    y3: i64 = i64.div_u(y2, 1)
    y4: i64 = i64.add(0, y3)
    c1: i32 = i32.lt_s(x9, b)
    n1: i32 = i32.eqz(c1)
    c2: i32 = i64.gt_u(y4, q)
    n2: i32 = i32.eqz(c2)
    e1: i32 = i32.eq(a, 0)
    e2: i32 = i64.eq(0, q)
    z: i32 = i32.eqz(b)
    s1: i32 = select(a, b, z)
    s2: i32 = select(a, a, b)
    s3: i32 = select(a, b, 0)
    s4: i32 = select(a, b, 7)
    m: i32 = i32.ne(a, 0)
    mz: i32 = i32.eqz(m)
    s5 = select(p, q, mz)
    print x9, y4, n1, n2, e1, e2, s1, s2, s3, s4, s5
    w1: i32 = i32.le_u(a, b)
    w2: i32 = i32.eqz(w1)
    w3: i32 = i32.eqz(w2)
    w4: i32 = i32.eqz(w3)
    branch w4, l, r
l:
    k: i32 = i32.eq(b, 0)
    branch k, r, done
r:
    print 1
    jump done
done:
    ret
}
";

    /// The rules against the interpreter: the program above and its folded
    /// form print the same on 4,000 argument tuples (edge values and
    /// random ones), and every rule fired.
    #[test]
    fn folds_agree_with_the_interpreter() {
        let src = format!("{OPS}\n{ALL_RULES}");
        let m = parse_module(&src).unwrap();
        let mut folded = m.clone();
        let stats = super::fold(&mut folded.functions[0]).unwrap();
        folded.functions[0].compact();
        crate::verify::verify(&folded.functions[0]).unwrap();
        // Nine identities, two selects picked, two selects turned round,
        // two comparisons negated, two `eq 0`, the branch conditions.
        assert!(stats.insts_folded >= 20, "{stats:?}");
        let edges: [i64; 10] = [
            0,
            1,
            -1,
            2,
            i64::from(i32::MIN),
            i64::from(i32::MAX),
            i64::MIN,
            i64::MAX,
            1 << 32,
            7,
        ];
        let mut rng = Rng::new(47);
        let draw = |rng: &mut Rng| match rng.below(3) {
            0 => edges[rng.below(edges.len() as u32) as usize],
            1 => i64::from(rng.below(5)) - 2,
            _ => rng.next_u64() as i64,
        };
        let opts = RunOptions::default();
        for _ in 0..4000 {
            let (a, b) = (draw(&mut rng) as i32 as i64, draw(&mut rng) as i32 as i64);
            let (p, q) = (draw(&mut rng), draw(&mut rng));
            let args = [a, b, p, q];
            let want = run(&m, &m.functions[0], &args, &opts).unwrap();
            let got = run(&folded, &folded.functions[0], &args, &opts).unwrap();
            assert_eq!(want.output, got.output, "{args:?}");
        }
    }

    #[test]
    fn identities_forward_their_operand() {
        let s = check(
            &format!(
                "{OPS}
function f(a: i32, p: i64) -> (i32, i64) {{
entry:
    x: i32 = i32.add(a, 0)
    y: i32 = i32.shl(x, 64)
    z: i32 = i32.and(-1, y)
    w: i32 = i32.div_s(z, 1)
    v: i32 = i32.div_s(w, -1)
    u: i64 = i64.shr_s(p, 32)
    ret v, u
}}"
            ),
            "fold",
            "function f(a: i32, p) -> (i32, i64) {
entry:
    v: i32 = i32.div_s(a, -1)
    u = i64.shr_s(p, 32)
    ret v, u
}
",
        );
        assert_eq!(s.insts_folded, 4);
    }

    #[test]
    fn eqz_of_a_comparison_read_once_is_the_negated_comparison() {
        // `c` is read twice: its `eqz` stays. Floats are left (NaN).
        check(
            &format!(
                "{OPS}
function f(a: i32, b: i32, x: f64) -> (i32, i32, i32, i32) {{
entry:
    c: i32 = i32.lt_s(a, b)
    n: i32 = i32.eqz(c)
    d: i32 = i32.gt_u(a, b)
    m: i32 = i32.eqz(d)
    fx: f64 = f64.convert_i32_s(a)
    e: i32 = f64.lt(fx, x)
    k: i32 = i32.eqz(e)
    ret n, m, d, k
}}"
            ),
            "fold",
            "function f(a: i32, b: i32, x: f64) -> (i32, i32, i32, i32) {
entry:
    n: i32 = i32.ge_s(a, b)
    d: i32 = i32.gt_u(a, b)
    m: i32 = i32.eqz(d)
    fx: f64 = f64.convert_i32_s(a)
    e: i32 = f64.lt(fx, x)
    k: i32 = i32.eqz(e)
    ret n, m, d, k
}
",
        );
    }

    #[test]
    fn a_branch_reads_its_condition_through_eqz_and_ne_zero() {
        // eqz(eqz(eqz(a))) is eqz(a): the targets swap once; `ne(b, 0)`
        // is `b`; a branch on a constant is a jump.
        check(
            &format!(
                "{OPS}
function f(a: i32, b: i32) {{
entry:
    n1: i32 = i32.eqz(a)
    n2: i32 = i32.eqz(n1)
    n3: i32 = i32.eqz(n2)
    branch n3, t, e
t:
    k: i32 = i32.ne(b, 0)
    branch k, e, x
e:
    branch 0, t, x
x:
    ret
}}"
            ),
            "fold",
            "function f(a: i32, b: i32) {
entry:
    branch a, e, t
t:
    branch b, e, x
e:
    jump x
x:
    ret
}
",
        );
    }

    #[test]
    fn select_on_eqz_swaps_its_arms_and_picks_on_constants() {
        check(
            &format!(
                "{OPS}
function f(a: i32, b: i32, c: i32) -> (i32, i32, i32) {{
entry:
    z: i32 = i32.eqz(c)
    s: i32 = select(a, b, z)
    t: i32 = select(a, b, 0)
    u: i32 = select(b, b, c)
    ret s, t, u
}}"
            ),
            "fold",
            "function f(a: i32, b: i32, c: i32) -> (i32, i32, i32) {
entry:
    s: i32 = select(b, a, c)
    ret s, b, b
}
",
        );
    }

    #[test]
    fn eq_zero_is_eqz() {
        check(
            &format!(
                "{OPS}
function f(a: i32, p: i64) -> (i32, i32) {{
entry:
    x: i32 = i32.eq(0, a)
    y: i32 = i64.eq(p, 0)
    ret x, y
}}"
            ),
            "fold",
            "function f(a: i32, p) -> (i32, i32) {
entry:
    x: i32 = i32.eqz(a)
    y: i32 = i64.eqz(p)
    ret x, y
}
",
        );
    }

    #[test]
    fn an_undeclared_result_operation_does_not_fire() {
        // No `i32.ge_s` in the symbol table: `eqz(lt_s)` stays.
        let src = "operator i32.lt_s pure
operator i32.eqz pure

function f(a: i32, b: i32) -> i32 {
entry:
    c: i32 = i32.lt_s(a, b)
    n: i32 = i32.eqz(c)
    ret n
}
";
        check(src, "fold", &src[src.find("function").unwrap()..]);
    }
}
