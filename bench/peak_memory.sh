#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0 OR MIT
# What a user sees of each tool on the GPU machine: the whole process's best wall time of 3 runs
# and its peak resident memory (the largest process of a pipeline, from getrusage of the
# children), for merklize root on 1 GiB in /dev/shm beside b3sum, cat and fsverity.
#   bash bench/peak_memory.sh [MERKLIZE]    (default: builds build-pk/tools/merklize here)
set -u
M=${1:-}
if [ -z "$M" ]; then
  cmake -S . -B build-pk -DCMAKE_BUILD_TYPE=Release -DMERKLIZE_AOT=OFF > /dev/null &&
    cmake --build build-pk -j "$(nproc)" --target merklize_cli > /dev/null || exit 1
  M=$PWD/build-pk/tools/merklize
fi
F=/dev/shm/peak_memory_1g
[ -f "$F" ] || head -c $((1 << 30)) /dev/urandom > "$F"
nvidia-smi --query-gpu=name --format=csv,noheader 2>/dev/null
peak() { # COMMAND: one row
  python3 - "$1" <<'PY'
import resource, subprocess, sys, time
cmd, best = sys.argv[1], None
for _ in range(3):
    t = time.perf_counter()
    p = subprocess.run(["bash", "-c", cmd], stdout=subprocess.DEVNULL)
    best = min(best or 1e18, (time.perf_counter() - t) * 1e3)
rss = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
print(f"| `{cmd}` | {best:.1f} ms | {rss:.0f} MiB | rc {p.returncode} |")
PY
}
echo "| command | wall (best of 3) | peak RSS | |"
echo "|---|---|---|---|"
for c in "$M root $F" "b3sum $F" "cat $F | $M root -" "cat $F | b3sum" "cat $F > /dev/null" \
  "$M root --device nvidia $F" "$M root --hash sha256 $F" "$M root --arity 8 $F" \
  "$M root --format fs-verity $F" "fsverity digest $F"; do
  peak "$c"
done
