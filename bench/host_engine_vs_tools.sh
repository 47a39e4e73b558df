#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0 OR MIT
# Whether merklize pays against the Linux tools on this machine's cores: whole processes, the
# file in the page cache, merklize's default engine choice (--device auto) beside the tool in the
# same hyperfine run (alternating, after warm-ups), every output checked equal to the tool's first.
#   fs-verity:  merklize root --format fs-verity          against fsverity digest
#   dm-verity:  merklize root --format dm-verity           against veritysetup format (superblock)
#               ... --no-superblock                        against veritysetup format --no-superblock
#   BLAKE3:     merklize b3sum                             against b3sum
# Prints a table: each side's best and median wall time and the tool's best over merklize's.
#
#   bench/host_engine_vs_tools.sh [MERKLIZE] [SIZE_MIB] [DIR] [RUNS]
#       MERKLIZE  the merklize program (default build/tools/merklize)
#       SIZE_MIB  the file's size (default 512)
#       DIR       where the file goes (default /tmp); it is kept for the next run
#       RUNS      timed runs of each command (default 10)
# Needs hyperfine, b3sum, fsverity and veritysetup (cryptsetup-bin), and python3 for the table.
set -euo pipefail
merklize=$(realpath "${1:-build/tools/merklize}")
mib=${2:-512}
dir=${3:-/tmp}
runs=${4:-10}
file=$dir/merklize-host-engine-$mib.data
bytes=$((mib * 1048576))
for tool in hyperfine b3sum fsverity veritysetup python3; do
  command -v "$tool" >/dev/null || { echo "$0: $tool is not installed" >&2; exit 1; }
done
if [ ! -f "$file" ] || [ "$(stat -c %s "$file")" -ne "$bytes" ]; then
  echo "writing $mib MiB of random bytes to $file" >&2
  head -c "$bytes" /dev/urandom >"$file"
fi
cat "$file" >/dev/null # the page cache warm
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
salt=$(printf 'a%.0s' $(seq 64))
uuid=6d65726b-6c69-4a65-8000-62656e636821

# same WHAT OURS THEIRS: the outputs' checked part (a sed expression's lines) agree
same() {
  local what=$1 ours=$2 theirs=$3 filter=$4
  local a b
  a=$(sh -c "$ours" | sed -n "$filter")
  b=$(sh -c "$theirs" | sed -n "$filter")
  [ "$a" = "$b" ] || { echo "$what: merklize printed '$a', the tool '$b'" >&2; exit 1; }
}

# pair WHAT OURS THEIRS: both timed in one hyperfine run, the JSON kept for the table
pair() {
  hyperfine --style none --warmup 2 --runs "$runs" -N --export-json "$work/$1.json" \
    -n merklize "$2" -n tool "$3" >/dev/null 2>&1 ||
    hyperfine --style none --warmup 2 --runs "$runs" --export-json "$work/$1.json" \
      -n merklize "$2" -n tool "$3" >/dev/null
  echo "$1" >>"$work/order"
}

m=$merklize
fs_ours="$m root --format fs-verity $file"
fs_theirs="fsverity digest $file"
dm_ours="$m root --format dm-verity --salt $salt --uuid $uuid --hash-output $work/m.hashes $file"
dm_theirs="veritysetup format --salt=$salt --uuid=$uuid $file $work/v.hashes"
dmn_ours="$m root --format dm-verity --no-superblock --salt $salt --hash-output $work/mn.hashes $file"
dmn_theirs="veritysetup format --no-superblock --salt=$salt $file $work/vn.hashes"
b3_ours="$m b3sum --no-names $file"
b3_theirs="b3sum --no-names $file"

same fs-verity "$fs_ours" "$fs_theirs" 'p'
same dm-verity "$dm_ours" "$dm_theirs" '/Root hash/p'
cmp "$work/m.hashes" "$work/v.hashes"
same dm-verity-no-superblock "$dmn_ours" "$dmn_theirs" '/Root hash/p'
cmp "$work/mn.hashes" "$work/vn.hashes"
same b3sum "$b3_ours" "$b3_theirs" 'p'

pair "fs-verity digest" "$fs_ours" "$fs_theirs"
pair "dm-verity, superblock" "$dm_ours" "$dm_theirs"
pair "dm-verity, no superblock" "$dmn_ours" "$dmn_theirs"
pair "BLAKE3 (b3sum)" "$b3_ours" "$b3_theirs"

echo "$mib MiB in the page cache, $(nproc) cores ($(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs)), $(date -u +%Y-%m-%d), $runs runs each"
python3 - "$work" <<'PY'
import json, sys, os
work = sys.argv[1]
print("| task | merklize best / median | tool best / median | tool best / merklize best |")
print("|---|---|---|---|")
for name in open(os.path.join(work, "order")).read().splitlines():
    r = {x["command"]: x for x in json.load(open(os.path.join(work, name + ".json")))["results"]}
    m, t = r["merklize"], r["tool"]
    ms = lambda s: "%.0f ms" % (1000 * s)
    print("| %s | %s / %s | %s / %s | %.2fx |" % (name, ms(min(m["times"])), ms(m["median"]),
          ms(min(t["times"])), ms(t["median"]), min(t["times"]) / min(m["times"])))
PY
