//! A whole `.ssa` program as a WebAssembly module (`ssakit emit-wasm`).
//!
//! Each function is destructed if it is in SSA form, made reducible with
//! dispatch loops ([`ssakit::reducible`]) and emitted by [`crate::emit`];
//! the module exports each function under its name, with `i64` parameters
//! and results (several results are multi-value). `print` with `k`
//! arguments calls the import `ssakit.print_k` (`k` `i64` parameters); a
//! callee that is not a function of the program is the import
//! `ssakit.NAME` with one `i64` parameter per argument and one `i64`
//! result. The semantics are `ssakit run`'s ([`ssakit::eval`]) except that
//! `undef` operands become 0.
//!
//! Division is the one built-in where WebAssembly and `run` differ:
//! `i64.div_s` traps on `i64::MIN / -1`, which `run` wraps to `i64::MIN`
//! (`i64.rem_s` already gives 0 for `i64::MIN % -1`, and both trap on a
//! zero divisor). So every `/` becomes a call of one helper function,
//! added after the program's functions and not exported ([`DIV_HELPER`]):
//!
//! ```text
//! (func (param $a i64) (param $b i64) (result i64)
//!   (if (result i64) (i64.eq (local.get $b) (i64.const -1))
//!     (then (i64.sub (i64.const 0) (local.get $a)))   ;; wraps: MIN stays MIN
//!     (else (i64.div_s (local.get $a) (local.get $b)))))
//! ```

use crate::emit::OpTable;
use crate::emit::{emit_function, Lowering};
use crate::error::WasmError;
use crate::module::Signature;
use ssakit::destruct::{destruct, DestructOptions};
use ssakit::ir::{BinOp, Function, InstData, Module, Operand, Terminator, Type};
use wasm_encoder::{
    BlockType, CodeSection, EntityType, ExportKind, ExportSection, FunctionSection, ImportSection,
    Instruction, TypeSection,
};

/// The callee name the rewritten divisions call (not an identifier of the
/// text format, so no function of a program can have it).
pub const DIV_HELPER: &str = "ssakit:div_s";

/// Rewrites every `d = a / b` of `g` into `d = call DIV_HELPER(a, b)`;
/// whether there was one.
fn call_div_helper(g: &mut Function) -> bool {
    let mut found = false;
    for k in 0..g.layout().len() {
        let b = g.layout()[k];
        for j in 0..g.block_insts(b).len() {
            let i = g.block_insts(b)[j];
            if let InstData::Binary {
                dst,
                op: BinOp::Div,
                lhs,
                rhs,
            } = *g.inst(i)
            {
                let callee = g.callee(DIV_HELPER);
                let args = g.list::<Operand>(&[lhs, rhs]);
                let results = g.list(&[dst]);
                g.set_inst(
                    i,
                    InstData::Call {
                        callee,
                        args,
                        results,
                    },
                );
                found = true;
            }
        }
    }
    found
}

/// The body of [`DIV_HELPER`] (see the module documentation).
fn div_helper() -> wasm_encoder::Function {
    let mut h = wasm_encoder::Function::new([]);
    for i in [
        Instruction::LocalGet(1),
        Instruction::I64Const(-1),
        Instruction::I64Eq,
        Instruction::If(BlockType::Result(wasm_encoder::ValType::I64)),
        Instruction::I64Const(0),
        Instruction::LocalGet(0),
        Instruction::I64Sub,
        Instruction::Else,
        Instruction::LocalGet(0),
        Instruction::LocalGet(1),
        Instruction::I64DivS,
        Instruction::End,
        Instruction::End,
    ] {
        h.instruction(&i);
    }
    h
}

/// Counts of what [`emit_program`] produced.
///
/// ```
/// let src = "function f(a) {\nentry:\n  r = ext(a)\n  print r\n  ret r\n}\n";
/// let m = ssakit::text::parse_module(src).unwrap();
/// let (_, stats) = ssakit_wasm::program::emit_program(&m).unwrap();
/// // `ext` is not in the program: an import, as `print` with one argument.
/// assert_eq!(stats, ssakit_wasm::program::ProgramStats { functions: 1, imports: 2, dispatchers: 0 });
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ProgramStats {
    /// Functions emitted.
    pub functions: usize,
    /// Imports (`print_k` and externals).
    pub imports: usize,
    /// Dispatchers added to make CFGs reducible.
    pub dispatchers: usize,
}

fn err(f: &Function, msg: impl std::fmt::Display) -> WasmError {
    WasmError::new(format!("function `{}`: {msg}", f.name()))
}

/// The number of values `f` returns: the arity of its `ret`s, which must
/// agree.
fn result_count(f: &Function) -> Result<usize, WasmError> {
    let mut n = None;
    for &b in f.layout() {
        if let Terminator::Ret(vals) = f.term(b) {
            let k = vals.as_slice(f).len();
            if n.is_some_and(|n| n != k) {
                let other = n.unwrap_or(0);
                return Err(err(
                    f,
                    format!(
                        "block {} returns {k} values, another block {other}",
                        f.block_name(b)
                    ),
                ));
            }
            n = Some(k);
        }
    }
    Ok(n.unwrap_or(0))
}

/// Emits `module` as a WebAssembly binary (see the module documentation).
///
/// # Errors
/// A function that cannot be emitted (its `ret`s disagree on the number of
/// values, an operation that is not a WebAssembly operator...), named.
///
/// ```
/// let src = "function main(n) {\nentry:\n  s = 0\n  jump h\nh:\n  c = n > 0\n  branch c, b, x\n\
/// b:\n  s = s + n\n  n = n - 1\n  print n, s\n  jump h\nx:\n  r = twice(s)\n  ret r\n}\n\
/// function twice(v) {\nentry:\n  r = v + v\n  ret r\n}\n";
/// let m = ssakit::text::parse_module(src).unwrap();
/// let (wasm, stats) = ssakit_wasm::program::emit_program(&m).unwrap();
/// assert_eq!(stats.functions, 2);
/// let back = ssakit_wasm::module::parse(&wasm).unwrap(); // valid WebAssembly
/// assert_eq!(back.names.len(), 3); // `ssakit.print_2`, then `main` and `twice`
/// let bad = ssakit::text::parse_module("function g(a) {\nentry:\n  branch a, l, r\nl:\n  ret a\nr:\n  ret\n}\n").unwrap();
/// assert!(ssakit_wasm::program::emit_program(&bad).unwrap_err().message.contains("function `g`"));
/// ```
pub fn emit_program(module: &Module) -> Result<(Vec<u8>, ProgramStats), WasmError> {
    let mut stats = ProgramStats::default();
    let mut funcs = Vec::with_capacity(module.functions.len());
    let mut divides = false;
    for f in &module.functions {
        let p = prepare(f)?;
        stats.dispatchers += p.dispatchers;
        divides |= p.divides;
        funcs.push(p.func);
    }
    let imports = Imports::collect(&funcs)?;
    let n_imports = imports.len();
    stats.imports = n_imports;
    let sigs = signatures(&imports, &funcs, divides)?;
    // The helper's index, after the program's functions.
    let div_index = (n_imports + funcs.len()) as u32;
    let func_types: Vec<u32> = (0..sigs.len() as u32).collect();
    let print = imports.print_indices();

    let mut fsec = FunctionSection::new();
    let mut exports = ExportSection::new();
    let mut code = CodeSection::new();
    for (k, g) in funcs.iter().enumerate() {
        let idx = (n_imports + k) as u32;
        fsec.function(idx);
        exports.export(g.name(), ExportKind::Func, idx);
        let callees = callee_indices(g, &funcs, &imports, div_index);
        let ops = OpTable::new(g.symbols());
        let low = Lowering {
            ops: &ops,
            callees: &callees,
            func_types: &func_types,
            types: &sigs,
            globals: &[],
            print: &print,
        };
        let e = emit_function(g, &low)?;
        code.function(&e.func);
        stats.functions += 1;
    }
    if divides {
        fsec.function(div_index);
        code.function(&div_helper());
    }
    let mut m = wasm_encoder::Module::new();
    m.section(&type_section(&sigs));
    if n_imports > 0 {
        m.section(&imports.section());
    }
    m.section(&fsec);
    m.section(&exports);
    m.section(&code);
    Ok((m.finish(), stats))
}

/// A function as it is emitted.
struct Prepared {
    /// The copy of the function, destructed, reducible, its divisions
    /// calling [`DIV_HELPER`].
    func: Function,
    /// Whether it divides (calls [`DIV_HELPER`]).
    divides: bool,
    /// Dispatchers added to make it reducible.
    dispatchers: usize,
}

/// The copy of `f` that is emitted: destructed if in SSA form, made
/// reducible, its divisions calling [`DIV_HELPER`]. Refuses a generic
/// operation, a parameter that is not `i64` and `ret`s of different
/// arities.
fn prepare(f: &Function) -> Result<Prepared, WasmError> {
    let mut g = f.clone();
    let has_phis = g.layout().iter().any(|&b| !g.block_phis(b).is_empty());
    if has_phis {
        destruct(&mut g, &DestructOptions::default()).map_err(|e| err(f, e))?;
    }
    let dispatchers = ssakit::reducible::make_reducible(&mut g)
        .map_err(|e| err(f, e))?
        .dispatchers;
    for &b in g.layout() {
        for &i in g.block_insts(b) {
            if let InstData::Op { op, .. } = g.inst(i) {
                return Err(err(
                    f,
                    format!("block {}: generic operation `{}` is not supported by emit-wasm (i64 programs only)", g.block_name(b), g.operator_name(*op)),
                ));
            }
        }
    }
    for &p in g.params() {
        if g.var_type(p) != Type::I64 {
            return Err(err(f, format!("parameter `{}` is not i64", g.base_name(p))));
        }
    }
    if g.returns().is_none() {
        let n = result_count(&g)?;
        g.set_returns(Some(vec![Type::I64; n]));
    }
    let divides = call_div_helper(&mut g);
    Ok(Prepared {
        func: g,
        divides,
        dispatchers,
    })
}

/// The module's imports, in index order: `print_k` by arity, then the
/// externals (name, arguments) by first call.
struct Imports {
    print_arities: Vec<usize>,
    externals: Vec<(String, usize)>,
}

impl Imports {
    /// The imports `funcs` call, each call checked against its callee (a
    /// function of the program or an external's other calls).
    fn collect(funcs: &[Function]) -> Result<Imports, WasmError> {
        let mut imports = Imports {
            print_arities: Vec::new(),
            externals: Vec::new(),
        };
        for g in funcs {
            for &b in g.layout() {
                for &i in g.block_insts(b) {
                    match g.inst(i) {
                        InstData::Print { args } => {
                            let k = args.as_slice(g).len();
                            if !imports.print_arities.contains(&k) {
                                imports.print_arities.push(k);
                            }
                        }
                        InstData::Call {
                            callee,
                            args,
                            results,
                        } => {
                            let name = g.callee_name(*callee);
                            let k = args.as_slice(g).len();
                            let r = results.as_slice(g).len();
                            if name == DIV_HELPER {
                                continue;
                            }
                            if let Some(t) = funcs.iter().find(|t| t.name() == name) {
                                check_internal_call(g, b, t, k, r)?;
                            } else {
                                imports.external_call(g, b, name, k, r)?;
                            }
                        }
                        _ => {}
                    }
                }
            }
        }
        imports.print_arities.sort_unstable();
        Ok(imports)
    }

    /// Notes a call of the external `name` with `k` arguments and `r`
    /// results, in block `b` of `g`.
    fn external_call(
        &mut self,
        g: &Function,
        b: ssakit::ir::Block,
        name: &str,
        k: usize,
        r: usize,
    ) -> Result<(), WasmError> {
        match self.externals.iter().find(|e| e.0 == name) {
            Some(e) if e.1 != k => {
                return Err(err(g, format!("block {}: external `{name}` called with {k} arguments and elsewhere with {}", g.block_name(b), e.1)));
            }
            Some(_) => {}
            None => self.externals.push((name.to_string(), k)),
        }
        if r > 1 {
            return Err(err(
                g,
                format!(
                    "block {}: external `{name}` returns one value",
                    g.block_name(b)
                ),
            ));
        }
        Ok(())
    }

    fn len(&self) -> usize {
        self.print_arities.len() + self.externals.len()
    }

    /// The function index of `print_k`, by `k`.
    fn print_indices(&self) -> Vec<Option<u32>> {
        let max_arity = self.print_arities.last().map_or(0, |&k| k + 1);
        let mut print = vec![None; max_arity];
        for (i, &k) in self.print_arities.iter().enumerate() {
            print[k] = Some(i as u32);
        }
        print
    }

    /// The function index of the external `name`.
    fn external_index(&self, name: &str) -> Option<u32> {
        self.externals
            .iter()
            .position(|e| e.0 == name)
            .map(|e| (self.print_arities.len() + e) as u32)
    }

    fn section(&self) -> ImportSection {
        let mut imports = ImportSection::new();
        for (i, &k) in self.print_arities.iter().enumerate() {
            imports.import(
                "ssakit",
                &format!("print_{k}"),
                EntityType::Function(i as u32),
            );
        }
        for (j, (name, _)) in self.externals.iter().enumerate() {
            imports.import(
                "ssakit",
                name,
                EntityType::Function((self.print_arities.len() + j) as u32),
            );
        }
        imports
    }
}

/// Checks a call in block `b` of `g` of the program's function `t` with
/// `k` arguments and `r` results.
fn check_internal_call(
    g: &Function,
    b: ssakit::ir::Block,
    t: &Function,
    k: usize,
    r: usize,
) -> Result<(), WasmError> {
    let name = t.name();
    if t.params().len() != k {
        return Err(err(
            g,
            format!(
                "block {}: `{name}` takes {} arguments, called with {k}",
                g.block_name(b),
                t.params().len()
            ),
        ));
    }
    let n = result_count(t)?;
    if r > n {
        return Err(err(
            g,
            format!(
                "block {}: `{name}` returns {n} values, {r} wanted",
                g.block_name(b),
            ),
        ));
    }
    Ok(())
}

/// One signature per function index: the imports, the program's
/// functions, then the division helper if any.
fn signatures(
    imports: &Imports,
    funcs: &[Function],
    divides: bool,
) -> Result<Vec<Option<Signature>>, WasmError> {
    let mut sigs: Vec<Option<Signature>> = Vec::new();
    for &k in &imports.print_arities {
        sigs.push(Some(Signature {
            params: vec![Type::I64; k],
            results: vec![],
        }));
    }
    for (_, k) in &imports.externals {
        sigs.push(Some(Signature {
            params: vec![Type::I64; *k],
            results: vec![Type::I64],
        }));
    }
    for g in funcs {
        sigs.push(Some(Signature {
            params: vec![Type::I64; g.params().len()],
            results: vec![Type::I64; result_count(g)?],
        }));
    }
    if divides {
        sigs.push(Some(Signature {
            params: vec![Type::I64; 2],
            results: vec![Type::I64],
        }));
    }
    Ok(sigs)
}

fn type_section(sigs: &[Option<Signature>]) -> TypeSection {
    let mut types = TypeSection::new();
    for s in sigs.iter().flatten() {
        let vt = |t: &Type| crate::emit::val_type(*t);
        types
            .ty()
            .function(s.params.iter().map(vt), s.results.iter().map(vt));
    }
    types
}

/// The function index of each callee of `g` (`None`: not a function).
fn callee_indices(
    g: &Function,
    funcs: &[Function],
    imports: &Imports,
    div_index: u32,
) -> Vec<Option<u32>> {
    let n_imports = imports.len();
    let syms = g.symbols();
    (0..syms.num_callees())
        .map(|c| {
            let name = syms.callee_name(ssakit::ir::Callee::new(c));
            if name == DIV_HELPER {
                return Some(div_index);
            }
            match funcs.iter().position(|t| t.name() == name) {
                Some(t) => Some((n_imports + t) as u32),
                None => imports.external_index(name),
            }
        })
        .collect()
}
