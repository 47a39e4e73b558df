// SPDX-License-Identifier: Apache-2.0 OR MIT

package merklize_test

import (
	"bytes"
	"crypto/sha256"
	"fmt"
	"os"
	"testing"

	"merklize"
)

// sha256Case is a SHA-256 tree the oracle knows: its options and the oracle's tree of leaves.
type sha256Case struct {
	name   string
	opts   []merklize.Option
	oracle func(leaves [][32]byte) oracleTree
}

func sha256Cases() []sha256Case {
	// An SSZ list of limit 5000: depth ceil(log2 5000) = 13, the length mixed in.
	mixed := func(length uint64) func([][32]byte) oracleTree {
		return func(leaves [][32]byte) oracleTree {
			t := sha256Tree(leaves, true, 13)
			t.mixIn = &length
			return t
		}
	}
	return []sha256Case{
		{"promote", []merklize.Option{merklize.WithHash(merklize.HashSHA256)},
			func(l [][32]byte) oracleTree { return sha256Tree(l, false, -1) }},
		{"zero", []merklize.Option{merklize.WithHash(merklize.HashSHA256), merklize.WithShape(merklize.ShapeZero)},
			func(l [][32]byte) oracleTree { return sha256Tree(l, true, -1) }},
		{"zero-depth11", []merklize.Option{merklize.WithHash(merklize.HashSHA256),
			merklize.WithShape(merklize.ShapeZero), merklize.WithDepth(11)},
			func(l [][32]byte) oracleTree { return sha256Tree(l, true, 11) }},
		{"ssz-list-5000", []merklize.Option{merklize.WithHash(merklize.HashSHA256),
			merklize.WithShape(merklize.ShapeZero), merklize.WithDepth(13), merklize.WithMixInLength(5000)}, mixed(5000)},
	}
}

// TestSHA256Trees: roots, every level and inclusion proofs of SHA-256 trees from memory, a path
// and readers, against the trees of crypto/sha256 made here.
func TestSHA256Trees(t *testing.T) {
	for _, c := range sha256Cases() {
		for _, n := range sizes {
			c, n := c, n
			t.Run(fmt.Sprintf("%s/%d", c.name, n), func(t *testing.T) {
				data := randomBytes(32*n, int64(n))
				want := c.oracle(asLeaves(data))
				checkTree(t, c.opts, data, want)
			})
		}
	}
}

func checkTree(t *testing.T, opts []merklize.Option, data []byte, want oracleTree) {
	t.Helper()
	wantRoot := want.root()
	original := append([]byte(nil), data...)
	root, err := merklize.Root(data, opts...)
	if err != nil || root != wantRoot {
		t.Fatalf("Root: %x, %v; want %x", root, err, wantRoot)
	}
	path := writeTemp(t, data)
	if root, err = merklize.RootFile(path, opts...); err != nil || root != wantRoot {
		t.Fatalf("RootFile: %x, %v; want %x", root, err, wantRoot)
	}
	if root, err = merklize.RootReader(bytes.NewReader(data), opts...); err != nil || root != wantRoot {
		t.Fatalf("RootReader(bytes.Reader): %x, %v; want %x", root, err, wantRoot)
	}
	file, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer file.Close()
	if root, err = merklize.RootReader(file, opts...); err != nil || root != wantRoot {
		t.Fatalf("RootReader(*os.File): %x, %v; want %x", root, err, wantRoot)
	}
	if !bytes.Equal(data, original) {
		t.Fatal("the input changed")
	}

	tree, err := merklize.Build(data, opts...)
	if err != nil {
		t.Fatalf("Build: %v", err)
	}
	defer tree.Close()
	n := uint64(len(data) / 32)
	if tree.Root() != wantRoot || tree.LeafCount() != n || tree.FirstLevel() != 0 {
		t.Fatalf("tree: root %x, %d leaves, first level %d; want %x, %d, 0", tree.Root(),
			tree.LeafCount(), tree.FirstLevel(), wantRoot, n)
	}
	checkLevels(t, tree, want)
	for _, i := range []uint64{0, n / 2, n - 1} {
		proof, err := tree.Prove(i)
		if err != nil {
			t.Fatalf("Prove(%d): %v", i, err)
		}
		nodes, err := proof.Nodes()
		if err != nil || !equalDigests(nodes, want.siblings(i)) {
			t.Fatalf("Prove(%d): nodes %x, %v; want %x", i, nodes, err, want.siblings(i))
		}
		if err := proof.Verify([][32]byte{asLeaves(data)[i]}, wantRoot); err != nil {
			t.Fatalf("Prove(%d): Verify: %v", i, err)
		}
		proof.Close()
	}
}

// checkLevels compares the stored levels (the leaves up to the root) with the oracle's, the
// copies of Level and the views of LevelView, and Node for the first and last of each.
func checkLevels(t *testing.T, tree *merklize.Tree, want oracleTree) {
	t.Helper()
	wantLevels := want.levels
	for k := 0; k <= tree.Depth(); k++ {
		level, err := tree.Level(k)
		if err != nil {
			t.Fatalf("Level(%d): %v", k, err)
		}
		view, err := tree.LevelView(k)
		if err != nil || !equalDigests(level, view) {
			t.Fatalf("LevelView(%d): %v, not the copy's %d nodes", k, err, len(level))
		}
		if k >= len(wantLevels) || !prefixOf(level, wantLevels[k]) {
			t.Fatalf("level %d of %d: %d nodes, not the oracle's", k, tree.Depth(), len(level))
		}
		for _, i := range []int{0, len(level) - 1} {
			node, err := tree.Node(k, uint64(i))
			if err != nil || node != level[i] {
				t.Fatalf("Node(%d, %d): %x, %v; want %x", k, i, node, err, level[i])
			}
		}
	}
	if _, err := tree.Level(tree.Depth() + 1); err == nil {
		t.Fatalf("Level(%d) above the root: no error", tree.Depth()+1)
	}
}

// prefixOf: level is the first nodes of want, and holds at least its nodes that are not padding
// (a tree of shape zero stores the input's nodes, not the zero subtrees after them).
func prefixOf(level, want [][32]byte) bool {
	return len(level) > 0 && len(level) <= len(want) && equalDigests(level, want[:len(level)])
}

func equalDigests(a, b [][32]byte) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// TestDataBlocks: trees of data cut into blocks, each leaf SHA-256(salt || block), against
// crypto/sha256, for sizes around whole blocks.
func TestDataBlocks(t *testing.T) {
	salt := []byte("a salt")
	for _, size := range []int{1, 99, 100, 101, 1000, 25600, 25601} {
		data := randomBytes(size, int64(size))
		var leaves [][32]byte
		for at := 0; at < size; at += 100 {
			end := at + 100
			if end > size {
				end = size
			}
			leaves = append(leaves, sha256.Sum256(append(append([]byte(nil), salt...), data[at:end]...)))
		}
		want := sha256Tree(leaves, false, -1).root()
		opts := []merklize.Option{merklize.WithHash(merklize.HashSHA256), merklize.WithLeafSize(100),
			merklize.WithSalt(salt)}
		root, err := merklize.Root(data, opts...)
		if err != nil || root != want {
			t.Errorf("%d bytes: %x, %v; want %x", size, root, err, want)
		}
		tree, err := merklize.Build(data, opts...)
		if err != nil {
			t.Fatalf("%d bytes: Build: %v", size, err)
		}
		got, err := tree.Level(0)
		if err != nil || !equalDigests(got, leaves) || tree.Root() != want {
			t.Errorf("%d bytes: the tree's leaves or root are not the oracle's (%v)", size, err)
		}
	}
}

// TestRFC6962: logs of entries, leaves SHA-256(0x00 || entry), against RFC 6962's recursive
// definitions: roots, audit paths and consistency proofs, and the empty log.
func TestRFC6962(t *testing.T) {
	b, err := merklize.NewBuilder(merklize.WithHash(merklize.HashRFC6962))
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	empty, err := b.Root(nil)
	if err != nil || empty != sha256.Sum256(nil) {
		t.Fatalf("the empty log: %x, %v; want SHA-256 of nothing", empty, err)
	}
	for _, n := range sizes {
		var leaves [][32]byte
		var data []byte
		for i := 0; i < n; i++ {
			leaf := rfc6962Leaf([]byte(fmt.Sprintf("entry %d", i)))
			leaves = append(leaves, leaf)
			data = append(data, leaf[:]...)
		}
		want := rfc6962Root(leaves)
		tree, err := b.Build(data)
		if err != nil || tree.Root() != want {
			t.Fatalf("%d leaves: %x, %v; want %x", n, tree.Root(), err, want)
		}
		for _, m := range []int{0, n / 3, n - 1} {
			proof, err := tree.Prove(uint64(m))
			checkRFCProof(t, fmt.Sprintf("%d leaves: the audit path of %d", n, m), proof, err,
				rfc6962Path(m, leaves), func(p *merklize.Proof) error { return p.Verify(leaves[m:m+1], want) })
		}
		for _, m := range []int{1, n / 2, n - 1, n} {
			if m == 0 { // no old tree: RFC 6962 defines no proof
				continue
			}
			proof, err := tree.ProveConsistency(uint64(m))
			checkRFCProof(t, fmt.Sprintf("%d leaves: the consistency proof from %d", n, m), proof, err,
				rfc6962Consistency(m, leaves), func(p *merklize.Proof) error {
					return p.VerifyConsistency(rfc6962Root(leaves[:m]), want)
				})
		}
		tree.Close()
	}
}

// checkRFCProof: a proof was made, holds the nodes RFC 6962 defines, and verifies.
func checkRFCProof(t *testing.T, what string, proof *merklize.Proof, err error, want [][32]byte,
	verify func(*merklize.Proof) error) {
	t.Helper()
	if err != nil {
		t.Fatalf("%s: %v", what, err)
	}
	defer proof.Close()
	if nodes, err := proof.Nodes(); err != nil || !equalDigests(nodes, want) {
		t.Errorf("%s: %d nodes (%v), not RFC 6962's %d", what, len(nodes), err, len(want))
	}
	if err := verify(proof); err != nil {
		t.Errorf("%s: %v", what, err)
	}
}
