//! Stackify's moves and the locals' value-based sharing on small
//! programs: what stays on the stack, where a tree is emitted,
//! which variables share a local.
use super::ctl::Structured;
use super::locals::{assign, Local, Locals};
use super::lower::Lowering;
use super::plan::Node;
use super::stackify::{stackify, Stackified};
use super::structure::structure;
use crate::module::Signature;
use ssakit::entity::EntityRef;
use ssakit::ir::{Function, Type, Var};

/// The one function of `src`.
pub(super) fn func(src: &str) -> Function {
    ssakit::text::parse_module(src).unwrap().functions.remove(0)
}

/// The one function of `text`, whose parameters and result are `i64`s,
/// structured and stackified.
pub(super) fn stackified(text: &str) -> (Function, Structured, Stackified) {
    let f = ssakit::text::parse_module(text)
        .unwrap()
        .functions
        .remove(0);
    let ops = super::OpTable::new(f.symbols());
    let sig = Signature {
        params: vec![Type::I64; f.params().len()],
        results: vec![Type::I64],
    };
    let types = [Some(sig)];
    let low = Lowering {
        ops: &ops,
        callees: &[],
        func_types: &[0],
        types: &types,
        globals: &[],
        print: &[None, Some(0)],
    };
    let s = structure(&f).unwrap();
    let st = stackify(&f, &low, &s).unwrap();
    (f, s, st)
}

/// `(stackified, local of each variable)` of the one function of
/// `text`, whose parameters and result are `i64`s.
pub(super) fn run(text: &str) -> (Function, Stackified, Locals) {
    let (f, s, st) = stackified(text);
    let local = assign(&f, &s, &st).local;
    (f, st, local)
}

pub(super) fn var(f: &Function, name: &str) -> Var {
    f.var_by_name(name).unwrap()
}

/// The index of the local of variable `name`, if it has one.
pub(super) fn local_index(local: &Locals, f: &Function, name: &str) -> Option<usize> {
    local[var(f, name)].expand().map(Local::index)
}

/// A pure definition moves down past an instruction in between to
/// its one use, and its tree is emitted there.
#[test]
fn pure_definition_moves_to_its_use() {
    let (f, st, _) =
        run("function f(a, b) {\ne:\n  x = a + b\n  print a\n  y = x * 2\n  ret y\n}\n");
    assert!(st.on_stack[var(&f, "x")]);
    let insts = f.block_insts(f.entry());
    // In `y`'s tree, itself right before `ret` in `ret`'s (in place):
    // emitted at `y`'s place.
    assert_eq!(st.at[insts[0]], 2);
    assert_eq!(st.at[insts[2]], 2);
    assert_eq!(st.at[insts[1]], 1);
}

/// Not past a write of what it reads, and not when it may trap (a
/// trap moved past `print` would lose the line printed).
#[test]
fn no_move_past_a_write_of_an_operand_or_of_a_trap() {
    let (f, st, _) = run(
        "function f(a, b) {\ne:\n  x = a + b\n  a = b * 3\n  print a\n  y = x * a\n  ret y\n}\n",
    );
    assert!(!st.on_stack[var(&f, "x")]);
    let (f, st, _) =
        run("function f(a, b) {\ne:\n  x = a / b\n  print a\n  y = x + 1\n  ret y\n}\n");
    assert!(!st.on_stack[var(&f, "x")]);
    let (f, st, _) =
        run("function f(a, b) {\ne:\n  x = a / -1\n  print a\n  y = x + 1\n  ret y\n}\n");
    assert!(!st.on_stack[var(&f, "x")]);
}

/// A moved definition reads its operands where its tree is emitted:
/// `c`'s local stays `c`'s until `y`, so `z`, written before, gets
/// another (with reads at `x`'s own place, `z` took `c`'s local and
/// `x` read `z`'s value).
#[test]
fn a_moved_read_keeps_its_local_live() {
    let (f, st, local) = run(
        "function f(a, b) {\ne:\n  c = a * b\n  print c\n  x = c + 1\n  z = b - 1\n  print z\n  y = x + z\n  ret y\n}\n",
    );
    assert!(st.on_stack[var(&f, "x")]);
    assert!(!st.on_stack[var(&f, "c")] && !st.on_stack[var(&f, "z")]);
    assert_ne!(local[var(&f, "c")], local[var(&f, "z")]);
}

/// Value-based interference (Boissinot et al.): `y = x` holds `x`'s
/// value wherever both are live, so they share a local although their
/// live ranges overlap, and the copy goes.
#[test]
fn copies_of_one_value_share_a_local() {
    let (f, st, local) = run(
        "function f(a, b) {\ne:\n  x = a + b\n  y = x\n  print x\n  print y\n  print y\n  ret a\n}\n",
    );
    assert!(!st.on_stack[var(&f, "x")] && !st.on_stack[var(&f, "y")]);
    assert_eq!(local[var(&f, "x")], local[var(&f, "y")]);
}

/// Not when the copy is live where its source is written again: `y`,
/// read before `y = x` in the loop, holds the previous turn's `x` there.
#[test]
fn a_copy_live_across_its_source_keeps_its_own_local() {
    let (f, st, local) = run(
        "function f(a) {\ne:\n  jump h\nh:\n  x = a + 1\n  print y\n  y = x\n  print x\n  print y\n  branch a, h, out\nout:\n  ret a\n}\n",
    );
    assert!(!st.on_stack[var(&f, "x")] && !st.on_stack[var(&f, "y")]);
    assert_ne!(local[var(&f, "x")], local[var(&f, "y")]);
}

/// Locals numbered by use (LLVM's register colouring sorts by weight):
/// with 131 locals (each `v` read twice), `h`, made last but read most, gets the first index
/// after the parameter, a 1-byte LEB128, instead of index 131 (2 bytes).
#[test]
fn the_most_used_local_gets_the_first_index() {
    let mut text = String::from("function f(a) {\ne:\n");
    for k in 0..130 {
        text.push_str(&format!("  v{k} = a + {k}\n"));
    }
    text.push_str("  h = a * 3\n");
    for _ in 0..6 {
        text.push_str("  print h\n");
    }
    for k in 0..260 {
        text.push_str(&format!("  print v{}\n", k % 130));
    }
    text.push_str("  ret a\n}\n");
    let (f, st, local) = run(&text);
    assert!((0..130).all(|k| !st.on_stack[var(&f, &format!("v{k}"))]));
    assert_eq!(local_index(&local, &f, "h"), Some(1));
    assert!((0..130).all(|k| local_index(&local, &f, &format!("v{k}")) > Some(1)));
}

/// A hole in a local's live range is free: `u`,
/// live only inside `l`, takes the local of `x` or `y`, live across `r`
/// (emitted after `l`) but dead inside `l` once `u` is written; not the
/// local of `c`, live through `l`.
#[test]
fn a_variable_fits_in_a_hole_of_a_local() {
    let (f, st, local) = run(
        "function f(c) {\ne:\n  x = c + 1\n  y = c + 2\n  branch c, l, r\nl:\n  u = x * y\n  v = u * u\n  t = v + c\n  ret t\nr:\n  w = y + x\n  z = w + c\n  ret z\n}\n",
    );
    let l = |n| local[var(&f, n)];
    assert!(["u", "x", "y"].iter().all(|n| !st.on_stack[var(&f, n)]));
    assert!(l("u") == l("x") || l("u") == l("y"));
    assert_ne!(l("x"), l("y"));
    assert_ne!(l("u"), l("c"));
}

/// A parameter's local is free once the parameter is dead: `x` takes
/// `a`'s. A variable read before any definition (`x` on the path
/// `e -> r`, which relies on a local's zero) never takes a parameter's
/// local, which holds the argument instead, even when never read (`a`).
#[test]
fn a_dead_parameter_gives_its_local_but_not_to_a_zero() {
    let (f, _, local) =
        run("function f(a, b) {\ne:\n  x = a * b\n  print x\n  print x\n  ret b\n}\n");
    assert_eq!(local_index(&local, &f, "x"), Some(0));
    let (f, _, local) = run(
        "function f(a, c) {\ne:\n  branch c, l, r\nl:\n  x = 5\n  jump r\nr:\n  print x\n  print x\n  ret 0\n}\n",
    );
    assert_ne!(local_index(&local, &f, "x"), Some(0));
}

/// A load kept under `print b` for `y = x + b` (rule 6: `y` reads a
/// value under trees), then `y`, read twice, and its uses after it.
fn pinned_tee(tail: &str) -> String {
    format!(
        "operator i64.load trap read\nfunction f(a, b) {{\ne:\n  x = i64.load[0, 3](a)\n  print b\n  y = x + b\n{tail}  print y\n  ret a\n}}\n"
    )
}

/// Rule 9: `y`, whose tree reads a value under trees, ends with
/// `local.tee` in its first reader's tree, as that reader's first
/// operand emitted in place (`z = y * 3`, `z` printed): no `local.set
/// y; local.get y`. The value under trees stays where it was.
#[test]
fn rule_9_a_tree_reading_a_value_under_trees_joins_as_first_operand() {
    let (f, st, _) = run(&pinned_tee("  z = y * 3\n  print z\n"));
    let i = f.block_insts(f.entry());
    assert!(st.stacked[var(&f, "x")]);
    assert_eq!(st.tee_in[var(&f, "y")], Some(Node::Inst(i[3])));
    assert!(st.absorbed[i[2]] && st.teed[i[2]]);
}

/// Rule 9's guard: not when the reader, pinned then, would lose its own
/// join (`z` right before `r = b - z`, which reads it second and does
/// not commute: `z` would need a local); not as a later operand of a
/// subtraction (`z = b - y`).
#[test]
fn rule_9_not_when_the_reader_loses_its_join() {
    let (f, st, _) = run(&pinned_tee("  z = y * 3\n  r = b - z\n  print r\n"));
    assert_eq!(st.tee_in[var(&f, "y")], None);
    assert!(st.on_stack[var(&f, "z")]);
    let (f, st, _) = run(&pinned_tee("  z = b - y\n  print z\n"));
    assert_eq!(st.tee_in[var(&f, "y")], None);
}

/// Rule 10: `w = b + y`, `b` a parameter's `local.get`, `y` a tree right
/// before reading a value under trees: the add takes `y` first, so `y`
/// joins it (rule 9) with its tee; `w`'s operands are pushed the other
/// way round. Not for a subtraction (above), nor when the first
/// operand is itself a tree's value (`c = a * 2` right before).
#[test]
fn rule_10_a_commutative_operation_takes_the_pinned_tree_first() {
    let (f, st, _) = run(&pinned_tee("  w = b + y\n  print w\n"));
    let i = f.block_insts(f.entry());
    assert_eq!(st.tee_in[var(&f, "y")], Some(Node::Inst(i[3])));
    let (f, st, _) = run(&pinned_tee("  c = a * 2\n  w = c + y\n  print w\n"));
    assert_eq!(st.tee_in[var(&f, "y")], None);
}

/// Rule 11: `w = y - b`, holding `x`'s tee (in `y = x * 3`), joins
/// `z = w + x`, which reads `x` again at a later operand: `w`'s tree
/// and its tee run before `z`'s `local.get x`. (Without the rule the
/// read taints `w`'s tree, which then takes a local.)
#[test]
fn rule_11_a_child_joins_past_a_later_read_of_its_tee() {
    let (f, st, _) = run(
        "function f(a, b) {\ne:\n  x = a + b\n  y = x * 3\n  w = y - b\n  z = w + x\n  ret z\n}\n",
    );
    let i = f.block_insts(f.entry());
    assert_eq!(st.tee_in[var(&f, "x")], Some(Node::Inst(i[1])));
    assert!(st.on_stack[var(&f, "w")] && st.absorbed[i[2]]);
}

/// Rule 11's guard: `y`'s tree (holding `x`'s tee) does not join `c = y
/// - x` when `c`'s own reader reads `x` before `c` (`select(x, b, c)`:
/// the tee cannot move there past `b`): `c` would be kept out and take
/// a local; `c` joins the `select` instead.
#[test]
fn rule_11_not_when_the_user_would_lose_its_join() {
    let (f, st, _) = run(
        "operator select pure\nfunction f(a, b) {\ne:\n  x = a * b\n  y = x + 1\n  c = y - x\n  s = select(x, b, c)\n  print y\n  print s\n  ret a\n}\n",
    );
    assert!(st.on_stack[var(&f, "c")]);
    assert!(!st.on_stack[var(&f, "y")] && st.tee_in[var(&f, "y")].is_none());
}

mod tidy {
    //! The peephole rules of `emit/tidy.rs` on the output of Ramsey's
    //! translation.
    use super::func;
    use crate::emit::ctl::Ctl;
    use crate::emit::structure::{structure, translate};
    use ssakit::ir::Block;

    /// A loop whose exit test is a `branch` with the back edge on one side:
    /// Ramsey's translation gives `if; br; else; ...; end`, tidy a `br_if`.
    #[test]
    fn a_lone_br_arm_becomes_br_if() {
        let f = func(
            "function f(n) {\nentry:\n  i = 0\n  jump head\nhead:\n  i = i + 1\n  c = i < n\n  branch c, head, out\nout:\n  ret i\n}\n",
        );
        let raw = translate(&f).unwrap();
        assert!(raw.items.contains(&Ctl::Else));
        let s = structure(&f).unwrap();
        assert!(!s.items.contains(&Ctl::Else), "{:?}", s.items);
        assert!(
            s.items.iter().any(|c| matches!(
                c,
                Ctl::BrIf {
                    depth: 0,
                    negate: false,
                    ..
                }
            )),
            "{:?}",
            s.items
        );
        assert!(s.items.len() < raw.items.len());
    }

    /// A diamond keeps its `if`/`else`; the `br`s to the merge that falls
    /// through go, and so does the merge's `block`, which nothing targets.
    #[test]
    fn a_diamond_loses_its_fall_through_brs() {
        let f = func(
            "function f(a) {\nentry:\n  branch a, t, e\nt:\n  x = 1\n  jump m\ne:\n  x = 2\n  jump m\nm:\n  ret x\n}\n",
        );
        let raw = translate(&f).unwrap();
        assert!(raw.items.iter().any(|c| matches!(c, Ctl::Br(_))));
        let s = structure(&f).unwrap();
        assert!(
            !s.items.iter().any(|c| matches!(c, Ctl::Br(_) | Ctl::Block)),
            "{:?}",
            s.items
        );
        assert!(s.items.contains(&Ctl::Else));
    }

    /// Rule 5: `e` skips `t` when `a` holds: Ramsey's `block`, tidied to
    /// `block; br_if 0; ...; end` (the `branch`'s then-arm a lone `br`),
    /// becomes an `if` on `a` negated around `t`, `e`'s body before it.
    #[test]
    fn rule_5_a_skip_becomes_an_if() {
        let f = func(
            "function f(a, b) {\ne:\n  print b\n  branch a, m, t\nt:\n  print a\n  jump m\nm:\n  ret b\n}\n",
        );
        let (e, t, m) = (Block::new(0), Block::new(1), Block::new(2));
        assert!(translate(&f).unwrap().items.contains(&Ctl::Block));
        let s = structure(&f).unwrap();
        assert_eq!(
            s.items,
            [
                Ctl::Body(e),
                Ctl::IfNot(e),
                Ctl::Body(t),
                Ctl::End,
                Ctl::Body(m),
                Ctl::Ret(m)
            ]
        );
    }
}
