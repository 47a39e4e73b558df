#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0 OR MIT
# Start-up and first use on the GPU machine, each beside its baseline in one run: merklize root of 2
# leaves, of 1 GiB in /dev/shm against b3sum, stdin 1 GiB against cat > /dev/null, merklize proof,
# the SHA-256 tree on each engine, the split of a run by phase (--verbose), and the first build of
# 2^25 leaves in a process against the next ones (bench/first_build.cpp). With DEVICE host or a
# GPU's spec instead of auto, the same on that engine alone. Needs hyperfine; builds merklize and
# first_build in $BUILD (default build) with the benches on.
# With BASELINE=PATH (a merklize built from an earlier commit), the stdin and 1 GiB commands run
# beside it in the same hyperfine calls.
#   bash bench/startup_gpu.sh [DEVICE]          (DEVICE: a --device spec, default auto)
set -euo pipefail
BUILD=${BUILD:-build}
device=${1:-auto}
cmake -S . -B "$BUILD" -DCMAKE_BUILD_TYPE=Release -DMERKLIZE_BUILD_BENCH=ON > /dev/null
cmake --build "$BUILD" -j"$(nproc)" --target merklize_cli first_build > /dev/null
merklize=$(realpath "$BUILD/tools/merklize")
first_build=$(realpath "$BUILD/bench/first_build")
shm=$(mktemp -d /dev/shm/merklize_startup.XXXXXX)
trap 'rm -rf "$shm"' EXIT
head -c 64 /dev/urandom > "$shm/two"
head -c $((1 << 30)) /dev/urandom > "$shm/gib" # 2^25 leaves
half=$((1 << 29))                              # 2^24 leaves, the 2-core machine's SHA-256 size
head -c "$half" "$shm/gib" > "$shm/half"

echo "== machine"
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>/dev/null || true
nproc; uptime
"$merklize" --version; "$merklize" devices

echo "== where the time goes (--verbose; the second run of each, programs cached)"
for f in two gib; do
  "$merklize" root --device "$device" "$shm/$f" > /dev/null
  "$merklize" root --device "$device" --verbose "$shm/$f" 2>&1 > /dev/null
done
"$merklize" root --device "$device" --verbose --hash sha256 "$shm/gib" 2>&1 > /dev/null
echo "-- stdin (the read-ahead line says how much was read while the device started)"
cat "$shm/gib" | "$merklize" root --device "$device" --verbose - 2>&1 > /dev/null

echo "== whole processes (hyperfine, 2 warm-ups, 10 runs)"
hyperfine -N -w 2 -r 10 --export-markdown "$shm/processes.md" \
  "$merklize root --device $device $shm/two" \
  "$merklize root --device $device $shm/gib" \
  "b3sum $shm/gib" \
  "$merklize proof --device $device --index 12345678 $shm/gib" \
  "$merklize root --device $device --hash sha256 $shm/gib" \
  "$merklize root --device host --hash sha256 $shm/gib" \
  "$merklize root --device $device --hash sha256 $shm/half" > /dev/null
hyperfine -w 2 -r 10 --export-markdown "$shm/stdin.md" \
  "cat $shm/gib | $merklize root --device $device -" \
  "cat $shm/gib > /dev/null" > /dev/null
cat "$shm/processes.md" "$shm/stdin.md"
if [ -n "${BASELINE:-}" ]; then
  echo "== against BASELINE=$BASELINE (paired in one hyperfine call each)"
  hyperfine -w 2 -r 10 --export-markdown "$shm/baseline.md" \
    "cat $shm/gib | $merklize root --device $device -" \
    "cat $shm/gib | $BASELINE root --device $device -" \
    "$merklize root --device $device $shm/gib" \
    "$BASELINE root --device $device $shm/gib" > /dev/null
  cat "$shm/baseline.md"
fi

echo "== the first build in a process against the next (2^25 leaves, build(std::vector))"
if [ "$device" = auto ] || [ "$device" = host ]; then
  "$first_build" 25 4
else
  MERKLIZE_DEVICE=$device "$first_build" 25 4
fi
