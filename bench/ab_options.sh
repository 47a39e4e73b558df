#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0 OR MIT
# Kernel build options compared in one build and one run on the GPU machine: each argument is a
# set of options that replaces the device's tuning-row kernel_options (MERKLIZE_KERNEL_OPTIONS,
# tuning.hpp); "" is none. For each set, in turn and ROUNDS times (default 2): the BLAKE3 tree
# kernels at 2^20 and 2^25 leaves, full BLAKE3 of 1 GiB, and the SHA-256 tree, rfc6962 tree and
# layer at 2^25 (sha256_bench checks every result against OpenSSL). Before timing, each set's
# programs go through the GPU tests (bit-exact against the host reference; TESTS="2 4" limits
# them to those sets, TESTS=none skips them), and their PTX comes back in $OUT/ptx.tar for
# bench/sass.sh (ptx/<set number>/<hash>-<program>.bin). SKIP_BUILD=1 keeps an existing build;
# SHA256=0 leaves the SHA-256 rows out.
#   bash bench/ab_options.sh "" "-DMERKLIZE_PIPE_ADDS" ...      (logs in $OUT, default /tmp/out)
set -uo pipefail
export MERKLIZE_OCL=${MERKLIZE_OCL:-nvidia}
source .device-debs/env.sh > /dev/null
OUT=${OUT:-/tmp/out}
mkdir -p "$OUT"
targets=(merklize_bench hash_bench sha256_bench merklize_gpu_test merklize_gpu_hash_test)
if [ ! -x build/bench/merklize_bench ] || [ -z "${SKIP_BUILD:-}" ]; then
  cmake -S . -B build -DCMAKE_BUILD_TYPE=Release -DMERKLIZE_AOT=OFF > "$OUT/build.log" 2>&1 &&
    cmake --build build -j "$(nproc)" --target "${targets[@]}" >> "$OUT/build.log" 2>&1 ||
    { grep -B2 -A8 error "$OUT/build.log" | head -40; exit 1; }
fi
root=$PWD
for i in $(seq 1 $#); do
  export MERKLIZE_KERNEL_OPTIONS=${!i}
  mkdir -p "$OUT/ptx/$i"
  (cd "$OUT/ptx/$i" && for h in blake3 sha256; do
    "$root/build/bench/merklize_bench" --hash=$h --build_log=-cl-nv-verbose > build-$h.log 2>&1
    for p in merkle merkle_level merkle_levels; do mv $p.bin $h-$p.bin 2> /dev/null; done
  done
  "$root/build/bench/hash_bench" --strategies=automatic --build_log=-cl-nv-verbose > build-hash.log 2>&1)
  echo "set $i: '${!i}'"
  if [ -z "${TESTS:-}" ] || [[ " $TESTS " == *" $i "* ]]; then
    for t in merklize_gpu_test merklize_gpu_hash_test; do
      echo "  $t: $(timeout 300 build/tests/$t 2>&1 | tail -1)"
    done
  fi
done
(cd "$OUT" && tar -cf ptx.tar ptx && rm -rf ptx)
for round in $(seq 1 "${ROUNDS:-2}"); do
  for i in $(seq 1 $#); do
    export MERKLIZE_KERNEL_OPTIONS=${!i}
    tag="set$i.$round"
    build/bench/merklize_bench --min_log2=20 --max_log2=25 \
      --benchmark_filter='^kernels/(20|25)/' --benchmark_min_time=0.5 2>&1 |
      grep -E '^kernels/' | awk -v s="$tag" '{print s, $1, $2, $3}'
    build/bench/hash_bench --sizes=1G --strategies=automatic \
      --benchmark_filter='^kernel/' --benchmark_min_time=0.5 2>&1 |
      grep -E '^kernel/' | awk -v s="$tag" '{print s, $1, $2, $3}'
    [ "${SHA256:-1}" = 0 ] && continue
    build/bench/sha256_bench --log2_min=25 --log2_max=25 --benchmark_min_time=0.5 \
      --benchmark_filter='^(tree|layer|rfc6962_tree)/' 2>&1 |
      grep -E '^(tree|layer|rfc6962_tree)/|FAIL|differ' | awk -v s="$tag" '{print s, $1, $2, $3}'
  done
done
