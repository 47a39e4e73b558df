#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0 OR MIT
# The host engine's BLAKE3 in vector lanes (include/merklize/core/host_blake3_simd.hpp) on the GPU
# machine's host, for the host row of include/merklize/plan/tuning.hpp (blake3_avx512_gbps_per_thread)
# and issue 29's "never slower than 2x b3sum": merklize root of 1 GiB in /dev/shm on the host
# engine, on the GPU and as --device auto chooses, beside b3sum, in one hyperfine run; then auto's
# estimates (--verbose). Needs hyperfine and b3sum; builds merklize in $BUILD (default build).
#   bash bench/host_blake3_gpu.sh [GPU]           (GPU: a --device spec, default nvidia)
set -euo pipefail
BUILD=${BUILD:-build}
gpu=${1:-nvidia}
cmake -S . -B "$BUILD" -DCMAKE_BUILD_TYPE=Release > /dev/null
cmake --build "$BUILD" -j"$(nproc)" --target merklize_cli > /dev/null
merklize=$(realpath "$BUILD/tools/merklize")
shm=$(mktemp -d /dev/shm/merklize_host_blake3.XXXXXX)
trap 'rm -rf "$shm"' EXIT
head -c $((1 << 30)) /dev/urandom > "$shm/gib" # 2^25 leaves

echo "== machine"
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>/dev/null || true
nproc; uptime; grep -o -m1 -w 'avx512f\|avx2' /proc/cpuinfo | head -1
"$merklize" --version

echo "== the roots agree"
for device in host "$gpu" auto; do "$merklize" root --device "$device" "$shm/gib"; done

echo "== whole processes (hyperfine, 2 warm-ups, 10 runs)"
hyperfine -N -w 2 -r 10 --export-markdown "$shm/host_blake3.md" \
  "b3sum $shm/gib" \
  "$merklize root --device host $shm/gib" \
  "$merklize root --device $gpu $shm/gib" \
  "$merklize root $shm/gib" > /dev/null
cat "$shm/host_blake3.md"

echo "== --device auto's estimates"
"$merklize" root --verbose "$shm/gib" 2>&1 > /dev/null | grep -E 'engine|total'
