#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0 OR MIT
# The Keccak-256 and SHA3-256 trees in one run on the GPU machine (docs/BENCHMARKS.md), in
# order of importance, each part logged to $OUT/keccak.log as it ends:
#   1. build (Release), then the GPU tests of the Keccak trees: merklize_gpu_test (every tree of
#      every hash, keccak256 and sha3-256 among them, with the defaults, merkle_level x1/x2/x4,
#      merkle_levels x2/x3, work-groups of 256 and 2^20 leaves streamed, bit-exact with the host
#      reference) and merklize_tests' [keccak] cases on the GPU (block leaves against the host,
#      OpenSSL's SHA3-256 and the published vectors, outputs poisoned; the permutation-only
#      kernel against the host permutation; merkle_level against the host node hash);
#   2. keccak_bench with the defaults: the permutation-only kernel's rate (2^20 work-items of 32
#      permutations in registers, no memory traffic) and, in the same process, the keccak256 and
#      sha3-256 trees of 2^20 .. 2^25 leaves (kernels), each root checked against the host; the
#      tree's share of the permutation rate (x_perms; 0.90 or more at 2^25: the tree at the
#      permutation's rate);
#   3. kernel variants of keccak.cl (build options through MERKLIZE_KERNEL_OPTIONS, which reach
#      every program, the permutation kernel's too), each first through the [keccak] tests, then
#      keccak_bench at 2^25, sets alternating, ROUNDS rounds (default 2): VARIANTS below (the
#      first is the NVIDIA row's choice: rotate(), the 24 rounds written out), or the sets given
#      as arguments ("" is keccak.cl's defaults: a loop of one round);
#   4. merklize_bench --hash=keccak256 and sha3-256 (kernels at 2^20 and 2^25, as for the other
#      hashes, with OpenSSL's SHA3-256 on every core beside sha3-256), the one-level kernel
#      variants (--variants: merkle_level x1/x2/x4, merkle_levels x2/x3, merkle_subtree) at 2^25,
#      and the SHA-256 tree at 2^25 for scale (sha256_bench, checked against OpenSSL);
#   5. the SASS of each variant's merkle_level program and of the permutation kernel (bench/sass.sh:
#      instructions by opcode, the ALU pipe's share), and NVIDIA's register report;
#   6. the summary: keccak_bench's "ratio" lines at 2^25 (kernel time, hashes/s, the share of the
#      permutation rate of the same process), defaults first, then each variant's, also in
#      $OUT/summary.txt.
# Usage, from the project root on that machine, .device-debs carried:
#   bash bench/keccak_run.sh                      the default variants
#   bash bench/keccak_run.sh "-DMERKLIZE_KECCAK_UNROLL=24" "-DMERKLIZE_KECCAK_NV_SHF"   your sets
set -uo pipefail
export MERKLIZE_OCL=${MERKLIZE_OCL:-all}
if [ -f .device-debs/env.sh ]; then source .device-debs/env.sh > /dev/null; fi
export PATH=$PATH:/usr/local/cuda/bin
OUT=${OUT:-/tmp/out}
mkdir -p "$OUT"
log=$OUT/keccak.log
say() { echo "== $*" | tee -a "$log"; }
VARIANTS=("-DMERKLIZE_KECCAK_UNROLL=24"
          "-DMERKLIZE_KECCAK_UNROLL=24 -DMERKLIZE_KECCAK_NV_SHF"
          "-DMERKLIZE_KECCAK_UNROLL=24 -DMERKLIZE_KECCAK_SHIFTS"
          "-DMERKLIZE_KECCAK_UNROLL=8 -DMERKLIZE_KECCAK_NV_SHF"
          "-DMERKLIZE_KECCAK_UNROLL=4 -DMERKLIZE_KECCAK_NV_SHF"
          "")
[ $# -gt 0 ] && VARIANTS=("$@")
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv 2>&1 | tee "$log"
start=$(date +%s)
cmake -S . -B build -DCMAKE_BUILD_TYPE=Release -DMERKLIZE_AOT=OFF > "$OUT/build.log" 2>&1 &&
  cmake --build build -j "$(nproc)" --target keccak_bench merklize_bench sha256_bench \
    merklize_gpu_test merklize_tests >> "$OUT/build.log" 2>&1 ||
  { grep -B2 -A10 -m5 error "$OUT/build.log"; exit 1; }
echo "built in $(( $(date +%s) - start )) s" | tee -a "$log"
export MERKLIZE_DEVICE=nvidia

say "1. GPU tests"
echo "merklize_gpu_test: $(timeout 400 build/tests/merklize_gpu_test 2>&1 | tail -1)" | tee -a "$log"
keccak_tests() { # the [keccak] cases of merklize_tests on the GPU; the last line, failures first
  timeout 300 build/tests/merklize_tests "[keccak]" > "$OUT/tests.log" 2>&1
  grep -B3 -A12 -m3 FAILED "$OUT/tests.log" | head -40
  tail -2 "$OUT/tests.log" | head -1
}
keccak_tests | tee -a "$log"

rows() { # LOG2_MIN: keccak_bench's rows, short
  timeout 300 build/bench/keccak_bench --log2_min="$1" --log2_max=25 --benchmark_min_time=0.5 \
    2>&1 | grep -E '^(permutations|keccak256|sha3_256)/|^ratio|ERROR|differ'
}
say "2. permutation rate and trees, defaults (the tuning row's options)"
rows 20 | tee -a "$log"

say "3. keccak.cl variants, 2^25"
for i in "${!VARIANTS[@]}"; do
  echo "set $i: '${VARIANTS[$i]}': $(MERKLIZE_KERNEL_OPTIONS=${VARIANTS[$i]} keccak_tests)" |
    tee -a "$log"
done
for round in $(seq 1 "${ROUNDS:-2}"); do
  for i in "${!VARIANTS[@]}"; do
    MERKLIZE_KERNEL_OPTIONS=${VARIANTS[$i]} rows 25 | awk -v s="set$i.$round" '{print s, $0}' |
      tee -a "$log"
  done
done

say "4. merklize_bench rows, kernel variants, the SHA-256 tree for scale"
for h in keccak256 sha3-256; do
  timeout 300 build/bench/merklize_bench --hash=$h --min_log2=20 --max_log2=25 \
    --benchmark_filter='^(kernels|cpu_.*)/(20|25)/' --benchmark_min_time=0.5 2>&1 |
    grep -E '^(kernels|cpu_)' | tee -a "$log"
  timeout 300 build/bench/merklize_bench --hash=$h --variants=25 2>&1 | tail -12 | tee -a "$log"
done
timeout 120 build/bench/sha256_bench --log2_min=25 --log2_max=25 --benchmark_min_time=0.5 \
  --benchmark_filter='^tree/' 2>&1 | grep -E '^tree/|FAIL|differ' | tee -a "$log"

say "5. SASS and registers"
root=$PWD
(cd "$OUT" && for i in "${!VARIANTS[@]}"; do
  echo "-- set $i: '${VARIANTS[$i]}'"
  MERKLIZE_KERNEL_OPTIONS=${VARIANTS[$i]} "$root/build/bench/merklize_bench" --hash=keccak256 \
    --build_log=-cl-nv-verbose 2>&1 | grep -iE "registers|spill|stack" | sort | uniq -c
  [ -f merkle_level.bin ] && bash "$root/bench/sass.sh" merkle_level.bin
  MERKLIZE_KERNEL_OPTIONS=${VARIANTS[$i]} "$root/build/bench/keccak_bench" \
    --build_log=-cl-nv-verbose 2>&1 | grep -iE "registers|spill|stack" | sort | uniq -c
  [ -f keccak.bin ] && bash "$root/bench/sass.sh" keccak.bin
  rm -f ./*.bin
done) 2>&1 | tee -a "$log"

say "summary: the Keccak trees of 2^25 leaves against the permutation-only kernel of the same run"
echo "aim: the keccak256 tree at >= 0.90 of the permutation rate" | tee -a "$log"
# Part 2's rows (the tuning row's options), then part 3's (set S, round R: "setS.R ratio ...").
grep -E "ratio (keccak256|sha3-256) 2\^25" "$log" > "$OUT/summary.txt"
tee -a "$log" < "$OUT/summary.txt"
