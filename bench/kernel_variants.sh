#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0 OR MIT
# The GPU machine's kernel-variant run (docs/BENCHMARKS.md, "Trees on a GPU"): builds Release,
# checks the trees of every kernel configuration against the host reference on the GPU
# (merklize_gpu_test, and the level-kernel and streaming tests of merklize_tests), then times every
# kernel variant at 2^20 and 2^25 leaves with NVIDIA's register report and the default's launches
# (merklize_bench --variants), and where a pinned build of 2^25 leaves spends its time, by chunk
# size (merklize_bench --timeline); with --pocl, also PoCL's variants at 2^24 leaves.
# Logs go to $OUT: variants.log (the summary), variants.stderr (progress, errors).
# Usage, from the project root on that machine, .device-debs carried:
#   bash bench/kernel_variants.sh [--pocl]
set -uo pipefail
export MERKLIZE_OCL=all
if [ -f .device-debs/env.sh ]; then source .device-debs/env.sh; fi
OUT=${OUT:-/tmp/out}
mkdir -p "$OUT"
log="$OUT/variants.log"
nvidia-smi --query-gpu=name,memory.total,clocks.sm,clocks.max.sm --format=csv 2>&1 | tee "$log"
start=$(date +%s)
cmake -S . -B build -DCMAKE_BUILD_TYPE=Release -DMERKLIZE_AOT=OFF > "$OUT/build.log" 2>&1 &&
  cmake --build build -j "$(nproc)" --target merklize_bench merklize_gpu_test merklize_tests \
    >> "$OUT/build.log" 2>&1 ||
  { grep -B2 -A8 error "$OUT/build.log" | head -60; exit 1; }
echo "built in $(( $(date +%s) - start )) s" | tee -a "$log"
timeout 100 ./build/tests/merklize_gpu_test 2>&1 | tail -4 | tee -a "$log"
MERKLIZE_DEVICE=nvidia timeout 120 ./build/tests/merklize_tests "[levels-kernel],[level-kernel],[streaming]" \
  > "$OUT/tests.log" 2>&1
grep -B3 -A12 FAILED "$OUT/tests.log" | head -40 | tee -a "$log"
tail -3 "$OUT/tests.log" | tee -a "$log"
MERKLIZE_DEVICE=nvidia timeout 150 ./build/bench/merklize_bench --variants=20,25 \
  --build_log=-cl-nv-verbose 2> "$OUT/variants.stderr" | tee -a "$log"
status=${PIPESTATUS[0]}
MERKLIZE_DEVICE=nvidia timeout 60 ./build/bench/merklize_bench --timeline=25 2>&1 | tee -a "$log"
MERKLIZE_DEVICE=nvidia timeout 120 ./build/bench/merklize_bench --min_log2=20 --max_log2=25 \
  --benchmark_filter='^(kernels|pinned_copy|pinned_nodes|pinned_root)/(20|25)$' \
  --benchmark_min_time=0.2 > "$OUT/bench.log" 2>&1
sed -n '/^merklize on/,$p' "$OUT/bench.log" | grep -E "^\| 2\^(20|25) " | tee -a "$log"
if [ "${1:-}" = --pocl ]; then
  MERKLIZE_DEVICE=pocl timeout 120 ./build/bench/merklize_bench --variants=24 \
    2>> "$OUT/variants.stderr" | tee -a "$log"
fi
echo "merklize_bench exit status $status; $(( $(date +%s) - start )) s in all" | tee -a "$log"
