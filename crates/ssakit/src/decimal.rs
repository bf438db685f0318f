//! Decimal digits of integers appended to a string without `core::fmt`.
//!
//! The printers write millions of literals and version numbers; through
//! `write!` each costs a formatter, padding checks and a virtual call per
//! piece, which profiles showed to be half of printing. Here a number is
//! appended two digits at a time, each pair a slice of a constant table.

/// Appends the decimal digits of `n` (no sign).
#[inline]
pub(crate) fn push_u64(out: &mut String, mut n: u64) {
    if n < 10 {
        // Most literals and many version numbers: one character.
        out.push((b'0' + n as u8) as char);
        return;
    }
    // Two digits at a time, from the low end (u64::MAX has 20 digits).
    let mut pairs = [0u8; 10];
    let mut k = 0;
    while n >= 100 {
        pairs[k] = (n % 100) as u8;
        n /= 100;
        k += 1;
    }
    let lead = 2 * n as usize;
    out.push_str(if n < 10 {
        &PAIRS[lead + 1..lead + 2]
    } else {
        &PAIRS[lead..lead + 2]
    });
    while k > 0 {
        k -= 1;
        let p = 2 * pairs[k] as usize;
        out.push_str(&PAIRS[p..p + 2]);
    }
}

/// The decimal digits of `n` (no sign), at the end of the returned
/// buffer from the returned index: a number's text to compare or hash
/// without a string.
#[inline]
pub(crate) fn digits_u32(mut n: u32) -> ([u8; 10], usize) {
    let mut buf = [0u8; 10];
    let mut at = buf.len();
    loop {
        at -= 1;
        buf[at] = b'0' + (n % 10) as u8;
        n /= 10;
        if n == 0 {
            return (buf, at);
        }
    }
}

/// `00`, `01`, ... `99`, one after the other: the digits of a pair are a
/// slice of a constant string, so appending them copies two bytes with no
/// UTF-8 encoding or check.
const PAIRS: &str = match std::str::from_utf8(&PAIR_BYTES) {
    Ok(s) => s,
    Err(_) => panic!("digits are ASCII"),
};

const PAIR_BYTES: [u8; 200] = {
    let mut b = [0u8; 200];
    let mut i = 0;
    while i < 100 {
        b[2 * i] = b'0' + (i / 10) as u8;
        b[2 * i + 1] = b'0' + (i % 10) as u8;
        i += 1;
    }
    b
};

/// Appends `n` as `.ssa` writes it: digits, `-` first when negative.
#[inline]
pub(crate) fn push_i64(out: &mut String, n: i64) {
    if n < 0 {
        out.push('-');
    }
    push_u64(out, n.unsigned_abs());
}

#[cfg(test)]
mod tests {
    use super::{push_i64, push_u64};

    /// Brute force against `core::fmt` on every boundary and a sweep.
    #[test]
    fn digits_are_display_digits() {
        let mut cases: Vec<i64> = (-1000..1000).collect();
        for k in 0..63 {
            let p = 1i64 << k;
            cases.extend([p, p - 1, p + 1, -p, -p + 1, -p - 1]);
        }
        let mut p = 1i64;
        while let Some(q) = p.checked_mul(10) {
            cases.extend([p, p - 1, -p, -p + 1, q - 1]);
            p = q;
        }
        cases.extend([i64::MIN, i64::MAX, i64::MIN + 1]);
        for n in cases {
            let mut s = String::new();
            push_i64(&mut s, n);
            assert_eq!(s, n.to_string());
        }
        for n in [0u64, 9, 10, u64::MAX, u64::MAX - 1, 1 << 63] {
            let mut s = String::new();
            push_u64(&mut s, n);
            assert_eq!(s, n.to_string());
        }
    }
}
