// SPDX-License-Identifier: Apache-2.0 OR MIT

package merklize

// #include <merklize.h>
// #include <stdlib.h>
import "C"

import (
	"fmt"
	"math"
	"unsafe"
)

// The node hashes, shapes and leaf hashes the library knows when this package was written;
// HashNames, ShapeNames and LeafHashNames list those of the library loaded.
const (
	HashBlake3       = "blake3"        // BLAKE3 of the 64 bytes of the two children (default)
	HashBlake3Parent = "blake3-parent" // BLAKE3's own parent compression (Bao's, b3sum's tree)
	HashSHA256       = "sha256"        // SHA-256 of the two children (SSZ, hashtree)
	HashRFC6962      = "rfc6962"       // SHA-256(0x01 || left || right), RFC 6962's log
	HashKeccak256    = "keccak256"     // Keccak-256 of the two children, Ethereum's keccak256
	HashSHA3_256     = "sha3-256"      // SHA3-256 (FIPS 202) of the two children

	// Poseidon2 compressions of field elements: leaves of canonical elements, little-endian
	// (eight 4-byte ones for BabyBear and KoalaBear, four 8-byte ones for Goldilocks, one
	// 32-byte one for BN254); binary trees of such leaves only, a non-canonical one refused.
	HashPoseidon2BabyBear   = "poseidon2-babybear"   // Plonky3's, BabyBear, width 16
	HashPoseidon2KoalaBear  = "poseidon2-koalabear"  // Plonky3's, KoalaBear, width 16
	HashPoseidon2Goldilocks = "poseidon2-goldilocks" // Plonky3's, Goldilocks, width 8
	HashPoseidon2BN254      = "poseidon2-bn254"      // HorizenLabs', BN254's Fr, width 3

	ShapePromote = "promote" // a lone last node of a level moves up unchanged (default)
	ShapeZero    = "zero"    // leaves padded with zero leaves to a full tree (SSZ)
)

// An Option sets one thing of a tree (its hash, shape, depth, arity, leaves), the device, or
// BLAKE3's mode. Options that have no use in a call make it fail with ErrArgument, naming them.
type Option func(*settings)

// WithHash sets the node hash: HashBlake3 (the default), HashBlake3Parent, HashSHA256,
// HashRFC6962, HashKeccak256, HashSHA3_256 or a Poseidon2 one (HashPoseidon2BabyBear,
// HashPoseidon2KoalaBear, HashPoseidon2Goldilocks, HashPoseidon2BN254).
func WithHash(name string) Option {
	return func(s *settings) { s.tree("WithHash"); s.hash = name }
}

// WithShape sets what a level of odd length does: ShapePromote (the default) or ShapeZero.
func WithShape(name string) Option {
	return func(s *settings) { s.tree("WithShape"); s.shape = name }
}

// WithDepth fixes the depth of the root (shape zero, SSZ's limit): the tree of 2^depth leaves,
// zero leaves after the input's. -1 is the natural depth, the default.
func WithDepth(depth int) Option {
	return func(s *settings) {
		s.tree("WithDepth")
		if depth < math.MinInt32 || depth > math.MaxInt32 {
			s.fail(fmt.Sprintf("WithDepth(%d): -1 (the natural depth) or a depth of 0 to 64", depth))
		}
		s.depth = depth
	}
}

// WithArity sets the children of a node: 2 (the default) or, for a k-ary tree, a power of two up
// to 128.
func WithArity(arity int) Option {
	return func(s *settings) {
		s.tree("WithArity")
		if arity < 0 || arity > math.MaxUint32 {
			s.fail(fmt.Sprintf("WithArity(%d): 2, or a power of two up to 128", arity))
		}
		s.arity = arity
	}
}

// WithLeafSize makes the input data cut into blocks of size bytes (the last one shorter), each
// hashed into a leaf. Without it (or with 0) the input is 32-byte leaves.
func WithLeafSize(size int) Option {
	return func(s *settings) {
		s.tree("WithLeafSize")
		if size < 0 {
			s.fail(fmt.Sprintf("WithLeafSize(%d): a block size is positive (0: 32-byte leaves)", size))
		}
		s.leafSize = size
	}
}

// WithLeafHash sets the hash of the blocks of WithLeafSize: "sha256" or "blake3" (default: sha256
// for a sha256 tree, else blake3).
func WithLeafHash(name string) Option {
	return func(s *settings) { s.tree("WithLeafHash"); s.leafHash = name }
}

// WithSalt sets bytes hashed before every block of WithLeafSize. The salt is copied.
func WithSalt(salt []byte) Option {
	salt = append([]byte{}, salt...)
	return func(s *settings) { s.tree("WithSalt"); s.salt = salt }
}

// WithMixInLength makes the root SSZ's list root: the tree's root with length mixed in,
// SHA-256(root || length as 32 bytes little-endian). It needs HashSHA256, ShapeZero and
// WithDepth, the depth of the list's limit (ceil(log2 LIMIT)).
func WithMixInLength(length uint64) Option {
	return func(s *settings) { s.tree("WithMixInLength"); s.mixIn = true; s.length = length }
}

// WithDevice chooses the OpenCL device, as `merklize --device` does: "P:D" as Devices lists them,
// a case-insensitive part of a device's or platform's name or vendor, "gpu" or "cpu". The default
// is $MERKLIZE_DEVICE, else the first GPU, else the first device.
func WithDevice(spec string) Option {
	return func(s *settings) { s.device = spec }
}

// WithCLDevice chooses a device of the caller's own OpenCL context (NewCLDevice), instead of
// WithDevice: builders and device trees made with it take that context's buffers (BuildCL,
// AppendCL, UpdateCL). Trees only: the calls that take no tree option refuse it.
func WithCLDevice(device *CLDevice) Option {
	return func(s *settings) {
		s.tree("WithCLDevice")
		if device == nil {
			s.fail("WithCLDevice(nil): a device of NewCLDevice")
		}
		s.clDevice = device
	}
}

// WithKey makes Blake3 BLAKE3's keyed hash with key.
func WithKey(key [32]byte) Option {
	return func(s *settings) { s.blake3("WithKey"); s.key = &key }
}

// WithDeriveKey makes Blake3 BLAKE3's derive_key with the context string; the input is the key
// material.
func WithDeriveKey(context string) Option {
	return func(s *settings) { s.blake3("WithDeriveKey"); s.context = &context }
}

// settings are the options of one call, and which were given.
type settings struct {
	hash, shape, leafHash string
	depth, arity          int
	leafSize              int
	salt                  []byte
	mixIn                 bool
	length                uint64
	device                string
	clDevice              *CLDevice
	key                   *[32]byte
	context               *string

	treeOptions, blake3Options []string
	err                        error
}

func (s *settings) tree(name string)   { s.treeOptions = append(s.treeOptions, name) }
func (s *settings) blake3(name string) { s.blake3Options = append(s.blake3Options, name) }

func (s *settings) fail(message string) {
	if s.err == nil {
		s.err = argumentError(message)
	}
}

func settingsOf(opts []Option) *settings {
	s := &settings{depth: -1, arity: 2}
	for _, opt := range opts {
		if opt != nil {
			opt(s)
		}
	}
	return s
}

// forTree gives the settings of a tree, or an error if any option is not a tree's.
func forTree(what string, opts []Option) (*settings, error) {
	s := settingsOf(opts)
	if s.err == nil && len(s.blake3Options) > 0 {
		s.fail(fmt.Sprintf("%s has no use for %v (options of Blake3)", what, s.blake3Options))
	}
	if s.err == nil && s.clDevice != nil && s.device != "" {
		s.fail(what + " takes WithDevice or WithCLDevice, not both")
	}
	return s, s.err
}

// forBlake3 gives the settings of a BLAKE3 hash, or an error if any option is a tree's.
func forBlake3(what string, opts []Option) (*settings, error) {
	s := settingsOf(opts)
	if s.err == nil && len(s.treeOptions) > 0 {
		s.fail(fmt.Sprintf("%s has no use for %v (options of trees)", what, s.treeOptions))
	}
	if s.err == nil && s.key != nil && s.context != nil {
		s.fail(what + " takes WithKey or WithDeriveKey, not both")
	}
	return s, s.err
}

// cConfig is the tree configuration of the settings, its strings and salt in C memory until
// free is called.
func (s *settings) cConfig() (config C.merklize_tree_config, free func()) {
	C.merklize_tree_config_init(&config)
	var allocated []unsafe.Pointer
	cString := func(value string) *C.char {
		if value == "" {
			return nil // the default
		}
		p := C.CString(value)
		allocated = append(allocated, unsafe.Pointer(p))
		return p
	}
	config.hash = cString(s.hash)
	config.shape = cString(s.shape)
	config.leaf_hash = cString(s.leafHash)
	config.depth = C.int32_t(s.depth)
	config.arity = C.uint32_t(s.arity)
	config.leaf_size = C.uint64_t(s.leafSize)
	if s.salt != nil {
		p := C.CBytes(s.salt) // a non-NULL pointer even for an empty salt
		allocated = append(allocated, p)
		config.salt = (*C.uint8_t)(p)
		config.salt_size = C.size_t(len(s.salt))
	}
	if s.mixIn {
		config.mix_in_length = 1
		config.length = C.uint64_t(s.length)
	}
	return config, func() {
		for _, p := range allocated {
			C.free(p)
		}
	}
}
