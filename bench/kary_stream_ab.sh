#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0 OR MIT
# Issue 30: k-ary trees of leaves as given streamed through the device (engine/kary_stream.hpp,
# chunk_stream.hpp's loop with a level step chosen by the arity) beside the commit it starts from
# (where `root --arity K FILE` uploads every leaf and keeps every level on the device), in one run
# on the GPU machine. Builds both trees (A: the base, B: this tree), runs B's [kary] tests on the
# GPU, checks A and B print the same roots and proofs, then times whole processes with hyperfine
# over 1 GiB (2^25 leaves) in /dev/shm:
#   root (the binary stream, whose loop chunk_stream.hpp now shares: must not move),
#   root --arity 2, 8 and 16 (blake3), root --arity 8 and 16 --hash sha256,
#   proof -i 12345679 --arity 2, --arity 8, --arity 16 --pad zero, and the binary proof -i;
# prints each row's times side by side with B / A (bench/ab_table.py), and the peak resident
# memory (/usr/bin/time -v) and peak GPU memory (nvidia-smi, sampled) of root --arity 8 for each.
#   bash bench/kary_stream_ab.sh [BASE_TREE]     (logs in $OUT, default /tmp/out)
set -uo pipefail
source bench/ab_base.sh
ab_setup kary_stream_ab /tmp/kary-stream-ab-base "${1:-}"

ab_build "$base" "$OUT/build.log" merklize_cli &&
  ab_build . "$OUT/build.log" merklize_cli merklize_tests merklize_gpu_test
ab_gpu_tests '[kary]'

file=/dev/shm/kary_stream_ab_1g
[ -f "$file" ] || head -c $((1 << 30)) /dev/urandom > "$file"
declare -A runs=(
  [binary]="root"
  [arity_2]="root --arity 2"
  [arity_8]="root --arity 8"
  [arity_16]="root --arity 16"
  [arity_8_sha256]="root --arity 8 --hash sha256"
  [arity_16_sha256]="root --arity 16 --hash sha256"
  [proof_binary]="proof -i 12345679"
  [proof_2]="proof -i 12345679 --arity 2"
  [proof_8]="proof -i 12345679 --arity 8"
  [proof_16_zero]="proof -i 12345679 --arity 16 --pad zero"
)
ab_processes "$file" binary arity_2 arity_8 arity_16 arity_8_sha256 arity_16_sha256 \
  proof_binary proof_2 proof_8 proof_16_zero

# Peak memory of root --arity 8: the host's (max RSS) and the GPU's (nvidia-smi every 20 ms).
for side in A B; do
  dir=$([ "$side" = A ] && echo "$base" || echo .)
  gpu_log=$OUT/gpu_memory_$side.txt
  nvidia-smi --query-gpu=memory.used --format=csv,noheader,nounits -lms 20 > "$gpu_log" &
  sampler=$!
  sleep 0.5
  /usr/bin/time -v "$dir/build-ab/tools/merklize" root --arity 8 "$file" > /dev/null \
    2> "$OUT/time_$side.txt"
  sleep 0.2
  kill "$sampler"
  rss=$(awk -F': ' '/Maximum resident set size/ {print $2}' "$OUT/time_$side.txt")
  gpu=$(sort -n "$gpu_log" | tail -1)
  idle=$(sort -n "$gpu_log" | head -1)
  echo "$side root --arity 8: max RSS $((rss / 1024)) MiB, GPU memory peak $gpu MiB" \
    "(idle $idle MiB)" | tee -a "$log"
done
