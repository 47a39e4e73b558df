#!/bin/sh
# SPDX-License-Identifier: Apache-2.0 OR MIT
# merklize-mpi over 4 ranks (and 1, 2, and 3) prints the root `merklize root` prints, on PoCL, for
# files of awkward sizes, every node hash and shape, a fixed depth, and generated leaves; with
# --leaf-size, for data files whose leaves each rank hashes from its own blocks; and k-ary trees
# (--arity) of both.
# Usage: mpi_root.sh MPIEXEC MERKLIZE_MPI MERKLIZE
set -eu
mpiexec=$1 mpi=$2 merklize=$3
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
# Root may run this (CI containers); shared-memory single-copy needs ptrace rights containers lack.
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
export OMPI_MCA_btl_vader_single_copy_mechanism=none OMPI_MCA_rmaps_base_oversubscribe=1
export MERKLIZE_DEVICE=${MERKLIZE_DEVICE:-cpu}
failures=0
check() { # ranks, file, options...
  ranks=$1 file=$2
  shift 2
  want=$("$merklize" root "$@" "$file")
  got=$("$mpiexec" --oversubscribe -np "$ranks" "$mpi" "$@" "$file")
  if [ "$got" = "$want" ]; then
    echo "ok: $ranks ranks, $(wc -c < "$file") bytes, $*"
  else
    echo "FAILED: $ranks ranks, $file, $*: merklize-mpi printed '$got', merklize root '$want'"
    failures=$((failures + 1))
  fi
}
for n in 1 3 1000 4097; do
  head -c $((n * 32)) /dev/urandom > "$dir/leaves-$n"
done
check 4 "$dir/leaves-4097"
check 4 "$dir/leaves-4097" --hash blake3-parent
check 4 "$dir/leaves-4097" --hash sha256 --pad zero --depth 20
check 3 "$dir/leaves-1000" --hash blake3-parent --pad zero
check 4 "$dir/leaves-3" --hash blake3-parent
check 4 "$dir/leaves-1"
check 1 "$dir/leaves-1000"
# --leaf-size L: blocks of L bytes, the last one short, hashed into leaves on each rank's device.
head -c 100000 /dev/urandom > "$dir/data"
head -c 1 /dev/urandom > "$dir/data-1"
head -c 65536 /dev/urandom > "$dir/data-64k"
check 4 "$dir/data" --leaf-size 4096
check 4 "$dir/data" --leaf-size 1000 --hash blake3-parent
check 3 "$dir/data" --leaf-size 64 --hash sha256 --pad zero --salt 00ff
check 4 "$dir/data" --leaf-size 333 --leaf-hash sha256 --hash blake3 --pad zero --depth 20
check 4 "$dir/data-64k" --leaf-size 4096 --hash sha256
check 2 "$dir/data-64k" --leaf-size 1
check 4 "$dir/data-1" --leaf-size 4096
check 1 "$dir/data" --leaf-size 777 --leaf-hash blake3
# --arity K: k-ary trees, shards of k^S leaves; over leaves and over data blocks.
check 4 "$dir/leaves-4097" --arity 4
check 3 "$dir/leaves-4097" --arity 16 --hash sha256 --pad zero
check 4 "$dir/leaves-1000" --arity 2 --pad zero
check 4 "$dir/leaves-3" --arity 128
check 2 "$dir/leaves-1" --arity 8 --hash sha256
check 4 "$dir/data" --arity 8 --leaf-size 1000
check 3 "$dir/data" --arity 128 --leaf-size 64 --hash sha256 --pad zero --salt 00ff
check 4 "$dir/data-1" --arity 4 --leaf-size 4096
# --generate N: leaf i is i as 8 little-endian bytes, then 24 zero bytes.
perl -e 'print pack("Q<", $_), "\0" x 24 for 0 .. 5000' > "$dir/generated"
want=$("$merklize" root "$dir/generated")
got=$("$mpiexec" --oversubscribe -np 4 "$mpi" --generate 5001)
[ "$got" = "$want" ] && echo "ok: --generate 5001" ||
  { echo "FAILED: --generate 5001: '$got', merklize root '$want'"; failures=$((failures + 1)); }
want=$("$merklize" root --arity 4 "$dir/generated")
got=$("$mpiexec" --oversubscribe -np 4 "$mpi" --arity 4 --generate 5001)
[ "$got" = "$want" ] && echo "ok: --arity 4 --generate 5001" ||
  { echo "FAILED: --arity 4 --generate 5001: '$got', merklize root '$want'"; failures=$((failures + 1)); }
# Bad input fails on every rank with one clear message, and no hang.
head -c 33 /dev/urandom > "$dir/partial"
if "$mpiexec" --oversubscribe -np 4 "$mpi" "$dir/partial" > "$dir/out" 2> "$dir/err"; then
  echo "FAILED: a 33-byte file was accepted"; failures=$((failures + 1))
elif grep -q "not a multiple of 32" "$dir/err"; then
  echo "ok: a 33-byte file is refused: $(grep -m1 merklize-mpi "$dir/err")"
else
  echo "FAILED: no clear error for a 33-byte file:"; cat "$dir/err"; failures=$((failures + 1))
fi
# An empty data file fails on every rank with one clear message.
: > "$dir/empty"
if "$mpiexec" --oversubscribe -np 4 "$mpi" --leaf-size 64 "$dir/empty" > "$dir/out" 2> "$dir/err"; then
  echo "FAILED: an empty data file was accepted"; failures=$((failures + 1))
elif [ "$(grep -c 'is empty: a tree needs at least one data block' "$dir/err")" = 1 ]; then
  echo "ok: an empty data file is refused: $(grep -m1 merklize-mpi "$dir/err")"
else
  echo "FAILED: no clear error for an empty data file:"; cat "$dir/err"; failures=$((failures + 1))
fi
# A bad command line: exit status 2 and one message (from rank 0), before any work.
status=0
"$mpiexec" --oversubscribe -np 4 "$mpi" --hash md5 "$dir/leaves-3" > "$dir/out" 2> "$dir/err" ||
  status=$?
if [ "$status" = 2 ] && [ "$(grep -c 'unknown hash "md5"' "$dir/err")" = 1 ]; then
  echo "ok: a bad command line exits 2: $(grep -m1 merklize-mpi "$dir/err")"
else
  echo "FAILED: a bad command line exited $status:"; cat "$dir/err"; failures=$((failures + 1))
fi
for mistake in "--leaf-size 0|the leaf size is 0" "--leaf-size 64 --leaf-hash md5|unknown leaf hash" \
    "--salt 00|--salt requires --leaf-size" "--leaf-size 64 --generate 5|excludes" \
    "--arity 6|arity 6: a k-ary tree takes a power of two" "--arity 4 --depth 9|excludes" \
    "--arity 4 --hash blake3-parent|blake3-parent compresses two children only"; do
  args=${mistake%%|*} message=${mistake#*|} status=0
  # shellcheck disable=SC2086 # the options are words
  "$mpiexec" --oversubscribe -np 2 "$mpi" $args "$dir/data" > "$dir/out" 2> "$dir/err" || status=$?
  if [ "$status" = 2 ] && [ "$(grep -c -- "$message" "$dir/err")" = 1 ]; then
    echo "ok: $args exits 2: $(grep -m1 merklize-mpi "$dir/err")"
  else
    echo "FAILED: $args exited $status:"; cat "$dir/err"; failures=$((failures + 1))
  fi
done
# --help and --version need no MPI and exit 0.
if "$mpi" --help | grep -q "Usage: merklize-mpi" && [ "$("$mpi" --version)" = "merklize-mpi 0.2.0" ]; then
  echo "ok: --help and --version"
else
  echo "FAILED: merklize-mpi --help or --version"; failures=$((failures + 1))
fi
exit $((failures > 0))
