//! Sequentialization of parallel copies (chapter section 13.7) checked
//! against its definition, in the manner of QBE's `tools/pmov.c`: enumerate
//! every parallel copy on up to four locations, run the emitted moves in a
//! tiny machine, and compare with the simultaneous semantics; then the same
//! on random parallel copies of up to twelve locations with proptest.
//!
//! The oracle counts are computed here from the transfer graph, independently
//! of the implementation:
//! * temporary mode: `T + C` copies, where `T` counts non-self transfers and
//!   `C` the *closed* cycles (no node feeds a location outside the cycle);
//!   the temporary is requested exactly `C` times;
//! * swap mode: the `T − Σ len` tree transfers as copies, `Σ (len − 1)`
//!   swaps, over all cycles.

mod common;

use proptest::prelude::*;
use ssakit::destruct::parallel_copy::{Move, Sequentializer, Src};

/// A parallel copy over locations `0..n`: `choice[d]` is `None` when `d` is
/// not written, else its source.
type Choice = Vec<Option<Src<u32, i64>>>;

/// The value location `l` holds before the copy.
fn initial(l: u32) -> i64 {
    1000 + l as i64
}

/// The machine of `pmov.c`: a register file, executing moves one by one.
/// Locations are mapped through `place` to exercise sparse indices.
fn simulate(moves: &[Move<u32, i64>], regs: &mut [i64]) {
    for m in moves {
        match *m {
            Move::Copy { dst, src } => regs[dst as usize] = regs[src as usize],
            Move::Swap(a, b) => regs.swap(a as usize, b as usize),
            Move::Set { dst, val } => regs[dst as usize] = val,
        }
    }
}

/// Counts from the definitions: (non-self transfers, closed cycles,
/// number of cycles, total length of cycles).
fn graph_counts(choice: &Choice) -> (usize, usize, usize, usize) {
    let n = choice.len();
    let pred = |x: usize| match choice[x] {
        Some(Src::Loc(s)) if s as usize != x => Some(s as usize),
        _ => None,
    };
    let transfers = (0..n).filter(|&x| pred(x).is_some()).count();
    // x is on a cycle when following sources from x comes back to x.
    let on_cycle: Vec<bool> = (0..n)
        .map(|x| {
            let mut y = x;
            for _ in 0..n {
                match pred(y) {
                    Some(p) if p == x => return true,
                    Some(p) => y = p,
                    None => return false,
                }
            }
            false
        })
        .collect();
    // Cycle id: smallest node of the cycle.
    let cycle_id = |x: usize| {
        let mut m = x;
        let mut y = pred(x).unwrap();
        while y != x {
            m = m.min(y);
            y = pred(y).unwrap();
        }
        m
    };
    let id: Vec<Option<usize>> = (0..n).map(|x| on_cycle[x].then(|| cycle_id(x))).collect();
    // A cycle is open when a node off it reads a node on it.
    let mut open = vec![false; n];
    for y in 0..n {
        if let Some(p) = pred(y) {
            if id[y].is_none() {
                if let Some(c) = id[p] {
                    open[c] = true;
                }
            }
        }
    }
    let cycles = (0..n).filter(|&x| id[x] == Some(x)).count();
    let closed = (0..n).filter(|&x| id[x] == Some(x) && !open[x]).count();
    let total_len = id.iter().filter(|c| c.is_some()).count();
    (transfers, closed, cycles, total_len)
}

/// Checks both modes on one parallel copy, given in the order `order`, with
/// location `l` placed at index `place(l)`. Returns a description of the
/// first failure.
fn check(
    seq: &mut Sequentializer<u32>,
    choice: &Choice,
    order: &[usize],
    place: impl Fn(u32) -> u32,
) -> Result<(), String> {
    let n = choice.len();
    let temp = place(n as u32);
    let copies: Vec<(u32, Src<u32, i64>)> = order
        .iter()
        .filter_map(|&d| {
            choice[d].map(|s| {
                let s = match s {
                    Src::Loc(l) => Src::Loc(place(l)),
                    v => v,
                };
                (place(d as u32), s)
            })
        })
        .collect();
    let (transfers, closed, _cycles, cycle_len) = graph_counts(choice);
    let values = choice
        .iter()
        .filter(|c| matches!(c, Some(Src::Val(_))))
        .count();
    let expected = |regs: &[i64]| -> Result<(), String> {
        for l in 0..n {
            let want = match choice[l] {
                None => initial(l as u32),
                Some(Src::Loc(s)) => initial(s),
                Some(Src::Val(v)) => v,
            };
            let got = regs[place(l as u32) as usize];
            if got != want {
                return Err(format!("location {l}: got {got}, want {want}"));
            }
        }
        Ok(())
    };
    let fresh_regs = || {
        let mut regs = vec![-1i64; temp as usize + 1];
        for l in 0..n as u32 {
            regs[place(l) as usize] = initial(l);
        }
        regs
    };

    // Temporary mode.
    let mut moves = Vec::new();
    let mut asked = 0;
    seq.with_temp(
        &copies,
        |_| {
            asked += 1;
            temp
        },
        &mut moves,
    )
    .map_err(|e| e.to_string())?;
    let ctx = |what: String| format!("{copies:?} (temp): {what}; moves {moves:?}");
    let mut regs = fresh_regs();
    simulate(&moves, &mut regs);
    expected(&regs).map_err(ctx)?;
    let copies_emitted = moves
        .iter()
        .filter(|m| matches!(m, Move::Copy { .. }))
        .count();
    let sets = moves
        .iter()
        .filter(|m| matches!(m, Move::Set { .. }))
        .count();
    let swaps = moves.iter().filter(|m| matches!(m, Move::Swap(..))).count();
    if copies_emitted != transfers + closed || sets != values || swaps != 0 {
        return Err(ctx(format!(
            "{copies_emitted} copies, {sets} sets, {swaps} swaps; want {transfers} + {closed}, {values}, 0"
        )));
    }
    if asked != closed {
        return Err(ctx(format!(
            "temporary requested {asked} times, {closed} closed cycles"
        )));
    }
    let uses_temp = moves.iter().any(|m| match *m {
        Move::Copy { dst, src } => dst == temp || src == temp,
        Move::Set { dst, .. } => dst == temp,
        Move::Swap(a, b) => a == temp || b == temp,
    });
    if uses_temp != (closed > 0) {
        return Err(ctx(format!(
            "temporary used: {uses_temp}, closed cycles: {closed}"
        )));
    }

    // Swap mode.
    moves.clear();
    seq.with_swaps(&copies, &mut moves)
        .map_err(|e| e.to_string())?;
    let ctx = |what: String| format!("{copies:?} (swaps): {what}; moves {moves:?}");
    let mut regs = fresh_regs();
    simulate(&moves, &mut regs);
    expected(&regs).map_err(ctx)?;
    if regs[temp as usize] != -1 {
        return Err(ctx("temporary written".into()));
    }
    let copies_emitted = moves
        .iter()
        .filter(|m| matches!(m, Move::Copy { .. }))
        .count();
    let sets = moves
        .iter()
        .filter(|m| matches!(m, Move::Set { .. }))
        .count();
    let swaps = moves.iter().filter(|m| matches!(m, Move::Swap(..))).count();
    let cycles = graph_counts(choice).2;
    if copies_emitted != transfers - cycle_len || swaps != cycle_len - cycles || sets != values {
        return Err(ctx(format!(
            "{copies_emitted} copies, {swaps} swaps, {sets} sets; want {}, {}, {values}",
            transfers - cycle_len,
            cycle_len - cycles
        )));
    }
    Ok(())
}

/// Every parallel copy on `n ≤ 4` locations: each location is unwritten,
/// written with a constant, or written from one of the `n` locations (self
/// copies and fan-out included), in input order and reversed.
#[test]
fn exhaustive_up_to_four_locations() {
    let mut seq = Sequentializer::new();
    let mut cases = 0;
    for n in 1..=4usize {
        let options = n + 2;
        let total = options.pow(n as u32);
        for code in 0..total {
            let mut c = code;
            let choice: Choice = (0..n)
                .map(|d| {
                    let k = c % options;
                    c /= options;
                    match k {
                        0 => None,
                        1 => Some(Src::Val(-(d as i64) - 7)),
                        k => Some(Src::Loc((k - 2) as u32)),
                    }
                })
                .collect();
            let forward: Vec<usize> = (0..n).collect();
            let backward: Vec<usize> = (0..n).rev().collect();
            for order in [&forward, &backward] {
                if let Err(e) = check(&mut seq, &choice, order, |l| l) {
                    panic!("{e}");
                }
                // Sparse indices, larger than the count of locations.
                if let Err(e) = check(&mut seq, &choice, order, |l| 3 * l + 5) {
                    panic!("{e}");
                }
                cases += 1;
            }
        }
    }
    // 3 + 16 + 125 + 1296 parallel copies, two orders each.
    assert_eq!(cases, 2 * (3 + 16 + 125 + 1296));
}

fn choice_strategy() -> impl Strategy<Value = (Choice, Vec<usize>)> {
    (1usize..=12)
        .prop_flat_map(|n| {
            let src = prop_oneof![
                2 => Just(None),
                1 => any::<i64>().prop_map(|v| Some(Src::Val(v))),
                6 => (0..n as u32).prop_map(|s| Some(Src::Loc(s))),
            ];
            (
                proptest::collection::vec(src, n),
                Just((0..n).collect::<Vec<_>>()).prop_shuffle(),
            )
        })
        .prop_filter("values must differ from initial contents", |(c, _)| {
            c.iter()
                .all(|s| !matches!(s, Some(Src::Val(v)) if (1000..1100).contains(v)))
        })
}

proptest! {
    #![proptest_config(common::config(5000))]

    /// Random parallel copies of up to twelve locations, with fan-out and
    /// self-copies, in random input order.
    #[test]
    fn random_parallel_copies((choice, order) in choice_strategy()) {
        let mut seq = Sequentializer::new();
        if let Err(e) = check(&mut seq, &choice, &order, |l| 2 * l + 1) {
            prop_assert!(false, "{}", e);
        }
    }

    /// Permutations (every location written, only cycles): the worst case
    /// for temporaries.
    #[test]
    fn random_permutations(perm in Just((0..12u32).collect::<Vec<_>>()).prop_shuffle()) {
        let choice: Choice = perm.iter().map(|&s| Some(Src::Loc(s))).collect();
        let order: Vec<usize> = (0..12).collect();
        let mut seq = Sequentializer::new();
        if let Err(e) = check(&mut seq, &choice, &order, |l| l) {
            prop_assert!(false, "{}", e);
        }
    }
}

/// Large inputs: one cycle through 200 000 locations, and one location
/// copied to 200 000 others. A quadratic algorithm would not finish.
#[test]
fn large_inputs_are_linear() {
    let n = 200_000u32;
    let rotate: Vec<(u32, Src<u32, i64>)> = (0..n).map(|d| (d, Src::Loc((d + 1) % n))).collect();
    let mut seq = Sequentializer::new();
    let mut moves = Vec::new();
    seq.with_temp(&rotate, |_| n, &mut moves).unwrap();
    assert_eq!(moves.len(), n as usize + 1);
    let mut regs: Vec<i64> = (0..=n as i64).collect();
    simulate(&moves, &mut regs);
    assert!((0..n).all(|d| regs[d as usize] == ((d + 1) % n) as i64));
    moves.clear();
    seq.with_swaps(&rotate, &mut moves).unwrap();
    assert_eq!(moves.len(), n as usize - 1);

    let star: Vec<(u32, Src<u32, i64>)> = (1..n).map(|d| (d, Src::Loc(0))).collect();
    moves.clear();
    seq.with_temp(&star, |_| unreachable!(), &mut moves)
        .unwrap();
    assert_eq!(moves.len(), n as usize - 1);
}
