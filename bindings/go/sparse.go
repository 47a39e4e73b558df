// SPDX-License-Identifier: Apache-2.0 OR MIT

package merklize

// #include <merklize.h>
// #include <stdlib.h>
import "C"

import (
	"fmt"
	"math"
	"runtime"
	"unsafe"
)

// A SparseTree is a sparse Merkle tree of 2^depth leaves addressed by 32-byte big-endian keys,
// almost all empty, kept on the device and changed by batches (docs/LIBRARY.md, "Sparse Merkle
// trees", has the rule): a zero value deletes its key, a repeated key in a batch takes its last
// value. Make one with NewSparseTree. A SparseTree may be used from several goroutines (the
// library serialises its calls). Close frees its device memory.
type SparseTree struct {
	h     *handle[C.merklize_sparse_tree]
	hash  string
	depth int
}

// A SparseProof is a key's proof: its Value (zero: the proof shows the key absent) and the Depth
// Siblings of its path, bottom up, in the tree of Hash and Depth.
type SparseProof struct {
	Hash       string
	Depth      int
	Key, Value [32]byte
	Siblings   [][32]byte
}

// NewSparseTree makes the empty tree of depth (1 to 256 key bits) on the device of WithDevice,
// with the node hash of WithHash (HashBlake3 by default); other options are refused.
func NewSparseTree(depth int, opts ...Option) (*SparseTree, error) {
	s := settingsOf(opts)
	for _, name := range append(s.treeOptions, s.blake3Options...) {
		if name != "WithHash" && s.err == nil {
			s.fail(fmt.Sprintf("NewSparseTree has no use for %s: a sparse tree takes WithHash and WithDevice", name))
		}
	}
	if s.err == nil && (depth < 0 || depth > math.MaxUint32) {
		s.fail(fmt.Sprintf("NewSparseTree: depth %d: a sparse tree's keys have 1 to 256 bits", depth))
	}
	if s.err != nil {
		return nil, s.err
	}
	device, err := deviceFor(s.device)
	if err != nil {
		return nil, err
	}
	hash := s.hash
	if hash == "" {
		hash = HashBlake3
	}
	name := C.CString(hash)
	defer C.free(unsafe.Pointer(name))
	var tree *C.merklize_sparse_tree
	if err := call(func() C.merklize_status {
		return C.merklize_sparse_tree_create(device, name, C.uint32_t(depth), &tree)
	}); err != nil {
		return nil, err
	}
	return &SparseTree{
		h:     newHandle(tree, func(t *C.merklize_sparse_tree) { C.merklize_sparse_tree_free(t) }),
		hash:  hash,
		depth: depth,
	}, nil
}

func (t *SparseTree) handle() *handle[C.merklize_sparse_tree] {
	if t == nil {
		return nil
	}
	return t.h
}

// Close frees the tree's device memory. Close always returns nil.
func (t *SparseTree) Close() error {
	t.handle().close()
	return nil
}

// Root is the root after the last batch (the empty tree's at first).
func (t *SparseTree) Root() (root [32]byte, err error) {
	var out [32]byte
	err = t.handle().with(func(tree *C.merklize_sparse_tree) error {
		return call(func() C.merklize_status {
			return C.merklize_sparse_tree_root(tree, (*C.uint8_t)(unsafe.Pointer(&out[0])))
		})
	})
	if err == nil {
		root = out
	}
	return root, err
}

// Size is the number of keys holding a nonzero value; 0 once closed.
func (t *SparseTree) Size() uint64 {
	var n uint64
	t.handle().with(func(tree *C.merklize_sparse_tree) error {
		n = uint64(C.merklize_sparse_tree_size(tree))
		return nil
	})
	return n
}

// Update makes key keys[k] hold values[k] and returns the new root. A refused batch (a key past
// the depth, len(values) not len(keys)) is ErrArgument and leaves the tree as it was.
func (t *SparseTree) Update(keys, values [][32]byte) (root [32]byte, err error) {
	if len(keys) != len(values) {
		return root, argumentError(fmt.Sprintf("SparseTree.Update: %d keys but %d values: give a value for each key",
			len(keys), len(values)))
	}
	var k, v *C.uint8_t
	if len(keys) > 0 {
		k, v = (*C.uint8_t)(unsafe.Pointer(&keys[0][0])), (*C.uint8_t)(unsafe.Pointer(&values[0][0]))
	}
	var out [32]byte
	err = t.handle().with(func(tree *C.merklize_sparse_tree) error {
		return call(func() C.merklize_status {
			return C.merklize_sparse_tree_update(tree, k, v, C.uint64_t(len(keys)), (*C.uint8_t)(unsafe.Pointer(&out[0])))
		})
	})
	if err == nil {
		root = out
	}
	return root, err
}

// Value is the value key holds (zero: absent).
func (t *SparseTree) Value(key [32]byte) (value [32]byte, err error) {
	var out [32]byte
	err = t.handle().with(func(tree *C.merklize_sparse_tree) error {
		return call(func() C.merklize_status {
			return C.merklize_sparse_tree_value(tree, (*C.uint8_t)(unsafe.Pointer(&key[0])),
				(*C.uint8_t)(unsafe.Pointer(&out[0])))
		})
	})
	if err == nil {
		value = out
	}
	return value, err
}

// Prove is key's proof under the root now: of presence, or of absence.
func (t *SparseTree) Prove(key [32]byte) (*SparseProof, error) {
	var value [32]byte
	var siblings *C.merklize_bytes
	err := t.handle().with(func(tree *C.merklize_sparse_tree) error {
		return call(func() C.merklize_status {
			return C.merklize_sparse_tree_prove(tree, (*C.uint8_t)(unsafe.Pointer(&key[0])),
				(*C.uint8_t)(unsafe.Pointer(&value[0])), &siblings)
		})
	})
	if err != nil {
		return nil, err
	}
	proof := &SparseProof{Hash: t.hash, Depth: t.depth, Key: key, Value: value}
	data := bytesOf(siblings)
	proof.Siblings = make([][32]byte, len(data)/32)
	for i := range proof.Siblings {
		copy(proof.Siblings[i][:], data[32*i:])
	}
	return proof, nil
}

// ProvesAbsence says whether the proof shows its key absent (its value is zero).
func (p *SparseProof) ProvesAbsence() bool { return p.Value == [32]byte{} }

// Verify checks the proof on the host: nil when it leads to root; when not, an error that wraps
// ErrInvalidProof with the library's reason. A proof of another number of siblings than its
// depth is ErrArgument.
func (p *SparseProof) Verify(root [32]byte) error {
	if p.Depth < 0 || p.Depth > math.MaxUint32 {
		return argumentError(fmt.Sprintf("SparseProof.Verify: depth %d: 1 to 256", p.Depth))
	}
	name := C.CString(p.Hash)
	defer C.free(unsafe.Pointer(name))
	var s *C.uint8_t
	if len(p.Siblings) > 0 {
		s = (*C.uint8_t)(unsafe.Pointer(&p.Siblings[0][0]))
	}
	runtime.LockOSThread() // the reason is in this thread's merklize_last_error
	defer runtime.UnlockOSThread()
	var valid C.int
	if err := call(func() C.merklize_status {
		return C.merklize_sparse_verify(name, C.uint32_t(p.Depth), (*C.uint8_t)(unsafe.Pointer(&root[0])),
			(*C.uint8_t)(unsafe.Pointer(&p.Key[0])), (*C.uint8_t)(unsafe.Pointer(&p.Value[0])), s,
			C.size_t(32*len(p.Siblings)), &valid)
	}); err != nil {
		return err
	}
	if valid == 0 {
		return fmt.Errorf("%w: %s", ErrInvalidProof, C.GoString(C.merklize_last_error()))
	}
	return nil
}
