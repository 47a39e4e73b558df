#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0 OR MIT
# Issue 30, M3 "one several-device layer": the three builders of several devices on
# detail::device_spread (engine/spread.hpp) beside the commit they start from, on the machine
# with two GPUs (kind nvidia-h200-x2 or nvidia-h100-x2). Builds both trees (A: the base, B: this
# tree), runs B's several-device tests on a GPU, checks that A and B print the same roots, then
# times both with hyperfine: `merklize root --devices GPU0,GPU1` over 1 GiB of leaves in /dev/shm
# (the leaves as given: multi_merkleizer), over its 4 KiB blocks (--leaf-size 4096:
# multi_block_merkleizer) and as an 8-ary tree (--arity 8: multi_kary_merkleizer).
#   bash bench/spread_ab.sh [BASE_TREE]     (logs in $OUT, default /tmp/out)
# BASE_TREE is a source tree of the base commit; without it, the script exports
# $BASE (default `git merge-base HEAD main`) with git archive, which needs .git.
set -uo pipefail
export MERKLIZE_OCL=${MERKLIZE_OCL:-nvidia}
[ -f .device-debs/env.sh ] && source .device-debs/env.sh > /dev/null
OUT=${OUT:-/tmp/out}
mkdir -p "$OUT"
log=$OUT/spread_ab.log
: > "$log"

source bench/ab_base.sh
ab_base_tree "$log" /tmp/spread-ab-base "${1:-}"

build() { # SOURCE_DIR TARGET...
  local dir=$1
  shift
  cmake -S "$dir" -B "$dir/build-ab" -DCMAKE_BUILD_TYPE=Release -DMERKLIZE_AOT=OFF \
    -DMERKLIZE_BUILD_BENCH=OFF > "$OUT/build.log" 2>&1 &&
    cmake --build "$dir/build-ab" -j "$(nproc)" --target "$@" >> "$OUT/build.log" 2>&1 ||
    { grep -B2 -A8 -m5 error "$OUT/build.log"; exit 1; }
}
build "$base" merklize_cli && build . merklize_cli merklize_tests

gpus=$(./build-ab/tools/merklize devices | awk '/\[.*gpu\]/ {print $1}' | head -2 | paste -sd, -)
echo "GPUs: $gpus" | tee -a "$log"
# B's several-device tests, on a GPU named several times.
MERKLIZE_DEVICE=nvidia timeout 600 ./build-ab/tests/merklize_tests "[multi],[multi-blocks],[spread]" \
  2>&1 | tail -2 | tee -a "$log"
MERKLIZE_DEVICE=nvidia timeout 600 ./build-ab/tests/merklize_tests "[kary][multi]" 2>&1 |
  tail -2 | tee -a "$log"

file=/dev/shm/spread_ab_1g
[ -f "$file" ] || head -c $((1 << 30)) /dev/urandom > "$file"
kinds=("" "--leaf-size 4096" "--arity 8")
for side in A B; do # the same roots from both, or the comparison means nothing
  dir=.; [ $side = A ] && dir=$base
  roots=""
  for kind in "${kinds[@]}"; do
    # shellcheck disable=SC2086 # the kind's options are words
    roots="$roots $("$dir/build-ab/tools/merklize" root $kind --devices "$gpus" "$file")"
  done
  echo "$side roots:$roots" | tee -a "$log"
done

cli() { echo "$1/build-ab/tools/merklize root ${2:-} --devices $gpus $file"; }
hyperfine -N -w 2 -r 10 --export-json "$OUT/spread_ab.json" \
  -n "A leaves" "$(cli "$base")" -n "B leaves" "$(cli .)" \
  -n "A blocks" "$(cli "$base" "--leaf-size 4096")" -n "B blocks" "$(cli . "--leaf-size 4096")" \
  -n "A arity 8" "$(cli "$base" "--arity 8")" -n "B arity 8" "$(cli . "--arity 8")" \
  > "$OUT/hyperfine.log" 2>&1
# One line a kind: A's and B's mean and standard deviation in ms, then B / A (above 1: B slower).
python3 - "$OUT/spread_ab.json" <<'EOF' | tee -a "$log"
import json, sys
runs = {r['command']: r for r in json.load(open(sys.argv[1]))['results']}
for kind in ('leaves', 'blocks', 'arity 8'):
    a, b = runs['A ' + kind], runs['B ' + kind]
    print(f"{kind:8} A {a['mean'] * 1e3:9.2f} ± {a['stddev'] * 1e3:6.2f} ms   "
          f"B {b['mean'] * 1e3:9.2f} ± {b['stddev'] * 1e3:6.2f} ms   B/A {b['mean'] / a['mean']:.3f}")
EOF
