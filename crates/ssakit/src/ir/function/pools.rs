//! Lists in the function's pools (invariant 3 of the parent module).
//! Part of [`Function`]'s methods; the type and its invariants are in
//! the parent module.

use super::*;

impl Function {
    /// Reserves room for `n` more list items of type `T` (when a pass
    /// knows how many it will add, the pool grows once instead of by
    /// doubling, which briefly holds both the old and the new vector).
    ///
    /// ```
    /// use ssakit::ir::{FunctionBuilder, InstData, Operand};
    /// let mut b = FunctionBuilder::new("f");
    /// b.func_mut().reserve_list_items::<Operand>(1000);
    /// let e = b.block("e");
    /// b.switch_to(e);
    /// let args = b.func_mut().list(&[Operand::Const(1), Operand::Const(2)]);
    /// b.inst(InstData::Print { args });
    /// b.ret(None);
    /// assert!(ssakit::text::print_function(&b.finish()).contains("print 1, 2"));
    /// ```
    pub fn reserve_list_items<T: Copy>(&mut self, n: usize)
    where
        Self: ListStore<T>,
    {
        self.pool_mut().reserve_exact(n);
    }

    /// A new list of `items` in this function's pool for `T`.
    ///
    /// ```
    /// use ssakit::ir::{InstData, Operand};
    /// // `f`: e: `x = 1; branch c, a, j`, a: `x = 2; jump j`, j: `ret x`.
    /// # let mut f = ssakit::text::parse_module("function f(c) {\ne:\n    x = 1\n    branch c, a, j\na:\n    x = 2\n    jump j\nj:\n    ret x\n}").unwrap().functions.remove(0);
    /// # let (e, a, j) = (f.block_by_name("e").unwrap(), f.block_by_name("a").unwrap(), f.block_by_name("j").unwrap());
    /// # let x = f.var_by_name("x").unwrap();
    /// let args = f.list(&[Operand::Var(x), Operand::Const(7)]);
    /// f.push_inst(j, InstData::Print { args });
    /// assert!(ssakit::text::print_function(&f).contains("print x, 7"));
    /// ```
    pub fn list<T: Copy>(&mut self, items: &[T]) -> EntityList<T>
    where
        Self: ListStore<T>,
    {
        self.pool_mut().alloc(items)
    }

    /// A new list of the items of `iter`.
    #[cfg(test)]
    pub(crate) fn list_from_iter<T: Copy>(
        &mut self,
        iter: impl IntoIterator<Item = T>,
    ) -> EntityList<T>
    where
        Self: ListStore<T>,
    {
        self.pool_mut().alloc_iter(iter)
    }

    /// A new empty list with room for `cap` items (`fill` is a
    /// placeholder, never read).
    pub(crate) fn list_with_room<T: Copy>(&mut self, cap: usize, fill: T) -> EntityList<T>
    where
        Self: ListStore<T>,
    {
        self.pool_mut().alloc_room(cap, fill)
    }
}
