//! Zeros that WebAssembly gives for free: a store of zero into a local
//! that still holds its initial zero is not emitted (what
//! LLVM's and binaryen's output relies on, `local.set L (i32.const 0)`
//! being four bytes).
//!
//! The lifter ([`crate::lift`]) makes WebAssembly's zeroing of locals an
//! explicit definition at entry, `x = 0` (an integer) or `x =
//! f64.const[0]()` (a float, a vector, a reference), for every variable
//! read before a write on some path; the emitted function's declared
//! locals start at zero again ([`super::locals`] gives such a variable a
//! local no other occupies before it). So a definition of zero bits (the
//! literal `0`, or a constant operation [`OpTable::is_zero`] calls zero:
//! `+0.0`, the zero vector, the null reference) into a declared local (not a parameter),
//! in the entry block's body when only `block`s open before it (it runs
//! once, at the start: no `loop` comes before it), before any instruction
//! of that body that writes the same local, is left out. Trees only move
//! down ([`super::stackify`]), so an instruction's writes happen at its
//! position or later, and "before" in the block's order is safe.

use super::ctl::{Ctl, Structured};
use super::locals::{Local, Locals};
use super::lower::OpTable;
use super::stackify::Stackified;
use ssakit::entity::{EntityRef, PackedOption, SecondaryMap};
use ssakit::ir::{Function, Inst, InstData, Operand, Var};

/// Per instruction: a store of zero into a local still zero, not
/// emitted.
pub(crate) fn implicit_zeros(
    f: &Function,
    ops: &OpTable,
    s: &Structured,
    st: &Stackified,
    local: &Locals,
    locals: usize,
) -> SecondaryMap<Inst, bool> {
    let mut out = SecondaryMap::new(false);
    let entry = f.entry();
    let first = s.items.iter().find(|c| **c != Ctl::Block);
    if first != Some(&Ctl::Body(entry)) {
        return out;
    }
    let params = f.params().len();
    // Per declared local: written by an instruction so far.
    let mut written: SecondaryMap<Local, bool> = SecondaryMap::new(false);
    let declared = |l: PackedOption<Local>| {
        l.expand()
            .filter(|l| (params..params + locals).contains(&l.index()))
    };
    for &i in f.block_insts(entry) {
        if let Some(dst) = zero_def(f, ops, i) {
            let root = !st.absorbed[i]
                && !st.on_stack[dst]
                && !st.dead[dst]
                && st.tee_under[dst].is_none();
            if let Some(l) = declared(local[dst]).filter(|&l| root && !written[l]) {
                out[i] = true;
                written[l] = true;
                continue;
            }
        }
        f.for_each_def(i, |v| {
            if let Some(l) = declared(local[v]) {
                written[l] = true;
            }
        });
    }
    out
}

/// The variable `i` sets to zero bits, if it does: `x = 0`, or a constant
/// operation of zero bits with one result.
fn zero_def(f: &Function, ops: &OpTable, i: Inst) -> Option<Var> {
    match *f.inst(i) {
        InstData::Copy {
            dst,
            src: Operand::Const(0),
        } => Some(dst),
        InstData::Op {
            op,
            imms,
            args,
            results,
        } if args.as_slice(f).is_empty() && ops.is_zero(op, imms.as_slice(f)) => {
            match results.as_slice(f) {
                &[dst] => Some(dst),
                _ => None,
            }
        }
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    //! When the rule fires, and the cases where it must not.
    use super::implicit_zeros;
    use crate::emit::ctl::Ctl;
    use crate::emit::locals::assign;
    use crate::emit::lower::OpTable;
    use crate::emit::structure::structure;
    use crate::emit::tests::run;

    /// Per instruction of the entry block of `text`'s one function: left
    /// out.
    fn zeros(text: &str) -> Vec<bool> {
        let (f, st, _) = run(text);
        let s = structure(&f).unwrap();
        let a = assign(&f, &s, &st);
        let ops = OpTable::new(f.symbols());
        let z = implicit_zeros(&f, &ops, &s, &st, &a.local, a.count);
        f.block_insts(f.entry()).iter().map(|&i| z[i]).collect()
    }

    /// `x = 0` at entry, `x` a loop counter: its local is zero already.
    #[test]
    fn a_zero_at_entry_is_left_out() {
        let z = zeros(
            "function f(n) {\ne:\n  x = 0\n  jump h\nh:\n  x = x + 1\n  c = x < n\n  branch c, h, o\no:\n  ret x\n}\n",
        );
        assert_eq!(z, [true]);
    }

    /// Floats and vectors too: `f64.const[0]()` and `v128.const[0, 0]()`
    /// at entry are left out; `f64.const` of `-0.0` (other bits) is not.
    #[test]
    fn a_float_or_vector_zero_at_entry_is_left_out() {
        let z = zeros(
            "operator f64.const pure\noperator f64.add pure\noperator v128.const pure\noperator i64x2.add pure\nfunction f(n) {\ne:\n  x: f64 = f64.const[0]()\n  v: v128 = v128.const[0, 0]()\n  m: f64 = f64.const[-9223372036854775808]()\n  jump h\nh:\n  x = f64.add(x, m)\n  v = i64x2.add(v, v)\n  print x\n  print v\n  n = n - 1\n  branch n, h, o\no:\n  ret n\n}\n",
        );
        assert_eq!(z, [true, true, false]);
    }

    /// Also when `block`s open before the entry's body (a forward
    /// branch from it to a join), which still runs once.
    #[test]
    fn a_zero_after_opening_blocks_is_left_out() {
        let src = "function f(n) {\ne:\n  x = 0\n  print n\n  branch n, a, b\na:\n  print x\n  branch x, b, m\nb:\n  x = n * 2\n  jump m\nm:\n  r = x + n\n  ret r\n}\n";
        let (f, _, _) = run(src);
        let s = structure(&f).unwrap();
        assert_eq!(s.items[0], Ctl::Block, "{:?}", s.items);
        assert_eq!(zeros(src), [true, false]);
    }

    /// Not a parameter's (`n = 0`), not another constant (`w = 3`), not
    /// after a write of the same local (`x = m * 2`),
    /// and not when the entry block is a loop's header (run again).
    #[test]
    fn no_zero_left_out_where_the_local_may_hold_another_value() {
        let z = zeros(
            "function f(n, m) {\ne:\n  x = m * 2\n  print x\n  n = 0\n  x = 0\n  w = 3\n  jump h\nh:\n  x = x + w\n  c = x < m\n  branch c, h, o\no:\n  r = x + n\n  ret r\n}\n",
        );
        assert_eq!(z, [false, false, false, false, false]);
        let z = zeros(
            "function f(n) {\ne:\n  x = 0\n  n = n - 1\n  print x\n  print x\n  branch n, e, o\no:\n  ret n\n}\n",
        );
        assert_eq!(z, [false, false, false, false]);
    }
}
