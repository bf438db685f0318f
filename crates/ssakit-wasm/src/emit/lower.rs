//! Lifted operations back to WebAssembly operators: the inverse of
//! [`crate::operators`], generated from the same `for_each_operator!`
//! table, so that every operator the lifter accepts round-trips.
//!
//! An operation `NAME[IMMS](ARGS)` names its operator by mnemonic; the
//! immediates are read back in the order [`crate::operators`] wrote them
//! (a memory argument is `offset, align, memory`; a constant is its bits;
//! a `v128` is two `i64`s, low half first). The operator is rebuilt as a
//! `wasmparser::Operator` and re-encoded by `wasm_encoder`'s
//! [`reencode`](wasm_encoder::reencode) support.
//!
//! Integer literals lost their width in lifting (`i32.const 1` and
//! `i64.const 1` are both the operand `1`): [`OpTable`] keeps, per
//! operator, which operands are `i64` (a bit mask from the mnemonic:
//! every operand of an `i64.` operator but the `i32` of `extend_i32_*`
//! and of memory addresses, the `i64` of `i32.wrap_i64`, of
//! `f32/f64.convert_i64_*` and `reinterpret_i64`, of `i64x2.splat` and
//! `replace_lane`); every other integer operand is `i32`.

use crate::module::Signature;
use crate::operators::mnemonic;
use rustc_hash::FxHashMap;
use ssakit::entity::SecondaryMap;
use ssakit::ir::{Operator, Symbols, Type};
use wasmparser::{
    BlockType, BrTable, HeapType, Ieee32, Ieee64, MemArg, MemArgTarget, Operator as WasmOp,
    ValType, V128,
};

/// Rebuilds an operator from its immediates (`None`: too few or out of
/// range).
pub(crate) type Builder = fn(&[i64]) -> Option<WasmOp<'static>>;

trait FromImms: Sized {
    fn take(it: &mut std::slice::Iter<'_, i64>) -> Option<Self>;
}

impl FromImms for u32 {
    fn take(it: &mut std::slice::Iter<'_, i64>) -> Option<Self> {
        u32::try_from(*it.next()?).ok()
    }
}
impl FromImms for u8 {
    fn take(it: &mut std::slice::Iter<'_, i64>) -> Option<Self> {
        u8::try_from(*it.next()?).ok()
    }
}
impl FromImms for i32 {
    fn take(it: &mut std::slice::Iter<'_, i64>) -> Option<Self> {
        i32::try_from(*it.next()?).ok()
    }
}
impl FromImms for i64 {
    fn take(it: &mut std::slice::Iter<'_, i64>) -> Option<Self> {
        it.next().copied()
    }
}
impl FromImms for Ieee32 {
    fn take(it: &mut std::slice::Iter<'_, i64>) -> Option<Self> {
        let bits = u32::try_from(*it.next()?).ok()?;
        Some(Ieee32::from(f32::from_bits(bits)))
    }
}
impl FromImms for Ieee64 {
    fn take(it: &mut std::slice::Iter<'_, i64>) -> Option<Self> {
        Some(Ieee64::from(f64::from_bits(*it.next()? as u64)))
    }
}
impl FromImms for [u8; 16] {
    fn take(it: &mut std::slice::Iter<'_, i64>) -> Option<Self> {
        let lo = *it.next()?;
        let hi = *it.next()?;
        let mut b = [0u8; 16];
        b[..8].copy_from_slice(&lo.to_le_bytes());
        b[8..].copy_from_slice(&hi.to_le_bytes());
        Some(b)
    }
}
impl FromImms for V128 {
    fn take(it: &mut std::slice::Iter<'_, i64>) -> Option<Self> {
        let b: [u8; 16] = FromImms::take(it)?;
        Some(V128::from(u128::from_le_bytes(b)))
    }
}
impl FromImms for MemArg {
    fn take(it: &mut std::slice::Iter<'_, i64>) -> Option<Self> {
        let offset = u64::try_from(*it.next()?).ok()?;
        let align = u8::try_from(*it.next()?).ok()?;
        let memory = u32::try_from(*it.next()?).ok()?;
        Some(MemArg {
            align,
            max_align: align,
            offset,
            target: MemArgTarget::Memory(memory),
            ordering: None,
        })
    }
}
impl FromImms for HeapType {
    fn take(it: &mut std::slice::Iter<'_, i64>) -> Option<Self> {
        heap_type(*it.next()?)
    }
}
impl FromImms for ValType {
    fn take(it: &mut std::slice::Iter<'_, i64>) -> Option<Self> {
        Some(match *it.next()? {
            0x7f => ValType::I32,
            0x7e => ValType::I64,
            0x7d => ValType::F32,
            0x7c => ValType::F64,
            0x7b => ValType::V128,
            c => ValType::Ref(wasmparser::RefType::new(true, heap_type(c)?)?),
        })
    }
}
// Control operators are emitted as control flow, never as operations.
impl FromImms for BlockType {
    fn take(_: &mut std::slice::Iter<'_, i64>) -> Option<Self> {
        None
    }
}
impl FromImms for BrTable<'static> {
    fn take(_: &mut std::slice::Iter<'_, i64>) -> Option<Self> {
        None
    }
}
impl FromImms for Vec<ValType> {
    fn take(_: &mut std::slice::Iter<'_, i64>) -> Option<Self> {
        None
    }
}

/// The heap type of binary code `c` (see [`crate::operators::heap_type_code`]).
fn heap_type(c: i64) -> Option<HeapType> {
    match c {
        0x70 => Some(HeapType::FUNC),
        0x6f => Some(HeapType::EXTERN),
        _ => None,
    }
}

macro_rules! build_one {
    (accept $op:ident $visit:ident $($arg:ident)*) => {
        Some((
            stringify!($visit),
            (|imms: &[i64]| {
                #[allow(unused_mut, unused_variables)]
                let mut it = imms.iter();
                $( let $arg = FromImms::take(&mut it)?; )*
                Some(WasmOp::$op { $($arg),* })
            }) as Builder,
        ))
    };
    (@mvp $($rest:tt)*) => { build_one!(accept $($rest)*) };
    (@sign_extension $($rest:tt)*) => { build_one!(accept $($rest)*) };
    (@saturating_float_to_int $($rest:tt)*) => { build_one!(accept $($rest)*) };
    (@bulk_memory $($rest:tt)*) => { build_one!(accept $($rest)*) };
    (@reference_types $($rest:tt)*) => { build_one!(accept $($rest)*) };
    (@simd $($rest:tt)*) => { build_one!(accept $($rest)*) };
    (@$proposal:ident $op:ident $visit:ident $($arg:ident)*) => { None };
}

macro_rules! define_builders {
    ($( @$proposal:ident $op:ident $({ $($arg:ident: $argty:ty),* })? => $visit:ident ($($ann:tt)*) )*) => {
        /// wasmparser's visitor name and builder of every operator of an
        /// accepted proposal.
        pub(crate) fn builders() -> Vec<(&'static str, Builder)> {
            let all: Vec<Option<(&'static str, Builder)>> = vec![
                $( build_one!(@$proposal $op $visit $($($arg)*)?), )*
            ];
            all.into_iter().flatten().collect()
        }
    };
}

wasmparser::for_each_operator!(define_builders);

/// How an operation is emitted.
#[derive(Clone, Copy, Debug)]
pub(crate) enum Lowered {
    /// `select`: typed when its result is a reference.
    Select,
    /// `call_indirect[type, table](args..., index)`.
    CallIndirect,
    /// `global.set[g](v)`: `v` of the global's type.
    GlobalSet,
    /// Any other operator: its builder and which operands are `i64`.
    Plain {
        /// Rebuilds the operator.
        build: Builder,
        /// Bit `k`: operand `k` is an `i64` (for literals).
        i64_mask: u64,
    },
}

/// How a function's names map to the module being built.
///
/// ```
/// use ssakit::ir::Type;
/// use ssakit_wasm::emit::{emit_function, Lowering, OpTable};
/// // `g` (function 0, type 0) calls `h` (function 1, type 1).
/// let m = ssakit::text::parse_module(
///     "function g(a) {\nentry:\n  r = h(a)\n  ret r\n}\nfunction h(a) {\nentry:\n  ret a\n}\n",
/// )
/// .unwrap();
/// let g = &m.functions[0];
/// let ops = OpTable::new(g.symbols());
/// let one = ssakit_wasm::module::Signature { params: vec![Type::I64], results: vec![Type::I64] };
/// let types = [Some(one.clone()), Some(one)];
/// let h = g.symbols().find_callee("h").unwrap();
/// let mut callees = vec![None; h.index() + 1];
/// callees[h.index()] = Some(1);
/// let low = Lowering {
///     ops: &ops, callees: &callees, func_types: &[0, 1], types: &types, globals: &[], print: &[],
/// };
/// assert!(emit_function(g, &low).is_ok());
/// let no_callees = Lowering { callees: &[], ..low };
/// assert!(emit_function(g, &no_callees).is_err()); // `h` is not mapped
/// ```
#[derive(Clone, Copy, Debug)]
pub struct Lowering<'a> {
    /// How each operator of the function's symbol table is emitted
    /// ([`OpTable::new`] once per symbol table).
    pub ops: &'a OpTable,
    /// The function index of each callee of the symbol table, by
    /// [`Callee`](ssakit::ir::Callee) index (`None`: not callable).
    pub callees: &'a [Option<u32>],
    /// The type index of each function index.
    pub func_types: &'a [u32],
    /// The signature of each type index (`None`: not a function type).
    pub types: &'a [Option<Signature>],
    /// The type of each global index.
    pub globals: &'a [Type],
    /// The function index `print` with `k` arguments calls, by `k`
    /// (arguments `i64`, no result).
    pub print: &'a [Option<u32>],
}

/// Per operator of a symbol table, how it is emitted: the first field of
/// a [`Lowering`], built once per symbol table.
///
/// ```
/// use ssakit::ir::{Effects, Symbols};
/// let mut s = Symbols::new();
/// s.operator("i32.load", Effects::TRAP.union(Effects::READ)).unwrap();
/// s.operator("my.op", Effects::PURE).unwrap(); // an error when emitted
/// let ops = ssakit_wasm::emit::OpTable::new(&s);
/// let low = ssakit_wasm::emit::Lowering {
///     ops: &ops, callees: &[], func_types: &[], types: &[], globals: &[], print: &[],
/// };
/// # let _ = low;
/// ```
#[derive(Clone, Debug)]
pub struct OpTable {
    by_op: SecondaryMap<Operator, Option<Lowered>>,
    /// Per operator: a constant without operands, and how its immediates
    /// say it is zero bits ([`OpTable::is_zero`]).
    constant: SecondaryMap<Operator, Option<Constant>>,
}

/// A constant operator: which of its values are a local's initial value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Constant {
    /// `f32.const`, `f64.const`, `v128.const`: the immediates are the
    /// value's bits; zero bits (`+0.0`, the zero vector) when all are 0.
    Bits,
    /// `ref.null[type]`: always the null reference.
    Null,
}

impl OpTable {
    /// The table for every operator of `symbols` that names a WebAssembly
    /// operator (others are errors when emitted).
    pub fn new(symbols: &Symbols) -> OpTable {
        let mut by_name: FxHashMap<String, Builder> = FxHashMap::default();
        for (visit, b) in builders() {
            if visit == "visit_typed_select" {
                continue;
            }
            by_name.insert(mnemonic(visit), b);
        }
        let mut by_op = SecondaryMap::new(None);
        let mut constant = SecondaryMap::new(None);
        for (op, data) in symbols.operators() {
            let name: &str = &data.name;
            constant[op] = match name {
                "f32.const" | "f64.const" | "v128.const" => Some(Constant::Bits),
                "ref.null" => Some(Constant::Null),
                _ => None,
            };
            let l = match name {
                "select" => Some(Lowered::Select),
                "call_indirect" => Some(Lowered::CallIndirect),
                "global.set" => Some(Lowered::GlobalSet),
                _ => by_name.get(name).map(|&build| Lowered::Plain {
                    build,
                    i64_mask: i64_mask(name),
                }),
            };
            by_op[op] = l;
        }
        OpTable { by_op, constant }
    }

    /// `op[imms]()` is a constant of zero bits, the value WebAssembly
    /// gives a declared local at entry: `f32.const 0`, `f64.const 0`
    /// (not `-0.0`), `v128.const 0`, `ref.null`. (Integer zeros are the
    /// literal `0`, not operations.)
    pub(crate) fn is_zero(&self, op: Operator, imms: &[i64]) -> bool {
        match self.constant[op] {
            Some(Constant::Bits) => !imms.is_empty() && imms.iter().all(|&b| b == 0),
            Some(Constant::Null) => true,
            None => false,
        }
    }

    /// How `op` is emitted, if it is a WebAssembly operator.
    pub(crate) fn get(&self, op: Operator) -> Option<Lowered> {
        self.by_op[op]
    }
}

/// Which operands of the operator named `name` are `i64` (see the module
/// documentation).
pub(crate) fn i64_mask(name: &str) -> u64 {
    let (ty, op) = name.split_once('.').unwrap_or((name, ""));
    let memory = op.starts_with("load") || op.starts_with("store");
    match ty {
        "i64" if memory => 0b10,
        "i64" if op.starts_with("extend_i32") => 0,
        "i64" => !0,
        "i32" if op == "wrap_i64" => 1,
        "f32" | "f64" if op.contains("_i64") => 1,
        "i64x2" if op == "splat" => 1,
        "i64x2" if op == "replace_lane" => 0b10,
        _ => 0,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn masks() {
        assert_eq!(i64_mask("i64.add"), !0);
        assert_eq!(i64_mask("i64.store"), 0b10);
        assert_eq!(i64_mask("i64.load") & 1, 0);
        assert_eq!(i64_mask("i64.extend_i32_s"), 0);
        assert_eq!(i64_mask("i32.wrap_i64"), 1);
        assert_eq!(i64_mask("f64.convert_i64_u"), 1);
        assert_eq!(i64_mask("f64.convert_i32_u"), 0);
        assert_eq!(i64_mask("i32.add"), 0);
    }

    #[test]
    fn builders_rebuild_operators_and_refuse_bad_immediates() {
        let all = builders();
        let (_, local_get) = all.iter().find(|(v, _)| *v == "visit_local_get").unwrap();
        assert_eq!(
            local_get(&[3]),
            Some(wasmparser::Operator::LocalGet { local_index: 3 })
        );
        assert_eq!(local_get(&[-1]), None); // out of range
    }

    #[test]
    fn the_table_knows_wasm_operators_only() {
        use ssakit::ir::Effects;
        let mut s = Symbols::new();
        let add = s.operator("i64.add", Effects::PURE).unwrap();
        let select = s.operator("select", Effects::PURE).unwrap();
        let set = s.operator("global.set", Effects::WRITE).unwrap();
        let load = s
            .operator("i32.load", Effects::TRAP.union(Effects::READ))
            .unwrap();
        let c = s.operator("f32.const", Effects::PURE).unwrap();
        let mine = s.operator("my.op", Effects::PURE).unwrap();
        let t = OpTable::new(&s);
        let Some(Lowered::Plain { build, i64_mask }) = t.get(add) else {
            panic!()
        };
        assert_eq!(i64_mask, !0);
        assert_eq!(build(&[]), Some(wasmparser::Operator::I64Add));
        assert!(matches!(t.get(select), Some(Lowered::Select)));
        assert!(matches!(t.get(set), Some(Lowered::GlobalSet)));
        assert!(t.get(load).is_some());
        assert!(t.get(mine).is_none()); // not a WebAssembly operator
        let Some(Lowered::Plain { build, .. }) = t.get(c) else {
            panic!()
        };
        let one = build(&[1.0f32.to_bits() as i64]).unwrap();
        assert!(
            matches!(one, wasmparser::Operator::F32Const { value } if value.bits() == 1.0f32.to_bits())
        );
        assert!(build(&[]).is_none()); // too few immediates
    }

    #[test]
    fn zero_constants_are_zero_bits_or_null() {
        use ssakit::ir::Effects;
        let mut s = Symbols::new();
        let f64c = s.operator("f64.const", Effects::PURE).unwrap();
        let v128c = s.operator("v128.const", Effects::PURE).unwrap();
        let null = s.operator("ref.null", Effects::PURE).unwrap();
        let add = s.operator("i32.add", Effects::PURE).unwrap();
        let t = OpTable::new(&s);
        assert!(t.is_zero(f64c, &[0]));
        assert!(!t.is_zero(f64c, &[(-0.0f64).to_bits() as i64]));
        assert!(!t.is_zero(f64c, &[1.0f64.to_bits() as i64]));
        assert!(t.is_zero(v128c, &[0, 0]));
        assert!(!t.is_zero(v128c, &[0, 1]));
        assert!(t.is_zero(null, &[0x70]));
        assert!(!t.is_zero(add, &[]));
    }

    #[test]
    fn every_accepted_operator_has_a_builder() {
        let n = builders().len();
        assert_eq!(n, crate::operators::accepted_visits().len());
    }
}
