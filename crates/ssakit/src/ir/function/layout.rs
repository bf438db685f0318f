//! Blocks and the layout: creating blocks, their order, terminators and edges.
//! Part of [`Function`]'s methods; the type and its invariants are in
//! the parent module.

use super::*;

impl Function {
    // ---------------------------------------------------------------
    // Blocks and layout.

    /// Number of blocks, in the layout or not (the size of a side table
    /// indexed by block).
    ///
    /// ```
    /// // `f`: e: `x = 1; branch c, a, j`, a: `x = 2; jump j`, j: `ret x`.
    /// # let mut f = ssakit::text::parse_module("function f(c) {\ne:\n    x = 1\n    branch c, a, j\na:\n    x = 2\n    jump j\nj:\n    ret x\n}").unwrap().functions.remove(0);
    /// # let (e, a, j) = (f.block_by_name("e").unwrap(), f.block_by_name("a").unwrap(), f.block_by_name("j").unwrap());
    /// # let x = f.var_by_name("x").unwrap();
    /// let spare = f.create_block("spare"); // not in the layout, still counted
    /// assert_eq!((f.num_blocks(), f.layout().len()), (4, 3));
    /// ```
    pub fn num_blocks(&self) -> usize {
        self.blocks.len()
    }

    /// Every block, in the layout or not.
    ///
    /// ```
    /// // `f`: e: `x = 1; branch c, a, j`, a: `x = 2; jump j`, j: `ret x`.
    /// # let mut f = ssakit::text::parse_module("function f(c) {\ne:\n    x = 1\n    branch c, a, j\na:\n    x = 2\n    jump j\nj:\n    ret x\n}").unwrap().functions.remove(0);
    /// # let (e, a, j) = (f.block_by_name("e").unwrap(), f.block_by_name("a").unwrap(), f.block_by_name("j").unwrap());
    /// # let x = f.var_by_name("x").unwrap();
    /// let names: Vec<&str> = f.blocks().map(|b| f.block_name(b)).collect();
    /// assert_eq!(names, ["e", "a", "j"]);
    /// ```
    pub fn blocks(&self) -> impl DoubleEndedIterator<Item = Block> + ExactSizeIterator + 'static {
        self.blocks.keys()
    }

    /// Blocks in program order; the first is the entry.
    ///
    /// ```
    /// // `f`: e: `x = 1; branch c, a, j`, a: `x = 2; jump j`, j: `ret x`.
    /// # let mut f = ssakit::text::parse_module("function f(c) {\ne:\n    x = 1\n    branch c, a, j\na:\n    x = 2\n    jump j\nj:\n    ret x\n}").unwrap().functions.remove(0);
    /// # let (e, a, j) = (f.block_by_name("e").unwrap(), f.block_by_name("a").unwrap(), f.block_by_name("j").unwrap());
    /// # let x = f.var_by_name("x").unwrap();
    /// assert_eq!(f.layout(), [e, a, j]);
    /// ```
    pub fn layout(&self) -> &[Block] {
        &self.layout
    }

    /// The entry block. Panics if the layout is empty.
    ///
    /// ```
    /// // `f`: e: `x = 1; branch c, a, j`, a: `x = 2; jump j`, j: `ret x`.
    /// # let mut f = ssakit::text::parse_module("function f(c) {\ne:\n    x = 1\n    branch c, a, j\na:\n    x = 2\n    jump j\nj:\n    ret x\n}").unwrap().functions.remove(0);
    /// # let (e, a, j) = (f.block_by_name("e").unwrap(), f.block_by_name("a").unwrap(), f.block_by_name("j").unwrap());
    /// # let x = f.var_by_name("x").unwrap();
    /// assert_eq!(f.entry(), e);
    /// ```
    pub fn entry(&self) -> Block {
        self.layout[0]
    }

    /// The label of `b`.
    ///
    /// ```
    /// // `f`: e: `x = 1; branch c, a, j`, a: `x = 2; jump j`, j: `ret x`.
    /// # let mut f = ssakit::text::parse_module("function f(c) {\ne:\n    x = 1\n    branch c, a, j\na:\n    x = 2\n    jump j\nj:\n    ret x\n}").unwrap().functions.remove(0);
    /// # let (e, a, j) = (f.block_by_name("e").unwrap(), f.block_by_name("a").unwrap(), f.block_by_name("j").unwrap());
    /// # let x = f.var_by_name("x").unwrap();
    /// assert_eq!(f.block_name(j), "j");
    /// ```
    pub fn block_name(&self, b: Block) -> &str {
        self.names.get(self.blocks[b].name)
    }

    /// The phis of `b`, in order.
    ///
    /// ```
    /// // `f`: e: `x1 = 1; branch c, a, j`, a: `x2 = 2; jump j`,
    /// // j: `x3 = phi(e: x1, a: x2); print x3; ret x3`.
    /// # let mut f = ssakit::text::parse_module("function f(c) {\ne:\n    x1 = 1\n    branch c, a, j\na:\n    x2 = 2\n    jump j\nj:\n    x3 = phi(e: x1, a: x2)\n    print x3\n    ret x3\n}").unwrap().functions.remove(0);
    /// # let (e, a, j) = (f.block_by_name("e").unwrap(), f.block_by_name("a").unwrap(), f.block_by_name("j").unwrap());
    /// # let phi = f.block_phis(j)[0];
    /// assert_eq!(f.block_phis(j).len(), 1);
    /// assert!(f.block_phis(e).is_empty());
    /// ```
    #[inline]
    pub fn block_phis(&self, b: Block) -> &[Inst] {
        self.blocks[b].phis.as_slice(&self.pools.block_insts)
    }

    /// The ordinary instructions of `b`, in order.
    ///
    /// ```
    /// // `f`: e: `x1 = 1; branch c, a, j`, a: `x2 = 2; jump j`,
    /// // j: `x3 = phi(e: x1, a: x2); print x3; ret x3`.
    /// # let mut f = ssakit::text::parse_module("function f(c) {\ne:\n    x1 = 1\n    branch c, a, j\na:\n    x2 = 2\n    jump j\nj:\n    x3 = phi(e: x1, a: x2)\n    print x3\n    ret x3\n}").unwrap().functions.remove(0);
    /// # let (e, a, j) = (f.block_by_name("e").unwrap(), f.block_by_name("a").unwrap(), f.block_by_name("j").unwrap());
    /// # let phi = f.block_phis(j)[0];
    /// assert_eq!(f.block_insts(j).len(), 1); // `print x3`; the phi is apart
    /// ```
    #[inline]
    pub fn block_insts(&self, b: Block) -> &[Inst] {
        self.blocks[b].insts.as_slice(&self.pools.block_insts)
    }

    /// Phis, then ordinary instructions of `b`.
    ///
    /// ```
    /// // `f`: e: `x1 = 1; branch c, a, j`, a: `x2 = 2; jump j`,
    /// // j: `x3 = phi(e: x1, a: x2); print x3; ret x3`.
    /// # let mut f = ssakit::text::parse_module("function f(c) {\ne:\n    x1 = 1\n    branch c, a, j\na:\n    x2 = 2\n    jump j\nj:\n    x3 = phi(e: x1, a: x2)\n    print x3\n    ret x3\n}").unwrap().functions.remove(0);
    /// # let (e, a, j) = (f.block_by_name("e").unwrap(), f.block_by_name("a").unwrap(), f.block_by_name("j").unwrap());
    /// # let phi = f.block_phis(j)[0];
    /// let all: Vec<_> = f.block_all_insts(j).collect();
    /// assert_eq!(all, [phi, f.block_insts(j)[0]]);
    /// ```
    #[inline]
    pub fn block_all_insts(&self, b: Block) -> impl DoubleEndedIterator<Item = Inst> + '_ {
        let d = &self.blocks[b];
        let pool = &self.pools.block_insts;
        d.phis
            .as_slice(pool)
            .iter()
            .chain(d.insts.as_slice(pool))
            .copied()
    }

    /// The terminator of `b`.
    ///
    /// ```
    /// use ssakit::ir::Terminator;
    /// // `f`: e: `x = 1; branch c, a, j`, a: `x = 2; jump j`, j: `ret x`.
    /// # let mut f = ssakit::text::parse_module("function f(c) {\ne:\n    x = 1\n    branch c, a, j\na:\n    x = 2\n    jump j\nj:\n    ret x\n}").unwrap().functions.remove(0);
    /// # let (e, a, j) = (f.block_by_name("e").unwrap(), f.block_by_name("a").unwrap(), f.block_by_name("j").unwrap());
    /// # let x = f.var_by_name("x").unwrap();
    /// assert_eq!(f.term(a), &Terminator::Jump(j));
    /// ```
    pub fn term(&self, b: Block) -> &Terminator {
        &self.blocks[b].term
    }

    /// The block labelled `name`, among the blocks of the layout, by linear
    /// search.
    ///
    /// ```
    /// // `f`: e: `x = 1; branch c, a, j`, a: `x = 2; jump j`, j: `ret x`.
    /// # let mut f = ssakit::text::parse_module("function f(c) {\ne:\n    x = 1\n    branch c, a, j\na:\n    x = 2\n    jump j\nj:\n    ret x\n}").unwrap().functions.remove(0);
    /// # let (e, a, j) = (f.block_by_name("e").unwrap(), f.block_by_name("a").unwrap(), f.block_by_name("j").unwrap());
    /// # let x = f.var_by_name("x").unwrap();
    /// assert_eq!(f.block_by_name("a"), Some(a));
    /// assert_eq!(f.block_by_name("zz"), None);
    /// ```
    pub fn block_by_name(&self, name: &str) -> Option<Block> {
        self.layout
            .iter()
            .copied()
            .find(|&b| self.block_name(b) == name)
    }

    /// Creates an empty block ending in `ret`, outside the layout.
    ///
    /// ```
    /// // `f`: e: `x = 1; branch c, a, j`, a: `x = 2; jump j`, j: `ret x`.
    /// let mut f = ssakit::text::parse_module("function f(c) {\ne:\n    x = 1\n    branch c, a, j\na:\n    x = 2\n    jump j\nj:\n    ret x\n}").unwrap().functions.remove(0);
    /// let b = f.create_block("later");
    /// assert!(!f.layout().contains(&b));
    /// f.append_to_layout(b);
    /// assert_eq!(f.layout().last(), Some(&b));
    /// ```
    pub fn create_block(&mut self, name: &str) -> Block {
        let name = self.names.add(name);
        self.blocks.push(BlockData {
            name,
            in_layout: false,
            phis: EntityList::new(),
            insts: EntityList::new(),
            term: Terminator::ret_void(),
        })
    }

    /// Creates an empty block ending in `ret`, appended to the layout.
    ///
    /// ```
    /// use ssakit::ir::Function;
    /// let mut f = Function::new("f");
    /// let first = f.new_block("first");
    /// f.new_block("second");
    /// assert_eq!((f.entry(), f.layout().len()), (first, 2));
    /// ```
    pub fn new_block(&mut self, name: &str) -> Block {
        let b = self.create_block(name);
        self.append_to_layout(b);
        b
    }

    /// Reserves room for `n` more blocks (in the block table and the
    /// layout).
    ///
    /// ```
    /// let mut f = ssakit::ir::Function::new("f");
    /// f.reserve_blocks(16);
    /// assert_eq!(f.num_blocks(), 0);
    /// ```
    pub fn reserve_blocks(&mut self, n: usize) {
        self.blocks.reserve_exact(n);
        self.layout.reserve_exact(n);
    }

    /// Sets the layout. Panics if it lists a block twice or a block that
    /// does not exist.
    pub(crate) fn set_layout(&mut self, layout: Vec<Block>) {
        for &b in &self.layout {
            self.blocks[b].in_layout = false;
        }
        for &b in &layout {
            assert!(
                b.index() < self.blocks.len() && !self.blocks[b].in_layout,
                "set_layout: block {b} listed twice or unknown"
            );
            self.blocks[b].in_layout = true;
        }
        self.layout = layout;
    }

    /// Keeps the blocks of the layout for which `keep` is true.
    pub(crate) fn retain_layout(&mut self, mut keep: impl FnMut(&Block) -> bool) {
        let blocks = &mut self.blocks;
        self.layout.retain(|b| {
            let k = keep(b);
            blocks[*b].in_layout = k;
            k
        });
    }

    /// Appends `b`, a block outside the layout, to it. Panics if `b` is in
    /// the layout already.
    ///
    /// ```
    /// // `f`: e: `x = 1; branch c, a, j`, a: `x = 2; jump j`, j: `ret x`.
    /// # let mut f = ssakit::text::parse_module("function f(c) {\ne:\n    x = 1\n    branch c, a, j\na:\n    x = 2\n    jump j\nj:\n    ret x\n}").unwrap().functions.remove(0);
    /// # let (e, a, j) = (f.block_by_name("e").unwrap(), f.block_by_name("a").unwrap(), f.block_by_name("j").unwrap());
    /// # let x = f.var_by_name("x").unwrap();
    /// let extra = f.create_block("extra");
    /// f.append_to_layout(extra);
    /// assert_eq!(f.layout(), [e, a, j, extra]);
    /// ```
    pub fn append_to_layout(&mut self, b: Block) {
        assert!(!self.blocks[b].in_layout, "block {b} is in the layout");
        self.blocks[b].in_layout = true;
        self.layout.push(b);
    }

    /// Makes `b` (outside the layout) the new entry, in front of the old.
    pub(crate) fn insert_entry(&mut self, b: Block) {
        assert!(!self.blocks[b].in_layout, "block {b} is in the layout");
        self.blocks[b].in_layout = true;
        self.layout.insert(0, b);
    }

    /// Sets the terminator of `b`. Its lists must be new (made for it).
    ///
    /// ```
    /// use ssakit::ir::Terminator;
    /// // `f`: e: `x = 1; branch c, a, j`, a: `x = 2; jump j`, j: `ret x`.
    /// # let mut f = ssakit::text::parse_module("function f(c) {\ne:\n    x = 1\n    branch c, a, j\na:\n    x = 2\n    jump j\nj:\n    ret x\n}").unwrap().functions.remove(0);
    /// # let (e, a, j) = (f.block_by_name("e").unwrap(), f.block_by_name("a").unwrap(), f.block_by_name("j").unwrap());
    /// # let x = f.var_by_name("x").unwrap();
    /// f.set_term(e, Terminator::Jump(j));
    /// assert!(ssakit::text::print_function(&f).contains("e:\n    x = 1\n    jump j\n"));
    /// ```
    pub fn set_term(&mut self, b: Block, t: Terminator) {
        self.blocks[b].term = t;
    }

    /// Calls `f` on each successor edge of `b`, in order (duplicates kept:
    /// `branch c, L, L` has two edges to `L`). The order is: `then`,
    /// `else` for a branch; `default`, then targets for a switch.
    ///
    /// ```
    /// // `f`: e: `x = 1; branch c, a, j`, a: `x = 2; jump j`, j: `ret x`.
    /// # let mut f = ssakit::text::parse_module("function f(c) {\ne:\n    x = 1\n    branch c, a, j\na:\n    x = 2\n    jump j\nj:\n    ret x\n}").unwrap().functions.remove(0);
    /// # let (e, a, j) = (f.block_by_name("e").unwrap(), f.block_by_name("a").unwrap(), f.block_by_name("j").unwrap());
    /// # let x = f.var_by_name("x").unwrap();
    /// let mut succs = Vec::new();
    /// f.for_each_succ(e, |s| succs.push(s));
    /// assert_eq!(succs, [a, j]); // then, else
    /// ```
    #[inline]
    pub fn for_each_succ(&self, b: Block, mut f: impl FnMut(Block)) {
        match &self.blocks[b].term {
            Terminator::Jump(t) => f(*t),
            Terminator::Branch {
                then_dest,
                else_dest,
                ..
            } => {
                f(*then_dest);
                f(*else_dest)
            }
            Terminator::Switch {
                default, targets, ..
            } => {
                f(*default);
                targets.as_slice(self).iter().for_each(|&t| f(t))
            }
            Terminator::Ret(_) | Terminator::Unreachable => {}
        }
    }

    /// Rewrites each successor edge `s` of `b` to `f(s)`, in order.
    pub(crate) fn redirect_succs(&mut self, b: Block, mut f: impl FnMut(Block) -> Block) {
        let mut term = self.blocks[b].term;
        match &mut term {
            Terminator::Jump(t) => *t = f(*t),
            Terminator::Branch {
                then_dest,
                else_dest,
                ..
            } => {
                *then_dest = f(*then_dest);
                *else_dest = f(*else_dest)
            }
            Terminator::Switch {
                default, targets, ..
            } => {
                *default = f(*default);
                for t in targets.as_mut_slice(self) {
                    *t = f(*t);
                }
            }
            Terminator::Ret(_) | Terminator::Unreachable => {}
        }
        self.blocks[b].term = term;
    }

    /// Calls `f` on each operand read by the terminator of `b`.
    ///
    /// ```
    /// use ssakit::ir::Operand;
    /// // `f`: e: `x = 1; branch c, a, j`, a: `x = 2; jump j`, j: `ret x`.
    /// # let mut f = ssakit::text::parse_module("function f(c) {\ne:\n    x = 1\n    branch c, a, j\na:\n    x = 2\n    jump j\nj:\n    ret x\n}").unwrap().functions.remove(0);
    /// # let (e, a, j) = (f.block_by_name("e").unwrap(), f.block_by_name("a").unwrap(), f.block_by_name("j").unwrap());
    /// # let x = f.var_by_name("x").unwrap();
    /// let mut ops = Vec::new();
    /// f.for_each_term_operand(j, |o| ops.push(o));
    /// assert_eq!(ops, [Operand::Var(x)]);
    /// ```
    #[inline]
    pub fn for_each_term_operand(&self, b: Block, mut f: impl FnMut(Operand)) {
        match &self.blocks[b].term {
            Terminator::Branch { cond: o, .. } | Terminator::Switch { value: o, .. } => f(*o),
            Terminator::Ret(vals) => vals.as_slice(self).iter().for_each(|&o| f(o)),
            Terminator::Jump(_) | Terminator::Unreachable => {}
        }
    }

    /// Calls `f` on each operand read by the terminator of `b`, mutably.
    ///
    /// ```
    /// use ssakit::ir::Operand;
    /// // `f`: e: `x = 1; branch c, a, j`, a: `x = 2; jump j`, j: `ret x`.
    /// # let mut f = ssakit::text::parse_module("function f(c) {\ne:\n    x = 1\n    branch c, a, j\na:\n    x = 2\n    jump j\nj:\n    ret x\n}").unwrap().functions.remove(0);
    /// # let (e, a, j) = (f.block_by_name("e").unwrap(), f.block_by_name("a").unwrap(), f.block_by_name("j").unwrap());
    /// # let x = f.var_by_name("x").unwrap();
    /// f.for_each_term_operand_mut(j, |o| *o = Operand::Const(0));
    /// assert!(ssakit::text::print_function(&f).contains("ret 0"));
    /// ```
    pub fn for_each_term_operand_mut(&mut self, b: Block, mut f: impl FnMut(&mut Operand)) {
        let Function { blocks, pools, .. } = self;
        match &mut blocks[b].term {
            Terminator::Branch { cond: o, .. } | Terminator::Switch { value: o, .. } => f(o),
            Terminator::Ret(vals) => vals
                .as_mut_slice(&mut pools.operands)
                .iter_mut()
                .for_each(f),
            Terminator::Jump(_) | Terminator::Unreachable => {}
        }
    }

    /// Calls `f` on each variable read by the terminator of `b`.
    ///
    /// ```
    /// // `f`: e: `x = 1; branch c, a, j`, a: `x = 2; jump j`, j: `ret x`.
    /// # let mut f = ssakit::text::parse_module("function f(c) {\ne:\n    x = 1\n    branch c, a, j\na:\n    x = 2\n    jump j\nj:\n    ret x\n}").unwrap().functions.remove(0);
    /// # let (e, a, j) = (f.block_by_name("e").unwrap(), f.block_by_name("a").unwrap(), f.block_by_name("j").unwrap());
    /// # let x = f.var_by_name("x").unwrap();
    /// let c = f.params()[0];
    /// let mut uses = Vec::new();
    /// f.for_each_term_use(e, |v| uses.push(v));
    /// assert_eq!(uses, [c]);
    /// ```
    #[inline]
    pub fn for_each_term_use(&self, b: Block, mut f: impl FnMut(Var)) {
        self.for_each_term_operand(b, |o| {
            if let Operand::Var(v) = o {
                f(v)
            }
        })
    }

    /// A `switch value, default, [targets]` terminator (its target list
    /// allocated in this function).
    ///
    /// ```
    /// use ssakit::ir::Operand;
    /// // `f`: e: `x = 1; branch c, a, j`, a: `x = 2; jump j`, j: `ret x`.
    /// # let mut f = ssakit::text::parse_module("function f(c) {\ne:\n    x = 1\n    branch c, a, j\na:\n    x = 2\n    jump j\nj:\n    ret x\n}").unwrap().functions.remove(0);
    /// # let (e, a, j) = (f.block_by_name("e").unwrap(), f.block_by_name("a").unwrap(), f.block_by_name("j").unwrap());
    /// # let x = f.var_by_name("x").unwrap();
    /// let t = f.switch_term(Operand::Const(1), j, &[a, j]);
    /// f.set_term(e, t);
    /// assert!(ssakit::text::print_function(&f).contains("switch 1, j, [a, j]"));
    /// ```
    pub fn switch_term(&mut self, value: Operand, default: Block, targets: &[Block]) -> Terminator {
        Terminator::Switch {
            value,
            default,
            targets: self.pools.blocks.alloc(targets),
        }
    }

    /// A `ret v1, ..., vn` terminator (`ret` alone when `vals` is empty).
    ///
    /// ```
    /// use ssakit::ir::Operand;
    /// // `f`: e: `x = 1; branch c, a, j`, a: `x = 2; jump j`, j: `ret x`.
    /// # let mut f = ssakit::text::parse_module("function f(c) {\ne:\n    x = 1\n    branch c, a, j\na:\n    x = 2\n    jump j\nj:\n    ret x\n}").unwrap().functions.remove(0);
    /// # let (e, a, j) = (f.block_by_name("e").unwrap(), f.block_by_name("a").unwrap(), f.block_by_name("j").unwrap());
    /// # let x = f.var_by_name("x").unwrap();
    /// let t = f.ret_term(&[Operand::Const(4), x.into()]);
    /// f.set_term(j, t);
    /// assert!(ssakit::text::print_function(&f).contains("ret 4, x"));
    /// ```
    pub fn ret_term(&mut self, vals: &[Operand]) -> Terminator {
        Terminator::Ret(self.pools.operands.alloc(vals))
    }
}
