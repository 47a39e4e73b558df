#!/bin/sh
# SPDX-License-Identifier: Apache-2.0 OR MIT
# The installed package as a user meets it: installs the build tree into a temporary prefix,
# checks each file is where the README says, then builds tests/consumer/consumer.cpp against that
# prefix through find_package(merklize) (header-only, with separate compilation, and linking
# merklize::merklize_shared) and through pkg-config, and tests/consumer/consumer.c, the C program,
# through pkg-config (-lmerklize, shared and static) and CMake (merklize::merklize_shared and
# merklize::merklize_static); runs each on the same leaves and compares what they print with the
# installed `merklize root`.
# The prefix is made as packagers split it: --component merklize_runtime and merklize_development,
# each also installed alone and checked whole. Then a Go program (go/) and a Rust program (rust/),
# outside the repository as bindings/go/README.md and bindings/rust/README.md have them built,
# linking libmerklize.so and libmerklize.a; skipped (77, after the C and C++ checks) where go or
# cargo is missing. Cargo's target folder is kept in BUILD_DIR/tests/consumer-caches.
# Usage: run.sh CMAKE CXX CC BUILD_DIR PKG_CONFIG LIBDIR PROGRAM...
#   (LIBDIR: the lib directory under the prefix; PROGRAM: the names installed in bin/)
set -eu
cmake=$1 cxx=$2 cc=$3 build=$4 pkg_config=$5 libdir=$6
shift 6
here=$(cd "$(dirname "$0")" && pwd)
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
prefix=$dir/prefix

# The two components as packagers split them: each installed alone into a prefix of its own is
# whole there (no link to a file it leaves out), and both together make the prefix tested below.
abi=$(sed -n 's/^#define MERKLIZE_ABI_VERSION \([0-9]*\)$/\1/p' "$here/../../include/merklize.h")
for component in merklize_runtime merklize_development; do
  for into in "$dir/$component" "$prefix"; do
    "$cmake" --install "$build" --prefix "$into" --component $component > "$dir/install.log" 2>&1 ||
      { cat "$dir/install.log"; echo "FAILED: cmake --install --component $component"; exit 1; }
  done
  dangling=$(find "$dir/$component" -xtype l)
  [ -z "$dangling" ] || { echo "FAILED: --component $component alone installs links to nothing: $dangling"; exit 1; }
done
for file in bin/merklize "$libdir/libmerklize.so.$abi"; do
  [ -f "$dir/merklize_runtime/$file" ] || { echo "FAILED: --component merklize_runtime installs no $file"; exit 1; }
done
for file in include/merklize.h "$libdir/libmerklize.so" "$libdir/libmerklize.so.$abi" "$libdir/libmerklize.a"; do
  [ -f "$dir/merklize_development/$file" ] || { echo "FAILED: --component merklize_development installs no $file"; exit 1; }
done
echo "ok: each component alone is whole: merklize_runtime (bin/merklize, libmerklize.so.$abi), merklize_development (headers, libmerklize.so and the library it links, libmerklize.a)"
for file in include/merklize/merklize.hpp include/merklize/version.hpp include/merklize.h \
  "$libdir/libmerklize.so" "$libdir/libmerklize.so.$abi" "$libdir/libmerklize.a" \
  "$libdir/cmake/merklize/merklizeConfig.cmake" "$libdir/cmake/merklize/merklizeConfigVersion.cmake" \
  "$libdir/pkgconfig/merklize.pc" share/doc/merklize/LICENSE-APACHE share/doc/merklize/LICENSE-MIT; do
  [ -f "$prefix/$file" ] || { echo "FAILED: $file is not installed"; exit 1; }
done
for program in "$@"; do
  [ -x "$prefix/bin/$program" ] || { echo "FAILED: bin/$program is not installed"; exit 1; }
done
echo "ok: installed into a temporary prefix: headers, libmerklize.so.$abi and .a, CMake package, merklize.pc, licenses, $*"

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
version=$(PKG_CONFIG_PATH=$prefix/$libdir/pkgconfig "$pkg_config" --modversion merklize)
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
[ "$found" = "$prefix/$libdir/cmake/merklize" ] ||
  { echo "FAILED: find_package(merklize) found '$found', not $prefix/$libdir/cmake/merklize"; exit 1; }
"$cmake" --build "$dir/cmake-build" > "$dir/build.log" 2>&1 || { cat "$dir/build.log"; exit 1; }
check "with find_package(merklize)" "$dir/cmake-build/consumer"
check "with find_package(merklize) and MERKLIZE_SEPARATE_COMPILATION" "$dir/cmake-build/consumer_compiled"
check "with find_package(merklize), linking merklize::merklize_shared" "$dir/cmake-build/consumer_shared"
check "from C with find_package(merklize), linking merklize::merklize_shared" "$dir/cmake-build/c_consumer_shared"
check "from C with find_package(merklize), linking merklize::merklize_static" "$dir/cmake-build/c_consumer_static"

# pkg-config: its include directory must be the prefix's.
export PKG_CONFIG_PATH="$prefix/$libdir/pkgconfig"
includedir=$("$pkg_config" --variable=includedir merklize)
[ "$(cd "$includedir" && pwd -P)" = "$(cd "$prefix/include" && pwd -P)" ] ||
  { echo "FAILED: merklize.pc's includedir is '$includedir', not $prefix/include"; exit 1; }
flags=$("$pkg_config" --cflags --libs merklize)
# shellcheck disable=SC2086 # the flags are words
"$cxx" -std=c++17 -o "$dir/pkg-config-consumer" "$here/consumer.cpp" $flags ||
  { echo "FAILED: $cxx -std=c++17 consumer.cpp $flags"; exit 1; }
# -lmerklize is in the flags: where the linker keeps it (no --as-needed), it is loaded too.
LD_LIBRARY_PATH="$prefix/$libdir" check "with pkg-config --cflags --libs merklize ($flags)" "$dir/pkg-config-consumer"

# C, merklize.h alone: -lmerklize from pkg-config, the shared library found at run time through
# LD_LIBRARY_PATH as an installed one is through ld.so's paths; then the static library, with
# what merklize.pc's Libs.private adds for it.
# shellcheck disable=SC2086 # the flags are words
"$cc" -std=c99 -Wall -Wextra -pedantic -Werror -o "$dir/c-consumer" "$here/consumer.c" $flags ||
  { echo "FAILED: $cc -std=c99 consumer.c $flags"; exit 1; }
LD_LIBRARY_PATH="$prefix/$libdir" check "from C with pkg-config --cflags --libs merklize ($flags)" "$dir/c-consumer"
static_flags=$("$pkg_config" --static --libs merklize | sed 's/-lmerklize/-Wl,-Bstatic -lmerklize -Wl,-Bdynamic/')
# shellcheck disable=SC2086
"$cc" -std=c99 -o "$dir/c-consumer-static" "$here/consumer.c" $("$pkg_config" --cflags merklize) $static_flags ||
  { echo "FAILED: $cc -std=c99 consumer.c ... $static_flags"; exit 1; }
if objdump -p "$dir/c-consumer-static" | grep -q 'NEEDED.*libmerklize'; then
  echo "FAILED: the program linked with libmerklize.a needs libmerklize.so"; exit 1
fi
check "from C with libmerklize.a and pkg-config --static ($static_flags)" "$dir/c-consumer-static"

sh "$here/bindings.sh" "$prefix" "$libdir" "$build/tests/consumer-caches" "$dir" "$want"
