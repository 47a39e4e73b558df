#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0 OR MIT
# Issue 31 on the GPU machine, one call (docs/BENCHMARKS.md, session 14): the base (build-base2:
# `git archive BASE include bench`, this tree's update_bench.cpp and update_helpers.hpp copied in)
# and this tree in turn:
#   update_proved of both trees (update_bench proved 25 blake3 5 1; kary_update_bench --proved
#   8 8 blake3 5 1 25 with the batches planned (ELECT 0) and as the tuning row says);
#   appends of 2^16 leaves to a log of 2^LOG_LOG2 leaves, in parts of 2^PART_LOG2 (log_bench
#   LOG_LOG2 rfc6962 6 65536 PART_LOG2; an H100 refuses the 32 GiB buffers of one 2^30 tree:
#   PART_LOG2=29 there), twice;
# then the resident and multiproof tests compiled alone and run on the GPU.
# Usage, from the project root there, .device-debs carried:
#   LOG_LOG2=30 PART_LOG2=29 bash bench/proofs_appends_ab.sh
set -uo pipefail
export MERKLIZE_OCL=nvidia
source .device-debs/env.sh > /dev/null
OUT=${OUT:-/tmp/out}
mkdir -p "$OUT"
log=$OUT/proofs_appends.log
flags=(-std=c++17 -O2 -Iinclude -Itests -Ibench -DCL_HPP_MINIMUM_OPENCL_VERSION=200
  -DCL_HPP_TARGET_OPENCL_VERSION=300 "-DMERKLIZE_SOURCE_DIR=\"$PWD\""
  "-DMERKLIZE_KERNEL_SOURCE_DIR=\"$PWD/include/merklize/kernels\""
  "-DMERKLIZE_TEST_VECTOR_DIR=\"$PWD/tests/vectors\"" '-DMERKLIZE_AOT_DIR=""')
libs=(-lOpenCL -lpthread -lssl -lcrypto)
{ nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader; nproc; } | tee "$log"
for tree in build-base2 .; do
  name=$([ "$tree" = . ] && echo this || echo base)
  for b in update_bench kary_update_bench log_bench; do
    (cd "$tree" && g++ "${flags[@]}" "bench/$b.cpp" -o "/tmp/${b}_$name" "${libs[@]}") \
      > "$OUT/${b}_$name.log" 2>&1 &
  done
done
g++ "${flags[@]}" -c tests/test_main.cpp -o /tmp/test_main.o
tests=(resident_tree resident_kary_proved resident_kary_elect multiproof_visitors)
for t in "${tests[@]}"; do
  g++ "${flags[@]}" /tmp/test_main.o "tests/test_$t.cpp" -o "/tmp/t_$t" "${libs[@]}" \
    > "$OUT/t_$t.log" 2>&1 &
done
wait
for name in base this; do
  echo "== $name: update_bench proved 25 blake3 5 1" | tee -a "$log"
  timeout 120 "/tmp/update_bench_$name" proved 25 blake3 5 1 2>&1 | grep -E '^\| [0-9]|agree' |
    tee -a "$log"
  for elect in 0 ""; do
    echo "== $name: kary_update_bench --proved 8 8 blake3 5 1 25 $elect" | tee -a "$log"
    timeout 120 "/tmp/kary_update_bench_$name" --proved 8 8 blake3 5 1 25 $elect 2>&1 |
      grep -E '^\| [0-9]' | tee -a "$log"
  done
done
logs=${LOG_LOG2:-30}
for run in 1 2; do
  for name in base this; do
    echo "== $name: log_bench $logs rfc6962 6 65536 ${PART_LOG2:-$logs} (run $run)" | tee -a "$log"
    timeout 200 "/tmp/log_bench_$name" "$logs" rfc6962 6 65536 "${PART_LOG2:-$logs}" 2>&1 |
      grep -E '^\| [0-9]|agree|root|MAX|full' | tee -a "$log"
  done
done
for t in "${tests[@]}"; do
  echo "== test_$t" | tee -a "$log"
  timeout 300 "/tmp/t_$t" 2>&1 | tail -2 | tee -a "$log"
done
