#!/bin/sh
# SPDX-License-Identifier: Apache-2.0 OR MIT
# The Rust binding (bindings/rust) as a Rust user meets it, against libmerklize installed into
# PREFIX (the ctest fixture merklize_installed, tests/install_prefix.sh), with cargo --offline
# --locked (no registry is asked: the crates have no dependencies) and CARGO_TARGET_DIR in WORK:
#   1. merklize-sys's build must fail, naming both ways, where neither MERKLIZE_LIB_DIR nor
#      pkg-config finds libmerklize;
#   2. merklize-sys's tests, linked through MERKLIZE_LIB_DIR=PREFIX/LIBDIR (pkg-config blinded);
#   3. every test of the workspace, linked through pkg-config (PKG_CONFIG_PATH=PREFIX/LIBDIR/
#      pkgconfig), the merklize tool as their oracle (MERKLIZE_CLI).
# LD_LIBRARY_PATH finds the installed libmerklize.so.1 at run time. Skipped (77) without cargo.
# Usage: run.sh PREFIX LIBDIR CRATES_DIR MERKLIZE_CLI WORK
set -eu
prefix=$1 libdir=$2 crates=$3 cli=$4 work=$5

if ! command -v cargo > /dev/null 2>&1; then
  echo "SKIPPED: cargo not found: install Debian's cargo (make deps does) or rustup's to test bindings/rust"
  exit 77
fi
cargo --version
rustc --version

rm -rf "$work/nowhere"
mkdir -p "$work/nowhere"
lib=$prefix/$libdir
[ -f "$lib/pkgconfig/merklize.pc" ] || { echo "FAILED: $lib/pkgconfig/merklize.pc is not installed"; exit 1; }

cd "$crates"
export CARGO_TERM_COLOR=never RUST_BACKTRACE=1
export LD_LIBRARY_PATH="$lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
unset MERKLIZE_LIB_DIR PKG_CONFIG_PATH || true

# 1. Neither way finds the library: the build stops, saying how to tell it where.
if out=$(CARGO_TARGET_DIR=$work/target-sys PKG_CONFIG_LIBDIR=$work/nowhere \
  cargo build --offline --locked -p merklize-sys 2>&1); then
  echo "$out"
  echo "FAILED: merklize-sys built with neither MERKLIZE_LIB_DIR nor a merklize.pc to find"
  exit 1
fi
for part in "cannot find libmerklize" "MERKLIZE_LIB_DIR" "PKG_CONFIG_PATH" "pkg-config --libs merklize"; do
  case $out in
  *"$part"*) ;;
  *) echo "$out"; echo "FAILED: the build error does not say '$part'"; exit 1 ;;
  esac
done
echo "ok: without MERKLIZE_LIB_DIR or merklize.pc, the build of merklize-sys stops naming both"

# 2. MERKLIZE_LIB_DIR alone.
CARGO_TARGET_DIR=$work/target-sys PKG_CONFIG_LIBDIR=$work/nowhere MERKLIZE_LIB_DIR=$lib \
  cargo test --offline --locked -p merklize-sys
echo "ok: merklize-sys linked through MERKLIZE_LIB_DIR, its tests pass"

# 3. pkg-config, every test.
if ! command -v "${PKG_CONFIG:-pkg-config}" > /dev/null 2>&1; then
  echo "SKIPPED the pkg-config way: no pkg-config command (install pkgconf); linking with MERKLIZE_LIB_DIR"
  export MERKLIZE_LIB_DIR=$lib
else
  export PKG_CONFIG_PATH=$lib/pkgconfig
fi
CARGO_TARGET_DIR=$work/target MERKLIZE_CLI=$cli cargo test --offline --locked --workspace
echo "ok: the workspace's tests pass, linked through ${MERKLIZE_LIB_DIR:+MERKLIZE_LIB_DIR}${PKG_CONFIG_PATH:+pkg-config}"
