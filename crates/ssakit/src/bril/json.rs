//! Bril's canonical JSON form (`docs/lang/syntax.md`): `{"functions":
//! [{"name", "args": [{"name", "type"}], "type", "instrs": [...]}]}`, an
//! instruction `{"op", "dest", "type", "args", "funcs", "labels",
//! "value"}` or a label `{"label"}`. Keys ssakit does not know (`pos`,
//! ...) are ignored.

use super::ast::{Code, Func, Instr, Literal, Loc, Program, Ty};
use super::Error;
use crate::text::Diagnostic;
use serde_json::{json, Map, Value};

/// Parses a Bril JSON program into its syntax tree.
pub(crate) fn parse(src: &str) -> Result<Program, Error> {
    let v: Value = serde_json::from_str(src).map_err(|e| {
        let at = offset(src, e.line(), e.column());
        let msg = format!("malformed JSON: {e}");
        let msg = msg
            .rsplit_once(" at line ")
            .map_or(msg.clone(), |(m, _)| m.to_string());
        Error::Text(Diagnostic::new(msg, at..at, "here"))
    })?;
    let top = |m: &str| Error::at(None, None, m);
    let obj = v
        .as_object()
        .ok_or_else(|| top("a Bril program is a JSON object"))?;
    for k in ["imports", "structs"] {
        if obj
            .get(k)
            .is_some_and(|x| x.as_array().is_none_or(|a| !a.is_empty()))
        {
            return Err(top(&format!("`{k}` is not supported (only core Bril)")));
        }
    }
    let funcs = obj
        .get("functions")
        .and_then(Value::as_array)
        .ok_or_else(|| top("a Bril program needs a `functions` array"))?;
    let mut program = Program::default();
    for (k, f) in funcs.iter().enumerate() {
        program.functions.push(function(k, f)?);
    }
    Ok(program)
}

/// The byte offset of serde_json's 1-based `line` and `col` in `src`.
fn offset(src: &str, line: usize, col: usize) -> usize {
    let start: usize = src
        .split_inclusive('\n')
        .take(line.saturating_sub(1))
        .map(str::len)
        .sum();
    let rest = &src[start.min(src.len())..];
    // serde_json counts the characters it read on the line: the offending
    // one is the next, unless the line ends there.
    let line_len = rest.find(['\n', '\r']).unwrap_or(rest.len());
    let within: usize = rest[..line_len].chars().take(col).map(char::len_utf8).sum();
    (start + within).min(src.len())
}

fn function(k: usize, f: &Value) -> Result<Func, Error> {
    let name = f
        .get("name")
        .and_then(Value::as_str)
        .ok_or_else(|| Error::at(None, None, &format!("function {k} has no `name` string")))?
        .to_string();
    let here = |idx: Option<usize>, m: &str| Error::at(Some(&name), idx, m);
    let mut func = Func {
        name: name.clone(),
        args: Vec::new(),
        ret: None,
        body: Vec::new(),
        loc: Loc::Index(usize::MAX),
    };
    if let Some(args) = f.get("args") {
        let args = args
            .as_array()
            .ok_or_else(|| here(None, "`args` is not an array"))?;
        for a in args {
            let n = a.get("name").and_then(Value::as_str);
            let t = a
                .get("type")
                .map(ty)
                .transpose()
                .map_err(|m| here(None, &m))?;
            match (n, t) {
                (Some(n), Some(t)) => func.args.push((n.to_string(), t)),
                _ => return Err(here(None, "a parameter needs a `name` and a `type`")),
            }
        }
    }
    if let Some(t) = f.get("type") {
        func.ret = Some(ty(t).map_err(|m| here(None, &m))?);
    }
    let instrs = f
        .get("instrs")
        .and_then(Value::as_array)
        .ok_or_else(|| here(None, "a function needs an `instrs` array"))?;
    for (i, c) in instrs.iter().enumerate() {
        let loc = Loc::Index(i);
        let bad = |m: &str| here(Some(i), m);
        let o = c
            .as_object()
            .ok_or_else(|| bad("an instruction is a JSON object"))?;
        if let Some(l) = o.get("label") {
            let name = l.as_str().ok_or_else(|| bad("`label` is not a string"))?;
            func.body.push(Code::Label {
                name: name.to_string(),
                loc,
            });
            continue;
        }
        let op = o
            .get("op")
            .and_then(Value::as_str)
            .ok_or_else(|| bad("an instruction needs an `op` string (or a `label`)"))?;
        let strings = |key: &str| -> Result<Vec<String>, Error> {
            match o.get(key) {
                None => Ok(Vec::new()),
                Some(Value::Array(a)) => a
                    .iter()
                    .map(|x| x.as_str().map(str::to_string))
                    .collect::<Option<Vec<_>>>()
                    .ok_or_else(|| bad(&format!("`{key}` holds a non-string"))),
                Some(_) => Err(bad(&format!("`{key}` is not an array"))),
            }
        };
        let value = match o.get("value") {
            None => None,
            Some(Value::Bool(b)) => Some(Literal::Bool(*b)),
            Some(Value::Number(n)) => Some(match n.as_i64() {
                Some(v) => Literal::Int(v),
                None => Literal::Other(n.to_string()),
            }),
            Some(other) => Some(Literal::Other(other.to_string())),
        };
        let dest = match o.get("dest") {
            None => None,
            Some(d) => Some(
                d.as_str()
                    .ok_or_else(|| bad("`dest` is not a string"))?
                    .to_string(),
            ),
        };
        func.body.push(Code::Instr(Instr {
            op: op.to_string(),
            dest,
            ty: o.get("type").map(ty).transpose().map_err(|m| bad(&m))?,
            args: strings("args")?,
            funcs: strings("funcs")?,
            labels: strings("labels")?,
            value,
            loc,
        }));
    }
    Ok(func)
}

/// A type: `"int"`, `"bool"`, or a parameterised `{"ptr": T}`.
fn ty(v: &Value) -> Result<Ty, String> {
    match v {
        Value::String(s) => Ok(Ty::from_name(s)),
        Value::Object(m) if m.len() == 1 => {
            let (k, inner) = m.iter().next().expect("one entry");
            Ok(Ty::Other(format!("{k}<{}>", ty(inner)?.name())))
        }
        _ => Err(format!("malformed type {v}")),
    }
}

/// Prints a program as JSON, one key order for every instruction
/// (`serde_json` sorts keys), two-space indented.
pub(crate) fn print(p: &Program) -> String {
    let functions: Vec<Value> = p
        .functions
        .iter()
        .map(|f| {
            let mut m = Map::new();
            m.insert("name".into(), json!(f.name));
            if !f.args.is_empty() {
                let args: Vec<Value> = f
                    .args
                    .iter()
                    .map(|(n, t)| json!({"name": n, "type": t.name()}))
                    .collect();
                m.insert("args".into(), Value::Array(args));
            }
            if let Some(t) = &f.ret {
                m.insert("type".into(), json!(t.name()));
            }
            let instrs: Vec<Value> = f.body.iter().map(code).collect();
            m.insert("instrs".into(), Value::Array(instrs));
            Value::Object(m)
        })
        .collect();
    let mut s = serde_json::to_string_pretty(&json!({ "functions": functions }))
        .expect("a JSON value prints");
    s.push('\n');
    s
}

fn code(c: &Code) -> Value {
    match c {
        Code::Label { name, .. } => json!({ "label": name }),
        Code::Instr(i) => {
            let mut m = Map::new();
            m.insert("op".into(), json!(i.op));
            if let Some(d) = &i.dest {
                m.insert("dest".into(), json!(d));
            }
            if let Some(t) = &i.ty {
                m.insert("type".into(), json!(t.name()));
            }
            for (k, v) in [
                ("args", &i.args),
                ("funcs", &i.funcs),
                ("labels", &i.labels),
            ] {
                if !v.is_empty() {
                    m.insert(k.into(), json!(v));
                }
            }
            match &i.value {
                Some(Literal::Int(n)) => {
                    m.insert("value".into(), json!(n));
                }
                Some(Literal::Bool(b)) => {
                    m.insert("value".into(), json!(b));
                }
                Some(Literal::Other(o)) => {
                    m.insert("value".into(), json!(o));
                }
                None => {}
            }
            Value::Object(m)
        }
    }
}
