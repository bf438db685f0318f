//! Edge routing: the SVG path of each edge of a laid-out picture.
//!
//! * **Down** (rank of the source above the target's): a curve from the
//!   bottom centre of the source to the top centre of the target, through
//!   the lanes ([`Layout::route`]) the layout gave the edge in the ranks
//!   between, straight down each lane.
//! * **Back** (up): right of every box and lane of the ranks spanned (a
//!   [`RangeMax`] over each rank's right edge), leaving the source by its
//!   right side, or by its bottom and across the gap below its rank when a
//!   box stands to its right, and entering the target by its right side or,
//!   likewise, its top: a back edge never crosses a box.
//! * **Within a rank**: an arc below both boxes, at most three quarters of
//!   the gap deep. **Self loops**: a small arc on the right.
//!
//! Parallel edges of a multi-edge (the `dup`-th edge between two nodes)
//! are spread [`SPREAD`] apart, up to [`MAX_SPREAD`]; later ones are drawn
//! over the last, so a switch naming one block 100,000 times stays as wide
//! as the rest.

use super::layout::{self, Layout};
use crate::backend::picture::Picture;
use std::fmt::Write;

/// Spacing of the parallel edges of a multi-edge.
pub(crate) const SPREAD: f64 = 10.0;
/// Parallel edges spread apart at most; later ones are drawn over the
/// last.
pub(crate) const MAX_SPREAD: u32 = 3;

/// Routes the edges of one picture, and keeps how far they reach.
pub(crate) struct Router<'a> {
    sizes: &'a [(f64, f64)],
    l: &'a Layout,
    /// Right edge of the rightmost box of each rank.
    box_right: Vec<f64>,
    /// Right edge of the rightmost box or lane, by range of ranks.
    rights: RangeMax,
    /// Back edges routed so far, to stagger their runs.
    backs: u32,
    far_x: f64,
    far_y: f64,
    points: Vec<(f64, f64)>,
}

impl<'a> Router<'a> {
    /// A router for the boxes of `p`, of sizes `sizes`, laid out as `l`.
    pub(crate) fn new(p: &Picture, sizes: &'a [(f64, f64)], l: &'a Layout) -> Router<'a> {
        let (box_right, all_right) = rank_rights(p, sizes, l);
        Router {
            sizes,
            l,
            box_right,
            rights: RangeMax::new(all_right),
            backs: 0,
            far_x: 0.0,
            far_y: 0.0,
            points: Vec::new(),
        }
    }

    /// The largest `x` and `y` the paths routed reach (their control
    /// points bound them).
    pub(crate) fn extent(&self) -> (f64, f64) {
        (self.far_x, self.far_y)
    }

    /// `(x, y, width, height)` of box `k`.
    fn rect(&self, k: usize) -> (f64, f64, f64, f64) {
        (self.l.x[k], self.l.y[k], self.sizes[k].0, self.sizes[k].1)
    }

    /// A self loop of `u` on its right side.
    pub(crate) fn self_loop(&mut self, u: usize, dup: u32) -> String {
        let (ux, uy, uw, uh) = self.rect(u);
        let (x, y) = (ux + uw, uy + uh / 2.0);
        let r = 18.0 + dup.min(MAX_SPREAD) as f64 * SPREAD;
        self.far_x = self.far_x.max(x + r);
        format!(
            "M{x:.1},{:.1} C{:.1},{:.1} {:.1},{:.1} {x:.1},{:.1}",
            y - 6.0,
            x + r,
            y - 6.0 - r,
            x + r,
            y + 6.0 + r,
            y + 6.0
        )
    }

    /// An edge between two boxes of one rank: an arc below both.
    pub(crate) fn arc_below(&mut self, u: usize, v: usize, dup: u32) -> String {
        let (ux, uy, uw, uh) = self.rect(u);
        let (vx, vy, vw, vh) = self.rect(v);
        let (x1, y1) = (ux + uw / 2.0, uy + uh);
        let (x2, y2) = (vx + vw / 2.0, vy + vh);
        let spread = dup.min(MAX_SPREAD) as f64 * SPREAD;
        // The next rank's boxes start a gap down.
        let depth = (14.0 + spread + (x2 - x1).abs() / 12.0).min(0.75 * layout::V_GAP);
        let low = y1.max(y2) + depth;
        self.far_y = self.far_y.max(low);
        format!("M{x1:.1},{y1:.1} C{x1:.1},{low:.1} {x2:.1},{low:.1} {x2:.1},{y2:.1}")
    }

    /// A back edge from `u` up to `v`.
    pub(crate) fn back_edge(&mut self, u: usize, v: usize, dup: u32) -> String {
        let (ux, uy, uw, uh) = self.rect(u);
        let (vx, vy, vw, vh) = self.rect(v);
        let l = self.l;
        let dup = dup.min(MAX_SPREAD) as f64;
        let (ru, rv) = (l.rank[u] as usize, l.rank[v] as usize);
        let stagger = dup * SPREAD + (self.backs % 3) as f64 * 6.0;
        self.backs += 1;
        let right = self.rights.max(rv.min(ru), rv.max(ru)) + 16.0 + stagger;
        self.far_x = self.far_x.max(right);
        let mut points = std::mem::take(&mut self.points);
        points.clear();
        if ux + uw >= self.box_right[ru] - 0.5 {
            let y = uy + uh / 2.0 + dup * 4.0;
            points.extend([(ux + uw, y), (right, y)]);
        } else {
            let x = ux + uw - 10.0 - dup * 4.0;
            let below = l.rank_top[ru] + l.rank_height[ru] + BACK_RUN + stagger / 3.0;
            self.far_y = self.far_y.max(below);
            points.extend([(x, uy + uh), (x, below), (right, below)]);
        }
        if vx + vw >= self.box_right[rv] - 0.5 {
            let y = vy + vh / 2.0 - dup * 4.0;
            points.extend([(right, y), (vx + vw, y)]);
        } else {
            let x = vx + vw - 10.0 - dup * 4.0;
            let above = (l.rank_top[rv] - BACK_RUN - stagger / 3.0).max(2.0);
            points.extend([(right, above), (x, above), (x, vy)]);
        }
        let d = round_path(&points);
        self.points = points;
        d
    }

    /// An edge from `u` down to `v` through `lanes` (`(rank, x)` of each
    /// rank crossed).
    pub(crate) fn down_edge(
        &mut self,
        u: usize,
        v: usize,
        dup: u32,
        lanes: &[(u32, f64)],
    ) -> String {
        let (ux, uy, uw, uh) = self.rect(u);
        let (vx, vy, vw, _) = self.rect(v);
        let k = dup.min(MAX_SPREAD);
        let side = if k % 2 == 1 { 1.0 } else { -1.0 };
        let off = SPREAD * k.div_ceil(2) as f64 * side;
        let mut points = std::mem::take(&mut self.points);
        points.clear();
        points.push((ux + uw / 2.0 + off, uy + uh));
        for &(r, x) in lanes {
            let top = self.l.rank_top[r as usize];
            points.push((x, top));
            points.push((x, top + self.l.rank_height[r as usize]));
        }
        points.push((vx + vw / 2.0 + off, vy));
        let d = down_path(&points);
        self.points = points;
        d
    }
}

/// How far from the boxes a back edge runs across a gap between ranks.
const BACK_RUN: f64 = 12.0;

/// The right edge of the rightmost box of each rank, and of the rightmost
/// box or lane.
fn rank_rights(p: &Picture, sizes: &[(f64, f64)], l: &layout::Layout) -> (Vec<f64>, Vec<f64>) {
    let mut boxes = vec![0f64; l.rank_top.len()];
    for (k, size) in sizes.iter().enumerate().take(p.nodes.len()) {
        let r = l.rank[k] as usize;
        boxes[r] = boxes[r].max(l.x[k] + size.0);
    }
    let mut all = boxes.clone();
    for &(r, x) in &l.waypoints {
        let r = r as usize;
        all[r] = all[r].max(x + layout::LANE_W / 2.0);
    }
    (boxes, all)
}

/// Maxima over ranges of ranks in O(1), by a sparse table: `table[j][i]`
/// is the maximum of the `2^j` values from `i`. O(R log R) to build.
struct RangeMax {
    table: Vec<Vec<f64>>,
}

impl RangeMax {
    fn new(values: Vec<f64>) -> RangeMax {
        let mut table = vec![values];
        let mut width = 1;
        while 2 * width <= table[0].len() {
            let prev = table.last().expect("one level at least");
            let next: Vec<f64> = (0..prev.len() - width)
                .map(|i| prev[i].max(prev[i + width]))
                .collect();
            table.push(next);
            width *= 2;
        }
        RangeMax { table }
    }

    /// The maximum of the values `lo..=hi`.
    fn max(&self, lo: usize, hi: usize) -> f64 {
        let level = (usize::BITS - 1 - (hi - lo + 1).leading_zeros()) as usize;
        let row = &self.table[level];
        row[lo].max(row[hi + 1 - (1 << level)])
    }
}

/// A polyline through `points` (horizontal and vertical runs) with rounded
/// corners.
fn round_path(points: &[(f64, f64)]) -> String {
    const R: f64 = 6.0;
    let mut d = format!("M{:.1},{:.1}", points[0].0, points[0].1);
    for w in points.windows(3) {
        let (a, b, c) = (w[0], w[1], w[2]);
        // Stop R before the corner, curve around it, go on R after it.
        let toward = |from: (f64, f64), to: (f64, f64)| {
            let (dx, dy) = (to.0 - from.0, to.1 - from.1);
            let len = (dx * dx + dy * dy).sqrt().max(1e-9);
            let r = R.min(len / 2.0);
            (to.0 - dx / len * r, to.1 - dy / len * r)
        };
        let p = toward(a, b);
        let q = toward(c, b);
        let _ = write!(
            d,
            " L{:.1},{:.1} Q{:.1},{:.1} {:.1},{:.1}",
            p.0, p.1, b.0, b.1, q.0, q.1
        );
    }
    let last = points[points.len() - 1];
    let _ = write!(d, " L{:.1},{:.1}", last.0, last.1);
    d
}

/// A path through `points`: curves with vertical tangents from each point
/// at the bottom of a rank (or of the source) to the next at the top of a
/// rank (or of the target), straight lines through the ranks.
fn down_path(points: &[(f64, f64)]) -> String {
    let mut d = format!("M{:.1},{:.1}", points[0].0, points[0].1);
    for (i, w) in points.windows(2).enumerate() {
        let ((x1, y1), (x2, y2)) = (w[0], w[1]);
        if i % 2 == 1 {
            let _ = write!(d, " L{x2:.1},{y2:.1}");
        } else {
            let mid = (y2 - y1) / 2.0;
            let _ = write!(
                d,
                " C{x1:.1},{:.1} {x2:.1},{:.1} {x2:.1},{y2:.1}",
                y1 + mid,
                y2 - mid
            );
        }
    }
    d
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn range_max_agrees_with_a_scan() {
        for n in 1..40usize {
            let values: Vec<f64> = (0..n).map(|i| ((i * 7919) % 31) as f64).collect();
            let t = RangeMax::new(values.clone());
            for lo in 0..n {
                for hi in lo..n {
                    let scan = values[lo..=hi].iter().copied().fold(f64::MIN, f64::max);
                    assert_eq!(t.max(lo, hi), scan, "{n} {lo} {hi}");
                }
            }
        }
    }

    #[test]
    fn round_paths_turn_at_each_corner() {
        let d = round_path(&[(0.0, 0.0), (0.0, 20.0), (30.0, 20.0)]);
        assert_eq!(d, "M0.0,0.0 L0.0,14.0 Q0.0,20.0 6.0,20.0 L30.0,20.0");
    }
}
