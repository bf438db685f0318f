//! Bytes as hexadecimal text, the way the Unicorn oracles talk to their
//! Python side (`tests/support/unicorn_*.py`).

/// `bytes` as two lowercase hexadecimal digits each.
pub fn hex(bytes: &[u8]) -> String {
    use std::fmt::Write as _;
    bytes.iter().fold(String::new(), |mut s, b| {
        let _ = write!(s, "{b:02x}");
        s
    })
}

/// The bytes of hexadecimal text `s` (two digits each).
pub fn unhex(s: &str) -> Vec<u8> {
    (0..s.len() / 2)
        .map(|i| u8::from_str_radix(&s[2 * i..2 * i + 2], 16).unwrap())
        .collect()
}
