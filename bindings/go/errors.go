// SPDX-License-Identifier: Apache-2.0 OR MIT

package merklize

// #include <merklize.h>
import "C"

import (
	"errors"
	"runtime"
)

// Status is the kind of a failure, merklize.h's merklize_status. Each Status is an error of its
// own, so that errors.Is(err, merklize.ErrIO) tells the kind of any error this package returns.
type Status int

// The statuses of a failed call (merklize.h's MERKLIZE_ERROR_*).
const (
	ErrArgument Status = C.MERKLIZE_ERROR_ARGUMENT  // a bad argument: an unknown name, a bad length, an index out of range
	ErrNoDevice Status = C.MERKLIZE_ERROR_NO_DEVICE // no OpenCL device, or none matches the spec
	ErrOpenCL   Status = C.MERKLIZE_ERROR_OPENCL    // an OpenCL call failed
	ErrIO       Status = C.MERKLIZE_ERROR_IO        // a file could not be opened or read
	ErrDecode   Status = C.MERKLIZE_ERROR_DECODE    // an encoded proof could not be decoded
	ErrNoMemory Status = C.MERKLIZE_ERROR_NO_MEMORY // host memory ran out
	ErrInternal Status = C.MERKLIZE_ERROR_INTERNAL  // a bug of libmerklize
	ErrUnusable Status = C.MERKLIZE_ERROR_UNUSABLE  // a device tree an earlier failed call left unusable
)

var statusText = map[Status]string{
	ErrArgument: "bad argument",
	ErrNoDevice: "no OpenCL device",
	ErrOpenCL:   "OpenCL failure",
	ErrIO:       "I/O failure",
	ErrDecode:   "cannot decode",
	ErrNoMemory: "out of memory",
	ErrInternal: "internal error",
	ErrUnusable: "unusable tree",
}

// Error says what kind of failure a Status is, as "merklize: bad argument".
func (s Status) Error() string {
	if text, ok := statusText[s]; ok {
		return "merklize: " + text
	}
	return "merklize: unknown status"
}

// Name is the status's name in merklize.h, as "MERKLIZE_ERROR_ARGUMENT".
func (s Status) Name() string { return C.GoString(C.merklize_status_name(C.merklize_status(s))) }

// Error is the error of a failed call: its Status and the library's message, which names the
// input and the reason. errors.Is(err, merklize.ErrArgument) (or any other Status) matches it.
type Error struct {
	Status  Status
	Message string
	// Err is the Go error that caused it, if any (a reader's error): errors.Is and errors.As
	// see it through Unwrap.
	Err error
}

func (e *Error) Error() string {
	if e.Message == "" {
		return e.Status.Error()
	}
	return "merklize: " + e.Message
}

// Is matches the error's Status, so that errors.Is(err, merklize.ErrIO) works.
func (e *Error) Is(target error) bool {
	status, ok := target.(Status)
	return ok && status == e.Status
}

// Unwrap gives the Go error that caused this one, or nil.
func (e *Error) Unwrap() error { return e.Err }

// ErrInvalidProof is the error of a proof that does not verify; the error Verify and
// VerifyConsistency return wraps it with the library's reason.
var ErrInvalidProof = errors.New("merklize: the proof does not verify")

// ErrClosed is the error of a call on a Builder, Tree or Proof after its Close (or on a Proof
// never decoded).
var ErrClosed = &Error{Status: ErrArgument, Message: "use of a closed or empty handle"}

func argumentError(message string) error { return &Error{Status: ErrArgument, Message: message} }

// call makes one call of the library and, if it fails, reads its message on the same thread
// (merklize_last_error is per thread, and a goroutine may move between threads between calls).
func call(f func() C.merklize_status) error {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	if status := f(); status != C.MERKLIZE_OK {
		return &Error{Status: Status(status), Message: C.GoString(C.merklize_last_error())}
	}
	return nil
}
