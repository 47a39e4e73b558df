#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0 OR MIT
# The GPU machine's run for the C ABI, the bindings and the fault sweep (docs/BENCHMARKS.md, "The
# bindings against the C calls under them"): `bash bench/bindings_gpu.sh build|test|bench`.
#   build: a Release build with the benchmarks; the Python package installed into the machine's Python
#          (its Python has nanobind and scikit-build-core; --no-build-isolation, no network).
#   test:  the whole ctest suite with the NVIDIA GPU as the default device (the C ABI's tests and
#          the fault sweep on NVIDIA's driver among them).
#   bench: each binding against the C call it makes, at 2^20 and 2^25 leaves, on the GPU: C
#          against C++ (capi_bench), Rust (root_bench) and Go (BenchmarkRoot) built on the
#          development machine and carried in .devbin/, Python (bench/python_overhead.py).
set -uo pipefail
export MERKLIZE_OCL=${MERKLIZE_OCL:-all}
source .device-debs/env.sh
OUT=${OUT:-/tmp/out}
mkdir -p "$OUT"
log="$OUT/run.log"
export MERKLIZE_DEVICE=${MERKLIZE_DEVICE:-nvidia}
# The machine's Python with nanobind and scikit-build-core (a virtual environment there).
py=python3
[ -x /opt/torch/.venv/bin/python3 ] && py=/opt/torch/.venv/bin/python3
case "${1:-}" in
build)
  nvidia-smi --query-gpu=name,memory.total --format=csv | tee -a "$log"
  echo "cores: $(nproc); $(grep -m1 'model name' /proc/cpuinfo)" | tee -a "$log"
  cmake -S . -B build -DCMAKE_BUILD_TYPE=Release -DMERKLIZE_BUILD_BENCH=ON > "$OUT/build.log" 2>&1 &&
    cmake --build build -j 16 >> "$OUT/build.log" 2>&1 ||
    { grep -B2 -A8 -E "error|Error" "$OUT/build.log" | head -60; exit 1; }
  "$py" -m pip install --no-deps --no-build-isolation . > "$OUT/pip.log" 2>&1 ||
    { tail -30 "$OUT/pip.log"; exit 1; }
  echo "built; python package installed" | tee -a "$log" ;;
test)
  (cd build && timeout "${2:-420}" ctest -j 8 --output-on-failure > "$OUT/ctest.log" 2>&1
   grep -E "tests passed|FAILED|Failed|Skipped|\*\*\*" "$OUT/ctest.log") | tee -a "$log"
  grep -E "faulted runs|crash|hang" "$OUT/ctest.log" | head -20 | tee -a "$log" ;;
bench)
  export LD_LIBRARY_PATH=$PWD/build${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
  for log2 in ${2:-20 25}; do
    reps=$([ "$log2" -ge 25 ] && echo 9 || echo 21)
    echo "== 2^$log2 leaves, blake3, $reps repetitions" | tee -a "$log"
    ./build/bench/capi_bench --leaves-log2 "$log2" --repetitions "$reps" --hash blake3 2>&1 | tee -a "$log"
    ./.devbin/rust_root_bench "$log2" "$reps" blake3 2>&1 | tee -a "$log"
    ./.devbin/merklize_go.test -test.run '^$' -test.bench BenchmarkRoot -test.benchtime 1x \
      -test.count "$reps" -log2="$log2" -hash=blake3 2>&1 | grep -E "^Benchmark" |
      awk '{split($1, n, "/"); print n[2], $3 / 1e6}' | sort -k1,1 -k2,2n |
      awk '{v[$1] = v[$1] " " $2; c[$1]++} END {for (k in v) {split(substr(v[k], 2), a, " ");
           printf "Go Builder.%s: median %.2f ms, fastest %.2f ms (%d calls)\n", k, a[int(c[k] / 2) + 1], a[1], c[k]}}' |
      tee -a "$log"
    "$py" bench/python_overhead.py --library build/libmerklize.so --leaves-log2 "$log2" \
      --repetitions "$reps" --hash blake3 --clock wall 2>&1 | tee -a "$log"
  done ;;
*) echo "usage: bash bench/bindings_gpu.sh build|test|bench [args]"; exit 2 ;;
esac
