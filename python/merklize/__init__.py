# SPDX-License-Identifier: Apache-2.0 OR MIT
"""merklize: Merkle trees, proofs and BLAKE3 on any OpenCL device (GPUs, and CPUs through PoCL).

The Python package of libmerklize (include/merklize.h), built with nanobind. In short::

    import merklize
    print(merklize.root(open("f", "rb").read()))  # what `merklize root f` prints
    tree = merklize.build(leaves, hash="sha256")  # levels as numpy arrays, no copies
    proof = tree.prove(3)
    roots = merklize.roots_many(leaves, 256, hash="sha256")  # a root per 256 leaves, at once
    assert proof.verify(tree.node(0, 3), tree.root)

Data arguments take any bytes-like object or numpy array (read in place, without a copy), a
path (``str`` or ``os.PathLike``, streamed by the library), or a binary file object. Every call
releases the GIL while the library works. Failures raise :class:`Error`'s subclasses with the
library's message. python/README.md has the whole tour.
"""
from . import _merklize
from ._commitments import (bitcoin_proof, bitcoin_root, filecoin_commitment, filecoin_piece_cid,
                           oz_standard_proof, oz_standard_tree)
from ._device_trees import DeviceTree, TreeSnapshot, UpdateBatch
from ._devices import Device, DeviceInfo, devices
from ._digest import Digest
from ._errors import (ArgumentError, DecodeError, DeviceError, Error, FileError, InternalError,
                      InvalidProofError, OpenCLError, OutOfMemoryError, UnusableTreeError)
from ._formats import bao_outboard, dm_verity, fs_verity
from ._hashing import blake3, blake3_device, log_leaves, sha256_layer
from ._many import roots_many
from ._mmcs import MmcsCommitment, MmcsOpening, mmcs_commit, mmcs_verify
from ._proofs import Proof, verify_consistency
from ._sparse import SparseProof, SparseTree, sparse_verify
from ._trees import Builder, Tree, build, prove, root

#: The library's version, "MAJOR.MINOR.PATCH" (include/merklize/version.hpp).
__version__: str = _merklize.version()
#: The C ABI's version that the extension was built against and loaded (MERKLIZE_ABI_VERSION).
ABI_VERSION: int = _merklize.abi_version()
#: The node hashes a tree takes (``hash=``).
HASHES = tuple(_merklize.hash_names().split(","))
#: The shapes of a tree (``shape=``).
SHAPES = tuple(_merklize.shape_names().split(","))
#: The hashes of data blocks (``leaf_hash=``).
LEAF_HASHES = tuple(_merklize.leaf_hash_names().split(","))

# The public classes say they are merklize's, not of the private module that defines them.
for _public in (ArgumentError, Builder, DecodeError, Device, DeviceError, DeviceInfo, DeviceTree,
                Digest, Error, FileError, InternalError, InvalidProofError, MmcsCommitment,
                MmcsOpening, OpenCLError, OutOfMemoryError, Proof, SparseProof, SparseTree, Tree,
                TreeSnapshot, UnusableTreeError, UpdateBatch):
    _public.__module__ = __name__
del _public

__all__ = [
    "ABI_VERSION", "HASHES", "LEAF_HASHES", "SHAPES", "ArgumentError", "Builder", "DecodeError",
    "Device", "DeviceError", "DeviceInfo", "DeviceTree", "Digest", "Error", "FileError",
    "InternalError", "InvalidProofError", "MmcsCommitment", "MmcsOpening", "OpenCLError",
    "OutOfMemoryError", "Proof", "SparseProof", "SparseTree", "Tree", "TreeSnapshot",
    "UnusableTreeError", "UpdateBatch",
    "bao_outboard",
    "bitcoin_proof", "bitcoin_root", "blake3", "blake3_device", "build", "devices", "dm_verity",
    "filecoin_commitment", "filecoin_piece_cid", "fs_verity", "log_leaves", "mmcs_commit",
    "mmcs_verify", "oz_standard_proof",
    "oz_standard_tree", "prove", "root", "roots_many", "sha256_layer", "sparse_verify",
    "verify_consistency",
]
