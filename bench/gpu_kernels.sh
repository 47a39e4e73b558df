#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0 OR MIT
# The kernels table of docs/BENCHMARKS.md ("Trees on a GPU") in one run on the GPU machine, in
# order of importance, each part logged to $OUT/close.log as it ends:
#   1. the GPU tests with the defaults (bit-exact against the host reference), then the rows:
#      BLAKE3 tree kernels at 2^20 and 2^25 leaves, a page-locked build of every node at 2^25,
#      the SHA-256 tree, rfc6962 tree and layer at 2^25 (checked against OpenSSL), full BLAKE3
#      of 1 GiB, and the raw copies both ways at once that floor the page-locked build;
#   2. the same kernels without the NVIDIA row's kernel options (MERKLIZE_KERNEL_OPTIONS=""): what
#      those options are worth;
#   3. the plain CUDA tree and compression-only kernel (.baseline/cuda_tree.cu, written for the
#      comparison and kept outside the project, carried with .baseline), its roots checked
#      against `merklize root`;
#   4. whole processes (hyperfine, peak memory): `merklize b3sum` and `merklize root` of 1 GiB in
#      /dev/shm with and without the kernel options, beside b3sum;
#   5. PoCL on the machine's cores against BLAKE3's own hash_many tree (.baseline/blake3c, the
#      official C code fetched and built outside the project);
#   6. the SASS of the tree and hash programs by kernel (bench/sass.sh).
# Usage, from the project root:  bash bench/gpu_kernels.sh
set -uo pipefail
export MERKLIZE_OCL=all
source .device-debs/env.sh > /dev/null
export PATH=$PATH:/usr/local/cuda/bin
OUT=${OUT:-/tmp/out}
mkdir -p "$OUT"
log=$OUT/close.log
say() { echo "== $*" | tee -a "$log"; }
# Peak resident memory of a command, in MiB (its output to /dev/null).
peak_mib() { python3 -c 'import resource, subprocess, sys
subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL, check=True)
print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss // 1024)' "$@"; }
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv | tee "$log"
cmake -S . -B build -DCMAKE_BUILD_TYPE=Release -DMERKLIZE_AOT=OFF > "$OUT/build.log" 2>&1 &&
  cmake --build build -j16 --target merklize_bench sha256_bench hash_bench multi_bench \
    merklize_cli merklize_gpu_test merklize_gpu_hash_test >> "$OUT/build.log" 2>&1 ||
  { grep -B2 -A10 -m5 error "$OUT/build.log"; exit 1; }
export MERKLIZE_DEVICE=nvidia
say "1. GPU tests and the rows, defaults"
for t in merklize_gpu_test merklize_gpu_hash_test; do
  echo "$t: $(timeout 300 build/tests/$t 2>&1 | tail -1)" | tee -a "$log"
done
rows() { # FILTER: the merklize_bench rows, then full BLAKE3 of 1 GiB
  build/bench/merklize_bench --min_log2=20 --max_log2=25 \
    --benchmark_filter="^($1)/" --benchmark_min_time=0.5 2>&1 |
    grep -E '^(kernels|pinned)'
  build/bench/hash_bench --sizes=1G --strategies=automatic --benchmark_filter='^kernel/' \
    --benchmark_min_time=0.5 2>&1 | grep -E '^kernel/'
}
rows "kernels/(20|25)|pinned_nodes/25" | tee -a "$log"
build/bench/sha256_bench --log2_min=25 --log2_max=25 --benchmark_min_time=0.5 2>&1 |
  grep -E '^(tree|layer|rfc)|FAIL|differ' | tee -a "$log"
MERKLIZE_DEVICES=nvidia build/bench/multi_bench --min_log2=25 --max_log2=25 --raw=1 \
  --benchmark_min_time=0.5 2>&1 | grep -E "^one/|raw copies, 1|floor|^2\^25" | tee -a "$log"
say "2. the same kernels without the row's kernel options"
MERKLIZE_KERNEL_OPTIONS="" rows "kernels/(20|25)" | tee -a "$log"
say "3. plain CUDA"
nvcc -O3 -arch=sm_90 -o /tmp/cuda_tree .baseline/cuda_tree.cu 2>&1 | tail -5
for n in 20 25; do
  /tmp/cuda_tree $n /dev/shm/leaves$n | tee -a "$log"
  echo "merklize root: blake3 $(build/tools/merklize root /dev/shm/leaves$n)," \
    "sha256 $(build/tools/merklize root --hash sha256 /dev/shm/leaves$n)" | tee -a "$log"
done
say "4. whole processes, 1 GiB in /dev/shm"
f=/dev/shm/leaves25
hyperfine -N -w 2 -r 10 --export-markdown "$OUT/hyperfine.md" \
  -n "merklize b3sum" "build/tools/merklize b3sum $f" \
  -n "merklize b3sum, plain adds" "env MERKLIZE_KERNEL_OPTIONS= build/tools/merklize b3sum $f" \
  -n "b3sum" "b3sum $f" \
  -n "merklize root" "build/tools/merklize root $f" \
  -n "merklize root, plain adds" "env MERKLIZE_KERNEL_OPTIONS= build/tools/merklize root $f" \
  > "$OUT/hyperfine.log" 2>&1
cat "$OUT/hyperfine.md" | tee -a "$log"
echo "peak MiB: b3sum $(peak_mib build/tools/merklize b3sum $f), root" \
  "$(peak_mib build/tools/merklize root $f), b3sum $(peak_mib b3sum $f)" | tee -a "$log"
say "5. PoCL on $(nproc) cores against hash_many"
(cd .baseline/blake3c && gcc -O3 -o /tmp/hash_many_tree ../hash_many_tree.c blake3.c \
  blake3_dispatch.c blake3_portable.c blake3_*_x86-64_unix.S -I. -lpthread)
for round in 1 2; do
  /tmp/hash_many_tree 25 "$(nproc)" 5 | tail -1 | tee -a "$log"
  MERKLIZE_OCL=pocl bash -c 'source .device-debs/env.sh > /dev/null; unset MERKLIZE_DEVICE
    build/bench/merklize_bench --min_log2=25 --max_log2=25 --benchmark_filter="^kernels/25/" \
    --benchmark_min_time=1' 2>&1 | grep -E '^kernels/' | tee -a "$log"
done
say "6. SASS"
root=$PWD
(cd "$OUT" && for h in blake3 sha256; do
  "$root/build/bench/merklize_bench" --hash=$h --build_log=-cl-nv-verbose > /dev/null 2>&1
  for p in merkle_level merkle_levels; do echo "-- $h $p"; bash "$root/bench/sass.sh" $p.bin; done
done
"$root/build/bench/hash_bench" --strategies=automatic --build_log=-cl-nv-verbose > /dev/null 2>&1
echo "-- full BLAKE3"; bash "$root/bench/sass.sh" hash-automatic.bin; rm -f ./*.bin) 2>&1 | tee -a "$log"
