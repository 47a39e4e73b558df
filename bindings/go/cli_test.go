// SPDX-License-Identifier: Apache-2.0 OR MIT

package merklize_test

import (
	"encoding/hex"
	"fmt"
	"strconv"
	"testing"

	"merklize"
)

// cliCase is a tree as the package and `merklize root` / `merklize proof` each describe it.
type cliCase struct {
	name string
	opts []merklize.Option
	args []string
	// blocks: the input is data in blocks of this many bytes, not 32-byte leaves.
	blocks int
	// field: the hash is over field elements, and takes canonical leaves only (canonicalLeaves).
	field bool
}

func cliCases() []cliCase {
	var cases []cliCase
	add := func(name string, blocks int, args []string, opts ...merklize.Option) {
		cases = append(cases, cliCase{name, opts, args, blocks, false})
	}
	for _, hash := range []string{merklize.HashBlake3, merklize.HashBlake3Parent, merklize.HashSHA256,
		merklize.HashKeccak256, merklize.HashSHA3_256} {
		for _, shape := range []string{merklize.ShapePromote, merklize.ShapeZero} {
			add(hash+"/"+shape, 0, []string{"--hash", hash, "--pad", shape},
				merklize.WithHash(hash), merklize.WithShape(shape))
		}
		add(hash+"/zero/depth11", 0, []string{"--hash", hash, "--pad", "zero", "--depth", "11"},
			merklize.WithHash(hash), merklize.WithShape(merklize.ShapeZero), merklize.WithDepth(11))
	}
	for _, hash := range poseidon2Hashes {
		for _, shape := range []string{merklize.ShapePromote, merklize.ShapeZero} {
			add(hash+"/"+shape, 0, []string{"--hash", hash, "--pad", shape},
				merklize.WithHash(hash), merklize.WithShape(shape))
			cases[len(cases)-1].field = true
		}
	}
	add("rfc6962", 0, []string{"--hash", "rfc6962"}, merklize.WithHash(merklize.HashRFC6962))
	add("default", 0, nil)
	add("sha256/ssz-list", 0, []string{"--hash", "sha256", "--pad", "zero", "--depth", "12", "--mix-in-length", "3000"},
		merklize.WithHash(merklize.HashSHA256), merklize.WithShape(merklize.ShapeZero),
		merklize.WithDepth(12), merklize.WithMixInLength(3000))
	for _, k := range []struct {
		arity       int
		hash, shape string
	}{{4, "sha256", "promote"}, {4, "blake3", "zero"}, {16, "blake3", "promote"}, {16, "sha256", "zero"}} {
		add(fmt.Sprintf("arity%d/%s/%s", k.arity, k.hash, k.shape), 0,
			[]string{"--arity", strconv.Itoa(k.arity), "--hash", k.hash, "--pad", k.shape},
			merklize.WithArity(k.arity), merklize.WithHash(k.hash), merklize.WithShape(k.shape))
	}
	add("blocks/sha256/salt", 100, []string{"--leaf-size", "100", "--hash", "sha256", "--salt", "0badc0de"},
		merklize.WithLeafSize(100), merklize.WithHash(merklize.HashSHA256), merklize.WithSalt([]byte{0x0b, 0xad, 0xc0, 0xde}))
	add("blocks/blake3", 100, []string{"--leaf-size", "100"}, merklize.WithLeafSize(100))
	add("blocks/sha256/blake3-leaves", 100, []string{"--leaf-size", "100", "--hash", "sha256", "--leaf-hash", "blake3"},
		merklize.WithLeafSize(100), merklize.WithHash(merklize.HashSHA256), merklize.WithLeafHash("blake3"))
	add("blocks/arity4/blake3", 100, []string{"--leaf-size", "100", "--arity", "4"},
		merklize.WithLeafSize(100), merklize.WithArity(4))
	// Keccak-256 and SHA3-256 leaves of blocks around the sponge's rate (136 bytes), under a tree
	// of the same hash and of another; and a k-ary tree of each.
	add("blocks/keccak256", 137, []string{"--leaf-size", "137", "--hash", "keccak256"},
		merklize.WithLeafSize(137), merklize.WithHash(merklize.HashKeccak256))
	add("blocks/sha256/sha3-256-leaves", 136, []string{"--leaf-size", "136", "--hash", "sha256", "--leaf-hash", "sha3-256"},
		merklize.WithLeafSize(136), merklize.WithHash(merklize.HashSHA256), merklize.WithLeafHash("sha3-256"))
	add("arity4/keccak256/zero", 0, []string{"--arity", "4", "--hash", "keccak256", "--pad", "zero"},
		merklize.WithArity(4), merklize.WithHash(merklize.HashKeccak256), merklize.WithShape(merklize.ShapeZero))
	add("arity16/sha3-256/promote", 0, []string{"--arity", "16", "--hash", "sha3-256"},
		merklize.WithArity(16), merklize.WithHash(merklize.HashSHA3_256))
	return cases
}

// TestAgainstCLI: for every hash and shape (the Poseidon2 ones over canonical leaves; fixed depths, SSZ lists, k-ary trees, data blocks)
// at 1, 2, 3, 2^k-1, 2^k and 2^k+1 leaves, the root from memory, a path and a built tree equals
// what `merklize root` prints, and the proof of the last leaf from a tree and from the file
// equals what `merklize proof` prints, byte for byte.
func TestAgainstCLI(t *testing.T) {
	if cliPath() == "" {
		t.Skip("SKIPPED: no merklize tool: set MERKLIZE_CLI or put merklize on PATH")
	}
	for _, c := range cliCases() {
		for _, n := range sizes {
			c, n := c, n
			t.Run(fmt.Sprintf("%s/%d", c.name, n), func(t *testing.T) {
				t.Parallel()
				checkAgainstCLI(t, c, n)
			})
		}
	}
}

func checkAgainstCLI(t *testing.T, c cliCase, n int) {
	size := 32 * n
	if c.blocks > 0 {
		size = c.blocks*(n-1) + c.blocks/2 + 1 // n blocks, the last one shorter
	}
	data := randomBytes(size, int64(n)+int64(len(c.name)))
	if c.field {
		canonicalLeaves(data)
	}
	path := writeTemp(t, data)
	want := cli(t, append(append([]string{"root"}, c.args...), path)...)

	b, err := merklize.NewBuilder(c.opts...)
	if err != nil {
		t.Fatalf("NewBuilder: %v", err)
	}
	defer b.Close()
	check := func(how string, root [32]byte, err error) {
		t.Helper()
		if err != nil || hex.EncodeToString(root[:]) != want {
			t.Fatalf("%s: %x, %v; merklize root prints %s", how, root, err, want)
		}
	}
	root, err := b.Root(data)
	check("Root", root, err)
	root, err = b.RootFile(path)
	check("RootFile", root, err)
	tree, err := b.Build(data)
	if err != nil {
		t.Fatalf("Build: %v", err)
	}
	defer tree.Close()
	check("Build", tree.Root(), nil)

	last := uint64(n - 1)
	wantProof := cli(t, append(append([]string{"proof", "-i", strconv.Itoa(n - 1)}, c.args...), path)...)
	proofs := map[string]func() (*merklize.Proof, error){
		"Tree.Prove":        func() (*merklize.Proof, error) { return tree.Prove(last) },
		"Builder.Prove":     func() (*merklize.Proof, error) { return b.Prove(data, last) },
		"Builder.ProveFile": func() (*merklize.Proof, error) { return b.ProveFile(path, last) },
	}
	if c.blocks > 0 { // a tree of blocks keeps its leaves, not the data: proofs of blocks come from the data
		delete(proofs, "Tree.Prove")
	}
	for how, prove := range proofs {
		proof, err := prove()
		if err != nil {
			t.Fatalf("%s: %v", how, err)
		}
		got, err := proof.MarshalJSON()
		if err != nil || string(got) != wantProof {
			t.Fatalf("%s: %s, %v\nmerklize proof prints %s", how, got, err, wantProof)
		}
		leaf, err := tree.Node(0, last)
		if err != nil {
			t.Fatal(err)
		}
		if err := proof.Verify([][32]byte{leaf}, tree.Root()); err != nil {
			t.Fatalf("%s: Verify: %v", how, err)
		}
		proof.Close()
	}
}
