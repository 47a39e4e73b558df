// SPDX-License-Identifier: Apache-2.0 OR MIT

package merklize

// #include <merklize.h>
import "C"

import (
	"fmt"
	"math"
	"unsafe"
)

// A Tree is a tree built by a Builder, in host memory: its root and the levels its builder kept
// (every level, for the builders of this package). It is read-only, so any goroutines may read
// it at once. Close frees its memory; the garbage collector frees an unreachable Tree too.
type Tree struct {
	h          *handle[C.merklize_tree]
	root       [32]byte
	leafCount  uint64
	depth      int
	firstLevel int
}

func newTree(tree *C.merklize_tree) *Tree {
	t := &Tree{
		h:          newHandle(tree, func(t *C.merklize_tree) { C.merklize_tree_free(t) }),
		leafCount:  uint64(C.merklize_tree_leaf_count(tree)),
		depth:      int(C.merklize_tree_depth(tree)),
		firstLevel: int(C.merklize_tree_first_level(tree)),
	}
	C.merklize_tree_root(tree, (*C.uint8_t)(unsafe.Pointer(&t.root[0]))) // cannot fail on a tree
	return t
}

// Close frees the tree's memory: its LevelView slices must not be used after it. Proofs made
// from it stay valid. Close always returns nil.
func (t *Tree) Close() error {
	if t != nil {
		t.h.close()
	}
	return nil
}

// Root is the tree's root (with WithMixInLength, the list root). It stays readable after Close.
func (t *Tree) Root() [32]byte {
	if t == nil {
		return [32]byte{}
	}
	return t.root
}

// LeafCount is the number of leaves the tree was built from.
func (t *Tree) LeafCount() uint64 {
	if t == nil {
		return 0
	}
	return t.leafCount
}

// Depth is the level of the root: levels FirstLevel() to Depth() are stored. A fixed depth or a
// mixed-in length adds levels above it that are not stored.
func (t *Tree) Depth() int {
	if t == nil {
		return 0
	}
	return t.depth
}

// FirstLevel is the lowest level kept: 0, the leaves, for trees of this package's builders.
func (t *Tree) FirstLevel() int {
	if t == nil {
		return 0
	}
	return t.firstLevel
}

func (t *Tree) handle() *handle[C.merklize_tree] {
	if t == nil {
		return nil
	}
	return t.h
}

// LevelView is level k's nodes in the tree's own memory, without a copy: level 0 is the leaves,
// level Depth() the root. The slice is C memory that Close (or the garbage collector, once the
// Tree is unreachable) frees: use it only while the Tree is open and reachable (keep the Tree in
// a variable used after the slice, or call runtime.KeepAlive(tree)), and never write to it.
// Level gives a copy without these rules.
func (t *Tree) LevelView(k int) (view [][32]byte, err error) {
	err = t.handle().with(func(tree *C.merklize_tree) error {
		view, err = t.levelView(tree, k)
		return err
	})
	return view, err
}

// Level is a copy of level k's nodes: level 0 is the leaves, level Depth() the root.
func (t *Tree) Level(k int) (level [][32]byte, err error) {
	err = t.handle().with(func(tree *C.merklize_tree) error {
		view, err := t.levelView(tree, k)
		level = append([][32]byte(nil), view...)
		return err
	})
	return level, err
}

func (t *Tree) levelView(tree *C.merklize_tree, k int) ([][32]byte, error) {
	if err := t.checkLevel(k); err != nil {
		return nil, err
	}
	var nodes *C.uint8_t
	var count C.uint64_t
	err := call(func() C.merklize_status {
		return C.merklize_tree_level(tree, C.uint32_t(k), &nodes, &count)
	})
	if err != nil || count == 0 {
		return nil, err
	}
	return unsafe.Slice((*[32]byte)(unsafe.Pointer(nodes)), int(count)), nil
}

// checkLevel refuses what uint32 would not carry to the library, which checks the rest.
func (t *Tree) checkLevel(k int) error {
	if k < 0 || k > math.MaxUint32 {
		return argumentError(fmt.Sprintf("level %d: levels are %d to %d", k, t.firstLevel, t.depth))
	}
	return nil
}

// Node is node index of level k.
func (t *Tree) Node(k int, index uint64) (node [32]byte, err error) {
	var out [32]byte
	err = t.handle().with(func(tree *C.merklize_tree) error {
		if err := t.checkLevel(k); err != nil {
			return err
		}
		return call(func() C.merklize_status {
			return C.merklize_tree_node(tree, C.uint32_t(k), C.uint64_t(index),
				(*C.uint8_t)(unsafe.Pointer(&out[0])))
		})
	})
	if err == nil {
		node = out
	}
	return node, err
}

// Prove is the inclusion proof of leaf index (an audit path for rfc6962; a branch of SSZ's list
// for WithMixInLength; a k-ary proof for a k-ary tree).
func (t *Tree) Prove(index uint64) (*Proof, error) {
	return t.proof(func(tree *C.merklize_tree, proof **C.merklize_proof) C.merklize_status {
		return C.merklize_prove(tree, C.uint64_t(index), proof)
	})
}

// ProveMulti is the proof of several leaves at once, in any order, repeats allowed (the proof
// holds them sorted: Proof.Indices): a ProofMulti, or at arity k a ProofKaryMulti.
func (t *Tree) ProveMulti(indices []uint64) (*Proof, error) {
	return t.proof(func(tree *C.merklize_tree, proof **C.merklize_proof) C.merklize_status {
		var first *C.uint64_t
		if len(indices) > 0 {
			first = (*C.uint64_t)(unsafe.Pointer(&indices[0]))
		}
		return C.merklize_prove_multi(tree, first, C.size_t(len(indices)), proof)
	})
}

// ProveConsistency is the proof that the tree of the first oldSize leaves is a prefix of this
// one (RFC 9162 2.1.4; trees of any hash but blake3-parent, shape promote).
func (t *Tree) ProveConsistency(oldSize uint64) (*Proof, error) {
	return t.proof(func(tree *C.merklize_tree, proof **C.merklize_proof) C.merklize_status {
		return C.merklize_prove_consistency(tree, C.uint64_t(oldSize), proof)
	})
}

func (t *Tree) proof(f func(*C.merklize_tree, **C.merklize_proof) C.merklize_status) (*Proof, error) {
	var proof *C.merklize_proof
	err := t.handle().with(func(tree *C.merklize_tree) error {
		return call(func() C.merklize_status { return f(tree, &proof) })
	})
	if err != nil {
		return nil, err
	}
	return newProof(proof), nil
}
