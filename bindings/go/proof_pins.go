// SPDX-License-Identifier: Apache-2.0 OR MIT

package merklize

// #include <merklize.h>
// #include <stdlib.h>
import "C"

import "unsafe"

// proofHeader is what a proof claims of its tree besides its kind and leaf count.
type proofHeader struct {
	hash, shape    string
	depth, arity   uint32
	mixedLength    uint64
	hasMixedLength bool
}

func headerOf(proof *C.merklize_proof) proofHeader {
	h := proofHeader{
		hash:  C.GoString(C.merklize_proof_hash(proof)),
		shape: C.GoString(C.merklize_proof_shape(proof)),
		depth: uint32(C.merklize_proof_depth(proof)),
		arity: uint32(C.merklize_proof_arity(proof)),
	}
	var length C.uint64_t
	if C.merklize_proof_mixed_length(proof, &length) != 0 {
		h.mixedLength, h.hasMixedLength = uint64(length), true
	}
	return h
}

func (p *Proof) headerOrZero() proofHeader {
	if p == nil {
		return proofHeader{}
	}
	return p.header
}

// Hash is the node hash the proof claims, by its CLI name ("sha256", "blake3", ...).
func (p *Proof) Hash() string { return p.headerOrZero().hash }

// Shape is the shape the proof claims: "promote" or "zero".
func (p *Proof) Shape() string { return p.headerOrZero().shape }

// Depth is the levels from the leaves to the root the proof claims (a k-ary tree's height).
func (p *Proof) Depth() uint32 { return p.headerOrZero().depth }

// Arity is the children per node the proof claims: 2 for a binary tree, k for a k-ary one.
func (p *Proof) Arity() uint32 { return p.headerOrZero().arity }

// MixedLength is the list's length of an SSZ list element's proof, and whether it has one.
func (p *Proof) MixedLength() (uint64, bool) {
	h := p.headerOrZero()
	return h.mixedLength, h.hasMixedLength
}

// Expectations are what a verifier knows of the tree apart from the proof
// (merklize_proof_expectations): a proof's header is only its claim, which the root does not
// bind, so a proof relabelled with another hash, shape, depth, arity or leaf count can verify
// where its nodes drive the same computation (docs/PROOFS.md, "What a proof binds"). Each zero
// member pins nothing; Depth is pinned where it is not nil.
type Expectations struct {
	Kind      ProofKind // 0: any
	Hash      string    // "": any
	Shape     string    // "": any; else "promote" or "zero"
	Depth     *uint32   // nil: any; else the root's depth (a k-ary tree's height)
	Arity     uint32    // 0: any; else 2, or the k of a k-ary tree
	LeafCount uint64    // 0: any; else the tree's leaves (the new tree's for consistency)
}

// c is e as merklize.h's struct, its strings in C memory until free is called.
func (e Expectations) c() (C.merklize_proof_expectations, func()) {
	var out C.merklize_proof_expectations
	C.merklize_proof_expectations_init(&out)
	out.kind = C.int32_t(e.Kind)
	var strings []*C.char
	if e.Hash != "" {
		out.hash = C.CString(e.Hash)
		strings = append(strings, out.hash)
	}
	if e.Shape != "" {
		out.shape = C.CString(e.Shape)
		strings = append(strings, out.shape)
	}
	if e.Depth != nil {
		out.depth = C.int32_t(*e.Depth)
	}
	out.arity = C.uint32_t(e.Arity)
	out.leaf_count = C.uint64_t(e.LeafCount)
	return out, func() {
		for _, s := range strings {
			C.free(unsafe.Pointer(s))
		}
	}
}

// VerifyPinned is Verify with what the verifier knows: a proof whose header differs from a
// pinned value does not verify (an error wrapping ErrInvalidProof names it). An unknown hash or
// shape name is an *Error.
func (p *Proof) VerifyPinned(leaves [][32]byte, root [32]byte, expect Expectations) error {
	pins, free := expect.c()
	defer free()
	return p.verify(func(proof *C.merklize_proof, valid *C.int) C.merklize_status {
		var first *C.uint8_t
		if len(leaves) > 0 {
			first = (*C.uint8_t)(unsafe.Pointer(&leaves[0][0]))
		}
		return C.merklize_proof_verify_pinned(proof, first, C.size_t(len(leaves)),
			(*C.uint8_t)(unsafe.Pointer(&root[0])), &pins, valid)
	})
}

// VerifyConsistencyPinned is VerifyConsistency with what the verifier knows (LeafCount: the new
// tree's size).
func (p *Proof) VerifyConsistencyPinned(oldRoot, newRoot [32]byte, expect Expectations) error {
	pins, free := expect.c()
	defer free()
	return p.verify(func(proof *C.merklize_proof, valid *C.int) C.merklize_status {
		return C.merklize_verify_consistency_pinned(proof, (*C.uint8_t)(unsafe.Pointer(&oldRoot[0])),
			(*C.uint8_t)(unsafe.Pointer(&newRoot[0])), &pins, valid)
	})
}
