# SPDX-License-Identifier: Apache-2.0 OR MIT
"""merklize root --format filecoin-tree-d against a model of Filecoin's piece commitment.

Run by tests/oracles/run.sh with the merklize tool and the vectors folder; the model needs only
hashlib and base64. It is written here from the rules of go-fil-commp-hashhash commp.go
(0588fdcd40b82d5ccfaa40acc095c9352a8b7ab5: 127-byte blocks, each read as a little-endian number
and cut into four 254-bit chunks; padded to a power of two of at least 128 bytes; nodes
SHA-256 with the top two bits of the last byte cleared) and of the CID specification (CIDv1,
multicodec fil-commitment-unsealed 0xf101, multihash sha2-256-trunc254-padded 0x1012, base32
multibase), and checked against go-commp-utils' zero-piece commitments and
go-fil-commp-hashhash's zero-data CIDs in tests/vectors/commitments/filecoin/. Random data at
awkward sizes around the block and piece boundaries, from files and from stdin.
"""
import base64
import hashlib
import json
import os
import random
import subprocess
import sys
import tempfile


def node(left, right):
    d = bytearray(hashlib.sha256(left + right).digest())
    d[31] &= 0x3F
    return bytes(d)


def padded_piece(data):
    out = bytearray()
    for at in range(0, len(data), 127):
        x = int.from_bytes(data[at:at + 127].ljust(127, b"\0"), "little")
        for q in range(4):
            out += ((x >> (254 * q)) & ((1 << 254) - 1)).to_bytes(32, "little")
    size = 128
    while size < len(out):
        size *= 2
    return bytes(out.ljust(size, b"\0"))


def commitment(data):
    piece = padded_piece(data)
    level = [piece[i:i + 32] for i in range(0, len(piece), 32)]
    while len(level) > 1:
        level = [node(level[i], level[i + 1]) for i in range(0, len(level), 2)]
    return level[0]


def varint(n):
    out = bytearray()
    while n >= 0x80:
        out.append(n & 0x7F | 0x80)
        n >>= 7
    return bytes(out + bytes([n]))


def piece_cid(comm):
    raw = varint(1) + varint(0xF101) + varint(0x1012) + varint(32) + comm
    return "b" + base64.b32encode(raw).decode().lower().rstrip("=")


def run(tool, args, stdin=None):
    r = subprocess.run([tool] + args, input=stdin, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    assert r.returncode == 0, f"{args}: exit {r.returncode}: {r.stderr.decode()}"
    return r.stdout.decode()


def check_vectors(tool, vectors, folder):
    with open(os.path.join(vectors, "commitments", "filecoin", "zero_comm.json")) as f:
        doc = json.load(f)
    zero, height = b"\0" * 32, 0
    for entry in doc["entries"]:  # the model's tower against the published table, all 35
        for _ in range(height, entry["tree_height"]):
            zero = node(zero, zero)
        height = entry["tree_height"]
        assert zero.hex() == entry["comm_hex"], entry["padded_piece_size"]
    for entry in doc["entries"][:14]:  # merklize on zero data up to 1 MiB padded
        path = os.path.join(folder, "zeros")
        with open(path, "wb") as f:
            f.write(b"\0" * int(entry["unpadded_piece_size"]))
        assert run(tool, ["root", "--format", "filecoin-tree-d", path]) == entry["comm_hex"] + "\n"
    for row in doc["piece_cid_examples"]["rows"]:
        data = b"\0" * row["unpadded_zero_bytes"]
        assert piece_cid(commitment(data)) == row["piece_cid"], row
        out = run(tool, ["root", "--format", "filecoin-tree-d", "--cid", "-"], stdin=data)
        assert out == row["piece_cid"] + "\n", f"{row['unpadded_zero_bytes']} bytes: {out}"


def main():
    tool, vectors = sys.argv[1], sys.argv[2]
    rng = random.Random(int(os.environ.get("MERKLIZE_ORACLE_SEED", "30")))
    sizes = [1, 2, 3, 64, 65, 126, 127, 128, 254, 255]
    sizes += [n for k in range(1, 11) for n in (127 * 2 ** k - 1, 127 * 2 ** k, 127 * 2 ** k + 1)]
    sizes += [rng.randrange(1, 300000) for _ in range(5)]
    with tempfile.TemporaryDirectory() as folder:
        check_vectors(tool, vectors, folder)
        path = os.path.join(folder, "data")
        for size in sizes:
            data = bytes(rng.randrange(256) for _ in range(size))
            with open(path, "wb") as f:
                f.write(data)
            comm = commitment(data)
            out = run(tool, ["root", "--format", "filecoin-tree-d", path])
            assert out == comm.hex() + "\n", f"{size} bytes: {out} != {comm.hex()}"
            out = run(tool, ["root", "--format", "filecoin-tree-d", "--cid", "-"], stdin=data)
            assert out == piece_cid(comm) + "\n", f"{size} bytes from stdin, CID"
    print(f"filecoin-tree-d: {len(sizes)} pieces agree with the model; the model and merklize "
          "with go-commp-utils' zero commitments and go-fil-commp-hashhash's CIDs")


if __name__ == "__main__":
    main()
