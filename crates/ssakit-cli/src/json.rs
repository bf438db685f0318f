//! `--format text|json`: the machine-readable reports of `check`,
//! `analyze`, `--stats`, `--time-passes`, `wasm stats`, `x86 stats` and
//! `x86 lift`, and their JSON schema, the only one: no subcommand builds
//! JSON by hand.
//!
//! The types here *are* the schema, documented field by field in
//! docs/cli.md ("Machine-readable output"; the x86 ones in docs/x86.md):
//! serde writes their fields in declaration order, under these names. Blocks are named by their labels,
//! variables by their printed names, sets and lists are in the order the
//! text reports use. A field is only ever added, never renamed or removed,
//! so scripts and autograders can rely on it.

use crate::exit::Failed;
use crate::input::{self, Source};
use crate::out::{Out, OutputArg};
use serde::Serialize;
use ssakit::analysis::report;
use ssakit::error::IrError;
use ssakit::ir::{Block, Function, Var, VarNames};
use ssakit::pipeline::{Stage, FLAVORS};
use ssakit::text::FunctionSpans;
use ssakit::timing::PassTimes;

/// Output format of a report.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, clap::ValueEnum)]
pub enum Format {
    /// Lines for people (the default).
    #[default]
    Text,
    /// One JSON document (schema in docs/cli.md).
    Json,
}

/// `--format text|json`, for the subcommands with a report.
#[derive(clap::Args, Clone, Copy, Debug)]
pub struct FormatArg {
    /// The format of the report: `text`, or `json` (one JSON document; for
    /// `--stats` and `--time-passes`, on standard error).
    #[arg(long, value_enum, default_value = "text")]
    pub format: Format,
}

impl FormatArg {
    /// Whether JSON was asked for.
    pub fn json(self) -> bool {
        self.format == Format::Json
    }
}

/// `--format` and `-o` of the subcommands whose output is a report:
/// `check`, `analyze`, `wasm stats` and `x86 stats`.
#[derive(clap::Args)]
pub struct ReportArgs {
    /// The format of the report: `text`, or `json` (one JSON document).
    #[arg(long, value_enum, default_value = "text")]
    pub format: Format,
    #[command(flatten)]
    pub output: OutputArg,
}

impl ReportArgs {
    /// Whether JSON was asked for.
    pub fn json(&self) -> bool {
        self.format == Format::Json
    }
}

/// `value` as pretty-printed JSON and a newline.
pub fn to_string<T: Serialize>(value: &T) -> String {
    let mut s = serde_json::to_string_pretty(value).expect("reports serialise");
    s.push('\n');
    s
}

/// `doc` (pretty JSON from [`to_string`]) with the empty array of its
/// top-level key `key` replaced by `records`, each already indented as
/// an element at depth two: the text the pretty printer would have given
/// with the elements in place.
pub fn splice_array(doc: String, key: &str, records: &[String]) -> String {
    if records.is_empty() {
        return doc;
    }
    let empty = format!("\n  \"{key}\": []");
    let at = doc.find(&empty).expect("the key's empty array") + empty.len() - 1;
    let body: usize = records.iter().map(|r| r.len() + 2).sum();
    let mut out = String::with_capacity(doc.len() + body + 4);
    out.push_str(&doc[..at]);
    out.push('\n');
    out.push_str(&records.join(",\n"));
    out.push_str("\n  ");
    out.push_str(&doc[at..]);
    out
}

/// Writes `value` as JSON to `out`.
pub fn write<T: Serialize>(out: &mut Out, value: &T) -> Result<(), Failed> {
    out.write_str(&to_string(value))
}

// ---- check ----

/// `ssakit check --format json`.
#[derive(Serialize)]
pub struct Check {
    /// One entry per function, in module order.
    pub functions: Vec<CheckedFunction>,
}

/// The verdict on one function.
#[derive(Serialize)]
pub struct CheckedFunction {
    /// The function's name.
    pub name: String,
    /// Valid SSA with the dominance property.
    pub valid: bool,
    /// Every error found (empty when valid).
    pub errors: Vec<Located>,
    /// The chapter's properties (null when not valid).
    pub properties: Option<Properties>,
}

/// An error with where it is.
#[derive(Serialize)]
pub struct Located {
    /// What is wrong.
    pub message: String,
    /// The block concerned, if any.
    pub block: Option<String>,
    /// The input's name (`<stdin>` for standard input).
    pub file: String,
    /// 1-based line, if the error has a place in the source.
    pub line: Option<usize>,
    /// 1-based column (in characters), with `line`.
    pub column: Option<usize>,
}

impl Located {
    /// `e`, located in `src` through the parser's spans of `f` (linear in
    /// the errors: no search by name, lines found in the source's index).
    pub fn new(src: &Source, spans: Option<&FunctionSpans>, f: &Function, e: &IrError) -> Located {
        let at = spans
            .and_then(|s| input::ir_span_in(src, s, e))
            .map(|s| src.line_index().line_col(&src.text, s.start));
        Located {
            message: e.message.clone(),
            block: e.block.map(|b| f.block_name(b).to_string()),
            file: src.name.clone(),
            line: at.map(|a| a.0),
            column: at.map(|a| a.1),
        }
    }
}

/// [`ssakit::verify::Report`] with names.
#[derive(Serialize)]
pub struct Properties {
    /// Number of phis.
    pub phis: usize,
    /// Every phi at an iterated dominance frontier, one per block.
    pub minimal: bool,
    /// No dead phi.
    pub pruned: bool,
    /// No interference inside a phi web (constant phi operands counted,
    /// see [`ssakit::verify::ConstantConflict`]).
    pub conventional: bool,
    /// No `undef` operand.
    pub strict: bool,
    /// Destinations of the phis that make it not minimal.
    pub non_minimal_phis: Vec<String>,
    /// Destinations of the dead phis.
    pub dead_phis: Vec<String>,
    /// Two interfering variables of one phi web, or null.
    pub interference: Option<[String; 2]>,
    /// A constant phi operand interfering with its web, in words; absent if
    /// none.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub constant_conflict: Option<String>,
    /// Number of `undef` operands.
    pub undef_operands: usize,
}

impl Properties {
    /// The report of `f` with its variables named.
    pub fn new(f: &Function, r: &ssakit::verify::Report) -> Properties {
        let names = VarNames::new(f);
        let dests = |insts: &[ssakit::ir::Inst]| -> Vec<String> {
            insts
                .iter()
                .filter_map(|&i| f.def(i))
                .map(|v| names.get(v).to_string())
                .collect()
        };
        Properties {
            phis: r.phis,
            minimal: r.minimal(),
            pruned: r.pruned(),
            conventional: r.conventional(),
            strict: r.strict(),
            non_minimal_phis: dests(&r.non_minimal_phis),
            dead_phis: dests(&r.dead_phis),
            interference: r
                .interference
                .map(|(a, b)| [names.get(a).to_string(), names.get(b).to_string()]),
            constant_conflict: r.constant_conflict.map(|c| c.describe(f)),
            undef_operands: r.undef_operands,
        }
    }
}

// ---- analyze ----

/// `ssakit analyze --format json`: the analyses asked for, the others
/// absent.
#[derive(Serialize, Default)]
pub struct Analysis {
    /// The function analysed.
    pub function: String,
    /// `--dom`: each block's immediate dominator, in layout order.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub dom: Option<Vec<DomEntry>>,
    /// `--dj`: the DJ-graph's edges.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub dj: Option<DjEdges>,
    /// `--df`: each block's dominance frontier, in layout order.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub df: Option<Vec<DfEntry>>,
    /// `--idf VAR`: VAR's definition blocks and their DF+.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub idf: Option<IdfEntry>,
    /// `--live`: each block's live-in and live-out variables.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub live: Option<Vec<LiveEntry>>,
}

/// A block and its immediate dominator (its parent in the tree).
#[derive(Serialize)]
pub struct DomEntry {
    /// The block.
    pub block: String,
    /// Its immediate dominator; null for the entry and unreachable blocks.
    pub idom: Option<String>,
    /// Whether the entry reaches it.
    pub reachable: bool,
}

/// An edge between two blocks.
#[derive(Serialize)]
pub struct EdgeEntry {
    /// Source block.
    pub from: String,
    /// Target block.
    pub to: String,
}

/// The DJ-graph.
#[derive(Serialize)]
pub struct DjEdges {
    /// Dominator-tree edges `idom(b) → b`, by source then target in layout
    /// order.
    pub d_edges: Vec<EdgeEntry>,
    /// Join edges: CFG edges whose source does not strictly dominate their
    /// target, in the same order.
    pub j_edges: Vec<EdgeEntry>,
}

/// A block's dominance frontier.
#[derive(Serialize)]
pub struct DfEntry {
    /// The block.
    pub block: String,
    /// DF(block), in layout order.
    pub df: Vec<String>,
}

/// A variable's definition blocks and their iterated dominance frontier.
#[derive(Serialize)]
pub struct IdfEntry {
    /// The variable.
    pub var: String,
    /// Blocks defining it (the entry for a parameter), in layout order.
    pub defs: Vec<String>,
    /// DF+(defs): where minimal SSA puts its phis, in layout order.
    pub idf: Vec<String>,
}

/// A block's liveness.
#[derive(Serialize)]
pub struct LiveEntry {
    /// The block.
    pub block: String,
    /// Variables live at its start, in variable order.
    pub live_in: Vec<String>,
    /// Variables live at its end, in variable order.
    pub live_out: Vec<String>,
}

/// Names of blocks and variables of one function, for the analyses.
pub struct Namer<'a> {
    f: &'a Function,
    vars: VarNames,
}

impl<'a> Namer<'a> {
    /// The names of `f`.
    pub fn new(f: &'a Function) -> Self {
        Namer {
            f,
            vars: VarNames::new(f),
        }
    }

    fn block(&self, b: Block) -> String {
        self.f.block_name(b).to_string()
    }

    fn blocks(&self, bs: &[Block]) -> Vec<String> {
        bs.iter().map(|&b| self.block(b)).collect()
    }

    fn vars(&self, vs: &[Var]) -> Vec<String> {
        vs.iter().map(|&v| self.vars.get(v).to_string()).collect()
    }

    /// `--dom`.
    pub fn dom(&self) -> Vec<DomEntry> {
        report::dom_rows(self.f)
            .into_iter()
            .map(|r| DomEntry {
                block: self.block(r.block),
                idom: r.idom.map(|d| self.block(d)),
                reachable: r.reachable,
            })
            .collect()
    }

    /// `--dj`.
    pub fn dj(&self) -> DjEdges {
        let (d, j) = report::dj_edges(self.f);
        let edges = |v: Vec<(Block, Block)>| -> Vec<EdgeEntry> {
            v.into_iter()
                .map(|(a, b)| EdgeEntry {
                    from: self.block(a),
                    to: self.block(b),
                })
                .collect()
        };
        DjEdges {
            d_edges: edges(d),
            j_edges: edges(j),
        }
    }

    /// `--df`.
    pub fn df(&self) -> Vec<DfEntry> {
        report::df_rows(self.f)
            .into_iter()
            .map(|(b, df)| DfEntry {
                block: self.block(b),
                df: self.blocks(&df),
            })
            .collect()
    }

    /// `--idf VAR`.
    pub fn idf(&self, v: Var) -> IdfEntry {
        let (defs, idf) = report::idf_sets(self.f, v);
        IdfEntry {
            var: self.vars.get(v).to_string(),
            defs: self.blocks(&defs),
            idf: self.blocks(&idf),
        }
    }

    /// `--live`.
    pub fn live(&self) -> Vec<LiveEntry> {
        report::live_rows(self.f)
            .into_iter()
            .map(|(b, i, o)| LiveEntry {
                block: self.block(b),
                live_in: self.vars(&i),
                live_out: self.vars(&o),
            })
            .collect()
    }
}

// ---- wasm stats ----
//
// `ssakit wasm stats --format json`. Its keys are in alphabetical order
// (the order of its first version), so these fields are declared in it.

/// `ssakit wasm stats --format json`.
#[derive(Serialize)]
pub struct WasmStats {
    /// Functions with a body (failed ones included).
    pub defined: usize,
    /// The functions the pipeline failed on.
    pub failures: Vec<WasmFailure>,
    /// One record per function that went through, in module order.
    pub functions: Vec<WasmCounts>,
    /// Imported functions.
    pub imported: u32,
    /// The input's name.
    pub module: String,
    /// The passes run, by name.
    pub passes: Vec<&'static str>,
    /// Threads of the parallel loop.
    pub threads: usize,
    /// The sums over functions (no index, no name).
    pub total: WasmCounts,
    /// Wall time of the module, in seconds.
    pub wall: f64,
}

/// A function the pipeline failed on.
#[derive(Serialize)]
pub struct WasmFailure {
    /// Its index (imports counted).
    pub index: u32,
    /// What went wrong.
    pub message: String,
    /// Its name.
    pub name: String,
    /// The stage that failed.
    pub stage: String,
}

/// The figures of one function, or of the module (`total`).
#[derive(Serialize)]
pub struct WasmCounts {
    /// Blocks lifted.
    pub blocks: usize,
    /// Copies left by destruction (null with `--no-destruct`).
    pub copies_after_destruct: Option<usize>,
    /// Copies the lifter made (`local.get`/`local.set` pairs and the like).
    pub copies_lifted: usize,
    /// The function's index (imports counted); absent in `total`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub index: Option<u32>,
    /// Instructions lifted.
    pub instructions: usize,
    /// Locals (parameters aside).
    pub locals: usize,
    /// The function's name; absent in `total`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    /// Phis per flavour (null for a flavour not constructed).
    pub phis: Flavours<Option<usize>>,
    /// Seconds per stage.
    pub times: WasmTimes,
}

/// One value per SSA flavour.
#[derive(Serialize)]
pub struct Flavours<T> {
    /// Minimal SSA.
    pub minimal: T,
    /// Pruned SSA.
    pub pruned: T,
    /// Semi-pruned SSA.
    #[serde(rename = "semi-pruned")]
    pub semi_pruned: T,
}

impl<T: Copy> Flavours<T> {
    /// From the pipeline's order: minimal, semi-pruned, pruned.
    pub fn new(v: [T; 3]) -> Self {
        Flavours {
            minimal: v[0],
            pruned: v[2],
            semi_pruned: v[1],
        }
    }
}

/// Seconds per stage of one function (summed for `total`).
#[derive(Serialize)]
pub struct WasmTimes {
    /// Construction per flavour (null for a flavour not constructed).
    pub construct: Flavours<Option<f64>>,
    /// Destruction.
    pub destruct: f64,
    /// Lifting.
    pub lift: f64,
    /// The passes.
    pub passes: f64,
    /// Verification.
    pub verify: f64,
}

impl WasmCounts {
    /// The record of `f` (`named`: its index and name, else none, for
    /// `total`).
    pub fn new(f: &ssakit_wasm::pipeline::FunctionStats, named: Option<&str>) -> WasmCounts {
        let t = &f.times;
        let built = |k: usize| {
            let flavor = FLAVORS[k];
            f.phis
                .get(flavor)
                .map(|_| t.seconds(Stage::Construct(flavor).phase()))
        };
        WasmCounts {
            blocks: f.blocks,
            copies_after_destruct: f.copies,
            copies_lifted: f.copies_lifted,
            index: named.map(|_| f.index),
            instructions: f.insts,
            locals: f.locals,
            name: named.map(str::to_string),
            phis: Flavours::new(f.phis.to_array()),
            times: WasmTimes {
                construct: Flavours::new([built(0), built(1), built(2)]),
                destruct: t.seconds(Stage::Destruct.phase()),
                lift: t.seconds("lift"),
                passes: t.seconds(Stage::Opt.phase()),
                verify: t.seconds(Stage::Verify(FLAVORS[0]).phase()),
            },
        }
    }
}

// ---- x86 stats and x86 lift ----
//
// `ssakit x86 stats --format json` and `ssakit x86 lift --format json`
// (docs/x86.md). Their keys are in alphabetical order too (the order of
// their first version), so these fields are declared in it.

/// `ssakit x86 stats --format json`.
#[derive(Serialize)]
pub struct X86Stats {
    /// The input's name.
    pub binary: String,
    /// The functions the pipeline failed on.
    pub failures: Vec<X86Failure>,
    /// One record per function that went through.
    pub functions: Vec<X86Counts>,
    /// The functions by origin, with discovery (absent with
    /// `--no-discover`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub functions_found: Option<X86Found>,
    /// Code in no function's extent (not lifted: no function covers it).
    pub outside_functions: X86Outside,
    /// The passes run, by name.
    pub passes: Vec<&'static str>,
    /// Threads of the parallel loop.
    pub threads: usize,
    /// The sums over functions (no address, no name).
    pub total: X86Counts,
    /// Wall time of the binary, in seconds.
    pub wall: f64,
}

/// The executable bytes in no function's extent, padding apart
/// (`ssakit_x86::lost::Outside`).
#[derive(Serialize)]
pub struct X86Outside {
    /// Bytes in no extent that are not padding.
    pub bytes: u64,
    /// Bytes of the executable sections, the PLT apart.
    pub executable: u64,
    /// Instructions in them, decoded linearly.
    pub instructions: usize,
    /// Maximal ranges of them.
    pub ranges: usize,
}

/// The functions by where they were found (`ssakit_x86::binary::Origin`),
/// and the discovery's rejected candidates.
#[derive(Serialize)]
pub struct X86Found {
    /// Whether discovery's decoding budget ran out (candidates untried).
    pub budget_exhausted: bool,
    /// Targets of direct calls.
    pub call: usize,
    /// `e_entry`, `.init`, `.fini`.
    pub entry: usize,
    /// `.eh_frame` FDEs no symbol covers.
    pub fde: usize,
    /// Code after padding between extents.
    pub gap: usize,
    /// Code addresses stored in data.
    pub pointer: usize,
    /// Pointers and gap starts whose control flow was not plausible.
    pub rejected: usize,
    /// Symbols.
    pub symbol: usize,
}

/// A function the pipeline failed on.
#[derive(Serialize)]
pub struct X86Failure {
    /// Its start address, `0x...`.
    pub address: String,
    /// What went wrong.
    pub message: String,
    /// Its name.
    pub name: String,
    /// The stage that failed.
    pub stage: String,
}

/// The figures of one function, or of the binary (`total`).
#[derive(Serialize)]
pub struct X86Counts {
    /// The function's start address, `0x...`; absent in `total`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub address: Option<String>,
    /// Blocks.
    pub blocks: usize,
    /// Copies left by destruction (null with `--no-destruct`).
    pub copies_after_destruct: Option<usize>,
    /// Where the function was found (`symbol`, `fde`, `entry`, `call`,
    /// `pointer`, `gap`); absent in `total` and with `--no-discover`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub found: Option<&'static str>,
    /// Of the instructions decoded, those in cold fragments other
    /// functions' FDEs delimit (GCC's `.cold` parts, walked as part of
    /// the function that jumps there); absent when none.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub fragment_instructions: Option<usize>,
    /// Machine instructions decoded.
    pub instructions: usize,
    /// Calls with a landing pad (edges to `.gcc_except_table`'s pads).
    pub invokes: usize,
    /// Jump tables resolved.
    pub jump_tables: usize,
    /// The code of the extent never decoded (padding apart).
    pub lost: X86Lost,
    /// With `--semantics`, the flag definitions of the instructions'
    /// meaning, before the lift left out those their block overwrites
    /// unread (the "before" of `passes.*.after.flag_defs`); absent
    /// otherwise.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub meaning_flag_defs: Option<usize>,
    /// The function's name; absent in `total`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    /// With `--semantics`, the operations left opaque; absent otherwise.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub opaque: Option<X86Opaque>,
    /// With `--semantics` and `--passes`, each flavour before and after
    /// the passes (null for a flavour not constructed); absent otherwise.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub passes: Option<Flavours<Option<X86Passes>>>,
    /// Phis per flavour, by kind of location (null for a flavour not
    /// constructed).
    pub phis: Flavours<Option<X86Phis>>,
    /// With `--stack`, the frame: where the `rsp` offset is lost, the
    /// accesses promoted and left; absent otherwise.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub stack: Option<X86Stack>,
    /// With `--signatures`, the function's signature; absent otherwise
    /// (and in `total`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub signature: Option<X86Signature>,
    /// Seconds per stage.
    pub times: X86Times,
}

/// One function's signature (`x86 stats --signatures`): the locations
/// by name, in the model's order.
#[derive(Serialize)]
pub struct X86Signature {
    /// Whether it is the convention's (a function of a call-graph cycle,
    /// or one whose analysis failed).
    pub fallback: bool,
    /// The registers and flags whose entry value it uses.
    pub params: Vec<String>,
    /// The locations holding their entry value at every return.
    pub preserved: Vec<String>,
    /// The registers it returns a value in.
    pub results: Vec<String>,
    /// The words of the caller's frame it reads (offsets from the entry
    /// `rsp`), with `--stack`.
    pub stack_params: Vec<i64>,
    /// Of the parameters, the argument registers a variadic function
    /// only saves for `va_arg`: those past its named parameters.
    pub unnamed: Vec<String>,
}

impl From<&ssakit_x86::signature::Signature> for X86Signature {
    fn from(s: &ssakit_x86::signature::Signature) -> X86Signature {
        let names = |l: ssakit_x86::regs::LocSet| l.iter().map(|l| l.name().to_string()).collect();
        X86Signature {
            fallback: s.fallback,
            params: names(s.params),
            preserved: names(s.preserved),
            results: names(s.results),
            stack_params: s.stack_params.clone(),
            unnamed: names(s.unnamed),
        }
    }
}

/// Code never decoded: of one function (with its ranges) or of the
/// binary (with the functions that lost code and the sums per reason).
#[derive(Serialize)]
pub struct X86Lost {
    /// Bytes lost.
    pub bytes: u64,
    /// In `total`, bytes and instructions per reason
    /// (`unresolved-jump`, `data-in-code`, `unreachable`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub by_reason: Option<std::collections::BTreeMap<&'static str, X86LostCount>>,
    /// In `total`, bytes and instructions after unresolved jumps per
    /// kind (`table-unbounded`, `table-unknown-base`, `pointer`,
    /// `computed`, `bad-table`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub by_jump_kind: Option<std::collections::BTreeMap<&'static str, X86LostCount>>,
    /// In `total`, the functions that lost code.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub functions: Option<usize>,
    /// Instructions lost (decoded linearly).
    pub instructions: usize,
    /// Of a function, its lost ranges in address order.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub ranges: Option<Vec<X86LostRange>>,
}

/// Bytes and instructions lost for one reason.
#[derive(Serialize)]
pub struct X86LostCount {
    /// Bytes.
    pub bytes: u64,
    /// Instructions.
    pub instructions: usize,
}

/// One range of an extent never decoded.
#[derive(Serialize)]
pub struct X86LostRange {
    /// One past its last byte, `0x...`.
    pub end: String,
    /// Instructions in it (decoded linearly).
    pub instructions: usize,
    /// For `unresolved-jump`, the address of the jump, `0x...`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub jump: Option<String>,
    /// For `unresolved-jump`, what the slice saw (`table-unbounded`,
    /// `table-unknown-base`, `pointer`, `computed`, `bad-table`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub kind: Option<&'static str>,
    /// `unresolved-jump`, `data-in-code` or `unreachable`.
    pub reason: &'static str,
    /// Its first byte, `0x...`.
    pub start: String,
}

impl X86LostRange {
    /// The record of `r`.
    pub fn new(r: &ssakit_x86::lost::LostRange) -> X86LostRange {
        X86LostRange {
            end: format!("{:#x}", r.end),
            instructions: r.instructions,
            jump: match r.reason {
                ssakit_x86::lost::Reason::UnresolvedJump(a, _) => Some(format!("{a:#x}")),
                _ => None,
            },
            kind: match r.reason {
                ssakit_x86::lost::Reason::UnresolvedJump(_, k) => Some(k.key()),
                _ => None,
            },
            reason: r.reason.key(),
            start: format!("{:#x}", r.start),
        }
    }
}

impl X86Lost {
    /// The lost code of one function, with its ranges.
    pub fn of_function(ranges: &[ssakit_x86::lost::LostRange]) -> X86Lost {
        X86Lost {
            bytes: ranges.iter().map(|r| r.bytes()).sum(),
            by_reason: None,
            by_jump_kind: None,
            functions: None,
            instructions: ranges.iter().map(|r| r.instructions).sum(),
            ranges: Some(ranges.iter().map(X86LostRange::new).collect()),
        }
    }

    /// The lost code of a binary.
    pub fn of_totals(t: &ssakit_x86::lost::LostTotals) -> X86Lost {
        let count = |(&k, (bytes, instructions)): (&&'static str, (u64, usize))| {
            (
                k,
                X86LostCount {
                    bytes,
                    instructions,
                },
            )
        };
        let by_reason = ssakit_x86::lost::Reason::KEYS
            .iter()
            .zip(t.by_reason)
            .map(count)
            .collect();
        let kinds = ssakit_x86::cfg::JumpKind::ALL.map(|k| k.key());
        let by_jump_kind = kinds.iter().zip(t.by_jump_kind).map(count).collect();
        X86Lost {
            bytes: t.bytes,
            by_reason: Some(by_reason),
            by_jump_kind: Some(by_jump_kind),
            functions: Some(t.functions),
            instructions: t.instructions,
            ranges: None,
        }
    }
}

/// The stack frame of one function, or summed (`x86 stats --stack`).
#[derive(Serialize)]
pub struct X86Stack {
    /// Accesses left in memory, by reason.
    pub left: std::collections::BTreeMap<&'static str, usize>,
    /// Where the `rsp` offset is first lost (`0x...`, null at a point
    /// of no machine instruction); absent when kept, and in `total`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub lost_at: Option<Option<String>>,
    /// Why it is lost; absent when kept, and in `total`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub lost_reason: Option<&'static str>,
    /// Accesses promoted to slot variables.
    pub promoted: usize,
    /// Slots promoted.
    pub slots: usize,
    /// Promoted stores kept in memory for a call's stack arguments.
    pub written_through: usize,
}

impl From<&ssakit_x86::slots::Promotion> for X86Stack {
    fn from(p: &ssakit_x86::slots::Promotion) -> X86Stack {
        X86Stack {
            left: ssakit_x86::slots::Left::ALL
                .iter()
                .zip(p.left)
                .map(|(w, k)| (w.name(), k))
                .collect(),
            lost_at: p.lost.map(|l| l.address.map(|a| format!("{a:#x}"))),
            lost_reason: p.lost.map(|l| l.reason.name()),
            promoted: p.promoted,
            slots: p.slots,
            written_through: p.written_through,
        }
    }
}

/// The size of one SSA form (`x86 stats --semantics --passes`).
#[derive(Serialize, Clone, Copy)]
pub struct X86Size {
    /// Definitions of flags (phis included).
    pub flag_defs: usize,
    /// Instructions other than phis.
    pub operations: usize,
    /// Phis.
    pub phis: usize,
}

impl From<ssakit_x86::pipeline::Size> for X86Size {
    fn from(s: ssakit_x86::pipeline::Size) -> X86Size {
        X86Size {
            flag_defs: s.flag_defs,
            operations: s.operations,
            phis: s.phis,
        }
    }
}

/// One flavour before and after the passes.
#[derive(Serialize, Clone, Copy)]
pub struct X86Passes {
    /// After the passes.
    pub after: X86Size,
    /// Before them.
    pub before: X86Size,
}

/// The operations `x86 stats --semantics` leaves opaque (`x86.MNEMONIC`).
#[derive(Serialize)]
pub struct X86Opaque {
    /// All of them, by mnemonic.
    pub all: std::collections::BTreeMap<String, usize>,
    /// Those of instructions that use no vector or x87 register, by
    /// mnemonic.
    pub no_vector: std::collections::BTreeMap<String, usize>,
    /// Instructions that use a vector or x87 register.
    pub vector_instructions: usize,
}

/// The phis of one flavour, by kind of location.
#[derive(Serialize, Clone, Copy)]
pub struct X86Phis {
    /// Phis of flags.
    pub flags: usize,
    /// Phis of general registers.
    pub registers: usize,
    /// Phis of vector registers.
    pub vectors: usize,
    /// With `--stack`, phis of stack slot variables; absent otherwise.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub slots: Option<usize>,
}

/// Seconds per stage of one function (summed for `total`).
#[derive(Serialize)]
pub struct X86Times {
    /// Construction per flavour (null for a flavour not constructed).
    pub construct: Flavours<Option<f64>>,
    /// Decoding and control-flow recovery.
    pub decode: f64,
    /// Destruction.
    pub destruct: f64,
    /// Lifting.
    pub lift: f64,
    /// The passes.
    pub passes: f64,
    /// Verification.
    pub verify: f64,
}

impl X86Counts {
    /// The record of `f`, its flavour `k` counted if `built(k)` (`named`:
    /// with its address and name, else without, for `total`; `semantics`:
    /// with the opaque operations).
    pub fn new(
        f: &ssakit_x86::pipeline::FunctionStats,
        built: impl Fn(usize) -> bool,
        named: bool,
        semantics: bool,
    ) -> X86Counts {
        let t = &f.times;
        let phis = |k: usize| {
            let p = f.phis.get(FLAVORS[k]).copied().unwrap_or_default();
            built(k).then_some(X86Phis {
                flags: p.flags,
                registers: p.registers,
                vectors: p.vectors,
                slots: f.stack.is_some().then_some(p.slots),
            })
        };
        let construct =
            |k: usize| built(k).then(|| t.seconds(Stage::Construct(FLAVORS[k]).phase()));
        X86Counts {
            address: named.then(|| format!("{:#x}", f.address)),
            blocks: f.blocks,
            copies_after_destruct: f.copies,
            found: None,
            fragment_instructions: (f.fragment_instructions > 0).then_some(f.fragment_instructions),
            instructions: f.instructions,
            invokes: f.invokes,
            jump_tables: f.jump_tables,
            lost: X86Lost::of_function(&f.lost),
            meaning_flag_defs: semantics.then_some(f.meaning_flag_defs),
            name: named.then(|| f.name.clone()),
            passes: f.passes.iter().next().is_some().then(|| {
                let p = |k: usize| {
                    f.passes.get(FLAVORS[k]).map(|&[b, a]| X86Passes {
                        after: a.into(),
                        before: b.into(),
                    })
                };
                Flavours::new([p(0), p(1), p(2)])
            }),
            opaque: semantics.then(|| X86Opaque {
                all: f.opaque.clone(),
                no_vector: f.opaque_scalar.clone(),
                vector_instructions: f.vector_instructions,
            }),
            phis: Flavours::new([phis(0), phis(1), phis(2)]),
            stack: f.stack.as_ref().map(X86Stack::from),
            signature: f.signature.as_ref().map(X86Signature::from),
            times: X86Times {
                construct: Flavours::new([construct(0), construct(1), construct(2)]),
                decode: t.seconds("decode"),
                destruct: t.seconds(Stage::Destruct.phase()),
                lift: t.seconds("lift"),
                passes: t.seconds(Stage::Opt.phase()),
                verify: t.seconds(Stage::Verify(FLAVORS[0]).phase()),
            },
        }
    }
}

/// `ssakit x86 lift --format json`: what the emulator oracle
/// (scripts/x86-emu-oracle.py) needs to follow the CPU through the IR.
/// `F` serialises as a list of [`X86Function`]: the command lifts and
/// writes the functions a few at a time as the list is written, so the
/// document is never whole in memory.
#[derive(Serialize)]
pub struct X86Lift<F: Serialize> {
    /// The input's name.
    pub binary: String,
    /// The functions lifted, in the order asked for.
    pub functions: F,
    /// The SSA flavour with `--construct`, else null.
    pub ssa: Option<&'static str>,
}

/// One lifted function; `B` serialises as a list of [`X86Block`] (made
/// one at a time as they are written).
#[derive(Serialize)]
pub struct X86Function<B: Serialize> {
    /// Its start address, `0x...`.
    pub address: String,
    /// Its blocks, in layout order.
    pub blocks: B,
    /// The address after its last byte, `0x...`.
    pub end: String,
    /// Its name in the program printed.
    pub label: String,
    /// The ranges of its extent never decoded (padding apart).
    pub lost: Vec<X86LostRange>,
    /// Its symbol's name.
    pub name: String,
    /// Its parameters' printed names.
    pub params: Vec<String>,
}

/// One block of a lifted function.
#[derive(Serialize)]
pub struct X86Block {
    /// Its machine address, or null for a block of the lifter's own.
    pub address: Option<String>,
    /// Its instructions.
    pub instructions: Vec<X86Inst>,
    /// Its label.
    pub label: String,
    /// Its phis.
    pub phis: Vec<X86Phi>,
    /// Its terminator.
    pub terminator: X86Terminator,
}

/// A phi: the register it merges, its value and its operands, each
/// `[predecessor, value]`.
#[derive(Serialize)]
pub struct X86Phi {
    /// `[predecessor's label, value]` per operand.
    pub args: Vec<(String, ValueName)>,
    /// The value defined.
    pub def: String,
    /// The register (the variable's name before construction).
    pub register: String,
}

/// One instruction of a lifted block.
#[derive(Serialize)]
pub struct X86Inst {
    /// The machine instruction's address, or null.
    pub address: Option<String>,
    /// Whether it is a call (a call of the IR, an `x86.call.x` operation or
    /// `syscall`).
    pub call: bool,
    /// The operator or callee.
    pub op: String,
    /// What it reads.
    pub reads: Vec<Access>,
    /// The machine instruction's size in bytes, or null.
    pub size: Option<u8>,
    /// What it writes.
    pub writes: Vec<Access>,
}

/// A block's terminator.
#[derive(Serialize)]
pub struct X86Terminator {
    /// The machine instruction's address, or null.
    pub address: Option<String>,
    /// `jump`, `branch`, `switch`, `ret` or `unreachable`.
    pub kind: &'static str,
    /// What it reads.
    pub reads: Vec<Access>,
    /// The machine instruction's size in bytes, or null.
    pub size: Option<u8>,
    /// The successors' labels, in order.
    pub successors: Vec<String>,
}

/// A read or write: `[register, value]`, the register null for a
/// constant or `undef`.
pub type Access = (Option<String>, ValueName);

/// A value as JSON shows it: a variable's printed name, a constant, or
/// null for `undef`.
#[derive(Serialize)]
#[serde(untagged)]
pub enum ValueName {
    /// A variable's printed name.
    Name(String),
    /// An integer constant.
    Const(i64),
    /// `undef`.
    Undef,
}

// ---- --stats and --time-passes ----

/// What `--stats` and `--time-passes` print on standard error with
/// `--format json`: one document holding the reports asked for.
#[derive(Serialize, Default)]
pub struct PassReport<S: Serialize> {
    /// `--stats`: what the passes did.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub stats: Option<S>,
    /// `--time-passes`: how long they took.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub time_passes: Option<Times>,
}

/// One function's statistics (`destruct --stats`).
#[derive(Serialize)]
pub struct FunctionStats<S: Serialize> {
    /// The function.
    pub function: String,
    /// Its counters.
    pub stats: S,
}

/// Per-phase wall times.
#[derive(Serialize)]
pub struct Times {
    /// Seconds spent in the parallel loop over functions.
    pub wall: f64,
    /// Each phase, summed over functions, in the order it first ran.
    pub phases: Vec<PhaseTime>,
    /// Sum of the phases.
    pub total: f64,
}

/// One phase's time.
#[derive(Serialize)]
pub struct PhaseTime {
    /// Its name (`verification`, `phi insertion`, `dce`, ...).
    pub phase: &'static str,
    /// Seconds.
    pub seconds: f64,
}

impl Times {
    /// The record of `--time-passes`.
    pub fn new(wall: f64, times: &PassTimes) -> Times {
        Times {
            wall,
            phases: times
                .phases
                .iter()
                .map(|&(phase, seconds)| PhaseTime { phase, seconds })
                .collect(),
            total: times.total(),
        }
    }
}

/// Prints `--stats` and `--time-passes` as asked: text on standard error,
/// or one JSON document there.
pub fn report_passes<S: Serialize>(
    format: FormatArg,
    stats: Option<(S, String)>,
    times: Option<(f64, &PassTimes)>,
) {
    if format.json() {
        if stats.is_none() && times.is_none() {
            return;
        }
        let doc = PassReport {
            stats: stats.map(|s| s.0),
            time_passes: times.map(|(w, t)| Times::new(w, t)),
        };
        crate::stderr::err!("{}", to_string(&doc));
        return;
    }
    if let Some((_, text)) = stats {
        crate::stderr::err!("{text}");
    }
    if let Some((wall, t)) = times {
        crate::par::report_times(wall, t);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Spliced records give what the pretty printer gives with them in
    /// place; no record leaves the document as it was.
    #[test]
    fn a_spliced_array_reads_as_printed_in_place() {
        #[derive(Serialize)]
        struct Doc {
            a: u32,
            functions: Vec<Rec>,
            z: Vec<u32>,
        }
        #[derive(Serialize, Clone)]
        struct Rec {
            name: String,
            n: Vec<u32>,
        }
        let recs = vec![
            Rec {
                name: "f\n\"x\"".into(),
                n: vec![1, 2],
            },
            Rec {
                name: "g".into(),
                n: vec![],
            },
        ];
        let whole = to_string(&Doc {
            a: 1,
            functions: recs.clone(),
            z: vec![3],
        });
        let empty = to_string(&Doc {
            a: 1,
            functions: Vec::new(),
            z: vec![3],
        });
        let records: Vec<String> = recs
            .iter()
            .map(|r| {
                let t = serde_json::to_string_pretty(r).unwrap();
                format!("    {}", t.replace('\n', "\n    "))
            })
            .collect();
        assert_eq!(splice_array(empty.clone(), "functions", &records), whole);
        assert_eq!(splice_array(empty.clone(), "functions", &[]), empty);
    }
}
