//! Debug builds: the dominance forests of the classes checked against
//! their definition (Boissinot et al., CGO 2009, section IV-B: `fpar` is
//! the nearest member above, `eq` an ancestor with the same value).

use super::forest::{Classes, NIL};

impl Classes<'_> {
    /// Debug builds: the forest of every class with a slot is right
    /// (`fpar` is the nearest member above, `eq` is above with the same
    /// value), for classes of up to `limit` members.
    pub(crate) fn check_forests(&mut self, limit: usize) {
        for s in 0..self.head.len() as u32 {
            let mut ms: Vec<u32> = Vec::new();
            for run in self.runs_of(s) {
                ms.extend_from_slice(run);
            }
            if ms.len() > limit {
                continue;
            }
            ms.sort_unstable();
            for (k, &c) in ms.iter().enumerate() {
                let above = ms[..k]
                    .iter()
                    .rev()
                    .find(|&&m| c <= self.pts[m as usize].end)
                    .copied()
                    .unwrap_or(NIL);
                assert_eq!(self.fpar[c as usize], above, "fpar of rank {c}");
                let e = self.eq[c as usize];
                if e != NIL {
                    assert!(e < c && c <= self.pts[e as usize].end);
                    assert_eq!(self.pts[e as usize].value, self.pts[c as usize].value);
                    assert!(ms.binary_search(&e).is_ok());
                }
            }
        }
    }
}
