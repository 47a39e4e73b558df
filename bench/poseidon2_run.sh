#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0 OR MIT
# Poseidon2's trees and permutations in one run on the GPU machine (docs/BENCHMARKS.md),
# each part logged to $OUT/poseidon2.log as it ends:
#   1. build (Release), then the Poseidon2 tests on the GPU: merklize_poseidon2_tests (every
#      permutation kernel against Plonky3's known answers and the host reference, the compression
#      trees against the host reference at awkward sizes with every one-level kernel, outputs
#      poisoned) and merklize_tests' [hashes] cases (every hash of the table, the Poseidon2 rows
#      among them, against the host reference);
#   2. poseidon2_bench with the defaults: per field (BabyBear, KoalaBear width 16; Goldilocks
#      width 8; BN254 width 3) the permutation kernel's rate (2^20 states of 16 permutations in registers) and,
#      in the same process, its compression tree of 2^20 .. 2^24 leaves (kernels), each checked
#      against the host; the tree's share of the permutation rate (x_perms; 0.90 or more
#      for BabyBear at 2^24: the tree at the permutation's rate);
#   3. the CLI end to end: merklize root --hash poseidon2-babybear over 2^24 canonical leaves
#      (512 MiB, read whole and checked before the build), -v for its phases;
#   4. the summary: poseidon2_bench's "ratio" lines at 2^24, also in $OUT/summary.txt.
# Usage, from the project root on that machine, .device-debs carried:
#   bash bench/poseidon2_run.sh
set -uo pipefail
export MERKLIZE_OCL=${MERKLIZE_OCL:-all}
if [ -f .device-debs/env.sh ]; then source .device-debs/env.sh > /dev/null; fi
OUT=${OUT:-/tmp/out}
mkdir -p "$OUT"
log=$OUT/poseidon2.log
say() { echo "== $*" | tee -a "$log"; }
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv 2>&1 | tee "$log"
start=$(date +%s)
cmake -S . -B build -DCMAKE_BUILD_TYPE=Release -DMERKLIZE_AOT=OFF > "$OUT/build.log" 2>&1 &&
  cmake --build build -j "$(nproc)" --target poseidon2_bench merklize_poseidon2_tests \
    merklize_tests merklize_cli >> "$OUT/build.log" 2>&1 ||
  { grep -B2 -A10 -m5 error "$OUT/build.log"; exit 1; }
echo "built in $(( $(date +%s) - start )) s" | tee -a "$log"
export MERKLIZE_DEVICE=${MERKLIZE_DEVICE:-nvidia}

say "1. GPU tests"
echo "merklize_poseidon2_tests: $(timeout 400 build/tests/merklize_poseidon2_tests 2>&1 | tail -1)" |
  tee -a "$log"
echo "merklize_tests [hashes]: $(timeout 400 build/tests/merklize_tests '[hashes]' 2>&1 | tail -1)" |
  tee -a "$log"

say "2. permutation rates and compression trees, defaults (the tuning row's options)"
timeout 500 build/bench/poseidon2_bench --benchmark_min_time=0.5 2>&1 |
  grep -E '^(permutations_|poseidon2_)|^ratio|ERROR|differ' | tee -a "$log"

say "3. merklize root --hash poseidon2-babybear, 2^24 leaves"
# Random canonical BabyBear limbs: each u32's top byte masked with 0x77, so below 0x78000000 < p.
python3 -c '
import os, sys
data = bytearray(os.urandom(32 << 24))
data[3::4] = data[3::4].translate(bytes(i & 0x77 for i in range(256)))
open(sys.argv[1], "wb").write(data)' "$OUT/leaves.bin"
for i in 1 2; do
  /usr/bin/time -f "wall %e s, max RSS %M KiB" build/tools/merklize root -v \
    --hash poseidon2-babybear "$OUT/leaves.bin" 2>&1 | tee -a "$log"
done
rm -f "$OUT/leaves.bin"

say "summary: the Poseidon2 trees of 2^24 leaves against the permutation kernel of the same run"
echo "aim: the poseidon2-babybear tree at >= 0.90 of the permutation rate" |
  tee -a "$log"
grep -E "ratio poseidon2-[a-z0-9]+ 2\^24" "$log" > "$OUT/summary.txt"
grep -E "^permutations_" "$log" >> "$OUT/summary.txt"
tee -a "$log" < "$OUT/summary.txt"
