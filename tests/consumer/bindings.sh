#!/bin/sh
# SPDX-License-Identifier: Apache-2.0 OR MIT
# The Go and Rust programs of tests/consumer/ (go/, rust/) built outside the repository against
# the installed PREFIX as their READMEs say (bindings/go/README.md, bindings/rust/README.md), each
# linking libmerklize.so and libmerklize.a; each prints WANT ("merklize VERSION" and the root of
# DIR/leaves). The shared builds run with LD_LIBRARY_PATH; the static ones without, and must not
# need libmerklize.so. Cargo's target folder and GOPATH are kept in CACHE, Go's build cache is
# new each time (no registry is asked).
# Exits 77 (skipped) where go or cargo is missing, after building what it can.
# Usage: bindings.sh PREFIX LIBDIR CACHE DIR WANT   (run.sh calls it)
set -eu
prefix=$1 libdir=$2 cache=$3 dir=$4 want=$5
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)
lib=$prefix/$libdir
mkdir -p "$cache"
skipped=""

# check HOW PROGRAM [LD_LIBRARY_PATH]: the program prints WANT; a static one needs no libmerklize.so.
check() {
  got=$(LD_LIBRARY_PATH=${3:-} "$2" "$dir/leaves") || { echo "FAILED: the program built $1 failed"; exit 1; }
  [ "$got" = "$want" ] || { echo "FAILED: the program built $1 printed '$got', expected '$want'"; exit 1; }
  if [ -z "${3:-}" ] && objdump -p "$2" | grep -q 'NEEDED.*libmerklize'; then
    echo "FAILED: the program built $1 needs libmerklize.so"; exit 1
  fi
  echo "ok: built $1, the program prints what the installed merklize root prints"
}

# A prefix holding libmerklize.a and not libmerklize.so: where -lmerklize can only be the static one.
static=$dir/static-prefix
mkdir -p "$static/$libdir"
cp -R "$prefix/include" "$static/"
cp -R "$lib/pkgconfig" "$lib/libmerklize.a" "$static/$libdir/"

if command -v go > /dev/null 2>&1; then
  export GOPATH="$cache/go-path" GOENV=off GOFLAGS=-mod=mod GOPROXY=off \
    GOTOOLCHAIN=local GOTELEMETRY=off CGO_ENABLED=1
  mkdir -p "$dir/go"
  cp "$here/go/main.go" "$dir/go/"
  (cd "$dir/go" && go mod init consumer > /dev/null 2>&1 &&
    go mod edit -require=merklize@v0.0.0 -replace=merklize="$repo/bindings/go") ||
    { echo "FAILED: go mod init and edit, as bindings/go/README.md says"; exit 1; }
  for kind in shared static; do
    if [ $kind = shared ]; then pc=$lib/pkgconfig; run_lib=$lib; else pc=$static/$libdir/pkgconfig; run_lib=; fi
    # A new cache each: Go's keys leave out what pkg-config says, so a kept cache would give
    # the other link's binary, or one linking an earlier run's prefix.
    (cd "$dir/go" && GOCACHE=$dir/go-build-$kind PKG_CONFIG_PATH=$pc go build -o "$dir/go-consumer-$kind" .) ||
      { echo "FAILED: go build against $pc (libmerklize, $kind)"; exit 1; }
    check "with go build, PKG_CONFIG_PATH=$pc (libmerklize $kind)" "$dir/go-consumer-$kind" "$run_lib"
  done
else
  skipped="$skipped go"
fi

if command -v cargo > /dev/null 2>&1; then
  mkdir -p "$dir/rust/src"
  cp "$here/rust/src/main.rs" "$dir/rust/src/"
  cat > "$dir/rust/Cargo.toml" << TOML
[package]
name = "consumer"
version = "0.1.0"
edition = "2021"

[dependencies]
merklize = { path = "$repo/bindings/rust/merklize" }
TOML
  export CARGO_TARGET_DIR="$cache/cargo-target" CARGO_TERM_COLOR=never
  unset MERKLIZE_LIB_DIR MERKLIZE_STATIC || true
  (cd "$dir/rust" && PKG_CONFIG_PATH=$lib/pkgconfig cargo build --offline --quiet) ||
    { echo "FAILED: cargo build with PKG_CONFIG_PATH=$lib/pkgconfig"; exit 1; }
  cp "$CARGO_TARGET_DIR/debug/consumer" "$dir/rust-consumer-shared"
  check "with cargo build, PKG_CONFIG_PATH=$lib/pkgconfig (libmerklize.so)" "$dir/rust-consumer-shared" "$lib"
  (cd "$dir/rust" && MERKLIZE_STATIC=1 PKG_CONFIG_PATH=$lib/pkgconfig cargo build --offline --quiet) ||
    { echo "FAILED: cargo build with MERKLIZE_STATIC=1"; exit 1; }
  cp "$CARGO_TARGET_DIR/debug/consumer" "$dir/rust-consumer-static"
  check "with cargo build, MERKLIZE_STATIC=1 (libmerklize.a)" "$dir/rust-consumer-static"
  (cd "$dir/rust" && MERKLIZE_LIB_DIR=$static/$libdir cargo build --offline --quiet) ||
    { echo "FAILED: cargo build with MERKLIZE_LIB_DIR=$static/$libdir (libmerklize.a alone)"; exit 1; }
  cp "$CARGO_TARGET_DIR/debug/consumer" "$dir/rust-consumer-static-only"
  check "with cargo build, MERKLIZE_LIB_DIR holding libmerklize.a alone" "$dir/rust-consumer-static-only"
else
  skipped="$skipped cargo"
fi

if [ -n "$skipped" ]; then
  echo "SKIPPED: the Go and Rust programs need go and cargo; not found:$skipped (make deps installs golang-go and cargo)"
  exit 77
fi
