//! The methods of the Python `Function`: printing, the analyses of the
//! chapter's section 13.2 (dominators, DJ-graph, DF, DF+, liveness),
//! construction (section 13.3) with its trace, the passes, destruction
//! (section 13.4), the verifier, the def-use questions (`definition`,
//! `uses`, `reaching`, `phis`, `ssakit::analysis::def_use`) and the
//! exports (`to_json`, edge lists for networkx). Their keyword arguments
//! are read by [`crate::options`], their answers made by
//! [`crate::objects`].

use crate::errors::{ir_error, ir_errors};
use crate::function::{PyFunction, Source};
use crate::options::{construct_options, passes};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList};
use ssakit::analysis::def_use::Use;
use ssakit::analysis::report;
use ssakit::construct;
use ssakit::destruct::DestructOptions;
use ssakit::ir::{Block, InstData, Var};

#[pymethods]
impl PyFunction {
    /// The function's name.
    #[getter(name)]
    fn func_name(&self) -> String {
        self.func().name().to_string()
    }

    /// The block labels in layout order.
    #[getter]
    fn blocks(&self) -> Vec<String> {
        self.blocks_of(self.func().layout())
    }

    /// The entry block's label.
    #[getter]
    fn entry(&self) -> String {
        self.bname(self.func().entry())
    }

    /// The parameters' printed names.
    #[getter]
    fn params(&self) -> Vec<String> {
        self.func().params().iter().map(|&v| self.name(v)).collect()
    }

    /// The start address (lifted x86 code), else None.
    #[getter]
    fn address(&self) -> Option<u64> {
        match &self.inner.source {
            Source::X86 { start, .. } => Some(*start),
            Source::Renumbered { start, .. } => *start,
            _ => None,
        }
    }

    /// The function index in its WebAssembly module, else None.
    #[getter]
    fn wasm_index(&self) -> Option<u32> {
        match &self.inner.source {
            Source::Wasm { index, .. } => Some(*index),
            Source::Renumbered { index, .. } => *index,
            _ => None,
        }
    }

    /// The number of phis.
    #[getter]
    fn num_phis(&self) -> usize {
        let f = self.func();
        f.layout().iter().map(|&b| f.block_phis(b).len()).sum()
    }

    /// Phis by the type of what they merge: `registers` (i64),
    /// `flags` (bool, i32), `vectors` (v128), as `x86 stats` counts.
    fn phi_counts(&self) -> (usize, usize, usize) {
        let c = ssakit_x86::pipeline::PhiCounts::of(self.func());
        (c.registers, c.flags, c.vectors)
    }

    /// The number of instructions (phis included).
    #[getter]
    fn num_insts(&self) -> usize {
        self.func().num_insts()
    }

    /// The number of copies (what destruction leaves, as `x86 stats`
    /// counts them: `copy` instructions, not parallel copies).
    #[getter]
    fn num_copies(&self) -> usize {
        let f = self.func();
        f.layout()
            .iter()
            .flat_map(|&b| f.block_insts(b))
            .filter(|&&i| matches!(f.inst(i), InstData::Copy { .. }))
            .count()
    }

    /// The machine instructions decoded (lifted x86 code), else None.
    #[getter]
    fn machine_instructions(&self) -> Option<usize> {
        self.recovery().map(|r| r.instructions)
    }

    /// The jump tables resolved (lifted x86 code), else None.
    #[getter]
    fn jump_tables(&self) -> Option<usize> {
        self.recovery().map(|r| r.jump_tables)
    }

    /// The calls covered by a landing pad (lifted x86 code), else None.
    #[getter]
    fn invokes(&self) -> Option<usize> {
        self.recovery().map(|r| r.invokes)
    }

    /// Where the function was found (lifted x86 code of an `Elf` that
    /// discovers: `symbol`, `fde`, `entry`, `call`, `pointer` or `gap`,
    /// as `x86 stats --format json`'s `found`), else None.
    #[getter]
    fn found(&self) -> Option<&'static str> {
        self.recovery().and_then(|r| r.found)
    }

    /// Of the machine instructions decoded, those in the cold fragments
    /// (`.cold` parts with FDEs of their own) its walk entered (lifted
    /// x86 code), else None.
    #[getter]
    fn fragment_instructions(&self) -> Option<usize> {
        self.recovery().map(|r| r.fragment_instructions)
    }

    /// The ranges of the extent never decoded (lifted x86 code), else
    /// None: dicts with `start`, `end` (one past), `instructions`,
    /// `reason` (`unresolved-jump`, `data-in-code`, `unreachable`) and
    /// `jump` (the unresolved jump's address, or None).
    #[getter]
    fn lost<'py>(&self, py: Python<'py>) -> PyResult<Option<Bound<'py, PyList>>> {
        let Some(r) = self.recovery() else {
            return Ok(None);
        };
        let out = PyList::empty(py);
        for range in r.lost.iter() {
            out.append(self.lost_dict(py, range)?)?;
        }
        Ok(Some(out))
    }

    /// The function as `.ssa` text.
    fn to_text(&self) -> String {
        ssakit::text::print_function(self.func())
    }

    fn __str__(&self) -> String {
        self.to_text()
    }

    fn __repr__(&self) -> String {
        let f = self.func();
        format!(
            "<ssakit.Function {} ({} blocks, {} phis)>",
            f.name(),
            f.num_blocks(),
            self.num_phis()
        )
    }

    // ---- analyses (section 13.2)

    /// The immediate dominator of each block (None for the entry and
    /// unreachable blocks), in layout order.
    fn dominators(&self) -> Vec<(String, Option<String>)> {
        report::dom_rows(self.func())
            .iter()
            .map(|r| (self.bname(r.block), r.idom.map(|d| self.bname(d))))
            .collect()
    }

    /// The DJ-graph's edges: `{"d": [(a, b)...], "j": [...]}`.
    fn dj_graph<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let (d, j) = report::dj_edges(self.func());
        let e = |v: Vec<(Block, Block)>| -> Vec<(String, String)> {
            v.into_iter()
                .map(|(a, b)| (self.bname(a), self.bname(b)))
                .collect()
        };
        let out = PyDict::new(py);
        out.set_item("d", e(d))?;
        out.set_item("j", e(j))?;
        Ok(out)
    }

    /// The dominance frontier of each block (DF_all).
    fn frontiers(&self) -> Vec<(String, Vec<String>)> {
        report::df_rows(self.func())
            .into_iter()
            .map(|(b, df)| (self.bname(b), self.blocks_of(&df)))
            .collect()
    }

    /// The iterated dominance frontier DF+ of the blocks defining
    /// variable `var`: where minimal SSA places its phis.
    fn idf(&self, var: &str) -> PyResult<Vec<String>> {
        let v = self.func().var_by_name(var).ok_or_else(|| {
            crate::errors::key_error(format!(
                "function `{}` has no variable `{var}`",
                self.func().name()
            ))
        })?;
        Ok(self.blocks_of(&report::idf_sets(self.func(), v).1))
    }

    /// Live-in and live-out values of each block: `(block, in, out)`.
    fn liveness(&self) -> Vec<(String, Vec<String>, Vec<String>)> {
        report::live_rows(self.func())
            .into_iter()
            .map(|(b, i, o)| {
                let n = |vs: Vec<Var>| vs.into_iter().map(|v| self.name(v)).collect();
                (self.bname(b), n(i), n(o))
            })
            .collect()
    }

    // ---- construction, passes, destruction (sections 13.3, 13.4)

    /// This function in SSA form.
    #[pyo3(signature = (flavor="minimal", *, undef="operand", renaming="reaching-def", idf="linear"))]
    fn construct(
        &self,
        py: Python<'_>,
        flavor: &str,
        undef: &str,
        renaming: &str,
        idf: &str,
    ) -> PyResult<PyFunction> {
        let opts = construct_options(flavor, undef, renaming, idf)?;
        self.derive(py, true, |f| {
            well_typed(f)?;
            construct::construct(f, &opts).map(|_| ())
        })
    }

    /// Construction with the chapter's trace of variable `var`: the
    /// function in SSA form and the trace's text.
    #[pyo3(signature = (var, flavor="minimal", *, undef="operand", renaming="reaching-def", idf="linear"))]
    fn construct_traced(
        &self,
        py: Python<'_>,
        var: &str,
        flavor: &str,
        undef: &str,
        renaming: &str,
        idf: &str,
    ) -> PyResult<(PyFunction, String)> {
        let opts = construct_options(flavor, undef, renaming, idf)?;
        let mut f = (*self.inner.func).clone();
        let (_, trace) = py
            .detach(|| {
                well_typed(&f).and_then(|()| construct::construct_traced(&mut f, &opts, var))
            })
            .map_err(|e| ir_error(&e, &f))?;
        let text = trace.render(&f);
        Ok((PyFunction::new(f, self.inner.source.clone()), text))
    }

    /// The optimisation passes, `"copy-prop,const-prop,dce"` or a list.
    fn opt(&self, py: Python<'_>, passes: &Bound<'_, PyAny>) -> PyResult<PyFunction> {
        let ps = self::passes(passes)?;
        self.derive(py, false, |f| ssakit::opt::run_passes(f, &ps).map(|_| ()))
    }

    /// Out of SSA: `split` critical edges, `coalesce` copies, or the
    /// chapter's direct destruction of conventional SSA.
    #[pyo3(signature = (*, split=true, coalesce=true, conventional=false))]
    fn destruct(
        &self,
        py: Python<'_>,
        split: bool,
        coalesce: bool,
        conventional: bool,
    ) -> PyResult<PyFunction> {
        let opts = DestructOptions {
            split,
            coalesce,
            conventional,
        };
        self.derive(py, false, |f| {
            ssakit::destruct::destruct(f, &opts).map(|_| ())
        })
    }

    /// The verifier's report: a dict of the SSA properties, or
    /// `IrError` (with every error in `errors`) for an invalid function.
    fn verify<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let f = self.func();
        let r = ssakit::verify::verify(f).map_err(|errs| ir_errors(&errs, f))?;
        let out = PyDict::new(py);
        out.set_item("phis", r.phis)?;
        out.set_item("minimal", r.minimal())?;
        out.set_item("pruned", r.pruned())?;
        out.set_item("conventional", r.conventional())?;
        out.set_item("strict", r.strict())?;
        out.set_item("undef_operands", r.undef_operands)?;
        out.set_item("report", r.render(f))?;
        Ok(out)
    }

    // ---- def-use (ssakit::analysis::def_use)

    /// Where `value` is defined: a dict (`kind` param/phi/inst, `block`,
    /// `index`, `address`, `op`), or None when nothing defines it.
    fn definition<'py>(
        &self,
        py: Python<'py>,
        value: &str,
    ) -> PyResult<Option<Bound<'py, PyDict>>> {
        let v = self.value(value)?;
        let d = self.tables()?.borrow_dependent().du.definition(v);
        d.map(|d| self.definition_dict(py, v, d)).transpose()
    }

    /// Every read of `value`, in layout order: dicts (`kind`
    /// operand/phi/term, `block`, `index`, `operand`, `pred`, `address`,
    /// `op`, `defines`).
    fn uses<'py>(&self, py: Python<'py>, value: &str) -> PyResult<Vec<Bound<'py, PyDict>>> {
        let v = self.value(value)?;
        let t = self.tables()?;
        t.borrow_dependent()
            .du
            .uses(v)
            .map(|u| self.use_dict(py, u))
            .collect()
    }

    /// The value of variable `var` (a register) that reaches `at` (an
    /// address, a block name for its end, `(block, index)`): its name,
    /// or None where no definition reaches (undefined).
    fn reaching(&self, var: &str, at: &Bound<'_, PyAny>) -> PyResult<Option<String>> {
        let v = self.value(var)?;
        let p = self.point(at)?;
        let t = self.tables()?;
        Ok(t.borrow_dependent()
            .rd
            .reaching_def(v, p)
            .map(|r| self.name(r)))
    }

    /// The phis of `block` (all blocks when None): dicts with `value`,
    /// `variable`, `block` and `operands` as (predecessor, value) pairs.
    #[pyo3(signature = (block=None))]
    fn phis<'py>(&self, py: Python<'py>, block: Option<&str>) -> PyResult<Vec<Bound<'py, PyDict>>> {
        let f = self.func();
        let blocks: Vec<Block> = match block {
            Some(b) => vec![self.block(b)?],
            None => f.layout().to_vec(),
        };
        let mut out = Vec::new();
        for b in blocks {
            for &i in f.block_phis(b) {
                out.push(self.phi_dict(py, b, i)?);
            }
        }
        Ok(out)
    }

    /// Block `label` as a dict: `phis`, `instructions` (op, reads,
    /// writes, address), `terminator`.
    #[pyo3(name = "block")]
    fn block_info<'py>(&self, py: Python<'py>, label: &str) -> PyResult<Bound<'py, PyDict>> {
        let b = PyFunction::block(self, label)?;
        self.block_dict(py, b)
    }

    /// The control-flow graph's edges `(from, to)`, for
    /// `networkx.DiGraph(f.cfg_edges())`.
    fn cfg_edges(&self) -> Vec<(String, String)> {
        let f = self.func();
        let mut out = Vec::new();
        for &b in f.layout() {
            f.for_each_succ(b, |s| out.push((self.bname(b), self.bname(s))));
        }
        out
    }

    /// The def-use graph's edges `(value, reader)`: `reader` is the value
    /// the reading instruction defines, or `block:index` / `block:term`
    /// for an instruction that defines none.
    fn def_use_edges(&self) -> PyResult<Vec<(String, String)>> {
        let f = self.func();
        let t = self.tables()?;
        let du = &t.borrow_dependent().du;
        let mut out = Vec::new();
        for v in f.vars() {
            if du.definition(v).is_none() {
                continue;
            }
            for u in du.uses(v) {
                let (inst, block) = match u {
                    Use::Operand { inst, block, .. } | Use::Phi { inst, block, .. } => {
                        (Some(inst), block)
                    }
                    Use::Term { block } => (None, block),
                };
                let from = self.name(v);
                match inst {
                    Some(i) => {
                        let mut any = false;
                        f.for_each_def(i, |d| {
                            any = true;
                            out.push((from.clone(), self.name(d)));
                        });
                        if !any {
                            out.push((
                                from,
                                format!("{}:{}", self.bname(block), self.position(block, i)),
                            ));
                        }
                    }
                    None => out.push((from, format!("{}:term", self.bname(block)))),
                }
            }
        }
        Ok(out)
    }

    /// The whole function as JSON: name, params, address, and per block
    /// its label, address, phis, instructions and terminator.
    fn to_json(&self, py: Python<'_>) -> PyResult<String> {
        let f = self.func();
        let out = PyDict::new(py);
        out.set_item("name", f.name())?;
        out.set_item("address", self.address())?;
        out.set_item("params", self.params())?;
        let blocks = PyList::empty(py);
        for &b in f.layout() {
            blocks.append(self.block_dict(py, b)?)?;
        }
        out.set_item("blocks", blocks)?;
        let json = py.import("json")?;
        json.call_method1("dumps", (out,))?.extract()
    }
}

/// The first type error of `f`, if any: construction keeps each
/// variable's type, so an ill-typed input is refused before it (as the
/// command line does), not turned into ill-typed SSA.
fn well_typed(f: &ssakit::ir::Function) -> Result<(), ssakit::error::IrError> {
    ssakit::verify::verify_types(f).map_err(|mut errs| errs.swap_remove(0))
}
