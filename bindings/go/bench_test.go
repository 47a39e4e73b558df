// SPDX-License-Identifier: Apache-2.0 OR MIT

package merklize_test

import (
	"flag"
	"fmt"
	"testing"

	"merklize"
)

// benchLog2 sets the leaves of the benchmarks: go test -bench . -args -log2=25.
var benchLog2 = flag.Int("log2", 20, "the benchmarks' trees have 2^log2 leaves")

// BenchmarkRoot: Builder.Root of 2^log2 random leaves in Go memory (the root alone), and
// Builder.Build (every level kept and the tree freed), for SHA-256 and BLAKE3, a builder reused
// as testdata/root_bench.c reuses its own, so that the two differ by the Go layer alone.
func BenchmarkRoot(b *testing.B) {
	n := 1 << *benchLog2
	data := randomBytes(32*n, 1)
	for _, hash := range []string{merklize.HashSHA256, merklize.HashBlake3} {
		builder, err := merklize.NewBuilder(merklize.WithHash(hash))
		if err != nil {
			b.Fatal(err)
		}
		if _, err := builder.Root(data); err != nil { // programs compiled or loaded: not timed
			b.Fatal(err)
		}
		b.Run(fmt.Sprintf("Root/%s/2^%d", hash, *benchLog2), func(b *testing.B) {
			b.SetBytes(int64(len(data)))
			for i := 0; i < b.N; i++ {
				if _, err := builder.Root(data); err != nil {
					b.Fatal(err)
				}
			}
		})
		b.Run(fmt.Sprintf("Build/%s/2^%d", hash, *benchLog2), func(b *testing.B) {
			b.SetBytes(int64(len(data)))
			for i := 0; i < b.N; i++ {
				tree, err := builder.Build(data)
				if err != nil {
					b.Fatal(err)
				}
				tree.Close()
			}
		})
		builder.Close()
	}
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
