//! A layered (Sugiyama-style) layout of boxes joined by directed edges,
//! after Sugiyama, Tagawa and Toda, "Methods for Visual Understanding of
//! Hierarchical System Structures" (IEEE SMC, 1981), in the simple form
//! that suits control-flow graphs, whose edges mostly point down.
//!
//! 1. **Cycle removal.** An iterative depth-first search from node 0 (the
//!    entry), then from every node not yet reached in index order, marks
//!    as a *back edge* each edge to a node still on the DFS stack (a self
//!    loop included). Without them the graph is acyclic.
//! 2. **Ranking.** Longest path from the sources in a topological order of
//!    the acyclic graph (Kahn's algorithm): `rank(v) = max(rank(u) + 1)`
//!    over its forward predecessors `u`, 0 for a source. A join sits below
//!    every branch leading to it, as in the chapter's figures.
//! 3. **Ordering.** Ranks start in DFS preorder, then [`SWEEPS`] down-and-up
//!    sweeps sort each rank by the *barycenter* (mean relative position) of
//!    its nodes' forward neighbours in the ranks already placed, which
//!    removes most crossings of a CFG.
//! 4. **Coordinates.** Rank by rank, each node wants to be centred under the
//!    mean centre of its forward predecessors; nodes are placed left to
//!    right at their wish or right of their left neighbour plus [`H_GAP`],
//!    then the whole rank shifts by the mean difference between wishes and
//!    places. Ranks are stacked [`V_GAP`] apart, each as tall as its
//!    tallest node.
//!
//! A forward edge spanning several ranks gets a *dummy node* in each rank
//! it crosses, a narrow box that is ordered and placed like the others, so
//! the edge has a lane of its own. Dummies are capped at
//! `DUMMIES_PER_ITEM` per node and edge of the input (a ladder's long edges
//! would need a quadratic number); long edges past the cap, and back edges,
//! are drawn as curves without a lane. Every step is iterative and costs
//! O((V + E) log V) (sorting the ranks) per sweep, with no recursion: the
//! tests lay out a 200,000-node chain and a 200,000-node fan.
//!
//! Why not a crate: the pure-Rust `layout-rs` (0.1.x, some 4,500 lines,
//! few releases since 2022) renders DOT to SVG, but by its own
//! documentation lacks embedded HTML labels, which the phi rows of a block
//! need; adding it would also be the core library's first drawing
//! dependency, and its behaviour on a 10,000-way switch would still have to
//! be measured. This module is some 450 lines with nothing to install, and
//! its cost is written above.

/// Down-and-up barycenter sweeps.
pub(crate) const SWEEPS: usize = 4;
/// Horizontal space between two boxes of a rank.
pub(crate) const H_GAP: f64 = 24.0;
/// Vertical space between two ranks.
pub(crate) const V_GAP: f64 = 40.0;
/// Space around the drawing.
pub(crate) const MARGIN: f64 = 20.0;

/// Where each box goes.
///
/// Invariant: boxes of one rank do not overlap and are at least [`H_GAP`]
/// apart; every coordinate is at least [`MARGIN`].
#[derive(Clone, Debug)]
pub(crate) struct Layout {
    /// Left edge of each box.
    pub(crate) x: Vec<f64>,
    /// Top edge of each box.
    pub(crate) y: Vec<f64>,
    /// The rank (layer) of each box, 0 at the top.
    pub(crate) rank: Vec<u32>,
    /// Top of each rank.
    pub(crate) rank_top: Vec<f64>,
    /// Height of each rank (its tallest box).
    pub(crate) rank_height: Vec<f64>,
    /// Whether each edge is a back edge (drawn upwards), by edge index.
    pub(crate) back: Vec<bool>,
    /// For each edge, the start of its waypoints in `waypoints`
    /// (`edges + 1` entries).
    pub(crate) route_start: Vec<u32>,
    /// The horizontal centres of the dummy nodes a long edge goes through,
    /// one per rank it crosses, top down: the edge passes that rank at this
    /// `x`, from `rank_top` to `rank_top + rank_height`.
    pub(crate) waypoints: Vec<(u32, f64)>,
    /// Width of the drawing.
    pub(crate) width: f64,
    /// Height of the drawing.
    pub(crate) height: f64,
}

impl Layout {
    /// The waypoints of edge `e`: `(rank, x)` of each rank it crosses.
    pub(crate) fn route(&self, e: usize) -> &[(u32, f64)] {
        &self.waypoints[self.route_start[e] as usize..self.route_start[e + 1] as usize]
    }
}

/// Width of the lane of a long edge through a rank.
pub(crate) const LANE_W: f64 = 8.0;

/// Dummy nodes a layout may add, per node and edge of the input: past this
/// budget the remaining long edges get no lane (a ladder's long edges
/// would need a quadratic number of dummies).
const DUMMIES_PER_ITEM: usize = 4;

/// Compressed adjacency: for each node, the indices of its edges.
struct Adjacency {
    start: Vec<u32>,
    edge: Vec<u32>,
}

impl Adjacency {
    /// Edges grouped by `key(edge)`, in edge order within a group.
    fn new(n: usize, edges: &[(u32, u32)], key: impl Fn((u32, u32)) -> u32) -> Adjacency {
        let mut start = vec![0u32; n + 1];
        for &e in edges {
            start[key(e) as usize + 1] += 1;
        }
        for i in 0..n {
            start[i + 1] += start[i];
        }
        let mut fill = start.clone();
        let mut edge = vec![0u32; edges.len()];
        for (k, &e) in edges.iter().enumerate() {
            let slot = &mut fill[key(e) as usize];
            edge[*slot as usize] = k as u32;
            *slot += 1;
        }
        Adjacency { start, edge }
    }

    fn of(&self, v: usize) -> &[u32] {
        &self.edge[self.start[v] as usize..self.start[v + 1] as usize]
    }
}

/// Lays out boxes of the given `(width, height)` joined by `edges` (pairs
/// of box indices). Box 0 is the root, placed on the first rank.
///
/// A forward edge spanning several ranks is split at each rank it crosses
/// by a *dummy node* (Sugiyama's method), which takes part in the ordering
/// and the placement like a narrow box, so that the edge gets a lane of
/// its own instead of crossing the boxes in between.
pub(crate) fn layout(sizes: &[(f64, f64)], edges: &[(u32, u32)]) -> Layout {
    let n = sizes.len();
    let out = Adjacency::new(n, edges, |e| e.0);
    let inc = Adjacency::new(n, edges, |e| e.1);
    let (back, preorder) = back_edges(n, edges, &out);
    let mut rank = ranks(n, edges, &back, &out, &inc);
    // Dummy nodes: the extended graph has the boxes, then the dummies;
    // `chain[e]` is the first dummy of edge `e`, dummies of one edge being
    // consecutive.
    let budget = DUMMIES_PER_ITEM * (n + edges.len()) + 64;
    let mut ext_sizes = sizes.to_vec();
    let mut ext_edges: Vec<(u32, u32)> = Vec::with_capacity(edges.len());
    let mut ext_back: Vec<bool> = Vec::with_capacity(edges.len());
    let mut route_start = Vec::with_capacity(edges.len() + 1);
    for (k, &(u, v)) in edges.iter().enumerate() {
        route_start.push((ext_sizes.len() - n) as u32);
        let (ru, rv) = (rank[u as usize], rank[v as usize]);
        let span = rv.saturating_sub(ru) as usize;
        if back[k] || span <= 1 || ext_sizes.len() - n + span > budget {
            ext_edges.push((u, v));
            ext_back.push(back[k]);
            continue;
        }
        let mut prev = u;
        for r in ru + 1..rv {
            let d = ext_sizes.len() as u32;
            ext_sizes.push((LANE_W, 0.0));
            rank.push(r);
            ext_edges.push((prev, d));
            ext_back.push(false);
            prev = d;
        }
        ext_edges.push((prev, v));
        ext_back.push(false);
    }
    route_start.push((ext_sizes.len() - n) as u32);
    let m = ext_sizes.len();
    let ext_out = Adjacency::new(m, &ext_edges, |e| e.0);
    let ext_inc = Adjacency::new(m, &ext_edges, |e| e.1);
    // Dummies start right after the source of their edge, in preorder.
    let mut first_order = Vec::with_capacity(m);
    for &v in &preorder {
        first_order.push(v);
        for &e in out.of(v as usize) {
            let e = e as usize;
            first_order.extend(n as u32 + route_start[e]..n as u32 + route_start[e + 1]);
        }
    }
    let mut ranks_list = by_rank(&rank, &first_order);
    order(
        &mut ranks_list,
        &rank,
        &ext_edges,
        &ext_back,
        &ext_out,
        &ext_inc,
    );
    let c = coordinates(&ext_sizes, &ranks_list, &ext_edges, &ext_back, &ext_inc);
    let waypoints = (n..m).map(|d| (rank[d], c.x[d] + LANE_W / 2.0)).collect();
    rank.truncate(n);
    let (mut x, mut y) = (c.x, c.y);
    x.truncate(n);
    y.truncate(n);
    Layout {
        x,
        y,
        rank,
        rank_top: c.rank_top,
        rank_height: c.rank_height,
        back,
        route_start,
        waypoints,
        width: c.width,
        height: c.height,
    }
}

/// Step 1: the back edges of an iterative DFS, and the nodes in DFS
/// preorder.
fn back_edges(n: usize, edges: &[(u32, u32)], out: &Adjacency) -> (Vec<bool>, Vec<u32>) {
    const NEW: u8 = 0;
    const ON_STACK: u8 = 1;
    const DONE: u8 = 2;
    let mut state = vec![NEW; n];
    let mut back = vec![false; edges.len()];
    let mut preorder = Vec::with_capacity(n);
    // (node, next out-edge to look at)
    let mut stack: Vec<(u32, u32)> = Vec::new();
    for root in 0..n {
        if state[root] != NEW {
            continue;
        }
        state[root] = ON_STACK;
        preorder.push(root as u32);
        stack.push((root as u32, 0));
        while let Some(top) = stack.last_mut() {
            let (v, k) = *top;
            let list = out.of(v as usize);
            if k as usize == list.len() {
                state[v as usize] = DONE;
                stack.pop();
                continue;
            }
            top.1 += 1;
            let e = list[k as usize];
            let w = edges[e as usize].1 as usize;
            match state[w] {
                NEW => {
                    state[w] = ON_STACK;
                    preorder.push(w as u32);
                    stack.push((w as u32, 0));
                }
                ON_STACK => back[e as usize] = true,
                _ => {}
            }
        }
    }
    (back, preorder)
}

/// Step 2: longest-path ranks over the forward edges, by Kahn's algorithm.
fn ranks(
    n: usize,
    edges: &[(u32, u32)],
    back: &[bool],
    out: &Adjacency,
    inc: &Adjacency,
) -> Vec<u32> {
    let mut missing: Vec<u32> = (0..n)
        .map(|v| inc.of(v).iter().filter(|&&e| !back[e as usize]).count() as u32)
        .collect();
    let mut rank = vec![0u32; n];
    let mut ready: Vec<u32> = (0..n as u32)
        .filter(|&v| missing[v as usize] == 0)
        .collect();
    while let Some(v) = ready.pop() {
        for &e in out.of(v as usize) {
            if back[e as usize] {
                continue;
            }
            let w = edges[e as usize].1 as usize;
            rank[w] = rank[w].max(rank[v as usize] + 1);
            missing[w] -= 1;
            if missing[w] == 0 {
                ready.push(w as u32);
            }
        }
    }
    rank
}

/// The nodes of each rank, in DFS preorder.
fn by_rank(rank: &[u32], preorder: &[u32]) -> Vec<Vec<u32>> {
    let top = rank.iter().copied().max().map_or(0, |r| r as usize + 1);
    let mut list = vec![Vec::new(); top];
    for &v in preorder {
        list[rank[v as usize] as usize].push(v);
    }
    list
}

/// Step 3: barycenter sweeps, down (by forward predecessors) then up (by
/// forward successors).
fn order(
    ranks: &mut [Vec<u32>],
    rank: &[u32],
    edges: &[(u32, u32)],
    back: &[bool],
    out: &Adjacency,
    inc: &Adjacency,
) {
    // Relative position in its rank, in (0, 1).
    let mut rel = vec![0f64; rank.len()];
    let set_rel = |rel: &mut [f64], list: &[u32]| {
        let len = list.len() as f64;
        for (i, &v) in list.iter().enumerate() {
            rel[v as usize] = (i as f64 + 0.5) / len;
        }
    };
    for list in ranks.iter() {
        set_rel(&mut rel, list);
    }
    let mut keyed: Vec<(f64, u32)> = Vec::new();
    for _ in 0..SWEEPS {
        for down in [true, false] {
            let r_order: Vec<usize> = if down {
                (1..ranks.len()).collect()
            } else {
                (0..ranks.len().saturating_sub(1)).rev().collect()
            };
            for r in r_order {
                keyed.clear();
                for &v in &ranks[r] {
                    let adj = if down { inc } else { out };
                    let (mut sum, mut count) = (0.0, 0u32);
                    for &e in adj.of(v as usize) {
                        if !back[e as usize] {
                            let (a, b) = edges[e as usize];
                            sum += rel[if down { a } else { b } as usize];
                            count += 1;
                        }
                    }
                    let key = if count == 0 {
                        rel[v as usize]
                    } else {
                        sum / count as f64
                    };
                    keyed.push((key, v));
                }
                keyed.sort_by(|a, b| a.0.total_cmp(&b.0));
                for (slot, &(_, v)) in ranks[r].iter_mut().zip(&keyed) {
                    *slot = v;
                }
                set_rel(&mut rel, &ranks[r]);
            }
        }
    }
}

/// What step 4 computes.
struct Coordinates {
    x: Vec<f64>,
    y: Vec<f64>,
    rank_top: Vec<f64>,
    rank_height: Vec<f64>,
    width: f64,
    height: f64,
}

/// Step 4: left and top edges of every box, and the drawing's size.
fn coordinates(
    sizes: &[(f64, f64)],
    ranks: &[Vec<u32>],
    edges: &[(u32, u32)],
    back: &[bool],
    inc: &Adjacency,
) -> Coordinates {
    let n = sizes.len();
    let mut cx = vec![0f64; n];
    let mut y = vec![0f64; n];
    let mut rank_top = Vec::with_capacity(ranks.len());
    let mut rank_height = Vec::with_capacity(ranks.len());
    let mut top = MARGIN;
    let mut wish: Vec<Option<f64>> = Vec::new();
    for list in ranks {
        wish.clear();
        for &v in list {
            let (mut sum, mut count) = (0.0, 0u32);
            for &e in inc.of(v as usize) {
                if !back[e as usize] {
                    sum += cx[edges[e as usize].0 as usize];
                    count += 1;
                }
            }
            wish.push((count > 0).then(|| sum / count as f64));
        }
        // Left to right, no overlap.
        let mut right = f64::NEG_INFINITY;
        let (mut shift, mut wishes) = (0.0, 0u32);
        for (&v, w) in list.iter().zip(&wish) {
            let half = sizes[v as usize].0 / 2.0;
            let least = right + H_GAP + half;
            let c = match w {
                Some(w) => w.max(least),
                None if right.is_finite() => least,
                None => half,
            };
            if let Some(w) = w {
                shift += w - c;
                wishes += 1;
            }
            cx[v as usize] = c;
            right = c + half;
        }
        let shift = if wishes > 0 {
            shift / wishes as f64
        } else {
            0.0
        };
        let mut height: f64 = 0.0;
        for &v in list {
            cx[v as usize] += shift;
            y[v as usize] = top;
            height = height.max(sizes[v as usize].1);
        }
        rank_top.push(top);
        rank_height.push(height);
        top += height + V_GAP;
    }
    // Left edges, the leftmost at the margin.
    let mut x: Vec<f64> = (0..n).map(|v| cx[v] - sizes[v].0 / 2.0).collect();
    let least = x.iter().copied().fold(f64::INFINITY, f64::min);
    let mut width: f64 = 0.0;
    if least.is_finite() {
        for (v, xv) in x.iter_mut().enumerate() {
            *xv += MARGIN - least;
            width = width.max(*xv + sizes[v].0);
        }
    }
    let height = if n == 0 {
        2.0 * MARGIN
    } else {
        top - V_GAP + MARGIN
    };
    Coordinates {
        x,
        y,
        rank_top,
        rank_height,
        width: width + MARGIN,
        height,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn overlaps(l: &Layout, sizes: &[(f64, f64)]) -> bool {
        let n = sizes.len();
        let mut by: Vec<usize> = (0..n).collect();
        by.sort_by(|&a, &b| {
            (l.rank[a], l.x[a])
                .partial_cmp(&(l.rank[b], l.x[b]))
                .unwrap()
        });
        by.windows(2).any(|w| {
            l.rank[w[0]] == l.rank[w[1]] && l.x[w[0]] + sizes[w[0]].0 + H_GAP > l.x[w[1]] + 1e-6
        })
    }

    #[test]
    fn diamond_with_a_loop() {
        // 0 -> 1, 1 -> 2, 1 -> 3, 2 -> 4, 3 -> 4, 4 -> 1, 4 -> 4
        let sizes = vec![(40.0, 20.0); 5];
        let edges = [(0, 1), (1, 2), (1, 3), (2, 4), (3, 4), (4, 1), (4, 4)];
        let l = layout(&sizes, &edges);
        assert_eq!(l.rank, vec![0, 1, 2, 2, 3]);
        assert_eq!(l.back, vec![false, false, false, false, false, true, true]);
        assert!(!overlaps(&l, &sizes));
        // The join is centred between the two branches, under the loop head.
        let centre = |v: usize| l.x[v] + 20.0;
        assert!((centre(4) - (centre(2) + centre(3)) / 2.0).abs() < 1e-6);
        assert!((centre(4) - centre(1)).abs() < 1e-6);
        assert!(l.y[4] > l.y[2] && l.y[2] > l.y[1]);
    }

    #[test]
    fn unreachable_nodes_and_no_edges() {
        let sizes = vec![(10.0, 10.0), (30.0, 10.0), (20.0, 10.0)];
        let l = layout(&sizes, &[(2, 1)]);
        assert_eq!(l.rank, vec![0, 1, 0]);
        assert!(!overlaps(&l, &sizes));
        let l = layout(&[], &[]);
        assert!(l.x.is_empty());
    }

    #[test]
    fn a_long_chain_and_a_wide_fan_do_not_overflow() {
        let n = 200_000u32;
        let sizes = vec![(40.0, 20.0); n as usize];
        let chain: Vec<(u32, u32)> = (1..n).map(|v| (v - 1, v)).chain([(n - 1, 0)]).collect();
        let l = layout(&sizes, &chain);
        assert_eq!(l.rank[n as usize - 1], n - 1);
        let fan: Vec<(u32, u32)> = (1..n - 1).flat_map(|v| [(0, v), (v, n - 1)]).collect();
        let l = layout(&sizes, &fan);
        assert_eq!(l.rank[n as usize - 1], 2);
        assert!(!overlaps(&l, &sizes));
    }
}
