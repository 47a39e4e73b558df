#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0 OR MIT
# Plonky3's matrix commitments (MMCS) on the GPU machine, in one run, logged to $OUT/mmcs.log:
#   1. the MMCS tests on the GPU (merklize_poseidon2_tests "[mmcs]": every layer against the host
#      reference, host matrices in pieces and device buffers, the refusals) and the CLI's (ctest
#      mmcs_cli);
#   2. mmcs_bench: one 2^20 x 256 BabyBear matrix (1 GiB) committed from pageable, page-locked
#      and device memory, beside poseidon2_bench's permutation-only rate (the limit);
#   3. whole processes (hyperfine, 1 GiB of zero elements in /dev/shm, every one canonical and
#      as costly to hash as any other): `merklize commit --hash poseidon2-babybear --width 256`
#      and `merklize root --hash poseidon2-babybear` (2^25 leaves of 32 bytes), with the peak
#      resident memory of one run of each (getrusage of the child).
# Usage, from the project root:  bash bench/mmcs_run.sh
set -uo pipefail
[ -f .device-debs/env.sh ] && source .device-debs/env.sh > /dev/null
OUT=${OUT:-/tmp/out}
mkdir -p "$OUT"
log=$OUT/mmcs.log
say() { echo "== $*" | tee -a "$log"; }
nvidia-smi --query-gpu=name,driver_version --format=csv 2>/dev/null | tee "$log"
cmake -S . -B build-ab -DCMAKE_BUILD_TYPE=Release -DMERKLIZE_AOT=OFF > "$OUT/build.log" 2>&1 &&
  cmake --build build-ab -j16 --target merklize_cli merklize_poseidon2_tests mmcs_bench poseidon2_bench \
    >> "$OUT/build.log" 2>&1 || { grep -B2 -A10 -m5 error "$OUT/build.log"; exit 1; }
export MERKLIZE_DEVICE=${MERKLIZE_DEVICE:-nvidia}
m=build-ab/tools/merklize
say "1. tests"
build-ab/tests/merklize_poseidon2_tests "[mmcs]" 2>&1 | tail -3 | tee -a "$log"
(cd build-ab && ctest -R mmcs_cli 2>&1 | tail -3) | tee -a "$log"
say "2. mmcs_bench and the permutation limit"
for from in pageable pinned device; do
  MMCS_FROM=$from stdbuf -oL build-ab/bench/mmcs_bench 20 256 babybear 5 2>&1 | tee -a "$log"
done
stdbuf -oL build-ab/bench/poseidon2_bench --benchmark_filter='permutations_babybear' 2>&1 |
  grep perms | tee -a "$log"
say "3. whole processes"
head -c 1073741824 /dev/zero > /dev/shm/matrix.bin
hyperfine -N -w 2 -r 10 \
  "$m commit --hash poseidon2-babybear --width 256 /dev/shm/matrix.bin" \
  "$m root --hash poseidon2-babybear /dev/shm/matrix.bin" 2>&1 | tee -a "$log"
for cmd in "commit --hash poseidon2-babybear --width 256" "root --hash poseidon2-babybear"; do
  python3 -c 'import resource, subprocess, sys
subprocess.run(sys.argv[2:], stdout=subprocess.DEVNULL, check=True)
print(sys.argv[1] + ": peak resident", resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss, "KiB")' \
    "$cmd" $m $cmd /dev/shm/matrix.bin 2>&1 | tee -a "$log"
done
rm -f /dev/shm/matrix.bin
