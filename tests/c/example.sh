#!/bin/sh
# SPDX-License-Identifier: Apache-2.0 OR MIT
# examples/capi_example.c, the C example of docs/C_API.md, run on a file of leaves: its root and
# proof must be what `merklize root` and `merklize proof` print, and the proof must verify.
# Usage: example.sh MERKLIZE EXAMPLE
set -eu
merklize=$1 example=$2
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
head -c $((1000 * 32)) /dev/urandom > "$dir/leaves"
"$example" "$dir/leaves" 517 > "$dir/out" || { echo "FAILED: the example failed"; exit 1; }
printf '%s\n%s\nvalid\n' "$("$merklize" root --hash sha256 "$dir/leaves")" \
  "$("$merklize" proof --hash sha256 -i 517 "$dir/leaves")" > "$dir/expected"
if ! cmp -s "$dir/out" "$dir/expected"; then
  echo "FAILED: the example printed"; cat "$dir/out"; echo "merklize root and proof print"
  cat "$dir/expected"; exit 1
fi
if "$example" "$dir/missing" 0 2> "$dir/err"; then echo "FAILED: a missing file succeeded"; exit 1; fi
grep -q "cannot open $dir/missing" "$dir/err" ||
  { echo "FAILED: the error does not name the file:"; cat "$dir/err"; exit 1; }
echo "ok: the example's root and proof of leaf 517 are merklize root's and proof's, and verify"
