// SPDX-License-Identifier: Apache-2.0 OR MIT

package merklize

// #include <merklize.h>
import "C"

import (
	"bytes"
	"fmt"
	"runtime"
	"unsafe"
)

// ProofKind is what a Proof proves.
type ProofKind int

// The kinds of proofs (merklize.h's merklize_proof_kind).
const (
	ProofInclusion   ProofKind = C.MERKLIZE_PROOF_INCLUSION   // one leaf of a binary tree
	ProofMulti       ProofKind = C.MERKLIZE_PROOF_MULTI       // several leaves of a binary tree
	ProofConsistency ProofKind = C.MERKLIZE_PROOF_CONSISTENCY // an old tree is a prefix of a new one
	ProofKary        ProofKind = C.MERKLIZE_PROOF_KARY        // one leaf of a k-ary tree
	ProofKaryMulti   ProofKind = C.MERKLIZE_PROOF_KARY_MULTI  // several leaves of a k-ary tree
)

func (k ProofKind) String() string {
	switch k {
	case ProofInclusion:
		return "inclusion"
	case ProofMulti:
		return "multi"
	case ProofConsistency:
		return "consistency"
	case ProofKary:
		return "k-ary"
	case ProofKaryMulti:
		return "k-ary multi"
	}
	return fmt.Sprintf("ProofKind(%d)", int(k))
}

// A Proof is an inclusion proof, a multiproof, a k-ary proof, a k-ary multiproof or a
// consistency proof, made by a
// Tree or a Builder, or decoded with UnmarshalJSON or UnmarshalBinary (a zero Proof is ready to
// decode into). It implements json.Marshaler, json.Unmarshaler, encoding.BinaryMarshaler and
// encoding.BinaryUnmarshaler: the JSON is the one line `merklize proof` prints, the binary form
// docs/PROOFS.md's (not for k-ary proofs, inclusion or multi). Close frees it; the garbage collector frees an
// unreachable Proof too.
type Proof struct {
	h         *handle[C.merklize_proof]
	kind      ProofKind
	leafCount uint64
	header    proofHeader // the rest of its header (proof_pins.go)
}

func newProof(proof *C.merklize_proof) *Proof {
	p := &Proof{}
	p.set(proof)
	return p
}

// set makes the proof hold a new object of the library, freeing the one it held.
func (p *Proof) set(proof *C.merklize_proof) {
	p.h.close()
	p.h = newHandle(proof, func(p *C.merklize_proof) { C.merklize_proof_free(p) })
	p.kind = ProofKind(C.merklize_proof_get_kind(proof))
	p.leafCount = uint64(C.merklize_proof_leaf_count(proof))
	p.header = headerOf(proof)
}

func (p *Proof) handle() *handle[C.merklize_proof] {
	if p == nil {
		return nil
	}
	return p.h
}

// Close frees the proof. Close always returns nil.
func (p *Proof) Close() error {
	p.handle().close()
	return nil
}

// Kind is what the proof proves; 0 for a zero Proof.
func (p *Proof) Kind() ProofKind {
	if p == nil {
		return 0
	}
	return p.kind
}

// LeafCount is the number of leaves of the tree the proof is about (the new tree's for a
// consistency proof).
func (p *Proof) LeafCount() uint64 {
	if p == nil {
		return 0
	}
	return p.leafCount
}

// Indices are the proven leaf indices, ascending (the old size for a consistency proof).
func (p *Proof) Indices() ([]uint64, error) {
	var indices []uint64
	err := p.handle().with(func(proof *C.merklize_proof) error {
		var first *C.uint64_t
		var count C.size_t
		err := call(func() C.merklize_status { return C.merklize_proof_indices(proof, &first, &count) })
		if err == nil && count > 0 {
			indices = append(indices, unsafe.Slice((*uint64)(unsafe.Pointer(first)), int(count))...)
		}
		return err
	})
	return indices, err
}

// Nodes are the nodes the proof carries, siblings from the leaves up (a k-ary proof: every
// level's siblings, back to back; a k-ary multiproof: its nodes in proof order, docs/PROOFS.md).
func (p *Proof) Nodes() ([][32]byte, error) {
	var nodes [][32]byte
	err := p.handle().with(func(proof *C.merklize_proof) error {
		var first *C.uint8_t
		var count C.size_t
		err := call(func() C.merklize_status { return C.merklize_proof_nodes(proof, &first, &count) })
		if err == nil && count > 0 {
			nodes = append(nodes, unsafe.Slice((*[32]byte)(unsafe.Pointer(first)), int(count))...)
		}
		return err
	})
	return nodes, err
}

func (p *Proof) encode(encoding C.merklize_encoding) ([]byte, error) {
	var encoded []byte
	err := p.handle().with(func(proof *C.merklize_proof) error {
		var out *C.merklize_bytes
		err := call(func() C.merklize_status { return C.merklize_proof_encode(proof, encoding, &out) })
		if err != nil {
			return err
		}
		defer C.merklize_bytes_free(out)
		encoded = C.GoBytes(unsafe.Pointer(C.merklize_bytes_data(out)), C.int(C.merklize_bytes_size(out)))
		return nil
	})
	return encoded, err
}

// MarshalJSON encodes the proof as the one line of JSON `merklize proof` prints.
func (p *Proof) MarshalJSON() ([]byte, error) { return p.encode(C.MERKLIZE_ENCODING_JSON) }

// MarshalBinary encodes the proof in docs/PROOFS.md's binary form (not k-ary proofs).
func (p *Proof) MarshalBinary() ([]byte, error) { return p.encode(C.MERKLIZE_ENCODING_BINARY) }

// decode replaces the proof with the one data encodes; on an error it is left as it was.
func (p *Proof) decode(data []byte, encoding C.merklize_encoding) error {
	if p == nil {
		return argumentError("decoding into a nil *Proof")
	}
	var first unsafe.Pointer
	if len(data) > 0 {
		first = unsafe.Pointer(&data[0])
	}
	var proof *C.merklize_proof
	err := call(func() C.merklize_status {
		return C.merklize_proof_decode(first, C.size_t(len(data)), encoding, &proof)
	})
	if err != nil {
		return err
	}
	p.set(proof)
	return nil
}

// UnmarshalJSON decodes a proof in JSON (as MarshalJSON and `merklize proof` write it), checked as
// untrusted input: ErrDecode with the place and the reason if malformed. JSON null leaves the
// proof as it is.
func (p *Proof) UnmarshalJSON(data []byte) error {
	if bytes.Equal(bytes.TrimSpace(data), []byte("null")) {
		return nil
	}
	return p.decode(data, C.MERKLIZE_ENCODING_JSON)
}

// UnmarshalBinary decodes a proof in docs/PROOFS.md's binary form, checked as untrusted input:
// ErrDecode with the place and the reason if malformed.
func (p *Proof) UnmarshalBinary(data []byte) error {
	return p.decode(data, C.MERKLIZE_ENCODING_BINARY)
}

// Verify checks an inclusion, multi or k-ary proof: leaves holds the proven leaves, one per index
// of Indices, in that order. It returns nil when the proof shows them under root; when not, an
// error that wraps ErrInvalidProof with the library's reason. A call that cannot be made (a
// consistency proof, a closed proof) is an *Error. It checks the proof against its own header,
// which the root does not bind: a verifier that knows its tree uses VerifyPinned.
func (p *Proof) Verify(leaves [][32]byte, root [32]byte) error {
	return p.verify(func(proof *C.merklize_proof, valid *C.int) C.merklize_status {
		var first *C.uint8_t
		if len(leaves) > 0 {
			first = (*C.uint8_t)(unsafe.Pointer(&leaves[0][0]))
		}
		return C.merklize_proof_verify(proof, first, C.size_t(len(leaves)),
			(*C.uint8_t)(unsafe.Pointer(&root[0])), valid)
	})
}

// VerifyConsistency checks a consistency proof: nil when it shows the tree of root oldRoot to be
// a prefix of the tree of root newRoot; when not, an error that wraps ErrInvalidProof with the
// library's reason.
func (p *Proof) VerifyConsistency(oldRoot, newRoot [32]byte) error {
	return p.verify(func(proof *C.merklize_proof, valid *C.int) C.merklize_status {
		return C.merklize_verify_consistency(proof, (*C.uint8_t)(unsafe.Pointer(&oldRoot[0])),
			(*C.uint8_t)(unsafe.Pointer(&newRoot[0])), valid)
	})
}

func (p *Proof) verify(f func(*C.merklize_proof, *C.int) C.merklize_status) error {
	return p.handle().with(func(proof *C.merklize_proof) error {
		runtime.LockOSThread() // the reason is in this thread's merklize_last_error
		defer runtime.UnlockOSThread()
		var valid C.int
		if err := call(func() C.merklize_status { return f(proof, &valid) }); err != nil {
			return err
		}
		if valid == 0 {
			return fmt.Errorf("%w: %s", ErrInvalidProof, C.GoString(C.merklize_last_error()))
		}
		return nil
	})
}
