//! The priority queue of Sreedhar and Gao's DF⁺ (`IdfCalculator`):
//! blocks keyed by their level in the dominator tree, deepest first.
//!
//! Levels are small integers (at most the depth of the tree) and a block
//! is queued at most once per query, so the queue is a *bucket queue*: one
//! intrusive list of blocks per level (`head[level]`, then `next[block]`),
//! and a hierarchy of occupancy bitmaps over the levels to find the deepest
//! non-empty one. Layer 0 has one bit per level; each word of layer `k`
//! has a bit in layer `k + 1` set iff the word is non-zero; the top layer
//! is a single word. With `L` layers (64^L > deepest level) a push sets at
//! most `L` bits and a pop reads `L` words down the hierarchy and clears at
//! most `L` bits: O(log₆₄ depth) each, with no element ever moved.
//!
//! Worked example, levels 3, 70 and 5 pushed (one layer of 64-level words
//! under a top word): layer 0 word 0 gets bits 3 and 5, word 1 gets bit 6
//! (level 70 = 64 + 6); the top word gets bits 0 and 1. A pop takes the
//! highest top bit (1), then the highest bit of word 1 (6): level 70. Word 1
//! is then empty, so top bit 1 is cleared; the next pop finds level 5.
//!
//! Blocks of one level come out last in, first out; the DF⁺ walk does not
//! depend on the order among equal levels.

use crate::entity::PackedOption;
use crate::ir::Block;

/// A max-queue of `(level, block)` for levels `0 ..= max_level` and
/// blocks `0 .. num_blocks`, each block queued at most once at a time.
#[derive(Debug)]
pub(crate) struct LevelQueue {
    /// `head[level]`: the block pushed last at `level`, not yet popped.
    head: Vec<PackedOption<Block>>,
    /// `next[block]`: the block pushed at the same level before `block`.
    next: Vec<PackedOption<Block>>,
    /// `layers[0]` has bit `l % 64` of word `l / 64` set iff level `l` is
    /// non-empty; `layers[k + 1]` has bit `w % 64` of word `w / 64` set iff
    /// word `w` of `layers[k]` is non-zero. The last layer is one word.
    layers: Vec<Vec<u64>>,
}

impl LevelQueue {
    /// An empty queue for levels up to `max_level` and `num_blocks` blocks.
    pub(crate) fn new(max_level: u32, num_blocks: usize) -> LevelQueue {
        let mut layers = Vec::new();
        let mut bits = max_level as usize + 1;
        loop {
            let words = bits.div_ceil(64);
            layers.push(vec![0u64; words]);
            if words == 1 {
                break;
            }
            bits = words;
        }
        LevelQueue {
            head: vec![PackedOption::NONE; max_level as usize + 1],
            next: vec![PackedOption::NONE; num_blocks],
            layers,
        }
    }

    /// Whether nothing is queued.
    #[cfg(test)]
    pub(crate) fn is_empty(&self) -> bool {
        self.layers.last().is_none_or(|top| top[0] == 0)
    }

    /// Empties the queue, in O(what it holds).
    pub(crate) fn clear(&mut self) {
        while self.pop().is_some() {}
    }

    /// Queues `block` at `level`.
    ///
    /// # Preconditions
    /// `level <= max_level`, and `block` is not queued.
    #[inline(always)]
    pub(crate) fn push(&mut self, level: u32, block: Block) {
        let l = level as usize;
        self.next[block.index()] = self.head[l];
        self.head[l] = PackedOption::some(block);
        let mut at = l;
        for layer in &mut self.layers {
            let word = &mut layer[at / 64];
            let was = *word;
            *word |= 1 << (at % 64);
            if was != 0 {
                break; // the layers above already say this word is non-empty
            }
            at /= 64;
        }
    }

    /// Takes a block of the deepest non-empty level, with its level.
    #[inline(always)]
    pub(crate) fn pop(&mut self) -> Option<(u32, Block)> {
        let top = self.layers.last()?[0];
        if top == 0 {
            return None;
        }
        // Down the hierarchy, always to the highest set bit.
        let mut at = 63 - top.leading_zeros() as usize;
        for layer in self.layers.iter().rev().skip(1) {
            at = at * 64 + 63 - layer[at].leading_zeros() as usize;
        }
        let level = at as u32;
        let block = self.head[at]
            .expand()
            .expect("an occupied level has a block");
        self.head[at] = self.next[block.index()];
        if self.head[at].is_none() {
            // The level is empty: clear its bit, and each word's bit in the
            // layer above while words become zero.
            for layer in &mut self.layers {
                let word = &mut layer[at / 64];
                *word &= !(1 << (at % 64));
                if *word != 0 {
                    break;
                }
                at /= 64;
            }
        }
        Some((level, block))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pops_deepest_first_across_words_and_layers() {
        // 5000 levels: three layers (5000 bits, 79 words, 2 words, 1).
        let mut q = LevelQueue::new(4999, 16);
        assert_eq!(q.layers.len(), 3);
        let pushed = [
            (3, 0),
            (70, 1),
            (5, 2),
            (4999, 3),
            (70, 4),
            (0, 5),
            (4096, 6),
            (70, 7),
            (1, 8),
        ];
        for &(l, b) in &pushed[..7] {
            q.push(l, Block::new(b));
        }
        let mut levels = Vec::new();
        while let Some((l, b)) = q.pop() {
            assert!(pushed.contains(&(l, b.index())), "{l} {b}");
            levels.push(l);
            if b.index() == 6 {
                // Pushes below the last level popped, as the DF⁺ walk does.
                q.push(70, Block::new(7));
                q.push(1, Block::new(8));
            }
        }
        assert_eq!(levels, [4999, 4096, 70, 70, 70, 5, 3, 1, 0]);
        assert!(q.is_empty());
    }

    /// Against a sorted list, on pseudo-random pushes never above the last
    /// level popped (the DF⁺ walk's pattern) and on arbitrary ones.
    #[test]
    fn agrees_with_a_sorted_list() {
        let mut seed = 12345u64;
        let mut rand = |n: u64| {
            seed = seed
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            (seed >> 33) % n
        };
        for max_level in [0u32, 1, 63, 64, 65, 4095, 4096, 300_000] {
            let mut q = LevelQueue::new(max_level, 64);
            let mut model: Vec<(u32, usize)> = Vec::new();
            let mut queued = [false; 64];
            for _ in 0..2000 {
                if rand(3) > 0 {
                    let b = rand(64) as usize;
                    if !queued[b] {
                        let l = rand(max_level as u64 + 1) as u32;
                        q.push(l, Block::new(b));
                        model.push((l, b));
                        queued[b] = true;
                    }
                } else {
                    let got = q.pop();
                    let best = model.iter().map(|&(l, _)| l).max();
                    assert_eq!(got.map(|(l, _)| l), best);
                    if let Some((l, b)) = got {
                        let k = model.iter().position(|&e| e == (l, b.index())).unwrap();
                        model.swap_remove(k);
                        queued[b.index()] = false;
                    }
                }
            }
            q.clear();
            assert!(q.is_empty());
        }
    }
}
