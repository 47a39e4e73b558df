#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0 OR MIT
# The README's numbers table, from one run on the GPU machine (docs/BENCHMARKS.md): the SHA-256
# tree of 2^25 leaves in memory on the GPU and on PoCL beside OpenSSL on all cores and the host
# reference, then `merklize bench` (every task as whole processes beside the CPU tool) on a file
# in memory, with the GPU and then PoCL. Expects a Release build with the benchmarks in build/
# (bench/bindings_gpu.sh build) and the carried .device-debs (b3sum, fsverity, cryptsetup-bin).
# Usage, from the project root on that machine:  bash bench/readme_cells.sh [SIZE_MIB] [RUNS]
set -uo pipefail
export MERKLIZE_OCL=all
source .device-debs/env.sh
# cryptsetup-bin and its libraries unpack under /opt/debs/sbin and /opt/debs/lib.
export PATH=/opt/debs/sbin:$PATH
export LD_LIBRARY_PATH=/opt/debs/lib/x86_64-linux-gnu:$LD_LIBRARY_PATH
OUT=${OUT:-/tmp/out}
mkdir -p "$OUT"
log="$OUT/cells.log"
mib=${1:-1024} runs=${2:-5}
{ nvidia-smi --query-gpu=name --format=csv,noheader; echo "cores: $(nproc)"; date -u; } | tee "$log"
for dev in nvidia pocl; do
  MERKLIZE_DEVICE=$dev timeout 150 ./build/bench/merklize_bench --hash=sha256 --min_log2=25 \
    --max_log2=25 --benchmark_filter='^(kernels|host_all|cpu_)' --benchmark_min_time=0.2 \
    > "$OUT/sha256-$dev.log" 2>&1
  echo "== sha256, 2^25, $dev" | tee -a "$log"
  grep -E "^(kernels|host_all|cpu_)" "$OUT/sha256-$dev.log" | cut -c1-150 | tee -a "$log"
done
file=/dev/shm/merklize-cells-$mib.data
(openssl enc -aes-128-ctr -pass pass:merklize -nosalt -pbkdf2 </dev/zero 2>/dev/null || true) |
  head -c $((mib * 1048576)) > "$file"
for dev in nvidia pocl; do
  echo "== merklize bench --runs $runs, $mib MiB, $dev" | tee -a "$log"
  MERKLIZE_DEVICE=$dev timeout 200 ./build/tools/merklize bench --runs "$runs" "$file" 2>&1 | tee -a "$log"
done
rm -f "$file"
# hashtree (github:prysmaticlabs/hashtree, built outside the project with bench/hashtree_tree.c,
# carried in .devbin/): the SHA-256 tree of 2^25 leaves on all cores, reading the file included.
if [ -x .devbin/ht_tree ]; then
  gib=/dev/shm/merklize-cells-gib.data
  head -c $((1 << 30)) /dev/urandom > "$gib"
  echo "== SHA-256 tree of 2^25 leaves, whole processes: hashtree on $(nproc) threads, merklize" | tee -a "$log"
  for cmd in ".devbin/ht_tree $gib $(nproc)" "./build/tools/merklize root --hash sha256 --device nvidia $gib" \
    "./build/tools/merklize root --hash sha256 --device pocl $gib" \
    "./build/tools/merklize root --hash sha256 --device host $gib"; do
    echo "$cmd: $($cmd)" | tee -a "$log"
  done
  hyperfine -N -w 1 -r 5 ".devbin/ht_tree $gib $(nproc)" \
    "./build/tools/merklize root --hash sha256 --device nvidia $gib" \
    "./build/tools/merklize root --hash sha256 --device pocl $gib" \
    "./build/tools/merklize root --hash sha256 --device host $gib" 2>&1 | tee -a "$log"
  rm -f "$gib"
fi
