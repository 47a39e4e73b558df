#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0 OR MIT
# Updates of kept trees against their floors, on the GPU machine, one call (docs/BENCHMARKS.md):
#   PoCL (the machine's CPU): update_floor (the memory and hashing floors under the host
#   engine's update of 1% of 2^25) and update_bench --engine=host (the update itself) in turn,
#   twice, then BLAKE3's hash_many tree (merklize_bench cpu_blake3; BLAKE3_C_DIR, fetched outside
#   the project): how near the update comes to what the levels' layout allows.
#   NVIDIA: kary_update_bench with update_proved and with update, in turn (arities 8 and 16).
# Usage, from the project root there, .device-debs carried:
#   BLAKE3_C_DIR=$PWD/build-blake3c/c bash bench/update_floor.sh
set -uo pipefail
export MERKLIZE_OCL=all
source .device-debs/env.sh > /dev/null
OUT=${OUT:-/tmp/out}
mkdir -p "$OUT"
log=$OUT/update_floor.log
{ nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; nproc; } | tee "$log"
cmake -S . -B build-ab -DCMAKE_BUILD_TYPE=Release -DMERKLIZE_AOT=OFF \
  -DMERKLIZE_BLAKE3_C_DIR="${BLAKE3_C_DIR:-}" > "$OUT/cmake.log" 2>&1
cmake --build build-ab -j "$(nproc)" --target update_floor update_bench kary_update_bench \
  merklize_bench > "$OUT/build.log" 2>&1 || { grep -m5 -A5 error "$OUT/build.log"; exit 1; }
b=build-ab/bench
pocl() { OCL_ICD_VENDORS=/opt/debs/icd/pocl.icd timeout 200 "$@"; }
nvidia() { OCL_ICD_VENDORS=/opt/debs/icd/nvidia.icd timeout 200 "$@"; }
for run in 1 2; do
  echo "== update_floor 25 1 5 blake3 (run $run)" | tee -a "$log"
  pocl $b/update_floor 25 1 5 blake3 2>&1 | grep -E '^\| [0-9]|update_floor' | tee -a "$log"
  echo "== PoCL update_bench --engine=host 25 blake3 5 1 (run $run)" | tee -a "$log"
  pocl $b/update_bench --engine=host 25 blake3 5 1 2>&1 |
    grep -E '^\| [0-9]|split|device|agree' | tee -a "$log"
done
pocl $b/merklize_bench --hash=blake3 --min_log2=25 --max_log2=25 --benchmark_filter='cpu_' \
  --benchmark_min_time=1 2>&1 | grep -E 'cpu_|ERROR' | tee -a "$log"
for shape in "8 8 blake3" "16 6 sha256"; do
  for mode in --proved ""; do
    echo "== NVIDIA kary_update_bench $mode $shape 5 1" | tee -a "$log"
    nvidia $b/kary_update_bench $mode $shape 5 1 2>&1 | grep -E '^\| [0-9]|device' | tee -a "$log"
  done
done
