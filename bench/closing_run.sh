#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0 OR MIT
# The GPU machine's shorter run, for a change to kernels or streaming when the rest stands
# (docs/BENCHMARKS.md): build, the GPU tests, the benchmark on the GPU (every size) with the
# timeline of a pinned build, the benchmark on PoCL at 2^20 .. 2^max, BLAKE3's hash_many tree on
# the same cores where .baseline/ was carried, then the whole ctest suite on the GPU.
# Usage, from the project root on that machine:  bash bench/closing_run.sh [max_log2]
cmake_args=(-DMERKLIZE_AOT=OFF)
source bench/device_setup.sh
./build/tests/merklize_gpu_test | tail -2 | tee -a "$log"
./build/tests/merklize_gpu_hash_test | tail -2 | tee -a "$log"
MERKLIZE_DEVICE=nvidia ./build/tests/merklize_tests "[hash],[streaming],[levels-kernel]" | tail -2 | tee -a "$log"
MERKLIZE_DEVICE=nvidia timeout 60 ./build/bench/merklize_bench --timeline="$max" > "$OUT/timeline.log" 2>&1
grep -A3 "defaults" "$OUT/timeline.log" | tee -a "$log"
rm -f "$OUT/bench.csv"
MERKLIZE_DEVICE=nvidia timeout 200 ./build/bench/merklize_bench --max_log2="$max" --csv="$OUT/bench.csv" \
  --benchmark_min_time=0.2 > "$OUT/bench-nvidia.log" 2>&1
sed -n '/^merklize on/,$p' "$OUT/bench-nvidia.log" | grep -v "^merklized" | tee -a "$log"
MERKLIZE_DEVICE=pocl timeout 100 ./build/bench/merklize_bench --min_log2=20 --max_log2="$max" \
  --csv="$OUT/bench.csv" --benchmark_min_time=0.2 > "$OUT/bench-pocl.log" 2>&1
sed -n '/^merklize on/,$p' "$OUT/bench-pocl.log" | grep -v "^merklized" | tee -a "$log"
python3 bench/plot.py "$OUT/bench.csv" "$OUT/throughput.png" && echo "plot written" | tee -a "$log"
if [ -d .baseline ]; then
  (bash .baseline/build.sh > /dev/null 2>&1 && .baseline/tree_bench 20 "$max" 16) 2>&1 | tail -8 | tee -a "$log"
fi
(cd build && MERKLIZE_DEVICE=nvidia timeout 240 ctest -j 8 --output-on-failure > ctest.log 2>&1;
 grep -E "tests passed|FAILED|Failed|Skipped" ctest.log) | tee -a "$log"
