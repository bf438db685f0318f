//! Reproducible fuzzer bytes for the tests that draw `wasm-smith` modules
//! from a fixed seed (`smith.rs`, `wasmi_diff.rs`).

/// The next `n` bytes of the xorshift64 stream at `state`.
pub fn bytes(state: &mut u64, n: usize) -> Vec<u8> {
    (0..n)
        .map(|_| {
            *state ^= *state << 13;
            *state ^= *state >> 7;
            *state ^= *state << 17;
            *state as u8
        })
        .collect()
}
