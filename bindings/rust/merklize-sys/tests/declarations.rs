// SPDX-License-Identifier: Apache-2.0 OR MIT
//! This crate's declarations against include/merklize.h, both read as text: every
//! `MERKLIZE_API` function (its parameters' count, names and types, and its result, the C types
//! mapped to Rust by a small table), every struct's members in order, every opaque type, every
//! enum constant's value and every integer `#define MERKLIZE_*`, each way round: nothing
//! missing here, nothing here the header lacks.

mod common;

use common::header::{rust_name, rust_type, Header};
use common::rust_source::Declarations;

fn both() -> (Header, Declarations) {
    (
        Header::parse(&common::header_text()),
        Declarations::of_crate(),
    )
}

#[test]
fn the_header_is_read_whole() {
    let (h, _) = both();
    // Sizes of what is read, so that a reader gone blind (nothing found) fails here.
    assert!(
        h.functions.len() >= 50,
        "{} functions read",
        h.functions.len()
    );
    assert!(h.structs.len() >= 5, "structs read: {:?}", h.structs);
    assert!(h.enums.len() >= 5, "enums read: {:?}", h.enums);
    assert!(h.defines.len() >= 4, "defines read: {:?}", h.defines);
    assert!(h.inline_functions.len() >= 3, "{:?}", h.inline_functions);
}

#[test]
fn every_function_is_declared_with_the_header_s_parameters_and_result() {
    let (h, r) = both();
    let mut problems = Vec::new();
    for f in &h.functions {
        let rust = match r.function(&f.name) {
            Some(rust) => rust,
            None => {
                problems.push(format!("{}: not declared in the crate", f.name));
                continue;
            }
        };
        if rust.params.len() != f.params.len() {
            problems.push(format!(
                "{}: {} parameters in merklize.h, {} in the crate",
                f.name,
                f.params.len(),
                rust.params.len()
            ));
            continue;
        }
        for (c, (name, ty)) in f.params.iter().zip(&rust.params) {
            let want = rust_type(&c.ty, true, &h.defines);
            if *name != rust_name(&c.name) || *ty != want {
                problems.push(format!(
                    "{}: parameter `{} {}` of merklize.h is `{}: {}` here, not `{}: {}`",
                    f.name,
                    c.ty.tokens.join(" "),
                    c.name,
                    name,
                    ty,
                    rust_name(&c.name),
                    want
                ));
            }
        }
        let want = rust_type(&f.result, false, &h.defines);
        if rust.result != want {
            problems.push(format!(
                "{}: returns `{}` here, `{}` in merklize.h",
                f.name, rust.result, want
            ));
        }
    }
    for f in &r.functions {
        if h.function(&f.name).is_none() {
            problems.push(format!(
                "{}: declared in the crate, not in merklize.h",
                f.name
            ));
        }
    }
    assert!(problems.is_empty(), "\n{}", problems.join("\n"));
}

#[test]
fn every_struct_has_the_header_s_members_in_order() {
    let (h, r) = both();
    let mut problems = Vec::new();
    for s in &h.structs {
        let want: Vec<(String, String)> = s
            .members
            .iter()
            .map(|m| (rust_name(&m.name), rust_type(&m.ty, false, &h.defines)))
            .collect();
        match r.structure(&s.name) {
            None => problems.push(format!("struct {}: not declared in the crate", s.name)),
            Some(rust) if rust.fields != want => {
                let n = rust.fields.len().max(want.len());
                for k in (0..n).filter(|&k| rust.fields.get(k) != want.get(k)) {
                    problems.push(format!(
                        "struct {}: member {} is {:?} here, {:?} in merklize.h",
                        s.name,
                        k,
                        rust.fields.get(k),
                        want.get(k)
                    ));
                }
            }
            Some(_) => {}
        }
    }
    for s in &r.structs {
        if !h.structs.iter().any(|c| c.name == s.name) {
            problems.push(format!(
                "struct {}: declared in the crate, not in merklize.h",
                s.name
            ));
        }
    }
    assert!(problems.is_empty(), "\n{}", problems.join("\n"));
}

#[test]
fn every_opaque_type_is_declared_opaque() {
    let (h, r) = both();
    let mut want = h.opaque.clone();
    let mut got = r.opaque.clone();
    want.sort();
    got.sort();
    assert_eq!(got, want, "opaque types: the crate's, then merklize.h's");
}

#[test]
fn every_enum_is_its_integer_type_and_every_constant_has_the_header_s_value() {
    let (h, r) = both();
    let mut problems = Vec::new();
    for e in &h.enums {
        match r.types.iter().find(|t| t.0 == e.name) {
            Some((_, ty)) if ty == "c_int" => {}
            other => problems.push(format!(
                "enum {}: `pub type {0} = c_int` wanted, found {:?}",
                e.name, other
            )),
        }
        for (name, value) in &e.constants {
            match r.consts.iter().find(|c| &c.0 == name) {
                Some((_, ty, v)) if ty == &e.name && v == value => {}
                other => problems.push(format!(
                    "{}: `pub const {0}: {} = {}` wanted, found {:?}",
                    name, e.name, value, other
                )),
            }
        }
        let here = r.consts.iter().filter(|c| c.1 == e.name).count();
        if here != e.constants.len() {
            problems.push(format!(
                "enum {}: {} constants in merklize.h, {} of its type here",
                e.name,
                e.constants.len(),
                here
            ));
        }
    }
    assert!(problems.is_empty(), "\n{}", problems.join("\n"));
}

#[test]
fn every_define_has_the_header_s_value_and_every_constant_is_the_header_s() {
    let (h, r) = both();
    let mut problems = Vec::new();
    for (name, value) in &h.defines {
        match r.consts.iter().find(|c| &c.0 == name) {
            Some(c) if c.2 == *value => {}
            other => problems.push(format!("#define {} {}: found {:?}", name, value, other)),
        }
    }
    for (name, _, _) in &r.consts {
        let in_enum = h
            .enums
            .iter()
            .any(|e| e.constants.iter().any(|c| &c.0 == name));
        let defined = h.defines.iter().any(|d| &d.0 == name);
        if !in_enum && !defined {
            problems.push(format!(
                "{}: a constant of the crate that merklize.h lacks",
                name
            ));
        }
    }
    assert!(problems.is_empty(), "\n{}", problems.join("\n"));
}

#[test]
fn every_static_inline_helper_has_a_function_of_its_name() {
    let (h, r) = both();
    for name in &h.inline_functions {
        assert!(
            r.helpers.contains(name),
            "merklize.h's static inline {} has no `pub fn` here",
            name
        );
    }
}
