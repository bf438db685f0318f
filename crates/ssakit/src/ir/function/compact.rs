//! Renumbering: blocks in a new order, a new symbol table, and compaction of the instruction table.
//! Part of [`Function`]'s methods; the type and its invariants are in
//! the parent module.

use super::*;

impl Function {
    /// Renumbers the blocks so that `order[k]` becomes block `k`
    /// (terminators, phi labels, the layout and instruction owners
    /// follow). `order` must list every block exactly once. Returns the new
    /// number of each old block, for side tables to follow
    /// ([`EntityVec::permute`]).
    pub(crate) fn renumber_blocks(&mut self, order: &[Block]) -> Vec<u32> {
        let new_of = self.block_numbering(order);
        self.blocks.permute(&new_of);
        let map = |b: Block| Block::from_u32(new_of[b.index()]);
        for b in self.blocks.keys() {
            self.redirect_succs(b, map);
        }
        for i in self.insts.keys() {
            if let InstData::Phi { args, .. } = self.insts[i] {
                for a in args.as_mut_slice(self) {
                    a.block = map(a.block);
                }
            }
            if let Some(b) = self.inst_block[i].expand() {
                self.inst_block[i] = PackedOption::some(map(b));
            }
        }
        for b in &mut self.layout {
            *b = map(*b);
        }
        new_of
    }

    /// The new number of each block when `order[k]` becomes block `k`.
    fn block_numbering(&self, order: &[Block]) -> Vec<u32> {
        let n = self.blocks.len();
        assert_eq!(order.len(), n, "renumber_blocks: not a permutation");
        let mut new_of = vec![u32::MAX; n];
        for (k, &b) in order.iter().enumerate() {
            assert_eq!(
                std::mem::replace(&mut new_of[b.index()], k as u32),
                u32::MAX,
                "renumber_blocks: block {b} listed twice"
            );
        }
        new_of
    }

    /// Replaces the symbol table by `symbols`, which must hold every
    /// operator and callee of this function under the same keys (the
    /// parser builds one table for a module, then gives it to each
    /// function).
    pub(crate) fn replace_symbols(&mut self, symbols: SharedSymbols) {
        debug_assert!(
            symbols.num_operators() >= self.symbols.num_operators()
                && symbols.num_callees() >= self.symbols.num_callees()
        );
        self.symbols = symbols;
    }

    // ---------------------------------------------------------------
    // Compaction.

    /// Drops the removed instructions (listed by no block), renumbering
    /// the others in their previous relative order, and the garbage of
    /// each list pool where it is a quarter of the pool (the lists of the
    /// dropped instructions count as garbage), in
    /// `O(instructions + list items)`. Returns how many instructions were
    /// dropped.
    ///
    /// Instruction numbers change, so side tables keyed by [`Inst`] become
    /// stale.
    ///
    /// ```
    /// // `f`: e: `x = 1; branch c, a, j`, a: `x = 2; jump j`, j: `ret x`.
    /// # let mut f = ssakit::text::parse_module("function f(c) {\ne:\n    x = 1\n    branch c, a, j\na:\n    x = 2\n    jump j\nj:\n    ret x\n}").unwrap().functions.remove(0);
    /// # let (e, a, j) = (f.block_by_name("e").unwrap(), f.block_by_name("a").unwrap(), f.block_by_name("j").unwrap());
    /// # let x = f.var_by_name("x").unwrap();
    /// f.retain_insts(a, |_, _| false);
    /// assert_eq!(f.compact(), 1);
    /// assert_eq!(f.inst_slots(), 1);
    /// ```
    pub fn compact(&mut self) -> usize {
        let listed: usize = self
            .blocks
            .values()
            .map(|b| b.phis.len() + b.insts.len())
            .sum();
        let removed = self.insts.len() - listed;
        if removed > 0 {
            let mut new_index: Vec<u32> = vec![u32::MAX; self.insts.len()];
            let mut kept: EntityVec<Inst, InstData> = EntityVec::with_capacity(listed);
            let mut kept_block = EntityVec::with_capacity(listed);
            for (i, data) in self.insts.iter() {
                if let Some(b) = self.inst_block[i].expand() {
                    new_index[i.index()] = kept.push(*data).as_u32();
                    kept_block.push(PackedOption::some(b));
                } else {
                    self.pools.free_lists(*data);
                }
            }
            self.insts = kept;
            self.inst_block = kept_block;
            let pool = &mut self.pools.block_insts;
            for b in self.blocks.values_mut() {
                for list in [&b.phis, &b.insts] {
                    for i in list.as_mut_slice(pool) {
                        *i = Inst::from_u32(new_index[i.index()]);
                    }
                }
            }
        }
        self.compact_pools();
        removed
    }

    /// Rebuilds the list pools from the lists of the instructions and
    /// terminators, in instruction order, when garbage is a quarter of
    /// them: the block lists' pool on its own, the others together.
    fn compact_pools(&mut self) {
        let lists = &self.pools.block_insts;
        if lists.garbage() > 0 && lists.garbage() * 4 >= lists.len() {
            self.pools.block_insts.compact(
                self.blocks
                    .values_mut()
                    .flat_map(|b| [&mut b.phis, &mut b.insts]),
            );
        }
        let p = &self.pools;
        let garbage = p.operands.garbage()
            + p.phi_args.garbage()
            + p.copies.garbage()
            + p.vars.garbage()
            + p.blocks.garbage()
            + p.imms.garbage();
        let stored = p.operands.len()
            + p.phi_args.len()
            + p.copies.len()
            + p.vars.len()
            + p.blocks.len()
            + p.imms.len();
        if garbage == 0 || garbage * 4 < stored {
            return;
        }
        // At most one list of each kind per instruction (and per
        // terminator): room once, no doubling.
        let (ni, nb) = (self.insts.len(), self.blocks.len());
        let mut operands = Vec::with_capacity(ni + nb);
        let mut phi_args = Vec::with_capacity(ni);
        let mut copies = Vec::new();
        let mut vars = Vec::with_capacity(ni);
        let mut blocks = Vec::new();
        let mut imms = Vec::with_capacity(ni);
        for data in self.insts.values_mut() {
            match data {
                InstData::Call { args, results, .. } => {
                    operands.push(args);
                    vars.push(results);
                }
                InstData::Print { args } => operands.push(args),
                InstData::Phi { args, .. } => phi_args.push(args),
                InstData::ParCopy { copies: c } => copies.push(c),
                InstData::Op {
                    imms: m,
                    args,
                    results,
                    ..
                } => {
                    imms.push(m);
                    operands.push(args);
                    vars.push(results);
                }
                InstData::Copy { .. } | InstData::Unary { .. } | InstData::Binary { .. } => {}
            }
        }
        for b in self.blocks.values_mut() {
            match &mut b.term {
                Terminator::Switch { targets, .. } => blocks.push(targets),
                Terminator::Ret(vals) => operands.push(vals),
                _ => {}
            }
        }
        let p = &mut self.pools;
        p.operands.compact(operands.into_iter());
        p.phi_args.compact(phi_args.into_iter());
        p.copies.compact(copies.into_iter());
        p.vars.compact(vars.into_iter());
        p.blocks.compact(blocks.into_iter());
        p.imms.compact(imms.into_iter());
    }
}

impl Pools {
    /// Gives the room of the lists of a dropped instruction back to their
    /// pools, as garbage.
    fn free_lists(&mut self, mut data: InstData) {
        match &mut data {
            InstData::Call { args, results, .. } => {
                self.operands.free(args);
                self.vars.free(results);
            }
            InstData::Print { args } => self.operands.free(args),
            InstData::Phi { args, .. } => self.phi_args.free(args),
            InstData::ParCopy { copies } => self.copies.free(copies),
            InstData::Op {
                imms,
                args,
                results,
                ..
            } => {
                self.imms.free(imms);
                self.operands.free(args);
                self.vars.free(results);
            }
            InstData::Copy { .. } | InstData::Unary { .. } | InstData::Binary { .. } => {}
        }
    }
}
