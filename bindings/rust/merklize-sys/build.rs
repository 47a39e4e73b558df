// SPDX-License-Identifier: Apache-2.0 OR MIT
//! Links libmerklize: from the directory `MERKLIZE_LIB_DIR` names if it is set, else where
//! `pkg-config --libs merklize` says (the command `$PKG_CONFIG`, else `pkg-config`; no crate).
//! Neither finding it stops the build with a message naming both ways.
//!
//! libmerklize.so is linked, with the directory as the run path of this package's tests (and,
//! through DEP_MERKLIZE_LIB_DIRS, of the `merklize` crate's); libmerklize.a where
//! `MERKLIZE_STATIC=1` or the directory holds no shared library, with the C++ runtime and OpenCL
//! it needs, so that a program runs without finding libmerklize.

use std::env;
use std::path::Path;
use std::process::{self, Command};

const LIBRARY_FILES: &[&str] = &[
    "libmerklize.so",
    "libmerklize.a",
    "libmerklize.dylib",
    "merklize.lib",
];

fn main() {
    for var in [
        "MERKLIZE_LIB_DIR",
        "MERKLIZE_STATIC",
        "PKG_CONFIG",
        "PKG_CONFIG_PATH",
        "PKG_CONFIG_LIBDIR",
        "PKG_CONFIG_SYSROOT_DIR",
    ] {
        println!("cargo:rerun-if-env-changed={}", var);
    }
    println!("cargo:rerun-if-changed=build.rs");

    let found = match env::var_os("MERKLIZE_LIB_DIR").filter(|dir| !dir.is_empty()) {
        Some(dir) => from_lib_dir(Path::new(&dir)),
        None => from_pkg_config(),
    };
    let found = found.and_then(|dirs| link_static(&dirs).map(|link| (dirs, link)));
    match found {
        Ok((dirs, static_link)) => {
            for dir in &dirs {
                println!("cargo:rustc-link-search=native={}", dir);
            }
            if static_link {
                println!("cargo:rustc-link-lib=static=merklize");
                for library in static_dependencies() {
                    println!("cargo:rustc-link-lib=dylib={}", library);
                }
            } else {
                println!("cargo:rustc-link-lib=dylib=merklize");
                for dir in &dirs {
                    println!("cargo:rustc-link-arg=-Wl,-rpath,{}", dir);
                }
                // For crates that depend on this one: DEP_MERKLIZE_LIB_DIRS.
                println!("cargo:lib_dirs={}", dirs.join(":"));
            }
        }
        Err(reason) => {
            eprintln!(
                "\nerror: merklize-sys cannot find libmerklize (the C library of merklize).\n\
                 {}\n\
                 Tell the build where it is, one of two ways:\n\
                 \x20 - MERKLIZE_LIB_DIR=/path/to/dir, the directory holding libmerklize.so, or\n\
                 \x20 - the pkg-config command finding merklize.pc: install merklize \
                 (cmake --install), or add the directory holding merklize.pc \
                 (PREFIX/lib/pkgconfig) to PKG_CONFIG_PATH.\n\
                 At run time the dynamic loader must find libmerklize.so.1 too \
                 (LD_LIBRARY_PATH, or an installed prefix it searches).\n",
                reason
            );
            process::exit(1);
        }
    }
}

/// Whether libmerklize.a is linked: asked for (it must be there then), or the only library in
/// the directories (an install of the development files of a static build).
fn link_static(dirs: &[String]) -> Result<bool, String> {
    let holds = |name: &str| dirs.iter().any(|dir| Path::new(dir).join(name).exists());
    let shared = holds("libmerklize.so") || holds("libmerklize.dylib");
    if env::var("MERKLIZE_STATIC").map_or(false, |v| v == "1") {
        if !holds("libmerklize.a") {
            return Err(format!(
                "MERKLIZE_STATIC=1 asks for libmerklize.a, which none of {} holds.",
                dirs.join(", ")
            ));
        }
        return Ok(true);
    }
    Ok(holds("libmerklize.a") && !shared)
}

/// What libmerklize.a leaves to the final link (merklize.pc's Libs.private and Requires): the C++
/// runtime and the OpenCL loader.
fn static_dependencies() -> Vec<&'static str> {
    let cxx = if env::var("CARGO_CFG_TARGET_OS").map_or(false, |os| os == "macos") {
        "c++"
    } else {
        "stdc++"
    };
    vec![cxx, "OpenCL", "m"]
}

/// The directory MERKLIZE_LIB_DIR names, if it holds the library.
fn from_lib_dir(dir: &Path) -> Result<Vec<String>, String> {
    if LIBRARY_FILES.iter().any(|name| dir.join(name).exists()) {
        return Ok(vec![dir.display().to_string()]);
    }
    Err(format!(
        "MERKLIZE_LIB_DIR is {}, which holds none of {}.",
        dir.display(),
        LIBRARY_FILES.join(", ")
    ))
}

/// The -L directories of `pkg-config --libs merklize`.
fn from_pkg_config() -> Result<Vec<String>, String> {
    let command = env::var("PKG_CONFIG").unwrap_or_else(|_| "pkg-config".to_string());
    let why = "MERKLIZE_LIB_DIR is not set, and ";
    let output = match Command::new(&command).args(["--libs", "merklize"]).output() {
        Ok(output) => output,
        Err(e) => {
            return Err(format!(
                "{}the command `{}` could not be run: {}.",
                why, command, e
            ))
        }
    };
    if !output.status.success() {
        return Err(format!(
            "{}`{} --libs merklize` failed ({}): {}",
            why,
            command,
            output.status,
            String::from_utf8_lossy(&output.stderr).trim()
        ));
    }
    let flags = String::from_utf8_lossy(&output.stdout);
    if !flags.split_whitespace().any(|flag| flag == "-lmerklize") {
        return Err(format!(
            "{}`{} --libs merklize` gave `{}`, without -lmerklize: that merklize.pc is of a \
             header-only install (configured with MERKLIZE_BUILD_LIBRARY=OFF).",
            why,
            command,
            flags.trim()
        ));
    }
    Ok(flags
        .split_whitespace()
        .filter_map(|flag| flag.strip_prefix("-L"))
        .map(str::to_string)
        .collect())
}
