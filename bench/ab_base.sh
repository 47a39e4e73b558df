# shellcheck shell=bash
# SPDX-License-Identifier: Apache-2.0 OR MIT
# Sourced by the A/B scripts (ab_builds.sh, ab_updates.sh, ab_cli.sh): their setup, where the
# base (A) is, and how both sides are built.
#   ab_setup NAME SCRATCH [BASE_TREE]
# sets the GPU machine's environment, $OUT (default /tmp/out), the log $log ($OUT/NAME.log,
# emptied) and $base (ab_base_tree).
#   ab_build SOURCE_DIR BUILD_LOG TARGET...
# builds the targets in SOURCE_DIR/build-ab (Release, no AOT), or shows the first errors and exits.
#   ab_gpu_tests TAGS
# runs B's merklize_gpu_test and merklize_tests TAGS (built by ab_build) on the GPU, logging each
# one's last lines; nothing where AB_TESTS_DONE is set (a run of several scripts tested once).
#   ab_hyperfine HYPERFINE_ARGS...
# times the commands (-n NAME COMMAND ..., A's beside B's) with hyperfine, 2 warm-ups and 10 runs,
# into $OUT, and logs each row's times side by side with B / A (bench/ab_table.py).
#   ab_processes FILE NAME...
# for each NAME, a key of the associative array `runs` (merklize's arguments before FILE): checks
# that A and B print the same, then times both sides' whole processes (ab_hyperfine).
#   ab_base_tree LOG SCRATCH [BASE_TREE]
# sets $base to BASE_TREE, a source tree of the base commit; without it, to SCRATCH holding the
# commit $BASE (default: where this branch left main, `git merge-base HEAD main`) exported with
# git archive, which needs .git. Logs A, B and the GPUs to LOG.
ab_base_tree() {
  local log=$1 scratch=$2 commit
  base=${3:-}
  if [ -z "$base" ]; then
    commit=${BASE:-$(git merge-base HEAD main)} || { echo "no base: pass BASE_TREE"; exit 1; }
    base=$scratch
    rm -rf "$base" && mkdir -p "$base"
    git archive "$commit" | tar -x -C "$base" || exit 1
    echo "A: $commit" | tee -a "$log"
  fi
  base=$(cd "$base" && pwd)
  echo "A: $base, B: $PWD" | tee -a "$log"
  nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>/dev/null | tee -a "$log"
}

ab_setup() {
  export MERKLIZE_OCL=${MERKLIZE_OCL:-nvidia}
  [ -f .device-debs/env.sh ] && source .device-debs/env.sh > /dev/null
  OUT=${OUT:-/tmp/out}
  mkdir -p "$OUT"
  log=$OUT/$1.log
  : > "$log"
  ab_base_tree "$log" "$2" "${3:-}"
}

ab_build() {
  local dir=$1 build_log=$2
  shift 2
  cmake -S "$dir" -B "$dir/build-ab" -DCMAKE_BUILD_TYPE=Release -DMERKLIZE_AOT=OFF \
    > "$build_log" 2>&1 &&
    cmake --build "$dir/build-ab" -j "$(nproc)" --target "$@" >> "$build_log" 2>&1 ||
    { grep -B2 -A8 -m5 error "$build_log"; exit 1; }
}

ab_gpu_tests() {
  [ -n "${AB_TESTS_DONE:-}" ] && return
  echo "B merklize_gpu_test: $(timeout 300 build-ab/tests/merklize_gpu_test 2>&1 | tail -1)" |
    tee -a "$log"
  echo "B $1 on the GPU:" \
    "$(timeout 500 build-ab/tests/merklize_tests "$1" 2>&1 | tail -2 | tr '\n' ' ')" | tee -a "$log"
}

ab_processes() {
  local file=$1 name a b args=()
  shift
  for name in "$@"; do
    a=$("$base/build-ab/tools/merklize" ${runs[$name]} "$file" | md5sum)
    b=$(build-ab/tools/merklize ${runs[$name]} "$file" | md5sum)
    echo "$name: A and B $([ "$a" = "$b" ] && echo agree || echo DIFFER)" | tee -a "$log"
    args+=(-n "A $name" "$base/build-ab/tools/merklize ${runs[$name]} $file"
      -n "B $name" "$PWD/build-ab/tools/merklize ${runs[$name]} $file")
  done
  ab_hyperfine "${args[@]}"
}

ab_hyperfine() {
  hyperfine -N -w 2 -r 10 --export-json "$OUT/hyperfine.json" "$@" > "$OUT/hyperfine.log" 2>&1
  python3 bench/ab_table.py --hyperfine "$OUT/hyperfine.json" process/ > "$OUT/rows.txt"
  python3 bench/ab_table.py "$OUT/rows.txt" | tee -a "$log"
}
