#!/usr/bin/env bash
# The GPU machine's run (see docs/BENCHMARKS.md): build, test on the GPU, NVIDIA's register
# report, then the benchmark on the GPU and on PoCL over the host's cores. Logs go to $OUT.
# Usage, from the project root on that machine:  bash bench/device_run.sh [max_log2]
set -uo pipefail
export MERKLIZE_OCL=all
source .device-debs/env.sh
OUT=${OUT:-/tmp/out}
mkdir -p "$OUT"
max=${1:-25}
nvidia-smi --query-gpu=name,memory.total,clocks.sm,clocks.max.sm --format=csv | tee "$OUT/gpu.txt"
nproc; grep -m1 'model name' /proc/cpuinfo
cmake -S . -B build -DCMAKE_BUILD_TYPE=Release > "$OUT/cmake.log" 2>&1 || { tail -30 "$OUT/cmake.log"; exit 1; }
cmake --build build -j 16 > "$OUT/build.log" 2>&1 || { grep -B2 -A8 error "$OUT/build.log" | head -60; exit 1; }
./build/tools/merklize devices
(cd build && MERKLIZE_DEVICE=nvidia ctest -j 8 --output-on-failure > "$OUT/ctest-nvidia.log" 2>&1; tail -5 "$OUT/ctest-nvidia.log")
./build/tests/merklize_gpu_test
MERKLIZE_DEVICE=nvidia ./build/bench/merklize_bench --build_log=-cl-nv-verbose > "$OUT/nv-verbose.log" 2>&1
grep -iE "registers|spill|stack|lmem|smem" "$OUT/nv-verbose.log" | sort | uniq -c | head -20
rm -f "$OUT/bench.csv"
for dev in nvidia pocl; do
  MERKLIZE_DEVICE=$dev ./build/bench/merklize_bench --max_log2="$max" --csv="$OUT/bench.csv" \
    --benchmark_min_time=0.2 --benchmark_out="$OUT/bench-$dev.json" > "$OUT/bench-$dev.log" 2>&1
  sed -n '/^merklize on/,$p' "$OUT/bench-$dev.log"
done
python3 bench/plot.py "$OUT/bench.csv" "$OUT/throughput.png" && echo "plot written"
