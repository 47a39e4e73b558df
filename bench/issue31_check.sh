#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0 OR MIT
# Issue 31's checks on the GPU machine after session 11's merges, in one call (docs/BENCHMARKS.md):
#   gpu:  the resident tests (binary, k-ary, host-engine path) compiled alone and run on the GPU,
#         the device-tree C tests, the external memory and semaphore tests and the CUDA example
#         (cuda.h from CUDA_INC), update_bench of 1% of 2^25 (batch and ordinary) beside the
#         base's (build-base: `git archive BASE include bench`), kary_update_bench with the
#         device row's share of whole levels and with every level listed (share 1000).
#   pocl: issue 31's PoCL target on the machine's CPU: update_bench --engine=host, the base's
#         (build-base: include and bench of an earlier commit) and this tree's in turn, and
#         --engine=kernels, beside BLAKE3's hash_many tree (merklize_bench cpu_blake3; BLAKE3_C_DIR, fetched
#         outside the project).
# Usage, from the project root there, .device-debs carried:
#   CUDA_INC=$PWD/build-cudainc BLAKE3_C_DIR=$PWD/build-blake3c/c bash bench/issue31_check.sh gpu|pocl
set -uo pipefail
part=${1:-gpu}
export MERKLIZE_OCL=$([ "$part" = pocl ] && echo pocl || echo nvidia)
source .device-debs/env.sh > /dev/null
OUT=${OUT:-/tmp/out}
mkdir -p "$OUT"
log=$OUT/issue31_$part.log
flags=(-std=c++17 -O2 -Iinclude -Itests -DCL_HPP_MINIMUM_OPENCL_VERSION=200
  -DCL_HPP_TARGET_OPENCL_VERSION=300 "-DMERKLIZE_SOURCE_DIR=\"$PWD\""
  "-DMERKLIZE_KERNEL_SOURCE_DIR=\"$PWD/include/merklize/kernels\""
  "-DMERKLIZE_TEST_VECTOR_DIR=\"$PWD/tests/vectors\"" '-DMERKLIZE_AOT_DIR=""')
libs=(-lOpenCL -lpthread -lssl -lcrypto)
{ nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>/dev/null; nproc; } | tee "$log"
cmake -S . -B build-ab -DCMAKE_BUILD_TYPE=Release -DMERKLIZE_AOT=OFF \
  -DMERKLIZE_CUDA_INCLUDE_DIR="${CUDA_INC:-}" -DMERKLIZE_BLAKE3_C_DIR="${BLAKE3_C_DIR:-}" \
  > "$OUT/cmake.log" 2>&1

if [ "$part" = pocl ]; then
  (cd build-base && g++ -std=c++17 -O2 -Iinclude -DCL_HPP_MINIMUM_OPENCL_VERSION=200 \
    -DCL_HPP_TARGET_OPENCL_VERSION=300 "-DMERKLIZE_KERNEL_SOURCE_DIR=\"$PWD/include/merklize/kernels\"" \
    bench/update_bench.cpp -o /tmp/update_bench_base "${libs[@]}" > "$OUT/base.log" 2>&1) &
  cmake --build build-ab -j "$(nproc)" --target update_bench merklize_bench > "$OUT/build.log" 2>&1 ||
    { grep -m5 -A5 error "$OUT/build.log"; exit 1; }
  wait
  for run in 1 2; do # the base's host path (build-base) and this tree's, in turn
    for bench in /tmp/update_bench_base build-ab/bench/update_bench; do
      echo "== PoCL $bench --engine=host 25 blake3 5 1 (run $run)" | tee -a "$log"
      timeout 200 "$bench" --engine=host 25 blake3 5 1 2>&1 |
        grep -E '^\| [0-9]|split|path|device|agree' | tee -a "$log"
    done
  done
  echo "== PoCL update_bench --engine=kernels 25 blake3 4 1" | tee -a "$log"
  timeout 200 build-ab/bench/update_bench --engine=kernels 25 blake3 4 1 2>&1 |
    grep -E '^\| [0-9]|path' | tee -a "$log"
  timeout 200 build-ab/bench/merklize_bench --hash=blake3 --min_log2=25 --max_log2=25 \
    --benchmark_filter='cpu_' --benchmark_min_time=1 2>&1 | grep -E 'cpu_|hash_many|ERROR' | tee -a "$log"
  exit 0
fi

g++ "${flags[@]}" -c tests/test_main.cpp -o /tmp/test_main.o
for t in resident_tree resident_kary resident_host_update external_memory; do
  g++ "${flags[@]}" /tmp/test_main.o "tests/test_$t.cpp" -o "/tmp/t_$t" "${libs[@]}" \
    > "$OUT/t_$t.log" 2>&1 &
done
(cd build-base && g++ -std=c++17 -O2 -Iinclude -DCL_HPP_MINIMUM_OPENCL_VERSION=200 \
  -DCL_HPP_TARGET_OPENCL_VERSION=300 "-DMERKLIZE_KERNEL_SOURCE_DIR=\"$PWD/include/merklize/kernels\"" \
  bench/update_bench.cpp -o /tmp/update_bench_base "${libs[@]}" > "$OUT/base.log" 2>&1) &
cmake --build build-ab -j 12 --target update_bench kary_update_bench merklize_cuda_external_memory \
  merklize_c_device_tree merklize_c_device_tree_kary merklize_c_device_tree_append \
  merklize_c_device_tree_cl merklize_c_device_tree_batch merklize_c_device_tree_snapshot \
  > "$OUT/build.log" 2>&1 || grep -m5 -A5 error "$OUT/build.log"
wait
for t in external_memory resident_tree resident_kary resident_host_update; do
  echo "== test_$t on the GPU: $(timeout 240 "/tmp/t_$t" 2>&1 | tail -2 | tr '\n' ' ')" | tee -a "$log"
done
for n in 0 1 10 25; do
  echo "== cuda semaphores $n: $(timeout 60 build-ab/tests/merklize_cuda_external_memory --semaphores $n 2>&1 | tail -4 | tr '\n' ' ')" | tee -a "$log"
done
(cd build-ab && timeout 200 ctest -R 'c_api_device_tree|cuda_external' 2>&1 | grep -E "tests passed|Failed|Skipped|Passed" ) | tee -a "$log"
for round in 1 2; do
  for mode in batch ordinary; do
    m=$([ $mode = batch ] && echo batch || echo "")
    echo "== A (base) update_bench $mode 25 blake3 6 1" | tee -a "$log"
    timeout 100 /tmp/update_bench_base $m 25 blake3 6 1 2>&1 | grep -E '^\| [0-9]|split' | tee -a "$log"
    echo "== B update_bench $mode 25 blake3 6 1" | tee -a "$log"
    timeout 100 build-ab/bench/update_bench $m 25 blake3 6 1 2>&1 | grep -E '^\| [0-9]|split|peak' | tee -a "$log"
  done
done
for args in "16 6 sha256 5 1" "4 12 sha256 5 1" "16 6 blake3 5 1" "16 6 blake3 5 30"; do
  for share in "" 1000; do # the device row's share, and every level listed (the old path)
    echo "== kary_update_bench $args $share" | tee -a "$log"
    timeout 100 build-ab/bench/kary_update_bench $args $share 2>&1 | tail -14 | tee -a "$log"
  done
done
