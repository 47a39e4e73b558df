#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0 OR MIT
# Issue 31, first step: a tree kept on the device and updated in place (resident_tree.hpp) beside
# a full rebuild from host memory, in one run on the GPU machine. Builds this tree (build-ab,
# Release), runs the resident tree's tests and the update plan's on the GPU, then
# bench/update_bench.cpp: updates of 1% of 2^25 random leaves (335k indices) from host memory,
# whole call, plan, kernels and transfers, interleaved with merkleizer::build of the same 2^25
# leaves from host memory (root only), for blake3 and sha256; the roots checked equal; peak
# device memory by arithmetic. Logs in $OUT (default /tmp/out).
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
  echo "== update_bench 25 $hash" | tee -a "$log"
  timeout 300 build-ab/bench/update_bench 25 "$hash" 5 1 2>&1 | tee -a "$log"
done
