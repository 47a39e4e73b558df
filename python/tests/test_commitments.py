# SPDX-License-Identifier: Apache-2.0 OR MIT
"""The commitments other systems publish against the published data of
tests/vectors/commitments/ (OpenZeppelin's dumps, Bitcoin's blocks, Filecoin's zero-piece
commitments and CIDs), against models of each rule (hashlib's SHA-256d for Bitcoin, here; Fr32
and truncated SHA-256 for Filecoin, tests/oracles/filecoin_oracle.py's), and against the
command-line tool at awkward sizes; bad input raises the error of its kind, naming it."""
from __future__ import annotations

import hashlib
import json
import random

import pytest
from conftest import SMALL_SIZES, VECTORS
# The model of Filecoin's rules that the oracle test holds the tool against (tests/oracles/).
from filecoin_oracle import commitment as filecoin_model

import merklize

COMMITMENTS = VECTORS / "commitments"


def vector(name: str) -> dict:
    return json.loads((COMMITMENTS / name).read_text(encoding="utf-8"))


# ---- OpenZeppelin's StandardMerkleTree ----

@pytest.mark.parametrize("name", ["standard-v1.sorted.1_0_6.json", "standard-v1.unsorted.1_0_6.json",
                                  "standard_snapshot_seed0_1.json",
                                  "standard_snapshot_seed0_2.json"])
def test_oz_standard_dumps(name):
    doc = vector("oz/" + name)
    dump = doc.get("dump_verbatim") or doc["dump"]
    root, written = merklize.oz_standard_tree(dump)
    assert "0x" + str(root) == doc["root"]
    assert json.loads(written)["tree"] == dump["tree"]
    if "dump_verbatim_text" in doc:  # OpenZeppelin's own JSON.stringify, byte for byte
        assert written + "\n" == doc["dump_verbatim_text"]
    for p in doc.get("derived_proofs", []):
        proof = merklize.oz_standard_proof(json.dumps(dump), p["value_index"])
        assert proof["proof"] == p["proof"] and proof["leaf"] == p["leaf_hash"]
    sort = "unsorted" not in name and not name.endswith("seed0_2.json")
    values = {"leafEncoding": dump["leafEncoding"], "values": [v["value"] for v in dump["values"]]}
    assert merklize.oz_standard_tree(values, sort_leaves=sort, dump=False) == (root, None)


def test_oz_standard_readme_example():
    doc = vector("oz/readme_example.COMPUTED.json")
    text = json.dumps({"leafEncoding": doc["leafEncoding"], "values": doc["values"]})
    assert "0x" + str(merklize.oz_standard_tree(text.encode())[0]) == doc["root"]


def test_oz_standard_against_the_cli(cli, write):
    rng = random.Random(30)
    for n in SMALL_SIZES[:9]:
        values = [[f"0x{rng.randrange(2**160):040x}", str(rng.randrange(2**256))]
                  for _ in range(n)]
        path = write(json.dumps({"leafEncoding": ["address", "uint256"], "values": values}).encode(),
                     "values.json")
        for sort in (True, False):
            flag = [] if sort else ["--no-sort-leaves"]
            root, dump = merklize.oz_standard_tree(path, sort_leaves=sort)
            assert "0x" + str(root) + "\n" == cli("root", "--format", "oz-standard", *flag, str(path))
            assert merklize.oz_standard_tree(dump)[0] == root
            v = rng.randrange(n)
            assert merklize.oz_standard_proof(path, v, sort) == json.loads(
                cli("proof", "--format", "oz-standard", *flag, "-i", str(v), str(path)))
            if n > 1:
                chosen = rng.sample(range(n), 2)
                multi = merklize.oz_standard_proof(path, chosen, sort)
                assert multi == json.loads(cli("proof", "--format", "oz-standard", *flag, "-i",
                                               ",".join(map(str, chosen)), str(path)))
                assert len(multi["leaves"]) == 2 and "proofFlags" in multi


def test_oz_standard_refusals():
    with pytest.raises(merklize.DecodeError, match="JSON"):
        merklize.oz_standard_tree('{"leafEncoding": ["bool"], "values": [[true]')
    with pytest.raises(merklize.DecodeError, match='ABI type "uint7"'):
        merklize.oz_standard_tree({"leafEncoding": ["uint7"], "values": [[1]]})
    with pytest.raises(merklize.DecodeError, match=r'"values"\[0\]\[0\]: "300" does not fit uint8'):
        merklize.oz_standard_tree({"leafEncoding": ["uint8"], "values": [[300]]})
    with pytest.raises(merklize.ArgumentError, match="value 1 is past"):
        merklize.oz_standard_proof({"leafEncoding": ["bool"], "values": [[True]]}, 1)


# ---- Bitcoin ----

def sha256d(data: bytes) -> bytes:
    return hashlib.sha256(hashlib.sha256(data).digest()).digest()


def bitcoin_model(txids: list[bytes]) -> bytes:
    level = txids
    while len(level) > 1:
        if len(level) % 2:
            level = level + [level[-1]]
        level = [sha256d(level[i] + level[i + 1]) for i in range(0, len(level), 2)]
    return level[0]


@pytest.mark.parametrize("name", ["genesis.json", "b100000.json"])
def test_bitcoin_published_blocks(name):
    block = vector("bitcoin/" + name)
    lines = "".join(t + "\n" for t in block["txids_display"]).encode()
    root, mutated = merklize.bitcoin_root(lines, display_order=True)
    assert str(root) == block["merkleroot_display"] and not mutated
    internal = b"".join(bytes.fromhex(t)[::-1] for t in block["txids_display"])
    assert merklize.bitcoin_root(internal)[0] == bytes(root)[::-1]


def test_bitcoin_against_the_model_and_the_cli(cli, write):
    rng = random.Random(2459)
    for n in SMALL_SIZES:
        txids = [rng.randbytes(32) for _ in range(n)]
        data = b"".join(txids)
        root, mutated = merklize.bitcoin_root(data)
        assert root == bitcoin_model(txids) and not mutated
        path = write(data, "txids")
        assert str(root) + "\n" == cli("root", "--format", "bitcoin", str(path))
        i = rng.randrange(n)
        branch = merklize.bitcoin_proof(path, i)
        assert branch == json.loads(cli("proof", "--format", "bitcoin", "-i", str(i), str(path)))
        node = txids[i]
        for k, sibling in enumerate(branch["merkle"]):
            s = bytes.fromhex(sibling)
            node = sha256d(s + node) if (i >> k) & 1 else sha256d(node + s)
        assert node == root
    txids = [rng.randbytes(32) for _ in range(3)]  # CVE-2012-2459: the last txid twice
    assert merklize.bitcoin_root(b"".join(txids + txids[-1:])) == (bitcoin_model(txids), True)


def test_bitcoin_refusals():
    with pytest.raises(merklize.ArgumentError, match="holds no txid"):
        merklize.bitcoin_root(b"")
    with pytest.raises(merklize.ArgumentError, match="not a whole number of 32-byte txids"):
        merklize.bitcoin_root(bytes(33))
    with pytest.raises(merklize.ArgumentError, match="line 2: not a txid"):
        merklize.bitcoin_root(b"00" * 32 + b"\nxyz\n", display_order=True)


# ---- Filecoin ----

def test_filecoin_zero_pieces():
    doc = vector("filecoin/zero_comm.json")
    for entry in doc["entries"][:12]:
        data = bytes(int(entry["unpadded_piece_size"]))
        commitment, padded = merklize.filecoin_commitment(data)
        assert str(commitment) == entry["comm_hex"] and padded == int(entry["padded_piece_size"])
    for row in doc["piece_cid_examples"]["rows"]:
        commitment, _ = merklize.filecoin_commitment(bytes(row["unpadded_zero_bytes"]))
        assert merklize.filecoin_piece_cid(commitment) == row["piece_cid"]


@pytest.mark.parametrize("size", [1, 126, 127, 128, 254, 255, 1016, 1017, 4064, 4065, 100000])
def test_filecoin_against_the_model_and_the_cli(cli, write, size):
    data = random.Random(size).randbytes(size)
    commitment, padded = merklize.filecoin_commitment(data)
    assert commitment == filecoin_model(data)
    path = write(data)
    with open(path, "rb") as f:
        assert merklize.filecoin_commitment(f) == (commitment, padded)
    assert str(commitment) + "\n" == cli("root", "--format", "filecoin-tree-d", str(path))
    assert merklize.filecoin_piece_cid(commitment) + "\n" == cli(
        "root", "--format", "filecoin-tree-d", "--cid", str(path))


def test_filecoin_refusals():
    with pytest.raises(merklize.ArgumentError, match="no commitment"):
        merklize.filecoin_commitment(b"")
    with pytest.raises(merklize.ArgumentError, match="32 bytes"):
        merklize.filecoin_piece_cid(bytes(31))
