//! A tiny deterministic pseudo-random number generator.
//!
//! SplitMix64 (Steele, Lea and Flood, "Fast splittable pseudorandom number
//! generators", OOPSLA 2014; the generator behind Java's `SplittableRandom`
//! and the seeding routine of the xoshiro family). The state is one `u64`
//! advanced by the golden-ratio increment; each output is that state pushed
//! through a 64-bit finaliser. It is written out here rather than taken from
//! a crate so that a seed means the same program on every machine and every
//! version of the dependencies, forever.

/// The SplitMix64 generator.
#[derive(Clone, Debug)]
pub(crate) struct Rng {
    state: u64,
}

impl Rng {
    /// A generator whose sequence is determined by `seed` alone.
    pub(crate) fn new(seed: u64) -> Rng {
        Rng { state: seed }
    }

    /// The next 64 random bits.
    pub(crate) fn next_u64(&mut self) -> u64 {
        self.state = self.state.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.state;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    /// A number in `0..n` (`n > 0`), by multiplying the high 32 bits by `n`
    /// (Lemire's reduction; the bias, below 2^-32 · n, does not matter here).
    pub(crate) fn below(&mut self, n: u32) -> u32 {
        debug_assert!(n > 0, "Rng::below(0)");
        (((self.next_u64() >> 32) * u64::from(n)) >> 32) as u32
    }

    /// A number in `lo..=hi` (`lo <= hi`).
    pub(crate) fn range(&mut self, lo: u32, hi: u32) -> u32 {
        debug_assert!(lo <= hi);
        lo + self.below(hi - lo + 1)
    }

    /// True with probability `num / den`.
    pub(crate) fn chance(&mut self, num: u32, den: u32) -> bool {
        self.below(den) < num
    }

    /// A uniformly chosen element of the non-empty slice `xs`.
    pub(crate) fn pick<T: Copy>(&mut self, xs: &[T]) -> T {
        xs[self.below(xs.len() as u32) as usize]
    }

    /// An index drawn with probability proportional to `weights[i]` (the
    /// weights must not all be zero).
    pub(crate) fn weighted(&mut self, weights: &[u32]) -> usize {
        let total: u32 = weights.iter().sum();
        let mut r = self.below(total);
        for (i, &w) in weights.iter().enumerate() {
            if r < w {
                return i;
            }
            r -= w;
        }
        unreachable!("weights sum to {total}")
    }

    /// Splits `total` into `parts.len()` parts, each at least 1 (requires
    /// `total >= parts.len()`): every part gets 1, and the rest is shared in
    /// proportion to random weights from 1 to 8.
    pub(crate) fn split(&mut self, total: u32, parts: &mut [u32]) {
        let k = parts.len() as u32;
        debug_assert!(k > 0 && total >= k, "split {total} into {k}");
        let rest = u64::from(total - k);
        let mut weights = [0u32; 8];
        let weights = &mut weights[..parts.len()];
        for w in weights.iter_mut() {
            *w = self.range(1, 8);
        }
        let sum: u64 = weights.iter().map(|&w| u64::from(w)).sum();
        let mut given = 0;
        for (p, &w) in parts.iter_mut().zip(weights.iter()) {
            let share = (rest * u64::from(w) / sum) as u32;
            *p = 1 + share;
            given += share;
        }
        // Rounding down leaves at most k - 1 blocks: give them to one part.
        let lucky = self.below(k) as usize;
        parts[lucky] += (rest as u32) - given;
    }
}

#[cfg(test)]
mod tests {
    use super::Rng;

    #[test]
    fn splitmix64_reference_values() {
        // The first outputs of SplitMix64 from state 0, as published with the
        // reference C implementation (Vigna, `splitmix64.c`).
        let mut r = Rng::new(0);
        assert_eq!(r.next_u64(), 0xe220_a839_7b1d_cdaf);
        assert_eq!(r.next_u64(), 0x6e78_9e6a_a1b9_65f4);
        assert_eq!(r.next_u64(), 0x06c4_5d18_8009_454f);
    }

    #[test]
    fn split_gives_every_part_at_least_one_and_sums() {
        let mut r = Rng::new(7);
        for total in 3..200 {
            let mut parts = [0u32; 3];
            r.split(total, &mut parts);
            assert!(parts.iter().all(|&p| p >= 1));
            assert_eq!(parts.iter().sum::<u32>(), total);
        }
    }

    #[test]
    fn below_stays_in_range() {
        let mut r = Rng::new(1);
        for n in 1..100 {
            for _ in 0..50 {
                assert!(r.below(n) < n);
            }
        }
    }
}
