// SPDX-License-Identifier: Apache-2.0 OR MIT

package merklize

// #include "shim.h"
// #include <stdlib.h>
import "C"

import (
	"io"
	"unsafe"
)

// Blake3 is the BLAKE3 hash of data, computed on the device (b3sum's result). Options: WithKey
// (keyed_hash), WithDeriveKey (derive_key, data being the key material), WithDevice.
func Blake3(data []byte, opts ...Option) ([32]byte, error) {
	return blake3Digest(memorySource(data), "Blake3", opts)
}

// Blake3XOF fills out with BLAKE3's extendable output of data (its first 32 bytes are Blake3's
// digest). out is written only if the call succeeds.
func Blake3XOF(data []byte, out []byte, opts ...Option) error {
	return blake3(memorySource(data), out, "Blake3XOF", opts)
}

// Blake3File is the BLAKE3 hash of the file at path, streamed.
func Blake3File(path string, opts ...Option) ([32]byte, error) {
	return blake3Digest(pathSource(path), "Blake3File", opts)
}

// Blake3Reader is the BLAKE3 hash of everything r gives, streamed.
func Blake3Reader(r io.Reader, opts ...Option) (digest [32]byte, err error) {
	err = withReader(r, func(src source) error {
		digest, err = blake3Digest(src, "Blake3Reader", opts)
		return err
	})
	return digest, err
}

func blake3Digest(src source, what string, opts []Option) (digest [32]byte, err error) {
	var out [32]byte
	if err = blake3(src, out[:], what, opts); err == nil {
		digest = out
	}
	return digest, err
}

// blake3 writes len(out) bytes of BLAKE3's output of a source into out; the library writes them
// only when it succeeds.
func blake3(src source, out []byte, what string, opts []Option) error {
	s, err := forBlake3(what, opts)
	if err != nil {
		return err
	}
	device, err := deviceFor(s.device)
	if err != nil {
		return err
	}
	mode := C.MERKLIZE_BLAKE3_HASH
	var key *C.uint8_t
	var context *C.char
	if s.key != nil {
		mode = C.MERKLIZE_BLAKE3_KEYED
		key = (*C.uint8_t)(C.CBytes(s.key[:]))
		defer C.free(unsafe.Pointer(key))
	}
	if s.context != nil {
		mode = C.MERKLIZE_BLAKE3_DERIVE_KEY
		context = C.CString(*s.context)
		defer C.free(unsafe.Pointer(context))
	}
	var first *C.uint8_t
	if len(out) > 0 {
		first = (*C.uint8_t)(unsafe.Pointer(&out[0]))
	}
	return src.with(func(c *cSource) C.merklize_status {
		return C.merklize_go_blake3(device, C.int(mode), key, context, c.kind, c.data, c.size,
			c.path, c.fd, first, C.size_t(len(out)))
	})
}
