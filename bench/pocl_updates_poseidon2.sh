#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0 OR MIT
# A CPU through PoCL (the GPU machine's, or any): updates of a tree kept on a CPU device, and
# Poseidon2's permutation rates (docs/BENCHMARKS.md, "CPU-only machines"), each part logged to
# $OUT/pocl_updates_poseidon2.log:
#   1. update_bench on PoCL, 1% of 2^25 BLAKE3 leaves updated in place (by the host's
#      cores, then by the kernels; each beside host_root's rebuild on every core), beside
#      merklize_bench's cpu_blake3 row: BLAKE3's own hash_many building the same tree on every
#      core (needs BLAKE3's C sources: BLAKE3_C_DIR, fetched outside the project; the row is
#      missing without them).
#   2. poseidon2_bench on PoCL, the permutation rate of each field (divide by the
#      cores for a core's rate) beside Plonky3's published CPU figures (docs/BENCHMARKS.md).
# Usage, from the project root on that machine, .device-debs carried:
#   BLAKE3_C_DIR=$PWD/build-blake3c/c bash bench/pocl_updates_poseidon2.sh
set -uo pipefail
export MERKLIZE_OCL=pocl
[ -f .device-debs/env.sh ] && source .device-debs/env.sh > /dev/null
OUT=${OUT:-/tmp/out}
BUILD=${BUILD:-build-pocl}
mkdir -p "$OUT"
log=$OUT/pocl_updates_poseidon2.log
lscpu | grep -E '^(Model name|CPU\(s\)|Flags)' | cut -c1-200 | tee "$log"
cmake -S . -B "$BUILD" -DCMAKE_BUILD_TYPE=Release -DMERKLIZE_AOT=OFF \
  -DMERKLIZE_BLAKE3_C_DIR="${BLAKE3_C_DIR:-}" > "$OUT/pocl_build.log" 2>&1 &&
  cmake --build "$BUILD" -j "$(nproc)" --target update_bench merklize_bench poseidon2_bench \
    >> "$OUT/pocl_build.log" 2>&1 || { grep -B2 -A10 -m5 error "$OUT/pocl_build.log"; exit 1; }
grep -i "hash_many" "$OUT/pocl_build.log" | tee -a "$log"

echo "== 1. update 1% of 2^25 on PoCL, then BLAKE3's hash_many tree of 2^25 on $(nproc) threads" | tee -a "$log"
# The host's cores (the default on a CPU device: host_updater.hpp), then the kernels.
timeout 300 "$BUILD"/bench/update_bench --engine=host 25 blake3 4 1 2>&1 | tee -a "$log"
timeout 400 "$BUILD"/bench/update_bench --engine=kernels 25 blake3 4 1 2>&1 | tee -a "$log"
timeout 300 "$BUILD"/bench/merklize_bench --hash=blake3 --min_log2=25 --max_log2=25 \
  --benchmark_filter='cpu_' --benchmark_min_time=1 2>&1 | grep -E 'cpu_|hash_many|ERROR' | tee -a "$log"

echo "== 2. Poseidon2 permutations on PoCL ($(nproc) cores)" | tee -a "$log"
timeout 300 "$BUILD"/bench/poseidon2_bench --perm_log2=16 --log2_min=14 --log2_max=16 \
  --benchmark_min_time=1 2>&1 | grep -E '^(permutations_|poseidon2_)|ERROR|differ' | tee -a "$log"
