// SPDX-License-Identifier: Apache-2.0 OR MIT

package merklize_test

import (
	"errors"
	"reflect"
	"strings"
	"testing"

	"merklize"
)

// The caps of mmcsCases' matrices, printed by tests/mmcs_model.py (the independent model of
// Plonky3's MerkleTreeMmcs) for element i of matrix k = (1000003 (k + 1) i + 12345) mod p.
var mmcsCases = []struct {
	hash      string
	capHeight int
	shapes    []merklize.MatrixShape
	cap       []string
}{
	{merklize.HashPoseidon2BabyBear, 0, []merklize.MatrixShape{{8, 7}, {4, 25}, {1, 1}},
		[]string{"14a44e1381d9ff146b8790117848b00ddfc3710f9247c80ca8349a142e8fa104"}},
	{merklize.HashPoseidon2KoalaBear, 1, []merklize.MatrixShape{{3, 9}},
		[]string{"496a845d0b34844fb018ab69cff0cd0a11d065634629bf7485458d52f6b90902",
			"6276ec5bed924a7266f4e450ef5e11422e73d2404cc03e18a089fc0fc512cf17"}},
	{merklize.HashPoseidon2Goldilocks, 2, []merklize.MatrixShape{{5, 24}, {3, 8}},
		[]string{"675ee7a6f49b9f979d5901959032aab4d13b1bbee0f9e1c3ad3abf940d2f187e",
			"ba29483ee764b2a42378d10beb7d1bcc7e57ef3fd98adf4d7b19d5149fae8293",
			"2bdb120adf947c430d9302b9559efdeb0cb69cea81d112c4e84fc4a561acd9a4",
			"0000000000000000000000000000000000000000000000000000000000000000"}},
}

var mmcsPrimes = map[string]uint64{merklize.HashPoseidon2BabyBear: 2013265921,
	merklize.HashPoseidon2KoalaBear: 2130706433, merklize.HashPoseidon2Goldilocks: 18446744069414584321}

func mmcsMatrices[E uint32 | uint64](hash string, shapes []merklize.MatrixShape) []merklize.Matrix[E] {
	var out []merklize.Matrix[E]
	for k, s := range shapes {
		m := merklize.Matrix[E]{Height: s.Height, Width: s.Width, Elements: make([]E, s.Height*s.Width)}
		for i := range m.Elements {
			m.Elements[i] = E((1000003*uint64(k+1)*uint64(i) + 12345) % mmcsPrimes[hash])
		}
		out = append(out, m)
	}
	return out
}

// checkMmcs: the cap is the model's; every row opens and verifies, and fails once changed.
func checkMmcs[E uint32 | uint64](t *testing.T, hash string, capHeight int, shapes []merklize.MatrixShape, want []string) {
	c, err := merklize.CommitMatrices(mmcsMatrices[E](hash, shapes), hash, capHeight)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	cap, err := c.Cap()
	if err != nil || len(cap) != len(want) {
		t.Fatalf("%s: cap %x, %v; want %v", hash, cap, err, want)
	}
	for i := range want {
		if cap[i] != digestHex(t, want[i]) {
			t.Fatalf("%s: cap[%d] %x, want %s", hash, i, cap[i], want[i])
		}
	}
	indices := make([]uint64, c.Height())
	for i := range indices {
		indices[i] = uint64(i)
	}
	openings, err := c.Open(indices...)
	if err != nil {
		t.Fatal(err)
	}
	checkDropped(t, hash, capHeight, shapes, indices, openings)
	for _, o := range openings {
		if err := c.Verify(o); err != nil {
			t.Fatalf("%s: row %d: %v", hash, o.Index, err)
		}
		o.Rows[0][0] ^= 1
		if err := merklize.VerifyMatrixOpening(hash, capHeight, cap, shapes, o); !errors.Is(err, merklize.ErrInvalidProof) {
			t.Fatalf("%s: row %d with a changed element: %v", hash, o.Index, err)
		}
		o.Rows[0][0] ^= 1
		if len(o.Path) > 0 {
			o.Path[0][0] ^= 1
			if err := c.Verify(o); !errors.Is(err, merklize.ErrInvalidProof) {
				t.Fatalf("%s: row %d with a changed sibling: %v", hash, o.Index, err)
			}
		}
	}
}

// checkDropped: commitments keeping only the layers from each depth up to the cap's open the
// same; one above the cap's layer is refused.
func checkDropped[E uint32 | uint64](t *testing.T, hash string, capHeight int, shapes []merklize.MatrixShape, indices []uint64, want []merklize.MmcsOpening[E]) {
	levels := len(want[0].Path) // the cap's layer
	for drop := 1; drop <= levels+1; drop++ {
		c, err := merklize.CommitMatricesDropping(mmcsMatrices[E](hash, shapes), hash, capHeight, drop)
		if drop > levels {
			if !errors.Is(err, merklize.ErrArgument) {
				t.Fatalf("%s: %d layers dropped of %d: %v; want ErrArgument", hash, drop, levels, err)
			}
			return
		}
		if err != nil {
			t.Fatal(err)
		}
		got, err := c.Open(indices...)
		c.Close()
		if err != nil || !reflect.DeepEqual(got, want) {
			t.Fatalf("%s: the openings with %d layers dropped differ (%v)", hash, drop, err)
		}
	}
}

func TestMatrixCommitmentsEqualTheModel(t *testing.T) {
	for _, c := range mmcsCases {
		if c.hash == merklize.HashPoseidon2Goldilocks {
			checkMmcs[uint64](t, c.hash, c.capHeight, c.shapes, c.cap)
		} else {
			checkMmcs[uint32](t, c.hash, c.capHeight, c.shapes, c.cap)
		}
	}
}

func TestMatrixCommitmentRefusals(t *testing.T) {
	good := []merklize.Matrix[uint32]{{Height: 8, Width: 2, Elements: make([]uint32, 16)}}
	bad := []merklize.Matrix[uint32]{{Height: 8, Width: 2, Elements: make([]uint32, 16)}}
	bad[0].Elements[5] = 2013265921
	for _, r := range []struct {
		matrices []merklize.Matrix[uint32]
		hash     string
		want     string
	}{
		{bad, merklize.HashPoseidon2BabyBear, "matrix 0, row 2, column 1"},
		{append(good, merklize.Matrix[uint32]{Height: 7, Width: 1, Elements: make([]uint32, 7)}), merklize.HashPoseidon2BabyBear, "height 7"},
		{good, merklize.HashPoseidon2BN254, "no matrix commitment"},
		{good, merklize.HashSHA256, "not a hash over field elements"},
		{good, merklize.HashPoseidon2Goldilocks, "not the 4 of uint32"},
		{nil, merklize.HashPoseidon2KoalaBear, "no matrices"},
		{[]merklize.Matrix[uint32]{{Height: 2, Width: 2, Elements: make([]uint32, 3)}}, merklize.HashPoseidon2KoalaBear, "holds 3 elements"},
	} {
		c, err := merklize.CommitMatrices(r.matrices, r.hash, 0)
		if c != nil || !errors.Is(err, merklize.ErrArgument) || !strings.Contains(err.Error(), r.want) {
			t.Fatalf("%s: %v, want ErrArgument with %q", r.hash, err, r.want)
		}
	}
	c, err := merklize.CommitMatrices(good, merklize.HashPoseidon2BabyBear, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if o, err := c.Open(0, 8); o != nil || !errors.Is(err, merklize.ErrArgument) {
		t.Fatalf("Open(0, 8): %v, %v; want ErrArgument", o, err)
	}
	o, err := c.Open(3)
	if err != nil {
		t.Fatal(err)
	}
	cap, _ := c.Cap()
	if err := merklize.VerifyMatrixOpening(merklize.HashPoseidon2BabyBear, 0, cap, []merklize.MatrixShape{{8, 1}}, o[0]); !errors.Is(err, merklize.ErrInvalidProof) {
		t.Fatalf("rows of another width: %v, want ErrInvalidProof", err)
	}
}
