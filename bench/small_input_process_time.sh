#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0 OR MIT
# What a small input costs a whole merklize process under --device auto, which should open no
# OpenCL driver it will not use: merklize root of 64 bytes of leaves, --format fs-verity and
# dm-verity of one 4 KiB block, and b3sum of 4 KiB, each of the given programs side by side in
# one hyperfine run (a build before a change and one after, say). Prints hyperfine's table.
#
#   bench/small_input_process_time.sh MERKLIZE [MERKLIZE...]
# Needs hyperfine.
set -euo pipefail
[ $# -ge 1 ] || { echo "usage: $0 MERKLIZE [MERKLIZE...]" >&2; exit 2; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
head -c 64 /dev/urandom >"$work/leaves"
head -c 4096 /dev/urandom >"$work/block"
echo "$(nproc) cores ($(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs)), $(date -u +%Y-%m-%d)"
for task in "root $work/leaves" "root --format fs-verity $work/block" \
  "root --format dm-verity --salt - --no-superblock $work/block" "b3sum $work/block"; do
  commands=()
  for m in "$@"; do commands+=("$(realpath "$m") $task"); done
  hyperfine -N --warmup 3 --runs 20 --style basic --export-markdown "$work/table.md" \
    "${commands[@]}" >/dev/null
  cat "$work/table.md"
done
