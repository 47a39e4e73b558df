# shellcheck shell=bash
# SPDX-License-Identifier: Apache-2.0 OR MIT
# Sourced by the A/B scripts (engine_ab.sh, multi_ab.sh): where the base (A) is.
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
