#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0 OR MIT
# Tree builds of this tree (B) beside a base commit (A), in one run on the GPU machine: for a
# change that must not slow the kernels or the CLI. Builds both trees, checks B on the GPU tests,
# then times both in turn, ROUNDS times (default 2):
#   - the tree kernels (merklize_bench kernels/ rows) with BLAKE3 and SHA-256 nodes at 2^20 and
#     2^25 leaves;
#   - leaves from data blocks and their tree (merklize_block_bench, 1 GiB of 4 KiB blocks: the
#     SHA-256 layer, the leaves, with a salt, and leaves plus their tree);
#   - whole processes with hyperfine: `merklize root` of 1 GiB in /dev/shm (BLAKE3 and SHA-256
#     nodes), the same as an 8-ary tree (--arity 8) and as fs-verity (--format fs-verity);
# and prints each row's times side by side: A's and B's, then B / A of the best of each.
#   bash bench/ab_builds.sh [BASE_TREE]     (logs in $OUT, default /tmp/out)
# BASE_TREE is a source tree of the base commit. Without it, the script exports the commit
# $BASE (default: where this branch left main, `git merge-base HEAD main`) with git, which
# needs .git: where the tree was carried without it, export the base first, e.g.
#   git archive "$(git merge-base HEAD main)" | (mkdir -p .ab-base && tar -x -C .ab-base)
# and pass .ab-base (carry it). Only the GPU machine's numbers count.
set -uo pipefail
ROUNDS=${ROUNDS:-2}
source bench/ab_base.sh
ab_setup ab_builds /tmp/ab-builds-base "${1:-}"

targets=(merklize_bench merklize_block_bench merklize_cli merklize_gpu_test merklize_gpu_hash_test)
ab_build "$base" "$OUT/build.log" "${targets[@]}" && ab_build . "$OUT/build.log" "${targets[@]}"
for t in merklize_gpu_test merklize_gpu_hash_test; do
  echo "B $t: $(timeout 300 build-ab/tests/$t 2>&1 | grep -E "passed|failed|skipp" | tail -1)" | tee -a "$log"
done

file=/dev/shm/engine_ab_1g
[ -f "$file" ] || head -c $((1 << 30)) /dev/urandom > "$file"
for side in A B; do # the same roots from both, or the comparison means nothing
  dir=.; [ $side = A ] && dir=$base
  echo "$side roots: $("$dir/build-ab/tools/merklize" root "$file")" \
    "$("$dir/build-ab/tools/merklize" root --hash sha256 "$file")" \
    "$("$dir/build-ab/tools/merklize" root --arity 8 "$file")" | tee -a "$log"
done

rows=$OUT/rows.txt
: > "$rows"
for round in $(seq "$ROUNDS"); do
  for side in A B; do
    dir=.; [ $side = A ] && dir=$base
    for hash in blake3 sha256; do
      "$dir/build-ab/bench/merklize_bench" --hash=$hash --min_log2=20 --max_log2=25 \
        --benchmark_filter='^kernels/(20|25)/' --benchmark_min_time=0.5 2>&1 |
        awk -v s=$side -v r="$round" -v h=$hash '/^kernels\// {print s, r, h "/" $1, $2}' >> "$rows"
    done
    "$dir/build-ab/bench/merklize_block_bench" 2>&1 | # "NAME   12.345 ms ..." (NAME has spaces)
      sed -nE 's/^(.*[^ ]) +([0-9.]+) ms .*/\1|\2/p' | tr ' ' _ |
      awk -F'|' -v s=$side -v r="$round" '{print s, r, "block/" $1, $2}' >> "$rows"
  done
done

cli() { echo "$1/build-ab/tools/merklize root ${2:-} $file"; }
hyperfine -N -w 2 -r 10 --export-json "$OUT/hyperfine.json" \
  -n "A root" "$(cli "$base")" -n "B root" "$(cli .)" \
  -n "A root sha256" "$(cli "$base" "--hash sha256")" -n "B root sha256" "$(cli . "--hash sha256")" \
  -n "A root arity 8" "$(cli "$base" "--arity 8")" -n "B root arity 8" "$(cli . "--arity 8")" \
  -n "A fs-verity" "$(cli "$base" "--format fs-verity")" \
  -n "B fs-verity" "$(cli . "--format fs-verity")" > "$OUT/hyperfine.log" 2>&1
python3 bench/ab_table.py --hyperfine "$OUT/hyperfine.json" process/ >> "$rows"

# One line per row, every time in milliseconds (bench/ab_table.py).
python3 bench/ab_table.py "$rows" | tee -a "$log"
