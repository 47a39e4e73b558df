// SPDX-License-Identifier: Apache-2.0 OR MIT
//! The run path of this crate's tests and examples: the directories merklize-sys found
//! libmerklize.so in (none where it linked libmerklize.a), so that `cargo test` and
//! `cargo run --example` find it without LD_LIBRARY_PATH. A program of another crate sets its own
//! (README, "Install").

fn main() {
    println!("cargo:rerun-if-env-changed=DEP_MERKLIZE_LIB_DIRS");
    if let Ok(dirs) = std::env::var("DEP_MERKLIZE_LIB_DIRS") {
        for dir in dirs.split(':').filter(|dir| !dir.is_empty()) {
            println!("cargo:rustc-link-arg=-Wl,-rpath,{}", dir);
        }
    }
}
