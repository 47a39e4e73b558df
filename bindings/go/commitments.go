// SPDX-License-Identifier: Apache-2.0 OR MIT

package merklize

// #include "shim.h"
// #include <stdlib.h>
import "C"

import (
	"fmt"
	"io"
	"unsafe"
)

// The commitments other systems publish (docs/FORMATS.md): OpenZeppelin's StandardMerkleTree,
// Bitcoin's merkle root and Filecoin's piece commitment, as `merklize root|proof --format
// oz-standard|bitcoin|filecoin-tree-d` prints them. Their trees follow the systems' own rules, so
// the only option they take is WithDevice.

// forDevice gives the device of a call that takes no tree or BLAKE3 option.
func forDevice(what string, opts []Option) (*C.merklize_device, error) {
	s := settingsOf(opts)
	if s.err == nil && len(s.treeOptions)+len(s.blake3Options) > 0 {
		s.fail(fmt.Sprintf("%s has no use for %v: its tree is the format's own",
			what, append(s.treeOptions, s.blake3Options...)))
	}
	if s.err != nil {
		return nil, s.err
	}
	return deviceFor(s.device)
}

// bytesOf copies the bytes the library made into Go memory and frees them.
func bytesOf(b *C.merklize_bytes) []byte {
	defer C.merklize_bytes_free(b)
	return C.GoBytes(unsafe.Pointer(C.merklize_bytes_data(b)), C.int(C.merklize_bytes_size(b)))
}

// jsonText is the C form of a JSON text: its bytes stay in Go memory, pinned by cgo for the call.
func jsonText(json []byte) (*C.char, C.size_t) {
	size := C.size_t(len(json))
	if len(json) == 0 {
		json = []byte{0} // a pointer for the library's NULL check; no byte of it is read
	}
	return (*C.char)(unsafe.Pointer(&json[0])), size
}

func cBool(b bool) C.int {
	if b {
		return 1
	}
	return 0
}

// OZStandardTree is the root of OpenZeppelin's StandardMerkleTree ("0x" and its hex is what
// OpenZeppelin prints) and the tree's dump, as JSON.stringify(tree.dump()) writes it. json is the
// tree's dump, or {"leafEncoding": [types], "values": [[...], ...]}; sortLeaves sorts the leaves
// by hash, as OpenZeppelin does by default (false: sortLeaves: false); a dump places its leaves
// itself. Malformed JSON, unknown types and values that do not fit them are ErrDecode, naming the
// place.
func OZStandardTree(json []byte, sortLeaves bool, opts ...Option) (root [32]byte, dump []byte, err error) {
	device, err := forDevice("OZStandardTree", opts)
	if err != nil {
		return root, nil, err
	}
	text, size := jsonText(json)
	var out [32]byte
	var written *C.merklize_bytes
	err = call(func() C.merklize_status {
		return C.merklize_oz_standard_tree(device, text, size, cBool(sortLeaves),
			(*C.uint8_t)(unsafe.Pointer(&out[0])), &written)
	})
	if err != nil {
		return root, nil, err
	}
	return out, bytesOf(written), nil
}

// OZStandardProof is the proof of value indices[0] (its place in "values") of the same tree,
// {"value", "leaf", "proof"}, or, for several indices, OpenZeppelin's getMultiProof: {"leaves",
// "proof", "proofFlags"}; JSON either way.
func OZStandardProof(json []byte, sortLeaves bool, indices []uint64, opts ...Option) ([]byte, error) {
	device, err := forDevice("OZStandardProof", opts)
	if err != nil {
		return nil, err
	}
	if len(indices) == 0 {
		return nil, argumentError("OZStandardProof: no index given: a proof proves a value")
	}
	text, size := jsonText(json)
	var proof *C.merklize_bytes
	err = call(func() C.merklize_status {
		return C.merklize_oz_standard_proof(device, text, size, cBool(sortLeaves),
			(*C.uint64_t)(unsafe.Pointer(&indices[0])), C.size_t(len(indices)), &proof)
	})
	if err != nil {
		return nil, err
	}
	return bytesOf(proof), nil
}

// BitcoinRoot is Bitcoin's merkle root of a block's txids and whether the tree is mutated
// (CVE-2012-2459: a level pairs two equal nodes, so a shorter txid list has the same root, and
// Bitcoin Core rejects the block). txids are 32 bytes each in internal byte order, the root in
// that order too; with displayOrder, hex lines as block explorers and bitcoin-cli show them,
// byte-reversed, and the root reversed as they print it.
func BitcoinRoot(txids []byte, displayOrder bool, opts ...Option) ([32]byte, bool, error) {
	return bitcoinRoot(memorySource(txids), displayOrder, "BitcoinRoot", opts)
}

// BitcoinRootFile is BitcoinRoot of the txids in the file at path.
func BitcoinRootFile(path string, displayOrder bool, opts ...Option) ([32]byte, bool, error) {
	return bitcoinRoot(pathSource(path), displayOrder, "BitcoinRootFile", opts)
}

func bitcoinRoot(src source, displayOrder bool, what string, opts []Option) (root [32]byte, mutated bool, err error) {
	device, err := forDevice(what, opts)
	if err != nil {
		return root, false, err
	}
	var out [32]byte
	var flag C.int
	err = src.with(func(c *cSource) C.merklize_status {
		return C.merklize_go_bitcoin_root(device, c.kind, c.data, c.size, c.path, c.fd,
			cBool(displayOrder), (*C.uint8_t)(unsafe.Pointer(&out[0])), &flag)
	})
	if err != nil {
		return root, false, err
	}
	return out, flag != 0, nil
}

// BitcoinProof is txid index's merkle branch, as Electrum's blockchain.transaction.get_merkle
// gives it, with the txid and the root beside it: {"txid", "pos", "merkle", "root"}, JSON, hex
// in the byte order of txids (see BitcoinRoot).
func BitcoinProof(txids []byte, displayOrder bool, index uint64, opts ...Option) ([]byte, error) {
	device, err := forDevice("BitcoinProof", opts)
	if err != nil {
		return nil, err
	}
	var proof *C.merklize_bytes
	err = memorySource(txids).with(func(c *cSource) C.merklize_status {
		return C.merklize_go_bitcoin_proof(device, c.kind, c.data, c.size, c.path, c.fd,
			cBool(displayOrder), C.uint64_t(index), &proof)
	})
	if err != nil {
		return nil, err
	}
	return bytesOf(proof), nil
}

// FilecoinCommitment is Filecoin's piece commitment (CommP, the root of tree_d) of data, the raw
// unpadded bytes of a piece, and the padded piece's size in bytes: Fr32-padded, zero-padded to a
// power of two of at least 128 bytes, SHA-256 truncated to 254 bits. No data is ErrArgument.
func FilecoinCommitment(data []byte, opts ...Option) ([32]byte, uint64, error) {
	return filecoinCommitment(memorySource(data), "FilecoinCommitment", opts)
}

// FilecoinCommitmentFile is FilecoinCommitment of the file at path, streamed.
func FilecoinCommitmentFile(path string, opts ...Option) ([32]byte, uint64, error) {
	return filecoinCommitment(pathSource(path), "FilecoinCommitmentFile", opts)
}

// FilecoinCommitmentReader is FilecoinCommitment of everything r gives, streamed.
func FilecoinCommitmentReader(r io.Reader, opts ...Option) (commitment [32]byte, padded uint64, err error) {
	err = withReader(r, func(src source) error {
		commitment, padded, err = filecoinCommitment(src, "FilecoinCommitmentReader", opts)
		return err
	})
	return commitment, padded, err
}

func filecoinCommitment(src source, what string, opts []Option) (commitment [32]byte, padded uint64, err error) {
	device, err := forDevice(what, opts)
	if err != nil {
		return commitment, 0, err
	}
	var out [32]byte
	var size C.uint64_t
	err = src.with(func(c *cSource) C.merklize_status {
		return C.merklize_go_filecoin_commitment(device, c.kind, c.data, c.size, c.path, c.fd,
			(*C.uint8_t)(unsafe.Pointer(&out[0])), &size)
	})
	if err != nil {
		return commitment, 0, err
	}
	return out, uint64(size), nil
}

// FilecoinPieceCID is the piece CID of a commitment, as Lotus prints it ("baga6ea4sea...":
// CIDv1, fil-commitment-unsealed, sha2-256-trunc254-padded, base32).
func FilecoinPieceCID(commitment [32]byte) (string, error) {
	var cid [C.MERKLIZE_PIECE_CID_SIZE]C.char
	err := call(func() C.merklize_status {
		return C.merklize_filecoin_piece_cid((*C.uint8_t)(unsafe.Pointer(&commitment[0])),
			&cid[0], C.size_t(len(cid)))
	})
	if err != nil {
		return "", err
	}
	return C.GoString(&cid[0]), nil
}
