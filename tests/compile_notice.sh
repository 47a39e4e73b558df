#!/bin/sh
# SPDX-License-Identifier: Apache-2.0 OR MIT
# The line a first run prints before it compiles kernels (runtime/compile_notice.hpp), as a user
# of the command line meets it, each case with empty program caches (merklize's and PoCL's):
#   - with -v, stderr a pipe: the line, naming the device the engine line names and the cache;
#   - run again with -v: the programs come from the cache, no line;
#   - without -v, stderr a pipe: nothing, though it compiles;
#   - without -v, stderr a terminal (script(1)): the line;
#   - MERKLIZE_VERBOSE=1, no -v, stderr a pipe: the line (the library's own switch).
# Usage: compile_notice.sh MERKLIZE
set -eu
merklize=$1
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
head -c $((64 * 32)) /dev/urandom > "$dir/leaves"
unset MERKLIZE_VERBOSE MERKLIZE_DEVICE || true
"$merklize" devices | grep -q "Portable Computing Language" || { echo "SKIPPED: no PoCL device (install pocl-opencl-icd)"; exit 77; }
failures=0
fail() {
  echo "FAILED: $*"
  failures=$((failures + 1))
}

# run CASE ARGS...: merklize root ARGS... on the leaves with CASE's caches, stderr in CASE.err.
run() {
  name=$1
  shift
  MERKLIZE_CACHE_DIR=$dir/$name.cache POCL_CACHE_DIR=$dir/$name.pocl \
    "$merklize" root --device pocl "$@" "$dir/leaves" > "$dir/$name.out" 2> "$dir/$name.err" ||
    { cat "$dir/$name.err"; fail "merklize root $* failed"; }
}
notices() { grep -c '^merklize: compiling kernels for ' "$1" || true; }

run verbose -v
device=$(sed -n 's/^engine: device \(.*\): asked for.*/\1/p' "$dir/verbose.err")
[ -n "$device" ] || fail "-v names no device: $(cat "$dir/verbose.err")"
want="merklize: compiling kernels for $device (once; cached in $dir/verbose.cache)"
if [ "$(notices "$dir/verbose.err")" != 1 ] || ! grep -qxF "$want" "$dir/verbose.err"; then
  fail "with -v on a first run, stderr is not one line '$want': $(cat "$dir/verbose.err")"
else
  echo "ok: -v on a first run says: $want"
fi
grep -q '^program: jit' "$dir/verbose.err" || fail "the first run did not compile: $(cat "$dir/verbose.err")"

run verbose -v
grep -q '^program: cache' "$dir/verbose.err" || fail "the second run did not load the cache: $(cat "$dir/verbose.err")"
[ "$(notices "$dir/verbose.err")" = 0 ] || fail "the second run, from the cache, says it compiles: $(cat "$dir/verbose.err")"
[ "$(notices "$dir/verbose.err")" = 0 ] && echo "ok: a second run with -v loads the cache and says nothing of compiling"

run quiet
[ -s "$dir/quiet.err" ] && fail "without -v, stderr a pipe, a first run printed: $(cat "$dir/quiet.err")"
cmp -s "$dir/quiet.out" "$dir/verbose.out" || fail "the root without -v differs from the root with it"
[ -s "$dir/quiet.err" ] || echo "ok: without -v, stderr a pipe, a first run prints nothing on stderr"

MERKLIZE_VERBOSE=1 MERKLIZE_CACHE_DIR=$dir/env.cache POCL_CACHE_DIR=$dir/env.pocl \
  "$merklize" root --device pocl "$dir/leaves" > /dev/null 2> "$dir/env.err" || fail "MERKLIZE_VERBOSE=1 merklize root failed"
if [ "$(notices "$dir/env.err")" = 1 ]; then
  echo "ok: MERKLIZE_VERBOSE=1 without -v, stderr a pipe: the line"
else
  fail "MERKLIZE_VERBOSE=1 did not print the line once: $(cat "$dir/env.err")"
fi

if command -v script > /dev/null 2>&1; then
  # script(1) gives the command a terminal; what it printed there comes back on script's stdout.
  MERKLIZE_CACHE_DIR=$dir/tty.cache POCL_CACHE_DIR=$dir/tty.pocl \
    script -qec "'$merklize' root --device pocl '$dir/leaves'" /dev/null > "$dir/tty.out" 2>&1 ||
    fail "merklize root on a terminal failed: $(cat "$dir/tty.out")"
  if [ "$(tr -d '\r' < "$dir/tty.out" | grep -c '^merklize: compiling kernels for ')" = 1 ]; then
    echo "ok: without -v, stderr a terminal, a first run says it compiles"
  else
    fail "on a terminal a first run did not say it compiles: $(cat "$dir/tty.out")"
  fi
else
  echo "SKIPPED the terminal case: no script(1) (install bsdutils)"
fi
[ "$failures" = 0 ] || exit 1
