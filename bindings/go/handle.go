// SPDX-License-Identifier: Apache-2.0 OR MIT

package merklize

import (
	"runtime"
	"sync"
)

// handle owns one object of the library (a builder, a tree, a proof) and frees it once: at Close,
// or when the garbage collector finds the handle unreachable (a safety net, not a schedule).
// Calls hold the read lock, so that Close, which takes the write lock, never frees the object
// under a call in flight on another goroutine.
type handle[T any] struct {
	mu   sync.RWMutex
	ptr  *T
	free func(*T)
}

func newHandle[T any](ptr *T, free func(*T)) *handle[T] {
	h := &handle[T]{ptr: ptr, free: free}
	runtime.SetFinalizer(h, (*handle[T]).close)
	return h
}

// acquire gives the object for a call, which must end with release; ErrClosed once closed.
func (h *handle[T]) acquire() (*T, error) {
	if h == nil {
		return nil, ErrClosed
	}
	h.mu.RLock()
	if h.ptr == nil {
		h.mu.RUnlock()
		return nil, ErrClosed
	}
	return h.ptr, nil
}

func (h *handle[T]) release() { h.mu.RUnlock() }

// with calls f with the object, held for the call.
func (h *handle[T]) with(f func(*T) error) error {
	ptr, err := h.acquire()
	if err != nil {
		return err
	}
	defer h.release()
	return f(ptr)
}

func (h *handle[T]) close() {
	if h == nil {
		return
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.ptr != nil {
		h.free(h.ptr)
		h.ptr = nil
		runtime.SetFinalizer(h, nil)
	}
}
