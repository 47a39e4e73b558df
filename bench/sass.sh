#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0 OR MIT
# On the GPU machine: the SASS of the Merkle kernels as NVIDIA's OpenCL compiles them, from the
# PTX that merklize_bench --build_log writes (merkle-1.bin), summarized by opcode.
set -uo pipefail
ptx=${1:-merkle-1.bin}
ptxas -arch=sm_90 -v "$ptx" -o /tmp/merkle.cubin 2>&1 | grep -E "registers|spill"
cuobjdump -sass /tmp/merkle.cubin > /tmp/merkle.sass
echo "SASS instructions by opcode (merkle_subtree):"
awk '/Function : merkle_subtree/{on=1} /Function : merkle_level_lanes/{on=0} on && /\/\*[0-9a-f]+\*\//{
  for (i = 1; i <= NF; ++i) if ($i ~ /^[A-Z][A-Z0-9_.]+$/ && $i != "P0") { split($i, a, "."); print a[1]; break } }' \
  /tmp/merkle.sass | sort | uniq -c | sort -rn | head -25
