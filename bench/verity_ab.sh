#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0 OR MIT
# Issue 30: dm-verity's and fs-verity's trees as a preset of the tree engine (a device_tree of the
# hash blocks' group rule, laid out as stored by device-side copies: block_tree.hpp) beside the
# commit it starts from (detail::verity_levels hashing in the stored layout), in one run on the
# GPU machine. Builds both trees (A: the base, B: this tree), runs B's device tests of block
# trees, formats, verity trees and k-ary trees on the GPU, checks that A and B print the same
# roots and write the same hash devices, Merkle tree files and Bao outboards, records each
# command's peak memory (/usr/bin/time -v, maximum resident set size), then times whole
# processes with hyperfine over 1 GiB in /dev/shm:
#   --format dm-verity (--no-superblock, no salt; and a 32-byte salt) with and without
#   --hash-output, --format fs-verity (4 KiB and 64 KiB blocks: arity 128 and 2048) with and
#   without --tree-output, and --format bao-outboard --outboard (unchanged: a control);
# and prints each row's times side by side with B / A (bench/ab_table.py).
#   bash bench/verity_ab.sh [BASE_TREE]     (logs in $OUT, default /tmp/out)
set -uo pipefail
source bench/ab_base.sh
ab_setup verity_ab /tmp/verity-ab-base "${1:-}"

ab_build "$base" "$OUT/build.log" merklize_cli &&
  ab_build . "$OUT/build.log" merklize_cli merklize_tests merklize_gpu_test
ab_gpu_tests '[block-leaves],[formats],[verity],[kary]'

file=/dev/shm/verity_ab_1g
[ -f "$file" ] || head -c $((1 << 30)) /dev/urandom > "$file"
salt=000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f
out() { echo "/dev/shm/verity_ab_$1_$2"; } # side, run: the file a run writes
declare -A runs=(
  [dm_root]="root --format dm-verity --no-superblock --salt -"
  [dm_salted_root]="root --format dm-verity --no-superblock --salt $salt"
  [dm_hashes]="root --format dm-verity --no-superblock --salt - --hash-output @"
  [fs_root]="root --format fs-verity"
  [fs_tree]="root --format fs-verity --tree-output @"
  [fs64k_tree]="root --format fs-verity --block-size 65536 --tree-output @"
  [bao_outboard]="root --format bao-outboard --outboard @"
)
names=(dm_root dm_salted_root dm_hashes fs_root fs_tree fs64k_tree bao_outboard)
cli() { echo "$1/build-ab/tools/merklize ${runs[$3]//@/$(out "$2" "$3")} $file"; }
args=()
for name in "${names[@]}"; do
  a=$($(cli "$base" A "$name") | md5sum) b=$($(cli . B "$name") | md5sum)
  fa=$(md5sum < "$(out A "$name")" 2>/dev/null) fb=$(md5sum < "$(out B "$name")" 2>/dev/null)
  echo "$name: A and B $([ "$a" = "$b" ] && [ "$fa" = "$fb" ] && echo agree || echo DIFFER)" |
    tee -a "$log"
  for side in A B; do
    dir=$([ $side = A ] && echo "$base" || echo .)
    rss=$(/usr/bin/time -v $(cli "$dir" $side "$name") 2>&1 > /dev/null |
      awk -F': ' '/Maximum resident/ {print $2}')
    echo "$side $name max RSS: $rss KiB" | tee -a "$log"
  done
  args+=(-n "A $name" "$(cli "$base" A "$name")" -n "B $name" "$(cli . B "$name")")
done
ab_hyperfine "${args[@]}"
rm -f /dev/shm/verity_ab_[AB]_*
