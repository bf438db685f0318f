//! The last step of emission: the code of a function, item by item of
//! its structure (`emit/structure.rs`), each tree of stack values
//! (`emit/stackify.rs`) in post-order, reading each instruction's
//! operands and action from its plan (`emit/plan.rs`) and each
//! variable's local (`emit/locals.rs`); the peephole rules over
//! `local.set` are the writer's (`emit/peephole.rs`).

use super::ctl::{Ctl, Structured};
use super::error::EmitError;
use super::locals::{self, Locals};
use super::peephole::Code;
use super::plan::{val_type, Action, Node, Plan, Want};
use super::results::Carry;
use super::stackify::Stackified;
use ssakit::entity::SecondaryMap;
use ssakit::ir::{Block, Function, Inst, InstData, Operand, Var};
use wasm_encoder::{BlockType, Instruction as I, ValType};

/// The state of writing one function's code.
pub(crate) struct Emitter<'f, 'a> {
    f: &'f Function,
    /// Each instruction's operands and action.
    plan: &'a Plan,
    local: Locals,
    st: Stackified,
    code: Code,
    /// The function's result types.
    returns: Vec<ValType>,
    /// A scratch `i64` local for clamping `switch` selectors ([`Want::Index`]).
    scratch: u32,
    /// Scratch of [`Emitter::tree`]: its frames.
    frames: Vec<Frame>,
    /// Per instruction slot: a store of zero into a local still zero
    /// (`emit/zeros.rs`), not emitted.
    zero: SecondaryMap<Inst, bool>,
}

/// One tree being emitted: its node, the next operand, its operands, and
/// the conversion its value needs once on the stack.
struct Frame {
    node: Node,
    /// Its operands, [`Plan::op`]`(next..end)` still to push.
    next: usize,
    end: usize,
    conv: Option<(ValType, Want)>,
}

/// What the emitter reads from the steps before it.
pub(crate) struct Inputs<'a> {
    /// Each instruction's operands and action.
    pub(crate) plan: &'a Plan,
    /// What stays on the stack.
    pub(crate) st: Stackified,
    /// Each variable's local.
    pub(crate) local: Locals,
    /// The local declarations.
    pub(crate) groups: Vec<(u32, ValType)>,
    /// The scratch `i64` local of a wide `switch` selector.
    pub(crate) scratch: u32,
    /// Per instruction slot: a store of zero left out.
    pub(crate) zero: SecondaryMap<Inst, bool>,
}

impl<'f, 'a> Emitter<'f, 'a> {
    /// An emitter for `f` with what the steps before decided.
    pub(crate) fn new(f: &'f Function, inputs: Inputs<'a>) -> Self {
        let returns: Vec<ValType> = f
            .returns()
            .map(|r| r.iter().map(|&t| val_type(t)).collect())
            .unwrap_or_default();
        Emitter {
            f,
            plan: inputs.plan,
            local: inputs.local,
            st: inputs.st,
            code: Code::new(inputs.groups),
            returns,
            scratch: inputs.scratch,
            frames: Vec::new(),
            zero: inputs.zero,
        }
    }

    /// The code of the structured items `s`, with what each does with an
    /// `if`'s result (`carried`, by item).
    pub(crate) fn function(
        mut self,
        s: &Structured,
        carried: &[Option<Carry>],
    ) -> Result<wasm_encoder::Function, EmitError> {
        let last = s.items.len().wrapping_sub(1);
        for (k, &c) in s.items.iter().enumerate() {
            self.item(s, c, carried[k], k == last)?;
        }
        // After a final `end` the function's results must be on the stack:
        // that point is never reached (every path returned or branched).
        if matches!(s.items.last(), Some(Ctl::End))
            && (self.f.returns().is_none() || !self.returns.is_empty())
        {
            self.ins(I::Unreachable);
        }
        self.ins(I::End);
        Ok(self.code.finish())
    }

    /// The code of item `c`, which does `carry` with an `if`'s result
    /// (`last`: the function's last item).
    fn item(
        &mut self,
        s: &Structured,
        c: Ctl,
        carry: Option<Carry>,
        last: bool,
    ) -> Result<(), EmitError> {
        match c {
            Ctl::Body(b) => {
                self.body(b)?;
                // The last store of an arm of an `if` with a result: its
                // value stays on the stack (`emit/results.rs`).
                if let Some(Carry::Keep(l)) = carry {
                    if !self.code.keep_last_store(l) {
                        return Err(EmitError::IfResultNotStoredLast);
                    }
                }
            }
            Ctl::Block => self.ins(I::Block(match carry {
                Some(Carry::Result(t)) => BlockType::Result(t),
                _ => BlockType::Empty,
            })),
            Ctl::Loop => self.ins(I::Loop(BlockType::Empty)),
            Ctl::If(b) => {
                self.tree(Node::Term(b))?;
                self.ins(I::If(match carry {
                    Some(Carry::Result(t)) => BlockType::Result(t),
                    _ => BlockType::Empty,
                }));
            }
            Ctl::IfNot(b) => {
                self.tree(Node::Term(b))?;
                self.code.negate_truth();
                self.ins(I::If(BlockType::Empty));
            }
            Ctl::Else => self.ins(I::Else),
            Ctl::End => {
                self.ins(I::End);
                if let Some(Carry::Store { local, once, .. }) = carry {
                    self.code.store_if_result(local, once);
                }
            }
            Ctl::Br(d) => self.ins(I::Br(d)),
            Ctl::BrIf {
                block,
                negate,
                depth,
            } => {
                self.tree(Node::Term(block))?;
                if negate {
                    self.code.negate_truth();
                }
                self.ins(I::BrIf(depth));
            }
            Ctl::BrTable {
                block,
                start,
                len,
                default,
            } => {
                self.tree(Node::Term(block))?;
                let depths = &s.depths[start as usize..(start + len) as usize];
                self.ins(I::BrTable(depths.into(), default));
            }
            Ctl::Ret(b) => {
                self.tree(Node::Term(b))?;
                // The last item needs no `return`: the body's `end` follows.
                if !last {
                    self.ins(I::Return);
                }
            }
            Ctl::Unreachable => self.ins(I::Unreachable),
        }
        Ok(())
    }

    fn ins(&mut self, i: I<'_>) {
        self.code.ins(i);
    }

    fn zero(&mut self, want: ValType) {
        match want {
            ValType::I32 => self.ins(I::I32Const(0)),
            ValType::I64 => self.ins(I::I64Const(0)),
            ValType::F32 => self.ins(I::F32Const(0.0.into())),
            ValType::F64 => self.ins(I::F64Const(0.0.into())),
            ValType::V128 => self.ins(I::V128Const(0)),
            ValType::Ref(r) => self.ins(I::RefNull(r.heap_type)),
        }
    }

    fn convert(&mut self, have: ValType, want: Want) {
        match (have, want) {
            (ValType::I32, Want::V(ValType::I64)) => self.ins(I::I64ExtendI32U),
            (ValType::I64, Want::V(ValType::I32)) => self.ins(I::I32WrapI64),
            (ValType::I64, Want::Truth) => {
                self.ins(I::I64Eqz);
                self.ins(I::I32Eqz);
            }
            (ValType::I64, Want::Index) => {
                // select(wrap(s), u32::MAX, s <=u u32::MAX)
                self.ins(I::LocalTee(self.scratch));
                self.ins(I::I32WrapI64);
                self.ins(I::I32Const(-1));
                self.ins(I::LocalGet(self.scratch));
                self.ins(I::I64Const(u32::MAX as i64));
                self.ins(I::I64LeU);
                self.ins(I::Select);
            }
            _ => {}
        }
    }

    /// Pushes `o` (not a stackified variable) as `want`.
    fn leaf(&mut self, o: Operand, want: Want) {
        let wv = match want {
            Want::V(t) => t,
            Want::Truth | Want::Index => ValType::I32,
        };
        match o {
            Operand::Var(v) => {
                // A value left on the stack is there already, on top.
                if !self.st.stacked[v] {
                    self.ins(I::LocalGet(locals::index(&self.local, v)));
                }
                self.convert(val_type(self.f.var_type(v)), want);
            }
            Operand::Const(c) => match want {
                Want::Truth => self.ins(I::I32Const((c != 0) as i32)),
                Want::Index => self.ins(I::I32Const(u32::try_from(c).unwrap_or(u32::MAX) as i32)),
                Want::V(ValType::I32) => self.ins(I::I32Const(c as i32)),
                Want::V(ValType::I64) => self.ins(I::I64Const(c)),
                Want::V(ValType::F32) => self.ins(I::F32Const(f32::from_bits(c as u32).into())),
                Want::V(ValType::F64) => self.ins(I::F64Const(f64::from_bits(c as u64).into())),
                Want::V(ValType::V128) => self.ins(I::V128Const(c as i128)),
                Want::V(ValType::Ref(_)) => self.zero(wv),
            },
            Operand::Undef => self.zero(wv),
        }
    }

    /// Stores the top value into `v` (kept on the stack when stackified,
    /// dropped when never read, with `local.tee` when its definition is
    /// teed: [`Stackified::teed`]).
    fn set(&mut self, v: Var, teed: bool) {
        if self.st.on_stack[v] || self.st.stacked[v] {
            return;
        }
        if self.st.dead[v] {
            self.ins(I::Drop);
            return;
        }
        let l = locals::index(&self.local, v);
        self.ins(if teed { I::LocalTee(l) } else { I::LocalSet(l) });
    }

    /// Emits the tree rooted at `root` (see [`super::stackify`]),
    /// iteratively.
    fn tree(&mut self, root: Node) -> Result<(), EmitError> {
        let mut st = std::mem::take(&mut self.frames);
        st.clear();
        let r = self.tree_in(root, &mut st);
        self.frames = st;
        r
    }

    /// [`Emitter::tree`] with its scratch.
    fn tree_in(&mut self, root: Node, st: &mut Vec<Frame>) -> Result<(), EmitError> {
        let plan = self.plan;
        let (next, end) = plan.reads(root)?;
        st.push(Frame {
            node: root,
            next,
            end,
            conv: None,
        });
        while let Some(top) = st.last_mut() {
            if top.next < top.end {
                let ((o, want), user) = (plan.op(top.next), top.node);
                top.next += 1;
                let child = match o {
                    Operand::Var(t) => self.st.child(user, t).map(|d| (t, d)),
                    _ => None,
                };
                match child {
                    Some((t, d)) => {
                        let node = Node::Inst(d);
                        let (next, end) = plan.reads(node)?;
                        st.push(Frame {
                            node,
                            next,
                            end,
                            conv: Some((val_type(self.f.var_type(t)), want)),
                        });
                    }
                    None => match o {
                        // Waiting on the stack since its tee'd definition.
                        Operand::Var(t) if self.st.tee_under[t] == Some(user) => {
                            self.convert(val_type(self.f.var_type(t)), want)
                        }
                        _ => self.leaf(o, want),
                    },
                }
            } else {
                let fr = st.pop().expect("a frame");
                if let Node::Inst(i) = fr.node {
                    self.finish(i)?;
                }
                if let Some((have, want)) = fr.conv {
                    self.convert(have, want);
                }
            }
        }
        Ok(())
    }

    /// The action of `inst` and the stores of its results, its operands
    /// being on the stack ([`Plan`]).
    fn finish(&mut self, inst: Inst) -> Result<(), EmitError> {
        let plan = self.plan;
        match plan.action(inst)? {
            Action::Nothing => return Ok(()),
            Action::Store => {}
            Action::Op(k) => self.ins(plan.instruction(k).clone()),
            Action::Truth(k, extend) => {
                self.ins(plan.instruction(k).clone());
                if extend {
                    self.ins(I::I64ExtendI32U);
                }
            }
            Action::Call(k, drops) => {
                self.ins(plan.instruction(k).clone());
                for _ in 0..drops {
                    self.ins(I::Drop);
                }
            }
        }
        let teed = self.st.teed[inst];
        for &r in plan.dsts(inst).iter().rev() {
            self.set(r, teed);
        }
        Ok(())
    }

    fn body(&mut self, b: Block) -> Result<(), EmitError> {
        for &i in self.f.block_insts(b) {
            if !self.st.absorbed[i] && !self.skip(i) {
                self.tree(Node::Inst(i))?;
            }
        }
        Ok(())
    }

    /// A copy that moves nothing (into a variable never read, or from a
    /// variable to itself: one local), or a literal nothing reads.
    fn skip(&self, i: Inst) -> bool {
        // Whatever its source: stackify made it no user, so a source on
        // the stack is another user's child, which must not run again.
        if self.st.drops(self.f, i) || self.zero[i] {
            return true;
        }
        let InstData::Copy { dst, src } = *self.f.inst(i) else {
            return false;
        };
        let src_local = match src {
            // Its source's definition is emitted in its tree.
            Operand::Var(s) if self.st.child(Node::Inst(i), s).is_some() => return false,
            Operand::Var(s) if self.st.stacked[s] => return false,
            Operand::Var(s) if self.st.tee_under[s] == Some(Node::Inst(i)) => return false,
            Operand::Var(s) => Some(self.local[s]),
            _ => None,
        };
        if self.st.on_stack[dst] || self.st.stacked[dst] || self.st.tee_under[dst].is_some() {
            return false;
        }
        src_local == Some(self.local[dst])
    }
}
