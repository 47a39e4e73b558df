// SPDX-License-Identifier: Apache-2.0 OR MIT

package merklize

// #include <merklize.h>
import "C"

import (
	"fmt"
	"math"
	"unsafe"
)

// A DeviceTree is a tree of 32-byte leaves built once on the device and kept there: each
// Update writes its leaves and recomputes only the nodes above them, each Append adds leaves
// after the last (a log: the old tree stays a prefix). Make one with NewDeviceTree.
// A DeviceTree may be used from several goroutines (the library serialises its calls). Close
// frees its device memory; the garbage collector frees an unreachable DeviceTree too, but Close
// says when.
type DeviceTree struct {
	h *handle[C.merklize_device_tree]
}

// NewDeviceTree builds the tree of data (32-byte leaves back to back, at least one) on the
// device of WithDevice and keeps it there. The options are NewBuilder's for trees of 32-byte
// leaves: WithHash, WithShape, WithDepth, WithDevice, WithArity (a k-ary tree updates, appends,
// proves, reads its levels, takes update batches, UpdateCL, AppendCL and snapshots, and its
// UpdateProved gives a ProofKaryMulti; ProveConsistency refuses it, naming the arity). data is
// only read.
func NewDeviceTree(data []byte, opts ...Option) (*DeviceTree, error) {
	s, err := forTree("NewDeviceTree", opts)
	if err != nil {
		return nil, err
	}
	b, err := newBuilder(s)
	if err != nil {
		return nil, err
	}
	defer b.Close() // the tree outlives it
	var tree *C.merklize_device_tree
	err = b.handle().with(func(builder *C.merklize_builder) error {
		return call(func() C.merklize_status {
			return C.merklize_device_tree_create(builder, bytesPointer(data), C.uint64_t(len(data)), &tree)
		})
	})
	if err != nil {
		return nil, err
	}
	return &DeviceTree{h: newHandle(tree, func(t *C.merklize_device_tree) { C.merklize_device_tree_free(t) })}, nil
}

func bytesPointer(data []byte) unsafe.Pointer {
	if len(data) == 0 {
		return nil
	}
	return unsafe.Pointer(&data[0])
}

func (t *DeviceTree) handle() *handle[C.merklize_device_tree] {
	if t == nil {
		return nil
	}
	return t.h
}

// Close frees the tree's device memory. Proofs made from it stay valid. Close always returns nil.
func (t *DeviceTree) Close() error {
	t.handle().close()
	return nil
}

// LeafCount is the number of leaves now (an update never changes it, an append grows it); 0
// once closed.
func (t *DeviceTree) LeafCount() uint64 {
	var n uint64
	t.handle().with(func(tree *C.merklize_device_tree) error {
		n = uint64(C.merklize_device_tree_leaf_count(tree))
		return nil
	})
	return n
}

// Depth is the top stored level now: levels 0 (the leaves) to Depth() are on the device; 0 once
// closed.
func (t *DeviceTree) Depth() int {
	var depth int
	t.handle().with(func(tree *C.merklize_device_tree) error {
		depth = int(C.merklize_device_tree_depth(tree))
		return nil
	})
	return depth
}

// Root is the root after the last update (at the fixed depth of WithDepth).
func (t *DeviceTree) Root() (root [32]byte, err error) {
	var out [32]byte
	err = t.handle().with(func(tree *C.merklize_device_tree) error {
		return call(func() C.merklize_status {
			return C.merklize_device_tree_root(tree, (*C.uint8_t)(unsafe.Pointer(&out[0])))
		})
	})
	if err == nil {
		root = out
	}
	return root, err
}

// Update makes leaf indices[k] leaves[k] and returns the new root. Within one batch a repeated
// index takes its last value. A refused batch (an index out of range, len(leaves) not
// len(indices)) is ErrArgument and leaves the tree as it was.
func (t *DeviceTree) Update(indices []uint64, leaves [][32]byte) (root [32]byte, err error) {
	var out [32]byte
	err = t.batch("Update", indices, leaves, func(tree *C.merklize_device_tree, i *C.uint64_t,
		l unsafe.Pointer, n C.uint64_t) C.merklize_status {
		return C.merklize_device_tree_update(tree, i, l, n, (*C.uint8_t)(unsafe.Pointer(&out[0])))
	})
	if err == nil {
		root = out
	}
	return root, err
}

// UpdateProved is Update, and the multiproof of the updated leaves in the new tree (indices
// sorted, once each): Tree.ProveMulti's of a tree built over the new leaves (a ProofMulti, or
// at arity k a ProofKaryMulti).
func (t *DeviceTree) UpdateProved(indices []uint64, leaves [][32]byte) (root [32]byte, proof *Proof, err error) {
	var out [32]byte
	var p *C.merklize_proof
	err = t.batch("UpdateProved", indices, leaves, func(tree *C.merklize_device_tree, i *C.uint64_t,
		l unsafe.Pointer, n C.uint64_t) C.merklize_status {
		return C.merklize_device_tree_update_proved(tree, i, l, n, (*C.uint8_t)(unsafe.Pointer(&out[0])), &p)
	})
	if err != nil {
		return root, nil, err
	}
	return out, newProof(p), nil
}

// batch checks that there is a leaf for each index, then calls f with C's view of them.
func (t *DeviceTree) batch(name string, indices []uint64, leaves [][32]byte,
	f func(*C.merklize_device_tree, *C.uint64_t, unsafe.Pointer, C.uint64_t) C.merklize_status) error {
	if len(indices) != len(leaves) {
		return argumentError(fmt.Sprintf("DeviceTree.%s: %d indices but %d leaves: give a leaf for each index",
			name, len(indices), len(leaves)))
	}
	var i *C.uint64_t
	var l unsafe.Pointer
	if len(indices) > 0 {
		i, l = (*C.uint64_t)(unsafe.Pointer(&indices[0])), unsafe.Pointer(&leaves[0][0])
	}
	return t.handle().with(func(tree *C.merklize_device_tree) error {
		return call(func() C.merklize_status { return f(tree, i, l, C.uint64_t(len(indices))) })
	})
}

// Append adds leaves after the last leaf and returns the new root, the root of a tree built over
// all the leaves: only the new leaves' paths are recomputed. With WithDepth(d) the tree holds at
// most 2^d leaves, else 2^32: an append past that is ErrArgument and leaves the tree as it was.
// No leaves change nothing. leaves is only read.
func (t *DeviceTree) Append(leaves [][32]byte) (root [32]byte, err error) {
	var out [32]byte
	var l unsafe.Pointer
	if len(leaves) > 0 {
		l = unsafe.Pointer(&leaves[0][0])
	}
	err = t.handle().with(func(tree *C.merklize_device_tree) error {
		return call(func() C.merklize_status {
			return C.merklize_device_tree_append(tree, l, C.uint64_t(len(leaves)), (*C.uint8_t)(unsafe.Pointer(&out[0])))
		})
	})
	if err == nil {
		root = out
	}
	return root, err
}

// ProveConsistency is the proof that the tree of the first oldSize leaves is a prefix of the tree
// as it is now (RFC 9162 2.1.4), Tree.ProveConsistency's of a tree built over the same leaves;
// Proof.VerifyConsistency checks it against the root the tree had at oldSize leaves. Trees of
// ShapePromote without WithDepth, of any hash but blake3-parent; others are ErrArgument.
func (t *DeviceTree) ProveConsistency(oldSize uint64) (*Proof, error) {
	var proof *C.merklize_proof
	err := t.handle().with(func(tree *C.merklize_device_tree) error {
		return call(func() C.merklize_status {
			return C.merklize_device_tree_prove_consistency(tree, C.uint64_t(oldSize), &proof)
		})
	})
	if err != nil {
		return nil, err
	}
	return newProof(proof), nil
}

// Prove is the inclusion proof of leaf index in the tree as it is now.
func (t *DeviceTree) Prove(index uint64) (*Proof, error) {
	var proof *C.merklize_proof
	err := t.handle().with(func(tree *C.merklize_device_tree) error {
		return call(func() C.merklize_status { return C.merklize_device_tree_prove(tree, C.uint64_t(index), &proof) })
	})
	if err != nil {
		return nil, err
	}
	return newProof(proof), nil
}

// Level is a copy of level k's nodes read back from the device: level 0 is the leaves.
func (t *DeviceTree) Level(k int) ([][32]byte, error) {
	if k < 0 || k > math.MaxUint32 {
		return nil, argumentError(fmt.Sprintf("level %d: levels are 0 to %d", k, t.Depth()))
	}
	var nodes [][32]byte
	err := t.handle().with(func(tree *C.merklize_device_tree) error {
		var count C.uint64_t
		err := call(func() C.merklize_status {
			return C.merklize_device_tree_level_size(tree, C.uint32_t(k), &count)
		})
		if err != nil {
			return err
		}
		nodes = make([][32]byte, int(count)) // at least one: every level has a node
		return call(func() C.merklize_status {
			return C.merklize_device_tree_read_level(tree, C.uint32_t(k), 0, count,
				(*C.uint8_t)(unsafe.Pointer(&nodes[0])))
		})
	})
	if err != nil {
		return nil, err
	}
	return nodes, nil
}
