#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0 OR MIT
# On the GPU machine: the tree kept on the device through the C ABI and Python
# against the C++ call under them, in one run. Builds this tree (Release, benchmarks on; build-dt),
# runs the C ABI's tests of it and of sparse trees (c_api_device_tree, c_api_device_tree_append:
# appends and consistency proofs, c_api_sparse_tree: against tests/sparse_model.py) on the GPU,
# then for blake3 and sha256 at 2^20
# and 2^25 leaves, batches of 1%: bench/device_tree_capi_bench (merklize_device_tree_update
# against resident_tree::update, interleaved, roots compared each round) and, where the machine's
# Python has nanobind and scikit-build-core, the package installed (no network) and
# bench/device_tree_python.py (DeviceTree.update against the C call through ctypes), and where it
# has pytest, pymerkle and remerkleable, python/tests of DeviceTree and SparseTree. Logs in $OUT
# (default /tmp/out).
#   bash bench/device_tree_bindings_gpu.sh
set -uo pipefail
export MERKLIZE_OCL=${MERKLIZE_OCL:-nvidia}
[ -f .device-debs/env.sh ] && source .device-debs/env.sh > /dev/null
export MERKLIZE_DEVICE=${MERKLIZE_DEVICE:-nvidia}
OUT=${OUT:-/tmp/out}
mkdir -p "$OUT"
log=$OUT/device_tree_bindings.log
: > "$log"
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>/dev/null | tee -a "$log"
py=python3
[ -x /opt/torch/.venv/bin/python3 ] && py=/opt/torch/.venv/bin/python3

cmake -S . -B build-dt -DCMAKE_BUILD_TYPE=Release -DMERKLIZE_AOT=OFF > "$OUT/build.log" 2>&1 &&
  cmake --build build-dt -j "$(nproc)" --target merklize_c_device_tree \
    merklize_c_device_tree_append merklize_c_sparse_tree device_tree_capi_bench \
    >> "$OUT/build.log" 2>&1 || { grep -B2 -A8 -m5 error "$OUT/build.log"; exit 1; }
for test in device_tree device_tree_append sparse_tree; do
  echo "c_api_$test on the GPU: $(timeout 300 "build-dt/tests/c/merklize_c_$test" 2>&1 |
    tail -1)" | tee -a "$log"
done
export LD_LIBRARY_PATH=$PWD/build-dt${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
for hash in blake3 sha256; do
  for log2 in 20 25; do
    echo "== device_tree_capi_bench $log2 $hash 9 1" | tee -a "$log"
    timeout 300 build-dt/bench/device_tree_capi_bench "$log2" "$hash" 9 1 2>&1 | tee -a "$log"
  done
done
if "$py" -c "import nanobind, scikit_build_core, numpy" 2> /dev/null &&
  "$py" -m pip install --no-deps --no-build-isolation -C build-dir=build-dt/python . \
    > "$OUT/pip.log" 2>&1; then
  for hash in blake3 sha256; do
    "$py" bench/device_tree_python.py --library build-dt/libmerklize.so --leaves-log2 25 \
      --repetitions 9 --hash "$hash" 2>&1 | tee -a "$log"
  done
  if "$py" -c "import pytest, pymerkle, remerkleable" 2> /dev/null; then
    echo "python/tests of DeviceTree and SparseTree on the GPU: $(cd python/tests &&
      "$py" -m pytest -q -p no:cacheprovider test_device_trees.py test_sparse.py 2>&1 |
      tail -1)" | tee -a "$log"
  else
    echo "SKIPPED python/tests on the GPU: $py lacks pytest, pymerkle or remerkleable" |
      tee -a "$log"
  fi
else
  echo "SKIPPED the Python timing: $py lacks nanobind, scikit-build-core or numpy, or pip" \
    "install failed ($OUT/pip.log)" | tee -a "$log"
fi
