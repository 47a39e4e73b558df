#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0 OR MIT
# Updates and appends of a tree kept on the device (resident_tree.hpp) beside a full rebuild from
# host memory, the base (A: where this branch left main, or BASE_TREE) and this tree (B) in one
# run on the GPU machine. Builds both (build-ab, Release), runs B's resident tree tests
# (updates, appends, consistency proofs) and the update plan's on the GPU, then
# bench/update_bench.cpp, A then B, for blake3 and sha256: updates of 0.01%, 1% and 10% of 2^25
# random leaves (3.4k, 335k and 3.4M indices) from host memory and as a batch filled in place in
# the tree's page-locked memory (no staging copy), whole call, its host part, kernels and
# transfers (with the host part split and the path: levels listed on the device or every level
# rebuilt); appends of 2^10 and 2^16 leaves onto 2^25 (the first round grows the
# device memory); each interleaved with merkleizer::build of the same leaves from host memory
# (root only); the roots checked equal; peak device memory by arithmetic. Then B's crossover
# between listing a level's dirty nodes and recomputing it whole: B built again with
# MERKLIZE_WHOLE_LEVEL_FACTOR 1 and 16 (tree_updater.hpp; B's own is 4) at 1%, 3% and 10%.
# Logs in $OUT (default /tmp/out).
#   bash bench/ab_updates.sh [BASE_TREE]
set -uo pipefail
source bench/ab_base.sh
ab_setup ab_updates /tmp/ab-updates-base "${1:-}"

ab_build "$base" "$OUT/build-a.log" update_bench
ab_build . "$OUT/build.log" merklize_tests merklize_core_tests update_bench
echo "[resident] on the GPU: $(timeout 500 build-ab/tests/merklize_tests '[resident]' 2>&1 |
  tail -2 | tr '\n' ' ')" | tee -a "$log"
echo "[update_plan]: $(timeout 100 build-ab/tests/merklize_core_tests '[update_plan]' 2>&1 |
  tail -2 | tr '\n' ' ')" | tee -a "$log"
for factor in 1 16; do
  cmake -S . -B "build-ab-f$factor" -DCMAKE_BUILD_TYPE=Release -DMERKLIZE_AOT=OFF \
    "-DCMAKE_CXX_FLAGS=-DMERKLIZE_WHOLE_LEVEL_FACTOR=$factor" > "$OUT/build-f$factor.log" 2>&1 &&
    cmake --build "build-ab-f$factor" -j "$(nproc)" --target update_bench \
      >> "$OUT/build-f$factor.log" 2>&1 || echo "factor $factor: build failed" | tee -a "$log"
done
# update_bench ARGS... of A, then of B.
both() {
  local side bench
  for side in A B; do
    bench=build-ab/bench/update_bench
    [ $side = A ] && bench=$base/build-ab/bench/update_bench
    echo "== $side update_bench $*" | tee -a "$log"
    timeout 300 "$bench" "$@" 2>&1 | tee -a "$log"
  done
}
for hash in blake3 sha256; do
  for pct in 0.01 1 10; do
    both 25 "$hash" 5 "$pct"
    both batch 25 "$hash" 5 "$pct" # filled in the tree's page-locked memory: no staging copy
  done
  for count in 1024 65536; do
    both append 25 "$hash" 5 "$count"
  done
done
for pct in 1 3 10; do
  for factor in 1 4 16; do
    bench=build-ab-f$factor/bench/update_bench
    [ $factor = 4 ] && bench=build-ab/bench/update_bench
    [ -x "$bench" ] || continue
    echo "== B factor $factor update_bench 25 blake3 5 $pct" | tee -a "$log"
    timeout 300 "$bench" 25 blake3 5 "$pct" 2>&1 | tee -a "$log"
  done
done
