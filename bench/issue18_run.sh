#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0 OR MIT
# Issue 18's closing checks on a GPU machine (two GPUs where it has them): the k-ary, block and
# block-proof tests on the GPU, k-ary roots over several GPUs against one, and whole-process
# times (hyperfine) with peak memory (/usr/bin/time) of the k-ary, block-leaf, SHA-256 and Bao
# paths of a 4 GiB file in /dev/shm, beside sha256sum and b3sum.
#   bench/issue18_run.sh [build|tests|bench]   (default: all three)
set -uo pipefail
step=${1:-all}
cmake_args=(-DMERKLIZE_AOT=OFF)
source bench/device_setup.sh 25
M=build/tools/merklize
spec0=$($M devices | awk '/NVIDIA|CUDA/ {print $1; exit}')
spec1=$($M devices | awk '/NVIDIA|CUDA/ {n++; if (n == 2) {print $1; exit}}')
devs=$spec0,${spec1:-$spec0}
echo "GPUs: $spec0 ${spec1:-(one)}; --devices $devs" | tee -a "$log"
if [ "$step" = all ] || [ "$step" = tests ]; then
  MERKLIZE_DEVICE=$spec0 timeout 400 build/tests/merklize_tests \
    "[kary],[multi-blocks],[block-cli],[block-leaves]" 2>&1 | tail -4 | tee -a "$log"
fi
[ "$step" = all ] || [ "$step" = bench ] || exit 0
f=/dev/shm/m18.data
[ -f $f ] || head -c $((4 << 30)) /dev/urandom > $f
head -c $((1 << 30)) $f > /dev/shm/m18.leaves
cat $f /dev/shm/m18.leaves > /dev/null
for args in "--arity 16 --hash sha256 /dev/shm/m18.leaves" \
    "--arity 16 --hash sha256 --leaf-size 4096 $f" "--arity 4 --pad zero --leaf-size 1024 $f"; do
  a=$($M root --device $spec0 $args); b=$($M root --devices $devs $args)
  echo "root $args: one GPU $a, --devices $b $([ "$a" = "$b" ] && echo EQUAL || echo DIFFER)" | tee -a "$log"
done
peak() { /usr/bin/time -f "%M KiB peak, %e s" "$@" 2>&1 >/dev/null | tail -1; }
for cmd in "$M root --device $spec0 --hash sha256 /dev/shm/m18.leaves" \
    "$M root --device $spec0 --arity 16 --hash sha256 --leaf-size 4096 $f" \
    "$M root --devices $devs --arity 16 --hash sha256 --leaf-size 4096 $f" \
    "$M root --device $spec0 --leaf-size 4096 --hash sha256 $f" \
    "$M root --devices $devs --leaf-size 4096 --hash sha256 $f" \
    "$M root --device $spec0 --format bao-outboard --outboard /dev/shm/m18.obao $f"; do
  echo "peak: $cmd: $(peak $cmd)" | tee -a "$log"
done
hyperfine -N -w 1 -r 5 --export-markdown "$OUT/issue18.md" \
  "$M root --device $spec0 --hash sha256 /dev/shm/m18.leaves" \
  "$M root --device $spec0 --arity 16 --hash sha256 --leaf-size 4096 $f" \
  "$M root --devices $devs --arity 16 --hash sha256 --leaf-size 4096 $f" \
  "$M root --device $spec0 --leaf-size 4096 --hash sha256 $f" \
  "$M root --devices $devs --leaf-size 4096 --hash sha256 $f" \
  "sha256sum $f" "b3sum --num-threads 16 $f" 2>&1 | grep -E "Time|±|Benchmark" | tee -a "$log"
cat "$OUT/issue18.md" >> "$log"
