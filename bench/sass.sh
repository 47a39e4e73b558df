#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0 OR MIT
# On the GPU machine: the SASS of a program's kernels as NVIDIA's OpenCL compiles them, from the
# PTX that `merklize_bench --build_log=...` writes (merkle.bin, merkle_level.bin,
# merkle_levels.bin) or `hash_bench --build_log=...` (hash-<strategy>.bin), summarized by opcode.
# Any machine with ptxas and cuobjdump can read a PTX brought back from the GPU machine.
set -uo pipefail
ptx=${1:-merkle_levels.bin}
export PATH=$PATH:/usr/local/cuda/bin
# The program binary is the PTX text with a NUL at its end, which ptxas refuses.
tr -d '\000' < "$ptx" > /tmp/merkle.ptx
ptxas -arch=sm_90 -v /tmp/merkle.ptx -o /tmp/merkle.cubin 2>&1 | grep -E "registers|spill|error"
cuobjdump -sass /tmp/merkle.cubin > /tmp/merkle.sass
# Each kernel's instructions by opcode, and its total on the integer ALU pipe (SHF, LOP3, IADD3,
# PRMT, ...; IMAD and the other FMA-pipe, memory and control instructions apart).
for function in $(awk '/Function : /{print $3}' /tmp/merkle.sass); do
  awk -v f="$function" '/Function : /{on = ($3 == f)} on && /\/\*[0-9a-f]+\*\//{
    for (i = 1; i <= NF; ++i) if ($i ~ /^[A-Z][A-Z0-9_.]+$/ && $i != "P0") { split($i, a, "."); print a[1]; break } }' \
    /tmp/merkle.sass | sort | uniq -c | sort -rn > /tmp/merkle.ops
  alu=$(awk '$2 ~ /^(SHF|LOP3|IADD3|PRMT|SHL|SHR|LOP|IADD|ISETP|SEL)$/ {n += $1} END {print n + 0}' /tmp/merkle.ops)
  echo "$function: $(awk '{n += $1} END {print n}' /tmp/merkle.ops) instructions, $alu on the ALU pipe:" \
    $(head -8 /tmp/merkle.ops | awk '{printf "%s %s, ", $2, $1}')
done
