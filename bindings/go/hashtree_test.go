// SPDX-License-Identifier: Apache-2.0 OR MIT

package merklize_test

import (
	"crypto/sha256"
	"errors"
	"strings"
	"testing"

	"merklize"
)

// sha256Pairs is the oracle of gohashtree's Hash: SHA-256 of each pair of chunks.
func sha256Pairs(chunks [][32]byte) [][32]byte {
	out := make([][32]byte, len(chunks)/2)
	for i := range out {
		out[i] = sha256Pair(nil, chunks[2*i], chunks[2*i+1])
	}
	return out
}

// TestHash: Hash, HashByteSlice and HashChunks against crypto/sha256, into separate digests and
// in place (a level hashed over itself), leaving the digests past the pairs alone.
func TestHash(t *testing.T) {
	for _, pairs := range []int{1, 2, 3, 127, 128, 129, 4097} {
		chunks := asLeaves(randomBytes(64*pairs, int64(pairs)))
		want := sha256Pairs(chunks)

		digests := make([][32]byte, pairs+1)
		digests[pairs] = [32]byte{7}
		if err := merklize.Hash(digests, chunks); err != nil || !equalDigests(digests[:pairs], want) ||
			digests[pairs] != [32]byte{7} {
			t.Fatalf("Hash of %d pairs: %v", pairs, err)
		}

		flat := make([]byte, 32*pairs)
		chunkBytes := make([]byte, 0, 64*pairs)
		for _, c := range chunks {
			chunkBytes = append(chunkBytes, c[:]...)
		}
		if err := merklize.HashByteSlice(flat, chunkBytes); err != nil || !equalDigests(asLeaves(flat), want) {
			t.Fatalf("HashByteSlice of %d pairs: %v", pairs, err)
		}

		hashed := make([][32]byte, pairs)
		merklize.HashChunks(hashed, chunks)
		if !equalDigests(hashed, want) {
			t.Fatalf("HashChunks of %d pairs", pairs)
		}

		inPlace := append([][32]byte(nil), chunks...)
		if err := merklize.Hash(inPlace, inPlace); err != nil || !equalDigests(inPlace[:pairs], want) {
			t.Fatalf("Hash in place of %d pairs: %v", pairs, err)
		}
		shifted := append([][32]byte(nil), chunks...)
		shifted = append(shifted, [32]byte{})
		if err := merklize.Hash(shifted[pairs:], shifted[:2*pairs]); err != nil ||
			!equalDigests(shifted[pairs:2*pairs], want) {
			t.Fatalf("Hash of %d pairs into their second half: %v", pairs, err)
		}
	}
}

// TestHashErrors: gohashtree's checks and errors, each leaving the digests untouched; no chunks
// is no work.
func TestHashErrors(t *testing.T) {
	chunks := asLeaves(randomBytes(32*5, 1))
	digests := [][32]byte{{9}, {9}, {9}}
	untouched := func(what string) {
		for _, d := range digests {
			if d != [32]byte{9} {
				t.Fatalf("%s wrote the digests", what)
			}
		}
	}
	if err := merklize.Hash(digests, nil); err != nil {
		t.Fatalf("Hash of no chunks: %v", err)
	}
	untouched("Hash of no chunks")
	if err := merklize.Hash(digests, chunks); !errors.Is(err, merklize.ErrOddChunks) {
		t.Fatalf("Hash of 5 chunks: %v", err)
	}
	untouched("Hash of 5 chunks")
	err := merklize.Hash(digests[:1], chunks[:4])
	if !errors.Is(err, merklize.ErrNotEnoughDigests) || !strings.Contains(err.Error(), "need at least 2, got 1") {
		t.Fatalf("Hash of 2 pairs into 1 digest: %v", err)
	}
	untouched("Hash into too few digests")

	flat := make([]byte, 96)
	for _, c := range []struct {
		digests, chunks int
		want            error
	}{{96, 0, nil}, {96, 63, merklize.ErrChunksNotMultipleOf64}, {95, 64, merklize.ErrDigestsNotMultipleOf32},
		{32, 128, merklize.ErrNotEnoughDigests}} {
		err := merklize.HashByteSlice(flat[:c.digests], make([]byte, c.chunks))
		if (c.want == nil && err != nil) || (c.want != nil && !errors.Is(err, c.want)) {
			t.Fatalf("HashByteSlice(%d bytes, %d bytes): %v, want %v", c.digests, c.chunks, err, c.want)
		}
	}
	for _, b := range flat {
		if b != 0 {
			t.Fatal("a refused HashByteSlice wrote the digests")
		}
	}

	// HashChunks hashes the pairs that fit, as gohashtree's does with enough digests.
	few := make([][32]byte, 1)
	merklize.HashChunks(few, chunks)
	if few[0] != sha256.Sum256(append(chunks[0][:], chunks[1][:]...)) {
		t.Fatal("HashChunks into 1 digest")
	}
}
