#!/bin/sh
# SPDX-License-Identifier: Apache-2.0 OR MIT
# libmerklize.so's dynamic symbols: exactly the functions include/merklize.h declares, each
# versioned MERKLIZE_<ABI> (cmake/merklize.map.in), the soname libmerklize.so.<ABI>, and nothing
# else exported but the C++ library's merklize:: symbols under MERKLIZE_CXX_<major>.<minor>.
# Usage: exports.sh HEADER LIBRARY
set -eu
header=$1 library=$2
command -v nm > /dev/null && command -v objdump > /dev/null ||
  { echo "SKIPPED: nm and objdump not found (install binutils)"; exit 77; }
abi=$(sed -n 's/^#define MERKLIZE_ABI_VERSION \([0-9]*\)$/\1/p' "$header")
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT

# The declared functions: the name before the "(" of each MERKLIZE_API declaration.
tr '\n' ' ' < "$header" | grep -o 'MERKLIZE_API[^;(]*(' | sed 's/.*[ *]\(merklize_[a-z0-9_]*\)($/\1/' |
  grep '^merklize_' | sort > "$dir/declared"
nm -D --defined-only "$library" | awk '$2 == "T" {print $3}' | grep '^merklize_' |
  sed "s/@@MERKLIZE_$abi\$//" | sort > "$dir/exported"
nm -D --defined-only "$library" | awk '$2 == "T" {print $3}' | grep '^merklize_' |
  grep -v "@@MERKLIZE_$abi\$" > "$dir/unversioned" || true

[ "$(wc -l < "$dir/declared")" -ge 40 ] ||
  { echo "FAILED: only $(wc -l < "$dir/declared") declarations read from $header"; exit 1; }
if ! diff "$dir/declared" "$dir/exported" > "$dir/diff"; then
  echo "FAILED: the exported C functions are not the declared ones (< declared, > exported):"
  cat "$dir/diff"
  exit 1
fi
if [ -s "$dir/unversioned" ]; then
  echo "FAILED: C functions without the version node MERKLIZE_$abi:"
  cat "$dir/unversioned"
  exit 1
fi
soname=$(objdump -p "$library" | awk '$1 == "SONAME" {print $2}')
[ "$soname" = "libmerklize.so.$abi" ] ||
  { echo "FAILED: the soname is '$soname', not libmerklize.so.$abi"; exit 1; }
# Every other dynamic symbol it defines is C++ of namespace merklize, under MERKLIZE_CXX_*.
nm -D --defined-only "$library" | awk '{print $NF}' | grep -v '^merklize_' |
  grep -v '@@MERKLIZE_CXX_[0-9]*\.[0-9]*$' | grep -v '^MERKLIZE_' > "$dir/others" || true
if [ -s "$dir/others" ]; then
  echo "FAILED: symbols exported beside the C ABI and the C++ library:"
  head -20 "$dir/others"
  exit 1
fi
if nm -DC --defined-only "$library" | grep -q 'merklize_capi'; then
  echo "FAILED: libmerklize's own C++ (merklize_capi) is exported"
  exit 1
fi
echo "ok: $(wc -l < "$dir/exported") C functions exported, each MERKLIZE_$abi, soname $soname"
