// SPDX-License-Identifier: Apache-2.0 OR MIT

package merklize_test

import (
	"crypto/sha256"
	"errors"
	"fmt"
	"log"
	"os"
	"path/filepath"

	"merklize"
)

// The root of a file of leaves and the proof of one of them: the file holds 1000 leaves of 32
// bytes, leaf i being SHA-256 of "entry i"; `merklize root --hash sha256 leaves.bin` prints the
// same root, and `merklize proof --hash sha256 -i 7 leaves.bin` the same proof.
func Example() {
	dir, err := os.MkdirTemp("", "merklize-example")
	if err != nil {
		log.Fatal(err)
	}
	defer os.RemoveAll(dir)
	path := filepath.Join(dir, "leaves.bin")
	var leaves []byte
	for i := 0; i < 1000; i++ {
		leaf := sha256.Sum256([]byte(fmt.Sprintf("entry %d", i)))
		leaves = append(leaves, leaf[:]...)
	}
	if err := os.WriteFile(path, leaves, 0o644); err != nil {
		log.Fatal(err)
	}

	// The root, streamed from the file.
	root, err := merklize.RootFile(path, merklize.WithHash(merklize.HashSHA256))
	if err != nil {
		log.Fatal(err)
	}
	fmt.Printf("root %x\n", root)

	// The proof of leaf 7, as JSON, and its verification by whoever holds the leaf and the root.
	proof, err := merklize.ProveFile(path, 7, merklize.WithHash(merklize.HashSHA256))
	if err != nil {
		log.Fatal(err)
	}
	defer proof.Close()
	text, err := proof.MarshalJSON()
	if err != nil {
		log.Fatal(err)
	}
	fmt.Printf("proof of leaf 7: %d bytes of JSON\n", len(text))

	var received merklize.Proof
	if err := received.UnmarshalJSON(text); err != nil {
		log.Fatal(err)
	}
	leaf := sha256.Sum256([]byte("entry 7"))
	fmt.Println("verifies:", received.Verify([][32]byte{leaf}, root) == nil)
	wrong := sha256.Sum256([]byte("entry 8"))
	err = received.Verify([][32]byte{wrong}, root)
	fmt.Println("another leaf verifies:", err == nil, errors.Is(err, merklize.ErrInvalidProof))
	// Output:
	// root 08af383645361f839a4c6e8d089c112bee0db5caf893ee1d067b2968a13d7fdc
	// proof of leaf 7: 814 bytes of JSON
	// verifies: true
	// another leaf verifies: false true
}
