#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0 OR MIT
# The CLI of this tree (B) beside a base commit (A) on the GPU machine, for a change to how the
# CLI reaches the engine (tools/dispatch.cpp): builds merklize of both, runs the command lines of
# tests/cli_dispatch_cases.sh with each on the default device (the GPU; its --device pocl lines
# fail alike where PoCL is absent) and diffs the two transcripts, which must be identical; then
# times small
# commands of every root runner, A beside B in one hyperfine call each (the request is read once
# per process: no difference is expected beyond noise).
#   bash bench/ab_cli.sh [BASE_TREE]     (logs in $OUT, default /tmp/out)
# BASE_TREE as bench/ab_base.sh takes it (default: `git merge-base HEAD main` exported).
set -uo pipefail
[ -f .device-debs/env.sh ] && source .device-debs/env.sh > /dev/null
OUT=${OUT:-/tmp/out}
mkdir -p "$OUT"
log=$OUT/ab_cli.log
: > "$log"
source bench/ab_base.sh
ab_base_tree "$log" /tmp/ab-cli-base "${1:-}"

build() { # SOURCE BUILD
  cmake -S "$1" -B "$2" -DCMAKE_BUILD_TYPE=Release -DMERKLIZE_BUILD_BENCH=OFF \
    -DMERKLIZE_BUILD_TESTS=OFF > /dev/null &&
    cmake --build "$2" -j"$(nproc)" --target merklize_cli > /dev/null
}
build "$base" /tmp/ab-cli-base-build || { echo "A does not build" | tee -a "$log"; exit 1; }
build . build-dispatch-ab || { echo "B does not build" | tee -a "$log"; exit 1; }
a=/tmp/ab-cli-base-build/tools/merklize
b=$(realpath build-dispatch-ab/tools/merklize)

echo "== transcripts (tests/cli_dispatch_cases.sh), A against B" | tee -a "$log"
sh tests/cli_dispatch_cases.sh "$a" "$OUT/dispatch_a.transcript" | tee -a "$log"
sh tests/cli_dispatch_cases.sh "$b" "$OUT/dispatch_b.transcript" | tee -a "$log"
if diff -u "$OUT/dispatch_a.transcript" "$OUT/dispatch_b.transcript" >> "$log"; then
  echo "identical: $(grep -c '^### ' "$OUT/dispatch_b.transcript") command lines" | tee -a "$log"
else
  echo "DIFFERENT: see $log" | tee -a "$log"
fi

echo "== whole processes, A beside B (hyperfine, 3 warm-ups, 20 runs)" | tee -a "$log"
shm=$(mktemp -d /dev/shm/merklize_dispatch.XXXXXX)
trap 'rm -rf "$shm"' EXIT
head -c 64 /dev/urandom > "$shm/two"
head -c $((1 << 20)) /dev/urandom > "$shm/mib"
for args in "root $shm/two" "root --arity 4 $shm/mib" "root --leaf-size 4096 $shm/mib" \
  "root --format fs-verity $shm/mib" "proof -i 1 $shm/two"; do
  hyperfine -N -w 3 -r 20 --export-markdown "$shm/t.md" "$a $args" "$b $args" > /dev/null
  tee -a "$log" < "$shm/t.md"
done
