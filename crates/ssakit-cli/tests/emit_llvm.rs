//! `ssakit emit-llvm`: prints the library's LLVM module for a file, and
//! reports an external it cannot declare with the function's name.

use std::io::Write;
use std::process::{Command, Stdio};

fn ssakit(args: &[&str], stdin: &str) -> std::process::Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_ssakit"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("ssakit runs");
    child
        .stdin
        .take()
        .unwrap()
        .write_all(stdin.as_bytes())
        .unwrap();
    child.wait_with_output().unwrap()
}

#[test]
fn emit_llvm_prints_the_library_module() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../../examples/seed.ssa");
    let out = ssakit(&["emit-llvm", path], "");
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    let m = ssakit::text::parse_module(&std::fs::read_to_string(path).unwrap()).unwrap();
    assert_eq!(text, ssakit::backend::llvm::emit_module(&m).unwrap());
    assert!(text.contains("%x.addr = alloca i64"), "{text}");
    assert!(text.contains("declare i64 @f(...)"), "{text}");
}

#[test]
fn emit_llvm_rejects_an_external_named_like_a_print_helper() {
    let src = "function main() {\nentry:\n    x = print_i64(1)\n    ret x\n}\n";
    let out = ssakit(&["emit-llvm", "-"], src);
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8(out.stderr).unwrap();
    assert!(
        err.contains("`main`") && err.contains("print helpers"),
        "{err}"
    );
}
