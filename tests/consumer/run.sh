#!/bin/sh
# SPDX-License-Identifier: Apache-2.0 OR MIT
# The installed package as a user meets it: installs the build tree into a temporary prefix,
# checks each file is where the README says, then builds tests/consumer/consumer.cpp against that
# prefix through find_package(merklize) (header-only, and with separate compilation) and through
# pkg-config, runs each on the same leaves and compares what they print with the installed
# `merklize root`.
# Usage: run.sh CMAKE CXX BUILD_DIR PKG_CONFIG PROGRAM...   (PROGRAM: the names installed in bin/)
set -eu
cmake=$1 cxx=$2 build=$3 pkg_config=$4
shift 4
here=$(cd "$(dirname "$0")" && pwd)
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
prefix=$dir/prefix

"$cmake" --install "$build" --prefix "$prefix" > "$dir/install.log" ||
  { cat "$dir/install.log"; exit 1; }
for file in include/merklize/merklize.hpp include/merklize/version.hpp \
  share/cmake/merklize/merklizeConfig.cmake share/cmake/merklize/merklizeConfigVersion.cmake \
  share/pkgconfig/merklize.pc share/doc/merklize/LICENSE-APACHE share/doc/merklize/LICENSE-MIT; do
  [ -f "$prefix/$file" ] || { echo "FAILED: $file is not installed"; exit 1; }
done
for program in "$@"; do
  [ -x "$prefix/bin/$program" ] || { echo "FAILED: bin/$program is not installed"; exit 1; }
done
echo "ok: installed into a temporary prefix: headers, CMake package, merklize.pc, licenses, $*"

# Every relative link of the installed documents leads to an installed file: the README's links
# to docs/ work where it is installed, not only in the source tree.
docs=$prefix/share/doc/merklize
for page in "$docs/README.md" "$docs"/docs/*.md; do
  [ -f "$page" ] || { echo "FAILED: ${page#"$prefix"/} is not installed"; exit 1; }
  # Markdown links to paths: ](docs/CLI.md) or ](docs/CLI.md#anchor); no URL, anchor or code.
  for link in $(grep -o ']([A-Za-z0-9_./-]*[)#]' "$page" | sed 's/^](//; s/[)#]$//' | sort -u); do
    [ -e "$(dirname "$page")/$link" ] ||
      { echo "FAILED: ${page#"$prefix"/} links to $link, which is not installed"; exit 1; }
  done
done
echo "ok: every relative link of the installed README and docs/ leads to an installed file"

head -c $((1000 * 32)) /dev/urandom > "$dir/leaves"
version=$(PKG_CONFIG_PATH=$prefix/share/pkgconfig "$pkg_config" --modversion merklize)
root=$("$prefix/bin/merklize" root "$dir/leaves")
want="merklize $version
$root"

check() { # how it was built, the program
  got=$("$2" "$dir/leaves") || { echo "FAILED: the program built $1 failed"; exit 1; }
  if [ "$got" != "$want" ]; then
    echo "FAILED: the program built $1 printed '$got', expected '$want'"
    exit 1
  fi
  echo "ok: built $1, the program prints merklize $version and the root the installed merklize root prints"
}

# find_package: the prefix must be where the package is found, not another install.
"$cmake" -S "$here" -B "$dir/cmake-build" -DCMAKE_PREFIX_PATH="$prefix" \
  -DCMAKE_CXX_COMPILER="$cxx" > "$dir/configure.log" 2>&1 || { cat "$dir/configure.log"; exit 1; }
found=$(sed -n 's/^merklize_DIR:PATH=//p' "$dir/cmake-build/CMakeCache.txt")
[ "$found" = "$prefix/share/cmake/merklize" ] ||
  { echo "FAILED: find_package(merklize) found '$found', not $prefix/share/cmake/merklize"; exit 1; }
"$cmake" --build "$dir/cmake-build" > "$dir/build.log" 2>&1 || { cat "$dir/build.log"; exit 1; }
check "with find_package(merklize)" "$dir/cmake-build/consumer"
check "with find_package(merklize) and MERKLIZE_SEPARATE_COMPILATION" "$dir/cmake-build/consumer_compiled"

# pkg-config: its include directory must be the prefix's.
export PKG_CONFIG_PATH="$prefix/share/pkgconfig"
includedir=$("$pkg_config" --variable=includedir merklize)
[ "$(cd "$includedir" && pwd -P)" = "$(cd "$prefix/include" && pwd -P)" ] ||
  { echo "FAILED: merklize.pc's includedir is '$includedir', not $prefix/include"; exit 1; }
flags=$("$pkg_config" --cflags --libs merklize)
# shellcheck disable=SC2086 # the flags are words
"$cxx" -std=c++17 -o "$dir/pkg-config-consumer" "$here/consumer.cpp" $flags ||
  { echo "FAILED: $cxx -std=c++17 consumer.cpp $flags"; exit 1; }
check "with pkg-config --cflags --libs merklize ($flags)" "$dir/pkg-config-consumer"
