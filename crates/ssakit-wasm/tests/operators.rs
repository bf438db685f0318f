//! Every operator the lifter accepts, through `ssakit wasm opt`'s round
//! trip and run under wasmi (issue 13; `emit/lower.rs`).
//!
//! The operators are those of wasmparser's `for_each_operator!` in the
//! proposals [`ssakit_wasm::operators`] accepts: the MVP, sign extension,
//! saturating float-to-int, bulk memory, reference types and SIMD
//! (mutable globals and multi-value have no operator of their own; the
//! hand-written function below returns two values). For each one:
//!
//! 1. its immediates are chosen ([`Imm`]: a memory argument with offset 4,
//!    lane 1, a shuffle pattern, NaN constants with a payload, index 0 of
//!    the module's table, memory, global, data and element segments);
//! 2. its operand types are found by trial: the first combination of
//!    `i32 i64 f32 f64 v128 funcref externref` (as many as the operator's
//!    fixed arity says) under which `local.get`s of the parameters and the
//!    operator validate, then the type of its result the same way;
//! 3. it becomes two exported functions: one with every operand a
//!    parameter, one with every integer operand a literal (`i32.const`,
//!    `i64.const`), which tests the lowering's literal widths.
//!
//! Operators with no fixed arity or whose immediates are control
//! (`block`, `br_table`, `call`, locals, ...) cannot be made that way:
//! they are in [`HAND`], and [`HAND_WAT`] uses each of them; the test
//! checks that the two lists together are exactly the accepted operators.
//!
//! The module is put through [`rewrite::optimize`] in every destruction
//! mode (`support/modes.rs`), the output validated, and every exported
//! function called on the original and on the output with four argument
//! vectors: the same results (floats and vectors by bits), the same traps
//! (by code), the same memory, global and table size after every call.

#[path = "support/modes.rs"]
mod modes;
#[path = "support/outcome.rs"]
mod outcome;

use outcome::{key, Outcome};
use ssakit_wasm::operators::{classify, mnemonic, Class};
use ssakit_wasm::rewrite;
use wasm_encoder::reencode::{Reencode, RoundtripReencoder};
use wasmi::{Engine, Extern, Linker, Store, Val};
use wasmparser::{
    BlockType, BrTable, HeapType, Ieee32, Ieee64, MemArg, MemArgTarget, Operator, ValType, V128,
};

/// An immediate of the operator's field named `field`, or `None` when it
/// is control (the operator is hand-written).
trait Imm: Sized {
    fn imm(field: &str) -> Option<Self>;
}

impl Imm for u32 {
    fn imm(_: &str) -> Option<Self> {
        // Every index (table, memory, global, data, element, function,
        // type) is 0: the module has one of each.
        Some(0)
    }
}
impl Imm for u8 {
    fn imm(_: &str) -> Option<Self> {
        // A lane: 1 exists in every shape (i64x2 has two).
        Some(1)
    }
}
impl Imm for i32 {
    fn imm(_: &str) -> Option<Self> {
        Some(-123_456)
    }
}
impl Imm for i64 {
    fn imm(_: &str) -> Option<Self> {
        Some(-0x1234_5678_9abc)
    }
}
impl Imm for Ieee32 {
    fn imm(_: &str) -> Option<Self> {
        // A signalling NaN with a payload: its bits must survive.
        Some(Ieee32::from(f32::from_bits(0x7fa0_0001)))
    }
}
impl Imm for Ieee64 {
    fn imm(_: &str) -> Option<Self> {
        Some(Ieee64::from(f64::from_bits(0x7ff4_0000_0000_0001)))
    }
}
impl Imm for [u8; 16] {
    fn imm(_: &str) -> Option<Self> {
        // Shuffle lanes: every one below 32, not the identity.
        Some(std::array::from_fn(|i| ((i * 7 + 3) % 32) as u8))
    }
}
impl Imm for V128 {
    fn imm(_: &str) -> Option<Self> {
        Some(V128::from(0x0123_4567_89ab_cdef_fedc_ba98_7654_3210u128))
    }
}
impl Imm for MemArg {
    fn imm(_: &str) -> Option<Self> {
        Some(MemArg {
            align: 0,
            max_align: 0,
            offset: 4,
            target: MemArgTarget::Memory(0),
            ordering: None,
        })
    }
}
impl Imm for HeapType {
    fn imm(_: &str) -> Option<Self> {
        Some(HeapType::FUNC)
    }
}
impl Imm for ValType {
    fn imm(_: &str) -> Option<Self> {
        // `select (result funcref)`: the typed form the emitter keeps.
        Some(ValType::FUNCREF)
    }
}
impl Imm for Vec<ValType> {
    fn imm(_: &str) -> Option<Self> {
        Some(vec![ValType::FUNCREF])
    }
}
impl Imm for BlockType {
    fn imm(_: &str) -> Option<Self> {
        None
    }
}
impl Imm for BrTable<'static> {
    fn imm(_: &str) -> Option<Self> {
        None
    }
}

/// One operator of an accepted proposal: the proposal, wasmparser's
/// visitor name, and the operator with its immediates (`None`: control).
type Entry = (&'static str, &'static str, Option<Operator<'static>>);

macro_rules! make_one {
    (accept $proposal:ident $op:ident $visit:ident $($arg:ident)*) => {
        Some((stringify!($proposal), stringify!($visit), {
            fn build() -> Option<Operator<'static>> {
                $( let $arg = Imm::imm(stringify!($arg))?; )*
                Some(Operator::$op { $($arg),* })
            }
            build()
        }))
    };
    (@mvp $($rest:tt)*) => { make_one!(accept mvp $($rest)*) };
    (@sign_extension $($rest:tt)*) => { make_one!(accept sign_extension $($rest)*) };
    (@saturating_float_to_int $($rest:tt)*) => { make_one!(accept saturating_float_to_int $($rest)*) };
    (@bulk_memory $($rest:tt)*) => { make_one!(accept bulk_memory $($rest)*) };
    (@reference_types $($rest:tt)*) => { make_one!(accept reference_types $($rest)*) };
    (@simd $($rest:tt)*) => { make_one!(accept simd $($rest)*) };
    (@$proposal:ident $op:ident $visit:ident $($arg:ident)*) => { None };
}

macro_rules! define_entries {
    ($( @$proposal:ident $op:ident $({ $($arg:ident: $argty:ty),* })? => $visit:ident ($($ann:tt)*) )*) => {
        /// Every operator of an accepted proposal, in wasmparser's order.
        fn entries() -> Vec<Entry> {
            let all: Vec<Option<Entry>> = vec![
                $( make_one!(@$proposal $op $visit $($($arg)*)?), )*
            ];
            all.into_iter().flatten().collect()
        }
    };
}

wasmparser::for_each_operator!(define_entries);

/// The operators [`HAND_WAT`] covers, by mnemonic.
const HAND: &[&str] = &[
    "block",
    "loop",
    "if",
    "else",
    "end",
    "br",
    "br.if",
    "br.table",
    "return",
    "call",
    "call_indirect",
    "local.get",
];

/// Accepted operators that no valid WebAssembly 2.0 module contains:
/// `select` with several types (WebAssembly 2.0 allows one).
const INVALID: &[&str] = &["typed.select_multi"];

/// The hand-written module: control flow, calls, locals, multi-value.
const HAND_WAT: &str = r#"(module
  (table (export "t") 4 funcref)
  (elem (i32.const 0) $sum)
  (global (export "g") (mut i64) (i64.const 5))
  (func $sum (export "h_sum") (param i32) (result i32) (local i32 i32)
    ;; loop, br_if, local.tee: 0 + 1 + ... + (n & 63)
    local.get 0 i32.const 63 i32.and local.set 1
    block
      loop
        local.get 1 i32.eqz br_if 1
        local.get 2 local.get 1 i32.add local.set 2
        local.get 1 i32.const 1 i32.sub local.tee 1
        br 0
      end
    end
    local.get 2)
  (func $pick (export "h_pick") (param i32 i64) (result i64)
    ;; br_table, if/else with a result, return, br_if with a value
    block
      block
        block
          local.get 0 br_table 0 1 2
        end
        local.get 1 i64.const 3 i64.mul return
      end
      local.get 0 if (result i64) local.get 1 else i64.const -1 end
      global.get 0 i64.add global.set 0
    end
    block (result i64)
      local.get 1 local.get 0 br_if 0 drop i64.const 77
    end)
  (func $two (export "h_two") (param i64 f64) (result f64 i64)
    ;; multi-value results and calls
    local.get 1 f64.const 0.5 f64.mul local.get 0 i64.const 1 i64.add)
  (func (export "h_call") (param i32 i64 f64) (result i64)
    local.get 0 call $sum i64.extend_i32_u
    local.get 0 local.get 2 i64.reinterpret_f64 call $pick i64.add
    local.get 1 local.get 2 call $two local.set 1 drop local.get 1 i64.add)
  (type $ii (func (param i32) (result i32)))
  (func (export "h_indirect") (param i32) (result i32)
    ;; table slot 0 holds $sum; the others are null and trap
    local.get 0 local.get 0 i32.const 3 i32.and call_indirect (type $ii))
  (func (export "h_trap") (param i32) (result i32)
    local.get 0 if unreachable end local.get 0))
"#;

/// The value types tried for operands and results.
const TYPES: [ValType; 7] = [
    ValType::I32,
    ValType::I64,
    ValType::F32,
    ValType::F64,
    ValType::V128,
    ValType::FUNCREF,
    ValType::EXTERNREF,
];

/// A literal for integer operand `k` of type `t` (small and positive for
/// addresses and lengths, negative for `i64`, to catch a wrong width).
fn literal(t: ValType, k: usize) -> Option<wasm_encoder::Instruction<'static>> {
    use wasm_encoder::Instruction as I;
    match t {
        ValType::I32 => Some(I::I32Const([8, 3, 5][k % 3])),
        ValType::I64 => Some(I::I64Const([-9, 3, 40][k % 3])),
        _ => None,
    }
}

/// A generated function: parameters, results and body.
struct Func {
    params: Vec<ValType>,
    results: Vec<ValType>,
    body: Vec<wasm_encoder::Instruction<'static>>,
}

/// `op` with operands `operands` (`None`: a parameter; `Some`: a literal)
/// and results `results`, dropped when `drop`.
fn func(
    op: &wasm_encoder::Instruction<'static>,
    operands: &[(ValType, bool)],
    results: &[ValType],
    drop: bool,
) -> Func {
    use wasm_encoder::Instruction as I;
    let mut params = Vec::new();
    let mut body = Vec::new();
    for (k, &(t, lit)) in operands.iter().enumerate() {
        match literal(t, k).filter(|_| lit) {
            Some(l) => body.push(l),
            None => {
                body.push(I::LocalGet(params.len() as u32));
                params.push(t);
            }
        }
    }
    body.push(op.clone());
    if drop {
        body.extend(results.iter().map(|_| I::Drop));
    }
    body.push(I::End);
    Func {
        params,
        results: if drop { vec![] } else { results.to_vec() },
        body,
    }
}

fn enc(t: ValType) -> wasm_encoder::ValType {
    RoundtripReencoder.val_type(t).unwrap()
}

/// The module of `funcs` (exported as `f0, f1, ...`) with one memory
/// (exported `mem`), a funcref table (`t`), a mutable `i32` global
/// (`g`), a passive and an active data segment, a passive and an active
/// element segment of function 0.
fn module(funcs: &[Func]) -> Vec<u8> {
    use wasm_encoder::{
        CodeSection, ConstExpr, DataCountSection, DataSection, ElementSection, Elements,
        ExportKind, ExportSection, Function, FunctionSection, GlobalSection, GlobalType,
        MemorySection, MemoryType, RefType, TableSection, TableType, TypeSection,
    };
    let mut types = TypeSection::new();
    let mut fsec = FunctionSection::new();
    let mut exports = ExportSection::new();
    let mut code = CodeSection::new();
    for (k, f) in funcs.iter().enumerate() {
        types.ty().function(
            f.params.iter().map(|&t| enc(t)),
            f.results.iter().map(|&t| enc(t)),
        );
        fsec.function(k as u32);
        exports.export(&format!("f{k}"), ExportKind::Func, k as u32);
        let mut body = Function::new([]);
        for i in &f.body {
            body.instruction(i);
        }
        code.function(&body);
    }
    let mut tables = TableSection::new();
    tables.table(TableType {
        element_type: RefType::FUNCREF,
        table64: false,
        minimum: 4,
        maximum: Some(10),
        shared: false,
    });
    let mut memories = MemorySection::new();
    memories.memory(MemoryType {
        minimum: 1,
        maximum: Some(4),
        memory64: false,
        shared: false,
        page_size_log2: None,
    });
    let mut globals = GlobalSection::new();
    globals.global(
        GlobalType {
            val_type: wasm_encoder::ValType::I32,
            mutable: true,
            shared: false,
        },
        &ConstExpr::i32_const(7),
    );
    exports.export("mem", ExportKind::Memory, 0);
    exports.export("t", ExportKind::Table, 0);
    exports.export("g", ExportKind::Global, 0);
    let mut elems = ElementSection::new();
    elems.passive(Elements::Functions([0].as_slice().into()));
    elems.active(
        None,
        &ConstExpr::i32_const(0),
        Elements::Functions([0].as_slice().into()),
    );
    let mut data = DataSection::new();
    data.passive(b"passive bytes, sixteen+".iter().copied());
    data.active(
        0,
        &ConstExpr::i32_const(0),
        (0..96u8).map(|b| b.wrapping_mul(37).wrapping_add(11)),
    );
    let mut m = wasm_encoder::Module::new();
    m.section(&types)
        .section(&fsec)
        .section(&tables)
        .section(&memories)
        .section(&globals)
        .section(&exports)
        .section(&elems)
        .section(&DataCountSection { count: 2 })
        .section(&code)
        .section(&data);
    m.finish()
}

/// Whether `bytes` validates as WebAssembly 2.0.
fn valid(bytes: &[u8]) -> bool {
    wasmparser::Validator::new_with_features(ssakit_wasm::module::features())
        .validate_all(bytes)
        .is_ok()
}

/// The functions that test `entry`: `None` when it is control or no
/// operand types validate.
fn functions_for(op: &Operator<'static>) -> Option<Vec<Func>> {
    let Class::Generic {
        arity: Some((n, m)),
        ..
    } = classify(op, &mut Vec::new())
    else {
        return None;
    };
    let (n, m) = (n as usize, m as usize);
    let inst = RoundtripReencoder.instruction(op.clone()).ok()?;
    let fits = |f: &Func| valid(&module(std::slice::from_ref(f)));
    // Operand types: the first combination that validates, results dropped.
    let mut operands = None;
    for code in 0..TYPES.len().pow(n as u32) {
        let ts: Vec<(ValType, bool)> = (0..n)
            .map(|k| (TYPES[code / TYPES.len().pow(k as u32) % TYPES.len()], false))
            .collect();
        if fits(&func(&inst, &ts, &vec![ValType::I32; m], true)) {
            operands = Some(ts);
            break;
        }
    }
    let operands = operands?;
    // Result types, one at a time (no accepted operator has more than one).
    let results: Vec<ValType> = match m {
        0 => vec![],
        1 => vec![*TYPES
            .iter()
            .find(|&&t| fits(&func(&inst, &operands, &[t], false)))?],
        _ => return None,
    };
    let mut out = vec![func(&inst, &operands, &results, false)];
    if operands.iter().any(|&(t, _)| literal(t, 0).is_some()) {
        let lits: Vec<(ValType, bool)> = operands.iter().map(|&(t, _)| (t, true)).collect();
        let f = func(&inst, &lits, &results, false);
        // (`local.set 0` of a literal has no local 0 left)
        if fits(&f) {
            out.push(f);
        }
    }
    Some(out)
}

/// Four argument vectors for `params`: zeros, small values, extreme
/// values, and mid-sized ones (addresses inside the memory).
fn argument_vectors(params: &[wasmi::ValType]) -> Vec<Vec<Val>> {
    use wasmi::ValType as T;
    (0..4)
        .map(|kind| {
            params
                .iter()
                .enumerate()
                .map(|(i, t)| match (t, kind) {
                    (T::I32, 0) => Val::I32(0),
                    (T::I32, 1) => Val::I32(i as i32 + 1),
                    (T::I32, 2) => Val::I32(if i % 2 == 0 { i32::MIN } else { -1 }),
                    (T::I32, _) => Val::I32(100 + 17 * i as i32),
                    (T::I64, 0) => Val::I64(0),
                    (T::I64, 1) => Val::I64(i as i64 + 2),
                    (T::I64, 2) => Val::I64(if i % 2 == 0 { i64::MAX } else { i64::MIN }),
                    (T::I64, _) => Val::I64(-(1 << 40) - 3 * i as i64),
                    (T::F32, 0) => Val::F32(0.0f32.into()),
                    (T::F32, 1) => Val::F32((1.5f32 + i as f32).into()),
                    (T::F32, 2) => Val::F32(f32::NEG_INFINITY.into()),
                    (T::F32, _) => Val::F32((-3.0e9f32).into()),
                    (T::F64, 0) => Val::F64(0.0f64.into()),
                    (T::F64, 1) => Val::F64((-2.25f64 + i as f64).into()),
                    (T::F64, 2) => Val::F64(f64::MAX.into()),
                    (T::F64, _) => Val::F64(1.0e10f64.into()),
                    (T::V128, 0) => Val::V128(0u128.into()),
                    (T::V128, 1) => Val::V128(
                        (0x0001_0203_0405_0607_0809_0a0b_0c0d_0e0fu128 + i as u128).into(),
                    ),
                    (T::V128, 2) => Val::V128(u128::MAX.into()),
                    (T::V128, _) => Val::V128(0x8000_0000_7f80_0000_c000_0001_3f80_0000u128.into()),
                    (t, _) => Val::default_for_ty(*t),
                })
                .collect()
        })
        .collect()
}

/// One call of the trace: the export, the arguments' index, the outcome
/// and a hash of the state after it (memory, global, table size).
type Step = (String, usize, Outcome, u64);

/// Runs every exported function of `bytes` on every argument vector, in
/// export order, in one instance.
fn trace(engine: &Engine, bytes: &[u8]) -> Vec<Step> {
    use std::hash::{Hash, Hasher};
    let module = wasmi::Module::new(engine, bytes).unwrap_or_else(|e| panic!("wasmi: {e}"));
    let mut store = Store::new(engine, ());
    let instance = <Linker<()>>::new(engine)
        .instantiate_and_start(&mut store, &module)
        .unwrap();
    let exports: Vec<(String, Extern)> = instance
        .exports(&store)
        .map(|e| (e.name().to_string(), e.into_extern()))
        .collect();
    let state = |store: &Store<()>| {
        let mut h = std::collections::hash_map::DefaultHasher::new();
        for (_, e) in &exports {
            match e {
                Extern::Memory(m) => m.data(store).hash(&mut h),
                Extern::Global(g) => key(&g.get(store)).hash(&mut h),
                Extern::Table(t) => t.size(store).hash(&mut h),
                Extern::Func(_) => {}
            }
        }
        h.finish()
    };
    let mut out = Vec::new();
    for (name, e) in &exports {
        let Extern::Func(f) = *e else { continue };
        let ty = f.ty(&store);
        for (k, args) in argument_vectors(ty.params()).iter().enumerate() {
            let mut results: Vec<Val> = ty
                .results()
                .iter()
                .map(|t| Val::default_for_ty(*t))
                .collect();
            let o = match f.call(&mut store, args, &mut results) {
                Ok(()) => Outcome::Values(results.iter().map(key).collect()),
                Err(e) => Outcome::Trap(format!("{:?}", e.as_trap_code())),
            };
            out.push((name.clone(), k, o, state(&store)));
        }
    }
    out
}

/// The generated module, what each of its functions tests (`f{k}` is
/// `names[k]`), and the mnemonics that had to be hand-written.
fn generated() -> (Vec<u8>, Vec<String>, Vec<String>) {
    let mut funcs = Vec::new();
    let mut names = Vec::new();
    let mut hand = Vec::new();
    for (_, visit, op) in entries() {
        let name = mnemonic(visit);
        match op.as_ref().and_then(functions_for) {
            Some(fs) => {
                for (k, f) in fs.into_iter().enumerate() {
                    names.push(format!("{name}{}", if k == 0 { "" } else { " (literals)" }));
                    funcs.push(f);
                }
            }
            None => hand.push(name),
        }
    }
    (module(&funcs), names, hand)
}

/// The generated and the hand-written functions cover every accepted
/// operator, proposal by proposal.
#[test]
fn every_accepted_operator_is_covered() {
    let (bytes, names, mut hand) = generated();
    assert!(valid(&bytes));
    hand.sort();
    hand.dedup();
    let mut want: Vec<String> = HAND.iter().chain(INVALID).map(|s| s.to_string()).collect();
    want.sort();
    assert_eq!(hand, want, "operators neither generated nor hand-written");
    let hand_wat = wat::parse_str(HAND_WAT).unwrap();
    let mut used = std::collections::BTreeSet::new();
    for payload in wasmparser::Parser::new(0).parse_all(&hand_wat) {
        if let wasmparser::Payload::CodeSectionEntry(body) = payload.unwrap() {
            let mut ops = body.get_operators_reader().unwrap();
            while !ops.eof() {
                let mut visit = "";
                if let Class::Generic { visit: v, .. } =
                    classify(&ops.read().unwrap(), &mut Vec::new())
                {
                    visit = v;
                }
                used.insert(mnemonic(visit));
            }
        }
    }
    for h in HAND {
        assert!(used.contains(*h), "HAND_WAT does not use `{h}`");
    }
    // Per proposal: operators, and functions generated for them.
    let mut table: Vec<(&str, usize, usize)> = Vec::new();
    for (p, visit, _) in entries() {
        let name = mnemonic(visit);
        let fs = names
            .iter()
            .filter(|n| n.split(' ').next() == Some(name.as_str()))
            .count();
        match table.iter_mut().find(|r| r.0 == p) {
            Some(r) => {
                r.1 += 1;
                r.2 += fs;
            }
            None => table.push((p, 1, fs)),
        }
    }
    for (p, ops, fs) in &table {
        eprintln!("{p}: {ops} operators, {fs} generated functions");
    }
    let simd = table.iter().find(|r| r.0 == "simd").unwrap();
    assert!(simd.1 > 200 && simd.2 >= simd.1, "{simd:?}");
    eprintln!(
        "{} generated functions, {} hand-written operators",
        names.len(),
        HAND.len()
    );
}

/// Every destruction mode: the output validates and every call behaves
/// as on the original.
#[test]
fn every_operator_round_trips_in_every_mode() {
    let (bytes, names, _) = generated();
    let hand = wat::parse_str(HAND_WAT).unwrap();
    let mut config = wasmi::Config::default();
    config.wasm_simd(true);
    let engine = Engine::new(&config);
    for (what, m) in [("generated", &bytes), ("hand-written", &hand)] {
        assert!(valid(m), "{what}");
        let want = trace(&engine, m);
        assert!(
            want.iter()
                .filter(|s| matches!(s.2, Outcome::Values(_)))
                .count()
                * 2
                > want.len()
        );
        for (mode, options) in modes::modes() {
            let out = rewrite::optimize(m, &options)
                .unwrap_or_else(|e| panic!("{what}, {mode}: {e}"))
                .bytes;
            assert!(valid(&out), "{what}, {mode}: the output does not validate");
            let got = trace(&engine, &out);
            assert_eq!(want.len(), got.len());
            for (w, g) in want.iter().zip(&got) {
                let op =
                    w.0.strip_prefix('f')
                        .and_then(|k| k.parse::<usize>().ok())
                        .map_or(w.0.as_str(), |k| names[k].as_str());
                assert_eq!(
                    w.2, g.2,
                    "{what}, {mode}: `{op}` ({}) on arguments {}",
                    w.0, w.1
                );
                assert_eq!(
                    w.3, g.3,
                    "{what}, {mode}: the state after `{op}` ({}) on arguments {}",
                    w.0, w.1
                );
            }
            eprintln!("{what}, {mode}: {} calls alike", got.len());
        }
    }
}
