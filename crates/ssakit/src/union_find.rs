//! Disjoint sets over dense indices (union-find), for phi webs (chapter,
//! section 13.6) and coalescing.
//!
//! Union by size and path halving: `find` makes every other node on the
//! path point to its grandparent, iteratively, so long chains never recurse
//! and the amortised cost per operation is near constant (Tarjan 1975).

/// A partition of `0..n` into disjoint sets.
#[derive(Clone, Debug)]
pub struct UnionFind {
    parent: Vec<u32>,
    size: Vec<u32>,
}

impl UnionFind {
    /// `n` singleton sets.
    pub(crate) fn new(n: usize) -> Self {
        UnionFind {
            parent: (0..n as u32).collect(),
            size: vec![1; n],
        }
    }

    /// Adds singleton sets up to `n` elements.
    pub(crate) fn grow(&mut self, n: usize) {
        let len = self.parent.len();
        self.parent.extend(len as u32..n as u32);
        self.size.resize(n.max(len), 1);
    }

    /// Number of elements.
    pub(crate) fn len(&self) -> usize {
        self.parent.len()
    }

    /// The representative of `x`'s set, halving the path on the way.
    pub(crate) fn find(&mut self, mut x: usize) -> usize {
        while self.parent[x] as usize != x {
            let gp = self.parent[self.parent[x] as usize];
            self.parent[x] = gp;
            x = gp as usize;
        }
        x
    }

    /// The representative of `x`'s set, without changing the structure.
    pub(crate) fn find_const(&self, mut x: usize) -> usize {
        while self.parent[x] as usize != x {
            x = self.parent[x] as usize;
        }
        x
    }

    /// Makes `root` and the elements of `others`, each alone in its set,
    /// one set represented by `root`: one write per element, no `find`.
    pub(crate) fn join_singletons(&mut self, root: usize, others: impl Iterator<Item = usize>) {
        debug_assert!(self.parent[root] as usize == root && self.size[root] == 1);
        // The size is added once at the end: its store in the loop would
        // wait on each element's (a component of a ladder has 100,000s).
        let mut n = 0;
        for x in others {
            debug_assert!(self.parent[x] as usize == x && self.size[x] == 1);
            self.parent[x] = root as u32;
            n += 1;
        }
        self.size[root] += n;
    }

    /// Merges the sets of `a` and `b`; returns the new representative.
    pub(crate) fn union(&mut self, a: usize, b: usize) -> usize {
        let (mut ra, mut rb) = (self.find(a), self.find(b));
        if ra == rb {
            return ra;
        }
        if self.size[ra] < self.size[rb] {
            std::mem::swap(&mut ra, &mut rb);
        }
        self.parent[rb] = ra as u32;
        self.size[ra] += self.size[rb];
        ra
    }

    /// Whether `a` and `b` are in one set.
    ///
    /// ```
    /// use ssakit::union_find::UnionFind;
    /// let mut uf = UnionFind::new(3);
    /// assert!(!uf.same(0, 2));
    /// uf.union(0, 1);
    /// uf.union(1, 2);
    /// assert!(uf.same(0, 2));
    /// ```
    #[cfg(test)]
    pub(crate) fn same(&mut self, a: usize, b: usize) -> bool {
        self.find(a) == self.find(b)
    }
}

#[cfg(test)]
mod tests {
    use super::UnionFind;

    #[test]
    fn unions_partition_and_long_chains_do_not_recurse() {
        let n = 1_000_000;
        let mut uf = UnionFind::new(n);
        for i in 1..n {
            uf.union(i - 1, i);
        }
        assert!(uf.same(0, n - 1));
        let mut uf = UnionFind::new(6);
        uf.union(0, 2);
        uf.union(4, 2);
        uf.union(1, 5);
        assert!(uf.same(0, 4) && uf.same(1, 5) && !uf.same(0, 1) && !uf.same(3, 0));
        assert_eq!(uf.find_const(4), uf.find(0));
    }
}
