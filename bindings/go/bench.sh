#!/bin/sh
# SPDX-License-Identifier: Apache-2.0 OR MIT
# The Go layer's cost, on the default device ($MERKLIZE_DEVICE), ROUNDS times in turn:
# bench/capi_bench (merklize_build and merklize_root from C interleaved with merkleizer::build
# from C++: the C ABI against C++), testdata/root_bench.c (the same C calls one after another, as
# a Go benchmark makes them) and BenchmarkRoot (those calls from Go). BUILD_DIR is a build
# configured with -DMERKLIZE_BUILD_BENCH=ON in which capi_bench and the library are built; the C
# program and Go link the library installed from it into a temporary prefix. Each prints the
# median and the fastest of REPETITIONS calls (a Go sample is one call: -benchtime 1x).
# Usage: bench.sh BUILD_DIR [LOG2 [REPETITIONS [HASH [ROUNDS]]]]   (20 15 blake3 3)
set -eu
build=$(cd "$1" && pwd) log2=${2:-20} reps=${3:-15} hash=${4:-blake3} rounds=${5:-3}
here=$(cd "$(dirname "$0")" && pwd)
[ -x "$build/bench/capi_bench" ] ||
  { echo "no $build/bench/capi_bench: configure with -DMERKLIZE_BUILD_BENCH=ON, build capi_bench"; exit 1; }
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
cmake --install "$build" --prefix "$dir/prefix" > "$dir/install.log" || { cat "$dir/install.log"; exit 1; }
pc=$(find "$dir/prefix" -name merklize.pc | head -n 1)
export PKG_CONFIG_PATH="$(dirname "$pc")" GOFLAGS=-mod=mod GOPROXY=off
export LD_LIBRARY_PATH="$(cd "$(dirname "$pc")/.." && pwd)${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
# shellcheck disable=SC2046 # the flags are words
cc -std=c99 -O2 -o "$dir/root_bench" "$here/testdata/root_bench.c" $(pkg-config --cflags --libs merklize)
cd "$here"
go test -c -o "$dir/merklize.test" .
round=1
while [ "$round" -le "$rounds" ]; do
  echo "round $round of $rounds: $(uptime)"
  "$build/bench/capi_bench" --leaves-log2 "$log2" --repetitions "$reps" --hash "$hash"
  "$dir/root_bench" "$log2" "$reps" "$hash"
  "$dir/merklize.test" -test.run '^$' -test.bench BenchmarkRoot -test.benchtime 1x \
    -test.count "$reps" -log2="$log2" -hash="$hash" |
    awk '$1 ~ /^BenchmarkRoot\// { split($1, name, "/"); n[name[2]]++; ms[name[2], n[name[2]]] = $3 / 1e6 }
         END { for (key in n) { c = n[key]; for (i = 1; i <= c; i++) v[i] = ms[key, i]
                 for (i = 1; i <= c; i++) for (j = i + 1; j <= c; j++) if (v[j] < v[i]) { t = v[i]; v[i] = v[j]; v[j] = t }
                 printf "%-38s Go  %9.2f ms (fastest %9.2f)\n",
                   key == "Build" ? "every level, in turn (Builder.Build)" : "root, in turn (Builder.Root)", v[int(c / 2) + 1], v[1] } }' |
    sort -r
  round=$((round + 1))
done
