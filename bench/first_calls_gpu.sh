#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0 OR MIT
# First calls against later ones on a GPU machine, each beside its warm run in the same call:
# whole commands (`root`, `proof`, `--format fs-verity`, `b3sum`) on an empty program cache (both
# merklize's and the driver's own) and then warm, on the device and as --device auto chooses; in
# one process, the first build(std::vector) of 2^25 leaves against the next (first_build), the
# first update of a kept tree against the next
# (update_bench), and a log's adoption and first full build against later ones (log_bench); each
# program run once on an empty cache and once warm. Then the host engine against the Linux tools
# on this machine's cores (host_engine_vs_tools.sh). Logs in $OUT (default /tmp/out).
#   bash bench/first_calls_gpu.sh [DEVICE] [LOG_LOG2]     (DEVICE: MERKLIZE_DEVICE, default nvidia)
set -uo pipefail
device=${1:-nvidia}
log_log2=${2:-30}
OUT=${OUT:-/tmp/out}
BUILD=${BUILD:-build}
mkdir -p "$OUT"
cmake -S . -B "$BUILD" -DCMAKE_BUILD_TYPE=Release -DMERKLIZE_BUILD_TESTS=OFF \
  -DMERKLIZE_BUILD_BENCH=ON >"$OUT/configure.log" 2>&1 &&
  cmake --build "$BUILD" -j"$(nproc)" --target merklize_cli first_build update_bench log_bench \
    >"$OUT/build.log" 2>&1 || { tail -40 "$OUT/build.log"; exit 1; }
merklize=$(realpath "$BUILD/tools/merklize")
work=$(mktemp -d /dev/shm/merklize_first.XXXXXX)
trap 'rm -rf "$work"' EXIT
head -c $((1 << 30)) /dev/urandom >"$work/gib"
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>/dev/null
echo "cores: $(nproc); $(grep -m1 'model name' /proc/cpuinfo)"

# A fresh cache of each kind; `cold` empties them.
cold() {
  rm -rf "$work/cache" "$work/nv" "$work/pocl"
  mkdir -p "$work/cache" "$work/nv" "$work/pocl"
}
export MERKLIZE_CACHE_DIR=$work/cache CUDA_CACHE_PATH=$work/nv POCL_CACHE_DIR=$work/pocl
ms() { # ms LABEL COMMAND...: one run's wall time
  local start end
  start=$(date +%s%N)
  "${@:2}" >/dev/null 2>"$work/err" || { echo "$1: failed: $(tail -2 "$work/err")"; return; }
  end=$(date +%s%N)
  printf '| %s | %.1f ms |\n' "$1" "$(((end - start) / 10000))e-2"
}

echo "== whole commands, empty caches then warm ($device)"
echo "| command | wall |"
echo "|---|---|"
for c in "root" "proof --index 12345678" "root --format fs-verity" "b3sum"; do
  cold
  ms "$c, empty caches" env MERKLIZE_DEVICE=$device "$merklize" $c --device default "$work/gib"
  ms "$c, warm" env MERKLIZE_DEVICE=$device "$merklize" $c --device default "$work/gib"
  ms "$c, warm, --device auto" "$merklize" $c "$work/gib"
  cold
  ms "$c, empty caches, --device auto" "$merklize" $c "$work/gib"
done

for state in empty warm; do
  [ "$state" = empty ] && cold
  echo "== in one process, $state caches"
  MERKLIZE_DEVICE=$device "$BUILD/bench/first_build" 25 4
  MERKLIZE_DEVICE=$device "$BUILD/bench/update_bench" 25 blake3 4 1 | head -30
  MERKLIZE_DEVICE=$device "$BUILD/bench/log_bench" "$log_log2" rfc6962 2 65536 | head -40
done

echo "== the host engine against the tools on $(nproc) cores"
# veritysetup of the carried packages lies in sbin, which .device-debs/env.sh leaves off PATH.
[ -d /opt/debs/usr/sbin ] && export PATH=/opt/debs/usr/sbin:$PATH
bash bench/host_engine_vs_tools.sh "$merklize" 1024 /dev/shm 5
