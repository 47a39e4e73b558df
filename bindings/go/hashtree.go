// SPDX-License-Identifier: Apache-2.0 OR MIT

package merklize

// #include <merklize.h>
import "C"

import (
	"crypto/sha256"
	"errors"
	"fmt"
	"unsafe"
)

// The errors of Hash and HashByteSlice, as gohashtree's (github.com/prysmaticlabs/gohashtree)
// name and word them, so that code written for it works unchanged.
var (
	ErrOddChunks              = errors.New("odd number of chunks")
	ErrNotEnoughDigests       = errors.New("not enough digest length")
	ErrChunksNotMultipleOf64  = errors.New("chunks not multiple of 64 bytes")
	ErrDigestsNotMultipleOf32 = errors.New("digests not multiple of 32 bytes")
)

// Hash hashes chunks two by two with SHA-256, writing the digest of chunks 2i and 2i+1 to
// digests[i]: the level above a level of SHA-256 nodes, on the default device (WithDevice's
// default). It is gohashtree's Hash: no chunks is no work; an odd number of chunks is
// ErrOddChunks; fewer than len(chunks)/2 digests is an error wrapping ErrNotEnoughDigests; digests
// past len(chunks)/2 are left alone. digests may share memory with chunks (hashing a level in
// place). A device failure is an *Error, digests then unwritten.
func Hash(digests [][32]byte, chunks [][32]byte) error {
	if len(chunks) == 0 {
		return nil
	}
	if len(chunks)%2 != 0 {
		return ErrOddChunks
	}
	if len(digests) < len(chunks)/2 {
		return fmt.Errorf("%w: need at least %d, got %d", ErrNotEnoughDigests, len(chunks)/2, len(digests))
	}
	return sha256Layer(digests[:len(chunks)/2], chunks)
}

// HashByteSlice is Hash over bytes: chunks holds 64-byte pairs (else
// ErrChunksNotMultipleOf64), digests whole 32-byte digests (else ErrDigestsNotMultipleOf32), at
// least len(chunks)/2 bytes of them (else an error wrapping ErrNotEnoughDigests).
func HashByteSlice(digests []byte, chunks []byte) error {
	if len(chunks) == 0 {
		return nil
	}
	if len(chunks)%64 != 0 {
		return ErrChunksNotMultipleOf64
	}
	if len(digests)%32 != 0 {
		return ErrDigestsNotMultipleOf32
	}
	if len(digests) < len(chunks)/2 {
		return fmt.Errorf("%w: need at least %d, got %d", ErrNotEnoughDigests, len(chunks)/2, len(digests))
	}
	return sha256Layer(asDigests(digests[:len(chunks)/2]), asDigests(chunks))
}

// HashChunks is Hash without an error, as gohashtree's: it hashes the pairs that fit in digests
// (an odd last chunk is left out), and where the device fails it hashes them on the CPU with
// crypto/sha256, so the digests are always written.
func HashChunks(digests [][32]byte, chunks [][32]byte) {
	n := len(chunks) / 2
	if n > len(digests) {
		n = len(digests)
	}
	if n == 0 {
		return
	}
	if sha256Layer(digests[:n], chunks[:2*n]) != nil {
		var pair [64]byte
		for i := 0; i < n; i++ {
			copy(pair[:32], chunks[2*i][:])
			copy(pair[32:], chunks[2*i+1][:])
			digests[i] = sha256.Sum256(pair[:])
		}
	}
}

func asDigests(b []byte) [][32]byte {
	return unsafe.Slice((*[32]byte)(unsafe.Pointer(&b[0])), len(b)/32)
}

// sha256Layer hashes 2 x len(digests) chunks into digests with merklize_sha256_layer, which
// copies the chunks to the device before it writes a digest: the two may share memory.
func sha256Layer(digests [][32]byte, chunks [][32]byte) error {
	device, err := deviceFor("")
	if err != nil {
		return err
	}
	return call(func() C.merklize_status {
		return C.merklize_sha256_layer(device, (*C.uint8_t)(unsafe.Pointer(&digests[0][0])),
			(*C.uint8_t)(unsafe.Pointer(&chunks[0][0])), C.uint64_t(len(digests)))
	})
}
