#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0 OR MIT
# fs-verity, dm-verity (with its superblock, both tools' default) and Bao of one file, whole
# process, page cache warm: merklize root --format against fsverity digest and veritysetup format
# (which hash on one core) and b3sum, each the best of three runs, every output checked equal to
# the tool's, the dm-verity hash devices byte for byte.
#
#   bench/block_formats.sh [MERKLIZE] [SIZE_MIB] [DIR]
#       MERKLIZE  the merklize program (default build/tools/merklize)
#       SIZE_MIB  the file's size (default 4096: 4 GiB)
#       DIR       where the file goes, ideally memory (default /dev/shm); it is kept for the next run
# The device is MERKLIZE_DEVICE, else the first GPU. Needs cryptsetup-bin, fsverity and b3sum.
set -euo pipefail
merklize=${1:-build/tools/merklize}
mib=${2:-4096}
dir=${3:-/dev/shm}
file=$dir/merklize-block-formats-$mib.data
bytes=$((mib * 1048576))

if [ ! -f "$file" ] || [ "$(stat -c %s "$file")" -ne "$bytes" ]; then
  echo "writing $mib MiB of random bytes to $file"
  # (openssl ends on the closed pipe, so the pipeline's status is head's alone)
  (openssl enc -aes-128-ctr -pass pass:merklize -nosalt -pbkdf2 </dev/zero 2>/dev/null || true) |
    head -c "$bytes" >"$file"
fi
cat "$file" >/dev/null # the page cache warm

# best SECONDS of three runs of a command, its stdout kept in $out
best() {
  local fastest=
  for _ in 1 2 3; do
    local start end
    start=$(date +%s.%N)
    out=$("$@")
    end=$(date +%s.%N)
    fastest=$(echo "$start $end ${fastest:-1e9}" | awk '{t = $2 - $1; print (t < $3 ? t : $3)}')
  done
  seconds=$fastest
}

row() { printf '%-44s %8.3f s %8.1f MB/s\n' "$1" "$2" "$(echo "$bytes $2" | awk '{print $1 / $2 / 1e6}')"; }
speedup() { printf '%-44s %8.2fx\n' "speed-up ($1)" "$(echo "$2 $3" | awk '{print $1 / $2}')"; }
same() { [ "$1" = "$2" ] || { echo "MISMATCH: $3: '$1' against '$2'" >&2; exit 1; }; }

echo "$("$merklize" devices | head -3)"
echo "file: $mib MiB"
salt=$(head -c 32 /dev/urandom | od -An -tx1 | tr -d ' \n')

best fsverity digest "$file"; theirs=${out%% *}; t_fsverity=$seconds
row "fsverity digest" "$t_fsverity"
best "$merklize" root --format fs-verity "$file"; same "${out%% *}" "$theirs" fs-verity; t_fs=$seconds
row "merklize root --format fs-verity" "$t_fs"
speedup "fs-verity" "$t_fsverity" "$t_fs"

# Both with their default superblock, the same salt and UUID: the hash devices must be equal.
uuid=6d65726b-6c69-4a65-8000-626c6f636b73
best veritysetup format --salt="$salt" --uuid="$uuid" "$file" "$dir/merklize-bench.hashes"
theirs=$(echo "$out" | awk '/Root hash/ {print $3}'); t_veritysetup=$seconds
row "veritysetup format" "$t_veritysetup"
best "$merklize" root --format dm-verity --salt "$salt" --uuid "$uuid" \
  --hash-output "$dir/merklize-bench.ours" "$file"
same "$(echo "$out" | awk '/Root hash/ {print $3}')" "$theirs" dm-verity
cmp "$dir/merklize-bench.hashes" "$dir/merklize-bench.ours"
t_dm=$seconds
row "merklize root --format dm-verity --hash-output" "$t_dm"
speedup "dm-verity" "$t_veritysetup" "$t_dm"
rm -f "$dir/merklize-bench.hashes" "$dir/merklize-bench.ours"

best b3sum --no-names "$file"; theirs=$out; t_b3sum=$seconds
row "b3sum (all cores)" "$t_b3sum"
best "$merklize" root --format bao-outboard --outboard "$dir/merklize-bench.obao" "$file"
same "$out" "$theirs" bao-outboard; t_bao=$seconds
row "merklize root --format bao-outboard --outboard" "$t_bao"
rm -f "$dir/merklize-bench.obao"
