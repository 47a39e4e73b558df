// SPDX-License-Identifier: Apache-2.0 OR MIT

package merklize

// #include "shim.h"
import "C"

import (
	"io"
	"unsafe"
)

// A Builder is a tree configuration checked and bound to a device, with its compiled programs and
// memory pools: make one with NewBuilder and build many trees with it. A Builder may be used from
// several goroutines (the library serialises its calls). Close frees it; a Builder that becomes
// unreachable is freed by the garbage collector, but Close says when.
//
// Its inputs are 32-byte leaves back to back, or with WithLeafSize data cut into blocks. Each
// input comes as bytes, a file path (streamed: a root or a proof of a file holds a few pieces of
// it in memory, whatever its size) or an io.Reader (an *os.File is read by its descriptor, from
// its position; other readers are streamed through a pipe).
type Builder struct {
	h *handle[C.merklize_builder]
}

// NewBuilder makes the builder of the trees the options describe (by default BLAKE3, promote, the
// natural depth, arity 2, 32-byte leaves) on the device of WithDevice. An unknown name or a
// combination the tree does not allow is ErrArgument, with the library's reason.
func NewBuilder(opts ...Option) (*Builder, error) {
	s, err := forTree("NewBuilder", opts)
	if err != nil {
		return nil, err
	}
	return newBuilder(s)
}

func newBuilder(s *settings) (*Builder, error) {
	config, free := s.cConfig()
	defer free()
	var builder *C.merklize_builder
	err := s.withDevice(func(device *C.merklize_device) error {
		return call(func() C.merklize_status { return C.merklize_builder_create(device, &config, &builder) })
	})
	if err != nil {
		return nil, err
	}
	return &Builder{h: newHandle(builder, func(b *C.merklize_builder) { C.merklize_builder_free(b) })}, nil
}

// Close frees the builder. Trees and proofs it made stay valid. Close always returns nil.
func (b *Builder) Close() error {
	if b != nil {
		b.h.close()
	}
	return nil
}

func (b *Builder) handle() *handle[C.merklize_builder] {
	if b == nil {
		return nil
	}
	return b.h
}

// root is the root of a source: streamed from files and readers.
func (b *Builder) root(src source) (root [32]byte, err error) {
	var out [32]byte
	err = b.handle().with(func(builder *C.merklize_builder) error {
		return src.with(func(c *cSource) C.merklize_status {
			return C.merklize_go_root(builder, c.kind, c.data, c.size, c.path, c.fd,
				(*C.uint8_t)(unsafe.Pointer(&out[0])))
		})
	})
	if err == nil {
		root = out
	}
	return root, err
}

// Root is the root of the tree of data.
func (b *Builder) Root(data []byte) ([32]byte, error) { return b.root(memorySource(data)) }

// RootFile is the root of the tree of the file at path, streamed.
func (b *Builder) RootFile(path string) ([32]byte, error) { return b.root(pathSource(path)) }

// RootReader is the root of the tree of everything r gives, streamed.
func (b *Builder) RootReader(r io.Reader) (root [32]byte, err error) {
	err = withReader(r, func(src source) error {
		root, err = b.root(src)
		return err
	})
	return root, err
}

// build is the tree of a source, every level kept.
func (b *Builder) build(src source) (*Tree, error) {
	var tree *C.merklize_tree
	err := b.handle().with(func(builder *C.merklize_builder) error {
		return src.with(func(c *cSource) C.merklize_status {
			return C.merklize_go_build(builder, c.kind, c.data, c.size, c.path, c.fd, &tree)
		})
	})
	if err != nil {
		return nil, err
	}
	return newTree(tree), nil
}

// Build is the tree of data, every level kept in host memory (for levels and proofs).
func (b *Builder) Build(data []byte) (*Tree, error) { return b.build(memorySource(data)) }

// BuildFile is the tree of the file at path, read whole.
func (b *Builder) BuildFile(path string) (*Tree, error) { return b.build(pathSource(path)) }

// BuildReader is the tree of everything r gives, read whole.
func (b *Builder) BuildReader(r io.Reader) (tree *Tree, err error) {
	err = withReader(r, func(src source) error {
		tree, err = b.build(src)
		return err
	})
	return tree, err
}

// prove is the inclusion proof of leaf index of a source, built on the device with only the
// leaf's path read back.
func (b *Builder) prove(src source, index uint64) (*Proof, error) {
	var proof *C.merklize_proof
	err := b.handle().with(func(builder *C.merklize_builder) error {
		return src.with(func(c *cSource) C.merklize_status {
			return C.merklize_go_prove(builder, c.kind, c.data, c.size, c.path, c.fd,
				C.uint64_t(index), &proof)
		})
	})
	if err != nil {
		return nil, err
	}
	return newProof(proof), nil
}

// Prove is the inclusion proof of leaf index of data (with WithLeafSize: of block index),
// without keeping the tree: only the leaf's path is read back from the device.
func (b *Builder) Prove(data []byte, index uint64) (*Proof, error) {
	return b.prove(memorySource(data), index)
}

// ProveFile is the inclusion proof of leaf index of the file at path, streamed.
func (b *Builder) ProveFile(path string, index uint64) (*Proof, error) {
	return b.prove(pathSource(path), index)
}

// ProveReader is the inclusion proof of leaf index of everything r gives, streamed.
func (b *Builder) ProveReader(r io.Reader, index uint64) (proof *Proof, err error) {
	err = withReader(r, func(src source) error {
		proof, err = b.prove(src, index)
		return err
	})
	return proof, err
}
