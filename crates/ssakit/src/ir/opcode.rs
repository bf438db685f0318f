//! The operation set with meaning (section 13.8 of the chapter, "En
//! binarios": binary code given semantics): every operation ssakit knows the
//! semantics of, described once, in one table ([`Opcode`], whose
//! documentation gives the conventions).

use super::{Effects, Type};
use std::fmt;

/// Why an operation stopped the program (WebAssembly's traps).
///
/// ```
/// use ssakit::ir::{OpTrap, Opcode};
/// assert_eq!(Opcode::I32DivU.eval(&[], &[7, 0]), Err(OpTrap::DivisionByZero));
/// assert_eq!(Opcode::I32DivS.eval(&[], &[i32::MIN as i64, -1]), Err(OpTrap::IntegerOverflow));
/// assert_eq!(OpTrap::IntegerOverflow.to_string(), "integer overflow");
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum OpTrap {
    /// Integer division or remainder by zero.
    DivisionByZero,
    /// Signed integer division overflow, or a float-to-integer truncation
    /// out of the integer's range.
    IntegerOverflow,
    /// Float-to-integer truncation of a NaN.
    InvalidConversion,
    /// A load or store outside memory.
    OutOfBounds,
    /// An operation that may trap read `undef`: its behaviour is undefined.
    Undef,
}

impl fmt::Display for OpTrap {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            OpTrap::DivisionByZero => "integer divide by zero",
            OpTrap::IntegerOverflow => "integer overflow",
            OpTrap::InvalidConversion => "invalid conversion to integer",
            OpTrap::OutOfBounds => "out of bounds memory access",
            OpTrap::Undef => "operand is undef",
        })
    }
}

/// The type of an operand or result of an [`Opcode`].
///
/// ```
/// use ssakit::ir::{Opcode, Slot, Type};
/// assert_eq!(Opcode::I64ExtendI32U.params(), [Slot::Is(Type::I32)]);
/// assert_eq!(Opcode::I32Load.params(), [Slot::Address]);
/// assert!(Slot::Address.admits(Type::I64) && !Slot::Address.admits(Type::F64));
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Slot {
    /// Exactly this type.
    Is(Type),
    /// An address: `i32` or `i64`.
    Address,
    /// Any type, the same for every `Any` slot of the operation (`select`'s
    /// two values and its result; `global.get`'s result).
    Any,
}

impl Slot {
    /// Whether a value of type `ty` fits the slot (for `Any`, any type).
    ///
    /// ```
    /// use ssakit::ir::{Slot, Type};
    /// assert!(Slot::Is(Type::I32).admits(Type::I32) && !Slot::Is(Type::I32).admits(Type::I64));
    /// assert!(Slot::Any.admits(Type::V128));
    /// ```
    pub fn admits(self, ty: Type) -> bool {
        match self {
            Slot::Is(t) => t == ty,
            Slot::Address => matches!(ty, Type::I32 | Type::I64),
            Slot::Any => true,
        }
    }
}

impl fmt::Display for Slot {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Slot::Is(t) => write!(f, "{t}"),
            Slot::Address => f.write_str("i32 or i64"),
            Slot::Any => f.write_str("any type"),
        }
    }
}

/// A memory access of a load or store: its width in bytes, and for a
/// narrow load whether it sign-extends.
///
/// ```
/// use ssakit::ir::{Access, Opcode};
/// assert_eq!(Opcode::I64Load16S.access(), Some(Access { bytes: 2, signed: true, store: false }));
/// assert_eq!(Opcode::I32Store8.access(), Some(Access { bytes: 1, signed: false, store: true }));
/// assert_eq!(Opcode::I32Add.access(), None);
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct Access {
    /// Bytes read or written (1, 2, 4 or 8).
    pub bytes: u8,
    /// A narrow load sign-extends (else it zero-extends).
    pub signed: bool,
    /// A store (else a load).
    pub store: bool,
}

/// What kind of operation an opcode is: how the interpreter runs it.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) enum Kind {
    /// Computes its result from its operands (and immediates) alone:
    /// [`Opcode::eval`].
    Compute,
    /// A load or store of linear memory.
    Memory(Access),
    /// `select(a, b, c)`: `a` if `c` is not zero, else `b`, of any type.
    Select,
    /// `global.get[index]()`.
    GlobalGet,
    /// `global.set[index](value)`.
    GlobalSet,
    /// `memory.size[memory]()`, in 64 KiB pages.
    MemorySize,
    /// `memory.grow[memory](pages)`: the old size, or -1.
    MemoryGrow,
}

/// The value bits of one type, as the table's evaluation reads and writes
/// them.
trait Bits {
    type R;
    fn get(w: i64) -> Self::R;
    fn put(r: Self::R) -> i64;
}

/// The typed views of a 64-bit word.
mod view {
    pub(super) struct I32;
    pub(super) struct I64;
    pub(super) struct F32;
    pub(super) struct F64;
}

impl Bits for view::I32 {
    type R = i32;
    fn get(w: i64) -> i32 {
        w as i32
    }
    fn put(r: i32) -> i64 {
        r as i64
    }
}
impl Bits for view::I64 {
    type R = i64;
    fn get(w: i64) -> i64 {
        w
    }
    fn put(r: i64) -> i64 {
        r
    }
}
impl Bits for view::F32 {
    type R = f32;
    fn get(w: i64) -> f32 {
        f32::from_bits(w as u32)
    }
    fn put(r: f32) -> i64 {
        r.to_bits() as i64
    }
}
impl Bits for view::F64 {
    type R = f64;
    fn get(w: i64) -> f64 {
        f64::from_bits(w as u64)
    }
    fn put(r: f64) -> i64 {
        r.to_bits() as i64
    }
}

/// What an evaluation body may give: the value, a comparison's `bool`
/// (an `i32` 0 or 1), or a trap.
trait Out<R> {
    fn out(self) -> Result<R, OpTrap>;
}
impl<R> Out<R> for Result<R, OpTrap> {
    fn out(self) -> Result<R, OpTrap> {
        self
    }
}
macro_rules! out_plain {
    ($($t:ty),*) => {$(
        impl Out<$t> for $t {
            fn out(self) -> Result<$t, OpTrap> {
                Ok(self)
            }
        }
    )*};
}
out_plain!(i32, i64, f32, f64);
impl Out<i32> for bool {
    fn out(self) -> Result<i32, OpTrap> {
        Ok(self as i32)
    }
}

macro_rules! ty {
    (I32) => {
        Slot::Is(Type::I32)
    };
    (I64) => {
        Slot::Is(Type::I64)
    };
    (F32) => {
        Slot::Is(Type::F32)
    };
    (F64) => {
        Slot::Is(Type::F64)
    };
    (Addr) => {
        Slot::Address
    };
    (Any) => {
        Slot::Any
    };
}

/// The fixed signature of one operation: its operands' slots, its
/// result's slot if any, its number of immediates.
struct Signature {
    params: &'static [Slot],
    result: Option<Slot>,
    num_imms: u8,
}

macro_rules! effects {
    (pure) => {
        Effects::PURE
    };
    (trap) => {
        Effects::TRAP
    };
    (read) => {
        Effects::READ
    };
    (write) => {
        Effects::WRITE
    };
    (load) => {
        Effects::TRAP.union(Effects::READ)
    };
    (store) => {
        Effects::TRAP.union(Effects::WRITE)
    };
    (grow) => {
        Effects::READ.union(Effects::WRITE)
    };
}

/// The table. Each line is one operation:
///
/// ```text
/// Variant "name" [immediates] (operand views) -> result view, effects, |operands| body;
/// ```
///
/// `compute` lines are evaluated by their body (operands as the typed
/// values of their views; a body gives the result, a `bool` for an `i32`
/// 0 or 1, or a `Result` with a trap); `other` lines are run by the
/// interpreter from their [`Kind`].
macro_rules! table {
    (
        $(#[$doc:meta])*
        compute($imms:ident) {
            $( $cv:ident $cn:literal [$ci:literal] ($($cp:ident),*) -> $cr:ident, $ce:ident,
               |$($ca:ident),*| $cb:expr; )*
        }
        other {
            $( $ov:ident $on:literal [$oi:literal] ($($op:ident),*) -> $or:tt, $oe:ident, $ok:expr; )*
        }
    ) => {
        $(#[$doc])*
        ///
        /// ```
        /// use ssakit::ir::Opcode;
        /// let add = Opcode::from_name("i32.add").unwrap();
        /// assert_eq!((add, add.name()), (Opcode::I32Add, "i32.add"));
        /// assert_eq!(add.eval(&[], &[i32::MAX as i64, 1]), Ok(i32::MIN as i64));
        /// ```
        #[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, PartialOrd, Ord)]
        #[allow(missing_docs)]
        pub enum Opcode {
            $($cv,)*
            $($ov,)*
        }

        /// Each operation's fixed signature, indexed by the operation (the
        /// table's order): what [`Opcode::params`], [`Opcode::result`] and
        /// [`Opcode::num_imms`] read, one dense array instead of a `match`
        /// per question (the verifier and the passes ask once per
        /// instruction).
        static SIGNATURES: [Signature; Opcode::ALL.len()] = [
            $(Signature { params: &[$(ty!($cp)),*], result: Some(ty!($cr)), num_imms: $ci },)*
            $(Signature { params: &[$(ty!($op)),*], result: table!(@result $or), num_imms: $oi },)*
        ];

        impl Opcode {
            /// Every operation, in the table's order.
            pub const ALL: &'static [Opcode] = &[$(Opcode::$cv,)* $(Opcode::$ov,)*];

            /// The operation's name in the text format.
            ///
            /// ```
            /// use ssakit::ir::Opcode;
            /// assert_eq!(Opcode::F64ConvertI32U.name(), "f64.convert_i32_u");
            /// ```
            pub fn name(self) -> &'static str {
                match self {
                    $(Opcode::$cv => $cn,)*
                    $(Opcode::$ov => $on,)*
                }
            }

            /// Its operands' types, in order.
            ///
            /// ```
            /// use ssakit::ir::{Opcode, Slot, Type};
            /// assert_eq!(Opcode::I64Shl.params(), [Slot::Is(Type::I64); 2]);
            /// ```
            #[inline]
            pub fn params(self) -> &'static [Slot] {
                SIGNATURES[self as usize].params
            }

            /// Its result's type, if it has one (a store, `global.set`
            /// have none).
            ///
            /// ```
            /// use ssakit::ir::{Opcode, Slot, Type};
            /// assert_eq!(Opcode::I64Eqz.result(), Some(Slot::Is(Type::I32)));
            /// assert_eq!(Opcode::I64Store.result(), None);
            /// ```
            #[inline]
            pub fn result(self) -> Option<Slot> {
                SIGNATURES[self as usize].result
            }

            /// The number of its immediates: a constant's bits; a memory
            /// access's `offset, align, memory` (the memory may be left out:
            /// memory 0); a global's index; a memory's index.
            ///
            /// ```
            /// use ssakit::ir::Opcode;
            /// assert_eq!((Opcode::I32Load8U.num_imms(), Opcode::I32Add.num_imms()), (3, 0));
            /// ```
            #[inline]
            pub fn num_imms(self) -> usize {
                usize::from(SIGNATURES[self as usize].num_imms)
            }

            /// What executing it may do besides computing its result.
            ///
            /// ```
            /// use ssakit::ir::{Effects, Opcode};
            /// assert_eq!(Opcode::I32Add.effects(), Effects::PURE);
            /// assert_eq!(Opcode::I64RemS.effects(), Effects::TRAP);
            /// assert_eq!(Opcode::F32Load.effects(), Effects::TRAP.union(Effects::READ));
            /// ```
            pub fn effects(self) -> Effects {
                match self {
                    $(Opcode::$cv => effects!($ce),)*
                    $(Opcode::$ov => effects!($oe),)*
                }
            }

            /// How the interpreter runs it.
            pub(crate) fn kind(self) -> Kind {
                match self {
                    $(Opcode::$cv => Kind::Compute,)*
                    $(Opcode::$ov => $ok,)*
                }
            }

            /// The result of a computing operation on `imms` and the bits
            /// of its operands `args` (see [`Opcode`] for how each type is held in
            /// an `i64`), or its trap. The
            /// operations that touch state (loads, stores, globals, memory
            /// size) have no value here: `Err(OpTrap::Undef)`.
            ///
            /// ```
            /// use ssakit::ir::{OpTrap, Opcode};
            /// assert_eq!(Opcode::I64Popcnt.eval(&[], &[0xff]), Ok(8));
            /// assert_eq!(Opcode::I32LtU.eval(&[], &[-1, 0]), Ok(0));
            /// let one = 1.0f64.to_bits() as i64;
            /// assert_eq!(Opcode::I32TruncF64S.eval(&[], &[one]), Ok(1));
            /// assert_eq!(Opcode::I32TruncF64S.eval(&[], &[f64::NAN.to_bits() as i64]), Err(OpTrap::InvalidConversion));
            /// ```
            pub fn eval(self, $imms: &[i64], args: &[i64]) -> Result<i64, OpTrap> {
                let _ = $imms;
                match self {
                    $(Opcode::$cv => {
                        #[allow(unused_mut, unused_variables)]
                        let mut it = args.iter().copied();
                        $(let $ca = <view::$cp as Bits>::get(it.next().unwrap_or(0));)*
                        let r = Out::<<view::$cr as Bits>::R>::out($cb)?;
                        Ok(<view::$cr as Bits>::put(r))
                    })*
                    _ => Err(OpTrap::Undef),
                }
            }

            /// The operation named `name`, if the table has it.
            ///
            /// ```
            /// use ssakit::ir::Opcode;
            /// assert_eq!(Opcode::from_name("i64.load32_s"), Some(Opcode::I64Load32S));
            /// assert_eq!(Opcode::from_name("x86.cpuid"), None);
            /// ```
            pub fn from_name(name: &str) -> Option<Opcode> {
                Some(match name {
                    $($cn => Opcode::$cv,)*
                    $($on => Opcode::$ov,)*
                    _ => return None,
                })
            }
        }
    };
    (@result ()) => { None };
    (@result $r:ident) => { Some(ty!($r)) };
}

/// `a / b` and `a % b` on unsigned or signed integers, with WebAssembly's
/// traps.
macro_rules! divide {
    (div_s $a:ident $b:ident) => {
        match $b {
            0 => Err(OpTrap::DivisionByZero),
            _ => $a.checked_div($b).ok_or(OpTrap::IntegerOverflow),
        }
    };
    (rem_s $a:ident $b:ident) => {
        match $b {
            0 => Err(OpTrap::DivisionByZero),
            _ => Ok($a.wrapping_rem($b)),
        }
    };
}

fn div_u32(a: i32, b: i32) -> Result<i32, OpTrap> {
    match b {
        0 => Err(OpTrap::DivisionByZero),
        _ => Ok(((a as u32) / (b as u32)) as i32),
    }
}
fn rem_u32(a: i32, b: i32) -> Result<i32, OpTrap> {
    match b {
        0 => Err(OpTrap::DivisionByZero),
        _ => Ok(((a as u32) % (b as u32)) as i32),
    }
}
fn div_u64(a: i64, b: i64) -> Result<i64, OpTrap> {
    match b {
        0 => Err(OpTrap::DivisionByZero),
        _ => Ok(((a as u64) / (b as u64)) as i64),
    }
}
fn rem_u64(a: i64, b: i64) -> Result<i64, OpTrap> {
    match b {
        0 => Err(OpTrap::DivisionByZero),
        _ => Ok(((a as u64) % (b as u64)) as i64),
    }
}

/// The quotient (or, with `rem`, the remainder) of the double-width
/// division of the `i64.div_wide_*` operations: the dividend is `hi:lo`,
/// the low `w` bits of each (`w = imms[0]`: 8, 16, 32, or 64 for any
/// other value), `2w` bits read unsigned or as two's complement; the
/// divisor is the low `w` bits of `d`. Division truncates toward zero,
/// the remainder has the dividend's sign. A zero divisor traps
/// ([`OpTrap::DivisionByZero`]), a quotient out of the `w`-bit range
/// ([`OpTrap::IntegerOverflow`]) too, as x86's `#DE` does for both. The
/// result is `w` bits, zero-extended (unsigned) or sign-extended
/// (signed) to 64.
///
/// Worked example, `w = 8`, signed: `hi:lo = 0xff:0x9c` is -100, `d =
/// 0x07` is 7: quotient -14 (`0xfff...f2`), remainder -2; `hi:lo =
/// 0x04:0x00` (1024) by 2 gives 512, which does not fit: a trap.
fn wide_div(imms: &[i64], [hi, lo, d]: [i64; 3], signed: bool, rem: bool) -> Result<i64, OpTrap> {
    let w = match imms.first() {
        Some(&w @ (8 | 16 | 32)) => w as u32,
        _ => 64,
    };
    let mask = (1u128 << w) - 1;
    let n = ((hi as u64 as u128 & mask) << w) | (lo as u64 as u128 & mask);
    let dv = d as u64 as u128 & mask;
    if dv == 0 {
        return Err(OpTrap::DivisionByZero);
    }
    if !signed {
        let q = n / dv;
        if q > mask {
            return Err(OpTrap::IntegerOverflow);
        }
        return Ok(if rem { n % dv } else { q } as u64 as i64);
    }
    let n = ((n << (128 - 2 * w)) as i128) >> (128 - 2 * w);
    let dv = ((dv << (128 - w)) as i128) >> (128 - w);
    let q = n.checked_div(dv).ok_or(OpTrap::IntegerOverflow)?;
    let half = 1i128 << (w - 1);
    if q < -half || q >= half {
        return Err(OpTrap::IntegerOverflow);
    }
    let v = if rem { n - q * dv } else { q } as i64;
    Ok((v << (64 - w)) >> (64 - w))
}

/// WebAssembly's `fN.min`: NaN if either is, and -0 below +0.
macro_rules! fmin {
    ($a:ident, $b:ident) => {
        if $a.is_nan() || $b.is_nan() {
            $a + $b
        } else if $a == $b {
            if $a.is_sign_negative() {
                $a
            } else {
                $b
            }
        } else if $a < $b {
            $a
        } else {
            $b
        }
    };
}
/// WebAssembly's `fN.max`: NaN if either is, and +0 above -0.
macro_rules! fmax {
    ($a:ident, $b:ident) => {
        if $a.is_nan() || $b.is_nan() {
            $a + $b
        } else if $a == $b {
            if $a.is_sign_positive() {
                $a
            } else {
                $b
            }
        } else if $a > $b {
            $a
        } else {
            $b
        }
    };
}

/// Truncation of a float to an integer with WebAssembly's traps: NaN is
/// invalid, a value whose truncation is out of `[lo, hi)` overflows (the
/// bounds are exact powers of two, so the comparisons are exact).
macro_rules! trunc {
    ($x:expr, $t:ty, $lo:expr, $hi:expr) => {{
        let x = $x as f64;
        if x.is_nan() {
            Err(OpTrap::InvalidConversion)
        } else if x.trunc() < $lo || x.trunc() >= $hi {
            Err(OpTrap::IntegerOverflow)
        } else {
            Ok(x.trunc() as $t)
        }
    }};
}

/// 2^n as an `f64`.
const fn two(n: i32) -> f64 {
    if n >= 0 {
        (1u128 << n) as f64
    } else {
        -((1u128 << -n) as f64)
    }
}

table! {
    /// An operation with meaning: each variant's name in the text format is
    /// WebAssembly's mnemonic ([`Opcode::name`]).
    ///
    ///
    /// Section 13.8 of the chapter ("En binarios") applies construction and
    /// destruction to binary code. Lifting an instruction to an operation whose
    /// *name* alone is known (`x86.add[..]`) is enough for construction and
    /// destruction, but not for anything that asks what a value *is*: the
    /// interpreter cannot run it, constant propagation cannot fold it, an
    /// oracle can only compare names. Every tool that does SSA on binaries
    /// first gives instructions meaning (Ghidra's p-code, angr's VEX, Miasm's
    /// IR, BAP's BIL); this table is ssakit's.
    ///
    /// An operation of the table is an ordinary [generic
    /// operation](super::InstData::Op) whose operator has one of the names
    /// below: `i32.add(a, b)`, `i64.load[offset, align, memory](addr)`. The
    /// names, immediates and meanings are WebAssembly's (its MVP, sign
    /// extension and saturating conversions), so a lifted WebAssembly function
    /// is one to one on the set; machine code is lifted onto the same
    /// operations (a 32-bit `add` is `i32.add`, a load `i64.load`). From the
    /// one [`Opcode`] record of each operation:
    ///
    /// * the **verifier** checks its operand, result and immediate counts and
    ///   types ([`Opcode::params`], [`Opcode::result`], [`Opcode::num_imms`]);
    /// * the **interpreter** runs it ([`Opcode::eval`] for arithmetic, the
    ///   [`Access`] of loads and stores on its memory);
    /// * **constant propagation** folds it on constant operands with the same
    ///   [`Opcode::eval`];
    /// * **dce** and the other passes respect its [`Opcode::effects`];
    /// * the text format and the printers name it ([`Opcode::name`]).
    ///
    /// An operator declared with a name and the effects of the table gets that
    /// meaning. Every other operator (a name of the table declared with other
    /// effects included) stays a generic one, with no meaning beyond its
    /// effects.
    ///
    /// # Values
    ///
    /// A value of the interpreter and of constant propagation is a 64-bit
    /// word; the variable's type says how its bits are read. An `i32` is its
    /// low 32 bits (results are kept sign-extended, as the literal `-1` of an
    /// `i32` is); an `f32` is the IEEE bits in the low 32 bits (zero-extended);
    /// an `f64` and an `i64` are all 64 bits. An address operand of a load or
    /// store is an `i32` (WebAssembly's 32-bit memories: zero-extended) or an
    /// `i64` (a flat machine address).
    ///
    /// # Traps
    ///
    /// As WebAssembly defines them ([`OpTrap`]): integer division and
    /// remainder by zero, signed division overflow (`i32.div_s(INT_MIN, -1)`),
    /// float-to-integer truncation of NaN or of a value out of range, and an
    /// access outside memory. An operand that is `undef` makes the result
    /// `undef` (the rules of [`crate::eval`]); if the operation may trap, an
    /// `undef` operand is a trap instead ([`OpTrap::Undef`]): its behaviour
    /// is undefined from there, as for a division by `undef`.
    ///
    /// # NaNs
    ///
    /// Arithmetic on floats is Rust's (IEEE 754, round to nearest even), which
    /// is WebAssembly's but for the payload of a NaN result, which WebAssembly
    /// leaves nondeterministic: compare float results NaN for NaN.
    compute(imms) {
        I32Eqz "i32.eqz" [0] (I32) -> I32, pure, |a| a == 0;
        I32Eq "i32.eq" [0] (I32, I32) -> I32, pure, |a, b| a == b;
        I32Ne "i32.ne" [0] (I32, I32) -> I32, pure, |a, b| a != b;
        I32LtS "i32.lt_s" [0] (I32, I32) -> I32, pure, |a, b| a < b;
        I32LtU "i32.lt_u" [0] (I32, I32) -> I32, pure, |a, b| (a as u32) < (b as u32);
        I32GtS "i32.gt_s" [0] (I32, I32) -> I32, pure, |a, b| a > b;
        I32GtU "i32.gt_u" [0] (I32, I32) -> I32, pure, |a, b| (a as u32) > (b as u32);
        I32LeS "i32.le_s" [0] (I32, I32) -> I32, pure, |a, b| a <= b;
        I32LeU "i32.le_u" [0] (I32, I32) -> I32, pure, |a, b| (a as u32) <= (b as u32);
        I32GeS "i32.ge_s" [0] (I32, I32) -> I32, pure, |a, b| a >= b;
        I32GeU "i32.ge_u" [0] (I32, I32) -> I32, pure, |a, b| (a as u32) >= (b as u32);
        I64Eqz "i64.eqz" [0] (I64) -> I32, pure, |a| a == 0;
        I64Eq "i64.eq" [0] (I64, I64) -> I32, pure, |a, b| a == b;
        I64Ne "i64.ne" [0] (I64, I64) -> I32, pure, |a, b| a != b;
        I64LtS "i64.lt_s" [0] (I64, I64) -> I32, pure, |a, b| a < b;
        I64LtU "i64.lt_u" [0] (I64, I64) -> I32, pure, |a, b| (a as u64) < (b as u64);
        I64GtS "i64.gt_s" [0] (I64, I64) -> I32, pure, |a, b| a > b;
        I64GtU "i64.gt_u" [0] (I64, I64) -> I32, pure, |a, b| (a as u64) > (b as u64);
        I64LeS "i64.le_s" [0] (I64, I64) -> I32, pure, |a, b| a <= b;
        I64LeU "i64.le_u" [0] (I64, I64) -> I32, pure, |a, b| (a as u64) <= (b as u64);
        I64GeS "i64.ge_s" [0] (I64, I64) -> I32, pure, |a, b| a >= b;
        I64GeU "i64.ge_u" [0] (I64, I64) -> I32, pure, |a, b| (a as u64) >= (b as u64);
        F32Eq "f32.eq" [0] (F32, F32) -> I32, pure, |a, b| a == b;
        F32Ne "f32.ne" [0] (F32, F32) -> I32, pure, |a, b| a != b;
        F32Lt "f32.lt" [0] (F32, F32) -> I32, pure, |a, b| a < b;
        F32Gt "f32.gt" [0] (F32, F32) -> I32, pure, |a, b| a > b;
        F32Le "f32.le" [0] (F32, F32) -> I32, pure, |a, b| a <= b;
        F32Ge "f32.ge" [0] (F32, F32) -> I32, pure, |a, b| a >= b;
        F64Eq "f64.eq" [0] (F64, F64) -> I32, pure, |a, b| a == b;
        F64Ne "f64.ne" [0] (F64, F64) -> I32, pure, |a, b| a != b;
        F64Lt "f64.lt" [0] (F64, F64) -> I32, pure, |a, b| a < b;
        F64Gt "f64.gt" [0] (F64, F64) -> I32, pure, |a, b| a > b;
        F64Le "f64.le" [0] (F64, F64) -> I32, pure, |a, b| a <= b;
        F64Ge "f64.ge" [0] (F64, F64) -> I32, pure, |a, b| a >= b;

        I32Clz "i32.clz" [0] (I32) -> I32, pure, |a| a.leading_zeros() as i32;
        I32Ctz "i32.ctz" [0] (I32) -> I32, pure, |a| a.trailing_zeros() as i32;
        I32Popcnt "i32.popcnt" [0] (I32) -> I32, pure, |a| a.count_ones() as i32;
        I32Add "i32.add" [0] (I32, I32) -> I32, pure, |a, b| a.wrapping_add(b);
        I32Sub "i32.sub" [0] (I32, I32) -> I32, pure, |a, b| a.wrapping_sub(b);
        I32Mul "i32.mul" [0] (I32, I32) -> I32, pure, |a, b| a.wrapping_mul(b);
        I32DivS "i32.div_s" [0] (I32, I32) -> I32, trap, |a, b| divide!(div_s a b);
        I32DivU "i32.div_u" [0] (I32, I32) -> I32, trap, |a, b| div_u32(a, b);
        I32RemS "i32.rem_s" [0] (I32, I32) -> I32, trap, |a, b| divide!(rem_s a b);
        I32RemU "i32.rem_u" [0] (I32, I32) -> I32, trap, |a, b| rem_u32(a, b);
        I32And "i32.and" [0] (I32, I32) -> I32, pure, |a, b| a & b;
        I32Or "i32.or" [0] (I32, I32) -> I32, pure, |a, b| a | b;
        I32Xor "i32.xor" [0] (I32, I32) -> I32, pure, |a, b| a ^ b;
        I32Shl "i32.shl" [0] (I32, I32) -> I32, pure, |a, b| a.wrapping_shl(b as u32);
        I32ShrS "i32.shr_s" [0] (I32, I32) -> I32, pure, |a, b| a.wrapping_shr(b as u32);
        I32ShrU "i32.shr_u" [0] (I32, I32) -> I32, pure, |a, b| (a as u32).wrapping_shr(b as u32) as i32;
        I32Rotl "i32.rotl" [0] (I32, I32) -> I32, pure, |a, b| a.rotate_left(b as u32 & 31);
        I32Rotr "i32.rotr" [0] (I32, I32) -> I32, pure, |a, b| a.rotate_right(b as u32 & 31);

        I64Clz "i64.clz" [0] (I64) -> I64, pure, |a| a.leading_zeros() as i64;
        I64Ctz "i64.ctz" [0] (I64) -> I64, pure, |a| a.trailing_zeros() as i64;
        I64Popcnt "i64.popcnt" [0] (I64) -> I64, pure, |a| a.count_ones() as i64;
        I64Add "i64.add" [0] (I64, I64) -> I64, pure, |a, b| a.wrapping_add(b);
        I64Sub "i64.sub" [0] (I64, I64) -> I64, pure, |a, b| a.wrapping_sub(b);
        I64Mul "i64.mul" [0] (I64, I64) -> I64, pure, |a, b| a.wrapping_mul(b);
        I64DivS "i64.div_s" [0] (I64, I64) -> I64, trap, |a, b| divide!(div_s a b);
        I64DivU "i64.div_u" [0] (I64, I64) -> I64, trap, |a, b| div_u64(a, b);
        I64RemS "i64.rem_s" [0] (I64, I64) -> I64, trap, |a, b| divide!(rem_s a b);
        I64RemU "i64.rem_u" [0] (I64, I64) -> I64, trap, |a, b| rem_u64(a, b);
        I64And "i64.and" [0] (I64, I64) -> I64, pure, |a, b| a & b;
        I64Or "i64.or" [0] (I64, I64) -> I64, pure, |a, b| a | b;
        I64Xor "i64.xor" [0] (I64, I64) -> I64, pure, |a, b| a ^ b;
        I64Shl "i64.shl" [0] (I64, I64) -> I64, pure, |a, b| a.wrapping_shl(b as u32);
        I64ShrS "i64.shr_s" [0] (I64, I64) -> I64, pure, |a, b| a.wrapping_shr(b as u32);
        I64ShrU "i64.shr_u" [0] (I64, I64) -> I64, pure, |a, b| (a as u64).wrapping_shr(b as u32) as i64;
        I64Rotl "i64.rotl" [0] (I64, I64) -> I64, pure, |a, b| a.rotate_left(b as u32 & 63);
        I64Rotr "i64.rotr" [0] (I64, I64) -> I64, pure, |a, b| a.rotate_right(b as u32 & 63);

        F32Abs "f32.abs" [0] (F32) -> F32, pure, |a| a.abs();
        F32Neg "f32.neg" [0] (F32) -> F32, pure, |a| -a;
        F32Ceil "f32.ceil" [0] (F32) -> F32, pure, |a| a.ceil();
        F32Floor "f32.floor" [0] (F32) -> F32, pure, |a| a.floor();
        F32Trunc "f32.trunc" [0] (F32) -> F32, pure, |a| a.trunc();
        F32Nearest "f32.nearest" [0] (F32) -> F32, pure, |a| a.round_ties_even();
        F32Sqrt "f32.sqrt" [0] (F32) -> F32, pure, |a| a.sqrt();
        F32Add "f32.add" [0] (F32, F32) -> F32, pure, |a, b| a + b;
        F32Sub "f32.sub" [0] (F32, F32) -> F32, pure, |a, b| a - b;
        F32Mul "f32.mul" [0] (F32, F32) -> F32, pure, |a, b| a * b;
        F32Div "f32.div" [0] (F32, F32) -> F32, pure, |a, b| a / b;
        F32Min "f32.min" [0] (F32, F32) -> F32, pure, |a, b| fmin!(a, b);
        F32Max "f32.max" [0] (F32, F32) -> F32, pure, |a, b| fmax!(a, b);
        F32Copysign "f32.copysign" [0] (F32, F32) -> F32, pure, |a, b| a.copysign(b);
        F64Abs "f64.abs" [0] (F64) -> F64, pure, |a| a.abs();
        F64Neg "f64.neg" [0] (F64) -> F64, pure, |a| -a;
        F64Ceil "f64.ceil" [0] (F64) -> F64, pure, |a| a.ceil();
        F64Floor "f64.floor" [0] (F64) -> F64, pure, |a| a.floor();
        F64Trunc "f64.trunc" [0] (F64) -> F64, pure, |a| a.trunc();
        F64Nearest "f64.nearest" [0] (F64) -> F64, pure, |a| a.round_ties_even();
        F64Sqrt "f64.sqrt" [0] (F64) -> F64, pure, |a| a.sqrt();
        F64Add "f64.add" [0] (F64, F64) -> F64, pure, |a, b| a + b;
        F64Sub "f64.sub" [0] (F64, F64) -> F64, pure, |a, b| a - b;
        F64Mul "f64.mul" [0] (F64, F64) -> F64, pure, |a, b| a * b;
        F64Div "f64.div" [0] (F64, F64) -> F64, pure, |a, b| a / b;
        F64Min "f64.min" [0] (F64, F64) -> F64, pure, |a, b| fmin!(a, b);
        F64Max "f64.max" [0] (F64, F64) -> F64, pure, |a, b| fmax!(a, b);
        F64Copysign "f64.copysign" [0] (F64, F64) -> F64, pure, |a, b| a.copysign(b);

        I32WrapI64 "i32.wrap_i64" [0] (I64) -> I32, pure, |a| a as i32;
        I32TruncF32S "i32.trunc_f32_s" [0] (F32) -> I32, trap, |a| trunc!(a, i32, two(-31), two(31));
        I32TruncF32U "i32.trunc_f32_u" [0] (F32) -> I32, trap, |a| trunc!(a, u32, 0.0, two(32)).map(|v| v as i32);
        I32TruncF64S "i32.trunc_f64_s" [0] (F64) -> I32, trap, |a| trunc!(a, i32, two(-31), two(31));
        I32TruncF64U "i32.trunc_f64_u" [0] (F64) -> I32, trap, |a| trunc!(a, u32, 0.0, two(32)).map(|v| v as i32);
        I64ExtendI32S "i64.extend_i32_s" [0] (I32) -> I64, pure, |a| a as i64;
        I64ExtendI32U "i64.extend_i32_u" [0] (I32) -> I64, pure, |a| a as u32 as i64;
        I64TruncF32S "i64.trunc_f32_s" [0] (F32) -> I64, trap, |a| trunc!(a, i64, two(-63), two(63));
        I64TruncF32U "i64.trunc_f32_u" [0] (F32) -> I64, trap, |a| trunc!(a, u64, 0.0, two(64)).map(|v| v as i64);
        I64TruncF64S "i64.trunc_f64_s" [0] (F64) -> I64, trap, |a| trunc!(a, i64, two(-63), two(63));
        I64TruncF64U "i64.trunc_f64_u" [0] (F64) -> I64, trap, |a| trunc!(a, u64, 0.0, two(64)).map(|v| v as i64);
        F32ConvertI32S "f32.convert_i32_s" [0] (I32) -> F32, pure, |a| a as f32;
        F32ConvertI32U "f32.convert_i32_u" [0] (I32) -> F32, pure, |a| a as u32 as f32;
        F32ConvertI64S "f32.convert_i64_s" [0] (I64) -> F32, pure, |a| a as f32;
        F32ConvertI64U "f32.convert_i64_u" [0] (I64) -> F32, pure, |a| a as u64 as f32;
        F32DemoteF64 "f32.demote_f64" [0] (F64) -> F32, pure, |a| a as f32;
        F64ConvertI32S "f64.convert_i32_s" [0] (I32) -> F64, pure, |a| a as f64;
        F64ConvertI32U "f64.convert_i32_u" [0] (I32) -> F64, pure, |a| a as u32 as f64;
        F64ConvertI64S "f64.convert_i64_s" [0] (I64) -> F64, pure, |a| a as f64;
        F64ConvertI64U "f64.convert_i64_u" [0] (I64) -> F64, pure, |a| a as u64 as f64;
        F64PromoteF32 "f64.promote_f32" [0] (F32) -> F64, pure, |a| a as f64;
        I32ReinterpretF32 "i32.reinterpret_f32" [0] (F32) -> I32, pure, |a| a.to_bits() as i32;
        I64ReinterpretF64 "i64.reinterpret_f64" [0] (F64) -> I64, pure, |a| a.to_bits() as i64;
        F32ReinterpretI32 "f32.reinterpret_i32" [0] (I32) -> F32, pure, |a| f32::from_bits(a as u32);
        F64ReinterpretI64 "f64.reinterpret_i64" [0] (I64) -> F64, pure, |a| f64::from_bits(a as u64);

        I32Extend8S "i32.extend8_s" [0] (I32) -> I32, pure, |a| a as i8 as i32;
        I32Extend16S "i32.extend16_s" [0] (I32) -> I32, pure, |a| a as i16 as i32;
        I64Extend8S "i64.extend8_s" [0] (I64) -> I64, pure, |a| a as i8 as i64;
        I64Extend16S "i64.extend16_s" [0] (I64) -> I64, pure, |a| a as i16 as i64;
        I64Extend32S "i64.extend32_s" [0] (I64) -> I64, pure, |a| a as i32 as i64;

        // Rust's `as` from float to integer saturates, NaN to 0: exactly
        // WebAssembly's saturating truncation.
        I32TruncSatF32S "i32.trunc_sat_f32_s" [0] (F32) -> I32, pure, |a| a as i32;
        I32TruncSatF32U "i32.trunc_sat_f32_u" [0] (F32) -> I32, pure, |a| a as u32 as i32;
        I32TruncSatF64S "i32.trunc_sat_f64_s" [0] (F64) -> I32, pure, |a| a as i32;
        I32TruncSatF64U "i32.trunc_sat_f64_u" [0] (F64) -> I32, pure, |a| a as u32 as i32;
        I64TruncSatF32S "i64.trunc_sat_f32_s" [0] (F32) -> I64, pure, |a| a as i64;
        I64TruncSatF32U "i64.trunc_sat_f32_u" [0] (F32) -> I64, pure, |a| a as u64 as i64;
        I64TruncSatF64S "i64.trunc_sat_f64_s" [0] (F64) -> I64, pure, |a| a as i64;
        I64TruncSatF64U "i64.trunc_sat_f64_u" [0] (F64) -> I64, pure, |a| a as u64 as i64;

        // Machine arithmetic WebAssembly lacks ([`Opcode::is_webassembly`]
        // is false): the high half of a 128-bit product, and the division
        // of a double-width dividend `hi:lo` of `2w` bits by a `w`-bit
        // divisor (x86's `div`/`idiv`; `[w]` is 8, 16, 32 or 64), which
        // traps on a zero divisor and on a quotient that does not fit in
        // `w` bits ([`wide_div`]).
        I64MulHighS "i64.mul_high_s" [0] (I64, I64) -> I64, pure, |a, b| ((a as i128 * b as i128) >> 64) as i64;
        I64MulHighU "i64.mul_high_u" [0] (I64, I64) -> I64, pure, |a, b| ((a as u64 as u128 * b as u64 as u128) >> 64) as i64;
        I64DivWideU "i64.div_wide_u" [1] (I64, I64, I64) -> I64, trap, |h, l, d| wide_div(imms, [h, l, d], false, false);
        I64RemWideU "i64.rem_wide_u" [1] (I64, I64, I64) -> I64, trap, |h, l, d| wide_div(imms, [h, l, d], false, true);
        I64DivWideS "i64.div_wide_s" [1] (I64, I64, I64) -> I64, trap, |h, l, d| wide_div(imms, [h, l, d], true, false);
        I64RemWideS "i64.rem_wide_s" [1] (I64, I64, I64) -> I64, trap, |h, l, d| wide_div(imms, [h, l, d], true, true);

        // Constants: the bits are the immediate.
        I32Const "i32.const" [1] () -> I32, pure, | | imms.first().map_or(0, |&c| c as i32);
        I64Const "i64.const" [1] () -> I64, pure, | | imms.first().map_or(0, |&c| c);
        F32Const "f32.const" [1] () -> F32, pure, | | f32::from_bits(imms.first().map_or(0, |&c| c as u32));
        F64Const "f64.const" [1] () -> F64, pure, | | f64::from_bits(imms.first().map_or(0, |&c| c as u64));
    }
    other {
        // `select(a, b, c)`: `a` if `c` is not zero, else `b`.
        Select "select" [0] (Any, Any, I32) -> Any, pure, Kind::Select;
        I32Load "i32.load" [3] (Addr) -> I32, load, Kind::Memory(Access { bytes: 4, signed: true, store: false });
        I64Load "i64.load" [3] (Addr) -> I64, load, Kind::Memory(Access { bytes: 8, signed: true, store: false });
        F32Load "f32.load" [3] (Addr) -> F32, load, Kind::Memory(Access { bytes: 4, signed: false, store: false });
        F64Load "f64.load" [3] (Addr) -> F64, load, Kind::Memory(Access { bytes: 8, signed: false, store: false });
        I32Load8S "i32.load8_s" [3] (Addr) -> I32, load, Kind::Memory(Access { bytes: 1, signed: true, store: false });
        I32Load8U "i32.load8_u" [3] (Addr) -> I32, load, Kind::Memory(Access { bytes: 1, signed: false, store: false });
        I32Load16S "i32.load16_s" [3] (Addr) -> I32, load, Kind::Memory(Access { bytes: 2, signed: true, store: false });
        I32Load16U "i32.load16_u" [3] (Addr) -> I32, load, Kind::Memory(Access { bytes: 2, signed: false, store: false });
        I64Load8S "i64.load8_s" [3] (Addr) -> I64, load, Kind::Memory(Access { bytes: 1, signed: true, store: false });
        I64Load8U "i64.load8_u" [3] (Addr) -> I64, load, Kind::Memory(Access { bytes: 1, signed: false, store: false });
        I64Load16S "i64.load16_s" [3] (Addr) -> I64, load, Kind::Memory(Access { bytes: 2, signed: true, store: false });
        I64Load16U "i64.load16_u" [3] (Addr) -> I64, load, Kind::Memory(Access { bytes: 2, signed: false, store: false });
        I64Load32S "i64.load32_s" [3] (Addr) -> I64, load, Kind::Memory(Access { bytes: 4, signed: true, store: false });
        I64Load32U "i64.load32_u" [3] (Addr) -> I64, load, Kind::Memory(Access { bytes: 4, signed: false, store: false });
        I32Store "i32.store" [3] (Addr, I32) -> (), store, Kind::Memory(Access { bytes: 4, signed: false, store: true });
        I64Store "i64.store" [3] (Addr, I64) -> (), store, Kind::Memory(Access { bytes: 8, signed: false, store: true });
        F32Store "f32.store" [3] (Addr, F32) -> (), store, Kind::Memory(Access { bytes: 4, signed: false, store: true });
        F64Store "f64.store" [3] (Addr, F64) -> (), store, Kind::Memory(Access { bytes: 8, signed: false, store: true });
        I32Store8 "i32.store8" [3] (Addr, I32) -> (), store, Kind::Memory(Access { bytes: 1, signed: false, store: true });
        I32Store16 "i32.store16" [3] (Addr, I32) -> (), store, Kind::Memory(Access { bytes: 2, signed: false, store: true });
        I64Store8 "i64.store8" [3] (Addr, I64) -> (), store, Kind::Memory(Access { bytes: 1, signed: false, store: true });
        I64Store16 "i64.store16" [3] (Addr, I64) -> (), store, Kind::Memory(Access { bytes: 2, signed: false, store: true });
        I64Store32 "i64.store32" [3] (Addr, I64) -> (), store, Kind::Memory(Access { bytes: 4, signed: false, store: true });
        GlobalGet "global.get" [1] () -> Any, read, Kind::GlobalGet;
        GlobalSet "global.set" [1] (Any) -> (), write, Kind::GlobalSet;
        MemorySize "memory.size" [1] () -> I32, read, Kind::MemorySize;
        MemoryGrow "memory.grow" [1] (I32) -> I32, grow, Kind::MemoryGrow;
    }
}

impl Opcode {
    /// Whether the operation is WebAssembly's (its name and meaning): all
    /// but the machine arithmetic WebAssembly lacks, `i64.mul_high_s`,
    /// `i64.mul_high_u` and the double-width divisions `i64.div_wide_*`,
    /// `i64.rem_wide_*`.
    ///
    /// ```
    /// use ssakit::ir::Opcode;
    /// assert!(Opcode::I64DivU.is_webassembly() && !Opcode::I64DivWideU.is_webassembly());
    /// assert_eq!(Opcode::I64MulHighU.eval(&[], &[-1, 2]), Ok(1));
    /// assert_eq!(Opcode::I64DivWideS.eval(&[8], &[0xff, 0x9c, 7]), Ok(-14));
    /// ```
    pub fn is_webassembly(self) -> bool {
        !matches!(
            self,
            Opcode::I64MulHighS
                | Opcode::I64MulHighU
                | Opcode::I64DivWideU
                | Opcode::I64RemWideU
                | Opcode::I64DivWideS
                | Opcode::I64RemWideS
        )
    }

    /// The memory access of a load or store.
    ///
    /// ```
    /// use ssakit::ir::Opcode;
    /// assert_eq!(Opcode::F64Load.access().map(|a| a.bytes), Some(8));
    /// ```
    pub fn access(self) -> Option<Access> {
        match self.kind() {
            Kind::Memory(a) => Some(a),
            _ => None,
        }
    }

    /// The effects of the operation when its second operand is the
    /// constant `divisor`: a division by a constant that neither is 0 nor
    /// may overflow cannot trap, so it is pure (as the built-in `/` by a
    /// non-zero constant is).
    pub(crate) fn effects_on(self, divisor: Option<i64>) -> Effects {
        let divisor = || divisor;
        match self {
            Opcode::I32DivU | Opcode::I32RemU | Opcode::I32RemS => match divisor() {
                Some(d) if d as i32 != 0 => Effects::PURE,
                _ => self.effects(),
            },
            Opcode::I64DivU | Opcode::I64RemU | Opcode::I64RemS => match divisor() {
                Some(d) if d != 0 => Effects::PURE,
                _ => self.effects(),
            },
            Opcode::I32DivS => match divisor() {
                Some(d) if d as i32 != 0 && d as i32 != -1 => Effects::PURE,
                _ => self.effects(),
            },
            Opcode::I64DivS => match divisor() {
                Some(d) if d != 0 && d != -1 => Effects::PURE,
                _ => self.effects(),
            },
            _ => self.effects(),
        }
    }
}

impl fmt::Display for Opcode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_unique_and_round_trip() {
        for &op in Opcode::ALL {
            assert_eq!(Opcode::from_name(op.name()), Some(op), "{op:?}");
        }
        let mut names: Vec<&str> = Opcode::ALL.iter().map(|o| o.name()).collect();
        names.sort_unstable();
        names.dedup();
        assert_eq!(names.len(), Opcode::ALL.len());
    }

    #[test]
    fn stores_have_no_result_and_loads_one() {
        for &op in Opcode::ALL {
            if let Some(a) = op.access() {
                assert_eq!(op.result().is_none(), a.store, "{op}");
                assert_eq!(op.num_imms(), 3, "{op}");
            }
        }
    }

    #[test]
    fn integer_semantics() {
        let e = |op: Opcode, a: &[i64]| op.eval(&[], a);
        assert_eq!(e(Opcode::I32Shl, &[1, 33]), Ok(2), "the count is masked");
        assert_eq!(e(Opcode::I32ShrU, &[-1, 28]), Ok(15));
        assert_eq!(e(Opcode::I32ShrS, &[-16, 2]), Ok(-4));
        assert_eq!(e(Opcode::I64ShrU, &[-1, 60]), Ok(15));
        assert_eq!(
            e(Opcode::I32Rotl, &[0x8000_0001u32 as i32 as i64, 1]),
            Ok(3)
        );
        assert_eq!(e(Opcode::I32Clz, &[0]), Ok(32));
        assert_eq!(e(Opcode::I64Ctz, &[0]), Ok(64));
        assert_eq!(e(Opcode::I32RemS, &[i32::MIN as i64, -1]), Ok(0));
        assert_eq!(
            e(Opcode::I64DivS, &[i64::MIN, -1]),
            Err(OpTrap::IntegerOverflow)
        );
        assert_eq!(e(Opcode::I64RemU, &[5, 0]), Err(OpTrap::DivisionByZero));
        assert_eq!(e(Opcode::I32DivU, &[-1, 2]), Ok(0x7fff_ffff));
        assert_eq!(
            e(Opcode::I32Add, &[0xffff_ffff, 1]),
            Ok(0),
            "i32 reads the low bits"
        );
        assert_eq!(e(Opcode::I32WrapI64, &[0x1_8000_0000]), Ok(i32::MIN as i64));
        assert_eq!(e(Opcode::I64ExtendI32U, &[-1]), Ok(0xffff_ffff));
        assert_eq!(e(Opcode::I64Extend8S, &[0x80]), Ok(-128));
    }

    /// The machine arithmetic against `u128`/`i128` on edge values, at
    /// every width, with x86's traps.
    #[test]
    fn wide_semantics() {
        let e = |op: Opcode, w: i64, a: &[i64]| op.eval(&[w], a);
        assert_eq!(Opcode::I64MulHighS.eval(&[], &[-1, 2]), Ok(-1));
        assert_eq!(
            Opcode::I64MulHighS.eval(&[], &[i64::MIN, i64::MIN]),
            Ok(1 << 62)
        );
        assert_eq!(Opcode::I64MulHighU.eval(&[], &[-1, -1]), Ok(-2));
        // 64 bits: 2^64 / 3 and its remainder; a quotient of 2^64 traps.
        assert_eq!(
            e(Opcode::I64DivWideU, 64, &[1, 0, 3]),
            Ok(0x5555_5555_5555_5555)
        );
        assert_eq!(e(Opcode::I64RemWideU, 64, &[1, 0, 3]), Ok(1));
        assert_eq!(
            e(Opcode::I64DivWideU, 64, &[1, 0, 1]),
            Err(OpTrap::IntegerOverflow)
        );
        assert_eq!(
            e(Opcode::I64DivWideU, 32, &[0, 5, 0x1_0000_0000]),
            Err(OpTrap::DivisionByZero)
        );
        // Signed: -2^127 / -1 and INT_MIN / -1 overflow; -7 / 2 = -3 rem -1.
        assert_eq!(
            e(Opcode::I64DivWideS, 64, &[i64::MIN, 0, -1]),
            Err(OpTrap::IntegerOverflow)
        );
        assert_eq!(
            e(Opcode::I64DivWideS, 32, &[-1, i32::MIN as i64, -1]),
            Err(OpTrap::IntegerOverflow)
        );
        assert_eq!(e(Opcode::I64DivWideS, 64, &[-1, -7, 2]), Ok(-3));
        assert_eq!(e(Opcode::I64RemWideS, 64, &[-1, -7, 2]), Ok(-1));
        assert_eq!(e(Opcode::I64RemWideS, 16, &[0xffff, 0xfff9, 2]), Ok(-1));
        // 8 bits: -100 / 7 = -14 rem -2; 1024 / 2 does not fit; the bits
        // above the width are ignored.
        assert_eq!(e(Opcode::I64DivWideS, 8, &[0xff, 0x9c, 7]), Ok(-14));
        assert_eq!(e(Opcode::I64RemWideS, 8, &[0xff, 0x9c, 7]), Ok(-2));
        assert_eq!(
            e(Opcode::I64DivWideS, 8, &[4, 0, 2]),
            Err(OpTrap::IntegerOverflow)
        );
        assert_eq!(e(Opcode::I64DivWideU, 8, &[0x100, 0x1ff, 0x302]), Ok(0x7f));
        assert_eq!(e(Opcode::I64DivWideU, 16, &[0, 0xffff, 0xffff]), Ok(1));
        assert_eq!(Opcode::I64DivWideU.effects(), Effects::TRAP);
        assert_eq!(Opcode::I64DivWideU.num_imms(), 1);
    }

    #[test]
    fn float_semantics() {
        let f = |x: f64| x.to_bits() as i64;
        let s = |x: f32| x.to_bits() as i64;
        let e = |op: Opcode, a: &[i64]| op.eval(&[], a);
        assert_eq!(e(Opcode::F64Min, &[f(0.0), f(-0.0)]), Ok(f(-0.0)));
        assert_eq!(e(Opcode::F64Max, &[f(-0.0), f(0.0)]), Ok(f(0.0)));
        assert!(f64::from_bits(e(Opcode::F64Min, &[f(1.0), f(f64::NAN)]).unwrap() as u64).is_nan());
        assert_eq!(e(Opcode::F32Nearest, &[s(2.5)]), Ok(s(2.0)));
        assert_eq!(e(Opcode::F32Nearest, &[s(-3.5)]), Ok(s(-4.0)));
        assert_eq!(
            e(Opcode::I32TruncF64S, &[f(-2147483648.9)]),
            Ok(i32::MIN as i64)
        );
        assert_eq!(
            e(Opcode::I32TruncF64S, &[f(2147483648.0)]),
            Err(OpTrap::IntegerOverflow)
        );
        assert_eq!(e(Opcode::I32TruncF64U, &[f(-0.9)]), Ok(0));
        assert_eq!(
            e(Opcode::I32TruncF64U, &[f(-1.0)]),
            Err(OpTrap::IntegerOverflow)
        );
        assert_eq!(e(Opcode::I32TruncF64U, &[f(4294967295.5)]), Ok(-1));
        assert_eq!(
            e(Opcode::I64TruncF64U, &[f(1.8446744073709552e19)]),
            Err(OpTrap::IntegerOverflow)
        );
        assert_eq!(
            e(Opcode::I64TruncF32S, &[s(-9.223372e18)]),
            Ok(-9223372036854775808)
        );
        assert_eq!(e(Opcode::I32TruncSatF32U, &[s(-5.0)]), Ok(0));
        assert_eq!(e(Opcode::I32TruncSatF64S, &[f(f64::NAN)]), Ok(0));
        assert_eq!(e(Opcode::I64TruncSatF64U, &[f(1e30)]), Ok(-1));
        assert_eq!(
            e(Opcode::F32ConvertI64U, &[-1]),
            Ok(s(18446744073709551615.0))
        );
        assert_eq!(e(Opcode::F64Const, &[]), Ok(0));
        assert_eq!(Opcode::F64Const.eval(&[f(1.5)], &[]), Ok(f(1.5)));
        assert_eq!(e(Opcode::F32Lt, &[s(f32::NAN), s(1.0)]), Ok(0));
        assert_eq!(e(Opcode::F32Ne, &[s(f32::NAN), s(f32::NAN)]), Ok(1));
    }
}
