#!/usr/bin/env bash
# The GPU machine's kernel-variant run (issue 3; docs/BENCHMARKS.md): builds Release, checks the
# trees of the default kernels and of merkle_level at 1, 2 and 4 nodes per work-item against the
# host reference on the GPU (merklize_gpu_test), then times every variant of the one-level
# launches at 2^20 and 2^25 leaves with NVIDIA's register report (merklize_bench --variants);
# with --pocl, also PoCL's variants (lanes kernels by work-group size among them) at 2^24 leaves.
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
  cmake --build build -j "$(nproc)" --target merklize_bench merklize_gpu_test >> "$OUT/build.log" 2>&1 ||
  { grep -B2 -A8 error "$OUT/build.log" | head -60; exit 1; }
echo "built in $(( $(date +%s) - start )) s" | tee -a "$log"
timeout 100 ./build/tests/merklize_gpu_test 2>&1 | tail -4 | tee -a "$log"
MERKLIZE_DEVICE=nvidia timeout 150 ./build/bench/merklize_bench --variants=20,25 \
  --build_log=-cl-nv-verbose 2> "$OUT/variants.stderr" | tee -a "$log"
status=${PIPESTATUS[0]}
if [ "${1:-}" = --pocl ]; then
  MERKLIZE_DEVICE=pocl timeout 120 ./build/bench/merklize_bench --variants=24 \
    2>> "$OUT/variants.stderr" | tee -a "$log"
fi
echo "merklize_bench exit status $status; $(( $(date +%s) - start )) s in all" | tee -a "$log"
