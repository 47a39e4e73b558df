// SPDX-License-Identifier: Apache-2.0 OR MIT
//! The READMEs' Rust example is examples/root_and_proof.rs word for word (from its `use` on):
//! bindings/rust/README.md and the repository's README show it, and it runs here on a file,
//! printing the root and the proof `merklize root` and `merklize proof` print.

mod common;

use std::path::{Path, PathBuf};
use std::process::Command;

use common::commands::{cli, run};
use common::{leaf_bytes, random_leaves, TempDir};

fn read(path: &str) -> String {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join(path);
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {}", path.display(), e))
}

fn example() -> String {
    let source = read("examples/root_and_proof.rs");
    let start = source.find("use merklize").expect("the example's code");
    source[start..].to_string()
}

#[test]
fn both_readmes_show_the_example_verbatim() {
    let block = format!("```rust\n{}```\n", example());
    assert!(
        read("../README.md").contains(&block),
        "bindings/rust/README.md's example differs"
    );
    assert!(
        read("../../../README.md").contains(&block),
        "README.md's Rust example differs"
    );
}

/// The example as cargo built it for these tests (target/<profile>/examples/).
fn example_program() -> PathBuf {
    let test = std::env::current_exe().expect("the test's path");
    let profile = test
        .parent()
        .and_then(Path::parent)
        .expect("target/<profile>/deps/");
    profile
        .join("examples")
        .join(format!("root_and_proof{}", std::env::consts::EXE_SUFFIX))
}

#[test]
fn the_example_prints_the_tool_s_root_and_proof() {
    let program = example_program();
    if !program.exists() {
        // `cargo test` builds the examples first; `cargo test --test readme` alone does not.
        eprintln!(
            "SKIPPED: {} is not built: run the whole `cargo test`",
            program.display()
        );
        return;
    }
    let dir = TempDir::new("example");
    let leaves = random_leaves(5, 8);
    let path = dir.file("leaves.bin", &leaf_bytes(&leaves));
    let out = run(&program, &[&path]);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 3, "{}", out);
    assert_eq!(lines[2], "leaf 2 is in the tree");
    if let Some(cli) = cli() {
        let file = path.to_str().unwrap();
        assert_eq!(lines[0], run(&cli, &["root", "--hash", "sha256", file]));
        assert_eq!(
            lines[1],
            run(&cli, &["proof", "--hash", "sha256", "-i", "2", file])
        );
    }
    let short = dir.file("short.bin", &leaf_bytes(&leaves[..2]));
    let failed = Command::new(&program).arg(&short).output().unwrap();
    assert!(!failed.status.success());
    assert!(
        String::from_utf8_lossy(&failed.stderr).contains("2"),
        "the error names the leaf"
    );
}
