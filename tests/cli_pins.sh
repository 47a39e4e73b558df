#!/bin/sh
# SPDX-License-Identifier: Apache-2.0 OR MIT
# The command line's verifiers against hostile input: a proof relabelled from a real sha256
# zero-shape tree of 3 leaves as shape promote (its inner node SHA-256(leaf 2 || 0^32) passes as
# "leaf 2") verifies unpinned, as docs/PROOFS.md says, and is refused once --pad pins the shape;
# --arity pins a k-ary proof's arity; PROOF, OPENINGS and CAP are refused at their limits, in
# bounded memory, when they are /dev/zero or an endless pipe (under ulimit -v, as
# test_cli_memory.cpp runs merklize); and --leaf-domain separates a data tree's leaves from its
# nodes, which without it a file and the file of its leaf hashes share. The trees are made here
# with Python's hashlib.
# Usage: cli_pins.sh MERKLIZE TESTS_DIR (tests/, for poseidon2_model.py and its vectors)
set -eu
merklize=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
tests=$(cd "$2" && pwd)
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
if ! command -v python3 > /dev/null; then
  echo "SKIPPED: python3 makes the trees (install python3)"
  exit 77
fi
failures=0
fail() {
  echo "FAILED: $*"
  failures=$((failures + 1))
}

# expect STATUS PATTERN COMMAND...: COMMAND exits STATUS, its stdout and stderr holding PATTERN.
expect() {
  want=$1 pattern=$2
  shift 2
  set +e
  "$@" > "$dir/out" 2>&1
  got=$?
  set -e
  if [ "$got" != "$want" ] || ! grep -q -- "$pattern" "$dir/out"; then
    fail "$* exited $got (expected $want), output: $(head -c 400 "$dir/out") (expected '$pattern')"
  fi
}

# The sha256 zero-shape tree of 3 leaves and the relabelled promote proof of "leaf 2".
python3 - "$dir" << 'EOF'
import hashlib, json, sys
d = sys.argv[1]
h = lambda b: hashlib.sha256(b).digest()
leaves = [h(bytes([i])) for i in range(3)]
n0, n1 = h(leaves[0] + leaves[1]), h(leaves[2] + bytes(32))
root = h(n0 + n1)
proof = {"format": "merklize-proof", "version": 1, "kind": "inclusion", "hash": "sha256",
         "shape": "promote", "leaf_count": 3, "depth": 2, "index": 2, "siblings": [n0.hex()]}
open(d + "/forged.json", "w").write(json.dumps(proof, separators=(",", ":")))
open(d + "/inner", "w").write(n1.hex())
open(d + "/root", "w").write(root.hex())
# A k-ary proof: leaf 1 of the sha256 4-ary tree of 2 leaves.
kleaves = [h(b"a"), h(b"b")]
kroot = h(kleaves[0] + kleaves[1])
kary = {"kind": "kary-inclusion", "arity": 4, "hash": "sha256", "pad": "promote",
        "leaf_count": 2, "index": 1, "siblings": [[kleaves[0].hex()]]}
open(d + "/kary.json", "w").write(json.dumps(kary, separators=(",", ":")))
open(d + "/kleaf", "w").write(kleaves[1].hex())
open(d + "/kroot", "w").write(kroot.hex())
# 256 bytes of data, the 128 bytes of its four SHA-256 leaves of 64-byte blocks, and the root
# of the tree over the data's separated leaves, SHA-256(tag || block).
data = bytes(range(256))
open(d + "/data", "wb").write(data)
open(d + "/leaf-hashes", "wb").write(b"".join(h(data[i:i + 64]) for i in range(0, 256, 64)))
tag = h(b"merklize separated leaf v1")
level = [h(tag + data[i:i + 64]) for i in range(0, 256, 64)]
while len(level) > 1:
    level = [h(level[i] + level[i + 1]) for i in range(0, len(level), 2)]
open(d + "/separated-root", "w").write(level[0].hex())
EOF
inner=$(cat "$dir/inner") root=$(cat "$dir/root")

# The proof alone binds no shape: accepted, as docs/PROOFS.md says; everything but the shape
# pinned, accepted; the shape pinned, refused.
expect 0 "valid: leaf 2 of 3 (sha256, promote)" "$merklize" verify "$dir/forged.json" "$inner" "$root"
expect 0 "valid: leaf 2 of 3" \
  "$merklize" verify --hash sha256 --leaves 3 --depth 2 --arity 2 "$dir/forged.json" "$inner" "$root"
expect 1 "invalid proof: the proof is for shape promote, not zero" \
  "$merklize" verify --hash sha256 --pad zero --leaves 3 --depth 2 "$dir/forged.json" "$inner" "$root"
expect 1 "the proof is for arity 2, not 4" "$merklize" verify --arity 4 "$dir/forged.json" "$inner" "$root"
expect 2 "--arity takes the tree's children per node, 2 to 128, not 1" \
  "$merklize" verify --arity 1 "$dir/forged.json" "$inner" "$root"
kleaf=$(cat "$dir/kleaf") kroot=$(cat "$dir/kroot")
expect 0 "valid: leaf 1 of 2 (sha256, promote, arity 4)" \
  "$merklize" verify --arity 4 --depth 1 --leaves 2 "$dir/kary.json" "$kleaf" "$kroot"
expect 1 "the proof is for arity 4, not 2" "$merklize" verify --arity 2 "$dir/kary.json" "$kleaf" "$kroot"
expect 1 "the proof is for a root of depth 1, not 2" \
  "$merklize" verify --depth 2 "$dir/kary.json" "$kleaf" "$kroot"
"$merklize" verify --help > "$dir/help"
grep -q "a proof relabelled with other values can verify" "$dir/help" ||
  fail "verify --help does not say what a proof alone binds"

# Bounded reads: an endless input is refused at the limit, under 1 GiB of address space (reading
# on would need far more: the reader's buffer doubles).
limited() { (ulimit -v 1048576 && exec timeout -s KILL 120 "$@"); }
zeros=0000000000000000000000000000000000000000000000000000000000000000
expect 1 "/dev/zero\" is past the limit of a JSON proof (67108864 bytes" \
  limited "$merklize" verify /dev/zero "$inner" "$root"
expect 1 "stdin\" is past the limit of a JSON proof (67108864 bytes" \
  sh -c "ulimit -v 1048576; yes | exec timeout -s KILL 120 '$merklize' verify - $inner $root"
expect 1 "is past the limit of a JSON proof (67108864 bytes" \
  limited "$merklize" verify-consistency /dev/zero "$root" "$root"
printf '%s\n' "$zeros" > "$dir/cap"
expect 1 "/dev/zero\" is past the limit of a JSON proof (67108864 bytes" \
  limited "$merklize" verify-opening --height 8 --width 1 "$dir/cap" /dev/zero
expect 1 "CAP stdin has more than 2 lines" \
  sh -c "ulimit -v 1048576; yes $zeros | exec timeout -s KILL 120 '$merklize' verify-opening --height 8 --width 1 --cap-height 1 - /dev/null"

# A matrix entering above the cap's layer is bound by nothing: the warning names it.
expect 1 "warning: matrix 1 (1 rows) enters above the cap's layer" \
  "$merklize" verify-opening --height 8 --height 1 --width 1 --cap-height 2 "$dir/cap" /dev/null

# Without --leaf-domain a file and the file of its leaf hashes have one root; with it, they
# differ, and the root is the tree over SHA-256(tag || block).
plain=$("$merklize" root --hash sha256 --leaf-size 64 "$dir/data")
hashes=$("$merklize" root --hash sha256 --leaf-size 64 "$dir/leaf-hashes")
[ "$plain" = "$hashes" ] || fail "the file and its leaf hashes no longer share a root: $plain, $hashes (update docs/FORMATS.md)"
separated=$("$merklize" root --hash sha256 --leaf-size 64 --leaf-domain "$dir/data" || true)
[ "$separated" = "$(cat "$dir/separated-root")" ] ||
  fail "--leaf-domain's root is $separated, not $(cat "$dir/separated-root")"
[ "$separated" != "$("$merklize" root --hash sha256 --leaf-size 64 --leaf-domain "$dir/leaf-hashes" || true)" ] ||
  fail "--leaf-domain: the file of the leaf hashes has the file's root"
expect 2 "a keccak256 leaf takes no prefix and no key, so it cannot be separated from the nodes" \
  "$merklize" root --hash keccak256 --leaf-size 64 --leaf-domain "$dir/data"
expect 2 "--salt excludes --leaf-domain" "$merklize" root --leaf-size 64 --leaf-domain --salt 00 "$dir/data"

# BLAKE3 leaves with --leaf-domain are BLAKE3 keyed with the tag: block 1's, as b3sum --keyed
# hashes it, is the leaf its proof proves.
dd if="$dir/data" of="$dir/block1" bs=64 skip=1 count=1 2> /dev/null
python3 -c "import hashlib, sys; sys.stdout.buffer.write(hashlib.sha256(b'merklize separated leaf v1').digest())" > "$dir/tag"
keyed=$("$merklize" b3sum --keyed --no-names "$dir/block1" < "$dir/tag")
"$merklize" proof -i 1 --leaf-size 64 --leaf-domain "$dir/data" > "$dir/keyed.json"
expect 0 "valid: leaf 1 of 4 (blake3, promote)" "$merklize" verify --leaves 4 "$dir/keyed.json" "$keyed" \
  "$("$merklize" root --leaf-size 64 --leaf-domain "$dir/data")"

# Poseidon2 over BabyBear, 4 leaves (the tree of tests/poseidon2_model.py): a leaf or a sibling
# with limb 0 raised by p is the same element, and refused, naming it.
python3 - "$dir" "$tests" << 'EOF'
import json, sys
sys.path.insert(0, sys.argv[2])
import poseidon2_model as m
d = sys.argv[1]
with open(sys.argv[2] + "/vectors/commitments/poseidon2/babybear_w16.json") as f:
    inst = m.Instance(json.load(f))
leaves = [m.digest_of([8 * i + j for j in range(8)], 4) for i in range(4)]
up = m.digest_of(inst.compress(m.limbs(leaves[2], 4), m.limbs(leaves[3], 4)), 4)
def raised(digest):
    return (int.from_bytes(digest[:4], "little") + inst.p).to_bytes(4, "little") + digest[4:]
def proof(siblings):
    return json.dumps({
        "format": "merklize-proof", "version": 1, "kind": "inclusion",
        "hash": "poseidon2-babybear", "shape": "promote", "leaf_count": 4, "depth": 2,
        "index": 0, "siblings": [s.hex() for s in siblings]}, separators=(",", ":"))
open(d + "/p2.json", "w").write(proof([leaves[1], up]))
open(d + "/p2-raised.json", "w").write(proof([raised(leaves[1]), up]))
open(d + "/p2-leaf", "w").write(leaves[0].hex())
open(d + "/p2-leaf-raised", "w").write(raised(leaves[0]).hex())
open(d + "/p2-root", "w").write(m.model_root(inst, leaves, 4).hex())
EOF
p2root=$(cat "$dir/p2-root")
expect 0 "valid: leaf 0 of 4 (poseidon2-babybear, promote)" \
  "$merklize" verify "$dir/p2.json" "$(cat "$dir/p2-leaf")" "$p2root"
expect 1 "invalid proof: leaf 0, limb 0 (2013265921) is not a canonical BabyBear element" \
  "$merklize" verify "$dir/p2.json" "$(cat "$dir/p2-leaf-raised")" "$p2root"
expect 1 "invalid proof: sibling 0, limb 0 (2013265929) is not a canonical BabyBear element" \
  "$merklize" verify "$dir/p2-raised.json" "$(cat "$dir/p2-leaf")" "$p2root"

[ "$failures" = 0 ] || exit 1
echo "passed"
