// SPDX-License-Identifier: Apache-2.0 OR MIT

package merklize

import "io"

// Root is the root of the tree of data (32-byte leaves back to back, or with WithLeafSize data
// cut into blocks): by default BLAKE3, shape promote.
func Root(data []byte, opts ...Option) ([32]byte, error) {
	b, err := oneBuilder("Root", opts)
	if err != nil {
		return [32]byte{}, err
	}
	defer b.Close()
	return b.Root(data)
}

// RootFile is the root of the tree of the file at path, streamed: the memory held is a few pieces
// of the file, whatever its size.
func RootFile(path string, opts ...Option) ([32]byte, error) {
	b, err := oneBuilder("RootFile", opts)
	if err != nil {
		return [32]byte{}, err
	}
	defer b.Close()
	return b.RootFile(path)
}

// RootReader is the root of the tree of everything r gives, streamed (an *os.File from its
// position).
func RootReader(r io.Reader, opts ...Option) ([32]byte, error) {
	b, err := oneBuilder("RootReader", opts)
	if err != nil {
		return [32]byte{}, err
	}
	defer b.Close()
	return b.RootReader(r)
}

// Build is the tree of data, every level kept.
func Build(data []byte, opts ...Option) (*Tree, error) {
	b, err := oneBuilder("Build", opts)
	if err != nil {
		return nil, err
	}
	defer b.Close()
	return b.Build(data)
}

// ProveFile is the inclusion proof of leaf index of the file at path, streamed.
func ProveFile(path string, index uint64, opts ...Option) (*Proof, error) {
	b, err := oneBuilder("ProveFile", opts)
	if err != nil {
		return nil, err
	}
	defer b.Close()
	return b.ProveFile(path, index)
}

// oneBuilder makes the builder of one call. Builders are cheap to make: the programs they run
// are compiled once per device (and kept in the library's cache of programs), not per builder.
func oneBuilder(what string, opts []Option) (*Builder, error) {
	s, err := forTree(what, opts)
	if err != nil {
		return nil, err
	}
	return newBuilder(s)
}
