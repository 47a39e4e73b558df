// SPDX-License-Identifier: Apache-2.0 OR MIT

package merklize

// #include <merklize.h>
import "C"

import "unsafe"

// RootsMany is the roots of many trees of treeSize leaves each, built at once on the device (a
// launch a level over all of them): leaves holds B * treeSize 32-byte leaves back to back, tree k
// being the tree of leaves [k*treeSize, (k+1)*treeSize), its root Root's of those leaves bit for
// bit. The options are Root's (hash, shape, depth, device); the trees are binary trees of 32-byte
// leaves. A length that is no whole number of trees is an *Error saying what is left over.
func RootsMany(leaves []byte, treeSize uint64, opts ...Option) ([][32]byte, error) {
	b, err := oneBuilder("RootsMany", opts)
	if err != nil {
		return nil, err
	}
	defer b.Close()
	return b.RootsMany(leaves, treeSize)
}

// RootsMany is the roots of the builder's trees over consecutive runs of treeSize leaves (see
// the function RootsMany).
func (b *Builder) RootsMany(leaves []byte, treeSize uint64) ([][32]byte, error) {
	var roots [][32]byte
	if treeSize > 0 {
		roots = make([][32]byte, uint64(len(leaves))/32/treeSize)
	}
	err := b.handle().with(func(builder *C.merklize_builder) error {
		return call(func() C.merklize_status {
			var in unsafe.Pointer
			if len(leaves) > 0 {
				in = unsafe.Pointer(&leaves[0])
			}
			var out *C.uint8_t
			if len(roots) > 0 {
				out = (*C.uint8_t)(unsafe.Pointer(&roots[0][0]))
			} else {
				var none C.uint8_t // a refused call writes nothing: any address will do
				out = &none
			}
			return C.merklize_roots_many(builder, in, C.uint64_t(len(leaves)), C.uint64_t(treeSize),
				out, C.uint64_t(len(roots)*32))
		})
	})
	if err != nil {
		return nil, err
	}
	return roots, nil
}
