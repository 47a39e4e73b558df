// SPDX-License-Identifier: Apache-2.0 OR MIT

package merklize_test

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"merklize"
)

// TestDeviceTreeSnapshot: trees of 1, 2, 3, 255, 256 and 257 leaves snapshotted, then updated
// and appended to; Rollback gives back the old root, leaf count, depth and every level, and again
// after more changes (a snapshot serves many rollbacks); the rolled-back tree then updates as a
// fresh Build's of its leaves.
func TestDeviceTreeSnapshot(t *testing.T) {
	for _, opts := range [][]merklize.Option{{merklize.WithHash(merklize.HashSHA256)}, nil} {
		for _, n := range []int{1, 2, 3, 255, 256, 257} {
			opts, n := opts, n
			t.Run(fmt.Sprintf("%d/%d", len(opts), n), func(t *testing.T) {
				leaves := asLeaves(randomBytes(32*n, int64(n)))
				tree := newDeviceTree(t, leaves, opts)
				snapshot, err := tree.Snapshot()
				if err != nil {
					t.Fatalf("Snapshot: %v", err)
				}
				defer snapshot.Close()
				if snapshot.LeafCount() != uint64(n) {
					t.Fatalf("the snapshot's leaf count %d; want %d", snapshot.LeafCount(), n)
				}
				root, _ := tree.Root()
				for round := 0; round < 2; round++ {
					change(t, tree, n, round)
					if err := tree.Rollback(snapshot); err != nil {
						t.Fatalf("Rollback: %v", err)
					}
					checkDeviceTree(t, tree, leaves, opts, nil, root, nil, nil)
				}
				leaves[n-1] = [32]byte{7}
				updated, err := tree.Update([]uint64{uint64(n - 1)}, leaves[n-1:])
				if err != nil {
					t.Fatal(err)
				}
				checkDeviceTree(t, tree, leaves, opts, nil, updated, nil, nil)
			})
		}
	}
}

// change updates the first and last leaves and appends n + round leaves, checking that the root
// moved.
func change(t *testing.T, tree *merklize.DeviceTree, n, round int) {
	t.Helper()
	before, _ := tree.Root()
	if _, err := tree.Update([]uint64{0, uint64(n - 1)}, asLeaves(randomBytes(64, int64(round)))); err != nil {
		t.Fatalf("Update: %v", err)
	}
	after, err := tree.Append(asLeaves(randomBytes(32*(n+round), int64(n+round))))
	if err != nil || after == before || tree.LeafCount() != uint64(2*n+round) {
		t.Fatalf("Append: %v, %d leaves, the root unchanged: %v", err, tree.LeafCount(), after == before)
	}
}

// TestSnapshotRefusals: a snapshot of another tree, a nil or closed snapshot are refused and
// change nothing; a snapshot outlives its tree.
func TestSnapshotRefusals(t *testing.T) {
	leaves := asLeaves(randomBytes(32*3, 3))
	tree, other := newDeviceTree(t, leaves, nil), newDeviceTree(t, leaves, nil)
	theirs, err := other.Snapshot()
	if err != nil {
		t.Fatal(err)
	}
	mine, err := tree.Snapshot()
	if err != nil {
		t.Fatal(err)
	}
	leaves = append(leaves, [32]byte{1})
	root, _ := tree.Append(leaves[3:])
	mine.Close()
	for _, r := range []struct {
		snapshot *merklize.TreeSnapshot
		want     error
		says     string
	}{
		{theirs, merklize.ErrArgument, "another tree"},
		{nil, merklize.ErrArgument, "nil snapshot"},
		{mine, merklize.ErrClosed, ""},
	} {
		if err := tree.Rollback(r.snapshot); !errors.Is(err, r.want) || !strings.Contains(err.Error(), r.says) {
			t.Fatalf("Rollback: %v; want %v saying %q", err, r.want, r.says)
		}
	}
	checkDeviceTree(t, tree, leaves, nil, nil, root, nil, nil)
	if mine.LeafCount() != 0 {
		t.Fatal("a closed snapshot has leaves")
	}
	other.Close()
	if theirs.LeafCount() != 3 || theirs.Close() != nil {
		t.Fatal("a snapshot of a closed tree")
	}
	if _, err := other.Snapshot(); !errors.Is(err, merklize.ErrClosed) {
		t.Fatalf("Snapshot of a closed tree: %v", err)
	}
	if err := other.Rollback(theirs); !errors.Is(err, merklize.ErrClosed) {
		t.Fatalf("Rollback of a closed tree: %v", err)
	}
}
