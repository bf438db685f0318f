//! Instructions: the table and each block's phi and instruction lists.
//! Part of [`Function`]'s methods; the type and its invariants are in
//! the parent module.

use super::*;

impl Function {
    // ---------------------------------------------------------------
    // Instructions.

    /// The size of the instruction table: removed instructions included,
    /// so the size of a side table indexed by instruction.
    ///
    /// ```
    /// // `f`: e: `x = 1; branch c, a, j`, a: `x = 2; jump j`, j: `ret x`.
    /// # let mut f = ssakit::text::parse_module("function f(c) {\ne:\n    x = 1\n    branch c, a, j\na:\n    x = 2\n    jump j\nj:\n    ret x\n}").unwrap().functions.remove(0);
    /// # let (e, a, j) = (f.block_by_name("e").unwrap(), f.block_by_name("a").unwrap(), f.block_by_name("j").unwrap());
    /// # let x = f.var_by_name("x").unwrap();
    /// f.retain_insts(a, |_, _| false); // removes `x = 2`, still a slot
    /// assert_eq!((f.inst_slots(), f.num_insts()), (2, 4));
    /// ```
    pub fn inst_slots(&self) -> usize {
        self.insts.len()
    }

    /// Number of instructions in the layout, phis included, terminators
    /// counted one per block.
    ///
    /// ```
    /// // `f`: e: `x = 1; branch c, a, j`, a: `x = 2; jump j`, j: `ret x`.
    /// # let mut f = ssakit::text::parse_module("function f(c) {\ne:\n    x = 1\n    branch c, a, j\na:\n    x = 2\n    jump j\nj:\n    ret x\n}").unwrap().functions.remove(0);
    /// # let (e, a, j) = (f.block_by_name("e").unwrap(), f.block_by_name("a").unwrap(), f.block_by_name("j").unwrap());
    /// # let x = f.var_by_name("x").unwrap();
    /// assert_eq!(f.num_insts(), 2 + 3); // two copies, three terminators
    /// ```
    pub fn num_insts(&self) -> usize {
        self.layout
            .iter()
            .map(|&b| self.blocks[b].phis.len() + self.blocks[b].insts.len() + 1)
            .sum()
    }

    /// The data of instruction `i`.
    ///
    /// ```
    /// use ssakit::ir::{InstData, Operand};
    /// // `f`: e: `x = 1; branch c, a, j`, a: `x = 2; jump j`, j: `ret x`.
    /// # let mut f = ssakit::text::parse_module("function f(c) {\ne:\n    x = 1\n    branch c, a, j\na:\n    x = 2\n    jump j\nj:\n    ret x\n}").unwrap().functions.remove(0);
    /// # let (e, a, j) = (f.block_by_name("e").unwrap(), f.block_by_name("a").unwrap(), f.block_by_name("j").unwrap());
    /// # let x = f.var_by_name("x").unwrap();
    /// let i = f.block_insts(a)[0];
    /// assert_eq!(f.inst(i), &InstData::Copy { dst: x, src: Operand::Const(2) });
    /// ```
    #[inline]
    pub fn inst(&self, i: Inst) -> &InstData {
        &self.insts[i]
    }

    /// The block listing `i`, or `None` if `i` is removed.
    #[inline]
    pub(crate) fn inst_block(&self, i: Inst) -> Option<Block> {
        self.inst_block[i].expand()
    }

    /// Creates an instruction listed by no block yet.
    pub(crate) fn new_inst(&mut self, data: InstData) -> Inst {
        self.inst_block.push(PackedOption::NONE);
        self.insts.push(data)
    }

    /// Reserves room for `n` more instructions, in the instruction table
    /// and in the pool of the blocks' lists (where a list that moves for
    /// room takes it). A front end that knows about how many instructions
    /// it will add makes the tables grow once instead of by doubling.
    ///
    /// ```
    /// use ssakit::ir::{FunctionBuilder, Operand};
    /// let mut b = FunctionBuilder::new("f");
    /// b.func_mut().reserve_insts(100);
    /// let (e, x) = (b.block("e"), b.var("x"));
    /// b.switch_to(e);
    /// b.copy(x, Operand::Const(1));
    /// b.ret(Some(x.into()));
    /// assert_eq!(b.finish().inst_slots(), 1);
    /// ```
    pub fn reserve_insts(&mut self, n: usize) {
        // Exactly: the count is known, and doubling the table (48 bytes
        // an instruction) for the last of them would reserve up to twice
        // what is used.
        self.insts.reserve_exact(n);
        self.inst_block.reserve_exact(n);
        // Each will be listed by a block: room at the pool's end.
        self.pools.block_insts.reserve_exact(n);
    }

    /// Adds an instruction at the end of `block`'s phis (a phi) or of its
    /// ordinary instructions (anything else).
    ///
    /// ```
    /// use ssakit::ir::{InstData, Operand};
    /// // `f`: e: `x = 1; branch c, a, j`, a: `x = 2; jump j`, j: `ret x`.
    /// # let mut f = ssakit::text::parse_module("function f(c) {\ne:\n    x = 1\n    branch c, a, j\na:\n    x = 2\n    jump j\nj:\n    ret x\n}").unwrap().functions.remove(0);
    /// # let (e, a, j) = (f.block_by_name("e").unwrap(), f.block_by_name("a").unwrap(), f.block_by_name("j").unwrap());
    /// # let x = f.var_by_name("x").unwrap();
    /// f.push_inst(j, InstData::Copy { dst: x, src: Operand::Const(3) });
    /// assert!(ssakit::text::print_function(&f).contains("j:\n    x = 3\n    ret x"));
    /// ```
    #[inline]
    pub fn push_inst(&mut self, block: Block, data: InstData) -> Inst {
        let is_phi = data.is_phi();
        let i = self.new_inst(data);
        self.inst_block[i] = PackedOption::some(block);
        let bd = &mut self.blocks[block];
        let pool = &mut self.pools.block_insts;
        if is_phi {
            bd.phis.push(i, pool);
        } else {
            bd.insts.push(i, pool);
        }
        i
    }

    /// Inserts a new ordinary instruction at position `index` of `block`'s
    /// ordinary instructions.
    pub(crate) fn insert_inst(&mut self, block: Block, index: usize, data: InstData) -> Inst {
        assert!(!data.is_phi(), "insert_inst: phis go through push_inst");
        let i = self.new_inst(data);
        self.inst_block[i] = PackedOption::some(block);
        self.blocks[block]
            .insts
            .insert(index, i, &mut self.pools.block_insts);
        i
    }

    /// Replaces the data of `i`. A phi stays a phi and anything else stays
    /// a non-phi (the lists of blocks keep them apart). The lists of the old
    /// data are not freed: pass them on in `data` or let
    /// [`Function::compact`] reclaim them.
    ///
    /// ```
    /// use ssakit::ir::{InstData, Operand};
    /// // `f`: e: `x = 1; branch c, a, j`, a: `x = 2; jump j`, j: `ret x`.
    /// # let mut f = ssakit::text::parse_module("function f(c) {\ne:\n    x = 1\n    branch c, a, j\na:\n    x = 2\n    jump j\nj:\n    ret x\n}").unwrap().functions.remove(0);
    /// # let (e, a, j) = (f.block_by_name("e").unwrap(), f.block_by_name("a").unwrap(), f.block_by_name("j").unwrap());
    /// # let x = f.var_by_name("x").unwrap();
    /// let i = f.block_insts(a)[0];
    /// f.set_inst(i, InstData::Copy { dst: x, src: Operand::Undef });
    /// assert!(ssakit::text::print_function(&f).contains("a:\n    x = undef\n"));
    /// ```
    pub fn set_inst(&mut self, i: Inst, data: InstData) {
        assert_eq!(
            self.insts[i].is_phi(),
            data.is_phi(),
            "set_inst: a phi must stay a phi"
        );
        self.insts[i] = data;
    }

    /// Keeps the ordinary instructions of `b` for which `keep` is true;
    /// the others are removed.
    ///
    /// ```
    /// use ssakit::ir::InstData;
    /// // `f`: e: `x = 1; branch c, a, j`, a: `x = 2; jump j`, j: `ret x`.
    /// # let mut f = ssakit::text::parse_module("function f(c) {\ne:\n    x = 1\n    branch c, a, j\na:\n    x = 2\n    jump j\nj:\n    ret x\n}").unwrap().functions.remove(0);
    /// # let (e, a, j) = (f.block_by_name("e").unwrap(), f.block_by_name("a").unwrap(), f.block_by_name("j").unwrap());
    /// # let x = f.var_by_name("x").unwrap();
    /// // Drop the copies of constants into `x`.
    /// f.retain_insts(a, |f, i| !matches!(f.inst(i), InstData::Copy { .. }));
    /// assert!(f.block_insts(a).is_empty());
    /// ```
    pub fn retain_insts(&mut self, b: Block, mut keep: impl FnMut(&Function, Inst) -> bool) {
        self.retain_insts_mut(b, |f, i| keep(f, i))
    }

    /// [`Function::retain_insts`] with a `keep` that may edit the function
    /// (rewrite the instruction it is asked about, say), in place: no list
    /// is copied. While `keep` runs, `b`'s list is out of it, and `keep`
    /// must not give `b` instructions (it panics after if it did).
    pub(crate) fn retain_insts_mut(
        &mut self,
        b: Block,
        mut keep: impl FnMut(&mut Function, Inst) -> bool,
    ) {
        if self.blocks[b].insts.is_empty() {
            return;
        }
        let mut list = std::mem::take(&mut self.blocks[b].insts);
        self.retain_list(&mut list, &mut keep);
        assert!(
            self.blocks[b].insts.is_empty(),
            "retain_insts_mut: `keep` gave block {b} instructions"
        );
        self.blocks[b].insts = list;
    }

    /// Keeps the items of `list` (taken out of its block, so that `keep`
    /// sees the block without it) for which `keep` is true; the others are
    /// unlisted. The list's room stays where it is while `keep` runs:
    /// lists that grow meanwhile move to the pool's end, never into it.
    fn retain_list(
        &mut self,
        list: &mut EntityList<Inst>,
        keep: &mut impl FnMut(&mut Function, Inst) -> bool,
    ) {
        let mut w = 0;
        for r in 0..list.len() {
            let i = list.as_slice(&self.pools.block_insts)[r];
            if keep(self, i) {
                list.as_mut_slice(&mut self.pools.block_insts)[w] = i;
                w += 1;
            } else {
                self.inst_block[i] = PackedOption::NONE;
            }
        }
        list.truncate(w);
    }

    /// Keeps the phis of `b` for which `keep` is true; the others are
    /// removed.
    pub(crate) fn retain_phis(&mut self, b: Block, mut keep: impl FnMut(&Function, Inst) -> bool) {
        if self.blocks[b].phis.is_empty() {
            return;
        }
        let mut list = std::mem::take(&mut self.blocks[b].phis);
        self.retain_list(&mut list, &mut |f, i| keep(f, i));
        self.blocks[b].phis = list;
    }

    /// Takes the ordinary instructions of `b` out of it: they are removed
    /// until listed again by [`Function::set_insts`].
    pub(crate) fn take_insts(&mut self, b: Block) -> Vec<Inst> {
        let mut out = Vec::new();
        self.take_insts_into(b, &mut out);
        out
    }

    /// [`Function::take_insts`] into `out` (cleared first), so that a pass
    /// rewriting every block reuses one vector.
    pub(crate) fn take_insts_into(&mut self, b: Block, out: &mut Vec<Inst>) {
        self.take_list(b, ListKind::Insts, out)
    }

    /// Empties list `kind` of `b` into `out`, unlisting its instructions;
    /// the list keeps its room in the pool for the list set after it.
    fn take_list(&mut self, b: Block, kind: ListKind, out: &mut Vec<Inst>) {
        out.clear();
        let list = self.blocks[b].list_mut(kind);
        out.extend_from_slice(list.as_slice(&self.pools.block_insts));
        list.clear();
        for &i in out.iter() {
            self.inst_block[i] = PackedOption::NONE;
        }
    }

    /// Makes `items` list `kind` of `b`, which must be empty; panics if
    /// one is listed already (here or by another block), appears twice,
    /// or is not of the list's kind.
    fn set_list(&mut self, b: Block, kind: ListKind, items: &[Inst]) {
        let what = kind.setter();
        assert!(
            self.blocks[b].list_mut(kind).is_empty(),
            "{what}: block {b} still lists {}",
            kind.items()
        );
        for &i in items {
            assert!(
                self.inst_block[i].is_none() && self.insts[i].is_phi() == (kind == ListKind::Phis),
                "{what}: {i} is listed already or is {}",
                kind.refused()
            );
            self.inst_block[i] = PackedOption::some(b);
        }
        self.blocks[b]
            .list_mut(kind)
            .assign(items, &mut self.pools.block_insts);
    }

    /// Makes `list` the ordinary instructions of `b`, whose list must be
    /// empty (see [`Function::take_insts`]). Panics if an instruction of
    /// `list` is listed already (here or by another block), appears twice,
    /// or is a phi.
    pub(crate) fn set_insts(&mut self, b: Block, list: &[Inst]) {
        self.set_list(b, ListKind::Insts, list)
    }

    /// Takes the phis of `b` out of it (see [`Function::take_insts`]).
    pub(crate) fn take_phis(&mut self, b: Block) -> Vec<Inst> {
        let mut out = Vec::new();
        self.take_list(b, ListKind::Phis, &mut out);
        out
    }

    /// Makes `list` the phis of `b`, whose phi list must be empty. Panics
    /// if an instruction of `list` is listed already or is not a phi.
    pub(crate) fn set_phis(&mut self, b: Block, list: &[Inst]) {
        self.set_list(b, ListKind::Phis, list)
    }

    /// Reserves room for `n` more phis in `b`.
    pub(crate) fn reserve_phis(&mut self, b: Block, n: usize) {
        // The filler is never read: room past a list's length is unused.
        let fill = Inst::from_u32(0);
        self.blocks[b]
            .phis
            .reserve(n, fill, &mut self.pools.block_insts);
    }
}
