// SPDX-License-Identifier: Apache-2.0 OR MIT

package merklize_test

import (
	"bytes"
	"crypto/sha256"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"merklize"
)

// merkleVectors are tests/vectors/merkle.json's cases: leaf i is HASH(i as 8 bytes little-endian)
// (BLAKE3 leaves for blake3-parent), the tree of the case's hash and shape.
type merkleVectors struct {
	Cases []struct {
		Hash, Pad, Root string
		N               int
		Levels          [][]string
	}
}

func readJSON(t *testing.T, name string, v interface{}) {
	t.Helper()
	text, err := os.ReadFile(filepath.Join(vectorDir(), name))
	if err != nil {
		t.Fatalf("%v (set MERKLIZE_TEST_VECTOR_DIR to tests/vectors)", err)
	}
	if err := json.Unmarshal(text, v); err != nil {
		t.Fatalf("%s: %v", name, err)
	}
}

// vectorLeaves are the case's leaves. SHA-256 leaves are made here; BLAKE3 leaves are the leaves
// of a tree over the 8-byte blocks, whose first ones TestBlake3Vectors' hashes check too.
func vectorLeaves(t *testing.T, hash string, n int) []byte {
	blocks := make([]byte, 8*n)
	for i := 0; i < n; i++ {
		binary.LittleEndian.PutUint64(blocks[8*i:], uint64(i))
	}
	if hash == merklize.HashSHA256 {
		leaves := make([]byte, 0, 32*n)
		for i := 0; i < n; i++ {
			leaf := sha256.Sum256(blocks[8*i : 8*i+8])
			leaves = append(leaves, leaf[:]...)
		}
		return leaves
	}
	tree, err := merklize.Build(blocks, merklize.WithLeafSize(8), merklize.WithLeafHash("blake3"))
	if err != nil {
		t.Fatal(err)
	}
	defer tree.Close()
	level, err := tree.Level(0)
	if err != nil {
		t.Fatal(err)
	}
	for _, i := range []int{0, n - 1} {
		if want, _ := merklize.Blake3(blocks[8*i : 8*i+8]); level[i] != want {
			t.Fatalf("BLAKE3 leaf %d: %x, not Blake3's %x", i, level[i], want)
		}
	}
	leaves := make([]byte, 0, 32*n)
	for _, leaf := range level {
		leaves = append(leaves, leaf[:]...)
	}
	return leaves
}

// TestMerkleVectors: every case of merkle.json (up to 2^20 + 1 leaves): the root, and every level
// where the case lists them.
func TestMerkleVectors(t *testing.T) {
	var vectors merkleVectors
	readJSON(t, "merkle.json", &vectors)
	if len(vectors.Cases) < 100 {
		t.Fatalf("merkle.json: %d cases", len(vectors.Cases))
	}
	for _, c := range vectors.Cases {
		c := c
		t.Run(fmt.Sprintf("%s/%s/%d", c.Hash, c.Pad, c.N), func(t *testing.T) {
			if testing.Short() && c.N > 1<<16 {
				t.Skip("-short: no trees of 2^20 leaves")
			}
			tree, err := merklize.Build(vectorLeaves(t, c.Hash, c.N), merklize.WithHash(c.Hash),
				merklize.WithShape(c.Pad))
			if err != nil {
				t.Fatal(err)
			}
			defer tree.Close()
			if want := digestHex(t, c.Root); tree.Root() != want {
				t.Fatalf("root %x, want %x", tree.Root(), want)
			}
			for k, want := range c.Levels {
				level, err := tree.LevelView(k)
				if err != nil {
					t.Fatalf("level %d: %v", k, err)
				}
				// Shape zero's levels list the padding, which the tree does not store.
				if len(level) > len(want) {
					t.Fatalf("level %d: %d nodes, the vector %d", k, len(level), len(want))
				}
				for i := range level {
					if level[i] != digestHex(t, want[i]) {
						t.Fatalf("level %d node %d: %x, want %s", k, i, level[i], want[i])
					}
				}
			}
		})
	}
}

// TestBlake3Vectors: BLAKE3's official test vectors, in the three modes, at the vectors' full
// output length (Blake3XOF) and 32 bytes (Blake3), from memory, a path and a reader.
// blake3Vectors are tests/vectors/blake3_official.json's cases.
type blake3Vectors struct {
	Key           string
	ContextString string `json:"context_string"`
	Cases         []struct {
		InputLen  int    `json:"input_len"`
		Hash      string `json:"hash"`
		KeyedHash string `json:"keyed_hash"`
		DeriveKey string `json:"derive_key"`
	}
}

func TestBlake3Vectors(t *testing.T) {
	var vectors blake3Vectors
	readJSON(t, "blake3_official.json", &vectors)
	var key [32]byte
	if copy(key[:], vectors.Key) != 32 {
		t.Fatal("blake3_official.json: the key is not 32 bytes")
	}
	modes := []struct {
		name string
		opts []merklize.Option
		want func(i int) string
	}{
		{"hash", nil, func(i int) string { return vectors.Cases[i].Hash }},
		{"keyed_hash", []merklize.Option{merklize.WithKey(key)},
			func(i int) string { return vectors.Cases[i].KeyedHash }},
		{"derive_key", []merklize.Option{merklize.WithDeriveKey(vectors.ContextString)},
			func(i int) string { return vectors.Cases[i].DeriveKey }},
	}
	for i, c := range vectors.Cases {
		input := make([]byte, c.InputLen)
		for j := range input {
			input[j] = byte(j % 251)
		}
		path := writeTemp(t, input)
		for _, mode := range modes {
			want := fromHex(t, mode.want(i))
			out := make([]byte, len(want))
			if err := merklize.Blake3XOF(input, out, mode.opts...); err != nil || !bytes.Equal(out, want) {
				t.Errorf("%s of %d bytes, %d out: %x, %v", mode.name, c.InputLen, len(want), out, err)
			}
			digest, err := merklize.Blake3(input, mode.opts...)
			if err != nil || !bytes.Equal(digest[:], want[:32]) {
				t.Errorf("%s of %d bytes: %x, %v", mode.name, c.InputLen, digest, err)
			}
			if digest, err = merklize.Blake3File(path, mode.opts...); err != nil || !bytes.Equal(digest[:], want[:32]) {
				t.Errorf("%s of %d bytes from a file: %x, %v", mode.name, c.InputLen, digest, err)
			}
			if digest, err = merklize.Blake3Reader(bytes.NewReader(input), mode.opts...); err != nil ||
				!bytes.Equal(digest[:], want[:32]) {
				t.Errorf("%s of %d bytes from a reader: %x, %v", mode.name, c.InputLen, digest, err)
			}
		}
	}
}
