// SPDX-License-Identifier: Apache-2.0 OR MIT
//! Commands run as oracles: the merklize tool (its path in $MERKLIZE_CLI, which the ctest
//! harness sets), sha256sum, b3sum and others, each checked by its own tests.

use std::ffi::OsStr;
use std::path::PathBuf;
use std::process::Command;

/// The merklize command-line tool, or None (after saying so) where $MERKLIZE_CLI is not set.
pub fn cli() -> Option<PathBuf> {
    match std::env::var_os("MERKLIZE_CLI") {
        Some(path) if !path.is_empty() => Some(PathBuf::from(path)),
        _ => {
            eprintln!("SKIPPED: MERKLIZE_CLI is not set (the ctest harness sets it to the tool)");
            None
        }
    }
}

/// Runs `program` with `args` and returns its standard output without its last newline; fails
/// the test, with its standard error, if it does not exit 0.
pub fn run<S: AsRef<OsStr>>(program: impl AsRef<OsStr>, args: &[S]) -> String {
    let program = program.as_ref();
    let output = Command::new(program)
        .args(args)
        .output()
        .unwrap_or_else(|e| panic!("{:?} could not be run: {}", program, e));
    let shown: Vec<String> = args
        .iter()
        .map(|a| a.as_ref().to_string_lossy().into_owned())
        .collect();
    assert!(
        output.status.success(),
        "{:?} {} failed ({}): {}",
        program,
        shown.join(" "),
        output.status,
        String::from_utf8_lossy(&output.stderr)
    );
    let mut text = String::from_utf8(output.stdout).expect("UTF-8 output");
    if text.ends_with('\n') {
        text.pop();
    }
    text
}

/// Whether `program` runs at all (`--version`); says so when it does not.
pub fn available(program: &str) -> bool {
    let ok = Command::new(program)
        .arg("--version")
        .output()
        .map_or(false, |o| o.status.success());
    if !ok {
        eprintln!("SKIPPED the part that needs `{}`: not installed", program);
    }
    ok
}

/// The first word of each line of a checksum command's output (sha256sum, b3sum).
pub fn sums(output: &str) -> Vec<String> {
    output
        .lines()
        .map(|l| l.split_whitespace().next().unwrap_or("").to_string())
        .collect()
}
