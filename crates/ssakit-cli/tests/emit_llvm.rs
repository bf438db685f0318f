//! `ssakit emit-llvm`: prints the library's LLVM module for a file, and
//! reports an external it cannot declare with the function's name.

mod common;

use common::{example, ssakit, stderr, stdout};

#[test]
fn emit_llvm_prints_the_library_module() {
    let path = example("seed.ssa");
    let out = ssakit(&["emit-llvm", &path], None);
    assert!(out.status.success());
    let text = stdout(&out);
    let m = ssakit::text::parse_module(&std::fs::read_to_string(&path).unwrap()).unwrap();
    assert_eq!(text, ssakit::backend::llvm::emit_module(&m).unwrap());
    assert!(text.contains("%x.addr = alloca i64"), "{text}");
    assert!(text.contains("declare i64 @f(...)"), "{text}");
}

#[test]
fn emit_llvm_rejects_an_external_named_like_a_print_helper() {
    let src = "function main() {\nentry:\n    x = print_i64(1)\n    ret x\n}\n";
    let out = ssakit(&["emit-llvm", "-"], Some(src));
    assert_eq!(out.status.code(), Some(1));
    let err = stderr(&out);
    assert!(
        err.contains("`main`") && err.contains("print helpers"),
        "{err}"
    );
}

/// A typed program with an operation: refused by default (exit 1, the
/// type named), emitted with `--opaque` as the library's opaque module.
#[test]
fn emit_llvm_opaque_takes_what_the_default_refuses() {
    let src = "operator i32.add pure\nfunction f(a: i32) -> i32 {\ne:\n    b: i32 = i32.add(a, a)\n    ret b\n}\n";
    let out = ssakit(&["emit-llvm", "-"], Some(src));
    assert_eq!(out.status.code(), Some(1));
    assert!(stderr(&out).contains("only `i64` can be emitted"));
    let out = ssakit(&["emit-llvm", "--opaque", "-"], Some(src));
    assert!(out.status.success(), "{}", stderr(&out));
    let m = ssakit::text::parse_module(src).unwrap();
    let opts = ssakit::backend::llvm::EmitOptions { opaque: true };
    let expected = ssakit::backend::llvm::emit_module_with(&m, &opts).unwrap();
    assert_eq!(stdout(&out), expected);
    assert!(expected.contains("@op.i32.add("), "{expected}");
}
