#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0 OR MIT
# Many small trees at once on the GPU machine, in one run. Builds this tree
# (build-ab, Release), runs the many-trees tests and the plan's on the GPU, then
# bench/many_trees_bench.cpp for blake3 and sha256: 2^16 trees of 2^8 leaves and 2^10 trees of
# 2^14 leaves, roots_many from host memory and from a device buffer (whole call and kernels),
# beside one device_tree over all 2^24 leaves (kernels: the throughput limit, which roots_many's
# kernels should come within 1.2x of) and the CPU baselines over the same leaves (BLAKE3's
# hash_many where its C sources are found, OpenSSL), sample roots checked against the host
# reference. Logs in $OUT (default /tmp/out).
#   bash bench/many_trees_run.sh
set -uo pipefail
source bench/ab_base.sh
export MERKLIZE_OCL=${MERKLIZE_OCL:-nvidia}
[ -f .device-debs/env.sh ] && source .device-debs/env.sh > /dev/null
OUT=${OUT:-/tmp/out}
mkdir -p "$OUT"
log=$OUT/many_trees_run.log
: > "$log"
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>/dev/null | tee -a "$log"

ab_build . "$OUT/build.log" merklize_tests merklize_core_tests many_trees_bench
echo "[many] on the GPU: $(timeout 500 build-ab/tests/merklize_tests '[many]' 2>&1 |
  tail -2 | tr '\n' ' ')" | tee -a "$log"
echo "[many] plan: $(timeout 100 build-ab/tests/merklize_core_tests '[many]' 2>&1 |
  tail -2 | tr '\n' ' ')" | tee -a "$log"
for hash in blake3 sha256; do
  echo "== many_trees_bench $hash 10 16:8 10:14" | tee -a "$log"
  timeout 300 build-ab/bench/many_trees_bench "$hash" 10 16:8 10:14 2>&1 | tee -a "$log"
done
