#!/bin/sh
# SPDX-License-Identifier: Apache-2.0 OR MIT
# The Go layer's cost: BenchmarkRoot (bench_test.go) through Go, and the same C calls without Go
# (testdata/root_bench.c), on the default device ($MERKLIZE_DEVICE), against libmerklize
# installed in PREFIX (cmake --install build --prefix PREFIX).
# Usage: bench.sh PREFIX [LOG2 [RUNS]]   (LOG2 20 and RUNS 10 by default)
set -eu
prefix=$(cd "$1" && pwd) log2=${2:-20} runs=${3:-10}
here=$(cd "$(dirname "$0")" && pwd)
pc=$(find "$prefix" -name merklize.pc | head -n 1)
export PKG_CONFIG_PATH="$(dirname "$pc")"
export LD_LIBRARY_PATH="$(cd "$(dirname "$pc")/.." && pwd)${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
export GOFLAGS=-mod=mod GOPROXY=off
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
# shellcheck disable=SC2046 # the flags are words
cc -std=c99 -O2 -o "$dir/root_bench" "$here/testdata/root_bench.c" $(pkg-config --cflags --libs merklize)
"$dir/root_bench" "$log2" "$runs"
cd "$here"
go test -run '^$' -bench BenchmarkRoot -benchtime "${runs}x" -count 1 . -args -log2="$log2"
