#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0 OR MIT
# The GPU machine's run (see docs/BENCHMARKS.md): build, test on the GPU, NVIDIA's register
# report, a kernel sweep, where a pinned build spends its time (--timeline), the benchmark on the
# GPU and on PoCL over the host's cores, and, where
# .baseline/ was carried, BLAKE3's hash_many tree on the same cores. Logs go to $OUT.
# Usage, from the project root on that machine:  bash bench/device_run.sh [max_log2]
cmake_args=()
source bench/device_setup.sh
./build/tools/merklize devices | tee -a "$log"
(cd build && MERKLIZE_DEVICE=nvidia timeout 300 ctest -j 8 --output-on-failure > ctest.log 2>&1;
 grep -E "tests passed|FAILED|Failed|Skipped" ctest.log) | tee -a "$log"
./build/tests/merklize_gpu_test | tail -2 | tee -a "$log"
MERKLIZE_DEVICE=nvidia ./build/bench/merklize_bench --build_log=-cl-nv-verbose > "$OUT/nv-verbose.log" 2>&1
grep -iE "registers|spill|stack" "$OUT/nv-verbose.log" | sort | uniq -c | tee -a "$log"
MERKLIZE_DEVICE=nvidia timeout 150 ./build/bench/merklize_bench --sweep --min_log2=20 --max_log2="$max" \
  --benchmark_filter='/(20|'"$max"')/' --benchmark_min_time=0.05 > "$OUT/sweep.log" 2>&1
grep -E "^(kernels|pinned)" "$OUT/sweep.log" | awk '{print $1, $2, $3, $NF}' | tee -a "$log"
MERKLIZE_DEVICE=nvidia timeout 60 ./build/bench/merklize_bench --timeline="$max" > "$OUT/timeline.log" 2>&1
grep -A3 "defaults" "$OUT/timeline.log" | tee -a "$log"
rm -f "$OUT/bench.csv"
for dev in nvidia pocl; do
  MERKLIZE_DEVICE=$dev timeout 200 ./build/bench/merklize_bench --max_log2="$max" --csv="$OUT/bench.csv" \
    --benchmark_min_time=0.2 > "$OUT/bench-$dev.log" 2>&1
  sed -n '/^merklize on/,$p' "$OUT/bench-$dev.log" | grep -v "^merklized" | tee -a "$log"
done
python3 bench/plot.py "$OUT/bench.csv" "$OUT/throughput.png" && echo "plot written" | tee -a "$log"
other="$OUT/other.log"
timeout 120 ./build/bench/hash_bench --device=nvidia --benchmark_min_time=0.1 > "$other" 2>&1
grep -E "^(kernel|host|file)" "$other" | grep -E "1024MiB|1G|file" | cut -c1-260 | tee -a "$log"
MERKLIZE_DEVICE=nvidia timeout 120 ./build/bench/sha256_bench --benchmark_min_time=0.1 >> "$other" 2>&1
grep -E "^(tree|layer)/2[45]" "$other" | cut -c1-220 | tee -a "$log"
timeout 120 ./build/bench/proof_bench --device=nvidia --benchmark_min_time=0.1 >> "$other" 2>&1
grep -E "/24/" "$other" | grep -E "^(gather|multiproof|verify)" | cut -c1-200 | tee -a "$log"
if [ -d .aot ]; then # carried ahead-of-time kernels: which form each platform takes
  head -c 3200 /dev/urandom > /tmp/leaves
  for dev in nvidia pocl; do
    echo "$dev: $(MERKLIZE_DEVICE=$dev MERKLIZE_KERNEL_DIR=$PWD/.aot ./build/tools/merklize root --verbose /tmp/leaves 2>&1 | tr '\n' ' ')" | tee -a "$log"
  done
  MERKLIZE_DEVICE=pocl POCL_KERNEL_CACHE=0 MERKLIZE_KERNEL_DIR=$PWD/.aot timeout 60 \
    ./build/bench/merklize_build_bench >> "$other" 2>&1
fi
for dev in nvidia pocl; do
  for cache in 0 1; do  # cold driver caches, then warm
    MERKLIZE_DEVICE=$dev CUDA_CACHE_DISABLE=$((1 - cache)) POCL_KERNEL_CACHE=$cache timeout 60 \
      ./build/bench/merklize_build_bench >> "$other" 2>&1
  done
done
grep -E "^(program_build|device|driver|forms)" "$other" | cut -c1-160 | tee -a "$log"
if [ -d .baseline ]; then
  (bash .baseline/build.sh > /dev/null 2>&1 && .baseline/tree_bench 20 "$max" 16) 2>&1 | tail -8 | tee -a "$log"
fi
