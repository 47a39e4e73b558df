# SPDX-License-Identifier: Apache-2.0 OR MIT
"""merklize's SSZ list roots and branches against remerkleable (List[Bytes32, 2**D]).

Run by tests/oracles/run.sh with the oracle_dump program and the list lengths. For each length N
and limit 2^D (D = 0..40, 2^D >= N): the root of merklize's sha256 tree of shape zero and depth D
with N mixed in equals remerkleable's hash_tree_root, the empty list's included; each branch
equals remerkleable's nodes along the element's generalized index (length chunk last) and passes
the consensus specs' is_valid_merkle_branch at depth D + 1. merklize's verifier said "ok" too.
"""
import hashlib
import json
import os
import subprocess
import sys
import tempfile

from remerkleable.byte_arrays import Bytes32
from remerkleable.complex import List, Vector


def chunk(i):
    return hashlib.sha256(i.to_bytes(8, "little")).digest()


def is_valid_merkle_branch(leaf, branch, depth, index, root):
    """The consensus specs' is_valid_merkle_branch (phase 0)."""
    value = leaf
    for i in range(depth):
        if index // (2 ** i) % 2:
            value = hashlib.sha256(branch[i] + value).digest()
        else:
            value = hashlib.sha256(value + branch[i]).digest()
    return value == root


def main():
    dump, lengths = sys.argv[1], [int(s) for s in sys.argv[2:]]
    out = subprocess.run([dump, "ssz"] + [str(n) for n in lengths], check=True,
                         stdout=subprocess.PIPE).stdout.decode()
    lists, roots, branches = {}, 0, 0
    for line in out.splitlines():
        r = json.loads(line)
        n, depth = r["n"], r["depth"]
        if (n, depth) not in lists:
            kind = List[Bytes32, 2 ** depth]
            lists[(n, depth)] = kind(*[Bytes32(chunk(i)) for i in range(n)])
        value = lists[(n, depth)]
        root = value.hash_tree_root()
        if "branch" not in r:
            assert bytes.fromhex(r["root"]) == root, f"root of {n} elements, limit 2^{depth}"
            roots += 1
            continue
        i, branch = r["i"], [bytes.fromhex(h) for h in r["branch"]]
        assert r["ok"], f"merklize rejected its branch of element {i} of {n}, limit 2^{depth}"
        gindex = type(value).key_to_static_gindex(i)
        backing, theirs = value.get_backing(), []
        while gindex > 1:
            theirs.append(backing.getter(gindex ^ 1).merkle_root())
            gindex //= 2
        assert branch == theirs, f"branch of element {i} of {n}, limit 2^{depth}"
        assert is_valid_merkle_branch(chunk(i), branch, depth + 1, i, root)
        branches += 1
    expected = sum(1 for n in lengths for d in range(41) if 2 ** d >= n)
    assert roots == expected, f"{roots} roots in the dump, {expected} expected"
    print(f"ssz: {roots} list roots and {branches} branches agree with remerkleable")
    if os.environ.get("MERKLIZE_CLI"):
        check_presets(os.environ["MERKLIZE_CLI"])


def check_presets(cli):
    """merklize root --ssz-list LIMIT (limits that are not powers of two too) and --ssz-vector
    against remerkleable's List[Bytes32, LIMIT] and Vector[Bytes32, N]; the README's SSZ task
    (three chunks of 0x01, 0x02 and 0x03 bytes, limit 1024) is among them."""
    checked = 0
    with tempfile.TemporaryDirectory() as folder:
        path = os.path.join(folder, "chunks")
        for n in (0, 1, 3, 5, 17):
            chunks = [Bytes32(bytes([i + 1]) * 32) for i in range(n)]
            with open(path, "wb") as f:
                f.write(b"".join(chunks))
            for limit in (1, 3, 5, 17, 1000, 1024):
                if n > limit:
                    continue
                ours = subprocess.run([cli, "root", "--ssz-list", str(limit), path], check=True,
                                      stdout=subprocess.PIPE).stdout.decode().strip()
                theirs = List[Bytes32, limit](*chunks).hash_tree_root().hex()
                assert ours == theirs, f"--ssz-list {limit} of {n} chunks: {ours} != {theirs}"
                checked += 1
            if n:
                ours = subprocess.run([cli, "root", "--ssz-vector", path], check=True,
                                      stdout=subprocess.PIPE).stdout.decode().strip()
                theirs = Vector[Bytes32, n](*chunks).hash_tree_root().hex()
                assert ours == theirs, f"--ssz-vector of {n} chunks: {ours} != {theirs}"
                checked += 1
    print(f"ssz: merklize root --ssz-list and --ssz-vector agree with remerkleable ({checked} roots)")


if __name__ == "__main__":
    main()
