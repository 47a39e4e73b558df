#!/bin/sh
# SPDX-License-Identifier: Apache-2.0 OR MIT
# The ctest fixture merklize_installed: installs the build tree into PREFIX (emptied first), where
# the bindings' tests find libmerklize, merklize.h and merklize.pc as their users do.
# Usage: install_prefix.sh CMAKE BUILD_DIR PREFIX LIBDIR   (LIBDIR: CMAKE_INSTALL_LIBDIR)
set -eu
cmake=$1 build=$2 prefix=$3 libdir=$4
rm -rf "$prefix"
"$cmake" --install "$build" --prefix "$prefix" > "$prefix.log" 2>&1 || { cat "$prefix.log"; exit 1; }
for file in include/merklize.h "$libdir/pkgconfig/merklize.pc" "$libdir/libmerklize.so"; do
  [ -f "$prefix/$file" ] || { echo "FAILED: $file is not installed in $prefix"; exit 1; }
done
echo "ok: installed into $prefix"
