# SPDX-License-Identifier: Apache-2.0 OR MIT
"""merklize root|proof --format bitcoin against python-bitcoinlib and published blocks.

Run by tests/oracles/run.sh (python-bitcoinlib from PyPI) with the merklize tool and the vectors
folder. Roots of random txid lists at awkward lengths (1, 2, 3, 2^k - 1, 2^k, 2^k + 1) equal
CBlock.build_merkle_tree_from_txids's, from 32-byte txids in internal order and from hex lines in
display order (--display-order); the merkle roots of the genesis block and block 100000 are the
published ones; every proof printed leads from its txid to the root under hashlib's SHA-256d; and a
list with its last txid twice (CVE-2012-2459) has the shorter list's root, with a warning.
"""
import hashlib
import json
import os
import random
import subprocess
import sys
import tempfile

from bitcoin.core import CBlock, b2lx, lx


def sha256d(data):
    return hashlib.sha256(hashlib.sha256(data).digest()).digest()


class Cli:
    def __init__(self, tool, folder):
        self.tool, self.folder = tool, folder

    def run(self, *args, status=0):
        r = subprocess.run([self.tool] + list(args), stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        assert r.returncode == status, f"{args}: exit {r.returncode}: {r.stderr.decode()}"
        return r.stdout.decode(), r.stderr.decode()

    def files(self, txids):
        """The txids as 32-byte internal order, and as display-order hex lines."""
        binary, lines = os.path.join(self.folder, "txids"), os.path.join(self.folder, "txids.txt")
        with open(binary, "wb") as f:
            f.write(b"".join(txids))
        with open(lines, "w") as f:
            f.write("".join(b2lx(t) + "\n" for t in txids))
        return binary, lines


def fold(txid, pos, merkle):
    node = txid
    for sibling in merkle:
        node = sha256d(sibling + node) if pos % 2 else sha256d(node + sibling)
        pos //= 2
    return node


def check_list(cli, rng, n):
    txids = [bytes(rng.randrange(256) for _ in range(32)) for _ in range(n)]
    root = CBlock.build_merkle_tree_from_txids(txids)[-1]
    binary, lines = cli.files(txids)
    out, _ = cli.run("root", "--format", "bitcoin", binary)
    assert out == root.hex() + "\n", f"{n} txids: {out} != {root.hex()}"
    out, _ = cli.run("root", "--format", "bitcoin", "--display-order", lines)
    assert out == b2lx(root) + "\n", f"{n} txids, display order"
    for i in sorted({0, n - 1, rng.randrange(n)}):
        p = json.loads(cli.run("proof", "--format", "bitcoin", "-i", str(i), binary)[0])
        assert p["pos"] == i and bytes.fromhex(p["txid"]) == txids[i], f"{n} txids, proof {i}"
        assert bytes.fromhex(p["root"]) == root
        assert fold(txids[i], i, [bytes.fromhex(h) for h in p["merkle"]]) == root, f"proof {i}"
        d = json.loads(cli.run("proof", "--format", "bitcoin", "--display-order", "-i", str(i),
                               lines)[0])
        assert fold(lx(d["txid"]), i, [lx(h) for h in d["merkle"]]) == root
        assert d["root"] == b2lx(root)
    if n % 2 == 1 and n > 1:  # CVE-2012-2459: the last txid twice, the same root
        doubled, _ = cli.files(txids + [txids[-1]])
        out, err = cli.run("root", "--format", "bitcoin", doubled)
        assert out == root.hex() + "\n" and "CVE-2012-2459" in err, f"{n} txids doubled: {err}"


def check_blocks(cli, vectors):
    for name in ("genesis.json", "b100000.json"):
        with open(os.path.join(vectors, "commitments", "bitcoin", name)) as f:
            block = json.load(f)
        txids = [sha256d(bytes.fromhex(tx)) for tx in block["tx_hex"]]
        assert [b2lx(t) for t in txids] == block["txids_display"], name
        assert b2lx(CBlock.build_merkle_tree_from_txids(txids)[-1]) == block["merkleroot_display"]
        _, lines = cli.files(txids)
        out, _ = cli.run("root", "--format", "bitcoin", "--display-order", lines)
        assert out == block["merkleroot_display"] + "\n", f"{name}: {out}"


def main():
    tool, vectors = sys.argv[1], sys.argv[2]
    rng = random.Random(int(os.environ.get("MERKLIZE_ORACLE_SEED", "30")))
    sizes = [1, 2, 3] + [n for k in range(2, 11) for n in (2 ** k - 1, 2 ** k, 2 ** k + 1)]
    with tempfile.TemporaryDirectory() as folder:
        cli = Cli(tool, folder)
        check_blocks(cli, vectors)
        for n in sizes:
            check_list(cli, rng, n)
        empty = os.path.join(folder, "empty")
        open(empty, "wb").close()
        _, err = cli.run("root", "--format", "bitcoin", empty, status=1)
        assert "empty" in err, err
    print(f"bitcoin: roots and proofs of {len(sizes)} txid lists agree with python-bitcoinlib; "
          "the genesis block and block 100000 too")


if __name__ == "__main__":
    main()
