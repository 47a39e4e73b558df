// SPDX-License-Identifier: Apache-2.0 OR MIT

package merklize_test

// Independent oracles of SHA-256 trees, made here with crypto/sha256 alone: the layered trees of
// shapes promote and zero (and a fixed depth, and SSZ's mixed-in length), and RFC 6962's
// recursive definitions of the tree hash, the audit path and the consistency proof.

import (
	"crypto/sha256"
	"encoding/binary"
)

func sha256Pair(prefix []byte, left, right [32]byte) [32]byte {
	h := sha256.New()
	h.Write(prefix)
	h.Write(left[:])
	h.Write(right[:])
	var out [32]byte
	h.Sum(out[:0])
	return out
}

// oracleTree is a SHA-256 tree: levels[0] the leaves (padded for shape zero), the root last.
type oracleTree struct {
	levels [][][32]byte
	zero   bool
	mixIn  *uint64
}

// sha256Tree is the tree of leaves with node SHA-256(left || right): with zero, the leaves padded
// with zero leaves to a power of two, or to 2^depth when depth >= 0; else (promote) a lone last
// node moving up.
func sha256Tree(leaves [][32]byte, zero bool, depth int) oracleTree {
	level := append([][32]byte(nil), leaves...)
	if zero {
		width := 1
		for width < len(level) || (depth >= 0 && width < 1<<depth) {
			width *= 2
		}
		level = append(level, make([][32]byte, width-len(level))...)
	}
	t := oracleTree{levels: [][][32]byte{level}, zero: zero}
	for len(level) > 1 {
		next := make([][32]byte, 0, (len(level)+1)/2)
		for i := 0; i+1 < len(level); i += 2 {
			next = append(next, sha256Pair(nil, level[i], level[i+1]))
		}
		if len(level)%2 == 1 {
			next = append(next, level[len(level)-1])
		}
		t.levels = append(t.levels, next)
		level = next
	}
	return t
}

func (t oracleTree) root() [32]byte {
	top := t.levels[len(t.levels)-1][0]
	if t.mixIn == nil {
		return top
	}
	return sha256Pair(nil, top, lengthChunk(*t.mixIn))
}

// lengthChunk is SSZ's length as a 32-byte little-endian chunk.
func lengthChunk(length uint64) (chunk [32]byte) {
	binary.LittleEndian.PutUint64(chunk[:8], length)
	return chunk
}

// siblings are the nodes an inclusion proof of leaf index carries, from the leaves up: the
// sibling at each level where there is one (a promoted node has none), then SSZ's length chunk.
func (t oracleTree) siblings(index uint64) [][32]byte {
	var path [][32]byte
	for _, level := range t.levels[:len(t.levels)-1] {
		if sibling := index ^ 1; sibling < uint64(len(level)) {
			path = append(path, level[sibling])
		}
		index /= 2
	}
	if t.mixIn != nil {
		path = append(path, lengthChunk(*t.mixIn))
	}
	return path
}

// RFC 6962 (RFC 9162 2.1): leaves SHA-256(0x00 || entry), nodes SHA-256(0x01 || left || right).

func rfc6962Leaf(entry []byte) [32]byte {
	return sha256.Sum256(append([]byte{0}, entry...))
}

// split is the largest power of two less than n (n > 1).
func split(n int) int {
	k := 1
	for 2*k < n {
		k *= 2
	}
	return k
}

func rfc6962Root(leaves [][32]byte) [32]byte {
	switch len(leaves) {
	case 0:
		return sha256.Sum256(nil)
	case 1:
		return leaves[0]
	}
	k := split(len(leaves))
	return sha256Pair([]byte{1}, rfc6962Root(leaves[:k]), rfc6962Root(leaves[k:]))
}

// rfc6962Path is PATH(m, D[n]), the audit path of leaf m, from the leaf up.
func rfc6962Path(m int, leaves [][32]byte) [][32]byte {
	if len(leaves) <= 1 {
		return nil
	}
	k := split(len(leaves))
	if m < k {
		return append(rfc6962Path(m, leaves[:k]), rfc6962Root(leaves[k:]))
	}
	return append(rfc6962Path(m-k, leaves[k:]), rfc6962Root(leaves[:k]))
}

// rfc6962Consistency is PROOF(m, D[n]) = SUBPROOF(m, D[n], true).
func rfc6962Consistency(m int, leaves [][32]byte) [][32]byte {
	return subproof(m, leaves, true)
}

func subproof(m int, leaves [][32]byte, whole bool) [][32]byte {
	n := len(leaves)
	if m == n {
		if whole {
			return nil
		}
		return [][32]byte{rfc6962Root(leaves)}
	}
	k := split(n)
	if m <= k {
		return append(subproof(m, leaves[:k], whole), rfc6962Root(leaves[k:]))
	}
	return append(subproof(m-k, leaves[k:], false), rfc6962Root(leaves[:k]))
}
