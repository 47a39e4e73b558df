// SPDX-License-Identifier: Apache-2.0 OR MIT

package merklize_test

import (
	"errors"
	"fmt"
	"math/rand"
	"strings"
	"testing"

	"merklize"
)

// TestDeviceTreeUpdates: trees kept on the device at 1, 2, 3, 255, 256 and 257 leaves, updated
// by batches of one leaf, the last leaf, every leaf and repeats (the last value wins); after
// each, the root equals the oracle's (crypto/sha256) and a fresh Build's of the updated leaves,
// every level the fresh tree's, and the multiproof its ProveMulti's.
func TestDeviceTreeUpdates(t *testing.T) {
	eachDeviceTreeCase(t, func(t *testing.T, c deviceTreeCase, leaves [][32]byte) {
		n := len(leaves)
		tree, err := merklize.NewDeviceTree(leavesBytes(leaves), c.opts...)
		if err != nil {
			t.Fatalf("NewDeviceTree: %v", err)
		}
		defer tree.Close()
		root, _ := tree.Root()
		checkDeviceTree(t, tree, leaves, c.opts, c.oracle, root, nil, nil)
		for k, indices := range updateBatches(n) {
			values := asLeaves(randomBytes(32*len(indices), int64(100+k)))
			for j, i := range indices {
				leaves[i] = values[j] // in order: a repeated index ends with its last value
			}
			var proof *merklize.Proof
			if k%2 == 0 {
				root, err = tree.Update(indices, values)
			} else {
				root, proof, err = tree.UpdateProved(indices, values)
			}
			if err != nil {
				t.Fatalf("batch %d: %v", k, err)
			}
			checkDeviceTree(t, tree, leaves, c.opts, c.oracle, root, proof, indices)
		}
		checkRefusals(t, tree, leaves)
	})
}

// deviceTreeCase is a configuration the device-tree tests run, with its oracle (nil: none but a
// fresh Build's tree).
type deviceTreeCase struct {
	name   string
	opts   []merklize.Option
	oracle func([][32]byte) oracleTree
}

var deviceTreeCases = []deviceTreeCase{
	{"sha256-promote", []merklize.Option{merklize.WithHash(merklize.HashSHA256)},
		func(l [][32]byte) oracleTree { return sha256Tree(l, false, -1) }},
	{"sha256-zero-depth10", []merklize.Option{merklize.WithHash(merklize.HashSHA256),
		merklize.WithShape(merklize.ShapeZero), merklize.WithDepth(10)},
		func(l [][32]byte) oracleTree { return sha256Tree(l, true, 10) }},
	{"blake3", nil, nil},
}

// eachDeviceTreeCase runs f, a subtest for each case of deviceTreeCases at 1, 2, 3, 255, 256 and
// 257 random leaves (seeded by their count).
func eachDeviceTreeCase(t *testing.T, f func(t *testing.T, c deviceTreeCase, leaves [][32]byte)) {
	for _, c := range deviceTreeCases {
		for _, n := range []int{1, 2, 3, 255, 256, 257} {
			c, n := c, n
			t.Run(fmt.Sprintf("%s/%d", c.name, n), func(t *testing.T) {
				f(t, c, asLeaves(randomBytes(32*n, int64(n))))
			})
		}
	}
}

// updateBatches: one leaf, the last, every leaf in a random order, and repeats.
func updateBatches(n int) [][]uint64 {
	every := make([]uint64, n)
	for i, v := range rand.New(rand.NewSource(int64(n))).Perm(n) {
		every[i] = uint64(v)
	}
	return [][]uint64{{0}, {uint64(n - 1)}, every, {0, uint64(n / 2), 0, uint64(n - 1), 0}}
}

func leavesBytes(leaves [][32]byte) []byte {
	var data []byte
	for _, l := range leaves {
		data = append(data, l[:]...)
	}
	return data
}

func checkDeviceTree(t *testing.T, tree *merklize.DeviceTree, leaves [][32]byte, opts []merklize.Option,
	oracle func([][32]byte) oracleTree, returned [32]byte, proof *merklize.Proof, indices []uint64) {
	t.Helper()
	fresh, err := merklize.Build(leavesBytes(leaves), opts...)
	if err != nil {
		t.Fatalf("Build: %v", err)
	}
	defer fresh.Close()
	root, err := tree.Root()
	if err != nil || root != fresh.Root() || returned != fresh.Root() {
		t.Fatalf("root %x (returned %x), %v; a fresh build's %x", root, returned, err, fresh.Root())
	}
	if oracle != nil && root != oracle(leaves).root() {
		t.Fatalf("root %x; the oracle's %x", root, oracle(leaves).root())
	}
	if tree.LeafCount() != uint64(len(leaves)) || tree.Depth() != fresh.Depth() {
		t.Fatalf("%d leaves, depth %d; want %d, %d", tree.LeafCount(), tree.Depth(), len(leaves), fresh.Depth())
	}
	for k := 0; k <= tree.Depth(); k++ {
		got, err := tree.Level(k)
		want, _ := fresh.Level(k)
		if err != nil || !equalDigests(got, want) {
			t.Fatalf("level %d: %v, not the fresh tree's", k, err)
		}
	}
	if proof != nil {
		defer proof.Close()
		want, err := fresh.ProveMulti(indices)
		if err != nil {
			t.Fatal(err)
		}
		defer want.Close()
		gotJSON, _ := proof.MarshalJSON()
		wantJSON, _ := want.MarshalJSON()
		if string(gotJSON) != string(wantJSON) {
			t.Fatalf("multiproof %s; ProveMulti's %s", gotJSON, wantJSON)
		}
	}
}

// checkRefusals: refused batches are ErrArgument, say why, and leave the tree as it was.
func checkRefusals(t *testing.T, tree *merklize.DeviceTree, leaves [][32]byte) {
	t.Helper()
	before, _ := tree.Root()
	n := uint64(len(leaves))
	refused := []struct {
		indices []uint64
		leaves  [][32]byte
		says    string
	}{
		{[]uint64{0, n}, make([][32]byte, 2), "leaf index"},
		{[]uint64{0, 1}, make([][32]byte, 1), "2 indices but 1 leaves"},
	}
	for _, r := range refused {
		_, err := tree.Update(r.indices, r.leaves)
		if !errors.Is(err, merklize.ErrArgument) || !strings.Contains(err.Error(), r.says) {
			t.Fatalf("Update(%v): %v; want ErrArgument saying %q", r.indices, err, r.says)
		}
		_, proof, err := tree.UpdateProved(r.indices, r.leaves)
		if !errors.Is(err, merklize.ErrArgument) || proof != nil {
			t.Fatalf("UpdateProved(%v): %v", r.indices, err)
		}
	}
	if _, err := tree.Prove(n); !errors.Is(err, merklize.ErrArgument) {
		t.Fatalf("Prove(%d): %v", n, err)
	}
	if _, err := tree.Level(tree.Depth() + 1); !errors.Is(err, merklize.ErrArgument) {
		t.Fatalf("Level above the root: %v", err)
	}
	root, _ := tree.Root()
	got, _ := tree.Level(0)
	if root != before || !equalDigests(got, leaves) {
		t.Fatal("a refused update changed the tree")
	}
}

// TestDeviceTreeOfArityK: k-ary trees kept on the device, updated (the last value wins, from a
// slice and from an update batch) and appended to, equal a fresh Build's of their leaves after
// each, every level, the k-ary multiproof of an update ProveMulti's; rolled back to a snapshot
// taken first, the tree of then; a consistency proof is refused, naming the arity.
func TestDeviceTreeOfArityK(t *testing.T) {
	for _, k := range []int{4, 16} {
		opts := []merklize.Option{merklize.WithArity(k), merklize.WithHash(merklize.HashSHA256)}
		for _, n := range []int{1, 2, k + 1, 300} {
			leaves := asLeaves(randomBytes(32*n, int64(n)))
			tree, err := merklize.NewDeviceTree(leavesBytes(leaves), opts...)
			if err != nil {
				t.Fatalf("NewDeviceTree: %v", err)
			}
			root, _ := tree.Root()
			checkDeviceTree(t, tree, leaves, opts, nil, root, nil, nil)
			snapshot, err := tree.Snapshot()
			if err != nil {
				t.Fatalf("Snapshot at arity %d: %v", k, err)
			}
			atSnapshot, snapshotRoot := append([][32]byte(nil), leaves...), root
			batch, err := tree.NewUpdateBatch(3)
			if err != nil {
				t.Fatalf("NewUpdateBatch at arity %d: %v", k, err)
			}
			batchIndices, batchValues := []uint64{0, uint64(n / 2), 0}, asLeaves(randomBytes(32*3, 38))
			fill(batch, batchIndices, batchValues, uint64(n))
			for j, i := range batchIndices {
				leaves[i] = batchValues[j]
			}
			if root, err = tree.UpdateBatch(batch, 3); err != nil {
				t.Fatalf("UpdateBatch at arity %d: %v", k, err)
			}
			batch.Close()
			checkDeviceTree(t, tree, leaves, opts, nil, root, nil, nil)
			indices := []uint64{uint64(n - 1), 0, uint64(n - 1)}
			values := asLeaves(randomBytes(32*3, 36))
			for j, i := range indices {
				leaves[i] = values[j] // in order: the last value wins
			}
			if root, err = tree.Update(indices, values); err != nil {
				t.Fatal(err)
			}
			checkDeviceTree(t, tree, leaves, opts, nil, root, nil, nil)
			more := asLeaves(randomBytes(32*(k+1), 37))
			if root, err = tree.Append(more); err != nil {
				t.Fatal(err)
			}
			leaves = append(leaves, more...)
			checkDeviceTree(t, tree, leaves, opts, nil, root, nil, nil)
			checkKaryUpdateProved(t, tree, leaves, opts, n)
			if _, err := tree.ProveConsistency(1); !errors.Is(err, merklize.ErrArgument) ||
				!strings.Contains(err.Error(), "arity") {
				t.Fatalf("ProveConsistency at arity %d: %v", k, err)
			}
			if err := tree.Rollback(snapshot); err != nil {
				t.Fatalf("Rollback at arity %d: %v", k, err)
			}
			snapshot.Close()
			checkDeviceTree(t, tree, atSnapshot, opts, nil, snapshotRoot, nil, nil)
			tree.Close()
		}
	}
}

// checkKaryUpdateProved: UpdateProved of a batch with repeats (the last value wins) at arity k
// gives a ProofKaryMulti that verifies under the new root, not with another leaf, and equals
// ProveMulti's of a tree built over the updated leaves (checkDeviceTree).
func checkKaryUpdateProved(t *testing.T, tree *merklize.DeviceTree, leaves [][32]byte,
	opts []merklize.Option, n int) {
	t.Helper()
	indices := []uint64{uint64(n - 1), 0, uint64(n / 2), 0}
	values := asLeaves(randomBytes(32*len(indices), 39))
	for j, i := range indices {
		leaves[i] = values[j] // in order: the last value wins
	}
	root, proof, err := tree.UpdateProved(indices, values)
	if err != nil || proof.Kind() != merklize.ProofKaryMulti {
		t.Fatalf("UpdateProved: %v, %v", proof.Kind(), err)
	}
	proven, _ := proof.Indices()
	shown := make([][32]byte, len(proven))
	for j, i := range proven {
		shown[j] = leaves[i]
	}
	if err := proof.Verify(shown, root); err != nil {
		t.Fatalf("the k-ary multiproof of %v: %v", proven, err)
	}
	shown[0][0] ^= 1
	if err := proof.Verify(shown, root); !errors.Is(err, merklize.ErrInvalidProof) {
		t.Fatalf("a changed leaf: %v", err)
	}
	checkDeviceTree(t, tree, leaves, opts, nil, root, proof, indices)
}

// TestDeviceTreeRefusedAndClosed: what NewDeviceTree refuses, and calls after Close.
func TestDeviceTreeRefusedAndClosed(t *testing.T) {
	for _, r := range []struct {
		data []byte
		opts []merklize.Option
		says string
	}{
		{make([]byte, 33), nil, "leaves"},
		{nil, nil, "leaves"},
		{make([]byte, 64), []merklize.Option{merklize.WithLeafSize(64)}, "config.leaf_size"},
	} {
		if _, err := merklize.NewDeviceTree(r.data, r.opts...); !errors.Is(err, merklize.ErrArgument) ||
			!strings.Contains(err.Error(), r.says) {
			t.Fatalf("NewDeviceTree(%d bytes): %v; want ErrArgument saying %q", len(r.data), err, r.says)
		}
	}
	tree, err := merklize.NewDeviceTree(make([]byte, 64))
	if err != nil {
		t.Fatal(err)
	}
	tree.Close()
	if _, err := tree.Update([]uint64{0}, make([][32]byte, 1)); !errors.Is(err, merklize.ErrClosed) {
		t.Fatalf("Update after Close: %v", err)
	}
	if _, err := tree.Append(make([][32]byte, 1)); !errors.Is(err, merklize.ErrClosed) || tree.LeafCount() != 0 {
		t.Fatalf("Append after Close: %v, %d leaves", err, tree.LeafCount())
	}
}

// TestDeviceTreeAppends: trees grown by appends through 1, 2, 3, 2^k - 1, 2^k and 2^k + 1 leaves
// up to 257; after each, the tree is a fresh Build's of all its leaves (and the oracle's,
// crypto/sha256), and for RFC 6962 the consistency proof from every earlier size is RFC 9162's
// PROOF (oracle_test.go) and Tree.ProveConsistency's, and verifies between the roots the tree
// had. Then an append past a fixed depth and proofs a tree has not are refused, changing nothing.
func TestDeviceTreeAppends(t *testing.T) {
	sizes := []int{1, 2, 3, 7, 8, 9, 15, 16, 17, 255, 256, 257}
	cases := []struct {
		name   string
		opts   []merklize.Option
		oracle func([][32]byte) oracleTree
	}{
		{"rfc6962", []merklize.Option{merklize.WithHash(merklize.HashRFC6962)}, nil},
		{"sha256-zero-depth9", []merklize.Option{merklize.WithHash(merklize.HashSHA256),
			merklize.WithShape(merklize.ShapeZero), merklize.WithDepth(9)},
			func(l [][32]byte) oracleTree { return sha256Tree(l, true, 9) }},
		{"blake3-parent", []merklize.Option{merklize.WithHash(merklize.HashBlake3Parent)}, nil},
	}
	for _, c := range cases {
		c := c
		t.Run(c.name, func(t *testing.T) {
			leaves := asLeaves(randomBytes(32*sizes[len(sizes)-1], 33))
			tree, err := merklize.NewDeviceTree(leavesBytes(leaves[:1]), c.opts...)
			if err != nil {
				t.Fatalf("NewDeviceTree: %v", err)
			}
			defer tree.Close()
			roots := map[int][32]byte{}
			roots[1], _ = tree.Root()
			for _, n := range sizes[1:] {
				root, err := tree.Append(leaves[tree.LeafCount():n])
				if err != nil {
					t.Fatalf("Append to %d leaves: %v", n, err)
				}
				roots[n] = root
				checkDeviceTree(t, tree, leaves[:n], c.opts, c.oracle, root, nil, nil)
				if c.name == "rfc6962" {
					if root != rfc6962Root(leaves[:n]) {
						t.Fatalf("%d leaves: root %x, RFC 6962's %x", n, root, rfc6962Root(leaves[:n]))
					}
					checkConsistency(t, tree, leaves[:n], roots)
				}
			}
			checkRefusedAppend(t, tree, leaves, c.name == "rfc6962", c.name == "sha256-zero-depth9")
		})
	}
}

// checkConsistency: the proofs from each earlier size m to the tree of `leaves` now.
func checkConsistency(t *testing.T, tree *merklize.DeviceTree, leaves [][32]byte, roots map[int][32]byte) {
	t.Helper()
	n := len(leaves)
	fresh, err := merklize.Build(leavesBytes(leaves), merklize.WithHash(merklize.HashRFC6962))
	if err != nil {
		t.Fatal(err)
	}
	defer fresh.Close()
	for m, old := range roots {
		proof, err := tree.ProveConsistency(uint64(m))
		if err != nil {
			t.Fatalf("ProveConsistency(%d) of %d leaves: %v", m, n, err)
		}
		want, _ := fresh.ProveConsistency(uint64(m))
		nodes, _ := proof.Nodes()
		gotJSON, _ := proof.MarshalJSON()
		wantJSON, _ := want.MarshalJSON()
		if string(gotJSON) != string(wantJSON) || !equalDigests(nodes, rfc6962Consistency(m, leaves)) {
			t.Fatalf("%d to %d leaves: %s; Tree.ProveConsistency's %s, RFC 9162's nodes %x", m, n,
				gotJSON, wantJSON, rfc6962Consistency(m, leaves))
		}
		if err := proof.VerifyConsistency(old, roots[n]); err != nil {
			t.Fatalf("%d to %d leaves: %v", m, n, err)
		}
		if m < n && !errors.Is(proof.VerifyConsistency(roots[n], roots[n]), merklize.ErrInvalidProof) {
			t.Fatalf("%d to %d leaves: the proof verifies the new root as the old one", m, n)
		}
		proof.Close()
		want.Close()
	}
}

// checkRefusedAppend: an append past the tree's limit and proofs it cannot give are ErrArgument,
// say why, and leave the tree as it was.
func checkRefusedAppend(t *testing.T, tree *merklize.DeviceTree, leaves [][32]byte, consistency, depth9 bool) {
	t.Helper()
	before, _ := tree.Root()
	n := tree.LeafCount()
	if consistency {
		if _, err := tree.ProveConsistency(n + 1); !errors.Is(err, merklize.ErrArgument) ||
			!strings.Contains(err.Error(), "is more than the tree's") {
			t.Fatalf("ProveConsistency(%d) of %d leaves: %v", n+1, n, err)
		}
	} else if _, err := tree.ProveConsistency(1); !errors.Is(err, merklize.ErrArgument) ||
		!strings.Contains(err.Error(), "consistency proofs") {
		t.Fatalf("ProveConsistency of a tree without consistency proofs: %v", err)
	}
	if depth9 { // the fixed depth: 512 leaves at most
		_, err := tree.Append(make([][32]byte, 512-n+1))
		if !errors.Is(err, merklize.ErrArgument) || !strings.Contains(err.Error(), "would pass its 512") {
			t.Fatalf("Append past a fixed depth: %v", err)
		}
	}
	root, _ := tree.Append(nil) // nothing to do
	got, _ := tree.Level(0)
	if root != before || tree.LeafCount() != n || !equalDigests(got, leaves[:n]) {
		t.Fatal("a refused append changed the tree")
	}
}
