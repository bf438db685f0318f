//! The example `examples/foreign_ir.rs` (a client IR using ssakit's phi
//! placement and parallel-copy sequentialization) prints what
//! `tests/golden/foreign_ir.txt` holds; the example itself asserts that
//! both DF⁺ algorithms agree and that each sequence of moves has the
//! parallel copy's effect on a register file.

#[allow(dead_code)]
#[path = "../examples/foreign_ir.rs"]
mod foreign_ir;

#[path = "support/golden.rs"]
mod golden_file;

#[test]
fn the_foreign_ir_example_prints_its_golden_output() {
    golden_file::golden("foreign_ir.txt", &foreign_ir::report());
}
