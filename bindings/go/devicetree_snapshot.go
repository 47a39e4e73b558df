// SPDX-License-Identifier: Apache-2.0 OR MIT

package merklize

// #include <merklize.h>
import "C"

// A TreeSnapshot is a copy of a DeviceTree as it was, kept on its device (the tree's device
// memory once more: leaves, levels and the room appends left); DeviceTree.Rollback restores the
// tree to it bit for bit, undoing the updates and appends made since. The copies are device to
// device. A snapshot may be rolled back to any number of times and closed before or after its
// tree. Make one with DeviceTree.Snapshot; Close frees its device memory.
type TreeSnapshot struct {
	h *handle[C.merklize_tree_snapshot]
}

// Snapshot is a snapshot of the tree as it is now. A device without room for the copy is
// ErrOpenCL or ErrArgument naming the bytes, the tree unchanged.
func (t *DeviceTree) Snapshot() (*TreeSnapshot, error) {
	var snapshot *C.merklize_tree_snapshot
	err := t.handle().with(func(tree *C.merklize_device_tree) error {
		return call(func() C.merklize_status { return C.merklize_device_tree_snapshot(tree, &snapshot) })
	})
	if err != nil {
		return nil, err
	}
	return &TreeSnapshot{h: newHandle(snapshot, func(s *C.merklize_tree_snapshot) { C.merklize_tree_snapshot_free(s) })}, nil
}

func (s *TreeSnapshot) handle() *handle[C.merklize_tree_snapshot] {
	if s == nil {
		return nil
	}
	return s.h
}

// LeafCount is the leaf count the tree had when the snapshot was taken; 0 once closed.
func (s *TreeSnapshot) LeafCount() uint64 {
	var n uint64
	s.handle().with(func(snapshot *C.merklize_tree_snapshot) error {
		n = uint64(C.merklize_tree_snapshot_leaf_count(snapshot))
		return nil
	})
	return n
}

// Close frees the snapshot's device memory; the tree is untouched. Close always returns nil.
func (s *TreeSnapshot) Close() error {
	s.handle().close()
	return nil
}

// Rollback makes the tree what it was when s was taken: leaves, levels, leaf count, root and
// proofs. A snapshot of another tree, or nil, is ErrArgument and changes nothing; a closed
// snapshot is ErrClosed.
func (t *DeviceTree) Rollback(s *TreeSnapshot) error {
	if s == nil {
		return argumentError("DeviceTree.Rollback: a nil snapshot: take one with DeviceTree.Snapshot")
	}
	return t.handle().with(func(tree *C.merklize_device_tree) error {
		return s.handle().with(func(snapshot *C.merklize_tree_snapshot) error {
			return call(func() C.merklize_status { return C.merklize_device_tree_rollback(tree, snapshot, nil) })
		})
	})
}
