// SPDX-License-Identifier: Apache-2.0 OR MIT

package merklize_test

import (
	"errors"
	"strings"
	"testing"

	"merklize"
)

// Many small trees at once against Root of each run of leaves and, for SHA-256, the oracle made
// here: every hash, both shapes and a fixed depth, at awkward tree sizes and numbers of trees.
func TestRootsManyAgainstRootAndTheOracle(t *testing.T) {
	type tc struct {
		hash, shape string
		depth       int
	}
	cases := []tc{{"blake3", "promote", -1}, {"blake3-parent", "zero", -1}, {"sha256", "promote", -1},
		{"sha256", "zero", -1}, {"sha256", "zero", 10}, {"rfc6962", "promote", -1},
		{"keccak256", "zero", -1}, {"sha3-256", "promote", -1}}
	for _, c := range cases {
		opts := []merklize.Option{merklize.WithHash(c.hash), merklize.WithShape(c.shape)}
		if c.depth >= 0 {
			opts = append(opts, merklize.WithDepth(c.depth))
		}
		for _, n := range []int{1, 2, 3, 7, 8, 9, 255, 256, 257} {
			for _, trees := range []int{1, 2, 3} {
				data := randomBytes(n*trees*32, int64(n*7+trees))
				roots, err := merklize.RootsMany(data, uint64(n), opts...)
				if err != nil {
					t.Fatalf("%v n=%d B=%d: %v", c, n, trees, err)
				}
				if len(roots) != trees {
					t.Fatalf("%v n=%d: %d roots for %d trees", c, n, len(roots), trees)
				}
				for k := 0; k < trees; k++ {
					run := data[k*n*32 : (k+1)*n*32]
					want, err := merklize.Root(run, opts...)
					if err != nil || roots[k] != want {
						t.Fatalf("%v n=%d B=%d: root %d is %x, Root gives %x (%v)", c, n, trees, k,
							roots[k], want, err)
					}
					if c.hash == "sha256" && sha256Tree(asLeaves(run), c.shape == "zero", c.depth).root() != roots[k] {
						t.Fatalf("%v n=%d B=%d: root %d is not the oracle's", c, n, trees, k)
					}
				}
			}
		}
	}
}

func TestRootsManyRefusals(t *testing.T) {
	data := make([]byte, 320)
	for _, c := range []struct {
		leaves   []byte
		treeSize uint64
		message  string
	}{{data, 0, "tree_size is 0"}, {data[:319], 5, "31 bytes left over"},
		{data, 3, "3 trees and 1 leaves left over"}, {nil, 5, "no leaves"}} {
		_, err := merklize.RootsMany(c.leaves, c.treeSize, merklize.WithHash("sha256"))
		var e *merklize.Error
		if !errors.As(err, &e) || !strings.Contains(err.Error(), c.message) {
			t.Errorf("RootsMany(%d bytes, %d): %v, want an *Error saying %q", len(c.leaves),
				c.treeSize, err, c.message)
		}
	}
	if _, err := merklize.RootsMany(data, 5, merklize.WithArity(4)); err == nil ||
		!strings.Contains(err.Error(), "arity 4") {
		t.Errorf("RootsMany of a 4-ary builder: %v", err)
	}
}
