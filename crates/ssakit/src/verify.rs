//! The SSA verifier and the report of the chapter's properties.
//!
//! [`verify`] checks that a function is valid SSA with the dominance
//! property. Every invariant it checks, each reported as an [`IrError`] with
//! the block and instruction concerned:
//!
//! 1. the layout is non-empty and lists each block once; terminators name
//!    blocks of the layout;
//! 2. each phi has exactly one operand per distinct predecessor block;
//! 3. single assignment: each variable is defined at most once (parameters
//!    count as definitions at the entry);
//! 4. each variable used has a definition;
//! 5. dominance: each use is dominated by its definition, a phi operand
//!    counting as a use at the end of the corresponding predecessor (the
//!    convention of section 13.3). Uses in unreachable blocks are not
//!    checked: dominance is undefined there;
//! 6. types: a copy, phi or parallel copy moves a value of the
//!    destination's type, operators compute on the types they take, a
//!    branch or switch tests an integer, a `ret` returns the declared
//!    types.
//!
//! Invariants 2 and 3 are checked in one walk over the instructions, and
//! 4 to 6 in a second one, each kind of error collected in its own list:
//! the errors come in the order that one walk per invariant (4 and 5
//! sharing one) would find them.
//!
//! On success it returns a [`Report`] of the properties of section 13.5 and
//! chapter 12: minimal, pruned, conventional, and whether any `undef`
//! operand is left (a program whose every use has a definition on every path
//! is *strict*).
//!
//! * **Pruned**: no dead phi — every phi's value reaches a non-phi use,
//!   possibly through other phis.
//! * **Conventional**: renaming every variable of a phi web (variables
//!   connected through phis, found by union-find as in section 13.6) to one
//!   representative and dropping the phis is a correct destruction (the
//!   chapter's definition, section 13.5). It holds when no two members of
//!   one web interfere, where two members interfere when one is live where
//!   the other is defined, or both are written by one instruction (a
//!   parallel copy: renaming would write one variable twice). The members
//!   are the web's variables and its
//!   constant phi operands: renaming leaves a constant `c` that a phi takes
//!   from `P` as the copy `r ← c` at the end of `P` (the chapter's place
//!   for a phi's copies), so it counts as a member defined there
//!   ([`ConstantConflict`]): it interferes with a member still needed at
//!   the end of `P` (live out of `P`, or read by its terminator) and with
//!   another constant copied into the same web there. `undef` operands are
//!   not members: any value will do. `destruct --conventional` refuses
//!   exactly what this calls non-conventional.
//! * **Minimal**: variables are grouped by the original variable they are
//!   versions of (or, for text without that information, by phi web); every
//!   phi of a group stands in the iterated dominance frontier of the blocks
//!   holding the group's other definitions, and no block has two phis of one
//!   group.

use crate::analysis::{DomTree, IdfCalculator, VarLiveness};
use crate::entity::{Csr, EntityVec};
use crate::error::IrError;
use crate::ir::{
    BinOp, Block, Cfg, Function, Inst, InstData, Opcode, Operand, Point, Slot, Terminator, Type,
    UnOp, Var,
};
use crate::union_find::UnionFind;

/// The chapter's properties of a valid SSA function.
///
/// ```
/// use ssakit::{text::parse_module, verify::verify};
/// let src = "function f(p) {\nentry:\n    branch p, A, B\nA:\n    jump J\nB:\n    jump J\nJ:\n    x = phi(A: 1, B: undef)\n    y = phi(A: 1, B: 2)\n    ret x\n}\n";
/// let m = parse_module(src).unwrap();
/// let r = verify(&m.functions[0]).unwrap();
/// assert_eq!((r.phis, r.dead_phis.len(), r.undef_operands), (2, 1, 1)); // `y` is dead
/// assert!(r.interference.is_none());
/// assert!(!r.non_minimal_phis.is_empty()); // A and B define nothing: no phi is needed
/// ```
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Report {
    /// Number of phis.
    pub phis: usize,
    /// Phis not placed at an iterated dominance frontier, or duplicated.
    pub non_minimal_phis: Vec<Inst>,
    /// Phis whose value no non-phi instruction uses.
    pub dead_phis: Vec<Inst>,
    /// A pair of interfering variables of one phi web, if any.
    pub interference: Option<(Var, Var)>,
    /// A constant phi operand interfering with its web, if any (looked
    /// for when no two variables interfere).
    pub constant_conflict: Option<ConstantConflict>,
    /// Number of `undef` operands.
    pub undef_operands: usize,
}

impl Report {
    /// Minimal: every phi at an iterated dominance frontier, one per block.
    ///
    /// ```
    /// use ssakit::construct::{construct, Options};
    /// use ssakit::{text::parse_module, verify::verify};
    /// let src = "function f(p) {\nentry:\n    x = 1\n    branch p, A, J\nA:\n    x = 2\n    jump J\nJ:\n    ret x\n}\n";
    /// let mut m = parse_module(src).unwrap();
    /// construct(&mut m.functions[0], &Options::default()).unwrap();
    /// let r = verify(&m.functions[0]).unwrap();
    /// assert_eq!(r.phis, 1);
    /// assert!(r.minimal()); // one phi, at J, the frontier of A's definition
    /// ```
    pub fn minimal(&self) -> bool {
        self.non_minimal_phis.is_empty()
    }
    /// Pruned: no dead phi.
    ///
    /// ```
    /// use ssakit::{text::parse_module, verify::verify};
    /// let src = "function f(p) {\nentry:\n    branch p, A, B\nA:\n    jump J\nB:\n    jump J\nJ:\n    x = phi(A: 1, B: undef)\n    y = phi(A: 1, B: 2)\n    ret x\n}\n";
    /// let m = parse_module(src).unwrap();
    /// let r = verify(&m.functions[0]).unwrap();
    /// assert!(!r.pruned()); // nothing uses `y`
    /// ```
    pub fn pruned(&self) -> bool {
        self.dead_phis.is_empty()
    }
    /// Conventional: no interference inside a phi web.
    ///
    /// ```
    /// use ssakit::{text::parse_module, verify::verify};
    /// let src = "function f(p) {\nentry:\n    branch p, A, B\nA:\n    jump J\nB:\n    jump J\nJ:\n    x = phi(A: 1, B: undef)\n    y = phi(A: 1, B: 2)\n    ret x\n}\n";
    /// let m = parse_module(src).unwrap();
    /// let r = verify(&m.functions[0]).unwrap();
    /// assert!(r.conventional());
    /// ```
    pub fn conventional(&self) -> bool {
        self.interference.is_none() && self.constant_conflict.is_none()
    }
    /// Strict: no `undef` operand (every use has a definition on every path).
    ///
    /// ```
    /// use ssakit::{text::parse_module, verify::verify};
    /// let src = "function f(p) {\nentry:\n    branch p, A, B\nA:\n    jump J\nB:\n    jump J\nJ:\n    x = phi(A: 1, B: undef)\n    y = phi(A: 1, B: 2)\n    ret x\n}\n";
    /// let m = parse_module(src).unwrap();
    /// let r = verify(&m.functions[0]).unwrap();
    /// assert!(!r.strict()); // the `undef` from B
    /// ```
    pub fn strict(&self) -> bool {
        self.undef_operands == 0
    }

    /// A readable summary, one property per line.
    ///
    /// ```
    /// use ssakit::{text::parse_module, verify::verify};
    /// let src = "function f(p) {\nentry:\n    branch p, A, B\nA:\n    jump J\nB:\n    jump J\nJ:\n    x = phi(A: 1, B: undef)\n    y = phi(A: 1, B: 2)\n    ret x\n}\n";
    /// let m = parse_module(src).unwrap();
    /// let r = verify(&m.functions[0]).unwrap();
    /// let text = r.render(&m.functions[0]);
    /// assert!(text.starts_with("function f: valid SSA with the dominance property\n  phis: 2\n"));
    /// assert!(text.contains("pruned: no (dead phis: y)"));
    /// ```
    pub fn render(&self, f: &Function) -> String {
        let names = crate::ir::VarNames::new(f);
        let yes = |b: bool| if b { "yes" } else { "no" };
        let mut out = format!(
            "function {}: valid SSA with the dominance property\n",
            f.name()
        );
        out.push_str(&format!("  phis: {}\n", self.phis));
        out.push_str(&format!("  minimal: {}", yes(self.minimal())));
        if !self.minimal() {
            out.push_str(&format!(
                " ({} phi(s) outside the iterated dominance frontier)",
                self.non_minimal_phis.len()
            ));
        }
        out.push_str(&format!("\n  pruned: {}", yes(self.pruned())));
        if !self.pruned() {
            let dead: Vec<String> = self
                .dead_phis
                .iter()
                .filter_map(|&i| f.def(i))
                .map(|v| names[v].to_string())
                .collect();
            out.push_str(&format!(" (dead phis: {})", dead.join(", ")));
        }
        out.push_str(&format!("\n  conventional: {}", yes(self.conventional())));
        if let Some((a, b)) = self.interference {
            out.push_str(&format!(
                " ({} and {} are in one phi web and interfere)",
                &names[a], &names[b]
            ));
        }
        if let Some(c) = &self.constant_conflict {
            out.push_str(&format!(" ({})", c.describe(f)));
        }
        out.push_str(&format!("\n  strict: {}", yes(self.strict())));
        if !self.strict() {
            out.push_str(&format!(" ({} undef operand(s))", self.undef_operands));
        }
        out.push('\n');
        out
    }
}

/// Checks that `func` is valid SSA with the dominance property; on success
/// reports the chapter's properties. Returns every error found.
///
/// # Example
///
/// ```
/// use ssakit::construct::{construct, Flavor, Options};
/// const SEED: &str = "function main(p, q) {
/// r:
///     jump A
/// A:
///     branch p, B, C
/// B:
///     y = 0
///     x = 0
///     jump D
/// C:
///     tmp = x
///     x = y
///     y = tmp
///     branch q, D, E
/// D:
///     x = f(x, y)
///     branch q, E, A
/// E:
///     ret x
/// }
/// ";
/// let mut m = ssakit::text::parse_module(SEED).unwrap();
/// // Before construction `x` is assigned three times: not SSA.
/// assert!(ssakit::verify::verify(&m.functions[0]).is_err());
/// let opts = Options { flavor: Flavor::Pruned, ..Default::default() };
/// construct(&mut m.functions[0], &opts).unwrap();
/// let report = ssakit::verify::verify(&m.functions[0]).unwrap();
/// assert!(report.minimal() && report.pruned() && report.conventional());
/// assert_eq!(report.phis, 5);
/// ```
pub fn verify(func: &Function) -> Result<Report, Vec<IrError>> {
    Verifier::new(func).run(true)
}

/// Checks invariants 1 to 6 only (valid SSA with the dominance property,
/// well typed), without computing the property report: what passes need
/// before they run. The report's minimality check costs a DF⁺ query per
/// variable group and the conventionality check a liveness walk per phi
/// web, which dominate on large inputs.
///
/// ```
/// use ssakit::{text::parse_module, verify::verify_valid};
/// let ssa = parse_module("function f(a) {\nentry:\n    b = a + 1\n    ret b\n}\n").unwrap();
/// assert!(verify_valid(&ssa.functions[0]).is_ok());
/// let twice = parse_module("function f(a) {\nentry:\n    b = a\n    b = 2\n    ret b\n}\n").unwrap();
/// let errs = verify_valid(&twice.functions[0]).unwrap_err();
/// assert!(errs[0].message.contains("assigned more than once"));
/// ```
pub fn verify_valid(func: &Function) -> Result<(), Vec<IrError>> {
    Verifier::new(func).run(false).map(|_| ())
}

/// [`verify_valid`], handing back the control-flow graph and the dominator
/// tree it built, for a caller that needs them next and has not changed
/// `func` since (destruction's entry check).
pub(crate) fn verify_valid_flow(func: &Function) -> Result<(Cfg, DomTree), Vec<IrError>> {
    Verifier::new(func)
        .run_flow(false)
        .map(|(_, cfg, dt)| (cfg, dt))
}

/// Checks invariant 6 alone (and the layout, without which nothing can
/// be checked): every operation, copy, branch and `ret` well typed. It
/// needs no SSA: a variable has one type, so a non-SSA program's types
/// are those of its construction, and construction can neither make an
/// ill-typed program well typed nor the reverse. Commands that take a
/// program before construction check this first, so that an ill-typed
/// input is reported as such, not as invalid SSA out of construction.
///
/// ```
/// use ssakit::{text::parse_module, verify::verify_types};
/// let ok = parse_module("function f(a) {\nentry:\n    a = a + 1\n    ret a\n}\n").unwrap();
/// assert!(verify_types(&ok.functions[0]).is_ok());
/// let src = "operator i32.add pure\nfunction f(a) {\nentry:\n    a = i32.add(a, a)\n    ret a\n}\n";
/// let bad = parse_module(src).unwrap();
/// let errs = verify_types(&bad.functions[0]).unwrap_err();
/// assert!(errs[0].message.contains("is a `i64`, not i32"));
/// ```
pub fn verify_types(func: &Function) -> Result<(), Vec<IrError>> {
    let mut v = Verifier::new(func);
    if v.verify_layout() {
        v.verify_types();
    }
    match v.errs.is_empty() {
        true => Ok(()),
        false => Err(v.errs),
    }
}

/// The state of one verification: the function, the errors found, and
/// the definition of each variable, which several checks share. One method
/// per invariant, as Cranelift's verifier.
struct Verifier<'a> {
    func: &'a Function,
    errs: Vec<IrError>,
    /// Printed names, computed only for an error message: they cost more
    /// than all the checks.
    names: std::cell::OnceCell<crate::ir::VarNames>,
    /// Where each variable is defined (the entry for a parameter).
    def: EntityVec<Var, Option<Def>>,
}

/// Where a variable is defined, with the dominator tree's numbers of its
/// block copied in: a use's dominance check reads this entry and the use
/// block's numbers, nothing else.
#[derive(Clone, Copy)]
struct Def {
    at: Point,
    /// The block's preorder and postorder numbers in the dominator tree
    /// (`u32::MAX` both for an unreachable block).
    pre: u32,
    post: u32,
}

impl<'a> Verifier<'a> {
    fn new(func: &'a Function) -> Self {
        Verifier {
            func,
            errs: Vec::new(),
            names: std::cell::OnceCell::new(),
            def: EntityVec::filled(func.num_vars(), None),
        }
    }

    fn name(&self, v: Var) -> &str {
        &self
            .names
            .get_or_init(|| crate::ir::VarNames::new(self.func))[v]
    }

    fn error(&mut self, block: Option<Block>, inst: Option<Inst>, message: String) {
        self.errs
            .push(IrError::new(self.func, block, inst, message));
    }

    fn run(self, properties: bool) -> Result<Report, Vec<IrError>> {
        self.run_flow(properties).map(|(report, _, _)| report)
    }

    /// [`run`](Self::run), with the graph and dominator tree it built.
    fn run_flow(mut self, properties: bool) -> Result<(Report, Cfg, DomTree), Vec<IrError>> {
        let func = self.func;
        if !self.verify_layout() {
            return Err(self.errs);
        }
        let cfg = Cfg::new(func);
        let dt = DomTree::new(&cfg);
        self.verify_phis_and_definitions(&cfg, &dt);
        let undef_operands = self.verify_uses_and_types(&dt);
        if !self.errs.is_empty() {
            return Err(self.errs);
        }
        let mut report = Report {
            undef_operands,
            ..Default::default()
        };
        if !properties {
            return Ok((report, cfg, dt));
        }
        let webs = phi_web_union_find(func);
        report.dead_phis = dead_phis(func);
        report.phis = func
            .layout()
            .iter()
            .map(|&b| func.block_phis(b).len())
            .sum();
        report.interference = web_interference(func, &cfg, &webs);
        if report.interference.is_none() {
            report.constant_conflict = constant_conflict(func, &cfg, &webs);
        }
        report.non_minimal_phis = non_minimal_phis(func, &cfg, &dt, &webs);
        Ok((report, cfg, dt))
    }

    /// Invariant 1: the layout is non-empty and lists existing blocks once each;
    /// terminators name blocks of the layout. Nothing else can be checked
    /// if this fails.
    fn verify_layout(&mut self) -> bool {
        let func = self.func;
        if func.layout().is_empty() {
            self.error(None, None, "function has no blocks".into());
            return false;
        }
        let mut in_layout = vec![false; func.num_blocks()];
        for &b in func.layout() {
            if b.index() >= func.num_blocks() || in_layout[b.index()] {
                self.error(
                    None,
                    None,
                    format!("block {b} is listed twice or does not exist"),
                );
                return false;
            }
            in_layout[b.index()] = true;
        }
        for &b in func.layout() {
            let mut bad = None;
            func.for_each_succ(b, |s| {
                if s.index() >= func.num_blocks() || !in_layout[s.index()] {
                    bad = Some(s);
                }
            });
            if let Some(s) = bad {
                self.error(
                    Some(b),
                    None,
                    format!("terminator jumps to {s}, which is not in the layout"),
                );
            }
        }
        self.errs.is_empty()
    }

    /// Invariants 2 and 3 in one walk over the phis and instructions,
    /// each invariant's errors kept in its own list so that they are
    /// reported in the order of one walk per invariant.
    ///
    /// Invariant 2: phis are first in their block (the phi list holds phis, the
    /// ordinary list none); each has exactly one operand per distinct
    /// predecessor; a block without predecessors has no phi.
    ///
    /// Invariant 3, single assignment: each variable is defined at most once
    /// (parameters count as definitions at the entry). Records where.
    fn verify_phis_and_definitions(&mut self, cfg: &Cfg, dt: &DomTree) {
        let func = self.func;
        let mut phi_errs: Vec<(Block, Inst, String)> = Vec::new();
        let mut twice: Vec<(Var, Block, Option<Inst>)> = Vec::new();
        let mut pred_stamp = vec![u32::MAX; func.num_blocks()];
        let mut seen = vec![u32::MAX; func.num_blocks()];
        let mut counter = 0u32;
        let def = &mut self.def;
        // `(pre, post)`: the dominator tree's numbers of the block of `at`.
        let mut define = |v: Var, at: Point, (pre, post): (u32, u32), inst: Option<Inst>| {
            if def[v].is_some() {
                twice.push((v, at.block(), inst));
            } else {
                def[v] = Some(Def { at, pre, post });
            }
        };
        let entry = func.entry();
        for &p in func.params() {
            define(p, Point::entry(entry), dt.numbers(entry), None);
        }
        for &b in func.layout() {
            let nums = dt.numbers(b);
            let phis = func.block_phis(b);
            if !phis.is_empty() {
                counter = check_phi_list(
                    func,
                    cfg,
                    b,
                    (&mut pred_stamp, &mut seen),
                    counter,
                    &mut phi_errs,
                );
            }
            for &i in phis {
                func.for_each_def(i, |v| define(v, Point::entry(b), nums, Some(i)));
            }
            for (k, &i) in func.block_insts(b).iter().enumerate() {
                let at = Point::after(b, k);
                match func.inst(i) {
                    InstData::Op { results, .. } => {
                        for &v in results.as_slice(func) {
                            define(v, at, nums, Some(i));
                        }
                    }
                    InstData::Phi { dst, .. } => {
                        phi_errs.push((b, i, "phi after an ordinary instruction".into()));
                        define(*dst, at, nums, Some(i));
                    }
                    _ => func.for_each_def(i, |v| define(v, at, nums, Some(i))),
                }
            }
        }
        for (b, i, msg) in phi_errs {
            self.error(Some(b), Some(i), msg);
        }
        for (v, b, i) in twice {
            let msg = format!("`{}` is assigned more than once", self.name(v));
            self.error(Some(b), i, msg);
        }
    }

    /// Invariants 4, 5 and 6 in one walk over the operands and
    /// instructions, each kind of error kept in its own list so that the
    /// use errors are reported before the type errors, as by one walk per
    /// invariant.
    ///
    /// Invariants 4 and 5: each variable used has a definition, which dominates the
    /// use (a phi operand is used at the exit of its predecessor; uses in
    /// unreachable blocks are not checked).
    ///
    /// Invariant 6, types: see [`block_type_errors`].
    ///
    /// Returns the number of `undef` operands.
    fn verify_uses_and_types(&mut self, dt: &DomTree) -> usize {
        let func = self.func;
        let mut uses = Uses {
            def: &self.def,
            dt,
            bad: Vec::new(),
            undef_operands: 0,
        };
        let mut type_errs: Vec<(Block, Option<Inst>, String)> = Vec::new();
        for &b in func.layout() {
            for &i in func.block_phis(b) {
                let (want, args) = match func.inst(i) {
                    InstData::Phi { dst, args } => (func.var_type(*dst), args.as_slice(func)),
                    _ => (Type::I64, func.phi_args(i)), // panics: not a phi
                };
                // The type check of `inst_type_error`, whose message is
                // asked for only when an operand does not fit.
                let mut typed = true;
                for a in args {
                    match a.value {
                        Operand::Var(v) if a.block.index() < func.num_blocks() => {
                            let at = Point::exit(a.block);
                            uses.check(v, at, dt.numbers(a.block), Some(i));
                        }
                        Operand::Undef => uses.undef_operands += 1,
                        _ => {}
                    }
                    typed &= fits(func, a.value, want);
                }
                if !typed {
                    if let Some(msg) = inst_type_error(func, i) {
                        type_errs.push((b, Some(i), msg));
                    }
                }
            }
            // The tree's numbers of `b` (`u32::MAX` if unreachable: its
            // uses are not checked).
            let nums = dt.numbers(b);
            let insts = func.block_insts(b);
            for (k, &i) in insts.iter().enumerate() {
                let at = Point::before(b, k);
                // Operations of the set, most of lifted code, in one
                // place: operands, then the signature.
                if let InstData::Op {
                    op,
                    imms,
                    args,
                    results,
                } = func.inst(i)
                {
                    let args = args.as_slice(func);
                    for &o in args {
                        uses.operand(o, at, nums, Some(i));
                    }
                    let Some(o) = func.opcode(*op) else { continue };
                    let results = results.as_slice(func);
                    if !well_typed_fixed(func, o, imms.len(), args, results) {
                        if let Some(msg) = op_type_error(func, o, imms.len(), args, results) {
                            type_errs.push((b, Some(i), msg));
                        }
                    }
                    continue;
                }
                func.for_each_operand(i, |o| uses.operand(o, at, nums, Some(i)));
                if let Some(msg) = inst_type_error(func, i) {
                    type_errs.push((b, Some(i), msg));
                }
            }
            let at = Point::before(b, insts.len());
            func.for_each_term_operand(b, |o| uses.operand(o, at, nums, None));
            if let Some(msg) = term_type_error(func, b) {
                type_errs.push((b, None, msg));
            }
        }
        let Uses {
            bad,
            undef_operands,
            ..
        } = uses;
        for (v, at, inst, def_block) in bad {
            // Reported at the block of the use: for a phi operand, the
            // predecessor it is used in.
            let msg = match def_block {
                None => format!("`{}` is used but never assigned", self.name(v)),
                Some(d) => format!(
                    "use of `{}` is not dominated by its definition in block `{}`",
                    self.name(v),
                    func.block_name(d)
                ),
            };
            self.error(Some(at.block()), inst, msg);
        }
        for (b, i, msg) in type_errs {
            self.error(Some(b), i, msg);
        }
        undef_operands
    }

    /// Invariant 6 alone, for the public `verify_types`: see
    /// [`block_type_errors`].
    fn verify_types(&mut self) {
        let mut bad: Vec<(Block, Option<Inst>, String)> = Vec::new();
        for &b in self.func.layout() {
            block_type_errors(self.func, b, &mut bad);
        }
        for (b, i, msg) in bad {
            self.error(Some(b), i, msg);
        }
    }
}

/// Invariant 2 for the phis of `b`, which has some: appends an error for
/// each operand labelled with a block that is not a predecessor or with a
/// predecessor already seen, each phi short of operands, each non-phi in
/// the list, and a phi list in a block without predecessors. `stamps`
/// (predecessor marks, operands seen) and `counter` (the last phi's stamp)
/// carry from block to block; returns the new counter.
fn check_phi_list(
    func: &Function,
    cfg: &Cfg,
    b: Block,
    stamps: (&mut [u32], &mut [u32]),
    mut counter: u32,
    errs: &mut Vec<(Block, Inst, String)>,
) -> u32 {
    let (pred_stamp, seen) = stamps;
    let mut npreds = 0;
    for p in cfg.unique_preds(b) {
        pred_stamp[p.index()] = b.as_u32();
        npreds += 1;
    }
    let phis = func.block_phis(b);
    if npreds == 0 {
        let msg = format!(
            "phi in block `{}`, which has no predecessors",
            func.block_name(b)
        );
        errs.push((b, phis[0], msg));
    }
    for &i in phis {
        counter += 1;
        let InstData::Phi { args, .. } = func.inst(i) else {
            errs.push((b, i, "non-phi instruction in the phi list".into()));
            continue;
        };
        for a in args.as_slice(func) {
            if a.block.index() >= func.num_blocks() || pred_stamp[a.block.index()] != b.as_u32() {
                let msg = format!(
                    "phi operand labelled {}, which is not a predecessor",
                    a.block
                );
                errs.push((b, i, msg));
            } else if seen[a.block.index()] == counter {
                let msg = format!(
                    "phi has two operands for predecessor `{}`",
                    func.block_name(a.block)
                );
                errs.push((b, i, msg));
            } else {
                seen[a.block.index()] = counter;
            }
        }
        if args.len() < npreds {
            errs.push((b, i, "phi lacks an operand for some predecessor".into()));
        }
    }
    counter
}

/// Invariants 4 and 5 on the uses of one walk: the definitions, the
/// failing uses found (the variable, where it is used, the instruction,
/// and the definition's block, `None` for no definition) and the number of
/// `undef` operands.
struct Uses<'d> {
    def: &'d EntityVec<Var, Option<Def>>,
    dt: &'d DomTree,
    bad: Vec<(Var, Point, Option<Inst>, Option<Block>)>,
    undef_operands: usize,
}

impl Uses<'_> {
    /// One operand read at `at`, in a block with the dominator tree's
    /// numbers `nums`.
    #[inline(always)]
    fn operand(&mut self, o: Operand, at: Point, nums: (u32, u32), inst: Option<Inst>) {
        match o {
            Operand::Var(v) => self.check(v, at, nums, inst),
            Operand::Undef => self.undef_operands += 1,
            Operand::Const(_) => {}
        }
    }

    /// One use of `v` at `at`, in a block with the dominator tree's
    /// numbers `(pre, post)` (`u32::MAX` for an unreachable block, whose
    /// uses are not checked). Dominance is a position compare within one
    /// block and the nesting of the tree's pre/post intervals across
    /// blocks (`Point::dominates` on the copied numbers).
    #[inline(always)]
    fn check(&mut self, v: Var, at: Point, (pre, post): (u32, u32), inst: Option<Inst>) {
        let ok = match self.def[v] {
            None => false,
            Some(_) if pre == u32::MAX => true,
            // One block: a position compare.
            Some(d) if d.at.block() == at.block() => d.at.dominates(at, self.dt),
            // `d`'s block strictly dominates the use's, which is reachable
            // (an unreachable `d` has `u32::MAX`, which fails `d.pre <= pre`).
            Some(d) => d.pre <= pre && post <= d.post,
        };
        if !ok {
            self.fail(v, at, inst);
        }
    }

    /// Records the failing use of `v` at `at`.
    #[cold]
    #[inline(never)]
    fn fail(&mut self, v: Var, at: Point, inst: Option<Inst>) {
        let def_block = self.def[v].map(|d| d.at.block());
        self.bad.push((v, at, inst, def_block));
    }
}

/// Invariant 6, types, for block `b`: a copy, phi or parallel copy moves
/// a value of the destination's type (an integer literal only into an
/// integer type); the built-in unary and binary operators compute on
/// `i64`; a branch or switch tests an integer; a `ret` returns the
/// declared types, if declared. Appends each error, phis first, the
/// terminator last.
fn block_type_errors(func: &Function, b: Block, errs: &mut Vec<(Block, Option<Inst>, String)>) {
    for i in func.block_all_insts(b) {
        if let Some(msg) = inst_type_error(func, i) {
            errs.push((b, Some(i), msg));
        }
    }
    if let Some(msg) = term_type_error(func, b) {
        errs.push((b, None, msg));
    }
}

/// Whether operand `o` may stand where a value of type `want` is expected.
fn fits(func: &Function, o: Operand, want: Type) -> bool {
    match o {
        Operand::Var(v) => func.var_type(v) == want,
        Operand::Const(c) => want.is_int() && (want != Type::Bool || c == 0 || c == 1),
        Operand::Undef => true,
    }
}

/// `a `T``, or `an integer literal`, or `undef`, for a message.
fn describe(func: &Function, o: Operand) -> String {
    match o {
        Operand::Var(v) => format!("a `{}`", func.var_type(v)),
        Operand::Const(_) => "an integer literal".into(),
        Operand::Undef => "`undef`".into(),
    }
}

/// Which operators may write or compute on `bool` (see [`Type::Bool`]).
#[derive(Clone, Copy)]
enum Flags {
    /// Only `i64`.
    None,
    /// A comparison: `i64` operands, an `i64` or `bool` result.
    Compare,
    /// `!`, `&`, `|`, `^`: all `i64`, or all `bool` (`!` of an `i64` may
    /// also write a `bool`).
    Logic,
}

/// What is wrong with the types of instruction `i`, if anything.
fn inst_type_error(func: &Function, i: Inst) -> Option<String> {
    let moved = |dst: Var, src: Operand, what: &str| {
        let want = func.var_type(dst);
        (!fits(func, src, want))
            .then(|| format!("{what} of type `{want}` receives {}", describe(func, src)))
    };
    // The built-in operators compute on `i64`; comparisons and `!` may
    // write a `bool`, and `!`, `&`, `|`, `^` may compute on `bool`s too
    // (the one-bit flags of Bril).
    let on_i64 = |dst: Var, ops: &[Operand], symbol: &str, flags: Flags| {
        let all = |t: Type| ops.iter().all(|&o| fits(func, o, t));
        let ok = match (func.var_type(dst), flags) {
            (Type::I64, _) => all(Type::I64),
            (Type::Bool, Flags::Compare) => all(Type::I64),
            (Type::Bool, Flags::Logic) => all(Type::Bool) || (ops.len() == 1 && all(Type::I64)),
            _ => false,
        };
        (!ok).then(|| match flags {
            Flags::None => format!("`{symbol}` computes on `i64` only"),
            _ => format!("`{symbol}` computes on `i64` (or writes or computes on `bool`)"),
        })
    };
    let flags_of = |op: BinOp| match op {
        BinOp::Eq | BinOp::Ne | BinOp::Lt | BinOp::Le | BinOp::Gt | BinOp::Ge => Flags::Compare,
        BinOp::And | BinOp::Or | BinOp::Xor => Flags::Logic,
        _ => Flags::None,
    };
    match func.inst(i) {
        InstData::Copy { dst, src } => moved(*dst, *src, "copy destination"),
        InstData::Phi { dst, args } => args
            .as_slice(func)
            .iter()
            .find_map(|a| moved(*dst, a.value, "phi")),
        InstData::ParCopy { copies } => copies
            .as_slice(func)
            .iter()
            .find_map(|&(d, s)| moved(d, s, "parallel-copy destination")),
        InstData::Unary { dst, op, arg } => {
            let flags = match op {
                UnOp::Not => Flags::Logic,
                UnOp::Neg => Flags::None,
            };
            on_i64(*dst, &[*arg], op.symbol(), flags)
        }
        InstData::Binary { dst, op, lhs, rhs } => {
            on_i64(*dst, &[*lhs, *rhs], op.symbol(), flags_of(*op))
        }
        InstData::Op {
            op,
            imms,
            args,
            results,
        } => func.opcode(*op).and_then(|o| {
            op_type_error(
                func,
                o,
                imms.len(),
                args.as_slice(func),
                results.as_slice(func),
            )
        }),
        InstData::Call { .. } | InstData::Print { .. } => None,
    }
}

/// What is wrong with an operation of the [set](crate::ir::Opcode): its
/// numbers of immediates, operands and results, and their types (the
/// `Any` slots all of one type).
fn op_type_error(
    func: &Function,
    o: Opcode,
    imms: usize,
    args: &[Operand],
    results: &[Var],
) -> Option<String> {
    if well_typed_fixed(func, o, imms, args, results) {
        return None;
    }
    // A memory access may leave out its memory index (memory 0).
    if imms != o.num_imms() && !(o.access().is_some() && imms == 2) {
        return Some(format!(
            "`{o}` takes {} immediate(s), not {imms}",
            o.num_imms()
        ));
    }
    let params = o.params();
    if args.len() != params.len() {
        return Some(format!(
            "`{o}` takes {} operand(s), not {}",
            params.len(),
            args.len()
        ));
    }
    if results.len() != usize::from(o.result().is_some()) {
        return Some(format!(
            "`{o}` gives {} result(s), not {}",
            usize::from(o.result().is_some()),
            results.len()
        ));
    }
    // The one type of the `Any` slots: the first variable's among them.
    let any = params
        .iter()
        .zip(args)
        .filter(|(s, _)| **s == Slot::Any)
        .find_map(|(_, a)| a.var().map(|v| func.var_type(v)))
        .or_else(|| {
            (o.result() == Some(Slot::Any)).then(|| results.first().map(|&r| func.var_type(r)))?
        });
    let fits_slot = |slot: Slot, o: Operand| match (slot, any) {
        (Slot::Is(t), _) | (Slot::Any, Some(t)) => fits(func, o, t),
        (Slot::Address, _) => fits(func, o, Type::I32) || fits(func, o, Type::I64),
        (Slot::Any, None) => true,
    };
    if let Some((k, (&slot, &a))) = params
        .iter()
        .zip(args)
        .enumerate()
        .find(|(_, (&s, &a))| !fits_slot(s, a))
    {
        let want = match (slot, any) {
            (Slot::Any, Some(t)) => Slot::Is(t),
            _ => slot,
        };
        return Some(format!(
            "`{o}` operand {} is {}, not {want}",
            k + 1,
            describe(func, a)
        ));
    }
    let (&r, slot) = results.first().zip(o.result())?;
    let ty = func.var_type(r);
    let ok = match (slot, any) {
        (Slot::Is(t), _) | (Slot::Any, Some(t)) => t == ty,
        (s, _) => s.admits(ty),
    };
    (!ok).then(|| format!("`{o}` gives {slot}, not `{ty}`"))
}

/// [`op_type_error`]'s common case in one pass: the numbers of
/// immediates, operands and results exact, no `Any` slot, and every
/// operand and the result of its slot's type. False means "not seen to
/// be well typed here", not "ill typed": the `Any` slots, a memory access
/// without its memory index and every error go through the full check,
/// which says what is wrong. (Lifted code is mostly operations of the
/// set: this runs once per instruction of every input.)
#[inline]
fn well_typed_fixed(
    func: &Function,
    o: Opcode,
    imms: usize,
    args: &[Operand],
    results: &[Var],
) -> bool {
    let params = o.params();
    if imms != o.num_imms() || args.len() != params.len() {
        return false;
    }
    let fits_slot = |slot: Slot, a: Operand| match slot {
        Slot::Is(t) => fits(func, a, t),
        Slot::Address => fits(func, a, Type::I32) || fits(func, a, Type::I64),
        Slot::Any => false,
    };
    if !params.iter().zip(args).all(|(&s, &a)| fits_slot(s, a)) {
        return false;
    }
    match (o.result(), results) {
        (None, []) => true,
        (Some(slot), &[r]) => fits_slot(slot, Operand::Var(r)),
        _ => false,
    }
}

/// What is wrong with the types of `b`'s terminator, if anything.
fn term_type_error(func: &Function, b: Block) -> Option<String> {
    match func.term(b) {
        Terminator::Branch { cond: o, .. } | Terminator::Switch { value: o, .. } => {
            let int = matches!(o, Operand::Var(v) if !func.var_type(*v).is_int());
            int.then(|| {
                format!(
                    "a branch or switch tests {}, not an integer",
                    describe(func, *o)
                )
            })
        }
        Terminator::Ret(vals) => {
            let want = func.returns()?;
            let vals = vals.as_slice(func);
            if vals.len() != want.len() {
                return Some(format!(
                    "`ret` returns {} value(s), the function declares {}",
                    vals.len(),
                    want.len()
                ));
            }
            let (k, (&o, &t)) = vals
                .iter()
                .zip(want)
                .enumerate()
                .find(|(_, (&o, &t))| !fits(func, o, t))?;
            Some(format!(
                "`ret` value {} is {}, the function declares `{t}`",
                k + 1,
                describe(func, o)
            ))
        }
        Terminator::Jump(_) | Terminator::Unreachable => None,
    }
}

fn phi_web_union_find(func: &Function) -> UnionFind {
    let mut uf = UnionFind::new(func.num_vars());
    for &b in func.layout() {
        for &i in func.block_phis(b) {
            if let InstData::Phi { dst, args } = func.inst(i) {
                for a in args.as_slice(func) {
                    if let Operand::Var(v) = a.value {
                        uf.union(dst.index(), v.index());
                    }
                }
            }
        }
    }
    uf
}

/// Phis whose value reaches no non-phi use.
fn dead_phis(func: &Function) -> Vec<Inst> {
    let mut useful: EntityVec<Var, bool> = EntityVec::filled(func.num_vars(), false);
    let mut phi_of: EntityVec<Var, Option<Inst>> = EntityVec::filled(func.num_vars(), None);
    let mut work = Vec::new();
    let mut mark = |v: Var, work: &mut Vec<Var>| {
        if !useful[v] {
            useful[v] = true;
            work.push(v);
        }
    };
    for &b in func.layout() {
        for &i in func.block_phis(b) {
            if let Some(d) = func.def(i) {
                phi_of[d] = Some(i);
            }
        }
        for &i in func.block_insts(b) {
            func.for_each_use(i, |v| mark(v, &mut work));
        }
        func.for_each_term_use(b, |v| mark(v, &mut work));
    }
    while let Some(v) = work.pop() {
        if let Some(i) = phi_of[v] {
            func.for_each_use(i, |u| mark(u, &mut work));
        }
    }
    let mut dead = Vec::new();
    for &b in func.layout() {
        for &i in func.block_phis(b) {
            if func.def(i).is_some_and(|d| !useful[d]) {
                dead.push(i);
            }
        }
    }
    dead
}

/// The first pair of variables of one phi web found interfering, walking
/// each block backwards from its live-out set with a count of live members
/// per web.
///
/// Only members of webs with two or more variables can interfere with a
/// web-mate, so liveness is explored for those alone ([`VarLiveness`]) and
/// the other variables are ignored: a function with many variables live
/// everywhere but few phis costs what its phi webs touch.
fn web_interference(func: &Function, cfg: &Cfg, webs: &UnionFind) -> Option<(Var, Var)> {
    let n = func.num_vars();
    let web = |v: Var| webs.find_const(v.index());
    let mut web_size = vec![0u32; n];
    for v in func.vars() {
        web_size[web(v)] += 1;
    }
    let member = |v: Var| web_size[web(v)] > 1;
    // Live-out blocks of every web member, grouped by block.
    let mut by_var = VarLiveness::new(func, cfg);
    let mut out_pairs: Vec<(Block, Var)> = Vec::new();
    for v in func.vars().filter(|&v| member(v)) {
        by_var.explore(v, |_| {}, |b| out_pairs.push((b, v)));
    }
    let live_out = Csr::from_pairs(func.num_blocks(), out_pairs);
    let mut is_live = vec![false; n];
    let mut live_list: Vec<Var> = Vec::new();
    let mut count = vec![0u32; n];
    // `writer[web]`: the last instruction seen defining a member, with it.
    let mut writer: Vec<Option<(Inst, Var)>> = vec![None; n];
    for &b in func.layout() {
        let add = |v: Var, is_live: &mut Vec<bool>, count: &mut Vec<u32>, list: &mut Vec<Var>| {
            if member(v) && !is_live[v.index()] {
                is_live[v.index()] = true;
                count[web(v)] += 1;
                list.push(v);
            }
        };
        let partner =
            |d: Var, is_live: &Vec<bool>, count: &Vec<u32>, list: &Vec<Var>| -> Option<Var> {
                let own = is_live[d.index()] as u32;
                if count[web(d)] > own {
                    list.iter()
                        .copied()
                        .find(|&x| x != d && is_live[x.index()] && web(x) == web(d))
                } else {
                    None
                }
            };
        for &v in live_out.of(b) {
            add(v, &mut is_live, &mut count, &mut live_list);
        }
        func.for_each_term_use(b, |v| add(v, &mut is_live, &mut count, &mut live_list));
        let mut found = None;
        for &i in func.block_insts(b).iter().rev() {
            // Two definitions of one instruction (a parallel copy, a call
            // with several results) in one web interfere even if one is
            // dead: renaming would make the instruction write one variable
            // twice.
            func.for_each_def(i, |d| {
                if found.is_none() && member(d) {
                    match writer[web(d)] {
                        Some((j, x)) if j == i => found = Some((x, d)),
                        _ => writer[web(d)] = Some((i, d)),
                    }
                }
            });
            func.for_each_def(i, |d| {
                if found.is_none() {
                    found = partner(d, &is_live, &count, &live_list).map(|x| (x, d));
                }
            });
            func.for_each_def(i, |d| {
                if is_live[d.index()] {
                    is_live[d.index()] = false;
                    count[web(d)] -= 1;
                }
            });
            func.for_each_use(i, |u| add(u, &mut is_live, &mut count, &mut live_list));
        }
        // Phi definitions (and parameters at the entry) happen together at
        // the start of the block.
        for &i in func.block_phis(b) {
            if let (None, Some(d)) = (found, func.def(i)) {
                found = partner(d, &is_live, &count, &live_list).map(|x| (x, d));
            }
        }
        if b == func.entry() {
            for &p in func.params() {
                if found.is_none() {
                    found = partner(p, &is_live, &count, &live_list).map(|x| (x, p));
                }
            }
        }
        if found.is_some() {
            return found;
        }
        for v in live_list.drain(..) {
            if is_live[v.index()] {
                is_live[v.index()] = false;
                count[web(v)] -= 1;
            }
        }
    }
    None
}

/// A constant phi operand that keeps SSA from being conventional: its copy
/// `r ← c` at the end of its predecessor `pred`, where renaming the web to
/// `r` puts it, would overwrite a value of the web still needed there (see
/// the [module documentation](self)).
///
/// ```
/// use ssakit::{text::parse_module, verify::verify};
/// // Two loop entries; `x` and `y` are one web, and `entry` gives it 1 and 2.
/// let src = "function f(c, d) {\nentry:\n    branch c, s1, s2\n\
///            s1:\n    x = phi(entry: 1, s2: y)\n    print x\n    branch d, s2, out\n\
///            s2:\n    y = phi(entry: 2, s1: x)\n    print y\n    branch d, out, s1\n\
///            out:\n    ret\n}\n";
/// let f = &parse_module(src).unwrap().functions[0];
/// let r = verify(f).unwrap();
/// assert!(r.interference.is_none() && !r.conventional());
/// let c = r.constant_conflict.unwrap();
/// assert_eq!((f.block_name(c.pred), c.member), ("entry", None));
/// assert_eq!(c.describe(f), "the constants that `x` and `y` take from entry \
///     are copied into their one web at its end");
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct ConstantConflict {
    /// The phi.
    pub(crate) phi: Inst,
    /// The predecessor whose end would get the copy.
    pub pred: Block,
    /// A variable of the web still needed at the end of `pred` (live out
    /// of it or read by its terminator), or `None` when another constant
    /// phi operand from `pred` goes into the same web.
    pub member: Option<Var>,
    /// With `member` `None`: the other phi.
    pub(crate) other: Option<Inst>,
}

impl ConstantConflict {
    /// What conflicts, in words (for the property report and the error of
    /// `destruct --conventional`).
    ///
    /// ```
    /// use ssakit::{text::parse_module, verify::verify};
    /// // `m` is live out of `entry` (for `t`), which hands its web the constant 2.
    /// let src = "function f(c) {\nentry:\n    m = c + 1\n    branch c, s, t\n\
    ///            s:\n    y = phi(entry: 2, t: m)\n    print y\n    ret\n\
    ///            t:\n    print m\n    jump s\n}\n";
    /// let f = &parse_module(src).unwrap().functions[0];
    /// let c = verify(f).unwrap().constant_conflict.unwrap();
    /// assert_eq!(c.describe(f), "the constant `y` takes from entry is copied into its \
    ///     web at the end of entry, where `m` of the same web is still needed");
    /// ```
    pub fn describe(&self, f: &Function) -> String {
        let names = crate::ir::VarNames::new(f);
        let dst = |i: Inst| f.def(i).map_or(String::new(), |d| names[d].to_string());
        let pred = f.block_name(self.pred);
        match (self.member, self.other) {
            (Some(m), _) => format!(
                "the constant `{}` takes from {pred} is copied into its web at the end of \
                 {pred}, where `{}` of the same web is still needed",
                dst(self.phi),
                &names[m]
            ),
            (None, Some(o)) => format!(
                "the constants that `{}` and `{}` take from {pred} are copied into their \
                 one web at its end",
                dst(o),
                dst(self.phi)
            ),
            (None, None) => format!("a constant from {pred} conflicts with its web"),
        }
    }
}

/// The first constant phi operand interfering with its web
/// ([`ConstantConflict`]), or `None`. Costs nothing without constant phi
/// operands; else the liveness of the members of the webs that take one
/// ([`VarLiveness`]).
fn constant_conflict(func: &Function, cfg: &Cfg, webs: &UnionFind) -> Option<ConstantConflict> {
    let web = |v: Var| webs.find_const(v.index());
    // Every constant operand as (predecessor, web, phi), in layout order.
    let mut consts: Vec<(Block, usize, Inst)> = Vec::new();
    for &b in func.layout() {
        for &i in func.block_phis(b) {
            if let InstData::Phi { dst, args } = func.inst(i) {
                for a in args.as_slice(func) {
                    if matches!(a.value, Operand::Const(_)) {
                        consts.push((a.block, web(*dst), i));
                    }
                }
            }
        }
    }
    if consts.is_empty() {
        return None;
    }
    // Two constants into one web at the end of one predecessor.
    let mut sorted = consts.clone();
    sorted.sort_unstable();
    for w in sorted.windows(2) {
        if w[0].0 == w[1].0 && w[0].1 == w[1].1 {
            let (pred, _, phi) = w[1];
            return Some(ConstantConflict {
                phi,
                pred,
                member: None,
                other: Some(w[0].2),
            });
        }
    }
    // A member live out of the predecessor, or read by its terminator.
    let mut has_const = vec![false; func.num_vars()];
    for &(_, w, _) in &consts {
        has_const[w] = true;
    }
    let mut by_var = VarLiveness::new(func, cfg);
    let mut out_pairs: Vec<(Block, Var)> = Vec::new();
    for v in func.vars().filter(|&v| has_const[web(v)]) {
        by_var.explore(v, |_| {}, |b| out_pairs.push((b, v)));
    }
    let live_out = Csr::from_pairs(func.num_blocks(), out_pairs);
    for &(pred, w, phi) in &consts {
        let mut member = live_out.of(pred).iter().copied().find(|&v| web(v) == w);
        if member.is_none() {
            func.for_each_term_use(pred, |v| {
                if member.is_none() && web(v) == w {
                    member = Some(v);
                }
            });
        }
        if member.is_some() {
            return Some(ConstantConflict {
                phi,
                pred,
                member,
                other: None,
            });
        }
    }
    None
}

/// Phis shown to be in DF⁺ of their group's non-phi definitions by their
/// operands alone, in O(phi operands); the minimality report computes DF⁺
/// only for groups with a phi not shown here.
///
/// A phi operand coming from predecessor `p` is defined in a block `d`
/// dominating `p` (the SSA dominance property). If `d` does not strictly
/// dominate the phi's block `b`, then `b ∈ DF(d)`. So `b ∈ DF⁺(D)` when some
/// operand of the group is defined in such a `d` by a non-phi definition
/// (`d ∈ D`), or by a phi already shown to be in DF⁺(D) (DF⁺ is closed under
/// DF). The fixpoint is found with a worklist from the first kind. On
/// minimal, semi-pruned and pruned SSA every phi is shown this way: a
/// thousand phi webs on a ladder each needed a full DF⁺ before (131 s for
/// the report on a million-block ladder).
fn certainly_in_idf(
    func: &Function,
    dt: &DomTree,
    group: &impl Fn(Var) -> usize,
) -> EntityVec<Inst, bool> {
    // Definition site of each variable: block, and the phi if it is one.
    let mut site: EntityVec<Var, Option<(Block, Option<Inst>)>> =
        EntityVec::filled(func.num_vars(), None);
    for &p in func.params() {
        site[p] = Some((func.entry(), None));
    }
    for &b in func.layout() {
        for &i in func.block_phis(b) {
            if let Some(d) = func.def(i) {
                site[d] = Some((b, Some(i)));
            }
        }
        for &i in func.block_insts(b) {
            func.for_each_def(i, |d| site[d] = Some((b, None)));
        }
    }
    let mut certain: EntityVec<Inst, bool> = EntityVec::filled(func.inst_slots(), false);
    // (phi operand's defining phi, phi that it would show), then grouped.
    let mut waits: Vec<(u32, Inst)> = Vec::new();
    let mut work: Vec<Inst> = Vec::new();
    for &b in func.layout() {
        for &i in func.block_phis(b) {
            let InstData::Phi { dst, args } = func.inst(i) else {
                continue;
            };
            for a in args.as_slice(func) {
                let Some(v) = a.value.var() else { continue };
                let Some((d, phi)) = site[v] else { continue };
                if group(v) != group(*dst) || dt.strictly_dominates(d, b) {
                    continue;
                }
                match phi {
                    None if !certain[i] => {
                        certain[i] = true;
                        work.push(i);
                    }
                    None => {}
                    Some(j) => waits.push((j.as_u32(), i)),
                }
            }
        }
    }
    waits.sort_unstable_by_key(|w| w.0);
    while let Some(j) = work.pop() {
        let from = waits.partition_point(|w| w.0 < j.as_u32());
        for &(k, i) in &waits[from..] {
            if k != j.as_u32() {
                break;
            }
            if !certain[i] {
                certain[i] = true;
                work.push(i);
            }
        }
    }
    certain
}

/// Phis not in the iterated dominance frontier of their group's other
/// definitions, or second phis of a group in one block.
fn non_minimal_phis(func: &Function, cfg: &Cfg, dt: &DomTree, webs: &UnionFind) -> Vec<Inst> {
    // Group of each variable: its original variable when known, else its
    // phi web's representative.
    let group = |v: Var| -> usize {
        match func.var(v).origin() {
            Some(o) => o.index(),
            None => webs.find_const(v.index()),
        }
    };
    let n = func.num_vars();
    // Definition blocks (non-phi) and phis of each group, bucketed.
    let mut def_blocks: Vec<Vec<Block>> = Vec::new();
    let mut phis: Vec<Vec<(Block, Inst)>> = Vec::new();
    let mut slot = vec![u32::MAX; n];
    let mut slot_of =
        |g: usize, def_blocks: &mut Vec<Vec<Block>>, phis: &mut Vec<Vec<(Block, Inst)>>| -> usize {
            if slot[g] == u32::MAX {
                slot[g] = def_blocks.len() as u32;
                def_blocks.push(Vec::new());
                phis.push(Vec::new());
            }
            slot[g] as usize
        };
    for &p in func.params() {
        let s = slot_of(group(p), &mut def_blocks, &mut phis);
        def_blocks[s].push(func.entry());
    }
    for &b in func.layout() {
        for &i in func.block_phis(b) {
            if let Some(d) = func.def(i) {
                let s = slot_of(group(d), &mut def_blocks, &mut phis);
                phis[s].push((b, i));
            }
        }
        for &i in func.block_insts(b) {
            func.for_each_def(i, |d| {
                let s = slot_of(group(d), &mut def_blocks, &mut phis);
                if def_blocks[s].last() != Some(&b) {
                    def_blocks[s].push(b);
                }
            });
        }
    }
    let certain = certainly_in_idf(func, dt, &group);
    let mut idf = IdfCalculator::new(cfg, dt);
    let mut in_idf = vec![u32::MAX; func.num_blocks()];
    let mut has_phi = vec![u32::MAX; func.num_blocks()];
    let mut out = Vec::new();
    let mut frontier = Vec::new();
    for (s, ph) in phis.iter().enumerate() {
        if ph.is_empty() {
            continue;
        }
        if ph.iter().all(|&(_, i)| certain[i]) {
            for &(b, _) in ph {
                in_idf[b.index()] = s as u32;
            }
        } else {
            frontier.clear();
            idf.compute(&def_blocks[s], &mut frontier);
            for &y in &frontier {
                in_idf[y.index()] = s as u32;
            }
        }
        for &(b, i) in ph {
            if in_idf[b.index()] != s as u32 || has_phi[b.index()] == s as u32 {
                out.push(i);
            }
            has_phi[b.index()] = s as u32;
        }
    }
    out
}
