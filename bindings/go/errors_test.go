// SPDX-License-Identifier: Apache-2.0 OR MIT

package merklize_test

import (
	"bytes"
	"errors"
	"io"
	"math"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"testing/iotest"

	"merklize"
)

// TestErrors: bad input is an error of the right status whose message names the problem, and
// nothing of the caller's is changed.
func TestErrors(t *testing.T) {
	missing := filepath.Join(t.TempDir(), "no-such-file")
	leaves := randomBytes(32*4, 1)
	readerFailure := errors.New("the reader broke")
	var tree *merklize.Tree
	cases := []struct {
		name   string
		call   func() error
		status error
		says   []string // what the message must hold
	}{
		{"unknown hash", func() error { _, err := merklize.Root(leaves, merklize.WithHash("sha3")); return err },
			merklize.ErrArgument, []string{"sha3", "blake3"}},
		{"unknown shape", func() error { _, err := merklize.NewBuilder(merklize.WithShape("square")); return err },
			merklize.ErrArgument, []string{"square"}},
		{"unknown leaf hash", func() error {
			_, err := merklize.NewBuilder(merklize.WithLeafSize(64), merklize.WithLeafHash("md5"))
			return err
		}, merklize.ErrArgument, []string{"md5"}},
		{"leaves not of 32 bytes", func() error { _, err := merklize.Root(leaves[:33]); return err },
			merklize.ErrArgument, []string{"33 bytes", "32"}},
		{"no leaves", func() error { _, err := merklize.Root(nil); return err },
			merklize.ErrArgument, []string{"empty"}},
		{"a missing file", func() error { _, err := merklize.RootFile(missing); return err },
			merklize.ErrIO, []string{missing}},
		{"a missing file to build", func() error {
			b, err := merklize.NewBuilder()
			if err != nil {
				return err
			}
			defer b.Close()
			_, err = b.BuildFile(missing)
			return err
		}, merklize.ErrIO, []string{missing}},
		{"a missing file to prove", func() error { _, err := merklize.ProveFile(missing, 0); return err },
			merklize.ErrIO, []string{missing}},
		{"a missing file to hash", func() error { _, err := merklize.Blake3File(missing); return err },
			merklize.ErrIO, []string{missing}},
		{"a reader that fails", func() error {
			_, err := merklize.RootReader(io.MultiReader(bytes.NewReader(leaves), iotest.ErrReader(readerFailure)))
			if !errors.Is(err, readerFailure) {
				t.Errorf("RootReader's error %v does not wrap the reader's", err)
			}
			return err
		}, merklize.ErrIO, []string{"the reader broke"}},
		{"a nil reader", func() error { _, err := merklize.RootReader(nil); return err },
			merklize.ErrArgument, []string{"nil"}},
		{"a leaf past the end", func() error { _, err := tree.Prove(4); return err },
			merklize.ErrArgument, []string{"4", "out of range"}},
		{"a level past the root", func() error { _, err := tree.Level(3); return err },
			merklize.ErrArgument, []string{"3"}},
		{"a negative level", func() error { _, err := tree.LevelView(-1); return err },
			merklize.ErrArgument, []string{"-1"}},
		{"a consistency proof of a bigger tree", func() error { _, err := tree.ProveConsistency(5); return err },
			merklize.ErrArgument, []string{"5"}},
		{"a negative arity", func() error { _, err := merklize.NewBuilder(merklize.WithArity(-2)); return err },
			merklize.ErrArgument, []string{"WithArity(-2)"}},
		{"an arity of 3", func() error { _, err := merklize.NewBuilder(merklize.WithArity(3)); return err },
			merklize.ErrArgument, []string{"arity"}},
		{"a negative leaf size", func() error { _, err := merklize.NewBuilder(merklize.WithLeafSize(-1)); return err },
			merklize.ErrArgument, []string{"WithLeafSize(-1)"}},
		{"a depth past int32", func() error { _, err := merklize.NewBuilder(merklize.WithDepth(math.MaxInt32 + 1)); return err },
			merklize.ErrArgument, []string{"WithDepth"}},
		{"a depth below the tree's", func() error {
			_, err := merklize.Root(leaves, merklize.WithShape("zero"), merklize.WithDepth(1))
			return err
		}, merklize.ErrArgument, []string{"depth"}},
		{"a mixed length on blake3", func() error { _, err := merklize.NewBuilder(merklize.WithMixInLength(3)); return err },
			merklize.ErrArgument, []string{"sha256", "zero"}},
		{"a salt without a leaf size", func() error { _, err := merklize.NewBuilder(merklize.WithSalt([]byte{1})); return err },
			merklize.ErrArgument, []string{"salt"}},
		{"a BLAKE3 option on a tree", func() error { _, err := merklize.NewBuilder(merklize.WithKey([32]byte{})); return err },
			merklize.ErrArgument, []string{"WithKey"}},
		{"a tree option on BLAKE3", func() error { _, err := merklize.Blake3(nil, merklize.WithHash("sha256")); return err },
			merklize.ErrArgument, []string{"WithHash"}},
		{"two BLAKE3 modes", func() error {
			_, err := merklize.Blake3(nil, merklize.WithKey([32]byte{}), merklize.WithDeriveKey("c"))
			return err
		}, merklize.ErrArgument, []string{"WithKey", "WithDeriveKey"}},
		{"no device", func() error {
			_, err := merklize.NewBuilder(merklize.WithDevice("no-such-device-anywhere"))
			return err
		}, merklize.ErrNoDevice, []string{"no-such-device-anywhere"}},
		{"a JSON proof that is not one", func() error { var p merklize.Proof; return p.UnmarshalJSON([]byte(`{"a":1}`)) },
			merklize.ErrDecode, []string{"format"}},
		{"a binary proof of 3 bytes", func() error { var p merklize.Proof; return p.UnmarshalBinary([]byte("abc")) },
			merklize.ErrDecode, []string{"truncated"}},
		{"an empty binary proof", func() error { var p merklize.Proof; return p.UnmarshalBinary(nil) },
			merklize.ErrDecode, nil},
		{"a zero Proof", func() error { var p merklize.Proof; _, err := p.MarshalJSON(); return err },
			merklize.ErrArgument, []string{"closed"}},
	}
	var err error
	if tree, err = merklize.Build(leaves); err != nil {
		t.Fatal(err)
	}
	defer tree.Close()
	original := append([]byte(nil), leaves...)
	for _, c := range cases {
		err := c.call()
		t.Logf("%s: %v", c.name, err)
		var e *merklize.Error
		if !errors.Is(err, c.status) || !errors.As(err, &e) || !strings.HasPrefix(err.Error(), "merklize: ") {
			t.Errorf("%s: %v; want a *merklize.Error of %v", c.name, err, c.status)
			continue
		}
		for _, s := range c.says {
			if !strings.Contains(err.Error(), s) {
				t.Errorf("%s: %q does not say %q", c.name, err, s)
			}
		}
	}
	if !bytes.Equal(leaves, original) {
		t.Error("the leaves changed")
	}
	if merklize.ErrArgument.Name() != "MERKLIZE_ERROR_ARGUMENT" {
		t.Errorf("ErrArgument.Name() is %q", merklize.ErrArgument.Name())
	}
}

// TestClosed: calls after Close are ErrClosed, Close twice is harmless, a failed decode keeps the
// proof, and what a closed tree answered before stays.
func TestClosed(t *testing.T) {
	b, err := merklize.NewBuilder(merklize.WithHash(merklize.HashSHA256))
	if err != nil {
		t.Fatal(err)
	}
	tree, err := b.Build(randomBytes(32*3, 2))
	if err != nil {
		t.Fatal(err)
	}
	proof, err := tree.Prove(1)
	if err != nil {
		t.Fatal(err)
	}
	b.Close()
	b.Close()
	if _, err := b.Root(randomBytes(32, 1)); !errors.Is(err, merklize.ErrClosed) {
		t.Fatalf("Root after Close: %v", err)
	}
	var nilBuilder *merklize.Builder
	if _, err := nilBuilder.Root(nil); !errors.Is(err, merklize.ErrClosed) {
		t.Fatalf("Root of a nil *Builder: %v", err)
	}
	leaf, _ := tree.Node(0, 1)
	root := tree.Root()
	tree.Close()
	if _, err := tree.Level(0); !errors.Is(err, merklize.ErrClosed) {
		t.Fatalf("Level after Close: %v", err)
	}
	if tree.Root() != root || tree.LeafCount() != 3 || tree.Depth() != 2 {
		t.Fatal("a closed tree forgot its root, leaf count or depth")
	}
	if err := proof.Verify([][32]byte{leaf}, root); err != nil {
		t.Fatalf("a proof outliving its builder and tree: %v", err)
	}
	if err := proof.UnmarshalJSON([]byte("{")); !errors.Is(err, merklize.ErrDecode) {
		t.Fatalf("UnmarshalJSON of {: %v", err)
	}
	if err := proof.UnmarshalJSON([]byte(" null ")); err != nil {
		t.Fatalf("UnmarshalJSON of null: %v", err)
	}
	if err := proof.Verify([][32]byte{leaf}, root); err != nil {
		t.Fatalf("after failed decodes: %v", err)
	}
	proof.Close()
	if err := proof.Verify([][32]byte{leaf}, root); !errors.Is(err, merklize.ErrClosed) {
		t.Fatalf("Verify after Close: %v", err)
	}
}

// TestConcurrentUse: one Builder shared by goroutines, closed while they run: every root is right
// or ErrClosed.
func TestConcurrentUse(t *testing.T) {
	b, err := merklize.NewBuilder(merklize.WithHash(merklize.HashSHA256))
	if err != nil {
		t.Fatal(err)
	}
	data := randomBytes(32*1000, 5)
	want := sha256Tree(asLeaves(data), false, -1).root()
	var wg sync.WaitGroup
	for g := 0; g < 8; g++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; i < 20; i++ {
				root, err := b.Root(data)
				if err != nil && !errors.Is(err, merklize.ErrClosed) || err == nil && root != want {
					t.Errorf("a shared builder: %x, %v", root, err)
					return
				}
			}
		}()
	}
	b.Root(data)
	b.Close()
	wg.Wait()
}
