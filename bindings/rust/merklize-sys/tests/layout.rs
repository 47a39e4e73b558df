// SPDX-License-Identifier: Apache-2.0 OR MIT
//! The structs' sizes, alignments and member offsets, the enums' sizes and every constant's
//! value, as this crate compiles them, against what the C compiler makes of merklize.h: a C
//! program generated from the header's own declarations prints them. Where no C compiler runs
//! (`$CC`, else `cc`), that comparison is skipped, saying so; the tables here are still checked
//! to cover every struct member and constant of the header.

mod common;

use std::collections::BTreeMap;
use std::mem::{align_of, size_of, MaybeUninit};
use std::path::PathBuf;
use std::process::Command;

use common::header::{rust_name, Header};
use merklize_sys::*;

/// What the compiler made of one type: size, alignment, and each member's offset.
#[derive(Debug, PartialEq)]
struct Layout {
    size: usize,
    align: usize,
    members: Vec<(String, usize)>,
}

/// The offset of a member, without making a reference to uninitialised memory.
macro_rules! offset {
    ($t:ty, $member:ident) => {{
        let value = MaybeUninit::<$t>::uninit();
        let base = value.as_ptr();
        // SAFETY: addr_of! takes the member's address without reading or referencing it.
        let member = unsafe { std::ptr::addr_of!((*base).$member) };
        member as usize - base as usize
    }};
}

macro_rules! layouts {
    ($($t:ident { $($member:ident),* })*) => {{
        let mut table = BTreeMap::new();
        $(table.insert(stringify!($t).to_string(), Layout {
            size: size_of::<$t>(),
            align: align_of::<$t>(),
            members: vec![$((stringify!($member).to_string(), offset!($t, $member))),*],
        });)*
        table
    }};
}

macro_rules! values {
    ($($name:ident)*) => {{
        let mut table = BTreeMap::new();
        $(table.insert(stringify!($name).to_string(), $name as i128);)*
        table
    }};
}

fn rust_structs() -> BTreeMap<String, Layout> {
    layouts! {
        merklize_device_info { size, spec, name, vendor, platform, type_ }
        merklize_tree_config {
            size, hash, shape, depth, arity, leaf_size, leaf_hash, salt, salt_size,
            mix_in_length, length, keep
        }
        merklize_source { kind, data, size, path, fd }
        merklize_blake3_mode { kind, key, context }
        merklize_verity_config { size, data_block_size, hash_block_size, salt, salt_size }
        merklize_matrix { data, height, width }
        merklize_matrix_shape { height, width }
        merklize_proof_expectations { size, kind, hash, shape, depth, arity, leaf_count }
    }
}

fn rust_enums() -> BTreeMap<String, Layout> {
    layouts! {
        merklize_status {}
        merklize_source_kind {}
        merklize_proof_kind {}
        merklize_encoding {}
        merklize_blake3_kind {}
    }
}

fn rust_values() -> BTreeMap<String, i128> {
    values! {
        MERKLIZE_ABI_VERSION MERKLIZE_DIGEST_SIZE MERKLIZE_KEEP_ALL MERKLIZE_KEEP_ROOT_ONLY
        MERKLIZE_PIECE_CID_SIZE
        MERKLIZE_OK MERKLIZE_ERROR_ARGUMENT MERKLIZE_ERROR_NO_DEVICE MERKLIZE_ERROR_OPENCL
        MERKLIZE_ERROR_IO MERKLIZE_ERROR_DECODE MERKLIZE_ERROR_NO_MEMORY MERKLIZE_ERROR_INTERNAL
        MERKLIZE_ERROR_UNUSABLE
        MERKLIZE_SOURCE_MEMORY MERKLIZE_SOURCE_PATH MERKLIZE_SOURCE_FD
        MERKLIZE_PROOF_INCLUSION MERKLIZE_PROOF_MULTI MERKLIZE_PROOF_CONSISTENCY
        MERKLIZE_PROOF_KARY MERKLIZE_PROOF_KARY_MULTI MERKLIZE_ENCODING_JSON MERKLIZE_ENCODING_BINARY
        MERKLIZE_BLAKE3_HASH MERKLIZE_BLAKE3_KEYED MERKLIZE_BLAKE3_DERIVE_KEY
    }
}

#[test]
fn the_tables_cover_every_struct_member_enum_and_constant_of_the_header() {
    let h = Header::parse(&common::header_text());
    let structs = rust_structs();
    let want: Vec<String> = h.structs.iter().map(|s| s.name.clone()).collect();
    assert_eq!(
        structs.keys().cloned().collect::<Vec<_>>(),
        sorted(want),
        "structs"
    );
    for s in &h.structs {
        let members: Vec<String> = s.members.iter().map(|m| rust_name(&m.name)).collect();
        let here: Vec<String> = structs[&s.name]
            .members
            .iter()
            .map(|m| m.0.clone())
            .collect();
        assert_eq!(here, members, "the members of {}", s.name);
    }
    let enums: Vec<String> = h.enums.iter().map(|e| e.name.clone()).collect();
    assert_eq!(
        rust_enums().keys().cloned().collect::<Vec<_>>(),
        sorted(enums),
        "enums"
    );
    let mut values: Vec<String> = h.defines.iter().map(|d| d.0.clone()).collect();
    for e in &h.enums {
        values.extend(e.constants.iter().map(|c| c.0.clone()));
    }
    assert_eq!(
        rust_values().keys().cloned().collect::<Vec<_>>(),
        sorted(values),
        "constants"
    );
}

#[test]
fn layouts_and_values_match_the_c_compiler_s() {
    let h = Header::parse(&common::header_text());
    let c = match c_compiler_output(&h) {
        Some(output) => output,
        None => return,
    };
    let mut problems = Vec::new();
    let mut check = |what: String, rust: i128, c: Option<i128>| {
        if c != Some(rust) {
            problems.push(format!("{}: {} in Rust, {:?} in C", what, rust, c));
        }
    };
    for (name, layout) in rust_structs().iter().chain(rust_enums().iter()) {
        check(
            format!("sizeof({})", name),
            layout.size as i128,
            c.get(&format!("size {}", name)).copied(),
        );
        check(
            format!("alignof({})", name),
            layout.align as i128,
            c.get(&format!("align {}", name)).copied(),
        );
        for (member, offset) in &layout.members {
            let key = format!("offset {}.{}", name, member);
            check(
                format!("offsetof({}, {})", name, member),
                *offset as i128,
                c.get(&key).copied(),
            );
        }
    }
    for (name, value) in rust_values() {
        check(
            name.clone(),
            value,
            c.get(&format!("value {}", name)).copied(),
        );
    }
    assert!(problems.is_empty(), "\n{}", problems.join("\n"));
}

fn sorted(mut names: Vec<String>) -> Vec<String> {
    names.sort();
    names
}

/// Compiles and runs a C program printing every layout and value of `h`; None (after saying
/// so) where no C compiler is found.
fn c_compiler_output(h: &Header) -> Option<BTreeMap<String, i128>> {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("merklize-sys-layout");
    std::fs::create_dir_all(&dir).expect("a directory for the C program");
    let source = dir.join("layout.c");
    std::fs::write(&source, c_program(h)).expect("the C program written");
    let include = common::header_path()
        .parent()
        .expect("merklize.h's directory")
        .to_path_buf();
    let cc = std::env::var("CC").unwrap_or_else(|_| "cc".to_string());
    let exe = dir.join("layout");
    let compiled = Command::new(&cc)
        .args(["-std=c11", "-Wall", "-Werror", "-I"])
        .arg(&include)
        .arg(&source)
        .arg("-o")
        .arg(&exe)
        .output();
    let compiled = match compiled {
        Ok(output) => output,
        Err(e) => {
            eprintln!(
                "SKIPPED the C compiler's layouts: `{}` could not be run ({})",
                cc, e
            );
            return None;
        }
    };
    assert!(
        compiled.status.success(),
        "{} failed on {}:\n{}",
        cc,
        source.display(),
        String::from_utf8_lossy(&compiled.stderr)
    );
    let run = Command::new(&exe)
        .output()
        .expect("the compiled C program runs");
    assert!(run.status.success(), "{} failed", exe.display());
    let mut out = BTreeMap::new();
    for line in String::from_utf8(run.stdout).expect("ASCII output").lines() {
        let (key, value) = line.rsplit_once(' ').expect("`key value` lines");
        out.insert(key.to_string(), value.parse::<i128>().expect("a number"));
    }
    Some(out)
}

fn c_program(h: &Header) -> String {
    let mut c = String::from(
        "#include <merklize.h>\n#include <stddef.h>\n#include <stdio.h>\n\nint main(void) {\n",
    );
    let mut line = |key: String, expression: String| {
        c.push_str(&format!(
            "  printf(\"{} %lld\\n\", (long long)({}));\n",
            key, expression
        ));
    };
    let types = h
        .structs
        .iter()
        .map(|s| &s.name)
        .chain(h.enums.iter().map(|e| &e.name));
    for name in types {
        line(format!("size {}", name), format!("sizeof({})", name));
        line(format!("align {}", name), format!("_Alignof({})", name));
    }
    for s in &h.structs {
        for m in &s.members {
            let key = format!("offset {}.{}", s.name, rust_name(&m.name));
            line(key, format!("offsetof({}, {})", s.name, m.name));
        }
    }
    let names = h.defines.iter().map(|d| &d.0);
    for name in names.chain(
        h.enums
            .iter()
            .flat_map(|e| e.constants.iter().map(|c| &c.0)),
    ) {
        line(format!("value {}", name), name.clone());
    }
    c.push_str("  return 0;\n}\n");
    c
}
