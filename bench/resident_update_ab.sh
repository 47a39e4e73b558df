#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0 OR MIT
# Issue 31: a tree kept on the device and changed in place (resident_tree.hpp) beside a full
# rebuild from host memory, in one run on the GPU machine. Builds this tree (build-ab, Release),
# runs the resident tree's tests (updates, appends, consistency proofs) and the update plan's on
# the GPU, then bench/update_bench.cpp: updates of 1%, 0.01% and 10% of 2^25 random leaves
# (335k, 3.4k and 3.4M indices) from host memory, whole call, its host part (the sort),
# kernels and transfers; appends of 2^10 and 2^16 leaves onto 2^25 (the first round grows the
# device memory); each interleaved with merkleizer::build of the same leaves from host memory
# (root only), for blake3 and sha256; the roots checked equal; peak device memory by arithmetic.
# Logs in $OUT (default /tmp/out).
#   bash bench/resident_update_ab.sh
set -uo pipefail
source bench/ab_base.sh
export MERKLIZE_OCL=${MERKLIZE_OCL:-nvidia}
[ -f .device-debs/env.sh ] && source .device-debs/env.sh > /dev/null
OUT=${OUT:-/tmp/out}
mkdir -p "$OUT"
log=$OUT/resident_update_ab.log
: > "$log"
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>/dev/null | tee -a "$log"

ab_build . "$OUT/build.log" merklize_tests merklize_core_tests update_bench
echo "[resident] on the GPU: $(timeout 500 build-ab/tests/merklize_tests '[resident]' 2>&1 |
  tail -2 | tr '\n' ' ')" | tee -a "$log"
echo "[update_plan]: $(timeout 100 build-ab/tests/merklize_core_tests '[update_plan]' 2>&1 |
  tail -2 | tr '\n' ' ')" | tee -a "$log"
for hash in blake3 sha256; do
  for pct in 1 0.01 10; do
    echo "== update_bench 25 $hash 5 $pct" | tee -a "$log"
    timeout 300 build-ab/bench/update_bench 25 "$hash" 5 "$pct" 2>&1 | tee -a "$log"
  done
  for count in 1024 65536; do
    echo "== update_bench append 25 $hash 5 $count" | tee -a "$log"
    timeout 300 build-ab/bench/update_bench append 25 "$hash" 5 "$count" 2>&1 | tee -a "$log"
  done
done
