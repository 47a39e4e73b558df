#!/bin/sh
# SPDX-License-Identifier: Apache-2.0 OR MIT
# The ctest test python_package: makes a virtual environment of the build tree with python3 -m
# venv, installs the build requirements and the tests' oracles from PyPI into it (once), then
# `pip install`s the repository, which builds the extension through scikit-build-core in BUILD
# (kept, so that a rerun rebuilds only what changed), and runs python/tests with pytest.
# Exits 77 (skipped) where python3, its venv module, Python.h or PyPI cannot be had; a build or
# a test that fails is a failure.
#   run_ctest.sh VENV SOURCE BUILD
set -u
venv=$1 source=$2 build=$3
skip() {
  echo "SKIPPED: $1"
  exit 77
}
requirements="scikit-build-core==1.1.2 nanobind==3.1.0 numpy>=1.21 pytest>=7 blake3>=0.3
              remerkleable==0.1.28 pymerkle==7.0.0 pycryptodome==3.20.0"
command -v python3 >/dev/null || skip "python3 not found (install python3 python3-venv python3-dev)"
if [ ! -x "$venv/bin/python" ]; then
  rm -rf "$venv"
  python3 -m venv "$venv" >/dev/null 2>&1 || skip "python3 -m venv failed (install python3-venv)"
fi
python="$venv/bin/python"
"$python" -c 'import os, sys, sysconfig
sys.exit(not os.path.exists(os.path.join(sysconfig.get_paths()["include"], "Python.h")))' ||
  skip "Python.h of $(python3 --version 2>&1) not found (install python3-dev)"
stamp="$venv/merklize-requirements.txt"
echo "$requirements" | tr -s ' ' '\n' | grep . >"$stamp.new"
if ! cmp -s "$stamp.new" "$stamp"; then
  # Few retries, short timeouts: without a network the test is skipped in seconds, not minutes.
  "$python" -m pip install --quiet --disable-pip-version-check --retries 1 --timeout 15 \
    -r "$stamp.new" || skip "cannot install the test requirements from PyPI into $venv"
  mv "$stamp.new" "$stamp"
fi
export CMAKE_BUILD_PARALLEL_LEVEL="${CMAKE_BUILD_PARALLEL_LEVEL:-$(nproc 2>/dev/null || echo 2)}"
echo "pip install $source (build folder $build)"
"$python" -m pip install --quiet --disable-pip-version-check --no-build-isolation --no-deps \
  --force-reinstall -C build-dir="$build" "$source" || exit 1
cd "$source" || exit 1
PYTHONDONTWRITEBYTECODE=1 exec "$python" -m pytest -q -p no:cacheprovider "$source/python/tests"
