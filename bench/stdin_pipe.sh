#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0 OR MIT
# `cat F | merklize root -` (the host engine by default) against what a pipe of 1 GiB costs anyway,
# on the GPU machine or any other. F is 1 GiB of random bytes in /dev/shm. Beside it: cat alone
# (`cat F > /dev/null`), cat into b3sum, cat into pipe_read (bench/pipe_read.c: the pipe widened
# to 1 MiB and drained, hashing nothing: the floor of any reader), and merklize on the file's path.
# A reader of the pipe cannot beat pipe_read's time: that row is the floor.
# With a second merklize (BASELINE, built from an earlier commit), its stdin run goes in the
# same hyperfine call. Needs hyperfine, b3sum and cc.
#   bash bench/stdin_pipe.sh MERKLIZE [BASELINE_MERKLIZE] [DEVICE]   (DEVICE default auto)
set -euo pipefail
merklize=$(realpath "$1")
baseline=${2:+$(realpath "$2")}
device=${3:-auto}
shm=$(mktemp -d /dev/shm/merklize_stdin.XXXXXX)
trap 'rm -rf "$shm"' EXIT
f=$shm/gib
head -c $((1 << 30)) /dev/urandom > "$f"
cc -O2 -o "$shm/pipe_read" "$(dirname "$0")/pipe_read.c"

echo "== machine"
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>/dev/null || true
nproc; uptime
"$merklize" --version

echo "== the roots agree (file, stdin$([ -n "$baseline" ] && echo ', baseline stdin'))"
"$merklize" root --device "$device" "$f"
cat "$f" | "$merklize" root --device "$device" -
[ -n "$baseline" ] && cat "$f" | "$baseline" root --device "$device" -

echo "== where the time goes (--verbose: the engine chosen, read ahead, read and hashed)"
cat "$f" | "$merklize" root --device "$device" --verbose - 2>&1 > /dev/null

echo "== whole processes (hyperfine, 2 warm-ups, 10 runs)"
hyperfine -N -w 2 -r 10 --export-markdown "$shm/file.md" \
  "$merklize root --device $device $f" > /dev/null
commands=(
  "cat $f > /dev/null"
  "cat $f | b3sum"
  "cat $f | $shm/pipe_read 1048576"
  "cat $f | $merklize root --device $device -"
)
[ -n "$baseline" ] && commands+=("cat $f | $baseline root --device $device -")
hyperfine --shell=bash -w 2 -r 10 --export-markdown "$shm/stdin.md" "${commands[@]}" > /dev/null
cat "$shm/file.md" "$shm/stdin.md"
