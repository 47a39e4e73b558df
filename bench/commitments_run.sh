#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0 OR MIT
# The commitments of other systems on the GPU machine (docs/FORMATS.md, "Commitments other systems
# publish"), each part logged to $OUT/commitments.log as it ends:
#   1. the commitment tests on the GPU (merklize_tests "[commitments]": Bitcoin's levels, the heap
#      arrays and Filecoin's streamed commitments bit for bit against the host references, every
#      buffer poisoned first), and the tool's answers on the published vectors;
#   2. whole processes, 5 runs each, inputs in /dev/shm: Filecoin's piece commitment of 1 GiB of
#      random data (a padded piece of 2 GiB), beside sha256sum of the same GiB (one core of
#      SHA-256, the hash the tree is made of); Bitcoin's merkle root of 2^22 txids (128 MiB);
#      OpenZeppelin's StandardMerkleTree of 2^16 (address, uint256) values, whose leaves and ABI
#      encoding are the host's (and its pair levels too until kernels/keccak.cl is in the build).
# Usage, from the project root:  bash bench/commitments_run.sh
set -uo pipefail
[ -f .device-debs/env.sh ] && source .device-debs/env.sh > /dev/null
OUT=${OUT:-/tmp/out}
mkdir -p "$OUT"
log=$OUT/commitments.log
say() { echo "== $*" | tee -a "$log"; }
nvidia-smi --query-gpu=name,driver_version --format=csv 2>/dev/null | tee "$log"
cmake -S . -B build -DCMAKE_BUILD_TYPE=Release -DMERKLIZE_AOT=OFF -DMERKLIZE_BUILD_BENCH=OFF \
  > "$OUT/build.log" 2>&1 &&
  cmake --build build -j16 --target merklize_cli merklize_tests >> "$OUT/build.log" 2>&1 ||
  { grep -B2 -A10 -m5 error "$OUT/build.log"; exit 1; }
export MERKLIZE_DEVICE=${MERKLIZE_DEVICE:-nvidia}
m=build/tools/merklize
# Seconds of wall time of each of 5 runs of a command (its output to /dev/null).
runs() {
  local times=""
  for _ in 1 2 3 4 5; do
    local start end
    start=$(date +%s.%N)
    "$@" > /dev/null || { echo "FAILED: $*"; return 1; }
    end=$(date +%s.%N)
    times="$times $(awk "BEGIN { printf \"%.3f\", $end - $start }")"
  done
  echo "$*:$times s"
}

say "1. the commitment tests on $MERKLIZE_DEVICE"
timeout 600 build/tests/merklize_tests "[commitments]" 2>&1 | tail -3 | tee -a "$log"
v=tests/vectors/commitments
python3 -c 'import json, sys; print("\n".join(json.load(open(sys.argv[1]))["txids_display"]))' \
  $v/bitcoin/b100000.json > /dev/shm/b100000.txt
echo "block 100000: $($m root --format bitcoin --display-order /dev/shm/b100000.txt)" \
  "(published f3e94742aca4b5ef85488dc37c06c3282295ffec960994b2c0d5ac2a25a95766)" | tee -a "$log"
head -c 1016 /dev/zero > /dev/shm/zeros1016
echo "1016 zero bytes: $($m root --format filecoin-tree-d --cid /dev/shm/zeros1016)" \
  "(published baga6ea4seaqb66wjlfkrbye6uqoemcyxmqylwmrm235uclwfpsyx3ge2imidoly)" | tee -a "$log"

say "2. whole processes"
head -c $((1 << 30)) /dev/urandom > /dev/shm/piece1g
head -c $((32 << 22)) /dev/urandom > /dev/shm/txids22
python3 - /dev/shm/oz16.json << 'EOF'
import json, random, sys
rng = random.Random(30)
values = [[f"0x{rng.randrange(2**160):040x}", str(rng.randrange(2**96))] for _ in range(1 << 16)]
json.dump({"leafEncoding": ["address", "uint256"], "values": values}, open(sys.argv[1], "w"))
EOF
runs $m root --format filecoin-tree-d /dev/shm/piece1g | tee -a "$log"
runs sha256sum /dev/shm/piece1g | tee -a "$log"
runs $m root --format bitcoin /dev/shm/txids22 | tee -a "$log"
runs $m root --format oz-standard /dev/shm/oz16.json | tee -a "$log"
rm -f /dev/shm/piece1g /dev/shm/txids22 /dev/shm/oz16.json /dev/shm/b100000.txt /dev/shm/zeros1016
