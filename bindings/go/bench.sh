#!/bin/sh
# SPDX-License-Identifier: Apache-2.0 OR MIT
# The Go layer's cost: BenchmarkRoot (bench_test.go) through Go, and the same C calls without Go
# (testdata/root_bench.c), on the default device ($MERKLIZE_DEVICE), against libmerklize
# installed in PREFIX (cmake --install build --prefix PREFIX). Each prints the minimum, median and
# mean of RUNS calls (each Go sample is one call: -benchtime 1x -count RUNS).
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
go test -run '^$' -bench BenchmarkRoot -benchtime 1x -count "$runs" . -args -log2="$log2" |
  awk '$1 ~ /^BenchmarkRoot\// { split($1, name, "/"); key = name[2] " " name[3];
         n[key]++; ms[key, n[key]] = $3 / 1e6 }
       END { for (key in n) { c = n[key]; for (i = 1; i <= c; i++) v[i] = ms[key, i];
               for (i = 1; i <= c; i++) for (j = i + 1; j <= c; j++) if (v[j] < v[i]) { t = v[i]; v[i] = v[j]; v[j] = t }
               sum = 0; for (i = 1; i <= c; i++) sum += v[i]; split(key, k, " ")
               printf "Go %-6s %-7s 2^%-2s min %10.3f ms  median %10.3f ms  mean %10.3f ms  (%d runs)\n",
                 k[1], k[2], '"$log2"', v[1], v[int(c / 2) + 1], sum / c, c } }' | sort -k3,3 -k2,2r
