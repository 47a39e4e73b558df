// SPDX-License-Identifier: Apache-2.0 OR MIT

package merklize

// #include <merklize.h>
import "C"

import (
	"fmt"
	"unsafe"
)

// An UpdateBatch is page-locked memory of a device tree's device that the caller fills in place
// with updates: DeviceTree.UpdateBatch writes them to the device straight from it, nothing
// copied on the host first (DeviceTree.Update copies its slices into page-locked staging before
// the bus moves them, most of its time for large batches). A batch is reused from call to call
// and may be used with any DeviceTree of the same device. Make one with DeviceTree.NewUpdateBatch.
// Its memory must not be written while an update reads it: calls on one batch from several
// goroutines are the caller's to order. Close frees the memory.
type UpdateBatch struct {
	h       *handle[C.merklize_update_batch]
	indices []uint64   // over the C memory: valid until Close
	leaves  [][32]byte // likewise
}

// NewUpdateBatch makes a batch of room for capacity updates (1 to 2^32 - 1, else ErrArgument) in
// page-locked memory of the tree's device: 40 bytes an update.
func (t *DeviceTree) NewUpdateBatch(capacity int) (*UpdateBatch, error) {
	if capacity < 1 {
		return nil, argumentError(fmt.Sprintf("DeviceTree.NewUpdateBatch: capacity %d: a batch holds 1 to 2^32 - 1 updates",
			capacity))
	}
	var batch *C.merklize_update_batch
	err := t.handle().with(func(tree *C.merklize_device_tree) error {
		return call(func() C.merklize_status {
			return C.merklize_device_tree_batch_create(tree, C.uint64_t(capacity), &batch)
		})
	})
	if err != nil {
		return nil, err
	}
	n := int(C.merklize_update_batch_capacity(batch))
	return &UpdateBatch{
		h:       newHandle(batch, func(b *C.merklize_update_batch) { C.merklize_update_batch_free(b) }),
		indices: unsafe.Slice((*uint64)(unsafe.Pointer(C.merklize_update_batch_indices(batch))), n),
		leaves:  unsafe.Slice((*[32]byte)(unsafe.Pointer(C.merklize_update_batch_leaves(batch))), n),
	}, nil
}

func (b *UpdateBatch) handle() *handle[C.merklize_update_batch] {
	if b == nil {
		return nil
	}
	return b.h
}

// Capacity is the number of updates the batch has room for; 0 once closed.
func (b *UpdateBatch) Capacity() int {
	n := 0
	b.handle().with(func(*C.merklize_update_batch) error {
		n = len(b.indices)
		return nil
	})
	return n
}

// Indices is the batch's Capacity() leaf indices, the caller's to write: update k makes leaf
// Indices()[k] Leaves()[k]. The slice is the batch's page-locked memory itself, not a copy: it is
// valid until Close, and only while the batch is reachable (keep the *UpdateBatch, or call Close
// after the last use: the garbage collector frees an unreachable batch). nil once closed.
func (b *UpdateBatch) Indices() []uint64 {
	var s []uint64
	b.handle().with(func(*C.merklize_update_batch) error {
		s = b.indices
		return nil
	})
	return s
}

// Leaves is the batch's Capacity() new leaves, the caller's to write, over the batch's memory as
// Indices is (valid until Close, while the batch is reachable). nil once closed.
func (b *UpdateBatch) Leaves() [][32]byte {
	var s [][32]byte
	b.handle().with(func(*C.merklize_update_batch) error {
		s = b.leaves
		return nil
	})
	return s
}

// Close frees the batch's memory; the slices of Indices and Leaves must not be used after it. It
// waits for an UpdateBatch call reading the batch on another goroutine. Close always returns nil.
func (b *UpdateBatch) Close() error {
	b.handle().close()
	return nil
}

// UpdateBatch is Update of the batch's first count updates, the same tree bit for bit (a repeated
// index takes its last value; count 0 changes nothing), and returns the new root. The indices are
// checked on the device: one at or past LeafCount is ErrArgument naming it, and the tree is as it
// was. A count past the batch's capacity, a batch of another device, or a nil batch is
// ErrArgument; a closed batch is ErrClosed.
func (t *DeviceTree) UpdateBatch(b *UpdateBatch, count int) (root [32]byte, err error) {
	if b == nil {
		return root, argumentError("DeviceTree.UpdateBatch: a nil batch: make one with NewUpdateBatch")
	}
	if count < 0 {
		return root, argumentError(fmt.Sprintf("DeviceTree.UpdateBatch: count %d: a count is 0 to the batch's capacity", count))
	}
	var out [32]byte
	err = t.handle().with(func(tree *C.merklize_device_tree) error {
		return b.handle().with(func(batch *C.merklize_update_batch) error {
			return call(func() C.merklize_status {
				return C.merklize_device_tree_update_batch(tree, batch, C.uint64_t(count),
					(*C.uint8_t)(unsafe.Pointer(&out[0])))
			})
		})
	})
	if err == nil {
		root = out
	}
	return root, err
}
