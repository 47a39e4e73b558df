#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0 OR MIT
# Issue 31 at arity k on the GPU machine, one call (docs/BENCHMARKS.md, session 14):
#   tests: the resident tests (k-ary: elected batches, proofs, the rest; binary) compiled alone
#          and run on the GPU;
#   proofs: update_proved's gather, the base's (build-base: `git archive BASE include bench`,
#          kary_update_bench of this tree) and this tree's in turn, batches planned on the host;
#   elect: kary_update_bench with batches planned on the host (ELECT 0) and elected on the
#          device (ELECT 1), in turn, at 0.1, 0.3, 1 and 3% of 2^24 leaves.
# Usage, from the project root there, .device-debs carried:  bash bench/kary_elect.sh
set -uo pipefail
export MERKLIZE_OCL=nvidia
source .device-debs/env.sh > /dev/null
OUT=${OUT:-/tmp/out}
mkdir -p "$OUT"
log=$OUT/kary_elect.log
flags=(-std=c++17 -O2 -Iinclude -Itests -DCL_HPP_MINIMUM_OPENCL_VERSION=200
  -DCL_HPP_TARGET_OPENCL_VERSION=300 "-DMERKLIZE_SOURCE_DIR=\"$PWD\""
  "-DMERKLIZE_KERNEL_SOURCE_DIR=\"$PWD/include/merklize/kernels\""
  "-DMERKLIZE_TEST_VECTOR_DIR=\"$PWD/tests/vectors\"" '-DMERKLIZE_AOT_DIR=""')
libs=(-lOpenCL -lpthread -lssl -lcrypto)
{ nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; nproc; } | tee "$log"
g++ "${flags[@]}" -c tests/test_main.cpp -o /tmp/test_main.o
tests=(resident_kary_elect resident_kary_proved resident_kary resident_kary_more resident_tree)
for t in "${tests[@]}"; do
  g++ "${flags[@]}" /tmp/test_main.o "tests/test_$t.cpp" -o "/tmp/t_$t" "${libs[@]}" \
    > "$OUT/t_$t.log" 2>&1 &
done
bench() { # the bench of tree $1 (. or build-base) into /tmp/kub_$2
  (cd "$1" && g++ -std=c++17 -O2 -Iinclude -Ibench -DCL_HPP_MINIMUM_OPENCL_VERSION=200 \
    -DCL_HPP_TARGET_OPENCL_VERSION=300 "-DMERKLIZE_KERNEL_SOURCE_DIR=\"$PWD/include/merklize/kernels\"" \
    bench/kary_update_bench.cpp -o "/tmp/kub_$2" "${libs[@]}")
}
bench build-base base > "$OUT/base.log" 2>&1 &
bench . this > "$OUT/this.log" 2>&1 &
wait
for t in "${tests[@]}"; do
  echo "== test_$t" | tee -a "$log"
  timeout 300 "/tmp/t_$t" 2>&1 | tail -3 | tee -a "$log"
done
for shape in "8 8 blake3" "16 6 sha256"; do
  for run in 1 2; do
    echo "== proofs: base --proved $shape 5 1 (run $run)" | tee -a "$log"
    timeout 120 /tmp/kub_base --proved $shape 5 1 2>&1 | grep -E '^\| [0-9]' | tee -a "$log"
    echo "== proofs: this --proved $shape 5 1 25 0 (run $run)" | tee -a "$log"
    timeout 120 /tmp/kub_this --proved $shape 5 1 25 0 2>&1 | grep -E '^\| [0-9]' | tee -a "$log"
  done
done
for shape in "16 6 blake3" "8 8 blake3" "4 12 sha256"; do
  for pct in 0.1 0.3 1 3; do
    for elect in 0 1; do
      echo "== elect: $shape 6 $pct 25 $elect" | tee -a "$log"
      timeout 120 /tmp/kub_this $shape 6 $pct 25 $elect 2>&1 | grep -E '^\| [0-9]' | tee -a "$log"
    done
  done
done
