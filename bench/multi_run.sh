#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0 OR MIT
# The several-device run (docs/BENCHMARKS.md, docs/DEVICES.md), on the machine with two GPUs (kind
# nvidia-h200-x2): build, the multi-device tests on the GPUs, multi_bench from 2^22 to 2^max
# leaves (one GPU against both; every internal node, then the root only), the CLI's root on both
# GPUs against one, and a GPU with PoCL as uneven devices. Logs go to $OUT.
# Usage, from the project root on that machine:  bash bench/multi_run.sh [max_log2]
set -uo pipefail
export MERKLIZE_OCL=all # the GPUs and PoCL (.device-debs/env.sh)
[ -f .device-debs/env.sh ] && source .device-debs/env.sh
[ -f .device-mpi/env.sh ] && source .device-mpi/env.sh # Open MPI where the machine has none
OUT=${OUT:-/tmp/out}
mkdir -p "$OUT"
max=${1:-27}
log="$OUT/multi.log"
{
  nvidia-smi --query-gpu=name,memory.total,pci.bus_id,pcie.link.gen.current,pcie.link.width.current --format=csv
  nvidia-smi topo -m
  echo "cores: $(nproc); $(grep -m1 'model name' /proc/cpuinfo)"
} | tee "$log"
cmake -S . -B build -DCMAKE_BUILD_TYPE=Release > /tmp/build.log 2>&1 &&
  cmake --build build -j 16 --target merklize_tests multi_bench merklize_cli merklize_mpi >> /tmp/build.log 2>&1 ||
  { grep -B2 -A8 error /tmp/build.log | head -60; exit 1; }
./build/tools/merklize devices | tee -a "$log"
gpus=$(./build/tools/merklize devices | awk '/\[.*gpu\]/ {print $1}' | paste -sd, -)
echo "GPUs: $gpus" | tee -a "$log"
# The tests: the same GPU named twice and three times, and the default devices (both GPUs).
MERKLIZE_DEVICE=nvidia timeout 300 ./build/tests/merklize_tests "[multi]" 2>&1 | tail -2 | tee -a "$log"
MERKLIZE_DEVICES=$gpus timeout 300 ./build/bench/multi_bench --min_log2=22 --max_log2="$max" --raw=1 \
  --benchmark_min_time=0.5 > "$OUT/multi_bench.log" 2>&1
sed -n '/^device /p; /^leaves/,$p' "$OUT/multi_bench.log" | tee -a "$log"
MERKLIZE_DEVICES=$gpus timeout 300 ./build/bench/multi_bench --min_log2=26 --max_log2="$max" \
  --output=root --benchmark_min_time=0.5 > "$OUT/multi_bench_root.log" 2>&1
sed -n '/^leaves/,$p' "$OUT/multi_bench_root.log" | tee -a "$log"
# The CLI: the root of 2^26 random leaves on both GPUs is the root on one.
head -c $((32 << 26)) /dev/urandom > /tmp/leaves26
one=$(./build/tools/merklize root --device nvidia /tmp/leaves26)
both=$(./build/tools/merklize root --devices "$gpus" /tmp/leaves26)
echo "merklize root: one GPU $one, --devices $gpus $both" | tee -a "$log"
[ "$one" = "$both" ] && echo "roots agree" | tee -a "$log" || echo "ROOTS DIFFER" | tee -a "$log"
# Uneven devices: the first GPU and PoCL on the host's cores, shards by measured speed.
MERKLIZE_DEVICES=nvidia,pocl timeout 300 ./build/bench/multi_bench --min_log2=24 --max_log2=24 \
  --shard_log2=18 --benchmark_min_time=0.5 > "$OUT/multi_bench_uneven.log" 2>&1
sed -n '/^device /p; /^leaves/,$p' "$OUT/multi_bench_uneven.log" | tee -a "$log"
# MPI: one rank per GPU (each rank takes the GPU of its local index), generated leaves, against
# one rank; then the root of the random file through two ranks against merklize root.
export OMPI_MCA_btl_vader_single_copy_mechanism=none
for n in 26 "$max"; do
  for ranks in 1 2; do
    mpirun -np $ranks ./build/tools/merklize-mpi --generate $((1 << n)) --repeat 5 --times \
      > /dev/null 2> "$OUT/mpi-$n-$ranks.log"
    echo "mpi 2^$n, $ranks ranks: $(grep -m1 'rank 1 on\|rank 0 on' "$OUT/mpi-$n-$ranks.log" | cut -d: -f2)" | tee -a "$log"
    grep "ranks, " "$OUT/mpi-$n-$ranks.log" | tail -4 | tee -a "$log"
  done
done
mpi=$(mpirun -np 2 ./build/tools/merklize-mpi /tmp/leaves26 2> "$OUT/mpi-file.log")
echo "merklize-mpi -np 2 on the file: $mpi" | tee -a "$log"
[ "$mpi" = "$one" ] && echo "mpi root agrees" | tee -a "$log" || { echo "MPI ROOT DIFFERS" | tee -a "$log"; cat "$OUT/mpi-file.log"; }
