# SPDX-License-Identifier: Apache-2.0 OR MIT
"""merklize's Keccak-256 and SHA3-256 against pycryptodome's Keccak and Python's hashlib.sha3_256.

Run by tests/oracles/run.sh with the oracle_dump program and the message lengths (0 to 300, the
rate's boundaries 135/136/137 and 271/272/273 among them, and longer). For each length N and
hash: the host's digest of the N bytes (i * 7 + N) mod 256 and the device's leaf of them (one
data block) equal the oracle's; for N >= 1, the roots merklize built on the device over the N
leaves HASH(i as 8 bytes little-endian), shapes promote and zero, a fixed depth and the 4-ary
trees, equal trees built here from the rules of docs/LIBRARY.md with the oracle's hash. With
MERKLIZE_CLI set, merklize root --hash and --leaf-hash are checked the same way.
"""
import hashlib
import json
import os
import subprocess
import sys
import tempfile

from Crypto.Hash import keccak


def keccak256(data):
    return keccak.new(digest_bits=256, data=data).digest()


def sha3_256(data):
    return hashlib.sha3_256(data).digest()


HASHES = {"keccak256": keccak256, "sha3-256": sha3_256}
ZERO = bytes(32)


def message(n):
    return bytes((i * 7 + n) % 256 for i in range(n))


def binary_root(h, leaves, shape, depth=None):
    """merklize's binary tree: a lone last node moves up (promote), or the leaves are padded with
    zero leaves to a power of two, 2^depth with a fixed depth (zero)."""
    level = list(leaves)
    if shape == "zero":
        size = 1
        while size < len(level):
            size *= 2
        if depth is not None:
            size = 2 ** depth
        level += [ZERO] * (size - len(level))
    while len(level) > 1:
        up = [h(level[i] + level[i + 1]) for i in range(0, len(level) - 1, 2)]
        if len(level) % 2:
            up.append(level[-1])
        level = up
    return level[0]


def kary_root(h, leaves, k, shape):
    """A k-ary tree: each node the hash of up to k children; a group of one moves up (promote),
    or the leaves are padded with zero leaves to a power of k (zero)."""
    level = list(leaves)
    if shape == "zero":
        size = 1
        while size < len(level):
            size *= k
        level += [ZERO] * (size - len(level))
    while len(level) > 1:
        groups = [level[i:i + k] for i in range(0, len(level), k)]
        level = [g[0] if len(g) == 1 else h(b"".join(g)) for g in groups]
    return level[0]


def leaves_of(h, n):
    return [h(i.to_bytes(8, "little")) for i in range(n)]


def main():
    dump, lengths = sys.argv[1], [int(s) for s in sys.argv[2:]]
    out = subprocess.run([dump, "keccak"] + [str(n) for n in lengths], check=True,
                         stdout=subprocess.PIPE).stdout.decode()
    digests = roots = 0
    leaves = {}
    for line in out.splitlines():
        r = json.loads(line)
        name, n = r["hash"], r["n"]
        h = HASHES[name]
        if "host" in r:
            want = h(message(n)).hex()
            assert r["host"] == want, f"host {name} of {n} bytes: {r['host']} != {want}"
            if n > 0:
                assert r["device"] == want, f"device {name} of {n} bytes: {r['device']} != {want}"
            digests += 1
            continue
        if (name, n) not in leaves:
            leaves[(name, n)] = leaves_of(h, n)
        if "arity" in r:
            want = kary_root(h, leaves[(name, n)], r["arity"], r["shape"]).hex()
        else:
            want = binary_root(h, leaves[(name, n)], r["shape"], r["depth"]).hex()
        assert r["root"] == want, f"{name} tree {r}: {want} expected"
        roots += 1
    assert digests == 2 * len(lengths), f"{digests} digests in the dump, {2 * len(lengths)} expected"
    print(f"keccak: {digests} digests (host and device) and {roots} device-built roots agree with "
          "pycryptodome's Keccak-256 and hashlib's SHA3-256")
    if os.environ.get("MERKLIZE_CLI"):
        check_cli(os.environ["MERKLIZE_CLI"])


def check_cli(cli):
    """merklize root --hash keccak256|sha3-256 over leaves, and --leaf-size with --leaf-hash over
    data, against the trees built here."""
    checked = 0

    def root(*args):
        return subprocess.run([cli, "root"] + list(args), check=True,
                              stdout=subprocess.PIPE).stdout.decode().strip()

    with tempfile.TemporaryDirectory() as folder:
        path = os.path.join(folder, "input")
        for name, h in HASHES.items():
            for n in (1, 2, 3, 5, 136, 137):
                leaves = leaves_of(h, n)
                with open(path, "wb") as f:
                    f.write(b"".join(leaves))
                assert root("--hash", name, path) == binary_root(h, leaves, "promote").hex()
                assert root("--hash", name, "--pad", "zero", path) == \
                    binary_root(h, leaves, "zero").hex()
                checked += 2
            data = message(1000)
            with open(path, "wb") as f:
                f.write(data)
            for size in (1, 135, 136, 137, 272, 1000):
                blocks = [h(data[i:i + size]) for i in range(0, len(data), size)]
                assert root("--leaf-size", str(size), "--leaf-hash", name, "--hash", name,
                            path) == binary_root(h, blocks, "promote").hex()
                checked += 1
    print(f"keccak: merklize root --hash and --leaf-hash agree with the oracles ({checked} roots)")


if __name__ == "__main__":
    main()
