// SPDX-License-Identifier: Apache-2.0 OR MIT
//! This crate's declarations read from its sources (src/*.rs), as written: the functions of its
//! `extern "C"` blocks, its `#[repr(C)]` structs and opaque types, its type aliases, constants
//! and the plain functions standing for the header's `static inline` ones. Types come out as
//! their tokens joined by single spaces, paths (`std::os::raw::`) removed.

use super::integer;
use super::tokens::{closing, split_top, tokens, without_comments};

#[derive(Debug)]
pub struct Function {
    pub name: String,
    pub params: Vec<(String, String)>,
    pub result: String,
}

#[derive(Debug)]
pub struct Struct {
    pub name: String,
    pub fields: Vec<(String, String)>,
}

#[derive(Debug, Default)]
pub struct Declarations {
    pub functions: Vec<Function>,
    pub structs: Vec<Struct>,
    pub opaque: Vec<String>,
    pub types: Vec<(String, String)>,
    pub consts: Vec<(String, String, i128)>,
    pub helpers: Vec<String>,
}

impl Declarations {
    /// The declarations of every .rs file under src/.
    pub fn of_crate() -> Declarations {
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
        let mut paths: Vec<_> = std::fs::read_dir(&dir)
            .expect("the crate's src/")
            .map(|e| e.expect("a file of src/").path())
            .filter(|p| p.extension().map_or(false, |e| e == "rs"))
            .collect();
        paths.sort();
        let mut d = Declarations::default();
        for path in paths {
            let text = std::fs::read_to_string(&path).expect("a source file");
            d.read(&tokens(&without_comments(&text)));
        }
        d
    }

    fn read(&mut self, t: &[String]) {
        let at = |k: usize| t.get(k).map_or("", String::as_str);
        let mut i = 0;
        while i < t.len() {
            match (at(i), at(i + 1), at(i + 2)) {
                ("#", "[", _) => i = closing(t, i + 1) + 1,
                ("macro_rules", "!", _) => i = closing(t, i + 3) + 1,
                ("extern", "\"C\"", "{") => {
                    let end = closing(t, i + 2);
                    for item in split_top(&t[i + 3..end], ";") {
                        self.functions.push(extern_function(item));
                    }
                    i = end + 1;
                }
                ("opaque", "!", "{") => {
                    let end = closing(t, i + 2);
                    for item in split_top(&t[i + 3..end], ";") {
                        self.opaque
                            .push(item.last().expect("an opaque name").clone());
                    }
                    i = end + 1;
                }
                ("pub", "struct", name) if !name.starts_with('$') => {
                    let end = closing(t, i + 3);
                    let fields = split_top(&t[i + 4..end], ",")
                        .into_iter()
                        .map(field)
                        .collect();
                    self.structs.push(Struct {
                        name: name.to_string(),
                        fields,
                    });
                    i = end + 1;
                }
                ("pub", "type", name) => {
                    let end = (i..t.len())
                        .find(|&k| t[k] == ";")
                        .expect("pub type without ;");
                    self.types.push((name.to_string(), spelled(&t[i + 4..end])));
                    i = end + 1;
                }
                ("pub", "const", name) => {
                    let end = (i..t.len())
                        .find(|&k| t[k] == ";")
                        .expect("pub const without ;");
                    let eq = (i..end)
                        .find(|&k| t[k] == "=")
                        .expect("pub const without =");
                    let value = t[eq + 1..end].concat();
                    let value = integer(&value).unwrap_or_else(|| panic!("{} = {}", name, value));
                    self.consts
                        .push((name.to_string(), spelled(&t[i + 4..eq]), value));
                    i = end + 1;
                }
                ("pub", "fn", name) => {
                    self.helpers.push(name.to_string());
                    let body = (i..t.len())
                        .find(|&k| t[k] == "{")
                        .expect("pub fn without body");
                    i = closing(t, body) + 1;
                }
                _ => i += 1,
            }
        }
    }

    pub fn function(&self, name: &str) -> Option<&Function> {
        self.functions.iter().find(|f| f.name == name)
    }

    pub fn structure(&self, name: &str) -> Option<&Struct> {
        self.structs.iter().find(|s| s.name == name)
    }
}

/// `pub fn name(p: T, ...) -> R`.
fn extern_function(t: &[String]) -> Function {
    assert!(
        t.len() > 3 && t[0] == "pub" && t[1] == "fn",
        "not a `pub fn` in extern: {:?}",
        t
    );
    let close = closing(t, 3);
    let params = split_top(&t[4..close], ",")
        .into_iter()
        .map(field)
        .collect();
    let result = match t.get(close + 1).map(String::as_str) {
        Some("->") => spelled(&t[close + 2..]),
        None => String::new(),
        Some(other) => panic!("after the parameters of {}: {}", t[2], other),
    };
    Function {
        name: t[2].clone(),
        params,
        result,
    }
}

/// `pub name: T` or `name: T`.
fn field(t: &[String]) -> (String, String) {
    let t = if t.first().map(String::as_str) == Some("pub") {
        &t[1..]
    } else {
        t
    };
    assert!(t.len() > 2 && t[1] == ":", "not `name: type`: {:?}", t);
    (t[0].clone(), spelled(&t[2..]))
}

/// A type's tokens joined by spaces, without paths.
fn spelled(t: &[String]) -> String {
    let mut out: Vec<&str> = Vec::new();
    for (k, token) in t.iter().enumerate() {
        let is_path = token == "::" || t.get(k + 1).map(String::as_str) == Some("::");
        if !is_path {
            out.push(token);
        }
    }
    out.join(" ")
}
