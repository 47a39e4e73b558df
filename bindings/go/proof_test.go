// SPDX-License-Identifier: Apache-2.0 OR MIT

package merklize_test

import (
	"bytes"
	"encoding"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"testing"

	"merklize"
)

// The interfaces a Proof promises.
var (
	_ json.Marshaler             = (*merklize.Proof)(nil)
	_ json.Unmarshaler           = (*merklize.Proof)(nil)
	_ encoding.BinaryMarshaler   = (*merklize.Proof)(nil)
	_ encoding.BinaryUnmarshaler = (*merklize.Proof)(nil)
)

// roundTrips gives the proof back through JSON, binary (unless k-ary) and json.Marshal of a
// struct holding it, each a new Proof.
func roundTrips(t *testing.T, proof *merklize.Proof) map[string]*merklize.Proof {
	t.Helper()
	out := map[string]*merklize.Proof{}
	text, err := proof.MarshalJSON()
	if err != nil {
		t.Fatalf("MarshalJSON: %v", err)
	}
	var fromJSON merklize.Proof
	if err := fromJSON.UnmarshalJSON(text); err != nil {
		t.Fatalf("UnmarshalJSON(%s): %v", text, err)
	}
	out["JSON"] = &fromJSON
	if !jsonOnly(proof.Kind()) {
		bin, err := proof.MarshalBinary()
		if err != nil {
			t.Fatalf("MarshalBinary: %v", err)
		}
		var fromBinary merklize.Proof
		if err := fromBinary.UnmarshalBinary(bin); err != nil {
			t.Fatalf("UnmarshalBinary: %v", err)
		}
		out["binary"] = &fromBinary
	}
	type envelope struct {
		Name  string
		Proof *merklize.Proof
	}
	doc, err := json.MarshalIndent(envelope{"p", proof}, "", "  ")
	if err != nil {
		t.Fatalf("json.Marshal: %v", err)
	}
	var back envelope
	if err := json.Unmarshal(doc, &back); err != nil || back.Proof == nil {
		t.Fatalf("json.Unmarshal(%s): %v", doc, err)
	}
	out["json.Marshal"] = back.Proof
	for how, p := range out {
		if p.Kind() != proof.Kind() || p.LeafCount() != proof.LeafCount() {
			t.Fatalf("%s: kind %v, %d leaves; want %v, %d", how, p.Kind(), p.LeafCount(), proof.Kind(), proof.LeafCount())
		}
		a, _ := p.Indices()
		b, _ := proof.Indices()
		x, _ := p.Nodes()
		y, _ := proof.Nodes()
		if fmt.Sprint(a) != fmt.Sprint(b) || !equalDigests(x, y) {
			t.Fatalf("%s: indices %v and %d nodes; want %v and %d", how, a, len(x), b, len(y))
		}
	}
	return out
}

// tampered are copies of an encoding with one byte changed at several places past its first
// quarter (where the nodes are), each of which must not verify.
func tampered(encoded []byte, json bool) [][]byte {
	var out [][]byte
	for _, at := range []int{len(encoded) / 2, len(encoded) - 40, len(encoded) - 3} {
		if at < len(encoded)/4 {
			continue
		}
		c := append([]byte(nil), encoded...)
		switch {
		case !json:
			c[at] ^= 0x20
		case c[at] >= '0' && c[at] <= '8', c[at] >= 'a' && c[at] <= 'e':
			c[at]++
		default:
			continue
		}
		out = append(out, c)
	}
	return out
}

// checkRejected: a tampered encoding either fails to decode (ErrDecode) or decodes to a proof
// that does not verify (ErrInvalidProof), and the proof decoded into keeps its earlier value.
func checkRejected(t *testing.T, good *merklize.Proof, encoded []byte, json bool, verify func(*merklize.Proof) error) {
	t.Helper()
	for _, bad := range tampered(encoded, json) {
		p := roundTrips(t, good)["JSON"]
		var err error
		if json {
			err = p.UnmarshalJSON(bad)
		} else {
			err = p.UnmarshalBinary(bad)
		}
		if err != nil {
			if !errors.Is(err, merklize.ErrDecode) {
				t.Fatalf("a tampered proof: %v, not ErrDecode", err)
			}
			if verify(p) != nil {
				t.Fatalf("a failed decode changed the proof")
			}
			continue
		}
		err = verify(p)
		if !errors.Is(err, merklize.ErrInvalidProof) {
			t.Fatalf("a tampered proof verifies (%v): %s", err, bad)
		}
	}
}

// jsonOnly: k-ary proofs, inclusion or multi, have no binary encoding.
func jsonOnly(kind merklize.ProofKind) bool {
	return kind == merklize.ProofKary || kind == merklize.ProofKaryMulti
}

// TestProofEncodings: inclusion proofs of every hash and shape, multiproofs (k-ary ones of k-ary
// trees, JSON only) and consistency proofs go through both encodings and back, verify after it, and are rejected when tampered
// with, when given a wrong leaf or a wrong root.
func TestProofEncodings(t *testing.T) {
	for _, c := range cliCases() {
		if c.blocks > 0 {
			continue
		}
		c := c
		t.Run(c.name, func(t *testing.T) {
			const n = 45
			data := randomBytes(32*n, 7)
			if c.field {
				canonicalLeaves(data)
			}
			given := append([]byte(nil), data...)
			tree, err := merklize.Build(data, c.opts...)
			if err != nil {
				t.Fatal(err)
			}
			defer tree.Close()
			leaves := asLeaves(data)
			root := tree.Root()
			for _, i := range []uint64{0, 17, n - 1} {
				proof, err := tree.Prove(i)
				if err != nil {
					t.Fatal(err)
				}
				checkProof(t, proof, leaves[i:i+1], root)
			}
			if tree.Root() != root || !bytes.Equal(data, given) {
				t.Fatal("the tree or the input changed")
			}
			multi, err := tree.ProveMulti([]uint64{40, 3, 17, 3, 44})
			if errors.Is(err, merklize.ErrArgument) { // an SSZ list's length chunk has none
				t.Logf("ProveMulti: %v", err)
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			want := merklize.ProofMulti // a k-ary tree's: a k-ary multiproof, JSON only
			if single, _ := tree.Prove(0); single.Kind() == merklize.ProofKary {
				want = merklize.ProofKaryMulti
			}
			indices, _ := multi.Indices()
			if multi.Kind() != want || fmt.Sprint(indices) != "[3 17 40 44]" {
				t.Fatalf("ProveMulti: kind %v, indices %v", multi.Kind(), indices)
			}
			checkProof(t, multi, [][32]byte{leaves[3], leaves[17], leaves[40], leaves[44]}, root)
		})
	}
}

func checkProof(t *testing.T, proof *merklize.Proof, leaves [][32]byte, root [32]byte) {
	t.Helper()
	defer proof.Close()
	verify := func(p *merklize.Proof) error { return p.Verify(leaves, root) }
	if err := verify(proof); err != nil {
		t.Fatalf("%v proof: %v", proof.Kind(), err)
	}
	for how, p := range roundTrips(t, proof) {
		if err := verify(p); err != nil {
			t.Fatalf("%v proof through %s: %v", proof.Kind(), how, err)
		}
	}
	wrongLeaves := append([][32]byte(nil), leaves...)
	wrongLeaves[0][5] ^= 1
	if err := proof.Verify(wrongLeaves, root); !errors.Is(err, merklize.ErrInvalidProof) {
		t.Fatalf("%v proof of a wrong leaf: %v", proof.Kind(), err)
	}
	wrongRoot := root
	wrongRoot[31] ^= 1
	err := proof.Verify(leaves, wrongRoot)
	if !errors.Is(err, merklize.ErrInvalidProof) || len(err.Error()) <= len(merklize.ErrInvalidProof.Error())+2 {
		t.Fatalf("%v proof under a wrong root: %v (want ErrInvalidProof with a reason)", proof.Kind(), err)
	}
	text, _ := proof.MarshalJSON()
	checkRejected(t, proof, text, true, verify)
	if !jsonOnly(proof.Kind()) {
		bin, _ := proof.MarshalBinary()
		checkRejected(t, proof, bin, false, verify)
	}
}

// TestConsistencyProofs: consistency proofs equal `merklize consistency`'s, go through both
// encodings, verify, and are rejected with wrong roots or tampered with.
func TestConsistencyProofs(t *testing.T) {
	for _, hash := range []string{merklize.HashRFC6962, merklize.HashSHA256, merklize.HashBlake3, merklize.HashKeccak256} {
		const n = 300
		data := randomBytes(32*n, 3)
		path := writeTemp(t, data)
		tree, err := merklize.Build(data, merklize.WithHash(hash))
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range []uint64{1, 2, 3, 127, 128, 129, 299, 300} {
			old, err := merklize.Root(data[:32*m], merklize.WithHash(hash))
			if err != nil {
				t.Fatal(err)
			}
			proof, err := tree.ProveConsistency(m)
			if err != nil {
				t.Fatalf("%s: ProveConsistency(%d): %v", hash, m, err)
			}
			if cliPath() != "" {
				want := cli(t, "consistency", "--old-size", strconv.FormatUint(m, 10), "--hash", hash, path)
				root := tree.Root()
				heads := fmt.Sprintf("old tree head: %d leaves, root %x\nnew tree head: %d leaves, root %x\n",
					m, old[:], tree.LeafCount(), root[:]) // the tool prints both heads, then the proof
				if got, _ := proof.MarshalJSON(); heads+string(got) != want {
					t.Fatalf("%s from %d: %s%s\nmerklize consistency prints %s", hash, m, heads, got, want)
				}
			}
			verify := func(p *merklize.Proof) error { return p.VerifyConsistency(old, tree.Root()) }
			for how, p := range roundTrips(t, proof) {
				if err := verify(p); err != nil {
					t.Fatalf("%s from %d through %s: %v", hash, m, how, err)
				}
			}
			if m < n {
				if err := proof.VerifyConsistency(tree.Root(), old); !errors.Is(err, merklize.ErrInvalidProof) {
					t.Fatalf("%s from %d, roots swapped: %v", hash, m, err)
				}
			}
			text, _ := proof.MarshalJSON()
			checkRejected(t, proof, text, true, verify)
			bin, _ := proof.MarshalBinary()
			checkRejected(t, proof, bin, false, verify)
			if err := proof.Verify(nil, old); !errors.Is(err, merklize.ErrArgument) {
				t.Fatalf("Verify of a consistency proof: %v, not ErrArgument", err)
			}
			proof.Close()
		}
		tree.Close()
	}
}
