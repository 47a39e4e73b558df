#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0 OR MIT
"""An independent model of Plonky3's MerkleTreeMmcs (binary, arity 2) over Poseidon2, in plain
Python integers: commit (the cap of 2^h digests and every layer), open_batch and verify_batch.

Written from reading Plonky3/Plonky3 @ 5dc50e51436a811c62443e336f766015fecc9217:
merkle-tree/src/merkle_tree.rs (MerkleTree::new, first_digest_layer, compress_and_inject,
padded_len, cap), merkle-tree/src/mmcs/batch.rs (commit, open_batch, verify_batch),
merkle-tree/src/mmcs/geometry.rs (validate_commit_reachable_heights, check_widths),
merkle-tree/src/mmcs/mod.rs (proof_arity_schedule), symmetric/src/sponge.rs
(PaddingFreeSponge::hash_iter) and symmetric/src/compression.rs (TruncatedPermutation); the
permutation is tests/poseidon2_model.py's. Configurations as Plonky3's tests set them:
PaddingFreeSponge<Perm, 16, 8, 8> and TruncatedPermutation<Perm, 2, 8, 16> for BabyBear and
KoalaBear width 16; PaddingFreeSponge<Perm, 8, 4, 4> and TruncatedPermutation<Perm, 2, 4, 8> for
Goldilocks width 8. No code is shared with the library (include/merklize/core/mmcs.hpp).

The rules, as this model states them (written as a ladder, not as Plonky3's loop):
- heights: the tallest height m > 0 anchors a ladder ceil(m / 2^k), k = 0 .. ceil(log2 m); every
  matrix's height must be the rung of its power-of-two bucket (so [8, 7], [7, 3] and [8, 0] are
  refused), and there must be a matrix of positive height;
- layer 0: for each r < m, the sponge of the concatenated rows r of the matrices of height m (in
  their given order); then, if m > 1 and odd, one zero digest;
- layer k + 1: node i = compress(layer_k[2i], layer_k[2i + 1]) for i < ceil(m / 2^(k+1)); where
  matrices have that height, node i = compress(node i, sponge(their rows i)); padded to even with
  a zero digest unless it has one node (the root);
- the cap at height h: min(h, depth) layers below the root, its first min(2^h, length) digests;
- open(index < m): the row index >> (ceil(log2 m) - ceil(log2 height)) of each matrix, and the
  siblings layer_k[(index >> k) ^ 1] of the layers below the cap;
- verify: the errors in Plonky3's order (batch size, heights, path length, widths, index), then
  the path replayed with the injections, the result compared with cap[index >> levels].

    mmcs_model.py VECTOR_DIR < request.json   request: {"field": "babybear", "cap_height": 1,
                                              "matrices": [{"height": 3, "width": 2,
                                              "elements": [...]}], "open": [0, 2]}
        prints "cap HEX" lines, and per opened index "row INDEX MATRIX E..." lines and one
        "path INDEX HEX..." line; or one line "error MESSAGE".
    mmcs_model.py --self-test VECTOR_DIR      the model's own checks (ctest mmcs_model).
    mmcs_model.py --cli MERKLIZE VECTOR_DIR   `merklize commit`, `open` and `verify-opening`
                                              against the model, and their refusals (ctest
                                              mmcs_cli).
"""
import json
import os
import random
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from poseidon2_model import Instance, digest_of, limbs, model_root, sponge  # noqa: E402

FIELDS = {"babybear": ("babybear_w16.json", 4), "koalabear": ("koalabear_w16.json", 4),
          "goldilocks": ("goldilocks_w8.json", 8)}
ZERO = bytes(32)


class MmcsError(Exception):
    pass


def ceil_log2(n):
    return (n - 1).bit_length() if n > 0 else 0


class Field:
    def __init__(self, vectors, name):
        file, self.size = FIELDS[name]
        with open(os.path.join(vectors, "commitments/poseidon2", file)) as f:
            self.inst = Instance(json.load(f))
        self.p = self.inst.p

    def hash(self, elements):
        return digest_of(sponge(self.inst, list(elements)), self.size)

    def compress(self, left, right):
        state = limbs(left, self.size) + limbs(right, self.size)
        return digest_of(self.inst.permute(state)[:self.inst.w // 2], self.size)


def check_heights(heights):
    """The tallest height; refuses heights off its ladder (geometry.rs' rule, as a ladder)."""
    tallest = max(heights, default=0)
    if tallest == 0:
        raise MmcsError("empty batch: no matrix has a row")
    rungs = {ceil_log2(-(-tallest // (1 << k))): -(-tallest // (1 << k))
             for k in range(ceil_log2(tallest) + 1)}
    for h in heights:
        want = rungs.get(ceil_log2(h)) if h > 0 else 1
        if h != want:
            raise MmcsError(f"matrix height {h} incompatible with tallest height {tallest}; "
                            f"expected {want}")
    return tallest


def rung_height(tallest, k):
    return -(-tallest // (1 << k))


def padded(layer):
    return layer + [ZERO] if len(layer) > 1 and len(layer) % 2 else layer


def rows_at(matrices, chosen, r):
    out = []
    for i in chosen:
        m = matrices[i]
        out += m["elements"][r * m["width"]:(r + 1) * m["width"]]
    return out


def commit_layers(field, matrices):
    heights = [m["height"] for m in matrices]
    tallest = check_heights(heights)
    at = lambda h: [i for i, x in enumerate(heights) if x == h]
    layers = [padded([field.hash(rows_at(matrices, at(tallest), r)) for r in range(tallest)])]
    k = 0
    while len(layers[-1]) > 1:
        k += 1
        below, height = layers[-1], rung_height(tallest, k)
        nodes = [field.compress(below[2 * i], below[2 * i + 1]) for i in range(height)]
        injected = at(height)
        if injected:
            nodes = [field.compress(n, field.hash(rows_at(matrices, injected, i)))
                     for i, n in enumerate(nodes)]
        layers.append(padded(nodes))
    return layers


def cap_of(layers, cap_height):
    h = min(cap_height, len(layers) - 1)
    layer = layers[len(layers) - 1 - h]
    return layer[:min(1 << h, len(layer))]


def open_batch(matrices, layers, cap_height, index):
    tallest = max(m["height"] for m in matrices)
    if not 0 <= index < tallest:
        raise MmcsError(f"index {index} out of bounds for height {tallest}")
    rows = []
    for m in matrices:
        r = index >> (ceil_log2(tallest) - ceil_log2(m["height"]))
        rows.append(m["elements"][r * m["width"]:(r + 1) * m["width"]])
    levels = len(layers) - 1 - min(cap_height, len(layers) - 1)
    return rows, [layers[k][(index >> k) ^ 1] for k in range(levels)]


def verify_batch(field, cap, cap_height, dims, index, rows, path):
    """Raises MmcsError naming the first failure, in batch.rs' order."""
    if len(rows) != len(dims):
        raise MmcsError("wrong batch size")
    heights = [h for h, _ in dims]
    tallest = check_heights(heights)
    depth = ceil_log2(tallest)
    levels = depth - min(cap_height, depth)
    if len(path) != levels:
        raise MmcsError(f"wrong height: expected {levels} siblings, got {len(path)}")
    for i, ((_, w), row) in enumerate(zip(dims, rows)):
        if len(row) != w:
            raise MmcsError(f"wrong width: matrix {i} expected {w} values, got {len(row)}")
    if not 0 <= index < tallest:
        raise MmcsError(f"index {index} out of bounds for height {tallest}")
    joined = lambda h: [e for (hh, _), row in zip(dims, rows) if hh == h for e in row]
    node = field.hash(joined(tallest))
    for k, sibling in enumerate(path):
        pair = (node, sibling) if (index >> k) % 2 == 0 else (sibling, node)
        node = field.compress(*pair)
        if rung_height(tallest, k + 1) in heights:
            node = field.compress(node, field.hash(joined(rung_height(tallest, k + 1))))
    at = index >> levels
    if at >= len(cap) or cap[at] != node:
        raise MmcsError("cap mismatch")


def answer(vectors, request):
    field = Field(vectors, request["field"])
    matrices, cap_height = request["matrices"], request["cap_height"]
    try:
        layers = commit_layers(field, matrices)
        cap = cap_of(layers, cap_height)
        out = [f"cap {d.hex()}" for d in cap]
        dims = [(m["height"], m["width"]) for m in matrices]
        for index in request.get("open", []):
            rows, path = open_batch(matrices, layers, cap_height, index)
            verify_batch(field, cap, cap_height, dims, index, rows, path)  # its own opening
            out += [f"row {index} {i} " + " ".join(map(str, row)) for i, row in enumerate(rows)]
            out.append(f"path {index} " + " ".join(d.hex() for d in path))
        return out
    except MmcsError as e:
        return [f"error {e}"]


def random_matrix(rng, p, height, width):
    return {"height": height, "width": width,
            "elements": [rng.randrange(p) for _ in range(height * width)]}


def self_test(vectors):
    failures = []

    def check(ok, what):
        print(("ok: " if ok else "FAIL: ") + what)
        if not ok:
            failures.append(what)

    def refused(fn, text):
        try:
            fn()
        except MmcsError as e:
            return text in str(e)
        return False

    rng = random.Random(33)
    for name in FIELDS:
        field = Field(vectors, name)
        # One matrix of 2^k rows is a plain compression tree over its rows' sponges.
        m = random_matrix(rng, field.p, 8, 9)
        leaves = [field.hash(rows_at([m], [0], r)) for r in range(8)]
        check(commit_layers(field, [m])[-1][0] == model_root(field.inst, leaves, field.size),
              f"{name}: one 8-row matrix is the compression tree of its rows' sponges")
        # One row: the root is the row's sponge, no compression.
        one = random_matrix(rng, field.p, 1, 25)
        check(commit_layers(field, [one]) == [[field.hash(one["elements"])]],
              f"{name}: one row's root is its sponge")
        # A height-3 matrix: layer 0 has a zero digest, layer 1 two nodes.
        three = random_matrix(rng, field.p, 3, 1)
        layers = commit_layers(field, [three])
        check([len(x) for x in layers] == [4, 2, 1] and layers[0][3] == ZERO,
              f"{name}: height 3 pads layer 0 with a zero digest")
        # Heights off the ladder are refused; on it, accepted.
        for heights, ok in (([8, 7], False), ([7, 3], False), ([8, 0], False), ([0, 0], False),
                            ([], False), ([7, 4, 2, 1], True), ([7, 4, 4], True), ([5, 3], True)):
            try:
                check_heights(heights)
                got = True
            except MmcsError:
                got = False
            check(got == ok, f"heights {heights} {'accepted' if ok else 'refused'}")
        # Every opening of awkward shapes verifies; tampering with anything fails.
        for shapes in ([(7, 8), (4, 1), (2, 24), (1, 7)], [(5, 9), (5, 25), (3, 1), (1, 8)],
                       [(1, 1)], [(2, 1), (1, 3)], [(9, 7), (5, 2)]):
            mats = [random_matrix(rng, field.p, h, w) for h, w in shapes]
            rng.shuffle(mats)
            dims = [(x["height"], x["width"]) for x in mats]
            layers = commit_layers(field, mats)
            for cap_height in (0, 1, 2, 5):
                cap = cap_of(layers, cap_height)
                for index in range(max(h for h, _ in shapes)):
                    rows, path = open_batch(mats, layers, cap_height, index)
                    what = f"{name} {shapes} cap {cap_height} index {index}"
                    try:
                        verify_batch(field, cap, cap_height, dims, index, rows, path)
                        check(True, what + " verifies")
                    except MmcsError as e:
                        check(False, f"{what}: {e}")
                    # A tallest matrix's element (rows injected above the cap are not
                    # replayed: Plonky3's verifier leaves them to the cap's owner).
                    bad = [list(r) for r in rows]
                    t = dims.index(max(dims, key=lambda d: d[0]))
                    bad[t][0] = (bad[t][0] + 1) % field.p
                    check(refused(lambda: verify_batch(field, cap, cap_height, dims, index, bad,
                                                       path), "cap mismatch"),
                          what + ": a changed element fails")
                    if path:
                        check(refused(lambda: verify_batch(field, cap, cap_height, dims, index,
                                                           rows, path[:-1]), "wrong height"),
                              what + ": a short path fails")
    if failures:
        print(f"{len(failures)} failed")
        return 1
    return 0


def cli_test(merklize, vectors):
    failures = []

    def check(ok, what):
        print(("ok: " if ok else "FAIL: ") + what)
        if not ok:
            failures.append(what)

    rng = random.Random(39)
    with tempfile.TemporaryDirectory() as workdir:
        def commit(name, mats, cap_height, widths=None, raw=None, command=("commit",)):
            files = []
            for i, m in enumerate(mats):
                path = os.path.join(workdir, f"m{i}.bin")
                with open(path, "wb") as f:
                    f.write(raw[i] if raw and i in raw else b"".join(
                        e.to_bytes(FIELDS[name][1], "little") for e in m["elements"]))
                files.append(path)
            widths = widths or [m["width"] for m in mats]
            args = [merklize, *command, "--hash", "poseidon2-" + name,
                    "--cap-height", str(cap_height)]
            for w in widths:
                args += ["--width", str(w)]
            return subprocess.run(args + files, capture_output=True, text=True, timeout=600)

        for name in FIELDS:
            field = Field(vectors, name)
            for shape in ([(1, 1)], [(7, 25)], [(8, 9), (4, 24), (1, 7)],
                          [(5, 8), (3, 1), (5, 9), (2, 3), (1, 1)]):
                mats = [random_matrix(rng, field.p, h, w) for h, w in shape]
                for cap_height in (0, 1, 2):
                    run = commit(name, mats, cap_height)
                    want = "".join(f"{d.hex()}\n" for d in
                                   cap_of(commit_layers(field, mats), cap_height))
                    check(run.returncode == 0 and run.stdout == want,
                          f"{name} {shape} cap {cap_height}: {run.stderr.strip()}")
            mats = [random_matrix(rng, field.p, h, w) for h, w in ((5, 9), (3, 1), (5, 25), (1, 8))]
            layers = commit_layers(field, mats)
            for cap_height in (0, 2):
                run = commit(name, mats, cap_height, command=("open", "-i", "0,4,2,4"))
                want = ""
                for index in (0, 4, 2, 4):
                    rows, path = open_batch(mats, layers, cap_height, index)
                    want += json.dumps({"index": index, "rows": rows,
                                        "path": [d.hex() for d in path]}) + "\n"
                check(run.returncode == 0 and run.stdout == want,
                      f"{name}: merklize open at cap height {cap_height}: {run.stderr.strip()}")
                # The tallest is 5 rows: 3 layers; the cap's layer is 3 - cap_height.
                for dropped in range(1, 4 - cap_height):
                    run = commit(name, mats, cap_height,
                                 command=("open", "-i", "0,4,2,4", "--drop-layers", str(dropped)))
                    check(run.returncode == 0 and run.stdout == want,
                          f"{name}: merklize open --drop-layers {dropped} at cap height "
                          f"{cap_height}: {run.stderr.strip()}")
                run = commit(name, mats, cap_height,
                             command=("open", "-i", "0", "--drop-layers", str(4 - cap_height)))
                check(run.returncode != 0 and "keeps its cap's layer" in run.stderr,
                      f"{name}: --drop-layers above the cap's layer refused: {run.stderr.strip()}")
                cap_path, open_path = (os.path.join(workdir, f) for f in ("cap", "openings"))
                with open(cap_path, "w") as f:
                    f.write("".join(f"{d.hex()}\n" for d in cap_of(layers, cap_height)))
                lines = want.splitlines()
                dims = []
                for m in mats:
                    dims += ["--height", str(m["height"]), "--width", str(m["width"])]
                changed = json.loads(lines[0])
                changed["rows"][0][0] = (changed["rows"][0][0] + 1) % field.p  # a tallest row
                cases = [("the openings", want, True),
                         ("a changed element", json.dumps(changed) + "\n", False)]
                sibling = json.loads(lines[1])
                if sibling["path"]:
                    d = sibling["path"][0]
                    sibling["path"][0] = ("1" if d[0] != "1" else "2") + d[1:]
                    cases.append(("a changed sibling", json.dumps(sibling) + "\n", False))
                for what, text, ok in cases:
                    with open(open_path, "w") as f:
                        f.write(text)
                    run = subprocess.run([merklize, "verify-opening", "--hash", "poseidon2-" + name,
                                          "--cap-height", str(cap_height), *dims, cap_path,
                                          open_path], capture_output=True, text=True, timeout=600)
                    check(run.returncode == 0 and run.stdout == f"valid: {len(lines)} openings\n"
                          if ok else run.returncode == 1 and "invalid opening of row" in run.stderr,
                          f"{name}: verify-opening, {what}, cap height {cap_height}: "
                          f"{run.stdout.strip()} {run.stderr.strip()}")
            run = commit(name, mats, 0, command=("open", "-i", "5"))
            check(run.returncode == 1 and "-i 5 is out of range" in run.stderr and
                  run.stdout == "", f"{name}: open past the rows refused: {run.stderr.strip()}")
            same = [random_matrix(rng, field.p, h, 3) for h in (6, 3, 6)]
            run = commit(name, same, 1, widths=[3])
            check(run.returncode == 0 and run.stdout == "".join(
                f"{d.hex()}\n" for d in cap_of(commit_layers(field, same), 1)),
                f"{name}: one --width for all")
        size = 4
        mats = [random_matrix(rng, 2013265921, h, 2) for h in (8, 7)]
        run = commit("babybear", mats, 0)
        check(run.returncode == 1 and "matrix 1 has height 7" in run.stderr and
              "m1.bin" in run.stderr, f"heights 8, 7 refused: {run.stderr.strip()}")
        mats = [random_matrix(rng, 2013265921, h, 2) for h in (4, 2)]
        bad = b"".join(e.to_bytes(size, "little") for e in mats[1]["elements"][:3]) + \
            (2013265921).to_bytes(size, "little")
        run = commit("babybear", mats, 0, raw={1: bad})
        check(run.returncode == 1 and "matrix 1, row 1, column 1: 2013265921 is not a canonical "
              "BabyBear element" in run.stderr, f"non-canonical refused: {run.stderr.strip()}")
        run = commit("babybear", mats, 0, widths=[3, 2])
        check(run.returncode == 1 and "not a whole number of rows of 3" in run.stderr and
              run.stdout == "", f"a width not dividing the file refused: {run.stderr.strip()}")
        run = commit("babybear", mats, 0, widths=[2, 2, 2])
        check(run.returncode == 2 and "--width is given 3 times for 2" in run.stderr,
              f"--width count refused: {run.stderr.strip()}")
        run = subprocess.run([merklize, "commit", "--hash", "sha256", "--width", "1",
                              os.path.join(workdir, "m0.bin")], capture_output=True, text=True)
        check(run.returncode == 2 and "not a hash over field elements" in run.stderr,
              f"--hash sha256 refused: {run.stderr.strip()}")
    if failures:
        print(f"{len(failures)} failed")
        return 1
    return 0


def main():
    if sys.argv[1] == "--self-test":
        return self_test(sys.argv[2])
    if sys.argv[1] == "--cli":
        return cli_test(sys.argv[2], sys.argv[3])
    print("\n".join(answer(sys.argv[1], json.load(sys.stdin))))
    return 0


if __name__ == "__main__":
    sys.exit(main())
