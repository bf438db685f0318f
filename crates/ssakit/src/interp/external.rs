//! The results of what the interpreter has no semantics for: an external
//! call returns a hash of its name and arguments, an uninterpreted
//! operation a hash of its operator, immediates, arguments and the state
//! threaded through effectful operations (FNV-1a, then splitmix64 for
//! well-mixed low bits).

use super::Value;

/// External calls return their hash modulo this number.
pub const EXTERNAL_MODULUS: u64 = 1000;
pub(super) const FNV_OFFSET_BASIS: u64 = 0xcbf2_9ce4_8422_2325;
const FNV_PRIME: u64 = 0x0000_0100_0000_01b3;

/// The result of the uninterpreted external function `name` applied to
/// `args`: FNV-1a 64-bit over the name's bytes then each argument's 8
/// little-endian bytes, modulo `EXTERNAL_MODULUS`; `undef` if any argument
/// is `undef`.
///
/// ```
/// use ssakit::interp::{external_call_result, Value, EXTERNAL_MODULUS};
/// let v = external_call_result("f", &[Value::Int(1)]);
/// assert_eq!(v, external_call_result("f", &[Value::Int(1)])); // a function of its inputs
/// let Value::Int(n) = v else { panic!("an integer") };
/// assert!((0..EXTERNAL_MODULUS as i64).contains(&n));
/// assert_eq!(external_call_result("f", &[Value::Undef]), Value::Undef);
/// ```
pub fn external_call_result(name: &str, args: &[Value]) -> Value {
    external_result(fnv1a(FNV_OFFSET_BASIS, name.as_bytes()), args)
}

/// [`external_call_result`] from `seed`, the hash of the name.
pub(super) fn external_result(seed: u64, args: &[Value]) -> Value {
    let mut h = seed;
    for a in args {
        match a.as_int() {
            Some(v) => h = fnv1a(h, &v.to_le_bytes()),
            None => return Value::Undef,
        }
    }
    Value::Int((h % EXTERNAL_MODULUS) as i64)
}

/// Result `k` of an uninterpreted operation whose hash is `h` (see
/// "Uninterpreted operations"): 0 or 1 for a `bool`, else 0 half the time
/// and a number below [`EXTERNAL_MODULUS`] otherwise.
pub(super) fn uninterpreted_result(h: u64, k: usize, is_bool: bool) -> Value {
    let z = splitmix64(fnv1a(h, &(k as u32).to_le_bytes()));
    Value::Int(match (is_bool, z & 1) {
        (true, bit) => bit as i64,
        (false, 0) => 0,
        (false, _) => ((z >> 1) % EXTERNAL_MODULUS) as i64,
    })
}

/// The splitmix64 finaliser: FNV-1a's low bits are weak (its last bit is
/// the parity of the input bytes' last bits).
fn splitmix64(mut z: u64) -> u64 {
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

pub(super) fn fnv1a(mut h: u64, bytes: &[u8]) -> u64 {
    for &b in bytes {
        h ^= u64::from(b);
        h = h.wrapping_mul(FNV_PRIME);
    }
    h
}
