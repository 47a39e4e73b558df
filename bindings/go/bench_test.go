// SPDX-License-Identifier: Apache-2.0 OR MIT

package merklize_test

import (
	"flag"
	"fmt"
	"testing"

	"merklize"
)

// The benchmarks' trees: go test -bench . -args -log2=25 -hash=sha256.
var (
	benchLog2 = flag.Int("log2", 20, "BenchmarkRoot's trees have 2^log2 leaves")
	benchHash = flag.String("hash", "blake3", "BenchmarkRoot's node hash")
)

// BenchmarkRoot: the calls bench/capi_bench times from C and C++, made from Go, so that bench.sh
// sets the three side by side: Builder.Build of 2^log2 leaves in Go memory (every level kept, the
// root read, the tree freed: merklize_build) and Builder.Root (the root alone: merklize_root), a
// builder reused, its first call untimed.
func BenchmarkRoot(b *testing.B) {
	data := make([]byte, 32<<*benchLog2)
	for i := range data {
		data[i] = byte(i*7 + i>>12) // capi_bench's leaves
	}
	builder, err := merklize.NewBuilder(merklize.WithHash(*benchHash))
	if err != nil {
		b.Fatal(err)
	}
	defer builder.Close()
	if _, err := builder.Root(data); err != nil { // programs compiled or loaded: not timed
		b.Fatal(err)
	}
	b.Run(fmt.Sprintf("Build/%s/2^%d", *benchHash, *benchLog2), func(b *testing.B) {
		b.SetBytes(int64(len(data)))
		for i := 0; i < b.N; i++ {
			tree, err := builder.Build(data)
			if err != nil {
				b.Fatal(err)
			}
			_ = tree.Root()
			tree.Close()
		}
	})
	b.Run(fmt.Sprintf("Root/%s/2^%d", *benchHash, *benchLog2), func(b *testing.B) {
		b.SetBytes(int64(len(data)))
		for i := 0; i < b.N; i++ {
			if _, err := builder.Root(data); err != nil {
				b.Fatal(err)
			}
		}
	})
}

// BenchmarkHash: gohashtree's Hash on the device beside crypto/sha256 on one core, by pairs: the
// size where the device's layer starts to pay.
func BenchmarkHash(b *testing.B) {
	for _, pairs := range []int{1, 64, 4096, 1 << 18} {
		chunks := asLeaves(randomBytes(64*pairs, 2))
		digests := make([][32]byte, pairs)
		b.Run(fmt.Sprintf("device/%d", pairs), func(b *testing.B) {
			b.SetBytes(int64(64 * pairs))
			for i := 0; i < b.N; i++ {
				if err := merklize.Hash(digests, chunks); err != nil {
					b.Fatal(err)
				}
			}
		})
		b.Run(fmt.Sprintf("crypto-sha256/%d", pairs), func(b *testing.B) {
			b.SetBytes(int64(64 * pairs))
			for i := 0; i < b.N; i++ {
				for j := range digests {
					digests[j] = sha256Pair(nil, chunks[2*j], chunks[2*j+1])
				}
			}
		})
	}
}

// BenchmarkCallOverhead: the Go layer's cost per call, on calls whose C side does almost nothing:
// Tree.Node (a cgo call, the handle's lock, the thread held for the error) and Tree.Root (none).
func BenchmarkCallOverhead(b *testing.B) {
	tree, err := merklize.Build(randomBytes(32*4, 3))
	if err != nil {
		b.Fatal(err)
	}
	defer tree.Close()
	b.Run("Tree.Node", func(b *testing.B) {
		for i := 0; i < b.N; i++ {
			if _, err := tree.Node(0, 1); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("Tree.Root", func(b *testing.B) {
		for i := 0; i < b.N; i++ {
			_ = tree.Root()
		}
	})
}
