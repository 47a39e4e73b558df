// SPDX-License-Identifier: Apache-2.0 OR MIT

package merklize

// #include <merklize.h>
// #include <stdlib.h>
import "C"

import (
	"hash"
	"runtime"
	"unsafe"
)

// NewBlake3 returns a hash.Hash of BLAKE3 (32-byte digests, as crypto's hashes and the blake3
// packages give them), computed on the host by libmerklize (merklize_blake3_hasher), no device:
// Write never fails, Sum appends the digest of what was written so far and leaves the state as it
// was, Reset starts over.
func NewBlake3() hash.Hash { return newBlake3(nil, nil) }

// NewBlake3Keyed returns NewBlake3's hash.Hash of BLAKE3's keyed_hash with key.
func NewBlake3Keyed(key [32]byte) hash.Hash { return newBlake3(&key, nil) }

// NewBlake3DeriveKey returns NewBlake3's hash.Hash of BLAKE3's derive_key with the context
// string: what is written is the key material.
func NewBlake3DeriveKey(context string) hash.Hash { return newBlake3(nil, &context) }

type blake3Hash struct {
	hasher *C.merklize_blake3_hasher
}

// The mode is built in C memory: cgo passes C no Go pointer inside a struct.
func newBlake3(key *[32]byte, context *string) hash.Hash {
	mode := (*C.merklize_blake3_mode)(C.calloc(1, C.size_t(unsafe.Sizeof(C.merklize_blake3_mode{}))))
	defer C.free(unsafe.Pointer(mode))
	mode.kind = C.MERKLIZE_BLAKE3_HASH
	if key != nil {
		mode.kind = C.MERKLIZE_BLAKE3_KEYED
		mode.key = (*C.uint8_t)(C.CBytes(key[:]))
		defer C.free(unsafe.Pointer(mode.key))
	}
	if context != nil {
		mode.kind = C.MERKLIZE_BLAKE3_DERIVE_KEY
		mode.context = C.CString(*context)
		defer C.free(unsafe.Pointer(mode.context))
	}
	h := &blake3Hash{}
	if err := call(func() C.merklize_status { return C.merklize_blake3_hasher_create(mode, &h.hasher) }); err != nil {
		panic(err) // only memory running out fails here, as make would panic
	}
	runtime.SetFinalizer(h, func(h *blake3Hash) { C.merklize_blake3_hasher_free(h.hasher) })
	return h
}

func (h *blake3Hash) Write(p []byte) (int, error) {
	if len(p) > 0 {
		C.merklize_blake3_hasher_update(h.hasher, unsafe.Pointer(&p[0]), C.size_t(len(p)))
		runtime.KeepAlive(p)
	}
	runtime.KeepAlive(h)
	return len(p), nil
}

func (h *blake3Hash) Sum(b []byte) []byte {
	var digest [32]byte
	C.merklize_blake3_hasher_finalize(h.hasher, 0, (*C.uint8_t)(unsafe.Pointer(&digest[0])), 32)
	runtime.KeepAlive(h)
	return append(b, digest[:]...)
}

func (h *blake3Hash) Reset() {
	C.merklize_blake3_hasher_reset(h.hasher)
	runtime.KeepAlive(h)
}

func (h *blake3Hash) Size() int      { return 32 }
func (h *blake3Hash) BlockSize() int { return 64 }
