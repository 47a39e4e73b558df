// SPDX-License-Identifier: Apache-2.0 OR MIT

package merklize_test

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"merklize"
)

// TestDeviceTreeUpdateBatch: trees of 1, 2, 3, 255, 256 and 257 leaves updated from a batch
// filled in place by one leaf, the last leaf, every leaf and repeats (the last value wins); after
// each, the root is that of a twin tree given the same updates by Update, and the tree a fresh
// Build's of the new leaves (root and every level) and the oracle's (crypto/sha256). The batch's
// slots past count hold indices out of range: only the first count are read.
func TestDeviceTreeUpdateBatch(t *testing.T) {
	eachDeviceTreeCase(t, func(t *testing.T, c deviceTreeCase, leaves [][32]byte) {
		n := len(leaves)
		tree, twin := newDeviceTree(t, leaves, c.opts), newDeviceTree(t, leaves, c.opts)
		batch, err := tree.NewUpdateBatch(n + 5)
		if err != nil {
			t.Fatalf("NewUpdateBatch: %v", err)
		}
		defer batch.Close()
		if batch.Capacity() != n+5 || len(batch.Indices()) != n+5 || len(batch.Leaves()) != n+5 {
			t.Fatalf("capacity %d, %d indices, %d leaves; want %d", batch.Capacity(),
				len(batch.Indices()), len(batch.Leaves()), n+5)
		}
		for _, indices := range updateBatches(n) {
			values := asLeaves(randomBytes(32*len(indices), int64(100+len(indices))))
			fill(batch, indices, values, uint64(n))
			for j, i := range indices {
				leaves[i] = values[j]
			}
			root, err := tree.UpdateBatch(batch, len(indices))
			if err != nil {
				t.Fatalf("UpdateBatch(%v): %v", indices, err)
			}
			want, err := twin.Update(indices, values)
			if err != nil || root != want {
				t.Fatalf("UpdateBatch(%v): root %x; the twin's Update %x, %v", indices, root, want, err)
			}
			checkDeviceTree(t, tree, leaves, c.opts, c.oracle, root, nil, nil)
		}
		checkBatchRefusals(t, tree, batch, leaves, c.opts)
	})
}

func newDeviceTree(t *testing.T, leaves [][32]byte, opts []merklize.Option) *merklize.DeviceTree {
	t.Helper()
	tree, err := merklize.NewDeviceTree(leavesBytes(leaves), opts...)
	if err != nil {
		t.Fatalf("NewDeviceTree: %v", err)
	}
	t.Cleanup(func() { tree.Close() })
	return tree
}

// fill writes the updates at the head of the batch and poisons the rest: an index of leafCount
// (out of range) and leaves of 0xa5.
func fill(batch *merklize.UpdateBatch, indices []uint64, values [][32]byte, leafCount uint64) {
	slots, leaves := batch.Indices(), batch.Leaves()
	for k := range slots {
		slots[k], leaves[k] = leafCount, [32]byte{}
		for b := range leaves[k] {
			leaves[k][b] = 0xa5
		}
	}
	copy(slots, indices)
	copy(leaves, values)
}

// checkBatchRefusals: a count past the capacity, an index out of range, a nil or closed batch and
// a negative count are refused with ErrArgument and leave the tree as it was (root and every
// level); count 0 changes nothing.
func checkBatchRefusals(t *testing.T, tree *merklize.DeviceTree, batch *merklize.UpdateBatch, leaves [][32]byte,
	opts []merklize.Option) {
	t.Helper()
	n := uint64(len(leaves))
	before, _ := tree.Root()
	fill(batch, []uint64{0}, make([][32]byte, 1), n) // slot 1 on: index n
	for _, r := range []struct {
		batch *merklize.UpdateBatch
		count int
		says  string
	}{
		{batch, batch.Capacity() + 1, "updates from a batch of room for"},
		{batch, 2, fmt.Sprint(n)},
		{nil, 1, "nil batch"},
		{batch, -1, "count -1"},
	} {
		if _, err := tree.UpdateBatch(r.batch, r.count); !errors.Is(err, merklize.ErrArgument) ||
			!strings.Contains(err.Error(), r.says) {
			t.Fatalf("UpdateBatch(count %d): %v; want ErrArgument saying %q", r.count, err, r.says)
		}
	}
	if root, err := tree.UpdateBatch(batch, 0); err != nil || root != before {
		t.Fatalf("UpdateBatch(count 0): %x, %v; want the root %x", root, err, before)
	}
	checkDeviceTree(t, tree, leaves, opts, nil, before, nil, nil)
}

// TestUpdateBatchSharedAndClosed: a batch made by one tree serves another of the device; what
// NewUpdateBatch refuses; a closed batch or tree is ErrClosed, the batch's slices nil.
func TestUpdateBatchSharedAndClosed(t *testing.T) {
	leaves := asLeaves(randomBytes(32*5, 5))
	maker, tree := newDeviceTree(t, leaves, nil), newDeviceTree(t, leaves, nil)
	for _, capacity := range []int{0, -1, 1 << 32} {
		if _, err := maker.NewUpdateBatch(capacity); !errors.Is(err, merklize.ErrArgument) ||
			!strings.Contains(err.Error(), "capacity") {
			t.Fatalf("NewUpdateBatch(%d): %v; want ErrArgument naming the capacity", capacity, err)
		}
	}
	batch, err := maker.NewUpdateBatch(2)
	if err != nil {
		t.Fatal(err)
	}
	fill(batch, []uint64{4, 1}, asLeaves(randomBytes(64, 6)), 5)
	leaves[4], leaves[1] = batch.Leaves()[0], batch.Leaves()[1]
	root, err := tree.UpdateBatch(batch, 2)
	if err != nil {
		t.Fatalf("another tree's batch: %v", err)
	}
	checkDeviceTree(t, tree, leaves, nil, nil, root, nil, nil)
	maker.Close() // the batch outlives the tree that made it
	if _, err := tree.UpdateBatch(batch, 2); err != nil {
		t.Fatalf("a batch of a closed tree: %v", err)
	}
	if _, err := maker.UpdateBatch(batch, 1); !errors.Is(err, merklize.ErrClosed) {
		t.Fatalf("UpdateBatch on a closed tree: %v", err)
	}
	if _, err := maker.NewUpdateBatch(1); !errors.Is(err, merklize.ErrClosed) {
		t.Fatalf("NewUpdateBatch on a closed tree: %v", err)
	}
	batch.Close()
	if _, err := tree.UpdateBatch(batch, 1); !errors.Is(err, merklize.ErrClosed) {
		t.Fatalf("UpdateBatch of a closed batch: %v", err)
	}
	if batch.Capacity() != 0 || batch.Indices() != nil || batch.Leaves() != nil {
		t.Fatal("a closed batch has room")
	}
	got, _ := tree.Root()
	if got != root {
		t.Fatal("a refused batch changed the tree")
	}
}
