// SPDX-License-Identifier: Apache-2.0 OR MIT

// Package merklize builds Merkle trees, and hashes with BLAKE3 and SHA-256, on OpenCL devices
// (GPUs, and CPUs through PoCL), through libmerklize, merklize's C library (cgo, pkg-config
// merklize).
//
// The root of a tree is one call: Root (bytes), RootFile (a file, streamed) or RootReader. A
// Builder, made with NewBuilder, holds a configuration compiled for its device and builds many
// trees: Build gives a Tree, whose levels and proofs (Prove, ProveMulti, ProveConsistency) stay
// in host memory; Builder.Prove and ProveFile prove one leaf without keeping the tree. A Proof
// encodes to JSON and binary and back (the encoding interfaces) and verifies itself against
// leaves and a root.
//
// Trees are described by options: WithHash (HashBlake3, the default, HashBlake3Parent,
// HashSHA256, HashRFC6962, HashKeccak256, HashSHA3_256, and the Poseidon2 compressions
// HashPoseidon2BabyBear, HashPoseidon2KoalaBear, HashPoseidon2Goldilocks and HashPoseidon2BN254,
// whose leaves are canonical field elements), WithShape (ShapePromote, the default,
// or ShapeZero), WithDepth (a fixed depth, SSZ's limit), WithArity (k-ary trees), WithLeafSize
// with WithLeafHash and WithSalt (leaves hashed from blocks of data), WithMixInLength (SSZ's list
// root) and WithDevice.
// Without WithLeafSize an input is 32-byte leaves back to back.
//
// Hash, HashByteSlice and HashChunks are gohashtree's functions over the device's SHA-256 layer:
// gohashtree users switch by changing the import. Blake3 and its variants hash with BLAKE3.
//
// Every failure is an error: an *Error carrying a Status and the library's message, which
// errors.Is matches against the statuses (ErrArgument, ErrIO, ErrNoDevice, ...); a proof that
// does not verify is an error wrapping ErrInvalidProof with the reason. Bad input changes none of
// the caller's data.
//
// A device of the caller's own OpenCL context (NewCLDevice, then WithCLDevice) takes that
// context's buffers: Builder.BuildCL builds from and into them, DeviceTree.AppendCL and UpdateCL
// read their leaves where they are. The handles (CLContext, CLDeviceID, CLMem, CLEvent) are
// OpenCL's own, from any binding, as unsafe.Pointer.
//
// Devices are opened once per spec on first use and kept while the process runs; the programs a
// device runs are compiled once (and kept in the library's cache of compiled programs), so that
// a Builder, and a call of Root, costs little more than its tree.
package merklize

// --static: merklize.pc's Libs.private too (-lstdc++ -lm -pthread), which libmerklize.a needs
// where it is the library found; beside libmerklize.so they add nothing it does not bring.

// #cgo pkg-config: --static merklize
import "C"
