// SPDX-License-Identifier: Apache-2.0 OR MIT

package merklize

// #include <merklize.h>
// #include <stdlib.h>
// #include <string.h>
import "C"

import (
	"fmt"
	"math"
	"runtime"
	"unsafe"
)

// A Matrix is a row-major matrix of canonical field elements (uint32 for HashPoseidon2BabyBear and
// HashPoseidon2KoalaBear, uint64 for HashPoseidon2Goldilocks): Height rows of Width elements,
// Elements holding Height * Width of them.
type Matrix[E uint32 | uint64] struct {
	Height, Width int
	Elements      []E
}

// A MatrixShape is all a verifier knows of a matrix.
type MatrixShape struct {
	Height, Width int
}

// An MmcsOpening opens row Index: Rows holds each matrix's opened row (row Index >> k of a
// matrix entering k layers up), Path the siblings from the leaves' layer up to the cap's.
type MmcsOpening[E uint32 | uint64] struct {
	Index uint64
	Rows  [][]E
	Path  [][32]byte
}

// An Mmcs is Plonky3's MerkleTreeMmcs commitment to the rows of matrices, bit for bit Plonky3's
// (docs/LIBRARY.md, "Matrix commitments"), made on a device by CommitMatrices. It keeps a copy of
// the matrices and every digest layer on the host, so it opens rows without a device; it is
// read-only, and may be used from several goroutines. Close frees it.
type Mmcs[E uint32 | uint64] struct {
	h         *handle[C.merklize_mmcs]
	hash      string
	capHeight int
	shapes    []MatrixShape
}

// elementSize checks that hash has a matrix commitment whose elements are E.
func elementSize[E uint32 | uint64](hash string) error {
	name := C.CString(hash)
	defer C.free(unsafe.Pointer(name))
	var size C.size_t
	if err := call(func() C.merklize_status { return C.merklize_mmcs_element_size(name, &size) }); err != nil {
		return err
	}
	var e E
	if uintptr(size) != unsafe.Sizeof(e) {
		return argumentError(fmt.Sprintf("%s's elements are %d bytes, not the %d of %T", hash, size, unsafe.Sizeof(e), e))
	}
	return nil
}

// cMatrices copies the matrices into C memory (cgo lets no Go pointer sit in the C array of
// matrices the library reads); free releases it.
func cMatrices[E uint32 | uint64](matrices []Matrix[E]) (list *C.merklize_matrix, free func(), err error) {
	var e E
	size := C.size_t(unsafe.Sizeof(e))
	for m, x := range matrices {
		if x.Height < 0 || x.Width < 0 || (x.Width > 0 && x.Height > math.MaxInt/x.Width) || len(x.Elements) != x.Height*x.Width {
			return nil, nil, argumentError(fmt.Sprintf("CommitMatrices: matrix %d holds %d elements, not its %d x %d", m, len(x.Elements), x.Height, x.Width))
		}
	}
	list = (*C.merklize_matrix)(C.calloc(C.size_t(len(matrices))+1, C.size_t(unsafe.Sizeof(C.merklize_matrix{}))))
	items := unsafe.Slice(list, len(matrices)+1)
	free = func() {
		for _, item := range items {
			C.free(unsafe.Pointer(item.data))
		}
		C.free(unsafe.Pointer(list))
	}
	for m, x := range matrices {
		data := C.malloc(C.size_t(len(x.Elements))*size + 1)
		if len(x.Elements) > 0 {
			C.memcpy(data, unsafe.Pointer(&x.Elements[0]), C.size_t(len(x.Elements))*size)
		}
		items[m] = C.merklize_matrix{data: data, height: C.uint64_t(x.Height), width: C.uint64_t(x.Width)}
	}
	return list, free, nil
}

// CommitMatrices commits to the rows of matrices with hash (HashPoseidon2BabyBear or
// HashPoseidon2KoalaBear for uint32 elements, HashPoseidon2Goldilocks for uint64) and a cap of up
// to 2^capHeight digests (0: the root), on the device of WithDevice. The matrices are copied.
// Refused, ErrArgument naming the matrix and the reason: no matrix, every height 0, a height
// Plonky3 refuses beside the tallest (7 beside 8), an element at or above p, another hash.
func CommitMatrices[E uint32 | uint64](matrices []Matrix[E], hash string, capHeight int, opts ...Option) (*Mmcs[E], error) {
	return CommitMatricesDropping(matrices, hash, capHeight, 0, opts...)
}

// CommitMatricesDropping is CommitMatrices keeping the digest layers from dropLayers up only
// (about 2^-dropLayers of them): Open recomputes the siblings below from the matrices, and the
// openings are the same. dropLayers above the cap's layer (an opening path's length) is refused
// with ErrArgument.
func CommitMatricesDropping[E uint32 | uint64](matrices []Matrix[E], hash string, capHeight, dropLayers int, opts ...Option) (*Mmcs[E], error) {
	s := settingsOf(opts)
	for _, name := range append(s.treeOptions, s.blake3Options...) {
		if s.err == nil {
			s.fail(fmt.Sprintf("CommitMatrices has no use for %s: it takes WithDevice", name))
		}
	}
	if s.err == nil && (capHeight < 0 || capHeight > math.MaxUint32) {
		s.fail(fmt.Sprintf("CommitMatrices: capHeight %d is negative or too large", capHeight))
	}
	if s.err == nil && (dropLayers < 0 || dropLayers > math.MaxUint32) {
		s.fail(fmt.Sprintf("CommitMatrices: dropLayers %d is negative or too large", dropLayers))
	}
	if s.err != nil {
		return nil, s.err
	}
	if err := elementSize[E](hash); err != nil {
		return nil, err
	}
	list, free, err := cMatrices(matrices)
	if err != nil {
		return nil, err
	}
	defer free()
	device, err := deviceFor(s.device)
	if err != nil {
		return nil, err
	}
	name := C.CString(hash)
	defer C.free(unsafe.Pointer(name))
	var out *C.merklize_mmcs
	if err := call(func() C.merklize_status {
		return C.merklize_mmcs_commit_dropping(device, name, list, C.size_t(len(matrices)),
			C.uint32_t(capHeight), C.uint32_t(dropLayers), &out)
	}); err != nil {
		return nil, err
	}
	shapes := make([]MatrixShape, len(matrices))
	for m, x := range matrices {
		shapes[m] = MatrixShape{x.Height, x.Width}
	}
	return &Mmcs[E]{h: newHandle(out, func(c *C.merklize_mmcs) { C.merklize_mmcs_free(c) }), hash: hash,
		capHeight: capHeight, shapes: shapes}, nil
}

func (c *Mmcs[E]) handle() *handle[C.merklize_mmcs] {
	if c == nil {
		return nil
	}
	return c.h
}

// Close frees the commitment. Close always returns nil.
func (c *Mmcs[E]) Close() error {
	c.handle().close()
	return nil
}

// Hash, CapHeight and Shapes are the commitment's, as CommitMatrices was given them.
func (c *Mmcs[E]) Hash() string          { return c.hash }
func (c *Mmcs[E]) CapHeight() int        { return c.capHeight }
func (c *Mmcs[E]) Shapes() []MatrixShape { return append([]MatrixShape(nil), c.shapes...) }

// Height is the tallest matrix's height: the rows that open; 0 once closed.
func (c *Mmcs[E]) Height() uint64 {
	var n uint64
	c.handle().with(func(m *C.merklize_mmcs) error {
		n = uint64(C.merklize_mmcs_height(m))
		return nil
	})
	return n
}

// Cap is the commitment: up to 2^CapHeight digests (the root alone at cap height 0).
func (c *Mmcs[E]) Cap() ([][32]byte, error) {
	var cap [][32]byte
	err := c.handle().with(func(m *C.merklize_mmcs) error {
		cap = make([][32]byte, int(C.merklize_mmcs_cap_count(m))+1)
		return call(func() C.merklize_status {
			return C.merklize_mmcs_cap(m, (*C.uint8_t)(unsafe.Pointer(&cap[0][0])), C.size_t(32*len(cap)))
		})
	})
	if err != nil {
		return nil, err
	}
	return cap[:len(cap)-1], nil
}

// Open is the openings of rows indices, in their order; an index at or past Height is
// ErrArgument and opens nothing.
func (c *Mmcs[E]) Open(indices ...uint64) ([]MmcsOpening[E], error) {
	var rows, paths *C.merklize_bytes
	var pathLength int
	err := c.handle().with(func(m *C.merklize_mmcs) error {
		pathLength = int(C.merklize_mmcs_path_length(m))
		var at *C.uint64_t
		if len(indices) > 0 {
			at = (*C.uint64_t)(unsafe.Pointer(&indices[0]))
		}
		return call(func() C.merklize_status {
			return C.merklize_mmcs_open(m, at, C.uint64_t(len(indices)), &rows, &paths)
		})
	})
	if err != nil {
		return nil, err
	}
	rowBytes, pathBytes := bytesOf(rows), bytesOf(paths)
	var e E
	size := int(unsafe.Sizeof(e))
	out := make([]MmcsOpening[E], len(indices))
	at := 0
	for i, index := range indices {
		out[i].Index = index
		for _, shape := range c.shapes {
			row := make([]E, shape.Width)
			for k := range row {
				for b := 0; b < size; b++ {
					row[k] |= E(rowBytes[at]) << (8 * b)
					at++
				}
			}
			out[i].Rows = append(out[i].Rows, row)
		}
		out[i].Path = make([][32]byte, pathLength)
		for k := range out[i].Path {
			copy(out[i].Path[k][:], pathBytes[32*(i*pathLength+k):])
		}
	}
	return out, nil
}

// Verify is VerifyMatrixOpening against this commitment's cap and shapes.
func (c *Mmcs[E]) Verify(o MmcsOpening[E]) error {
	cap, err := c.Cap()
	if err != nil {
		return err
	}
	return VerifyMatrixOpening(c.hash, c.capHeight, cap, c.shapes, o)
}

// VerifyMatrixOpening checks on the host (no device), as Plonky3's verify_batch, that o opens row
// o.Index of the commitment with cap and capHeight to matrices of shapes with hash: nil when it
// does; when not (its rows, path, index, the shapes), an error that wraps ErrInvalidProof with
// the library's reason. Another hash, or one whose elements are not E, is ErrArgument.
func VerifyMatrixOpening[E uint32 | uint64](hash string, capHeight int, cap [][32]byte, shapes []MatrixShape, o MmcsOpening[E]) error {
	if err := elementSize[E](hash); err != nil {
		return err
	}
	if capHeight < 0 || capHeight > math.MaxUint32 {
		return argumentError(fmt.Sprintf("VerifyMatrixOpening: capHeight %d is negative or too large", capHeight))
	}
	if len(o.Rows) != len(shapes) {
		return fmt.Errorf("%w: invalid opening of row %d: %d rows for %d matrices", ErrInvalidProof, o.Index, len(o.Rows), len(shapes))
	}
	cShapes := make([]C.merklize_matrix_shape, len(shapes)+1)
	var joined []E
	for m, shape := range shapes {
		if shape.Height < 0 || shape.Width < 0 {
			return argumentError(fmt.Sprintf("VerifyMatrixOpening: shape %d is negative", m))
		}
		if len(o.Rows[m]) != shape.Width {
			return fmt.Errorf("%w: invalid opening of row %d: matrix %d's row has %d elements, its width %d",
				ErrInvalidProof, o.Index, m, len(o.Rows[m]), shape.Width)
		}
		cShapes[m] = C.merklize_matrix_shape{height: C.uint64_t(shape.Height), width: C.uint64_t(shape.Width)}
		joined = append(joined, o.Rows[m]...)
	}
	var e E
	joined = append(joined, 0) // a pointer for the library even where no row has an element
	path := append(append([][32]byte(nil), o.Path...), [32]byte{})
	capCopy := append(append([][32]byte(nil), cap...), [32]byte{})
	name := C.CString(hash)
	defer C.free(unsafe.Pointer(name))
	runtime.LockOSThread() // the reason is in this thread's merklize_last_error
	defer runtime.UnlockOSThread()
	var valid C.int
	if err := call(func() C.merklize_status {
		return C.merklize_mmcs_verify(name, C.uint32_t(capHeight), (*C.uint8_t)(unsafe.Pointer(&capCopy[0][0])),
			C.uint64_t(len(cap)), &cShapes[0], C.size_t(len(shapes)), C.uint64_t(o.Index),
			unsafe.Pointer(&joined[0]), C.size_t(uintptr(len(joined)-1)*unsafe.Sizeof(e)),
			(*C.uint8_t)(unsafe.Pointer(&path[0][0])), C.size_t(32*len(o.Path)), &valid)
	}); err != nil {
		return err
	}
	if valid == 0 {
		return fmt.Errorf("%w: %s", ErrInvalidProof, C.GoString(C.merklize_last_error()))
	}
	return nil
}
