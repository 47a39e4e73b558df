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
# shellcheck source=python/tests/ctest_venv.sh
. "$(dirname "$0")/ctest_venv.sh"
build_venv "$venv"
echo "pip install $source (build folder $build)"
"$python" -m pip install --quiet --disable-pip-version-check --no-build-isolation --no-deps \
  --force-reinstall -C build-dir="$build" "$source" || exit 1
cd "$source" || exit 1
PYTHONDONTWRITEBYTECODE=1 exec "$python" -m pytest -q -p no:cacheprovider "$source/python/tests"
