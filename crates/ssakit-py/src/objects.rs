//! The plain Python objects the questions of a `Function` answer with:
//! a program point read from `at=`, and the dicts of a definition, a use
//! (`ssakit::analysis::def_use`), an instruction, a block and a phi with
//! its operands by predecessor, each with the machine address or byte
//! offset of lifted code (docs/python.md, "The surface").

use crate::errors::{key_error, value_error};
use crate::function::{op_name, term_kind, PyFunction};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList};
use ssakit::analysis::def_use::{At, Definition, Use};
use ssakit::ir::{Block, Inst, InstData, Var};

impl PyFunction {
    /// The labels of blocks `bs`.
    pub fn blocks_of(&self, bs: &[Block]) -> Vec<String> {
        bs.iter()
            .map(|&b| self.func().block_name(b).to_string())
            .collect()
    }

    /// The label of block `b`.
    pub fn bname(&self, b: Block) -> String {
        self.func().block_name(b).to_string()
    }

    /// `at` as a program point: an address (lifted code), a block name
    /// (its end) or `(block, index)` (before ordinary instruction
    /// `index` of the block).
    pub fn point(&self, at: &Bound<'_, PyAny>) -> PyResult<At> {
        if let Ok(a) = at.extract::<u64>() {
            return self.at_address(a);
        }
        if let Ok(b) = at.extract::<String>() {
            return Ok(At::End(self.block(&b)?));
        }
        if let Ok((b, k)) = at.extract::<(String, usize)>() {
            let blk = self.block(&b)?;
            return match self.func().block_insts(blk).get(k) {
                Some(&i) => Ok(At::Before(i)),
                None => Err(key_error(format!("block `{b}` has no instruction {k}"))),
            };
        }
        Err(value_error(
            "`at` is an address, a block name or (block, index)".into(),
        ))
    }

    /// One range of an extent never decoded as a dict.
    pub fn lost_dict<'py>(
        &self,
        py: Python<'py>,
        r: &ssakit_x86::lost::LostRange,
    ) -> PyResult<Bound<'py, PyDict>> {
        let out = PyDict::new(py);
        out.set_item("start", r.start)?;
        out.set_item("end", r.end)?;
        out.set_item("instructions", r.instructions)?;
        out.set_item("reason", r.reason.key())?;
        let (jump, kind) = match r.reason {
            ssakit_x86::lost::Reason::UnresolvedJump(a, k) => (Some(a), Some(k.key())),
            _ => (None, None),
        };
        out.set_item("jump", jump)?;
        out.set_item("kind", kind)?;
        Ok(out)
    }

    /// One definition as a dict.
    pub fn definition_dict<'py>(
        &self,
        py: Python<'py>,
        v: Var,
        d: Definition,
    ) -> PyResult<Bound<'py, PyDict>> {
        let f = self.func();
        let out = PyDict::new(py);
        out.set_item("value", self.name(v))?;
        out.set_item("variable", f.base_name(v))?;
        out.set_item("block", self.bname(d.block()))?;
        match d {
            Definition::Param { index, .. } => {
                out.set_item("kind", "param")?;
                out.set_item("index", index)?;
                out.set_item("address", py.None())?;
                out.set_item("op", py.None())?;
            }
            Definition::Phi { inst, block } => {
                out.set_item("kind", "phi")?;
                out.set_item("index", self.position(block, inst))?;
                out.set_item("address", self.block_address(block))?;
                out.set_item("op", "phi")?;
            }
            Definition::Inst {
                inst,
                block,
                result,
            } => {
                out.set_item("kind", "inst")?;
                out.set_item("index", self.position(block, inst))?;
                out.set_item("result", result)?;
                out.set_item("address", self.inst_address(inst))?;
                out.set_item("op", op_name(f, inst))?;
            }
        }
        Ok(out)
    }

    /// One use as a dict.
    pub fn use_dict<'py>(&self, py: Python<'py>, u: Use) -> PyResult<Bound<'py, PyDict>> {
        let f = self.func();
        let out = PyDict::new(py);
        match u {
            Use::Operand { inst, block, index } => {
                out.set_item("kind", "operand")?;
                out.set_item("block", self.bname(block))?;
                out.set_item("index", self.position(block, inst))?;
                out.set_item("operand", index)?;
                out.set_item("address", self.inst_address(inst))?;
                out.set_item("op", op_name(f, inst))?;
                let mut defs = Vec::new();
                f.for_each_def(inst, |d| defs.push(self.name(d)));
                out.set_item("defines", defs)?;
            }
            Use::Phi {
                inst,
                block,
                pred,
                index,
            } => {
                out.set_item("kind", "phi")?;
                out.set_item("block", self.bname(block))?;
                out.set_item("index", self.position(block, inst))?;
                out.set_item("operand", index)?;
                out.set_item("pred", self.bname(pred))?;
                // Read at the end of the predecessor.
                out.set_item("address", self.term_address(pred))?;
                out.set_item("op", "phi")?;
                out.set_item(
                    "defines",
                    f.def(inst).map(|d| vec![self.name(d)]).unwrap_or_default(),
                )?;
            }
            Use::Term { block } => {
                out.set_item("kind", "term")?;
                out.set_item("block", self.bname(block))?;
                out.set_item("index", py.None())?;
                out.set_item("address", self.term_address(block))?;
                out.set_item("op", term_kind(f.term(block)))?;
                out.set_item("defines", Vec::<String>::new())?;
            }
        }
        Ok(out)
    }

    /// One instruction as a dict: op, reads, writes, address.
    pub fn inst_dict<'py>(&self, py: Python<'py>, i: Inst) -> PyResult<Bound<'py, PyDict>> {
        let f = self.func();
        let out = PyDict::new(py);
        out.set_item("op", op_name(f, i))?;
        let mut reads = Vec::new();
        f.for_each_operand(i, |op| reads.push(self.operand(py, op)));
        let mut writes = Vec::new();
        f.for_each_def(i, |v| writes.push(self.name(v)));
        if let InstData::Op { imms, .. } = f.inst(i) {
            out.set_item("immediates", imms.as_slice(f).to_vec())?;
        }
        out.set_item("reads", reads)?;
        out.set_item("writes", writes)?;
        out.set_item("address", self.inst_address(i))?;
        Ok(out)
    }

    /// One block as a dict.
    pub fn block_dict<'py>(&self, py: Python<'py>, b: Block) -> PyResult<Bound<'py, PyDict>> {
        let f = self.func();
        let out = PyDict::new(py);
        out.set_item("label", self.bname(b))?;
        out.set_item("address", self.block_address(b))?;
        let phis = PyList::empty(py);
        for &i in f.block_phis(b) {
            phis.append(self.phi_dict(py, b, i)?)?;
        }
        out.set_item("phis", phis)?;
        let insts = PyList::empty(py);
        for &i in f.block_insts(b) {
            insts.append(self.inst_dict(py, i)?)?;
        }
        out.set_item("instructions", insts)?;
        let term = PyDict::new(py);
        term.set_item("kind", term_kind(f.term(b)))?;
        let mut reads = Vec::new();
        f.for_each_term_operand(b, |op| reads.push(self.operand(py, op)));
        term.set_item("reads", reads)?;
        let mut succs = Vec::new();
        f.for_each_succ(b, |s| succs.push(self.bname(s)));
        term.set_item("successors", succs)?;
        term.set_item("address", self.term_address(b))?;
        out.set_item("terminator", term)?;
        Ok(out)
    }

    /// One phi as a dict: value, variable, block, operands by predecessor.
    pub fn phi_dict<'py>(
        &self,
        py: Python<'py>,
        b: Block,
        i: Inst,
    ) -> PyResult<Bound<'py, PyDict>> {
        let f = self.func();
        let out = PyDict::new(py);
        let dst = f.def(i).expect("a phi defines");
        out.set_item("value", self.name(dst))?;
        out.set_item("variable", f.base_name(dst))?;
        out.set_item("block", self.bname(b))?;
        let ops = PyList::empty(py);
        for a in f.phi_args(i) {
            ops.append((self.bname(a.block), self.operand(py, a.value)))?;
        }
        out.set_item("operands", ops)?;
        Ok(out)
    }
}
