#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0 OR MIT
"""Writes the Poseidon2 constants the library compiles in, from the copied data of
tests/vectors/commitments/poseidon2/*.json (Plonky3/Plonky3, and HorizenLabs/poseidon2 for
BN254, at the commit each file names):

  include/merklize/core/poseidon2_constants/<field>.hpp   the host's, canonical values (BN254's
                                                          as 4 little-endian u64 limbs)
  include/merklize/kernels/poseidon2_31.cl               the region between the markers:
  include/merklize/kernels/poseidon2_goldilocks.cl       the kernels' (31-bit fields and BN254 in
  include/merklize/kernels/poseidon2_bn254.cl            Montgomery form, Goldilocks canonical)

No constant is generated here: every round constant and diagonal entry is a number of the JSON
files, copied; the Montgomery form of a 31-bit one is that number times 2^32 mod p (BN254's
times 2^256 mod p), and the Montgomery parameters (-1/p mod 2^32 or 2^64, R^2 mod p) follow
from the prime. `--check` writes nothing
and exits 1 when a file differs from what it would write (ctest poseidon2_constants_current).

    python3 tools/poseidon2_constants.py [--check]
"""
import json
import pathlib
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent
DATA = ROOT / "tests/vectors/commitments/poseidon2"
FIELDS = {"babybear": (16, 24), "koalabear": (16, 24), "goldilocks": (8, 12)}
FIELD_NUMBER = {"babybear": 1, "koalabear": 2}  # -DMERKLIZE_POSEIDON2_FIELD
BEGIN = "/* BEGIN CONSTANTS: written by tools/poseidon2_constants.py, do not edit */"
END = "/* END CONSTANTS */"


def load(field, width):
    path = DATA / f"{field}_w{width}.json"
    doc = json.loads(path.read_text())
    assert doc["width"] == width and doc["rounds_f"] == 8 and len(doc["external_initial"]) == 4
    return path, doc


def source_lines(doc, prefix):
    s = doc["source"]
    return [f"{prefix}  {s['repo']} @ {s['commit']} ({s['commit_date']}),",
            f"{prefix}  {s['paths'][0]}"]


def rows(values, per_line, fmt, indent):
    items = [fmt(int(v)) for v in values]
    return [indent + ", ".join(items[i:i + per_line]) + "," for i in range(0, len(items), per_line)]


def flat(doc, key):
    return [v for round_constants in doc[key] for v in round_constants]


def host_header(field):
    lines = ["// SPDX-License-Identifier: Apache-2.0 OR MIT",
             f"// Poseidon2 over {field}: the constants of Plonky3's default instances, canonical",
             "// values, written by tools/poseidon2_constants.py from the copied data of"]
    docs = [load(field, w) for w in FIELDS[field]]
    for path, doc in docs:
        lines.append(f"// {path.relative_to(ROOT)}, from")
        lines += source_lines(doc, "//")
    lines += ["// Do not edit: rerun the script (ctest poseidon2_constants_current checks it).",
              "#pragma once", "", "#include <cstdint>", "",
              "namespace merklize {", "namespace poseidon2 {", "namespace constants {", "",
              "// clang-format off"]
    lines.append(f"inline constexpr std::uint64_t {field}_prime = {docs[0][1]['prime']}u;")
    for path, doc in docs:
        w, stem = doc["width"], f"{field}_w{doc['width']}"
        lines.append("")
        lines.append(f"inline constexpr unsigned {stem}_sbox_degree = {doc['sbox_degree']};")
        lines.append(f"inline constexpr unsigned {stem}_rounds_p = {doc['rounds_p']};")
        for key, name, n in (("external_initial", "external_initial", 4 * w),
                             ("internal", "internal", doc["rounds_p"]),
                             ("external_final", "external_final", 4 * w),
                             ("internal_diag", "internal_diag", w)):
            values = flat(doc, key) if key.startswith("external") else doc[key]
            assert len(values) == n
            lines.append(f"inline constexpr std::uint64_t {stem}_{name}[{n}] = {{")
            lines += rows(values, 4, lambda v: f"{v}u", "    ")
            lines.append("};")
    lines += ["// clang-format on", "", "} // namespace constants", "} // namespace poseidon2", "} // namespace merklize",
              ""]
    return "\n".join(lines)


def bn254_limbs(v):
    """v as 4 little-endian u64 limbs, C literals."""
    v = int(v)
    assert 0 <= v < 1 << 256
    return "{" + ", ".join(f"0x{(v >> (64 * i)) & ((1 << 64) - 1):016x}u" for i in range(4)) + "}"


def bn254_load():
    path, doc = load("bn254", 3)
    # The kernel and the host hard-code M_E = circ(2, 1, 1) and M_I = J + diag(1, 1, 2) as
    # additions; the data must say the same.
    assert [int(v) for v in doc["internal_diag"]] == [1, 1, 2] and doc["sbox_degree"] == 5
    return path, doc


def bn254_header():
    path, doc = bn254_load()
    lines = ["// SPDX-License-Identifier: Apache-2.0 OR MIT",
             "// Poseidon2 over BN254's scalar field Fr, width 3 (HorizenLabs' reference instance):",
             "// canonical values as 4 little-endian u64 limbs, written by",
             "// tools/poseidon2_constants.py from the copied data of",
             f"// {path.relative_to(ROOT)}, from"]
    lines += source_lines(doc, "//")
    lines += ["// Do not edit: rerun the script (ctest poseidon2_constants_current checks it).",
              "#pragma once", "", "#include <array>", "#include <cstdint>", "",
              "namespace merklize {", "namespace poseidon2 {", "namespace constants {", "",
              "using bn254_limbs = std::array<std::uint64_t, 4>;", "", "// clang-format off",
              f"inline constexpr bn254_limbs bn254_prime = {bn254_limbs(doc['prime'])};",
              f"inline constexpr unsigned bn254_w3_rounds_p = {doc['rounds_p']};"]
    for key, n in (("external_initial", 12), ("internal", doc["rounds_p"]),
                   ("external_final", 12), ("internal_diag", 3)):
        values = flat(doc, key) if key.startswith("external") else doc[key]
        assert len(values) == n
        lines.append(f"inline constexpr bn254_limbs bn254_w3_{key}[{n}] = {{")
        lines += ["    " + bn254_limbs(v) + "," for v in values]
        lines.append("};")
    lines += ["// clang-format on", "", "} // namespace constants", "} // namespace poseidon2",
              "} // namespace merklize", ""]
    return "\n".join(lines)


def cl_bn254_region():
    path, doc = bn254_load()
    p = int(doc["prime"])
    r = 1 << 256
    words = lambda v: ", ".join(f"0x{(v >> (64 * i)) & ((1 << 64) - 1):016x}ul" for i in range(4))
    mont = lambda v: f"(ulong4)({words(int(v) * r % p)})"
    out = [BEGIN, f"/* {path.relative_to(ROOT)}, from"]
    out += source_lines(doc, " *")
    out.append(" * in Montgomery form: the canonical value times 2^256 mod p, 4 little-endian limbs. */")
    out.append(f"#define FR_P_LIMBS {words(p)}")
    out.append(f"#define FR_MU 0x{(-pow(p, -1, 1 << 64)) % (1 << 64):016x}ul /* -1/p mod 2^64 */")
    out.append(f"#define FR_R2_LIMBS {words(r * r % p)} /* 2^512 mod p */")
    out.append(f"#define P2_ROUNDS_P {doc['rounds_p']}")
    for key in ("external_initial", "internal", "external_final"):
        values = flat(doc, key) if key.startswith("external") else doc[key]
        out.append(f"__constant ulong4 p2_{key}[{len(values)}] = {{")
        out += ["    " + mont(v) + "," for v in values]
        out.append("};")
    out.append(END)
    return out


def cl_31_region():
    out = [BEGIN]
    for field in ("babybear", "koalabear"):
        for w in FIELDS[field]:
            path, doc = load(field, w)
            p = int(doc["prime"])
            mont = lambda v: f"{(int(v) << 32) % p}u"
            out.append(f"/* {path.relative_to(ROOT)}, from")
            out += source_lines(doc, " *")
            out.append(" * in Montgomery form: the canonical value times 2^32 mod p. */")
            out.append(f"#if MERKLIZE_POSEIDON2_FIELD == {FIELD_NUMBER[field]} && "
                       f"MERKLIZE_POSEIDON2_WIDTH == {w}")
            out.append(f"#define P2_PRIME {p}u")
            out.append(f"#define P2_MU {(-pow(p, -1, 1 << 32)) % (1 << 32)}u /* -1/p mod 2^32 */")
            out.append(f"#define P2_R2 {(1 << 64) % p}u /* 2^64 mod p */")
            out.append(f"#define P2_SBOX_DEGREE {doc['sbox_degree']}")
            out.append(f"#define P2_ROUNDS_P {doc['rounds_p']}")
            out += cl_arrays(doc, "uint", lambda v: mont(v), 6)
            out.append("#endif")
    out.append(END)
    return out


def cl_goldilocks_region():
    out = [BEGIN]
    for w in FIELDS["goldilocks"]:
        path, doc = load("goldilocks", w)
        out.append(f"/* {path.relative_to(ROOT)}, from")
        out += source_lines(doc, " *")
        out.append(" * canonical values. */")
        out.append(f"#if MERKLIZE_POSEIDON2_WIDTH == {w}")
        out.append(f"#define P2_ROUNDS_P {doc['rounds_p']}")
        out += cl_arrays(doc, "ulong", lambda v: f"{int(v)}ul", 3)
        out.append("#endif")
    out.append(END)
    return out


def cl_arrays(doc, ctype, fmt, per_line):
    w, out = doc["width"], []
    for key, name in (("external_initial", "p2_external_initial"), ("internal", "p2_internal"),
                      ("external_final", "p2_external_final"),
                      ("internal_diag", "p2_internal_diag")):
        values = flat(doc, key) if key.startswith("external") else doc[key]
        out.append(f"__constant {ctype} {name}[{len(values)}] = {{")
        out += rows(values, per_line, fmt, "    ")
        out.append("};")
    return out


def with_region(text, region):
    head, rest = text.split(BEGIN + "\n", 1)
    _, tail = rest.split(END + "\n", 1)
    return head + "\n".join(region) + "\n" + tail


def main():
    check = sys.argv[1:] == ["--check"]
    wanted = {ROOT / f"include/merklize/core/poseidon2_constants/{f}.hpp": host_header(f)
              for f in FIELDS}
    wanted[ROOT / "include/merklize/core/poseidon2_constants/bn254.hpp"] = bn254_header()
    for name, region in (("poseidon2_31.cl", cl_31_region()),
                         ("poseidon2_goldilocks.cl", cl_goldilocks_region()),
                         ("poseidon2_bn254.cl", cl_bn254_region())):
        path = ROOT / "include/merklize/kernels" / name
        wanted[path] = with_region(path.read_text(), region)
    stale = [p for p, text in wanted.items() if not p.exists() or p.read_text() != text]
    if check:
        for p in stale:
            print(f"{p.relative_to(ROOT)} is not what tools/poseidon2_constants.py writes: rerun it")
        return 1 if stale else 0
    for p in stale:
        p.parent.mkdir(parents=True, exist_ok=True)
        p.write_text(wanted[p])
    return 0


if __name__ == "__main__":
    sys.exit(main())
