#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0 OR MIT
# Where a small command's time goes: `merklize root --verbose` of 2 leaves and of FILE prints the
# engine chosen and a line per phase (discovery, context, programs, input and kernels, output);
# hyperfine gives the whole process, so whole - total = the loader before main and the exit.
# Also the pipe's own speed with its default buffer and widened to 1 MiB (bench/pipe_read.c).
#   bash bench/startup.sh FILE [DEVICE]
set -uo pipefail
BUILD=${BUILD:-build}
merklize=$(realpath "$BUILD/tools/merklize")
file=$1
dev=(); [ $# -gt 1 ] && dev=(--device "$2")
two=$(mktemp); head -c 64 /dev/zero > "$two"
"$merklize" root "${dev[@]}" "$two" > /dev/null
for f in "$two" "$two" "$two" "$file" "$file"; do
  "$merklize" root "${dev[@]}" --verbose "$f" 2>&1 >/dev/null | grep -E "engine|phase|total"
done
hyperfine -N -w 1 -r 8 "$merklize root ${dev[*]} $two" "$merklize devices" 2>&1 | grep -E "Time|±"
cc -O2 -o /tmp/pipe_read "$(dirname "$0")/pipe_read.c"
for size in "" 1048576 "" 1048576; do
  /usr/bin/time -f "pipe ${size:-default}: %e s" bash -c "cat $file | /tmp/pipe_read $size" 2>&1 |
    grep pipe
done
rm -f "$two"
