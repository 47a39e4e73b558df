# SPDX-License-Identifier: Apache-2.0 OR MIT
"""merklize's RFC 6962 / 9162 trees against pymerkle (whose defaults are RFC 9162's prefixes).

Run by tests/oracles/run.sh with the oracle_dump program and the tree sizes. For every size: the
root equals pymerkle's; each audit path equals pymerkle's path (less its leaf) and verifies with
pymerkle's verifier; each consistency proof equals RFC 9162 2.1.4.1's PROOF(m, D[n]) computed from
pymerkle's subtree roots, verifies with an RFC 9162 2.1.4.2 verifier written here from the RFC's
text, and pymerkle's own consistency proof between the same sizes verifies, with pymerkle's
verifier, against merklize's two roots (pymerkle's consistency proofs are of another form than
the RFC's, so merklize's cannot be given to it). merklize's verifier said "ok" to each of its
proofs too.

With --append first, the same of trees kept on the device and grown by appends (oracle_dump
rfc6962-append): roots, audit paths and consistency proofs after appends, each size's records
checked as above.
"""
import hashlib
import json
import os
import subprocess
import sys
import tempfile

from pymerkle import InmemoryTree
from pymerkle.proof import InclusionProof


def node(left, right):
    return hashlib.sha256(b"\x01" + left + right).digest()


def split(n):
    k = 1
    while k < n - k:
        k *= 2
    return k


def rfc_subproof(tree, m, start, n, whole):
    """RFC 9162 2.1.4.1 SUBPROOF(m, D[start:start+n], b), with pymerkle's MTH of each range."""
    if m == n:
        return [] if whole else [tree._get_root(start, start + n)]
    k = split(n)
    if m <= k:
        return rfc_subproof(tree, m, start, k, whole) + [tree._get_root(start + k, start + n)]
    return rfc_subproof(tree, m - k, start + k, n - k, False) + [tree._get_root(start, start + k)]


def rfc_verify_consistency(first, second, first_hash, second_hash, path):
    """RFC 9162 2.1.4.2, step by step, for 0 < first < second."""
    if not path:
        return False
    if first & (first - 1) == 0:
        path = [first_hash] + path
    fn, sn = first - 1, second - 1
    while fn & 1:
        fn, sn = fn >> 1, sn >> 1
    fr = sr = path[0]
    for c in path[1:]:
        if sn == 0:
            return False
        if fn & 1 or fn == sn:
            fr, sr = node(c, fr), node(c, sr)
            while fn and not fn & 1:
                fn, sn = fn >> 1, sn >> 1
        else:
            sr = node(sr, c)
        fn, sn = fn >> 1, sn >> 1
    return fr == first_hash and sr == second_hash and sn == 0


def main():
    append = sys.argv[1] == "--append"
    args = sys.argv[2:] if append else sys.argv[1:]
    dump, sizes = args[0], [int(s) for s in args[1:]]
    tree = InmemoryTree.init_from_entries([b"entry %d" % i for i in range(max(sizes))])
    mode = "rfc6962-append" if append else "rfc6962"
    out = subprocess.run([dump, mode] + [str(n) for n in sizes], check=True,
                         stdout=subprocess.PIPE).stdout.decode()
    roots, counts = {}, {"root": 0, "path": 0, "consistency": 0}
    for line in out.splitlines():
        r = json.loads(line)
        n = r["n"]
        if "root" in r:
            assert bytes.fromhex(r["root"]) == tree.get_root(n), f"root of {n} leaves"
            if n:
                assert bytes.fromhex(r["leaf0"]) == tree.get_leaf(1), "leaf hash of entry 0"
            roots[n] = bytes.fromhex(r["root"])
            counts["root"] += 1
        elif "path" in r:
            i, path = r["i"], [bytes.fromhex(h) for h in r["path"]]
            assert r["ok"], f"merklize rejected its audit path of leaf {i} of {n}"
            theirs = tree.prove_inclusion(i + 1, n)
            assert path == theirs.path[1:], f"audit path of leaf {i} of {n}"
            leaf = tree.get_leaf(i + 1)
            mine = InclusionProof("sha256", True, n, i + 1, theirs.rule, [leaf] + path)
            mine.verify(leaf, roots[n], index=i + 1, size=n)  # raises InvalidProof
            counts["path"] += 1
        else:
            m, proof = r["m"], [bytes.fromhex(h) for h in r["proof"]]
            assert r["ok"], f"merklize rejected its consistency proof {m} -> {n}"
            old_root = bytes.fromhex(r["old_root"])
            assert old_root == tree.get_root(m), f"old root of {m} leaves"
            assert proof == (rfc_subproof(tree, m, 0, n, True) if m < n else []), f"{m} -> {n}"
            if m < n:
                assert rfc_verify_consistency(m, n, old_root, roots[n], proof), f"{m} -> {n}"
                tree.prove_consistency(m, n).verify(old_root, roots[n], prior_size=m,
                                                    later_size=n)
            counts["consistency"] += 1
    if append:
        assert counts["root"] >= len([n for n in sizes if n]), "a size is missing from the dump"
        print(f"rfc6962 appends: {counts['root']} roots, {counts['path']} audit paths, "
              f"{counts['consistency']} consistency proofs of trees grown on the device agree "
              f"with pymerkle")
        return
    assert counts["root"] == len(sizes), "a size is missing from the dump"
    print(f"rfc6962: {counts['root']} roots, {counts['path']} audit paths, "
          f"{counts['consistency']} consistency proofs agree with pymerkle")
    if os.environ.get("MERKLIZE_CLI"):
        check_log_preset(os.environ["MERKLIZE_CLI"])


def check_log_preset(cli):
    """merklize root and consistency --log over a file of entries, one a line, against pymerkle's
    tree of the same entries; the README's log (three entries, its head at two) is the first."""
    logs = [[b"first entry", b"second entry", b"third entry"]]
    logs += [[b"entry %d" % i for i in range(n)] for n in (1, 2, 5, 8, 100)]
    with tempfile.TemporaryDirectory() as folder:
        path = os.path.join(folder, "log")
        for entries in logs:
            with open(path, "wb") as f:
                f.write(b"".join(e + b"\n" for e in entries))
            tree = InmemoryTree.init_from_entries(entries)
            n = len(entries)
            run = [cli, "root", "--log", "--entries", "lines", path]
            root = subprocess.run(run, check=True, stdout=subprocess.PIPE).stdout.decode().strip()
            assert root == tree.get_root(n).hex(), f"root of a log of {n} entries"
            m = max(1, n // 2)
            run = [cli, "consistency", "--log", "--entries", "lines", "--old-size", str(m), path]
            heads = subprocess.run(run, check=True, stdout=subprocess.PIPE).stdout.decode()
            want = (f"old tree head: {m} leaves, root {tree.get_root(m).hex()}\n"
                    f"new tree head: {n} leaves, root {tree.get_root(n).hex()}\n")
            assert heads.startswith(want), f"heads of {m} -> {n}: {heads}"
    print(f"rfc6962: merklize root and consistency --log agree with pymerkle ({len(logs)} logs)")


if __name__ == "__main__":
    main()
