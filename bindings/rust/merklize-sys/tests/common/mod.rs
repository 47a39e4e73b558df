// SPDX-License-Identifier: Apache-2.0 OR MIT
//! What the declaration tests share: a reader of merklize.h and one of this crate's sources.
#![allow(dead_code)]

pub mod header;
pub mod rust_source;
pub mod tokens;

use std::path::PathBuf;

/// merklize.h: `MERKLIZE_HEADER` if set, else the repository's include/merklize.h.
pub fn header_path() -> PathBuf {
    match std::env::var_os("MERKLIZE_HEADER") {
        Some(path) => PathBuf::from(path),
        None => PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../../include/merklize.h"),
    }
}

/// The text of merklize.h, or a failure saying where it was looked for.
pub fn header_text() -> String {
    let path = header_path();
    std::fs::read_to_string(&path).unwrap_or_else(|e| {
        panic!(
            "cannot read merklize.h at {} ({}): set MERKLIZE_HEADER to its path",
            path.display(),
            e
        )
    })
}

/// A C or Rust integer literal's value: decimal or 0x hex, `_` separators, C's u/l suffixes.
pub fn integer(text: &str) -> Option<i128> {
    let t: String = text.chars().filter(|&c| c != '_').collect();
    let t = t.trim_end_matches(&['u', 'U', 'l', 'L'][..]);
    let (negative, t) = match t.strip_prefix('-') {
        Some(rest) => (true, rest),
        None => (false, t),
    };
    let value = match t.strip_prefix("0x").or_else(|| t.strip_prefix("0X")) {
        Some(hex) => i128::from_str_radix(hex, 16).ok()?,
        None => t.parse::<i128>().ok()?,
    };
    Some(if negative { -value } else { value })
}
