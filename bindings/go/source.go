// SPDX-License-Identifier: Apache-2.0 OR MIT

package merklize

// #include <merklize.h>
// #include <stdlib.h>
import "C"

import (
	"errors"
	"io"
	"os"
	"runtime"
	"syscall"
	"unsafe"
)

// source is where the library reads an input: bytes in Go memory, a file by path, or an open
// file descriptor read from its position to its end.
type source struct {
	kind C.int
	data []byte
	path string
	fd   int
}

func memorySource(data []byte) source { return source{kind: C.MERKLIZE_SOURCE_MEMORY, data: data} }
func pathSource(path string) source   { return source{kind: C.MERKLIZE_SOURCE_PATH, path: path} }
func fdSource(fd uintptr) source      { return source{kind: C.MERKLIZE_SOURCE_FD, fd: int(fd)} }

// cSource is a source as the calls of shim.h take it. The bytes of a memory source stay in Go
// memory: cgo pins an argument for the length of the call.
type cSource struct {
	kind C.int
	data unsafe.Pointer
	size C.uint64_t
	path *C.char
	fd   C.int
}

// with calls f with the C form of the source (a path copied into C memory for the call).
func (s source) with(f func(c *cSource) C.merklize_status) error {
	c := cSource{kind: s.kind, size: C.uint64_t(len(s.data)), fd: C.int(s.fd)}
	if len(s.data) > 0 {
		c.data = unsafe.Pointer(&s.data[0])
	}
	if s.kind == C.MERKLIZE_SOURCE_PATH {
		c.path = C.CString(s.path)
		defer C.free(unsafe.Pointer(c.path))
	}
	return call(func() C.merklize_status { return f(&c) })
}

// withReader gives f a source of everything r gives. An *os.File is read by its descriptor from
// its position (and left at its end); any other reader is copied into a pipe that the library
// reads as it goes, so an input of any size is streamed. An error of r is returned in preference
// to the library's, which would otherwise be the result of a truncated input.
func withReader(r io.Reader, f func(source) error) error {
	if r == nil {
		return argumentError("the reader is nil")
	}
	if file, ok := r.(*os.File); ok {
		err := f(fdSource(file.Fd()))
		runtime.KeepAlive(file)
		return err
	}
	pr, pw, err := os.Pipe()
	if err != nil {
		return &Error{Status: ErrIO, Message: "a pipe for the reader: " + err.Error(), Err: err}
	}
	copied := make(chan error, 1)
	go func() {
		_, err := io.Copy(pw, r)
		pw.Close()
		copied <- err
	}()
	err = f(fdSource(pr.Fd()))
	pr.Close() // a copy still writing fails now with EPIPE, and ends
	readErr := <-copied
	runtime.KeepAlive(pr)
	if readErr != nil && !(err != nil && errors.Is(readErr, syscall.EPIPE)) {
		return &Error{Status: ErrIO, Message: "reading the input: " + readErr.Error(), Err: readErr}
	}
	return err
}
