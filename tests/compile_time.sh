#!/bin/sh
# SPDX-License-Identifier: Apache-2.0 OR MIT
# The ctest test readme_example_compile_time: compiles the README's example as a user would, the
# library header-only (only include/ added) at -O2, and reports the CPU-seconds it took (user +
# sys, which hold on a loaded machine), against the budget of 3, so that a change that makes
# every user's file slower to compile shows in CI's log. It reports and never fails on time (a
# timing assertion would fail on a busy machine); it fails only where the example does not
# compile.
#   compile_time.sh CXX INCLUDE_DIR SOURCE
set -u
cxx=$1 include=$2 source=$3
out=$(mktemp -d) || exit 1
trap 'rm -rf "$out"' EXIT
# POSIX `times` gives the children's CPU time once the compiler has exited.
"$cxx" -std=c++17 -O2 -I"$include" -c "$source" -o "$out/example.o" || exit 1
times >"$out/times"
# The second line: the children's user and system time, as "0m12.340s 0m0.560s".
seconds=$(sed -n 2p "$out/times" | awk '{
  total = 0
  for (i = 1; i <= 2; i++) { split($i, t, "m"); sub("s", "", t[2]); total += t[1] * 60 + t[2] }
  printf "%.1f", total }')
echo "README example ($(basename "$source")): ${seconds} CPU-seconds to compile header-only at -O2" \
  "with $("$cxx" --version | head -n 1) (budget: 3)"
