// SPDX-License-Identifier: Apache-2.0 OR MIT

package merklize_test

import (
	"crypto/sha256"
	"errors"
	"strings"
	"testing"

	"merklize"
)

// denseRoot is the depth-8 sparse tree computed here as the dense tree of its 256 leaves (leaf k
// key k's value, or zero), SHA-256 of the two children a node.
func denseRoot(held map[[32]byte][32]byte) [32]byte {
	level := make([][32]byte, 256)
	for key, value := range held {
		level[key[31]] = value
	}
	for len(level) > 1 {
		up := make([][32]byte, len(level)/2)
		for i := range up {
			up[i] = sha256.Sum256(append(level[2*i][:], level[2*i+1][:]...))
		}
		level = up
	}
	return level[0]
}

func key8(k byte) (key [32]byte) {
	key[31] = k
	return key
}

// checkSparse: every held key's value and proof, and an absent key's, against the root; proofs
// refused once a sibling or the value changes.
func checkSparse(t *testing.T, tree *merklize.SparseTree, held map[[32]byte][32]byte, absent [32]byte) {
	t.Helper()
	root, err := tree.Root()
	if err != nil {
		t.Fatal(err)
	}
	present := uint64(0)
	for _, v := range held {
		if v != ([32]byte{}) {
			present++
		}
	}
	if tree.Size() != present {
		t.Fatalf("size %d, want %d", tree.Size(), present)
	}
	all := map[[32]byte][32]byte{absent: {}}
	for k, v := range held {
		all[k] = v
	}
	for key, value := range all {
		if got, err := tree.Value(key); err != nil || got != value {
			t.Fatalf("Value(%x): %x, %v; want %x", key, got, err, value)
		}
		proof, err := tree.Prove(key)
		if err != nil || proof.Value != value || len(proof.Siblings) != proof.Depth ||
			proof.ProvesAbsence() != (value == [32]byte{}) {
			t.Fatalf("Prove(%x): %+v, %v", key, proof, err)
		}
		if err := proof.Verify(root); err != nil {
			t.Fatalf("the proof of %x: %v", key, err)
		}
		changed := *proof
		changed.Siblings = append([][32]byte(nil), proof.Siblings...)
		changed.Siblings[len(changed.Siblings)-1][0] ^= 1
		if err := changed.Verify(root); !errors.Is(err, merklize.ErrInvalidProof) {
			t.Fatalf("a proof with a changed sibling: %v", err)
		}
		changed = *proof
		changed.Value[0] ^= 0x80
		if err := changed.Verify(root); !errors.Is(err, merklize.ErrInvalidProof) {
			t.Fatalf("a proof of another value: %v", err)
		}
	}
}

// TestSparseTree: depth 8 against the dense tree of 256 leaves (crypto/sha256), with new,
// changed, repeated and deleted keys; depth 256 against its own proofs; refusals.
func TestSparseTree(t *testing.T) {
	tree, err := merklize.NewSparseTree(8, merklize.WithHash(merklize.HashSHA256))
	if err != nil {
		t.Fatal(err)
	}
	defer tree.Close()
	held := map[[32]byte][32]byte{}
	if root, _ := tree.Root(); root != denseRoot(held) {
		t.Fatalf("the empty tree's root %x, want %x", root, denseRoot(held))
	}
	values := asLeaves(randomBytes(32*5, 8))
	for _, batch := range []struct{ keys, values [][32]byte }{
		{[][32]byte{key8(0), key8(255), key8(7), key8(128), key8(7)}, values},
		{[][32]byte{key8(255), key8(0), key8(200)}, [][32]byte{{}, {5}, {6}}},
	} {
		root, err := tree.Update(batch.keys, batch.values)
		for i, k := range batch.keys {
			held[k] = batch.values[i] // in order: a repeated key ends with its last value
		}
		if err != nil || root != denseRoot(held) {
			t.Fatalf("root %x, %v; the dense tree's %x", root, err, denseRoot(held))
		}
		checkSparse(t, tree, held, key8(9))
	}
	before, _ := tree.Root()
	var past [32]byte
	past[30] = 1 // bit 8
	if _, err := tree.Update([][32]byte{key8(1), past}, make([][32]byte, 2)); !errors.Is(err, merklize.ErrArgument) ||
		!strings.Contains(err.Error(), "has bit 8 set") {
		t.Fatalf("a key past the depth: %v", err)
	}
	if _, err := tree.Update([][32]byte{key8(1)}, nil); !errors.Is(err, merklize.ErrArgument) {
		t.Fatalf("a key without a value: %v", err)
	}
	if root, _ := tree.Root(); root != before || tree.Size() != 4 {
		t.Fatal("a refused batch changed the tree")
	}
	for _, depth := range []int{0, 257} {
		if _, err := merklize.NewSparseTree(depth); !errors.Is(err, merklize.ErrArgument) {
			t.Fatalf("depth %d: %v", depth, err)
		}
	}
	if _, err := merklize.NewSparseTree(8, merklize.WithShape(merklize.ShapeZero)); !errors.Is(err, merklize.ErrArgument) {
		t.Fatalf("WithShape: %v", err)
	}

	big, err := merklize.NewSparseTree(256)
	if err != nil {
		t.Fatal(err)
	}
	defer big.Close()
	keys, values := asLeaves(randomBytes(32*6, 256)), asLeaves(randomBytes(32*6, 257))
	if _, err := big.Update(keys, values); err != nil {
		t.Fatal(err)
	}
	held = map[[32]byte][32]byte{}
	for i, k := range keys {
		held[k] = values[i]
	}
	checkSparse(t, big, held, asLeaves(randomBytes(32, 999))[0])
	big.Close()
	if _, err := big.Update(keys, values); !errors.Is(err, merklize.ErrClosed) || big.Size() != 0 {
		t.Fatalf("Update after Close: %v", err)
	}
}
