//! Demanded bits of SSA values: for each value, the bits some use may
//! observe (LLVM's `DemandedBits` analysis, on the operations the x86
//! lifting writes). The signature analysis ([`crate::signature`]) asks
//! it whether the upper part an 8- or 16-bit write keeps (`mov dl, al`:
//! `rdx = i64.or(i64.and(rdx, !0xff), al)`) is ever looked at: clang -O0
//! stores such a byte with `mov [rax+rcx], dl`, so only the low 8 bits
//! of the merged `rdx` are demanded and the old `rdx` is not used.
//!
//! A backward fixpoint over the masks, which only grow (an `or` of
//! contributions): a **transfer** operation passes on what its result's
//! users demand, narrowed by what the operation looks at; every other
//! use demands all bits.
//!
//! | use | demands of the operand |
//! |---|---|
//! | `dst = src`, `dst = phi(..., src, ...)` | what `dst` demands |
//! | `i64.and(x, C)`, `i32.and(x, C)` | what the result demands, `& C` |
//! | `and`, `or`, `xor` of two values (`i64`, `i32`) | what the result demands |
//! | `i32.wrap_i64(x)`, `i64.extend_i32_u(x)` | what the result demands, low 32 bits |
//! | `i32.store8(a, x)`, `store16`, `i32.store`, ... | of `x` its width (`0xff`, ...); of `a` all |
//! | a return's operand at location `L` | all if the caller says so (a result), else none |
//! | anything else: an operation, a call, a branch | all |
//!
//! ```text
//! k = i64.and(rdx, -256)         k: 0xff       (from w)   rdx: 0xff & -256 = 0
//! w = i64.or(k, al)              w: 0xff       (from t)
//! t = i32.wrap_i64(w)            t: 0xff       (from b)
//! b = i32.and(t, 255)            b: 0xff       (stored as a byte)
//! i32.store8(p, b)
//! ```

use ssakit::entity::SecondaryMap;
use ssakit::ir::{Function, Inst, InstData, Opcode, Operand, Terminator, Var};

/// All 64 bits.
const ALL: u64 = !0;

/// The bits of each value of `f` that some use may observe; `ret(k, v)`:
/// whether operand `k` of a return, `v`, is observed in full (a result
/// the callers read) or not at all.
pub(crate) fn demanded_bits(
    f: &Function,
    ret: impl Fn(usize, Var) -> bool,
) -> SecondaryMap<Var, u64> {
    let mut bits: SecondaryMap<Var, u64> = SecondaryMap::with_capacity(f.num_vars(), 0);
    let mut def: SecondaryMap<Var, Option<Inst>> = SecondaryMap::with_capacity(f.num_vars(), None);
    let mut work = Vec::new();
    let demand = |v: Var, m: u64, bits: &mut SecondaryMap<Var, u64>, work: &mut Vec<Var>| {
        if bits[v] | m != bits[v] {
            bits[v] |= m;
            work.push(v);
        }
    };
    for &b in f.layout() {
        for &i in f.block_phis(b).iter().chain(f.block_insts(b)) {
            if let Some(dst) = transfer_result(f, i) {
                def[dst] = Some(i);
                continue;
            }
            let width = stored_width(f, i);
            match f.inst(i) {
                InstData::Op { args, .. } if width.is_some() => {
                    let args = args.as_slice(f);
                    for (k, a) in args.iter().enumerate() {
                        let m = if k + 1 == args.len() { width } else { None };
                        if let Operand::Var(v) = a {
                            demand(*v, m.unwrap_or(ALL), &mut bits, &mut work);
                        }
                    }
                }
                _ => f.for_each_use(i, |v| demand(v, ALL, &mut bits, &mut work)),
            }
        }
        match f.term(b) {
            Terminator::Ret(vals) => {
                for (k, &o) in vals.as_slice(f).iter().enumerate() {
                    if let Operand::Var(v) = o {
                        if ret(k, v) {
                            demand(v, ALL, &mut bits, &mut work);
                        }
                    }
                }
            }
            _ => f.for_each_term_use(b, |v| demand(v, ALL, &mut bits, &mut work)),
        }
    }
    while let Some(v) = work.pop() {
        let Some(i) = def[v] else { continue };
        let m = bits[v];
        operand_demands(f, i, m, |u, n| demand(u, n, &mut bits, &mut work));
    }
    bits
}

/// The result of `i` if it is a transfer operation (the module doc's
/// table): a copy, a phi, a bitwise `and`, `or`, `xor`, a width change.
fn transfer_result(f: &Function, i: Inst) -> Option<Var> {
    match f.inst(i) {
        InstData::Copy { dst, .. } | InstData::Phi { dst, .. } => Some(*dst),
        InstData::Op { op, results, .. } => {
            use Opcode::*;
            let code = f.opcode(*op)?;
            let bitwise = matches!(
                code,
                I64And | I32And | I64Or | I32Or | I64Xor | I32Xor | I32WrapI64 | I64ExtendI32U
            );
            match results.as_slice(f) {
                &[dst] if bitwise => Some(dst),
                _ => None,
            }
        }
        _ => None,
    }
}

/// The bits a store `i` looks at in the value it stores (its last
/// operand): its width; `None` if `i` is not a store.
fn stored_width(f: &Function, i: Inst) -> Option<u64> {
    let InstData::Op { op, .. } = f.inst(i) else {
        return None;
    };
    let access = f.opcode(*op)?.access().filter(|a| a.store)?;
    Some(match access.bytes {
        8.. => ALL,
        n => (1u64 << (8 * n)) - 1,
    })
}

/// What transfer operation `i` demands of each of its operands when
/// its result is demanded `m`: `out(operand, mask)` for each, in order.
fn operand_demands(f: &Function, i: Inst, m: u64, mut out: impl FnMut(Var, u64)) {
    let var = |o: &Operand| match o {
        Operand::Var(v) => Some(*v),
        _ => None,
    };
    match f.inst(i) {
        InstData::Copy { src, .. } => {
            if let Some(v) = var(src) {
                out(v, m);
            }
        }
        InstData::Phi { args, .. } => {
            for v in args.as_slice(f).iter().filter_map(|a| var(&a.value)) {
                out(v, m);
            }
        }
        InstData::Op { op, args, .. } => {
            let args = args.as_slice(f);
            let narrow = match f.opcode(*op) {
                Some(Opcode::I32WrapI64 | Opcode::I64ExtendI32U) => 0xffff_ffff,
                Some(Opcode::I64And | Opcode::I32And) => match args {
                    [_, Operand::Const(c)] | [Operand::Const(c), _] => *c as u64,
                    _ => ALL,
                },
                _ => ALL,
            };
            for v in args.iter().filter_map(var) {
                out(v, m & narrow);
            }
        }
        _ => {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The function of `src` and its variables by name.
    fn parse(src: &str) -> (Function, impl Fn(&Function, &str) -> Var) {
        let mut m = ssakit::text::parse(src).unwrap().module;
        let f = m.functions.remove(0);
        (f, |f: &Function, name: &str| f.var_by_name(name).unwrap())
    }

    #[test]
    fn a_byte_stored_demands_none_of_the_upper_part_a_byte_write_keeps() {
        // `mov dl, al; mov [p], dl` (the module doc's example), in a loop
        // whose header merges rdx's entry value with the loop's: the kept
        // upper part of `d` is never observed.
        let src = "operator i64.and pure\noperator i64.or pure\n\
                   operator i32.wrap_i64 pure\noperator i32.and pure\n\
                   operator i32.store8 trap write\n\
                   function f(rdx, al, p, c: bool) {\nentry:\n    jump h\nh:\n    \
                   d = phi(entry: rdx, h: w)\n    k = i64.and(d, -256)\n    \
                   w = i64.or(k, al)\n    t: i32 = i32.wrap_i64(w)\n    \
                   b: i32 = i32.and(t, 255)\n    i32.store8[0, 0, 0](p, b)\n    \
                   branch c, h, x\nx:\n    ret w\n}\n";
        let (f, v) = parse(src);
        let bits = demanded_bits(&f, |_, _| false);
        assert_eq!(bits[v(&f, "k")], 0xff);
        assert_eq!((bits[v(&f, "d")], bits[v(&f, "rdx")]), (0, 0));
        assert_eq!((bits[v(&f, "al")], bits[v(&f, "p")]), (0xff, ALL));
        // Returned as a result, the whole merge is observed.
        let bits = demanded_bits(&f, |_, _| true);
        assert_eq!(bits[v(&f, "rdx")], !0xff);
    }

    #[test]
    fn an_operation_or_a_wide_store_demands_all_bits() {
        let src = "operator i64.and pure\noperator i64.add pure\n\
                   operator i64.store trap write\n\
                   function f(a, b, p) {\nentry:\n    k = i64.and(a, -256)\n    \
                   s = i64.add(k, 1)\n    i64.store[0, 0, 0](p, b)\n    ret s\n}\n";
        let (f, v) = parse(src);
        let bits = demanded_bits(&f, |_, _| false);
        assert_eq!((bits[v(&f, "k")], bits[v(&f, "a")]), (ALL, !0xff));
        assert_eq!(bits[v(&f, "b")], ALL);
        assert_eq!(bits[v(&f, "s")], 0);
    }
}
