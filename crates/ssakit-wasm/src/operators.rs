//! Every WebAssembly operator as a named ssakit operation: its mnemonic,
//! its immediates as `i64`s and its effect class.
//!
//! The table is generated from wasmparser's `for_each_operator!` (one
//! entry per operator of every proposal it knows), so no operator is
//! forgotten: an operator of an accepted proposal (the MVP, sign extension,
//! saturating float-to-int, bulk memory, reference types, SIMD; mutable
//! globals and multi-value need no operator of their own) is
//! [`Class::Generic`] unless the lifter gives it a meaning of its own
//! (control flow, locals, calls, `select`, `drop`, integer constants); an
//! operator of any other proposal is [`Class::Unsupported`], which the
//! validator has refused before the lifter sees it.
//!
//! * **Name**: the mnemonic of the WebAssembly text format, `i32.add`,
//!   `i64.load`, `i8x16.shuffle`, `memory.grow` (wasmparser's visitor name
//!   with its first `_` made a `.`).
//! * **Immediates**, in the order of the binary format: a memory argument
//!   is `offset, align, memory`; an index is itself; a constant is its
//!   bits (`f32.const[1065353216]` is 1.0); a lane is its number; a
//!   `v128` (constant or shuffle lanes) is two `i64`s, low half first; a
//!   heap or value type is its binary code (`ref.null[112]` is
//!   `ref.null func`).
//! * **Effects** ([`effects`]): loads trap and read, stores trap and
//!   write, integer division and remainder and float-to-int truncation
//!   trap, `global.get` reads and `global.set` writes, `memory.grow` reads
//!   and writes, bulk memory and table operations trap, read and write as
//!   they access, `call_indirect` calls; everything else (arithmetic,
//!   comparisons, conversions that cannot fail, SIMD lanes, `select`,
//!   constants, `ref.func`) is pure. For the operators that are
//!   operations of ssakit's [operation set](ssakit::ir::Opcode) (the
//!   numeric and memory instructions of the MVP, sign extension and
//!   saturating truncation, `select`, globals, `memory.size` and
//!   `memory.grow`) the effects are the set's, stated there once, and so
//!   is their meaning: the interpreter runs them and constant propagation
//!   folds them.

use ssakit::ir::Effects;
use wasmparser::{BlockType, BrTable, HeapType, Ieee32, Ieee64, MemArg, Operator, ValType, V128};

/// What an operator is to the lifter.
///
/// ```
/// use ssakit_wasm::operators::{classify, Class};
/// use wasmparser::Operator;
/// let mut imms = Vec::new();
/// assert_eq!(
///     classify(&Operator::I32Add, &mut imms),
///     Class::Generic { visit: "visit_i32_add", arity: Some((2, 1)) }
/// );
/// assert_eq!(
///     classify(&Operator::ReturnCall { function_index: 0 }, &mut imms),
///     Class::Unsupported("tail_call")
/// );
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Class {
    /// A generic operation: wasmparser's visitor name (`visit_i32_add`; see
    /// [`mnemonic`]), and the number of operands it pops and results it
    /// pushes when that is fixed (`None` for control flow and calls, which
    /// the lifter handles itself).
    Generic {
        /// wasmparser's visitor name.
        visit: &'static str,
        /// `(operands, results)`, if fixed.
        arity: Option<(u32, u32)>,
    },
    /// An operator of a proposal ssakit does not accept (named).
    Unsupported(&'static str),
}

/// Immediates of one kind, appended to the operation's list.
trait Imms {
    fn push_imms(&self, out: &mut Vec<i64>);
}

impl Imms for u32 {
    fn push_imms(&self, out: &mut Vec<i64>) {
        out.push(*self as i64);
    }
}
impl Imms for u8 {
    fn push_imms(&self, out: &mut Vec<i64>) {
        out.push(*self as i64);
    }
}
impl Imms for i32 {
    fn push_imms(&self, out: &mut Vec<i64>) {
        out.push(*self as i64);
    }
}
impl Imms for i64 {
    fn push_imms(&self, out: &mut Vec<i64>) {
        out.push(*self);
    }
}
impl Imms for Ieee32 {
    fn push_imms(&self, out: &mut Vec<i64>) {
        out.push(self.bits() as i64);
    }
}
impl Imms for Ieee64 {
    fn push_imms(&self, out: &mut Vec<i64>) {
        out.push(self.bits() as i64);
    }
}
/// Sixteen bytes as two little-endian `i64`s, low half first.
fn push_bytes16(b: &[u8; 16], out: &mut Vec<i64>) {
    let lo = i64::from_le_bytes(b[..8].try_into().expect("8 bytes"));
    let hi = i64::from_le_bytes(b[8..].try_into().expect("8 bytes"));
    out.extend([lo, hi]);
}
impl Imms for V128 {
    fn push_imms(&self, out: &mut Vec<i64>) {
        push_bytes16(self.bytes(), out);
    }
}
impl Imms for [u8; 16] {
    fn push_imms(&self, out: &mut Vec<i64>) {
        push_bytes16(self, out);
    }
}
impl Imms for MemArg {
    fn push_imms(&self, out: &mut Vec<i64>) {
        let memory = match self.target {
            wasmparser::MemArgTarget::Memory(m) => m as i64,
            wasmparser::MemArgTarget::Array(t) => -1 - t as i64,
        };
        out.extend([self.offset as i64, self.align as i64, memory]);
    }
}
impl Imms for HeapType {
    fn push_imms(&self, out: &mut Vec<i64>) {
        out.push(heap_type_code(*self));
    }
}
impl Imms for ValType {
    fn push_imms(&self, out: &mut Vec<i64>) {
        out.push(val_type_code(*self));
    }
}
impl Imms for Vec<ValType> {
    fn push_imms(&self, out: &mut Vec<i64>) {
        for t in self {
            t.push_imms(out);
        }
    }
}
// Control operators are lifted as control flow, never as operations.
impl Imms for BlockType {
    fn push_imms(&self, _: &mut Vec<i64>) {}
}
impl Imms for BrTable<'_> {
    fn push_imms(&self, _: &mut Vec<i64>) {}
}

/// The binary code of a heap type (`func` 0x70, `extern` 0x6f); a
/// concrete type index as itself.
///
/// ```
/// use ssakit_wasm::operators::heap_type_code;
/// use wasmparser::HeapType;
/// assert_eq!(heap_type_code(HeapType::FUNC), 0x70);
/// assert_eq!(heap_type_code(HeapType::EXTERN), 0x6f);
/// ```
pub fn heap_type_code(h: HeapType) -> i64 {
    match h {
        HeapType::Abstract { ty, .. } => match ty {
            wasmparser::AbstractHeapType::Func => 0x70,
            wasmparser::AbstractHeapType::Extern => 0x6f,
            _ => -1,
        },
        HeapType::Concrete(i) | HeapType::Exact(i) => i.as_module_index().map_or(-1, |i| i as i64),
    }
}

/// The binary code of a value type (`i32` 0x7f ... `externref` 0x6f).
///
/// ```
/// use ssakit_wasm::operators::val_type_code;
/// use wasmparser::{RefType, ValType};
/// assert_eq!(val_type_code(ValType::I32), 0x7f);
/// assert_eq!(val_type_code(ValType::V128), 0x7b);
/// assert_eq!(val_type_code(ValType::Ref(RefType::EXTERNREF)), 0x6f);
/// ```
pub fn val_type_code(t: ValType) -> i64 {
    match t {
        ValType::I32 => 0x7f,
        ValType::I64 => 0x7e,
        ValType::F32 => 0x7d,
        ValType::F64 => 0x7c,
        ValType::V128 => 0x7b,
        ValType::Ref(r) => heap_type_code(r.heap_type()),
    }
}

macro_rules! arity {
    (arity memarg $a:tt -> $b:tt) => {
        Some(($a, $b))
    };
    (arity $a:tt -> $b:tt) => {
        Some(($a, $b))
    };
    (arity custom) => {
        None
    };
}

/// One operator's arm: its immediates for an accepted proposal, or
/// `Unsupported`.
macro_rules! classify_one {
    (accept $visit:ident $imms:ident ($($ann:tt)*) $($arg:ident)*) => {{
        $( Imms::push_imms($arg, $imms); )*
        Class::Generic { visit: stringify!($visit), arity: arity!($($ann)*) }
    }};
    (@mvp $($rest:tt)*) => { classify_one!(accept $($rest)*) };
    (@sign_extension $($rest:tt)*) => { classify_one!(accept $($rest)*) };
    (@saturating_float_to_int $($rest:tt)*) => { classify_one!(accept $($rest)*) };
    (@bulk_memory $($rest:tt)*) => { classify_one!(accept $($rest)*) };
    (@reference_types $($rest:tt)*) => { classify_one!(accept $($rest)*) };
    (@simd $($rest:tt)*) => { classify_one!(accept $($rest)*) };
    (@$proposal:ident $visit:ident $imms:ident ($($ann:tt)*) $($arg:ident)*) => {{
        $( let _ = $arg; )*
        Class::Unsupported(stringify!($proposal))
    }};
}

macro_rules! define_classify {
    ($( @$proposal:ident $op:ident $({ $($arg:ident: $argty:ty),* })? => $visit:ident ($($ann:tt)*) )*) => {
        /// The class of `op`, appending its immediates to `imms` when it is
        /// generic.
        ///
        /// ```
        /// use ssakit_wasm::operators::{classify, Class};
        /// use wasmparser::Operator;
        /// let mut imms = Vec::new();
        /// let c = classify(&Operator::GlobalGet { global_index: 5 }, &mut imms);
        /// assert!(matches!(c, Class::Generic { visit: "visit_global_get", .. }));
        /// assert_eq!(imms, [5]);
        /// ```
        pub fn classify(op: &Operator<'_>, imms: &mut Vec<i64>) -> Class {
            #[allow(unreachable_patterns)]
            match op {
                $(
                    Operator::$op $({ $($arg),* })? => {
                        classify_one!(@$proposal $visit imms ($($ann)*) $($($arg)*)?)
                    }
                )*
                _ => Class::Unsupported("unknown"),
            }
        }

        /// wasmparser's visitor name of every operator of an accepted
        /// proposal, in its order.
        ///
        /// ```
        /// let v = ssakit_wasm::operators::accepted_visits();
        /// assert!(v.contains(&"visit_i32_add") && v.contains(&"visit_i8x16_shuffle"));
        /// assert!(!v.contains(&"visit_return_call")); // tail calls are not accepted
        /// ```
        pub fn accepted_visits() -> Vec<&'static str> {
            let mut out = Vec::new();
            $(
                if accepted(stringify!($proposal)) {
                    out.push(stringify!($visit));
                }
            )*
            out
        }
    };
}

wasmparser::for_each_operator!(define_classify);

/// Whether operators of the proposal named `p` (as wasmparser names it)
/// are lifted.
fn accepted(p: &str) -> bool {
    matches!(
        p,
        "mvp"
            | "sign_extension"
            | "saturating_float_to_int"
            | "bulk_memory"
            | "reference_types"
            | "simd"
    )
}

/// The text-format mnemonic of wasmparser's visitor name: `visit_i32_add`
/// is `i32.add`, `visit_i8x16_shuffle` is `i8x16.shuffle`.
///
/// ```
/// use ssakit_wasm::operators::mnemonic;
/// assert_eq!(mnemonic("visit_i32_add"), "i32.add");
/// assert_eq!(mnemonic("visit_i32_trunc_sat_f32_s"), "i32.trunc_sat_f32_s");
/// assert_eq!(mnemonic("visit_typed_select"), "select");
/// assert_eq!(mnemonic("visit_call_indirect"), "call_indirect");
/// ```
pub fn mnemonic(visit: &str) -> String {
    let s = visit.strip_prefix("visit_").unwrap_or(visit);
    match s {
        "typed_select" | "select" => return "select".into(),
        "call_indirect" | "nop" | "drop" | "unreachable" => return s.into(),
        _ => {}
    }
    s.replacen('_', ".", 1)
}

/// The effect class of the operation named `name` (a [`mnemonic`]); see
/// the module documentation.
///
/// ```
/// use ssakit::ir::Effects;
/// use ssakit_wasm::operators::effects;
/// assert_eq!(effects("i32.add"), Effects::PURE);
/// assert_eq!(effects("i64.load8_u"), Effects::TRAP.union(Effects::READ));
/// assert_eq!(effects("i32.div_s"), Effects::TRAP);
/// assert_eq!(effects("f32.div"), Effects::PURE);
/// assert_eq!(effects("global.set"), Effects::WRITE);
/// ```
pub fn effects(name: &str) -> Effects {
    // An operation of ssakit's operation set has the set's effects: they
    // are stated once, there.
    if let Some(o) = ssakit::ir::Opcode::from_name(name) {
        return o.effects();
    }
    let t = Effects::TRAP;
    let r = Effects::READ;
    let w = Effects::WRITE;
    match name {
        "global.get" | "memory.size" | "table.size" => return r,
        "global.set" | "data.drop" | "elem.drop" => return w,
        "memory.grow" | "table.grow" => return r.union(w),
        "memory.fill" | "table.fill" | "table.set" => return t.union(w),
        "memory.copy" | "memory.init" | "table.copy" | "table.init" => return t.union(r).union(w),
        "table.get" => return t.union(r),
        "call_indirect" => return Effects::CALL,
        _ => {}
    }
    let (ty, op) = name.split_once('.').unwrap_or((name, ""));
    let scalar_int = ty == "i32" || ty == "i64";
    if op.starts_with("load") {
        t.union(r)
    } else if op.starts_with("store") {
        t.union(w)
    } else if scalar_int
        && (matches!(op, "div_s" | "div_u" | "rem_s" | "rem_u") || op.starts_with("trunc_f"))
    {
        t
    } else {
        Effects::PURE
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mnemonics() {
        assert_eq!(mnemonic("visit_i32_add"), "i32.add");
        assert_eq!(mnemonic("visit_i8x16_shuffle"), "i8x16.shuffle");
        assert_eq!(mnemonic("visit_memory_grow"), "memory.grow");
        assert_eq!(mnemonic("visit_i32_trunc_sat_f32_s"), "i32.trunc_sat_f32_s");
        assert_eq!(mnemonic("visit_ref_is_null"), "ref.is_null");
        assert_eq!(mnemonic("visit_typed_select"), "select");
        assert_eq!(mnemonic("visit_call_indirect"), "call_indirect");
    }

    #[test]
    fn effect_classes() {
        let tr = Effects::TRAP.union(Effects::READ);
        let tw = Effects::TRAP.union(Effects::WRITE);
        for (name, e) in [
            ("i32.add", Effects::PURE),
            ("f64.div", Effects::PURE),
            ("i32.div_s", Effects::TRAP),
            ("i64.rem_u", Effects::TRAP),
            ("i32.trunc_f64_u", Effects::TRAP),
            ("i32.trunc_sat_f64_u", Effects::PURE),
            ("f32.trunc", Effects::PURE),
            ("i32x4.trunc_sat_f32x4_s", Effects::PURE),
            ("i64.load", tr),
            ("v128.load8_lane", tr),
            ("v128.load32_zero", tr),
            ("i32.store8", tw),
            ("v128.store", tw),
            ("global.get", Effects::READ),
            ("global.set", Effects::WRITE),
            ("memory.grow", Effects::READ.union(Effects::WRITE)),
            ("memory.copy", tr.union(Effects::WRITE)),
            ("call_indirect", Effects::CALL),
            ("select", Effects::PURE),
            ("ref.func", Effects::PURE),
        ] {
            assert_eq!(effects(name), e, "{name}");
        }
    }

    /// Every accepted operator has a distinct, valid `.ssa` name.
    #[test]
    fn every_accepted_operator_has_a_name() {
        let visits = accepted_visits();
        assert!(visits.len() > 400, "{}", visits.len());
        let mut names: Vec<String> = visits.iter().map(|v| mnemonic(v)).collect();
        for n in &names {
            let mut chars = n.chars();
            let first = chars.next().unwrap();
            assert!(first.is_ascii_alphabetic() || first == '_', "{n}");
            assert!(
                chars.all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '.'),
                "{n}"
            );
        }
        names.sort();
        let before = names.len();
        names.dedup();
        // `select` and `typed_select` share a name.
        assert_eq!(before - names.len(), 1);
    }

    #[test]
    fn immediates() {
        let mut imms = Vec::new();
        let op = Operator::I32Load {
            memarg: MemArg {
                align: 2,
                max_align: 2,
                offset: 8,
                target: wasmparser::MemArgTarget::Memory(0),
                ordering: None,
            },
        };
        let c = classify(&op, &mut imms);
        assert_eq!(
            c,
            Class::Generic {
                visit: "visit_i32_load",
                arity: Some((1, 1))
            }
        );
        assert_eq!(imms, [8, 2, 0]);
    }
}
