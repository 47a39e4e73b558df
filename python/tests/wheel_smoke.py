# SPDX-License-Identifier: Apache-2.0 OR MIT
"""The repaired wheel, installed into a fresh venv (run_wheel.sh, the ctest test python_wheel):
merklize imports from that venv, not from the source, finds a device through the system's OpenCL
ICD loader, and builds SHA-256 roots there that hashlib's agree with (shape promote: a node is
sha256(left || right), a last odd node goes up as it is; python/README.md)."""
import hashlib
import sys
from pathlib import Path

import merklize


def sha256(data: bytes) -> bytes:
    return hashlib.sha256(data).digest()


def oracle_root(leaves: list) -> bytes:
    while len(leaves) > 1:
        pairs = [leaves[i:i + 2] for i in range(0, len(leaves), 2)]
        leaves = [sha256(p[0] + p[1]) if len(p) == 2 else p[0] for p in pairs]
    return leaves[0]


def main() -> None:
    module = Path(merklize.__file__).resolve()
    if Path(sys.prefix).resolve() not in module.parents:
        sys.exit(f"merklize was imported from {module}, not from the venv {sys.prefix}")
    if not merklize.devices():
        sys.exit("merklize.devices() found no OpenCL device (is an ICD such as PoCL installed?)")
    device = merklize.Device().info
    print(f"merklize {merklize.__version__} from {module.parent}, default device "
          f"{device.name} ({device.platform})")
    for n in (2, 5):
        leaves = [bytes([k + 1]) * 32 for k in range(n)]
        root = merklize.root(b"".join(leaves), hash="sha256")
        expected = oracle_root(leaves)
        if bytes(root) != expected:
            sys.exit(f"the sha256 root of {n} leaves is {root}, hashlib's is {expected.hex()}")
        print(f"sha256 root of {n} leaves: {root} (hashlib's)")


if __name__ == "__main__":
    main()
