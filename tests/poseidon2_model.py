#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0 OR MIT
"""An independent model of Plonky3's Poseidon2 compression trees, in plain Python integers, and
`merklize root --hash poseidon2-*` checked against it (ctest poseidon2_model). BN254 (width 3,
HorizenLabs/poseidon2 @ 055bde3f4782731ba5f5ce5888a440a94327eaf3, plain_implementations/src/
poseidon2/poseidon2.rs: matmul_external is circ(2, 1, 1) at t = 3, matmul_internal J + diag(1, 1,
2)) in the same integers: its tree's digest is one element (32 bytes little-endian), its node the
permutation of [left, right, 0], element 0 out (TruncatedPermutation<_, 2, 1, 3>).

Written from Plonky3/Plonky3 @ 5dc50e51436a811c62443e336f766015fecc9217: poseidon2/src/lib.rs
(permute_mut: initial external layer, 4 full rounds, R_P partial rounds, 4 full rounds),
poseidon2/src/external.rs (MDSMat4 and mds_light_permutation), poseidon2/src/internal.rs (1 +
diag(V)), symmetric/src/compression.rs (TruncatedPermutation: the inputs concatenated, permuted,
the first CHUNK elements out), with the constants and known answers of
tests/vectors/commitments/poseidon2/. It shares no code with the library: the external layer
here is the whole circulant matrix circ(2 M4, M4, ...) multiplied out, the internal layer the
matrix J + diag(V), the S-box Python's pow.

Checks: the model reproduces every known answer; the CLI's roots of 1 to 5 leaves made of the
known answers' halves equal the model's (shape promote, merklize's default: a lone last node
moves up); the root of 2 leaves, the input's halves, is the known output's first half with no
model at all; a leaf with a limb of p or more is refused, naming the leaf and the limb. With
--sponge-answers it prints the padding-free sponge's leaves of a few rows (symmetric/src/sponge.rs,
PaddingFreeSponge::hash_iter, read at Plonky3 commit 83befc118186edb59c9d7507601c964f831acfc2)
that tests/test_poseidon2_device.cpp holds as COMPUTED answers.

    poseidon2_model.py MERKLIZE_CLI VECTOR_DIR
    poseidon2_model.py --sponge-answers VECTOR_DIR   the sponge's answers for
                                                     tests/test_poseidon2_device.cpp
"""
import json
import os
import subprocess
import sys
import tempfile

M4 = [[2, 3, 1, 1], [1, 2, 3, 1], [1, 1, 2, 3], [3, 1, 1, 2]]
HASHES = {  # --hash: (known answers' file of the compression's width, limb bytes)
    "poseidon2-babybear": ("babybear_w16.json", 4),
    "poseidon2-koalabear": ("koalabear_w16.json", 4),
    "poseidon2-goldilocks": ("goldilocks_w8.json", 8),
    "poseidon2-bn254": ("bn254_w3.json", 32),
}


class Instance:
    def __init__(self, doc):
        self.p, self.w, self.d = int(doc["prime"]), doc["width"], doc["sbox_degree"]
        ints = lambda rows: [[int(v) for v in row] for row in rows]
        self.initial, self.final = ints(doc["external_initial"]), ints(doc["external_final"])
        self.internal = [int(v) for v in doc["internal"]]
        self.diag = [int(v) for v in doc["internal_diag"]]
        w = self.w
        if w == 3:  # HorizenLabs' t = 3: circ(2, 1, 1)
            self.m_e = [[2 if i == j else 1 for j in range(w)] for i in range(w)]
        else:  # Plonky3's circ(2 M4, M4, ...)
            self.m_e = [[(2 if i // 4 == j // 4 else 1) * M4[i % 4][j % 4] for j in range(w)]
                        for i in range(w)]
        self.m_i = [[(1 + self.diag[i] if i == j else 1) for j in range(w)] for i in range(w)]

    def times(self, m, x):
        return [sum(a * b for a, b in zip(row, x)) % self.p for row in m]

    def permute(self, x):
        p, d = self.p, self.d
        x = self.times(self.m_e, x)
        for rc in self.initial:
            x = self.times(self.m_e, [pow((a + c) % p, d, p) for a, c in zip(x, rc)])
        for c in self.internal:
            x = [pow((x[0] + c) % p, d, p)] + x[1:]
            x = self.times(self.m_i, x)
        for rc in self.final:
            x = self.times(self.m_e, [pow((a + c) % p, d, p) for a, c in zip(x, rc)])
        return x

    def compress(self, left, right):
        """TruncatedPermutation: left || right (zeros after, at width 3), permuted, as many
        elements out as a digest has."""
        x = left + right + [0] * (self.w - len(left) - len(right))
        return self.permute(x)[:len(left)]


def limbs(digest, size):
    return [int.from_bytes(digest[i:i + size], "little") for i in range(0, 32, size)]


def digest_of(elements, size):
    return b"".join(e.to_bytes(size, "little") for e in elements)


def model_root(inst, leaves, size):
    level = list(leaves)
    while len(level) > 1:
        up = [digest_of(inst.compress(limbs(level[i], size), limbs(level[i + 1], size)), size)
              for i in range(0, len(level) - 1, 2)]
        if len(level) % 2:
            up.append(level[-1])  # shape promote: a lone last node moves up unchanged
        level = up
    return level[0]


def sponge(inst, elements):
    """PaddingFreeSponge (symmetric/src/sponge.rs, hash_iter): overwrite mode, rate = out = w / 2."""
    rate, state = inst.w // 2, [0] * inst.w
    for at in range(0, len(elements), rate):
        chunk = elements[at:at + rate]
        state = inst.permute(chunk + state[len(chunk):])
    return state[:rate]


def sponge_row(inst, r, width):
    """Row r of the sponge tests' matrices (tests/test_poseidon2_device.cpp builds the same)."""
    return [(r * 1000003 + j * 7919 + 1) % inst.p for j in range(width)]


def print_sponge_answers(vectors):
    """The COMPUTED answers tests/test_poseidon2_device.cpp holds: rows 0 and 1 of each width."""
    for file in ("babybear_w16.json", "koalabear_w16.json", "goldilocks_w8.json"):
        with open(os.path.join(vectors, "commitments/poseidon2", file)) as f:
            inst = Instance(json.load(f))
        size = 4 if inst.p < 1 << 32 else 8
        for width in (1, 7, 8, 9, 24, 25):
            for r in (0, 1):
                print(f'{{"{file}", {width}, {r}, "{digest_of(sponge(inst, sponge_row(inst, r, width)), size).hex()}"}},')


def cli(merklize, hash_name, leaves, workdir):
    path = os.path.join(workdir, "leaves.bin")
    with open(path, "wb") as f:
        f.write(b"".join(leaves))
    return subprocess.run([merklize, "root", "--hash", hash_name, path], capture_output=True,
                          text=True, timeout=600)


def main():
    if sys.argv[1] == "--sponge-answers":
        print_sponge_answers(sys.argv[2])
        return 0
    merklize, vectors = sys.argv[1], sys.argv[2]
    failures = []

    def check(ok, what):
        print(("ok: " if ok else "FAIL: ") + what)
        if not ok:
            failures.append(what)

    for name in sorted(os.listdir(os.path.join(vectors, "commitments/poseidon2"))):
        with open(os.path.join(vectors, "commitments/poseidon2", name)) as f:
            doc = json.load(f)
        inst = Instance(doc)
        for v in doc["vectors"]:
            got = inst.permute([int(a) for a in v["input"]])
            check(got == [int(a) for a in v["output"]], f"model permutation {name} {v['test']}")

    with tempfile.TemporaryDirectory() as workdir:
        for hash_name, (file, size) in HASHES.items():
            with open(os.path.join(vectors, "commitments/poseidon2", file)) as f:
                doc = json.load(f)
            inst, v = Instance(doc), doc["vectors"][0]
            chunk = 32 // size  # elements a digest
            x = [int(a) for a in v["input"]]
            y = [int(a) for a in v["output"]]
            pool = [digest_of(x[:chunk], size), digest_of(x[chunk:2 * chunk], size),
                    digest_of(y[:chunk], size), digest_of(y[chunk:2 * chunk], size)]
            pool.append(digest_of([(a * 7 + 1) % inst.p for a in x[:chunk]], size))
            if 2 * chunk == inst.w:  # BN254's known input [0, 1, 2] is no [left, right, 0]
                run = cli(merklize, hash_name, pool[:2], workdir)
                check(run.returncode == 0 and
                      run.stdout.strip() == digest_of(y[:chunk], size).hex(),
                      f"{hash_name}: the root of the known input's halves is the known output's")
            for n in range(1, 6):
                run = cli(merklize, hash_name, pool[:n], workdir)
                want = model_root(inst, pool[:n], size).hex()
                check(run.returncode == 0 and run.stdout.strip() == want,
                      f"{hash_name}: {n} leaves, CLI {run.stdout.strip() or run.stderr.strip()} "
                      f"model {want}")
            bad = bytearray(pool[2])
            at = min(3, chunk - 1)  # limb 3 is p (BN254: its one element)
            bad[size * at:size * (at + 1)] = inst.p.to_bytes(size, "little")
            why = (f"leaf 2, element {inst.p:#066x} is not a canonical BN254 Fr" if chunk == 1
                   else f"leaf 2, limb 3 ({inst.p}) is not a canonical")
            run = cli(merklize, hash_name, [pool[0], pool[1], bytes(bad)], workdir)
            check(run.returncode == 1 and run.stdout == "" and why in run.stderr,
                  f"{hash_name}: a non-canonical element refused: {run.stderr.strip()}")
    if failures:
        print(f"{len(failures)} failed")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
