// SPDX-License-Identifier: Apache-2.0 OR MIT

package merklize_test

import (
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"fmt"
	"strings"
	"testing"

	"merklize"
)

// zeroTree is a sha256 zero-shape tree of n leaves (leaf i: SHA-256 of i's byte), every level,
// made here with crypto/sha256.
type zeroTree struct {
	levels [][][32]byte
	depth  uint32
}

func newZeroTree(n int) zeroTree {
	t := zeroTree{levels: [][][32]byte{make([][32]byte, n)}}
	for i := range t.levels[0] {
		t.levels[0][i] = sha256.Sum256([]byte{byte(i)})
	}
	var zero [32]byte // the zero subtree of the level below's height
	for len(t.levels[len(t.levels)-1]) > 1 {
		below := t.levels[len(t.levels)-1]
		level := make([][32]byte, (len(below)+1)/2)
		for i := range level {
			right := zero
			if 2*i+1 < len(below) {
				right = below[2*i+1]
			}
			level[i] = sha256.Sum256(append(below[2*i][:], right[:]...))
		}
		zero = sha256.Sum256(append(zero[:], zero[:]...))
		t.levels = append(t.levels, level)
		t.depth++
	}
	return t
}

func (t zeroTree) root() [32]byte { return t.levels[t.depth][0] }

// relabelled is the promote proof of "leaf" index whose siblings are the zero tree's nodes where
// a promote tree of its leaf count has them.
func relabelled(t *testing.T, z zeroTree, index int) *merklize.Proof {
	t.Helper()
	var siblings []string
	for k := 0; k < int(z.depth); k++ {
		if sibling := (index >> k) ^ 1; sibling < len(z.levels[k]) {
			siblings = append(siblings, `"`+hex.EncodeToString(z.levels[k][sibling][:])+`"`)
		}
	}
	text := fmt.Sprintf(`{"format":"merklize-proof","version":1,"kind":"inclusion","hash":"sha256",`+
		`"shape":"promote","leaf_count":%d,"depth":%d,"index":%d,"siblings":[%s]}`,
		len(z.levels[0]), z.depth, index, strings.Join(siblings, ","))
	var proof merklize.Proof
	if err := proof.UnmarshalJSON([]byte(text)); err != nil {
		t.Fatalf("UnmarshalJSON(%s): %v", text, err)
	}
	return &proof
}

func pinnedTo(z zeroTree) merklize.Expectations {
	depth := z.depth
	return merklize.Expectations{Kind: merklize.ProofInclusion, Hash: "sha256", Shape: "zero",
		Depth: &depth, Arity: 2, LeafCount: uint64(len(z.levels[0]))}
}

// TestRelabelledProofOfThreeLeaves: the inner node SHA-256(leaf 2 || 0^32) of a sha256
// zero-shape tree of 3 leaves passes as leaf 2 of a promote proof that claims the true leaf
// count and depth; pinned, the shape refuses it.
func TestRelabelledProofOfThreeLeaves(t *testing.T) {
	z := newZeroTree(3)
	forged := relabelled(t, z, 2)
	defer forged.Close()
	if forged.Hash() != "sha256" || forged.Shape() != "promote" || forged.Depth() != 2 ||
		forged.Arity() != 2 || forged.LeafCount() != 3 {
		t.Fatalf("header %s %s depth %d arity %d", forged.Hash(), forged.Shape(), forged.Depth(),
			forged.Arity())
	}
	if _, has := forged.MixedLength(); has {
		t.Error("MixedLength of an inclusion proof without one")
	}
	inner := z.levels[1][1]
	if err := forged.Verify([][32]byte{inner}, z.root()); err != nil {
		t.Errorf("the proof alone no longer accepts the forgery (update docs/PROOFS.md): %v", err)
	}
	noShape := pinnedTo(z)
	noShape.Shape = ""
	if err := forged.VerifyPinned([][32]byte{inner}, z.root(), noShape); err != nil {
		t.Errorf("everything but the shape pinned: %v", err)
	}
	err := forged.VerifyPinned([][32]byte{inner}, z.root(), pinnedTo(z))
	if !errors.Is(err, merklize.ErrInvalidProof) ||
		!strings.Contains(err.Error(), "the proof is for shape promote, not zero") {
		t.Errorf("pinned: %v, expected the shape named", err)
	}
}

// TestRelabelledForgeriesRefusedPinned: every relabelled forgery of the trees of 1 to 40 leaves.
func TestRelabelledForgeriesRefusedPinned(t *testing.T) {
	forgeries := 0
	for n := 1; n <= 40; n++ {
		z := newZeroTree(n)
		for index := 0; index < n; index++ {
			proof := relabelled(t, z, index)
			for level := 1; level < int(z.depth); level++ {
				for _, node := range z.levels[level] {
					if proof.Verify([][32]byte{node}, z.root()) != nil {
						continue
					}
					forgeries++
					if proof.VerifyPinned([][32]byte{node}, z.root(), pinnedTo(z)) == nil {
						t.Errorf("%d leaves, index %d: a forgery verifies pinned", n, index)
					}
				}
			}
			proof.Close()
		}
	}
	// One in each tree whose last leaf is alone on its lowest levels and on none above them:
	// 3, 5, 7, 9, 13, 15, 17, 25, 29, 31 and 33 leaves.
	if forgeries != 11 {
		t.Errorf("%d forgeries found, not 11", forgeries)
	}
}

// TestEachPinNamesWhatDiffers: each member of Expectations refuses a proof claiming otherwise.
func TestEachPinNamesWhatDiffers(t *testing.T) {
	z := newZeroTree(5)
	proof := relabelled(t, z, 4) // promote, depth 3, 5 leaves
	defer proof.Close()
	four := uint32(4)
	for _, c := range []struct {
		expect merklize.Expectations
		reason string
	}{
		{merklize.Expectations{Hash: "blake3"}, "hash sha256, not blake3"},
		{merklize.Expectations{Shape: "zero"}, "shape promote, not zero"},
		{merklize.Expectations{Depth: &four}, "depth 3, not 4"},
		{merklize.Expectations{Arity: 4}, "arity 2, not 4"},
		{merklize.Expectations{LeafCount: 6}, "5 leaves, not 6"},
		{merklize.Expectations{Kind: merklize.ProofMulti}, "of kind inclusion, not multiproof"},
	} {
		err := proof.VerifyPinned([][32]byte{z.levels[2][1]}, z.root(), c.expect)
		if !errors.Is(err, merklize.ErrInvalidProof) || !strings.Contains(err.Error(), c.reason) {
			t.Errorf("%+v: %v, expected %q", c.expect, err, c.reason)
		}
	}
	err := proof.VerifyPinned(nil, z.root(), merklize.Expectations{Hash: "sha257"})
	if !errors.Is(err, merklize.ErrArgument) {
		t.Errorf("an unknown hash pinned: %v, expected ErrArgument", err)
	}
}

// TestPoseidon2SiblingRaisedByP: a sibling's limb 0 as x + p (the same element mod p) is
// refused, naming it.
func TestPoseidon2SiblingRaisedByP(t *testing.T) {
	data := randomBytes(4*32, 9)
	canonicalLeaves(data)
	b, err := merklize.NewBuilder(merklize.WithHash(merklize.HashPoseidon2BabyBear))
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	tree, err := b.Build(data)
	if err != nil {
		t.Fatal(err)
	}
	defer tree.Close()
	proof, err := tree.Prove(0)
	if err != nil {
		t.Fatal(err)
	}
	encoded, err := proof.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	first := len(encoded) - 2*32 // two siblings end the encoding
	limb := binary.LittleEndian.Uint32(encoded[first:]) + 2013265921
	binary.LittleEndian.PutUint32(encoded[first:], limb)
	var raised merklize.Proof
	if err := raised.UnmarshalBinary(encoded); err != nil {
		t.Fatal(err)
	}
	leaf := asLeaves(data)[:1]
	if err := proof.Verify(leaf, tree.Root()); err != nil {
		t.Fatalf("the proof: %v", err)
	}
	err = raised.Verify(leaf, tree.Root())
	if !errors.Is(err, merklize.ErrInvalidProof) ||
		!strings.Contains(err.Error(), fmt.Sprintf("sibling 0, limb 0 (%d)", limb)) {
		t.Errorf("a sibling raised by p: %v, expected it named", err)
	}
}
