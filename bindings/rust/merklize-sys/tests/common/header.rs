// SPDX-License-Identifier: Apache-2.0 OR MIT
//! merklize.h read as a C compiler would see its declarations: every `MERKLIZE_API` function
//! with its parameters, every struct with its members, the opaque types, every enum constant
//! and every integer `#define MERKLIZE_*`. A construct this reader does not know fails the test
//! rather than being skipped, so that nothing the header declares goes unchecked.

use super::integer;
use super::tokens::{closing, split_top, tokens, without_comments};

/// A C type as written: its tokens (`const`, `struct`, names, `*`), and an array's dimension.
#[derive(Clone, Debug)]
pub struct CType {
    pub tokens: Vec<String>,
    pub array: Option<String>,
}

#[derive(Clone, Debug)]
pub struct Variable {
    pub name: String,
    pub ty: CType,
}

#[derive(Debug)]
pub struct Function {
    pub name: String,
    pub result: CType,
    pub params: Vec<Variable>,
}

#[derive(Debug)]
pub struct Struct {
    pub name: String,
    pub members: Vec<Variable>,
}

#[derive(Debug)]
pub struct Enum {
    pub name: String,
    pub constants: Vec<(String, i128)>,
}

#[derive(Debug, Default)]
pub struct Header {
    pub functions: Vec<Function>,
    pub structs: Vec<Struct>,
    pub opaque: Vec<String>,
    pub enums: Vec<Enum>,
    pub defines: Vec<(String, i128)>,
    /// The `static inline` helpers (merklize_source_memory, ...).
    pub inline_functions: Vec<String>,
}

impl Header {
    pub fn parse(text: &str) -> Header {
        let mut header = Header::default();
        let code = preprocessed(&without_comments(text), &mut header.defines);
        let all = tokens(&code);
        let all = without_inline_functions(&all, &mut header.inline_functions);
        for statement in split_top(&all, ";") {
            header.statement(statement);
        }
        header
    }

    fn statement(&mut self, t: &[String]) {
        let words: Vec<&str> = t.iter().map(String::as_str).collect();
        match words.as_slice() {
            [] => {}
            ["struct", name] => self.opaque.push(name.to_string()),
            ["typedef", "struct", name, alias] if name == alias => {
                self.opaque.push(name.to_string())
            }
            ["typedef", "struct", name, "{", .., "}", alias] if name == alias => {
                let body = &t[4..t.len() - 2];
                let members = split_top(body, ";").into_iter().map(variable).collect();
                self.structs.push(Struct {
                    name: name.to_string(),
                    members,
                });
            }
            ["typedef", "enum", name, "{", .., "}", alias] if name == alias => {
                let body = &t[4..t.len() - 2];
                let constants = split_top(body, ",")
                    .into_iter()
                    .map(|c| match c {
                        [name, eq, value] if eq == "=" => {
                            let v =
                                integer(value).unwrap_or_else(|| panic!("enum value {}", value));
                            (name.clone(), v)
                        }
                        other => {
                            panic!("merklize.h: an enum constant without a value: {:?}", other)
                        }
                    })
                    .collect();
                self.enums.push(Enum {
                    name: name.to_string(),
                    constants,
                });
            }
            ["MERKLIZE_API", ..] => self.functions.push(function(&t[1..])),
            _ => panic!(
                "merklize.h: a declaration this test does not read: {}",
                words.join(" ")
            ),
        }
    }

    pub fn function(&self, name: &str) -> Option<&Function> {
        self.functions.iter().find(|f| f.name == name)
    }
}

/// The code without preprocessor lines (integer `#define MERKLIZE_*`s collected), and without
/// what only a C++ compiler sees (`#ifdef __cplusplus` ... `#endif`).
fn preprocessed(code: &str, defines: &mut Vec<(String, i128)>) -> String {
    let mut out = String::new();
    let mut cplusplus = 0; // depth of #if nesting inside an #ifdef __cplusplus, 0: outside
    for line in code.lines() {
        let trimmed = line.trim_start();
        if let Some(directive) = trimmed.strip_prefix('#') {
            let words: Vec<&str> = directive.split_whitespace().collect();
            match words.as_slice() {
                ["ifdef", "__cplusplus"] if cplusplus == 0 => cplusplus = 1,
                [w, ..] if cplusplus > 0 && w.starts_with("if") => cplusplus += 1,
                ["endif", ..] if cplusplus > 0 => cplusplus -= 1,
                ["define", name, value] if name.starts_with("MERKLIZE_") => {
                    if let Some(v) = integer(value) {
                        defines.push((name.to_string(), v));
                    }
                }
                _ => {}
            }
            continue;
        }
        if cplusplus == 0 {
            out.push_str(line);
            out.push('\n');
        }
    }
    out
}

/// The tokens without `static inline` function definitions, whose names are collected.
fn without_inline_functions(t: &[String], names: &mut Vec<String>) -> Vec<String> {
    let mut out = Vec::new();
    let mut i = 0;
    while i < t.len() {
        if t[i] == "static" && t.get(i + 1).map(String::as_str) == Some("inline") {
            let paren = (i..t.len())
                .find(|&k| t[k] == "(")
                .expect("static inline without (");
            names.push(t[paren - 1].clone());
            let body = (paren..t.len())
                .find(|&k| t[k] == "{")
                .expect("static inline without {");
            i = closing(t, body) + 1;
        } else {
            out.push(t[i].clone());
            i += 1;
        }
    }
    out
}

/// `type name` or `type name[N]`.
fn variable(t: &[String]) -> Variable {
    let (before, array) = match t.iter().position(|x| x == "[") {
        Some(open) => (&t[..open], Some(t[open + 1..t.len() - 1].join(" "))),
        None => (t, None),
    };
    let (name, ty) = before
        .split_last()
        .unwrap_or_else(|| panic!("empty declaration"));
    Variable {
        name: name.clone(),
        ty: CType {
            tokens: ty.to_vec(),
            array,
        },
    }
}

/// `result name(params)`.
fn function(t: &[String]) -> Function {
    let open = t
        .iter()
        .position(|x| x == "(")
        .expect("a function without (");
    let close = closing(t, open);
    assert_eq!(
        close,
        t.len() - 1,
        "merklize.h: text after the parameters of {:?}",
        t
    );
    let params: Vec<&[String]> = split_top(&t[open + 1..close], ",");
    let params = match params.as_slice() {
        [only] if only.len() == 1 && only[0] == "void" => Vec::new(),
        _ => params.into_iter().map(variable).collect(),
    };
    Function {
        name: t[open - 1].clone(),
        result: CType {
            tokens: t[..open - 1].to_vec(),
            array: None,
        },
        params,
    }
}

/// The Rust spelling of a C type (tokens joined by single spaces, as [`super::rust_source`]
/// gives the crate's), by a small table of base types: pointers as `*const`/`*mut`
/// as the pointee's constness says; an array parameter as the pointer it is; a struct member's
/// array as `[T; N]` (N resolved through `defines`); `void` results as "" (no result).
pub fn rust_type(ty: &CType, parameter: bool, defines: &[(String, i128)]) -> String {
    let mut base = None;
    let mut constness = vec![false];
    for token in &ty.tokens {
        match token.as_str() {
            "const" => *constness.last_mut().unwrap() = true,
            "*" => constness.push(false),
            "struct" | "enum" => {}
            name => {
                assert!(base.is_none(), "two base types in {:?}", ty.tokens);
                base = Some(rust_base(name));
            }
        }
    }
    let base = base.unwrap_or_else(|| panic!("no base type in {:?}", ty.tokens));
    let pointers = constness.len() - 1;
    if base == "c_void" && pointers == 0 && ty.array.is_none() {
        return String::new();
    }
    let mut rust = base.to_string();
    for &pointee_const in &constness[..pointers] {
        rust = pointer(pointee_const, &rust);
    }
    match &ty.array {
        None => rust,
        Some(_) if parameter => pointer(constness[pointers], &rust),
        Some(n) => {
            let n = integer(n)
                .or_else(|| defines.iter().find(|d| &d.0 == n).map(|d| d.1))
                .unwrap_or_else(|| panic!("array dimension {}", n));
            format!("[ {} ; {} ]", rust, n)
        }
    }
}

fn pointer(pointee_const: bool, to: &str) -> String {
    format!("* {} {}", if pointee_const { "const" } else { "mut" }, to)
}

fn rust_base(c: &str) -> &str {
    match c {
        "uint8_t" => "u8",
        "uint32_t" => "u32",
        "uint64_t" => "u64",
        "int32_t" => "i32",
        "size_t" => "usize",
        "int" => "c_int",
        "char" => "c_char",
        "void" => "c_void",
        // merklize_* and OpenCL's _cl_* are declared under their own names.
        named if named.starts_with("merklize_") || named.starts_with("_cl_") => named,
        other => panic!(
            "merklize.h uses the type `{}`, which this test's table does not map",
            other
        ),
    }
}

/// The Rust name of a C member or parameter (`type` is a keyword: `type_`).
pub fn rust_name(c: &str) -> String {
    match c {
        "type" | "fn" | "ref" | "mod" | "match" | "move" | "box" | "impl" | "loop" | "use" => {
            format!("{}_", c)
        }
        other => other.to_string(),
    }
}
