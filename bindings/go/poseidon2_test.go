// SPDX-License-Identifier: Apache-2.0 OR MIT

package merklize_test

import (
	"errors"
	"strings"
	"testing"

	"merklize"
)

// The hashes over field elements (TestAgainstCLI holds their roots and proofs to the tool's).
var poseidon2Hashes = []string{merklize.HashPoseidon2BabyBear, merklize.HashPoseidon2KoalaBear,
	merklize.HashPoseidon2Goldilocks, merklize.HashPoseidon2BN254}

// canonicalLeaves makes 32-byte leaves every Poseidon2 hash takes: each 4-byte word's top byte
// below 0x20 puts every limb below p (BabyBear, KoalaBear, Goldilocks: little-endian limbs of 4 or
// 8 bytes) and the 32-byte value below BN254's p (0x30644e...).
func canonicalLeaves(data []byte) {
	for i := 3; i < len(data); i += 4 {
		data[i] &= 0x1f
	}
}

// TestPoseidon2Names: the library lists the package's Poseidon2 constants.
func TestPoseidon2Names(t *testing.T) {
	names := strings.Join(merklize.HashNames(), ",")
	for _, hash := range poseidon2Hashes {
		if !strings.Contains(","+names+",", ","+hash+",") {
			t.Errorf("HashNames %s lacks %s", names, hash)
		}
	}
}

// TestPoseidon2RefusesNonCanonicalLeaves: a leaf with a limb of p or more (its last 8 bytes all
// 0xff, in every field) is refused with ErrArgument naming the leaf, from memory, a file, a
// device tree and many trees at once, and fails verification.
func TestPoseidon2RefusesNonCanonicalLeaves(t *testing.T) {
	data := randomBytes(3*32, 5)
	canonicalLeaves(data)
	bad := append([]byte(nil), data...)
	for i := 2*32 + 24; i < 3*32; i++ {
		bad[i] = 0xff
	}
	path := writeTemp(t, bad)
	for _, hash := range poseidon2Hashes {
		b, err := merklize.NewBuilder(merklize.WithHash(hash))
		if err != nil {
			t.Fatalf("%s: NewBuilder: %v", hash, err)
		}
		refused := func(how string, err error) {
			t.Helper()
			if !errors.Is(err, merklize.ErrArgument) || !strings.Contains(err.Error(), "leaf 2, ") ||
				!strings.Contains(err.Error(), "is not a canonical") {
				t.Errorf("%s %s: %v, expected ErrArgument naming leaf 2", hash, how, err)
			}
		}
		_, err = b.Root(bad)
		refused("Root", err)
		_, err = b.RootFile(path)
		refused("RootFile", err)
		_, err = b.Build(bad)
		refused("Build", err)
		_, err = b.RootsMany(bad, 3)
		refused("RootsMany", err)
		_, err = merklize.NewDeviceTree(bad, merklize.WithHash(hash))
		refused("NewDeviceTree", err)

		tree, err := b.Build(data)
		if err != nil {
			t.Fatalf("%s: Build: %v", hash, err)
		}
		proof, err := tree.Prove(2)
		if err != nil {
			t.Fatalf("%s: Prove: %v", hash, err)
		}
		var leaf [32]byte
		copy(leaf[:], data[64:])
		if err := proof.Verify([][32]byte{leaf}, tree.Root()); err != nil {
			t.Errorf("%s: Verify of the leaf: %v", hash, err)
		}
		copy(leaf[:], bad[64:])
		if err := proof.Verify([][32]byte{leaf}, tree.Root()); err == nil ||
			!strings.Contains(err.Error(), "is not a canonical") {
			t.Errorf("%s: Verify of a non-canonical leaf: %v", hash, err)
		}
		proof.Close()
		tree.Close()
		b.Close()
	}
}
