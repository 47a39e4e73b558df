#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0 OR MIT
# Issue 30, "one prover run every specification" (core/path_plan.hpp), on the GPU machine: the
# commit it starts from (A) beside this tree (B). Builds both, runs B's device tests of the
# provers that now read the plan (k-ary trees on one and several devices, binary and Bitcoin
# proofs), checks that A and B print the same proofs byte for byte on the GPU for each prover,
# then times the proof commands of both with hyperfine (the planning is host arithmetic of a few
# levels: the times should not move beyond the noise).
#   bash bench/prover_ab.sh [BASE_TREE]     (logs in $OUT, default /tmp/out)
# BASE_TREE as for engine_ab.sh (bench/ab_base.sh).
set -uo pipefail
source bench/ab_base.sh
ab_setup prover_ab /tmp/prover-ab-base "${1:-}"

ab_build "$base" "$OUT/prover_build.log" merklize_cli &&
  ab_build . "$OUT/prover_build.log" merklize_cli merklize_tests
gpus=$(./build-ab/tools/merklize devices | awk '/\[.*gpu\]/ {print $1}' | head -2 | paste -sd, -)
echo "GPUs: $gpus" | tee -a "$log"
for tags in "[kary]" "[kary][multi]" "[proof]" "[commitments][bitcoin]"; do
  echo "B merklize_tests $tags: $(MERKLIZE_DEVICE=nvidia timeout 600 build-ab/tests/merklize_tests "$tags" 2>&1 |
    grep -E "passed|failed|skipp" | tail -1)" | tee -a "$log"
done

file=/dev/shm/prover_ab_512m # 2^24 leaves
[ -f "$file" ] || head -c $((1 << 29)) /dev/urandom > "$file"
txids=/dev/shm/prover_ab_txids # 3001 txids: odd levels all the way up
[ -f "$txids" ] || head -c $((3001 * 32)) /dev/urandom > "$txids"
commands=(
  "proof -i 16777213 $file"
  "proof --hash sha256 --pad zero -i 12345678 $file"
  "proof --hash sha256 --pad zero --depth 26 -i 16777215 $file"
  "proof --arity 16 -i 16777215 $file"
  "proof --arity 4 --pad zero -i 9999999 $file"
  "proof --format bitcoin -i 3000 $txids"
)
same=yes
for c in "${commands[@]}"; do
  # shellcheck disable=SC2086 # the command's words
  a=$("$base/build-ab/tools/merklize" $c 2>&1) b=$(build-ab/tools/merklize $c 2>&1)
  [ "$a" = "$b" ] || { same=no; echo "DIFFERENT: merklize $c" | tee -a "$log"; }
  echo "B merklize $c: ${b:0:100}" >> "$log" # a proof, not an error
done
echo "A and B print the same proofs: $same" | tee -a "$log"

args=()
for c in "${commands[@]:0:5}"; do # kary_multi_tree's proofs: the [kary][multi] tests above
  args+=(-n "A $c" "$base/build-ab/tools/merklize $c" -n "B $c" "build-ab/tools/merklize $c")
done
hyperfine -N -w 2 -r 10 --export-json "$OUT/prover_ab.json" "${args[@]}" > "$OUT/hyperfine.log" 2>&1
rows=$OUT/rows.txt
python3 bench/ab_table.py --hyperfine "$OUT/prover_ab.json" process/ > "$rows"
python3 bench/ab_table.py "$rows" | tee -a "$log" # one line per row, times in milliseconds
