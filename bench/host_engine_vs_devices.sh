#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0 OR MIT
# The host engine against a device for the work whose only rival is a device: Keccak-256 and
# SHA3-256 trees of 32-byte leaves, a transparency log's root from its entries (RFC 6962 leaves,
# then the tree), and the commands that keep every level of a tree (multiproofs, consistency
# proofs, tiles) or prove a k-ary tree over data blocks. Whole processes, the files in the page
# cache, in one hyperfine run each: --device host, --device DEVICE (its programs compiled and
# cached by a run before), and the default (--device auto). Every output is checked equal first.
#
#   bench/host_engine_vs_devices.sh [MERKLIZE] [DEVICE] [SIZE_MIB] [DIR] [RUNS]
#       MERKLIZE  the merklize program (default build/tools/merklize)
#       DEVICE    the --device to compare (default cpu: PoCL)
#       SIZE_MIB  the leaves' size, and about the log's (default 256)
#       DIR       where the files go (default /tmp); they are kept for the next run
#       RUNS      timed runs of each command (default 5)
# Needs hyperfine and python3 (which writes the log's entries: lines of 0-400 bytes).
set -euo pipefail
merklize=$(realpath "${1:-build/tools/merklize}")
device=${2:-cpu}
mib=${3:-256}
dir=${4:-/tmp}
runs=${5:-5}
for tool in hyperfine python3; do
  command -v "$tool" >/dev/null || { echo "$0: $tool is not installed" >&2; exit 1; }
done
leaves=$dir/merklize-leaves-$mib.data
log=$dir/merklize-log-$mib.txt
if [ ! -f "$leaves" ] || [ "$(stat -c %s "$leaves")" -ne $((mib * 1048576)) ]; then
  head -c $((mib * 1048576)) /dev/urandom >"$leaves"
fi
if [ ! -f "$log" ]; then
  python3 - "$log" "$mib" <<'PY'
import random, sys
random.seed(1)
target = int(sys.argv[2]) << 20
with open(sys.argv[1], "w") as f:
    written = i = 0
    while written < target:
        line = "entry-%d-%s\n" % (i, "x" * random.randint(0, 400))
        f.write(line)
        written += len(line)
        i += 1
PY
fi
cat "$leaves" "$log" >/dev/null # the page cache warm

# compare WHAT COMMAND ARGS...: the three engines' outputs equal, then timed in one run
compare() {
  local what=$1 command=$2
  shift 2
  local host dev auto
  host=$("$merklize" "$command" --device host "$@" | sha256sum)
  dev=$("$merklize" "$command" --device "$device" "$@" | sha256sum)
  auto=$("$merklize" "$command" "$@" | sha256sum)
  [ "$host" = "$dev" ] && [ "$host" = "$auto" ] ||
    { echo "$what: the outputs of host, $device and auto differ" >&2; exit 1; }
  echo "## $what: $command $*"
  hyperfine -N --style basic --warmup 1 --runs "$runs" \
    -n host "$merklize $command --device host $*" \
    -n "$device" "$merklize $command --device $device $*" \
    -n auto "$merklize $command $*" 2>&1 | grep -E '^ *(Time|Range)|^Benchmark|faster'
}

entries=$(wc -l <"$log")
echo "$(nproc) cores ($(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs)), $(date -u +%Y-%m-%d), $runs runs each"
compare "keccak256 tree of $mib MiB of leaves" root --hash keccak256 "$leaves"
compare "sha3-256 tree of $mib MiB of leaves" root --hash sha3-256 "$leaves"
compare "log of $entries entries ($(stat -c %s "$log") bytes)" root --log --entries lines "$log"
# The commands that keep every level of a tree, and k-ary proofs over data blocks.
leaf_count=$((mib * 32768))
compare "multiproof of 4 of $mib MiB of leaves" proof -i 0,12345,$((leaf_count / 2)),$((leaf_count - 1)) "$leaves"
compare "multiproof of 3 of the log's entries" proof --log --entries lines -i 1,2,$((entries - 1)) "$log"
compare "consistency proof of the log" consistency --log --entries lines --old-size $((entries / 3)) "$log"
compare "tiles of $mib MiB of leaves" tiles --origin example.com/log -o "$dir/merklize-tiles" "$leaves"
compare "8-ary proof over 4 KiB blocks of $mib MiB" proof --arity 8 --leaf-size 4096 -i 12345 "$leaves"
