#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0 OR MIT
# Issue 30, item 2, for the several-device layer: the builders over several devices (leaves,
# data blocks, k-ary) of this tree (B) beside those of a base tree (A), in one run on a machine
# with two GPUs (kind nvidia-h100-x2 or nvidia-h200-x2). Builds both trees, runs B's tests of
# them on the GPUs ([multi], [multi-blocks], [spread]), checks that A and B give the same roots,
# then times both in turn:
#   - multi_bench at 2^25 and 2^26 leaves: one GPU alone and both (every internal node kept);
#   - whole processes with hyperfine: `merklize root --devices GPU0,GPU1` of 1 GiB in /dev/shm
#     as leaves, as 4 KiB blocks (--leaf-size 4096) and as an 8-ary tree (--arity 8);
# and prints each row's times side by side, A's and B's, then B / A of the best of each.
#   bash bench/multi_ab.sh [BASE_TREE]     (logs in $OUT, default /tmp/out)
# BASE_TREE is a source tree of the base commit; without it, the script exports $BASE (default
# `git merge-base HEAD main`) with git archive, which needs .git (bench/ab_base.sh).
set -uo pipefail
source bench/ab_base.sh
ab_setup multi_ab /tmp/multi-ab-base "${1:-}"

targets=(multi_bench merklize_cli merklize_tests)
ab_build "$base" "$OUT/multi_build.log" "${targets[@]}" &&
  ab_build . "$OUT/multi_build.log" "${targets[@]}"
gpus=$(./build-ab/tools/merklize devices | awk '/\[.*gpu\]/ {print $1}' | head -2 | paste -sd, -)
echo "GPUs: $gpus" | tee -a "$log"
echo "B [multi] tests: $(MERKLIZE_DEVICE=nvidia timeout 300 ./build-ab/tests/merklize_tests \
  '[multi],[multi-blocks],[spread]' 2>&1 | grep -E 'passed|failed' | tail -1)" | tee -a "$log"

file=/dev/shm/engine_ab_1g
[ -f "$file" ] || head -c $((1 << 30)) /dev/urandom > "$file"
cli() { echo "$1/build-ab/tools/merklize root --devices $gpus ${2:-} $file"; }
for side in A B; do # the same roots from both, or the comparison means nothing
  dir=.; [ $side = A ] && dir=$base
  echo "$side roots: $($(cli "$dir")) $($(cli "$dir" "--leaf-size 4096"))" \
    "$($(cli "$dir" "--arity 8"))" | tee -a "$log"
done

rows=$OUT/multi_rows.txt
: > "$rows"
for round in 1 2; do
  for side in A B; do
    dir=.; [ $side = A ] && dir=$base
    MERKLIZE_DEVICES=$gpus "$dir/build-ab/bench/multi_bench" --min_log2=25 --max_log2=26 \
      --benchmark_min_time=0.5 2>&1 |
      awk -v s=$side -v r="$round" '/^(one|all)\/[0-9]+/ {print s, r, "multi_bench/" $1, $2}' \
        >> "$rows"
  done
done

hyperfine -N -w 2 -r 10 --export-json "$OUT/multi_hyperfine.json" \
  -n "A leaves" "$(cli "$base")" -n "B leaves" "$(cli .)" \
  -n "A blocks" "$(cli "$base" "--leaf-size 4096")" -n "B blocks" "$(cli . "--leaf-size 4096")" \
  -n "A arity 8" "$(cli "$base" "--arity 8")" -n "B arity 8" "$(cli . "--arity 8")" \
  > "$OUT/multi_hyperfine.log" 2>&1
python3 bench/ab_table.py --hyperfine "$OUT/multi_hyperfine.json" process/devices_ >> "$rows"

python3 bench/ab_table.py "$rows" | tee -a "$log"
