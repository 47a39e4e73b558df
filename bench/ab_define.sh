#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0 OR MIT
# A kernel experiment on the GPU machine, timed beside its baseline in one run: builds the
# project as it is (A) and a copy whose kernel FILE starts with `#define NAME` (B), checks B on
# the GPU tests, then times both in turn, twice: the tree kernels at 2^20 and 2^25, and full
# BLAKE3 of 1 GiB (kernel, and a file through hash_file); with `sha256`, SHA-256 trees and the
# layer primitive at 2^25 leaves instead (sha256_bench, which checks every result with OpenSSL).
#   bash bench/ab_define.sh NAME kernels/FILE.cl [blake3|sha256]   (logs in $OUT, default /tmp/out)
set -uo pipefail
name=$1 file=$2 work=${3:-blake3}
export MERKLIZE_OCL=${MERKLIZE_OCL:-nvidia}
source .device-debs/env.sh > /dev/null
OUT=${OUT:-/tmp/out}
mkdir -p "$OUT"
targets=(merklize_bench hash_bench merklize_gpu_test merklize_gpu_hash_test)
[ "$work" = sha256 ] && targets=(sha256_bench merklize_gpu_test)
build() { # SOURCE_DIR
  cmake -S "$1" -B "$1/build" -DCMAKE_BUILD_TYPE=Release -DMERKLIZE_AOT=OFF > "$OUT/build.log" 2>&1 &&
    cmake --build "$1/build" -j "$(nproc)" --target "${targets[@]}" >> "$OUT/build.log" 2>&1 ||
    { grep -B2 -A8 error "$OUT/build.log" | head -40; exit 1; }
}
b=/tmp/ab-b
rm -rf "$b" && mkdir -p "$b"
tar --exclude=./build --exclude=./.git -cf - . | tar -xf - -C "$b" # the tree as carried
sed -i "1i #define $name" "$b/$file"
build . && build "$b"
for t in "${targets[@]}"; do
  [ -x "$b/build/tests/$t" ] && echo "B $t: $("$b/build/tests/$t" 2>&1 | tail -1)"
done
for round in 1 2; do
  for side in A B; do
    dir=.; [ $side = B ] && dir=$b
    if [ "$work" = sha256 ]; then
      "$dir/build/bench/sha256_bench" --log2_min=25 --log2_max=25 --benchmark_min_time=0.5 \
        --benchmark_filter='^(tree|layer|rfc6962_tree)/' 2>&1 |
        grep -E '^(tree|layer|rfc6962_tree)/|FAIL|differ' | awk -v s="$side$round" '{print s, $1, $2, $3}'
      continue
    fi
    "$dir/build/bench/merklize_bench" --min_log2=20 --max_log2=25 \
      --benchmark_filter='^kernels/(20|25)/' --benchmark_min_time=0.5 2>&1 |
      grep -E '^kernels/' | awk -v s="$side$round" '{print s, $1, $2, $3}'
    "$dir/build/bench/hash_bench" --sizes=1G --strategies=automatic \
      --benchmark_filter='^kernel/' --benchmark_min_time=0.5 2>&1 |
      grep -E '^kernel/' | awk -v s="$side$round" '{print s, $1, $2, $3}'
  done
done
