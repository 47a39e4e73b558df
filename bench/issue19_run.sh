#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0 OR MIT
# Issue 19's table in one run on the GPU machine (docs/BENCHMARKS.md, "Issue 19's table"): the
# BLAKE3 and SHA-256 tree kernels, the SHA-256 layer, full BLAKE3 of 1 GiB, a page-locked build of
# every node beside the raw copies both ways (its floor), then the plain CUDA tree from
# .baseline/cuda_tree.cu (written for the comparison, kept outside the project, carried with
# .baseline) with its roots checked against `merklize root`, and the SASS of the tree programs by
# kernel. Logs in $OUT/close2.log. Usage, from the project root:  bash bench/issue19_run.sh
set -uo pipefail
export MERKLIZE_OCL=all; source .device-debs/env.sh > /dev/null
export PATH=$PATH:/usr/local/cuda/bin
OUT=${OUT:-/tmp/out}; mkdir -p $OUT
log=$OUT/close2.log
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv | tee $log
cmake -S . -B build -DCMAKE_BUILD_TYPE=Release -DMERKLIZE_AOT=OFF > $OUT/cfg.log 2>&1 &&
  cmake --build build -j16 --target merklize_bench sha256_bench hash_bench multi_bench merklize_cli > $OUT/build.log 2>&1 ||
  { grep -B2 -A10 -m5 error $OUT/build.log; exit 1; }
export MERKLIZE_DEVICE=nvidia
echo "== rows of issue 19" | tee -a $log
./build/bench/merklize_bench --min_log2=20 --max_log2=25 --benchmark_filter='^(kernels|pinned_nodes)/(20|25)/' --benchmark_min_time=0.5 2>&1 | grep -E '^(kernels|pinned)' | tee -a $log
./build/bench/sha256_bench --log2_min=25 --log2_max=25 --benchmark_min_time=0.5 2>&1 | grep -E '^(tree|layer|rfc)' | tee -a $log
./build/bench/hash_bench --sizes=1G --strategies=automatic --benchmark_filter='^kernel/' --benchmark_min_time=0.5 2>&1 | grep -E '^kernel/' | tee -a $log
MERKLIZE_DEVICES=nvidia ./build/bench/multi_bench --min_log2=25 --max_log2=25 --raw=1 --benchmark_min_time=0.5 2>&1 | grep -E "^one/|raw copies, 1|floor|^2\^25" | tee -a $log
echo "== plain CUDA baseline" | tee -a $log
nvcc -O3 -arch=sm_90 -o /tmp/cuda_tree .baseline/cuda_tree.cu 2>&1 | tail -5
for n in 20 25; do
  /tmp/cuda_tree $n /tmp/leaves$n | tee -a $log
  echo "merklize root --hash sha256: $(./build/tools/merklize root --hash sha256 /tmp/leaves$n)  blake3: $(./build/tools/merklize root /tmp/leaves$n)" | tee -a $log
done
echo "== SASS" | tee -a $log
root=$PWD
(cd $OUT && for h in blake3 sha256; do
  $root/build/bench/merklize_bench --hash=$h --build_log=-cl-nv-verbose > /dev/null 2>&1
  echo "-- $h"; bash $root/bench/sass.sh merkle-1.bin; done) 2>&1 | tee -a $log
