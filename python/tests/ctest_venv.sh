# SPDX-License-Identifier: Apache-2.0 OR MIT
# shellcheck shell=sh
# Sourced (POSIX sh) by the ctest tests python_package (run_ctest.sh) and python_wheel
# (run_wheel.sh), which build the extension in one venv of the build tree, so that both share
# its build requirements and one build folder.
#   skip MESSAGE               prints SKIPPED: MESSAGE and exits 77 (ctest's skip)
#   build_venv VENV            makes VENV once (python3 -m venv), checks Python.h and installs
#                              $build_requirements; sets $python
#   install_once PYTHON STAMP REQUIREMENTS...
#                              pip-installs REQUIREMENTS from PyPI into PYTHON's venv unless STAMP
#                              holds that very list (the last install's); skips without PyPI
skip() {
  echo "SKIPPED: $1"
  exit 77
}
build_requirements="scikit-build-core==1.1.2 nanobind==3.1.0 numpy>=1.21 pytest>=7 blake3>=0.3
                    remerkleable==0.1.28 pymerkle==7.0.0 pycryptodome==3.20.0"
install_once() {
  _python=$1 _stamp=$2
  shift 2
  echo "$@" | tr -s ' ' '\n' | grep . >"$_stamp.new"
  cmp -s "$_stamp.new" "$_stamp" && return 0
  # Few retries, short timeouts: without a network the test is skipped in seconds, not minutes.
  "$_python" -m pip install --quiet --disable-pip-version-check --retries 1 --timeout 15 \
    -r "$_stamp.new" || skip "cannot install $* from PyPI into $(dirname "$_stamp")"
  mv "$_stamp.new" "$_stamp"
}
build_venv() {
  command -v python3 >/dev/null ||
    skip "python3 not found (install python3 python3-venv python3-dev)"
  if [ ! -x "$1/bin/python" ]; then
    rm -rf "$1"
    python3 -m venv "$1" >/dev/null 2>&1 || skip "python3 -m venv failed (install python3-venv)"
  fi
  python="$1/bin/python"
  "$python" -c 'import os, sys, sysconfig
sys.exit(not os.path.exists(os.path.join(sysconfig.get_paths()["include"], "Python.h")))' ||
    skip "Python.h of $(python3 --version 2>&1) not found (install python3-dev)"
  # shellcheck disable=SC2086 # one word a requirement
  install_once "$python" "$1/merklize-requirements.txt" $build_requirements
  export CMAKE_BUILD_PARALLEL_LEVEL="${CMAKE_BUILD_PARALLEL_LEVEL:-$(nproc 2>/dev/null || echo 2)}"
}
