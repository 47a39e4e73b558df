// SPDX-License-Identifier: Apache-2.0 OR MIT

package merklize_test

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"strings"
	"testing"

	"merklize"
)

// TestOZStandardVectors: OpenZeppelin's own dumps (tests/vectors/commitments/oz/) give their
// roots; the verbatim dump is written back byte for byte, and the values alone, sorted as the
// dump was, give the same root.
func TestOZStandardVectors(t *testing.T) {
	for _, name := range []string{"standard-v1.sorted.1_0_6.json", "standard-v1.unsorted.1_0_6.json"} {
		var doc struct {
			Root         string          `json:"root"`
			Dump         json.RawMessage `json:"dump_verbatim"`
			DumpText     string          `json:"dump_verbatim_text"`
			DerivedProof []struct {
				Index int      `json:"value_index"`
				Proof []string `json:"proof"`
			} `json:"derived_proofs"`
		}
		readJSON(t, "commitments/oz/"+name, &doc)
		root, dump, err := merklize.OZStandardTree(doc.Dump, true)
		if err != nil {
			t.Fatal(err)
		}
		if "0x"+hex.EncodeToString(root[:]) != doc.Root || string(dump)+"\n" != doc.DumpText {
			t.Errorf("%s: root 0x%x, dump %s", name, root, dump)
		}
		for _, p := range doc.DerivedProof {
			proof, err := merklize.OZStandardProof(doc.Dump, true, []uint64{uint64(p.Index)})
			if err != nil {
				t.Fatal(err)
			}
			var got struct{ Proof []string }
			if json.Unmarshal(proof, &got) != nil || strings.Join(got.Proof, ",") != strings.Join(p.Proof, ",") {
				t.Errorf("%s: value %d's proof %s", name, p.Index, proof)
			}
		}
	}
}

// TestOZStandardAgainstCLI: roots, dumps, proofs and multiproofs of values of several sizes, the
// leaves sorted and not, are what `merklize root|proof --format oz-standard` prints.
func TestOZStandardAgainstCLI(t *testing.T) {
	for _, n := range sizes[:9] {
		values := make([]string, n)
		for i := range values {
			values[i] = fmt.Sprintf(`["0x%040x", "%d", %q]`, i*7919+1, i*1000003, fmt.Sprint("v", i))
		}
		text := []byte(`{"leafEncoding": ["address", "uint256", "string"], "values": [` +
			strings.Join(values, ",") + "]}")
		path := writeTemp(t, text)
		for _, sort := range []bool{true, false} {
			flags := []string{"--format", "oz-standard"}
			if !sort {
				flags = append(flags, "--no-sort-leaves")
			}
			root, dump, err := merklize.OZStandardTree(text, sort)
			if err != nil {
				t.Fatal(err)
			}
			if want := cli(t, append(append([]string{"root"}, flags...), path)...); "0x"+hex.EncodeToString(root[:]) != want {
				t.Errorf("%d values, sort %v: root 0x%x, the CLI printed %s", n, sort, root, want)
			}
			if again, _, err := merklize.OZStandardTree(dump, true); err != nil || again != root {
				t.Errorf("%d values: the dump read back: %x, %v", n, again, err)
			}
			indices := []uint64{uint64(n - 1)}
			if n > 2 {
				indices = append(indices, 0, uint64(n/2))
			}
			proof, err := merklize.OZStandardProof(text, sort, indices)
			if err != nil {
				t.Fatal(err)
			}
			index := strings.Trim(strings.Join(strings.Fields(fmt.Sprint(indices)), ","), "[]")
			if want := cli(t, append(append([]string{"proof"}, flags...), "-i", index, path)...); string(proof) != want {
				t.Errorf("%d values, sort %v, -i %s: %s, the CLI printed %s", n, sort, index, proof, want)
			}
		}
	}
}

func sha256d(b []byte) []byte {
	once := sha256.Sum256(b)
	twice := sha256.Sum256(once[:])
	return twice[:]
}

// bitcoinModel is Bitcoin's merkle root written here from its rule: SHA-256d of each pair, the
// last node of an odd level paired with itself.
func bitcoinModel(txids [][]byte) []byte {
	level := txids
	for len(level) > 1 {
		if len(level)%2 == 1 {
			level = append(level, level[len(level)-1])
		}
		var above [][]byte
		for i := 0; i < len(level); i += 2 {
			above = append(above, sha256d(append(append([]byte{}, level[i]...), level[i+1]...)))
		}
		level = above
	}
	return level[0]
}

func reversed(b []byte) []byte {
	out := make([]byte, len(b))
	for i := range b {
		out[len(b)-1-i] = b[i]
	}
	return out
}

// TestBitcoin: published blocks' merkle roots (tests/vectors/commitments/bitcoin/), and roots
// and branches of txid lists at awkward sizes against the model and the CLI, in both byte orders.
func TestBitcoin(t *testing.T) {
	var block struct {
		Txids []string `json:"txids_display"`
		Root  string   `json:"merkleroot_display"`
	}
	readJSON(t, "commitments/bitcoin/b100000.json", &block)
	root, mutated, err := merklize.BitcoinRoot([]byte(strings.Join(block.Txids, "\n")), true)
	if err != nil || hex.EncodeToString(root[:]) != block.Root || mutated {
		t.Fatalf("block 100000: %x, %v, %v", root, mutated, err)
	}
	for _, n := range sizes[:10] {
		data := randomBytes(32*n, int64(n))
		txids := make([][]byte, n)
		for i := range txids {
			txids[i] = data[32*i : 32*i+32]
		}
		root, mutated, err := merklize.BitcoinRootFile(writeTemp(t, data), false)
		if err != nil || !bytes.Equal(root[:], bitcoinModel(txids)) || mutated {
			t.Fatalf("%d txids: %x, %v, %v", n, root, mutated, err)
		}
		lines := ""
		for _, txid := range txids {
			lines += hex.EncodeToString(reversed(txid)) + "\n"
		}
		path := writeTemp(t, []byte(lines))
		display, _, err := merklize.BitcoinRoot([]byte(lines), true)
		if want := cli(t, "root", "--format", "bitcoin", "--display-order", path); err != nil || hex.EncodeToString(display[:]) != want {
			t.Errorf("%d txids, display order: %x, %v; the CLI printed %s", n, display, err, want)
		}
		index := uint64(n / 2)
		proof, err := merklize.BitcoinProof(data, false, index)
		if want := cli(t, "proof", "--format", "bitcoin", "-i", fmt.Sprint(index), writeTemp(t, data)); err != nil || string(proof) != want {
			t.Errorf("%d txids, branch %d: %s, %v; the CLI printed %s", n, index, proof, err, want)
		}
	}
	three := randomBytes(96, 3)
	doubled := append(append([]byte{}, three...), three[64:]...)
	a, _, _ := merklize.BitcoinRoot(three, false)
	b, mutated, err := merklize.BitcoinRoot(doubled, false)
	if err != nil || a != b || !mutated {
		t.Errorf("CVE-2012-2459: the last txid twice: %x %x mutated %v, %v", a, b, mutated, err)
	}
}

// TestFilecoin: zero pieces' commitments and CIDs as go-commp-utils and go-fil-commp-hashhash
// publish them (tests/vectors/commitments/filecoin/), and random data at awkward sizes against
// the CLI, from memory, a file and a reader.
func TestFilecoin(t *testing.T) {
	var doc struct {
		CIDs struct {
			Rows []struct {
				Bytes int    `json:"unpadded_zero_bytes"`
				CID   string `json:"piece_cid"`
			} `json:"rows"`
		} `json:"piece_cid_examples"`
	}
	readJSON(t, "commitments/filecoin/zero_comm.json", &doc)
	for _, row := range doc.CIDs.Rows {
		commitment, _, err := merklize.FilecoinCommitment(make([]byte, row.Bytes))
		if err != nil {
			t.Fatal(err)
		}
		if cid, err := merklize.FilecoinPieceCID(commitment); err != nil || cid != row.CID {
			t.Errorf("%d zero bytes: %s, %v; published %s", row.Bytes, cid, err, row.CID)
		}
	}
	for _, size := range []int{1, 126, 127, 128, 254, 255, 1016, 1017, 100000} {
		data := randomBytes(size, int64(size))
		path := writeTemp(t, data)
		commitment, padded, err := merklize.FilecoinCommitment(data)
		if want := cli(t, "root", "--format", "filecoin-tree-d", path); err != nil || hex.EncodeToString(commitment[:]) != want {
			t.Fatalf("%d bytes: %x, %v; the CLI printed %s", size, commitment, err, want)
		}
		if padded < 128 || padded&(padded-1) != 0 || padded/128*127 < uint64(size) {
			t.Errorf("%d bytes: padded size %d", size, padded)
		}
		file, err := os.Open(path)
		if err != nil {
			t.Fatal(err)
		}
		fromReader, _, err := merklize.FilecoinCommitmentReader(file)
		file.Close()
		fromFile, _, err2 := merklize.FilecoinCommitmentFile(path)
		if err != nil || err2 != nil || fromReader != commitment || fromFile != commitment {
			t.Errorf("%d bytes: reader %x (%v), file %x (%v)", size, fromReader, err, fromFile, err2)
		}
	}
}

// TestCommitmentRefusals: bad input is the error of its kind, naming the reason.
func TestCommitmentRefusals(t *testing.T) {
	_, _, err := merklize.OZStandardTree([]byte(`{"leafEncoding": ["uint8"], "values": [[256]]}`), true)
	if !errors.Is(err, merklize.ErrDecode) || !strings.Contains(err.Error(), `"256" does not fit uint8`) {
		t.Errorf("uint8 256: %v", err)
	}
	if _, _, err = merklize.OZStandardTree([]byte(`{"leafEncoding": [`), true); !errors.Is(err, merklize.ErrDecode) {
		t.Errorf("malformed JSON: %v", err)
	}
	if _, _, err = merklize.BitcoinRoot(make([]byte, 33), false); !errors.Is(err, merklize.ErrArgument) {
		t.Errorf("33 bytes of txids: %v", err)
	}
	if _, _, err = merklize.BitcoinRoot([]byte("zz\n"), true); !errors.Is(err, merklize.ErrArgument) ||
		!strings.Contains(err.Error(), "not a txid") {
		t.Errorf("bad hex: %v", err)
	}
	if _, _, err = merklize.FilecoinCommitment(nil); !errors.Is(err, merklize.ErrArgument) {
		t.Errorf("no data: %v", err)
	}
	if _, _, err = merklize.FilecoinCommitment([]byte{1}, merklize.WithHash("sha256")); !errors.Is(err, merklize.ErrArgument) ||
		!strings.Contains(err.Error(), "WithHash") {
		t.Errorf("a tree option: %v", err)
	}
}
