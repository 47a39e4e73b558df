# SPDX-License-Identifier: Apache-2.0 OR MIT
"""Proofs: inclusion proofs, multiproofs, consistency proofs, k-ary proofs and k-ary
multiproofs, their encodings
(docs/PROOFS.md) and their verification on the host."""
from __future__ import annotations

from typing import Any, List, Optional, Sequence, Union

import numpy as np

from . import _merklize
from ._digest import DIGEST_SIZE, Digest
from ._errors import ArgumentError, InvalidProofError

JSON, BINARY = 0, 1  # merklize_encoding

#: The kinds of proofs, as their JSON's "kind" spells them (merklize_proof_kind 1..5).
KINDS = {1: "inclusion", 2: "multiproof", 3: "consistency", 4: "kary-inclusion",
         5: "kary-multiproof"}

Bytes = Union[bytes, bytearray, memoryview]


class Proof:
    """A proof that leaves are in a tree (``kind`` "inclusion", "multiproof", "kary-inclusion",
    "kary-multiproof") or that an older tree is a prefix of a newer one ("consistency", RFC 9162
    2.1.4).

    Made by :meth:`Tree.prove`, :meth:`Tree.prove_multi`, :meth:`Tree.prove_consistency` and
    :func:`merklize.prove`, or decoded by :meth:`from_json` / :meth:`from_bytes` (untrusted input
    is checked: a malformed proof raises :class:`merklize.DecodeError` naming the place).
    Proofs are immutable and may be read from several threads.
    """

    __slots__ = ("_impl",)

    def __init__(self, impl: Any) -> None:
        self._impl = impl

    @property
    def kind(self) -> str:
        """"inclusion", "multiproof", "consistency", "kary-inclusion" or "kary-multiproof"."""
        return KINDS[self._impl.kind()]

    @property
    def leaf_count(self) -> int:
        """Leaves of the tree the proof is about (the newer tree's for a consistency proof)."""
        return self._impl.leaf_count()

    @property
    def hash(self) -> str:
        """The node hash the proof claims, by its CLI name ("sha256", "blake3", ...)."""
        return self._impl.hash()

    @property
    def shape(self) -> str:
        """The shape the proof claims: "promote" or "zero"."""
        return self._impl.shape()

    @property
    def depth(self) -> int:
        """The levels from the leaves to the root the proof claims (a k-ary tree's height)."""
        return self._impl.depth()

    @property
    def arity(self) -> int:
        """The children per node the proof claims: 2 for a binary tree, k for a k-ary one."""
        return self._impl.arity()

    @property
    def mixed_length(self) -> Optional[int]:
        """An SSZ list element's proof: the list's length mixed into the root; else None."""
        return self._impl.mixed_length()

    @property
    def indices(self) -> List[int]:
        """The proven leaf indices, sorted (one for an inclusion or k-ary proof; the older
        tree's size for a consistency proof; several for either multiproof)."""
        return self._impl.indices()

    @property
    def nodes(self) -> np.ndarray:
        """The nodes the proof carries (siblings, from the leaves up; a k-ary proof's every
        level's siblings back to back; a k-ary multiproof's nodes in proof order, docs/PROOFS.md):
        a read-only ``uint8`` array of shape (n, 32) over the proof's own memory, which it keeps
        alive."""
        return self._impl.nodes()

    def to_json(self) -> str:
        """The proof as one line of JSON, as ``merklize proof`` prints it."""
        return self._impl.encode(JSON).decode("utf-8")

    def to_bytes(self) -> bytes:
        """The proof's binary encoding (docs/PROOFS.md); k-ary proofs (inclusion or multi) have
        JSON only and raise :class:`merklize.ArgumentError`."""
        return self._impl.encode(BINARY)

    @classmethod
    def from_json(cls, text: Union[str, Bytes]) -> "Proof":
        """Decodes a proof of any kind from its JSON (``str`` or UTF-8 bytes)."""
        if isinstance(text, str):
            text = text.encode("utf-8")
        return cls(_merklize._Proof.decode(text, JSON))

    @classmethod
    def from_bytes(cls, data: Bytes) -> "Proof":
        """Decodes a proof from its binary encoding."""
        return cls(_merklize._Proof.decode(data, BINARY))

    def verify(self, leaves: Union[Bytes, Sequence[Bytes], np.ndarray], root: Union[Bytes, str],
               *, kind: Optional[str] = None, hash: Optional[str] = None,
               shape: Optional[str] = None, depth: Optional[int] = None,
               arity: Optional[int] = None, leaf_count: Optional[int] = None,
               raise_on_failure: bool = False) -> bool:
        """Whether the proof shows ``leaves`` at its indices under ``root`` (on the host).

        ``leaves``: one 32-byte leaf for an inclusion or k-ary proof; for a multiproof (binary or
        k-ary) one leaf per index in the order of :attr:`indices`, as a sequence of 32-byte
        objects or as ``32 * n`` bytes (an (n, 32) array). ``root``: 32 bytes or 64 hex digits.

        The proof's header (:attr:`hash`, :attr:`shape`, :attr:`depth`, :attr:`arity`,
        :attr:`leaf_count`, :attr:`kind`) is only its claim, which the root does not bind: a
        proof relabelled with other values can verify (docs/PROOFS.md, "What a proof binds").
        Pass what you know of the tree, ``kind``, ``hash``, ``shape``, ``depth``, ``arity`` and
        ``leaf_count``, and a proof that claims otherwise does not verify.

        Returns ``False`` for a proof that does not hold, or with ``raise_on_failure=True``
        raises :class:`merklize.InvalidProofError` whose message is the library's reason.
        Consistency proofs are verified by :func:`merklize.verify_consistency`.
        """
        if self.kind == "consistency":
            raise ArgumentError("a consistency proof is verified by "
                                "merklize.verify_consistency(proof, old_root, new_root)")
        valid, reason = self._impl.verify(_leaves(leaves), _root(root, "root"), _kind(kind), hash,
                                          shape, depth, arity, leaf_count)
        return _verdict(valid, reason, raise_on_failure)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Proof):
            return NotImplemented
        return self.to_json() == other.to_json()

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return (f"<merklize.Proof {self.kind} of {self.indices} in {self.leaf_count} leaves, "
                f"{len(self.nodes)} nodes>")


def verify_consistency(proof: Proof, old_root: Union[Bytes, str], new_root: Union[Bytes, str],
                       *, hash: Optional[str] = None, leaf_count: Optional[int] = None,
                       raise_on_failure: bool = False) -> bool:
    """Whether a consistency proof shows the tree of root ``old_root`` (of ``proof.indices[0]``
    leaves) to be a prefix of the tree of root ``new_root`` (of ``proof.leaf_count`` leaves).
    Roots are 32 bytes or 64 hex digits. ``hash`` and ``leaf_count`` (the new tree's size) pin
    what the verifier knows: a proof that claims otherwise does not hold. Returns ``False`` for a
    proof that does not hold, or with ``raise_on_failure=True`` raises
    :class:`merklize.InvalidProofError` with the reason.
    """
    if not isinstance(proof, Proof):
        raise TypeError(f"proof must be a merklize.Proof, not {type(proof).__name__}")
    valid, reason = proof._impl.verify_consistency(_root(old_root, "old_root"),
                                                   _root(new_root, "new_root"), hash, leaf_count)
    return _verdict(valid, reason, raise_on_failure)


def _kind(kind: Optional[str]) -> Optional[int]:
    """A pinned kind's merklize_proof_kind, from its name."""
    if kind is None:
        return None
    for number, name in KINDS.items():
        if name == kind:
            return number
    raise ArgumentError(f"kind {kind!r}: one of {', '.join(KINDS.values())}")


def _verdict(valid: bool, reason: str, raise_on_failure: bool) -> bool:
    if not valid and raise_on_failure:
        raise InvalidProofError(reason)
    return valid


def _root(root: Union[Bytes, str], what: str) -> Bytes:
    if isinstance(root, str):
        try:
            return Digest(root)
        except ArgumentError:
            raise ArgumentError(f"{what}: {root!r} is not 64 hex digits") from None
    return root


def _leaves(leaves: Any) -> Any:
    """One buffer of 32-byte leaves: a bytes-like object as it is, a sequence joined."""
    if isinstance(leaves, (list, tuple)):
        joined = []
        for i, leaf in enumerate(leaves):
            data = bytes(memoryview(leaf))
            if len(data) != DIGEST_SIZE:
                raise ArgumentError(f"leaves[{i}] is {len(data)} bytes: a leaf is 32 bytes")
            joined.append(data)
        return b"".join(joined)
    return leaves
