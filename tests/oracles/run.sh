#!/bin/sh
# SPDX-License-Identifier: Apache-2.0 OR MIT
# Runs an oracle script of this folder in a virtual environment of the build tree, made with
# python3 -m venv and the oracle installed from PyPI on first use (never into the project or the
# system). Exits 77 (skipped) where python3, its venv module or a package cannot be had.
#   run.sh VENV PACKAGES SCRIPT ARGS...
# PACKAGES: one or more pip requirements separated by spaces, in one argument ("eth-abi==5.1.0
# pycryptodome==3.20.0"), or - for none (a script of the standard library alone).
set -u
venv=$1 packages=$2 script=$3
shift 3
skip() {
  echo "SKIPPED: $1"
  exit 77
}
command -v python3 >/dev/null || skip "python3 not found (install python3 python3-venv)"
if [ ! -x "$venv/bin/python" ]; then
  rm -rf "$venv"
  python3 -m venv "$venv" >/dev/null 2>&1 || skip "python3 -m venv failed (install python3-venv)"
fi
[ "$packages" = "-" ] && packages=""
for package in $packages; do
  # The distribution's name (pip show knows it where its module's name differs: pycryptodome's
  # is Crypto).
  name=$(echo "$package" | sed 's/[=<>].*//')
  if ! "$venv/bin/python" -m pip show --quiet "$name" >/dev/null 2>&1; then
    # Few retries, short timeouts: without a network the test is skipped in seconds, not minutes.
    "$venv/bin/python" -m pip install --quiet --disable-pip-version-check --retries 1 \
      --timeout 15 "$package" ||
      skip "cannot install $package from PyPI into $venv"
  fi
done
exec "$venv/bin/python" "$script" "$@"
