# SPDX-License-Identifier: Apache-2.0 OR MIT
"""The command line's interop pieces with the standard library alone: multiproofs (proof -i
I,J,K; verify with HEX,HEX,... and @FILE), --json of root, verify and verify-consistency, C2SP
tiles read back after one is corrupted or removed, and the refusals of --proof-format,
--checkpoint and tiles (exit status and message). Go's sumdb/tlog is the oracle of the formats
themselves (tests/oracles/tlog/).

usage: cli_interop.py MERKLIZE WORKDIR"""
import hashlib
import json
import os
import shutil
import subprocess
import sys

MERKLIZE, WORK = sys.argv[1], sys.argv[2]
failures = []


def run(*args, stdin=None):
    p = subprocess.run([MERKLIZE, *args], input=stdin, stdout=subprocess.PIPE,
                       stderr=subprocess.PIPE)
    return p.returncode, p.stdout.decode(), p.stderr.decode()


def expect(args, status, out_part="", err_part=""):
    code, out, err = run(*args)
    if code != status or out_part not in out or err_part not in err:
        failures.append(f"merklize {' '.join(args)}: exit {code} (want {status}), stdout "
                        f"{out[:300]!r}, stderr {err[:300]!r} (want {out_part!r} / {err_part!r})")
    return out


def path(name):
    return os.path.join(WORK, name)


def node(left, right):
    return hashlib.sha256(left + right).digest()


def main():
    shutil.rmtree(WORK, ignore_errors=True)
    os.makedirs(WORK)
    leaves = [hashlib.sha256(i.to_bytes(8, "little")).digest() for i in range(1000)]
    with open(path("leaves.bin"), "wb") as f:
        f.write(b"".join(leaves))
    root = expect(["root", "--hash", "sha256", path("leaves.bin")], 0).strip()
    as_json = json.loads(expect(["root", "--hash", "sha256", "--json", path("leaves.bin")], 0))
    if as_json != {"root": root}:
        failures.append(f"root --json: {as_json}")

    # A multiproof of three leaves, and its verification with the leaves as hex and from a file.
    multi = expect(["proof", "--hash", "sha256", "-i", "3,500,999", path("leaves.bin")], 0)
    proof = json.loads(multi)
    if proof["kind"] != "multiproof" or proof["indices"] != [3, 500, 999]:
        failures.append(f"proof -i 3,500,999: {multi[:200]}")
    with open(path("multi.json"), "w") as f:
        f.write(multi)
    hexes = ",".join(leaves[i].hex() for i in (3, 500, 999))
    expect(["verify", path("multi.json"), hexes, root], 0, "valid: 3 leaves of 1000")
    with open(path("three.bin"), "wb") as f:
        f.write(leaves[3] + leaves[500] + leaves[999])
    verdict = json.loads(expect(["verify", "--json", path("multi.json"), "@" + path("three.bin"),
                                 root], 0))
    if verdict.get("valid") is not True or verdict.get("leaves") != 3:
        failures.append(f"verify --json of the multiproof: {verdict}")
    wrong = ",".join(leaves[i].hex() for i in (3, 501, 999))
    verdict = json.loads(expect(["verify", "--json", path("multi.json"), wrong, root], 1))
    if verdict.get("valid") is not False or "leads to root" not in verdict.get("reason", ""):
        failures.append(f"verify --json of a wrong leaf: {verdict}")
    expect(["verify", path("multi.json"), leaves[3].hex(), root], 1, "", "leaves given")
    expect(["proof", "--leaf-size", "64", "-i", "0,1", path("leaves.bin")], 2, "",
           "--leaf-size has not here")
    expect(["proof", "--ssz-list", "1024", "-i", "0,1", path("leaves.bin")], 2, "", "length")
    expect(["proof", "--hash", "rfc6962", "-i", "0,1", "--proof-format", "ct",
            path("leaves.bin")], 2, "", "merklize's JSON")

    # One inclusion proof, --json verdicts.
    single = expect(["proof", "--hash", "sha256", "-i", "7", path("leaves.bin")], 0)
    with open(path("one.json"), "w") as f:
        f.write(single)
    verdict = json.loads(expect(["verify", "--json", path("one.json"), leaves[7].hex(), root], 0))
    if verdict != {"valid": True, "index": 7, "leaf_count": 1000, "hash": "sha256",
                   "shape": "promote"}:
        failures.append(f"verify --json: {verdict}")

    # A log's consistency proof in CT's JSON, verified with --json.
    out = expect(["consistency", "--old-size", "600", "--proof-format", "ct",
                  path("leaves.bin")], 0)
    heads, ct = out.splitlines()[:2], out.splitlines()[-1]
    old_root, new_root = heads[0].split()[-1], heads[1].split()[-1]
    with open(path("consistency.ct"), "w") as f:
        f.write(ct)
    verdict = json.loads(expect(["verify-consistency", "--json", "--proof-format", "ct",
                                 "--old-size", "600", "--new-size", "1000",
                                 path("consistency.ct"), old_root, new_root], 0))
    if verdict != {"consistent": True, "old_size": 600, "new_size": 1000, "hash": "rfc6962"}:
        failures.append(f"verify-consistency --json: {verdict}")
    verdict = json.loads(expect(["verify-consistency", "--json", "--proof-format", "ct",
                                 "--old-size", "600", "--new-size", "1000",
                                 path("consistency.ct"), new_root, new_root], 1))
    if verdict.get("consistent") is not False:
        failures.append(f"verify-consistency --json of a wrong root: {verdict}")
    expect(["verify-consistency", "--proof-format", "ct", path("consistency.ct"), old_root,
            new_root], 2, "", "--old-size M and --new-size N")
    expect(["consistency", "--old-size", "6", "--proof-format", "tlog-proof",
            path("leaves.bin")], 2, "", "inclusion proofs only")

    # The refusals of --proof-format.
    expect(["proof", "--hash", "sha256", "-i", "1", "--proof-format", "ct", path("leaves.bin")],
           2, "", "a log's")
    expect(["proof", "--hash", "rfc6962", "-i", "1", "--proof-format", "tlog-proof",
            path("leaves.bin")], 2, "", "--checkpoint FILE")
    expect(["proof", "-i", "1", "--checkpoint", path("x"), path("leaves.bin")], 2, "",
           "--checkpoint needs --proof-format tlog-proof")
    expect(["proof", "-i", "1", "--proof-format", "json", path("leaves.bin")], 2, "",
           "not a proof format")
    expect(["verify", "--proof-format", "ct", path("one.json"), leaves[7].hex(), root], 2, "",
           "--leaves N")
    expect(["verify", "--proof-format", "tlog-proof", path("one.json"), leaves[7].hex(), root], 1,
           "", "tlog-proof")

    # Tiles of a log of 300 entries; a checkpoint of another root; a corrupted and a removed tile.
    with open(path("log.txt"), "w") as f:
        f.write("".join(f"entry {i}\n" for i in range(300)))
    tiles = path("tiles")
    body = expect(["tiles", "--log", "--entries", "lines", "--origin", "example.com/t", "-o",
                   tiles, path("log.txt")], 0, "example.com/t\n300\n")
    with open(path("checkpoint"), "w") as f:
        f.write(body)
    log_root = expect(["root", "--log", "--entries", "lines", path("log.txt")], 0).strip()
    read = json.loads(expect(["tiles-read", tiles, "--checkpoint", path("checkpoint"), "--json"], 0))
    if read != {"size": 300, "root": log_root}:
        failures.append(f"tiles-read --json: {read}")
    lines = body.splitlines()
    with open(path("other"), "w") as f:
        f.write(f"{lines[0]}\n300\n{'A' * 43}=\n")
    expect(["tiles-read", tiles, "--checkpoint", path("other")], 1, "", "the checkpoint says")
    expect(["tiles-read", tiles], 2, "", "--size N or --checkpoint FILE")
    expect(["tiles-read", tiles, "--size", "300", "--proof-format", "tlog-proof", "-i", "1"], 2,
           "", "--checkpoint")
    # The root of 300 entries is read from the level-1 tile (the hash of level-0 tile 0) and
    # level-0 tile 1; an entry's proof reads level-0 tile 0 too, checked against the root.
    for name, at in ((os.path.join("tile", "1", "000.p", "1"), 0),
                     (os.path.join("tile", "0", "000"), 32 * 5)):
        with open(os.path.join(tiles, name), "r+b") as f:
            f.seek(at)
            byte = f.read(1)
            f.seek(at)
            f.write(bytes([byte[0] ^ 1]))
        if name.startswith(os.path.join("tile", "1")):
            expect(["tiles-read", tiles, "--checkpoint", path("checkpoint")], 1, "",
                   "lead to root")
            with open(os.path.join(tiles, name), "r+b") as f:
                f.write(bytes([byte[0]]))
            expect(["tiles-read", tiles, "--checkpoint", path("checkpoint")], 0, log_root)
    expect(["tiles-read", tiles, "--size", "300", "-i", "5"], 1, "", "inconsistent")
    expect(["tiles-read", tiles, "--size", "300", "-i", "256"], 0, '"kind":"inclusion"')
    os.remove(os.path.join(tiles, "tile", "0", "000"))
    expect(["tiles-read", tiles, "--size", "300", "-i", "5"], 1, "", "000")
    with open(path("long.txt"), "wb") as f:
        f.write(b"x" * 70000 + b"\n")
    expect(["tiles", "--log", "--entries", "lines", "--origin", "o", "-o", path("t2"),
            path("long.txt")], 1, "", "at most 65535")
    expect(["tiles", "--origin", "o", "-o", path("t3"), path("log.txt")], 1, "", "32")

    for failure in failures:
        print("FAILED:", failure)
    if failures:
        sys.exit(1)
    print("ok: multiproofs, --json, tiles read back and the refusals")


if __name__ == "__main__":
    main()
