# SPDX-License-Identifier: Apache-2.0 OR MIT
"""merklize root|proof --format oz-standard against OpenZeppelin's StandardMerkleTree, modelled here.

Run by tests/oracles/run.sh (eth-abi and pycryptodome from PyPI) with the merklize tool and the
vectors folder. The leaves are eth-abi's abi.encode of random values of many types, hashed twice
with pycryptodome's Keccak-256; the tree, proofs and multiproofs are OpenZeppelin's rules written
here from its documentation (README, "Standard Merkle Trees"; src/core.ts at
98ff55dc7b6004a6e57ca0cb256cc0d08ecb6096): the leaves sorted by hash, the array of 2n - 1 nodes,
pairs hashed in ascending order. The model is itself checked against OpenZeppelin's dumps in
tests/vectors/commitments/oz/. At awkward numbers of values (1, 2, 3, 2^k - 1, 2^k, 2^k + 1),
both sort options: the root, the dump, every value's proof and multiproofs of random subsets; and
values that do not fit their type, refused.
"""
import json
import os
import random
import subprocess
import sys
import tempfile

from Crypto.Hash import keccak
from eth_abi import encode
from eth_utils import to_checksum_address


def k256(data):
    return keccak.new(digest_bits=256, data=data).digest()


def hash_pair(a, b):
    return k256(min(a, b) + max(a, b))


# ---- OpenZeppelin's rules ----

def make_tree(leaves):
    n = len(leaves)
    tree = [None] * (2 * n - 1)
    for k, leaf in enumerate(leaves):
        tree[2 * n - 2 - k] = leaf
    for i in range(n - 2, -1, -1):
        tree[i] = hash_pair(tree[2 * i + 1], tree[2 * i + 2])
    return tree


def standard_tree(leaf_hashes, sort_leaves):
    order = list(range(len(leaf_hashes)))
    if sort_leaves:
        order.sort(key=lambda v: leaf_hashes[v])  # stable, as Array.prototype.sort
    tree = make_tree([leaf_hashes[v] for v in order])
    tree_index = [0] * len(order)
    for k, v in enumerate(order):
        tree_index[v] = len(tree) - 1 - k
    return tree, tree_index


def sibling(i):
    return i + 1 if i % 2 else i - 1


def get_proof(tree, i):
    proof = []
    while i > 0:
        proof.append(tree[sibling(i)])
        i = (i - 1) // 2
    return proof


def get_multiproof(tree, indices):
    indices = sorted(indices, reverse=True)
    stack, proof, flags = list(indices), [], []
    while stack and stack[0] > 0:
        j = stack.pop(0)
        if stack and stack[0] == sibling(j):
            flags.append(True)
            stack.pop(0)
        else:
            flags.append(False)
            proof.append(tree[sibling(j)])
        stack.append((j - 1) // 2)
    if not indices:
        proof.append(tree[0])
    return indices, proof, flags


def process_multiproof(leaves, proof, flags):
    stack, proof = list(leaves), list(proof)
    for flag in flags:
        a = stack.pop(0)
        b = stack.pop(0) if flag else proof.pop(0)
        stack.append(hash_pair(a, b))
    assert len(stack) + len(proof) == 1
    return stack[0] if stack else proof[0]


def hexed(node):
    return "0x" + node.hex()


# ---- Random values: (the value for eth-abi, the value as JSON gives it to merklize) ----

def integer(rng, bits, signed):
    low, high = (-(1 << (bits - 1)), (1 << (bits - 1)) - 1) if signed else (0, (1 << bits) - 1)
    n = rng.choice([low, high, 0, 1, rng.randint(low, high)])
    form = rng.randrange(3)
    if form == 0 and abs(n) < 2 ** 53:
        return n, n
    if form == 1:
        return n, ("-" if n < 0 else "") + hex(abs(n))
    return n, str(n)


def address(rng):
    raw = "0x" + bytes(rng.randrange(256) for _ in range(20)).hex()
    form = rng.randrange(3)
    shown = raw if form == 0 else to_checksum_address(raw) if form == 1 else raw[2:]
    return raw, shown


def text(rng):
    alphabet = "ab \"\\\n\t\x01/\u00e9\u2028\U0001f600"
    return "".join(rng.choice(alphabet) for _ in range(rng.randrange(0, 40)))


def value_of(rng, t):
    if t.endswith("]"):
        inner, size = t[: t.rindex("[")], t[t.rindex("[") + 1: -1]
        items = [value_of(rng, inner) for _ in range(int(size) if size else rng.randrange(4))]
        return [a for a, _ in items], [j for _, j in items]
    if t.startswith("("):
        items = [value_of(rng, m) for m in split_tuple(t[1:-1])]
        return tuple(a for a, _ in items), [j for _, j in items]
    if t.startswith("uint") or t.startswith("int"):
        signed = t.startswith("int")
        return integer(rng, int(t[4 if not signed else 3:] or 256), signed)
    if t == "address":
        return address(rng)
    if t == "bool":
        b = rng.random() < 0.5
        return b, b
    if t == "string":
        s = text(rng)
        return s, s
    size = int(t[5:]) if t != "bytes" else rng.randrange(0, 70)
    raw = bytes(rng.randrange(256) for _ in range(size))
    return raw, "0x" + raw.hex()


def split_tuple(inside):
    parts, depth, start = [], 0, 0
    for i, c in enumerate(inside + ","):
        depth += {"(": 1, ")": -1}.get(c, 0)
        if c == "," and depth == 0:
            parts.append(inside[start:i])
            start = i + 1
    return parts


ENCODINGS = [
    ["address", "uint256"],
    ["string"],
    ["uint256", "string[]"],
    ["bytes32"],
    ["bool", "int8", "bytes", "bytes3", "uint40"],
    ["address[]", "uint64[2]", "int256"],
    ["(uint8,string)[]", "int128"],
    ["string[][]", "bytes1[3]"],
    ["(address,(bool,bytes),uint16[])"],
]


class Cli:
    def __init__(self, tool, folder):
        self.tool, self.folder, self.count = tool, folder, 0

    def write(self, doc):
        self.count += 1
        path = os.path.join(self.folder, f"values{self.count}.json")
        with open(path, "w", encoding="utf-8") as f:
            json.dump(doc, f, ensure_ascii=False)
        return path

    def run(self, *args, status=0):
        r = subprocess.run([self.tool] + list(args), stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        assert r.returncode == status, f"{args}: exit {r.returncode}: {r.stderr.decode()}"
        return r.stdout.decode(), r.stderr.decode()


def check_tree(cli, rng, encoding, n, sort_leaves):
    rows = [[value_of(rng, t) for t in encoding] for _ in range(n)]
    if n > 2 and rng.random() < 0.3:
        rows[-1] = rows[0]  # a value twice: equal leaves
    ours = [[j for _, j in row] for row in rows]
    hashes = [k256(k256(encode(encoding, [a for a, _ in row]))) for row in rows]
    tree, tree_index = standard_tree(hashes, sort_leaves)
    path = cli.write({"leafEncoding": encoding, "values": ours})
    dump_path = path + ".dump"
    sort = [] if sort_leaves else ["--no-sort-leaves"]
    out, _ = cli.run("root", "--format", "oz-standard", *sort, "--dump", dump_path, path)
    where = f"{n} values of {encoding}, sortLeaves {sort_leaves}"
    assert out == hexed(tree[0]) + "\n", f"root of {where}: {out} != {hexed(tree[0])}"
    with open(dump_path, encoding="utf-8") as f:
        dump = json.load(f)
    assert dump["format"] == "standard-v1" and dump["leafEncoding"] == encoding, where
    assert dump["tree"] == [hexed(x) for x in tree], f"dump of {where}"
    assert [v["treeIndex"] for v in dump["values"]] == tree_index, f"dump of {where}"
    assert [v["value"] for v in dump["values"]] == ours, f"dump values of {where}"
    again, _ = cli.run("root", "--format", "oz-standard", dump_path)  # the dump read back
    assert again == out, f"the dump of {where} read back"
    for v in rng.sample(range(n), min(n, 3)):
        proof = json.loads(cli.run("proof", "--format", "oz-standard", *sort, "-i", str(v), path)[0])
        assert proof["proof"] == [hexed(x) for x in get_proof(tree, tree_index[v])], where
        assert proof["leaf"] == hexed(hashes[v]) and proof["value"] == ours[v], where
    for _ in range(2 if n > 1 else 0):  # -i with one index is a proof, with several a multiproof
        chosen = rng.sample(range(n), rng.randrange(2, n + 1))
        got = json.loads(cli.run("proof", "--format", "oz-standard", "-i",
                                 ",".join(map(str, chosen)), dump_path)[0])
        indices, proof, flags = get_multiproof(tree, [tree_index[v] for v in chosen])
        assert got["proof"] == [hexed(x) for x in proof] and got["proofFlags"] == flags, where
        by_index = {tree_index[v]: v for v in range(n)}
        assert got["leaves"] == [ours[by_index[i]] for i in indices], where
        assert process_multiproof([tree[i] for i in indices], proof, flags) == tree[0], where


def check_vectors(cli, vectors):
    """The model and merklize against OpenZeppelin's own dumps."""
    folder = os.path.join(vectors, "commitments", "oz")
    for name in sorted(os.listdir(folder)):
        if not name.startswith("standard"):
            continue
        with open(os.path.join(folder, name), encoding="utf-8") as f:
            doc = json.load(f)
        dump = doc.get("dump_verbatim") or doc["dump"]
        hashes = [k256(k256(encode(dump["leafEncoding"], to_eth(dump["leafEncoding"],
                                                                 v["value"]))))
                  for v in dump["values"]]
        sorted_ = "unsorted" not in name and not name.endswith("seed0_2.json")
        tree, tree_index = standard_tree(hashes, sorted_)
        assert [hexed(x) for x in tree] == dump["tree"], f"the model on {name}"
        assert tree_index == [v["treeIndex"] for v in dump["values"]], f"the model on {name}"
        out, _ = cli.run("root", "--format", "oz-standard", cli.write(dump))
        assert out == doc["root"] + "\n", f"merklize on {name}"


def to_eth(encoding, row):
    def one(t, v):
        if t.endswith("]"):
            return [one(t[: t.rindex("[")], x) for x in v]
        return int(v) if t.startswith("uint") or t.startswith("int") else v
    return [one(t, v) for t, v in zip(encoding, row)]


def check_refusals(cli):
    for encoding, row, words in [
        (["uint8"], ["256"], '"values"[0][0]: "256" does not fit uint8'),
        (["address"], ["0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAeD"], "bad EIP-55 checksum"),
        (["bytes2"], ["0x00"], "holds 1 bytes, bytes2 2"),
        (["uint256", "bool"], [1], "holds 1 values where its type takes 2"),
        (["fixed8x1"], [1], 'ABI type "fixed8x1": unknown type'),
    ]:
        _, err = cli.run("root", "--format", "oz-standard",
                         cli.write({"leafEncoding": encoding, "values": [row]}), status=1)
        assert words in err, f"{encoding} {row}: {err}"
    bad = os.path.join(cli.folder, "bad.json")
    with open(bad, "w") as f:
        f.write('{"leafEncoding": ["bool"], "values": [[true]')
    _, err = cli.run("root", "--format", "oz-standard", bad, status=1)
    assert "bad.json" in err and "JSON" in err, err


def main():
    tool, vectors = sys.argv[1], sys.argv[2]
    rng = random.Random(int(os.environ.get("MERKLIZE_ORACLE_SEED", "30")))
    sizes = [1, 2, 3, 4, 7, 8, 9, 17]
    with tempfile.TemporaryDirectory() as folder:
        cli = Cli(tool, folder)
        check_vectors(cli, vectors)
        trees = 0
        for encoding in ENCODINGS:
            for n in sizes:
                for sort_leaves in (True, False):
                    check_tree(cli, rng, encoding, n, sort_leaves)
                    trees += 1
        for n in (255, 256, 1025):  # larger arrays, once each
            check_tree(cli, rng, ["address", "uint256"], n, n % 2 == 1)
            trees += 1
        check_refusals(cli)
    print(f"oz-standard: {trees} trees of {len(ENCODINGS)} encodings agree with eth-abi, "
          f"pycryptodome and OpenZeppelin's rules; the published dumps too")


if __name__ == "__main__":
    main()
