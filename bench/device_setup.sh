# SPDX-License-Identifier: Apache-2.0 OR MIT
# Sourced by the GPU machine's run script (device_run.sh): every OpenCL
# platform, the carried Debian packages, logs in $OUT (run.log begun with the GPU and the host's
# cores), the largest size 2^max from the first argument, and a Release build.
set -uo pipefail
export MERKLIZE_OCL=all
source .device-debs/env.sh
OUT=${OUT:-/tmp/out}
mkdir -p "$OUT"
max=${1:-25}
log="$OUT/run.log"
{
  nvidia-smi --query-gpu=name,memory.total,clocks.sm,clocks.max.sm --format=csv
  echo "cores: $(nproc); $(grep -m1 'model name' /proc/cpuinfo)"
} | tee "$log"
cmake -S . -B build -DCMAKE_BUILD_TYPE=Release "${cmake_args[@]}" > /tmp/build.log 2>&1 &&
  cmake --build build -j 16 >> /tmp/build.log 2>&1 || { grep -B2 -A8 error /tmp/build.log | head -60; exit 1; }
