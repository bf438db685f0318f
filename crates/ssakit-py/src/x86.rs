//! `ssakit.Elf`: an x86-64 ELF file (and its debug file) whose functions
//! are lifted by `ssakit_x86::lift` (section 13.8, "En binarios"), in
//! parallel, each with the lifter's address side table
//! (`ssakit_x86::lift::Origins`), optionally constructed in one flavour.

use crate::errors::{elf_error, ir_error, key_error};
use crate::function::{PyFunction, Recovery, Source};
use crate::options::flavor_options;
use pyo3::prelude::*;
use rayon::prelude::*;
use ssakit_x86::binary::{Binary, FuncInfo};
use std::path::PathBuf;
use std::sync::Arc;

self_cell::self_cell!(
    /// The file's bytes and the `Binary` read from them.
    struct Loaded {
        owner: Vec<u8>,
        #[covariant]
        dependent: Binary,
    }
);

/// An x86-64 ELF file: `Elf(path, symbols=None)`.
#[pyclass(name = "Elf", module = "ssakit", frozen)]
pub struct Elf {
    loaded: Loaded,
    path: String,
    /// Whether discovery ran: then each function says where it was found.
    discover: bool,
}

fn read(path: &PathBuf) -> PyResult<Vec<u8>> {
    std::fs::read(path)
        .map_err(|e| pyo3::exceptions::PyOSError::new_err(format!("{}: {e}", path.display())))
}

impl Elf {
    fn bin(&self) -> &Binary<'_> {
        self.loaded.borrow_dependent()
    }

    /// The function named `sel`, or starting at address `sel`.
    fn find(&self, sel: &Bound<'_, PyAny>) -> PyResult<&FuncInfo> {
        let bin = self.bin();
        let found = if let Ok(a) = sel.extract::<u64>() {
            bin.function_at(a)
        } else {
            let name: String = sel.extract()?;
            bin.functions().iter().find(|f| f.name == name)
        };
        found.ok_or_else(|| key_error(format!("{}: no function {sel}", self.path)))
    }
}

#[pymethods]
impl Elf {
    /// Reads the ELF at `path`; `symbols`, a separate debug file whose
    /// symbols name and delimit the functions of a stripped binary;
    /// `discover`, whether to find the functions neither a symbol nor an
    /// FDE gives, as `x86 lift` does unless `--no-discover`
    /// (`ssakit_x86::discover`).
    #[new]
    #[pyo3(signature = (path, symbols=None, discover=true))]
    fn new(path: PathBuf, symbols: Option<PathBuf>, discover: bool) -> PyResult<Elf> {
        let name = path.display().to_string();
        let bytes = read(&path)?;
        let debug = symbols.as_ref().map(read).transpose()?;
        let loaded = Loaded::try_new(bytes, |b| {
            let mut bin = Binary::parse(b).map_err(|e| elf_error(&e, &name))?;
            if let (Some(d), Some(p)) = (&debug, &symbols) {
                bin.add_symbols(d)
                    .map_err(|e| elf_error(&e, &p.display().to_string()))?;
            }
            if discover {
                ssakit_x86::discover::discover(&mut bin);
            }
            Ok::<_, PyErr>(bin)
        })?;
        Ok(Elf {
            loaded,
            path: name,
            discover,
        })
    }

    /// The functions found: `(name, start, end)` by address.
    #[getter]
    fn functions(&self) -> Vec<(String, u64, u64)> {
        self.bin()
            .functions()
            .iter()
            .map(|f| (f.name.clone(), f.extent.start, f.extent.end))
            .collect()
    }

    fn __len__(&self) -> usize {
        self.bin().functions().len()
    }

    fn __repr__(&self) -> String {
        format!(
            "<ssakit.Elf {} ({} functions)>",
            self.path,
            self.bin().functions().len()
        )
    }

    /// Lifts the functions `names` (names or start addresses; all when
    /// None), in parallel; with `construct`, a flavour (`minimal`,
    /// `semi-pruned`, `pruned`), each in SSA form; with `semantics`, the
    /// integer instructions onto the operation set.
    #[pyo3(signature = (names=None, *, construct=None, semantics=false))]
    fn lift(
        &self,
        py: Python<'_>,
        names: Option<Vec<Bound<'_, PyAny>>>,
        construct: Option<&str>,
        semantics: bool,
    ) -> PyResult<Vec<PyFunction>> {
        let chosen: Vec<&FuncInfo> = match &names {
            Some(sels) => sels.iter().map(|s| self.find(s)).collect::<PyResult<_>>()?,
            None => self.bin().functions().iter().collect(),
        };
        let copts = construct.map(flavor_options).transpose()?;
        let lopts = ssakit_x86::lift::Options { semantics };
        let bin = self.bin();
        let discover = self.discover;
        let lifted = py.detach(|| {
            // A fragment's lost ranges less what the functions entering it
            // decoded, as `x86 stats` and `x86 lift` give them.
            let cover = ssakit_x86::lost::FragmentCover::for_lifting(bin, chosen.iter().copied());
            chosen
                .par_iter()
                .map(|info| {
                    let mut l = ssakit_x86::lift::lift_with(bin, info, &lopts);
                    l.lost = cover.subtract(bin, info, std::mem::take(&mut l.lost));
                    let mut f = l.func;
                    if let Some(o) = &copts {
                        if let Err(e) = ssakit::construct::construct(&mut f, o) {
                            return Err(Box::new((e, f)));
                        }
                    }
                    let source = Source::X86 {
                        origins: Arc::new(l.origins),
                        start: info.extent.start,
                        recovery: Recovery {
                            instructions: l.instructions,
                            jump_tables: l.jump_tables,
                            invokes: l.invokes,
                            lost: l.lost.into(),
                            found: discover.then(|| info.origin.key()),
                            fragment_instructions: l.fragment_instructions,
                        },
                    };
                    Ok((f, source))
                })
                .collect::<Vec<_>>()
        });
        lifted
            .into_iter()
            .map(|r| match r {
                Ok((f, s)) => Ok(PyFunction::new(f, s)),
                Err(b) => Err(ir_error(&b.0, &b.1)),
            })
            .collect()
    }

    /// One function, by name or start address (as `lift([sel])[0]`).
    #[pyo3(signature = (sel, *, construct=None, semantics=false))]
    fn function(
        &self,
        py: Python<'_>,
        sel: Bound<'_, PyAny>,
        construct: Option<&str>,
        semantics: bool,
    ) -> PyResult<PyFunction> {
        let mut v = self.lift(py, Some(vec![sel]), construct, semantics)?;
        Ok(v.remove(0))
    }
}
