// SPDX-License-Identifier: Apache-2.0 OR MIT

package merklize_test

import (
	"bytes"
	"hash"
	"testing"

	"merklize"
)

// NewBlake3 and its keyed and derive_key forms against the official vectors, the input written in
// pieces; hash.Hash's contract: Sum appends and leaves the state, Reset starts over.
func TestBlake3HashVectors(t *testing.T) {
	var vectors blake3Vectors
	readJSON(t, "blake3_official.json", &vectors)
	var key [32]byte
	copy(key[:], vectors.Key)
	for _, c := range vectors.Cases {
		input := make([]byte, c.InputLen)
		for j := range input {
			input[j] = byte(j % 251)
		}
		for _, mode := range []struct {
			h    hash.Hash
			want string
		}{
			{merklize.NewBlake3(), c.Hash},
			{merklize.NewBlake3Keyed(key), c.KeyedHash},
			{merklize.NewBlake3DeriveKey(vectors.ContextString), c.DeriveKey},
		} {
			want := fromHex(t, mode.want)[:32]
			for _, piece := range []int{1, 64, 1023, 1 << 20} {
				mode.h.Reset()
				for at := 0; at < len(input); at += piece {
					end := at + piece
					if end > len(input) {
						end = len(input)
					}
					if n, err := mode.h.Write(input[at:end]); n != end-at || err != nil {
						t.Fatalf("Write: %d, %v", n, err)
					}
				}
				prefix := []byte("prefix")
				sum := mode.h.Sum(prefix)
				if !bytes.Equal(sum[:6], []byte("prefix")) || !bytes.Equal(sum[6:], want) {
					t.Errorf("%d bytes in pieces of %d: %x, want %x", c.InputLen, piece, sum[6:], want)
				}
				if again := mode.h.Sum(nil); !bytes.Equal(again, want) {
					t.Errorf("a second Sum differs: Sum changed the state")
				}
			}
		}
	}
	h := merklize.NewBlake3()
	if h.Size() != 32 || h.BlockSize() != 64 {
		t.Errorf("Size %d, BlockSize %d", h.Size(), h.BlockSize())
	}
}
