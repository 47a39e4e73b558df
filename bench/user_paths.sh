#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0 OR MIT
# What users see: whole processes timed with hyperfine, their peak memory, and the library's
# host-memory builds timed as a program calls them. Runs on the GPU machine and on a CPU-only one.
#
#   bash bench/user_paths.sh [DEVICE...]        e.g.  bash bench/user_paths.sh nvidia pocl
#
# DEVICE: the --device specs to time (default: the default device). Environment:
#   BUILD   the build folder with tools/merklize and bench/merklize_user_calls (default build)
#   DATA    where the input files are made once and kept (default /tmp/merklize-user-paths)
#   OUT     where the report goes (default build/user_paths; report.md there)
#   RUNS    hyperfine runs per command (default 5)
#   BIG=1   also b3sum of a 4 GiB file (needs 4 GiB more in DATA)
#   SIZES   log2 leaf counts of the in-process builds (default "20 25")
#   THREADS threads of BLAKE3's hash_many tree baseline (default: the cores)
# Needs hyperfine and b3sum (Debian packages) and python3; .baseline/tree_bench (BLAKE3's C
# hash_many tree, built by .baseline/build.sh) is timed beside ours where it exists.
set -euo pipefail
BUILD=${BUILD:-build}
DATA=${DATA:-/tmp/merklize-user-paths}
OUT=${OUT:-$BUILD/user_paths}
RUNS=${RUNS:-5}
SIZES=${SIZES:-20 25}
THREADS=${THREADS:-$(nproc)}
merklize=$(realpath "$BUILD/tools/merklize")
calls=$(realpath "$BUILD/bench/merklize_user_calls")
devices=("$@")
[ ${#devices[@]} -gt 0 ] || devices=(default)
mkdir -p "$DATA" "$OUT"
report="$OUT/report.md"
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)

# Peak resident memory (MiB) of a shell command and every process it waits for.
peak_mib() {
  python3 -c 'import resource, subprocess, sys
subprocess.run(["bash", "-c", sys.argv[1]], stdout=subprocess.DEVNULL, check=True)
print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss // 1024)' "$1"
}

# Drops FILE's pages from the page cache (posix_fadvise; no root needed).
evict="python3 -c 'import os, sys; fd = os.open(sys.argv[1], os.O_RDONLY); os.posix_fadvise(fd, 0, 0, os.POSIX_FADV_DONTNEED)'"

make_file() { # PATH BYTES
  [ "$(stat -c %s "$1" 2>/dev/null || echo 0)" = "$2" ] ||
    head -c "$2" /dev/urandom > "$1"
}

# hyperfine over commands (each "name=command"), a markdown table into the report, then each
# command's peak memory.
timed() { # TITLE [--prepare CMD] NAME=COMMAND...
  local title=$1; shift
  local prepare=()
  if [ "$1" = --prepare ]; then prepare=(--prepare "$2"); shift 2; fi
  local args=() name
  for c in "$@"; do args+=(-n "${c%%=*}" "${c#*=}"); done
  echo "### $title" >> "$report"
  hyperfine --warmup 1 --runs "$RUNS" "${prepare[@]}" --export-markdown "$OUT/t.md" "${args[@]}" \
    > /dev/null
  cat "$OUT/t.md" >> "$report"
  for c in "$@"; do
    echo "peak memory of ${c%%=*}: $(peak_mib "${c#*=}") MiB" >> "$report"
  done
  echo >> "$report"
}

gib=$((1 << 30))
leaves="$DATA/leaves-1g"
make_file "$leaves" "$gib"
make_file "$DATA/two-leaves" 64
{
  echo "# merklize: what users see ($(date -u +%F))"
  echo
  echo "host: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2-)"
  command -v nvidia-smi > /dev/null &&
    echo "GPU: $(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader)"
  echo "files in $DATA on $(stat -f -c %T "$DATA"); $(hyperfine --version); $(b3sum --version)"
  echo "$merklize: $("$merklize" --version | head -1)"
  echo
} > "$report"

for device in "${devices[@]}"; do
  flag=(); [ "$device" = default ] || flag=(--device "$device")
  dev="${flag[*]}"
  echo "## device: $device" >> "$report"
  "$merklize" root $dev "$DATA/two-leaves" > /dev/null # programs into the cache first
  timed "start-up: 2 leaves, and listing the devices" \
    "root of 2 leaves=$merklize root $dev $DATA/two-leaves" \
    "merklize devices=$merklize devices"
  timed "root of 1 GiB (2^25 leaves), page cache warm" \
    "merklize root=$merklize root $dev $leaves" \
    "cat to /dev/null=cat $leaves" \
    "b3sum (same file)=b3sum --no-names $leaves"
  timed "root of 1 GiB from stdin" "cat | merklize root -=cat $leaves | $merklize root $dev -"
  timed "root of 1 GiB, page cache cold (evicted before each run)" --prepare "$evict $leaves" \
    "merklize root, cold=$merklize root $dev $leaves"
  timed "inclusion proof of leaf 12345678 of 1 GiB" \
    "merklize proof=$merklize proof $dev --index 12345678 $leaves"
  timed "b3sum of 1 GiB" "merklize b3sum=$merklize b3sum $dev $leaves" "b3sum=b3sum $leaves"
  if [ "${BIG:-0}" = 1 ]; then
    make_file "$DATA/data-4g" $((4 * gib))
    timed "b3sum of 4 GiB" "merklize b3sum=$merklize b3sum $dev $DATA/data-4g" \
      "b3sum=b3sum $DATA/data-4g"
  fi
  echo '### build(std::vector) in process (bench/user_calls.cpp)' >> "$report"
  if [ "$device" = default ]; then "$calls" $SIZES; else "$calls" --device="$device" $SIZES; fi \
    >> "$report"
  echo >> "$report"
done

baseline="$here/../.baseline/tree_bench"
if [ -x "$baseline" ]; then
  echo "### baseline: BLAKE3's hash_many tree of the same file on $THREADS threads (.baseline)" \
    >> "$report"
  "$baseline" --file "$leaves" "$THREADS" >> "$report"
fi
rm -f "$OUT/t.md"
cat "$report"
