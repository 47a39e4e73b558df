#!/bin/sh
# SPDX-License-Identifier: Apache-2.0 OR MIT
# Every runner of `merklize root` and `merklize proof` (tools/dispatch.cpp's tables), and the
# refusals in front of them, over small awkward inputs (1, 3, 5 and 17 leaves, data of 100 and
# 5000 bytes, a log's entries, OpenZeppelin values, txids): one transcript of each command's
# exit status, stdout, stderr and the files it wrote, so that two builds' transcripts can be
# diffed byte for byte (the dispatch moved from option if-chains to a table, and nothing a user
# sees may change).
# Usage: cli_dispatch_cases.sh MERKLIZE TRANSCRIPT
#        cli_dispatch_cases.sh MERKLIZE --check EXPECTED   (the ctest: exit 1 on any difference)
# Exit 77 (skipped) where no OpenCL device is found.
set -eu
merklize=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
mode=write
if [ "$2" = --check ]; then
  mode=check
  expected=$(cd "$(dirname "$3")" && pwd)/$(basename "$3")
  transcript=$(mktemp)
else
  transcript=$(cd "$(dirname "$2")" && pwd)/$(basename "$2")
fi
dir=$(mktemp -d)
trap 'rm -rf "$dir"; [ "$mode" = write ] || rm -f "$transcript"' EXIT
if ! command -v python3 > /dev/null; then
  echo "SKIPPED: python3 makes the inputs (install python3)"
  exit 77
fi
if ! "$merklize" devices > /dev/null 2>&1; then
  echo "SKIPPED: no OpenCL device ('merklize devices' failed; install pocl-opencl-icd)"
  exit 77
fi
export MERKLIZE_CACHE_DIR="${MERKLIZE_CACHE_DIR-$dir/cache}"
unset MERKLIZE_DEVICE
cd "$dir"

# Inputs, the same bytes every time: SHA-256 in counter mode.
python3 - << 'EOF'
import hashlib, struct
def stream(tag, n):
    out = b""
    i = 0
    while len(out) < n:
        out += hashlib.sha256(tag.encode() + struct.pack("<I", i)).digest()
        i += 1
    return out[:n]
for leaves in (1, 3, 5, 17):
    open(f"l{leaves}.bin", "wb").write(stream(f"leaves{leaves}", 32 * leaves))
open("odd.bin", "wb").write(stream("odd", 33))
open("empty.bin", "wb").write(b"")
open("d100.bin", "wb").write(stream("data", 100))
open("d5000.bin", "wb").write(stream("data", 5000))
open("d8192.bin", "wb").write(stream("data", 8192))
open("log.txt", "wb").write(b"first entry\nsecond\n\nfourth, after an empty one")
open("log.lp", "wb").write(b"".join(struct.pack(">I", len(e)) + e for e in (b"a", b"", b"ccc")))
open("bad.lp", "wb").write(b"\x00\x00\x00\x09abc")
open("oz.json", "w").write('{"leafEncoding": ["address", "uint256"], "values": ['
    '["0x1111111111111111111111111111111111111111", "5000000000000000000"], '
    '["0x2222222222222222222222222222222222222222", "2500000000000000000"], '
    '["0x3333333333333333333333333333333333333333", "7"]]}')
open("txids.txt", "w").write("".join(stream("tx", 96)[i:i + 32][::-1].hex() + "\n"
                                     for i in (0, 32, 64)))
EOF

: > "$transcript"
case_number=0
# One command line: its status, stdout, stderr, then any file it wrote (out.*), in the transcript.
run() {
  case_number=$((case_number + 1))
  rm -f out.*
  status=0
  "$merklize" "$@" > stdout 2> stderr < "${stdin:-/dev/null}" || status=$?
  {
    echo "### $case_number: merklize $*${stdin:+ < $stdin}"
    echo "exit $status"
    echo "--- stdout"
    cat stdout
    echo "--- stderr"
    cat stderr
    for written in out.*; do
      [ -e "$written" ] || continue
      echo "--- $written"
      od -An -tx1 -v "$written" | sha256sum
    done
  } >> "$transcript"
}

# ---- root: the streamed runner (host or device), presets and refusals ----
for n in 1 3 5 17; do run root "l$n.bin"; done
run root --device pocl l5.bin
run root --device host l17.bin
run root --hash sha256 --pad zero --depth 5 l5.bin
run root --hash keccak256 --pad zero l17.bin
run root --hash rfc6962 l3.bin
run root --ssz-list 20 l5.bin
run root --ssz-list 2 l3.bin
run root --ssz-vector l5.bin
run root --mix-in-length 5 --hash sha256 --pad zero --depth 3 l5.bin
run root --mix-in-length 5 l5.bin
run root --hash rfc6962 --pad zero l3.bin
run root --depth 3 l3.bin
run root odd.bin
run root missing.bin
run root empty.bin
run root --hash sha256 --pad zero --depth 2 empty.bin
stdin=l5.bin run root -
run root --chunk-log2 1 l17.bin
# ---- root: blocks, k-ary trees, on one device ----
run root --leaf-size 7 d100.bin
run root --leaf-size 7 --leaf-hash sha256 --salt 00ff d100.bin
run root --leaf-size 32 --hash sha256 --pad zero --depth 3 d100.bin
run root --leaf-size 0 d100.bin
run root --leaf-size 7 --leaf-hash md5 d100.bin
run root --leaf-size 4 --salt zz d100.bin
run root --salt 00 l3.bin
run root --arity 4 l17.bin
run root --arity 16 --pad zero l17.bin
run root --arity 2 l5.bin
run root --arity 16 --leaf-size 3 d100.bin
run root --arity 3 l17.bin
run root --arity 4 --hash rfc6962 l17.bin
run root --arity 4 --salt 00 l17.bin
run root --arity 4 odd.bin
stdin=d100.bin run root --leaf-size 9 -
# ---- root: several devices ----
run root --devices 0:0,0:0 l17.bin
run root --devices 0:0,0:0 --shard-log2 2 l17.bin
run root --devices 0:0,0:0 --ssz-list 20 l5.bin
run root --devices 0:0,0:0 odd.bin
run root --devices 0:0,0:0 empty.bin
run root --devices 0:0,0:0 --leaf-size 5 d100.bin
run root --devices 0:0,0:0 --leaf-size 5 --leaf-hash bogus d100.bin
run root --devices 0:0,0:0 --arity 4 l17.bin
run root --devices 0:0,0:0 --arity 4 --leaf-size 3 d100.bin
run root --devices 0:0,0:0 --arity 4 --shard-log2 3 l17.bin
run root --devices 0:0,0:0 --arity 4 --salt 00 l17.bin
run root --devices 0:0,0:0 --salt 00 l17.bin
run root --devices 0:0,0:0 --arity 5 l17.bin
# ---- root: a log's entries ----
run root --log --entries lines log.txt
run root --log log.txt
run root --log --entries length-prefixed log.lp
run root --log --entries length-prefixed bad.lp
run root --log --entries lines empty.bin
# ---- root: --format rows ----
run root --format dm-verity --salt 00112233 --uuid 12345678-1234-1234-1234-123456789abc \
  --hash-output out.hash d8192.bin
run root --format dm-verity --salt - --no-superblock --data-block-size 1024 d8192.bin
run root --format dm-verity --salt - d5000.bin
run root --format dm-verity --salt 00 --no-superblock --uuid 12345678-1234-1234-1234-123456789abc \
  d5000.bin
run root --format fs-verity --tree-output out.tree d5000.bin
run root --format fs-verity --block-size 1000 d5000.bin
run root --format bao-outboard --outboard out.bao d5000.bin
run root --format oz-standard --dump out.dump oz.json
run root --format oz-standard --no-sort-leaves oz.json
run root --format bitcoin l3.bin
run root --format bitcoin --display-order txids.txt
run root --format bitcoin empty.bin
run root --format filecoin-tree-d d5000.bin
run root --format filecoin-tree-d --cid d100.bin
run root --format nope d100.bin
run root --format fs-verity --cid d100.bin
run root --format bitcoin --salt 00 l3.bin
run root --format bao-outboard --display-order d100.bin
# ---- proof: every runner ----
run proof -i 0 l1.bin
run proof -i 2 l3.bin
run proof -i 4 --hash sha256 l5.bin
run proof -i 16 -o out.proof l17.bin
run proof -i 5 l5.bin
run proof -i 0 odd.bin
run proof --ssz-list 20 -i 1 l5.bin
run proof --ssz-list 4 -i 1 l5.bin
run proof --hash sha256 --pad zero --depth 4 --mix-in-length 5 -i 1 l5.bin
run proof --arity 4 -i 9 l17.bin
run proof --arity 16 -i 3 l17.bin
run proof --arity 2 -i 3 l5.bin
run proof --arity 4 --leaf-size 3 -i 5 d100.bin
run proof --arity 4 -i 99 l17.bin
run proof --arity 6 -i 1 l17.bin
run proof --leaf-size 7 -i 3 d100.bin
run proof --leaf-size 7 -i 100 d100.bin
run proof --leaf-size 7 --leaf-hash sha256 --salt 00 -i 0 d100.bin
run proof --leaf-size 7 --leaf-hash nope -i 0 d100.bin
stdin=d100.bin run proof --leaf-size 7 -i 20 -
run proof --log --entries lines -i 1 log.txt
run proof --log --entries lines -i 9 log.txt
run proof --log -i 0 log.txt
run proof --format oz-standard -i 1 oz.json
run proof --format oz-standard -i 0,2 oz.json
run proof --format oz-standard -i 3 oz.json
run proof --format bitcoin -i 2 l3.bin
run proof --format bitcoin -i 0,1 l3.bin
run proof --format filecoin-tree-d -i 0 d100.bin
run proof --format nope -i 0 d100.bin
run proof -i 0,1 l3.bin
run proof --salt 00 -i 0 l3.bin
run proof --ssz-list 20 --log --entries lines -i 0 log.txt

echo "$case_number command lines"
if [ "$mode" = check ]; then
  if ! diff -u "$expected" "$transcript"; then
    echo "FAILED: the transcript differs from $expected (above)"
    exit 1
  fi
  echo "ok: the transcript is $expected's, byte for byte"
fi
