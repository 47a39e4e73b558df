// SPDX-License-Identifier: Apache-2.0 OR MIT

// The oracle of merklize's C2SP tiles, checkpoints and log proofs: Go's golang.org/x/mod/sumdb/tlog
// (Debian's golang-golang-x-mod-dev) and its signed notes (sumdb/note). For each log size it
// builds the log in Go (StoredHashesForRecordHash), runs the merklize command line and compares,
// byte for byte: the checkpoint's body (TreeHash), every tile (NewTiles, ReadTileData, Tile.Path
// less its height element, which C2SP leaves out) and entry bundle, and no file more; proofs read
// back from the tiles and from the device (ProveRecord, ProveTree) in CT's JSON, checked by
// CheckRecord and CheckTree; tlog-proofs whose checkpoint Go signed, opened by note.Open; and the
// proofs Go writes (CT's JSON with tlog's own types, as sumdb/tlog's ct_test.go decodes a real
// log's answers, and tlog-proof text) verified by merklize, tampered ones refused.
//
// usage: tlog_oracle MERKLIZE WORKDIR SIZE...   (a size suffixed "L" is given as leaf hashes)
package main

import (
	"bytes"
	"crypto/rand"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"time"

	"golang.org/x/mod/sumdb/note"
	"golang.org/x/mod/sumdb/tlog"
)

const origin = "example.com/merklize-oracle"

// CT v1's answers, with tlog's own types: sumdb/tlog's ct_test.go declares them so.
type ctRecordProof struct {
	Index int64            `json:"leaf_index"`
	Proof tlog.RecordProof `json:"audit_path"`
}

type ctTreeProof struct {
	Proof tlog.TreeProof `json:"consistency"`
}

type hashStore []tlog.Hash

func (s hashStore) ReadHashes(indexes []int64) ([]tlog.Hash, error) {
	out := make([]tlog.Hash, len(indexes))
	for i, x := range indexes {
		out[i] = s[x]
	}
	return out, nil
}

var merklize string
var failures int

func fail(format string, args ...interface{}) {
	failures++
	fmt.Printf("FAILED: "+format+"\n", args...)
}

func must(err error) {
	if err != nil {
		fmt.Println("oracle error:", err)
		os.Exit(1)
	}
}

// run runs merklize and returns its stdout and exit status.
func run(args ...string) (string, int) {
	cmd := exec.Command(merklize, args...)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	status := 0
	if exit, ok := err.(*exec.ExitError); ok {
		status = exit.ExitCode()
	} else if err != nil {
		must(err)
	}
	if status != 0 && status != 1 {
		fail("merklize %s: exit %d: %s", strings.Join(args, " "), status, stderr.String())
	}
	return stdout.String(), status
}

// expect runs merklize and wants exit status 0.
func expect(args ...string) string {
	out, status := run(args...)
	if status != 0 {
		fail("merklize %s: exit %d", strings.Join(args, " "), status)
	}
	return out
}

type oracleLog struct {
	n       int64
	entries [][]byte
	records []tlog.Hash
	store   hashStore
	root    tlog.Hash
}

func buildLog(n int64) *oracleLog {
	l := &oracleLog{n: n}
	for i := int64(0); i < n; i++ {
		entry := []byte(fmt.Sprintf("entry %d of the oracle's log", i))
		l.entries = append(l.entries, entry)
		h := tlog.RecordHash(entry)
		l.records = append(l.records, h)
		stored, err := tlog.StoredHashesForRecordHash(i, h, l.store)
		must(err)
		l.store = append(l.store, stored...)
	}
	root, err := tlog.TreeHash(n, l.store)
	must(err)
	l.root = root
	return l
}

func body(n int64, root tlog.Hash) string {
	return fmt.Sprintf("%s\n%d\n%s\n", origin, n, base64.StdEncoding.EncodeToString(root[:]))
}

// The tiles a snapshot of the log serves: NewTiles lists every width a growing log published;
// the snapshot keeps each tile's widest.
func snapshotTiles(n int64) map[string]tlog.Tile {
	widest := map[[2]int64]tlog.Tile{}
	for _, t := range tlog.NewTiles(8, 0, n) {
		key := [2]int64{int64(t.L), t.N}
		if old, ok := widest[key]; !ok || t.W > old.W {
			widest[key] = t
		}
	}
	paths := map[string]tlog.Tile{}
	for _, t := range widest {
		paths["tile/"+strings.TrimPrefix(t.Path(), "tile/8/")] = t
	}
	return paths
}

func bundle(l *oracleLog, t tlog.Tile) []byte {
	var b []byte
	for i := t.N * 256; i < t.N*256+int64(t.W); i++ {
		e := l.entries[i]
		b = append(b, byte(len(e)>>8), byte(len(e)))
		b = append(b, e...)
	}
	return b
}

func checkTiles(l *oracleLog, dir string, withEntries bool) {
	expected := map[string][]byte{}
	for path, t := range snapshotTiles(l.n) {
		data, err := tlog.ReadTileData(t, l.store)
		must(err)
		expected[path] = data
		if withEntries && t.L == 0 {
			expected[strings.Replace(path, "tile/0/", "tile/entries/", 1)] = bundle(l, t)
		}
	}
	found := 0
	filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		must(err)
		rel, _ := filepath.Rel(dir, path)
		if d.IsDir() {
			return nil
		}
		found++
		want, ok := expected[rel]
		if !ok {
			fail("n=%d: merklize wrote %s, which the log has not", l.n, rel)
			return nil
		}
		got, err := os.ReadFile(path)
		must(err)
		if !bytes.Equal(got, want) {
			fail("n=%d: %s differs from Go's (%d bytes, Go's %d)", l.n, rel, len(got), len(want))
		}
		return nil
	})
	if found != len(expected) {
		fail("n=%d: %d files written, Go's tiles and bundles are %d", l.n, found, len(expected))
	}
}

func hexOf(h tlog.Hash) string { return fmt.Sprintf("%x", h[:]) }

// tlogProofText writes a tlog-proof as c2sp.org/tlog-proof says.
func tlogProofText(index int64, p tlog.RecordProof, signed []byte) string {
	text := fmt.Sprintf("c2sp.org/tlog-proof@v1\nindex %d\n", index)
	for _, h := range p {
		text += base64.StdEncoding.EncodeToString(h[:]) + "\n"
	}
	return text + "\n" + string(signed)
}

// checkTlogProof reads merklize's tlog-proof text: the lines as the spec has them, the note
// opened with the log's key, the path checked.
func checkTlogProof(l *oracleLog, index int64, text string, verifier note.Verifier) {
	parts := strings.SplitN(text, "\n\n", 2)
	lines := strings.Split(parts[0], "\n")
	if len(parts) != 2 || lines[0] != "c2sp.org/tlog-proof@v1" || lines[1] != fmt.Sprintf("index %d", index) {
		fail("n=%d: tlog-proof of %d is malformed: %q", l.n, index, text)
		return
	}
	var p tlog.RecordProof
	for _, line := range lines[2:] {
		h, err := tlog.ParseHash(line)
		if err != nil {
			fail("n=%d: tlog-proof line %q: %v", l.n, line, err)
			return
		}
		p = append(p, h)
	}
	opened, err := note.Open([]byte(parts[1]), note.VerifierList(verifier))
	if err != nil || opened.Text != body(l.n, l.root) {
		fail("n=%d: tlog-proof's checkpoint does not open: %v", l.n, err)
		return
	}
	if err := tlog.CheckRecord(p, l.n, l.root, index, l.records[index]); err != nil {
		fail("n=%d: tlog-proof of %d: %v", l.n, index, err)
	}
}

func checkInclusion(l *oracleLog, index int64, ctJSON string) {
	var got ctRecordProof
	if err := json.Unmarshal([]byte(ctJSON), &got); err != nil {
		fail("n=%d: proof of %d is not CT's JSON: %v", l.n, index, err)
		return
	}
	want, err := tlog.ProveRecord(l.n, index, l.store)
	must(err)
	if got.Index != index || fmt.Sprint(got.Proof) != fmt.Sprint(want) {
		fail("n=%d: the audit path of %d is not Go's ProveRecord", l.n, index)
	}
	if err := tlog.CheckRecord(got.Proof, l.n, l.root, index, l.records[index]); err != nil {
		fail("n=%d: CheckRecord of %d: %v", l.n, index, err)
	}
}

func checkConsistency(l *oracleLog, old int64, ctJSON string) {
	var got ctTreeProof
	if err := json.Unmarshal([]byte(ctJSON), &got); err != nil {
		fail("n=%d: proof from %d is not CT's JSON: %v", l.n, old, err)
		return
	}
	want, err := tlog.ProveTree(l.n, old, l.store)
	must(err)
	if fmt.Sprint(got.Proof) != fmt.Sprint(want) {
		fail("n=%d: the consistency proof from %d is not Go's ProveTree", l.n, old)
	}
	oldRoot, err := tlog.TreeHash(old, l.store)
	must(err)
	if err := tlog.CheckTree(got.Proof, l.n, l.root, old, oldRoot); err != nil {
		fail("n=%d: CheckTree from %d: %v", l.n, old, err)
	}
}

// Go's proofs, verified by merklize; tampered ones refused.
func goProofsVerified(l *oracleLog, work string, index, old int64, signed []byte) {
	p, err := tlog.ProveRecord(l.n, index, l.store)
	must(err)
	n := strconv.FormatInt(l.n, 10)
	write := func(name string, data []byte) string {
		path := filepath.Join(work, name)
		must(os.WriteFile(path, data, 0o644))
		return path
	}
	ct, _ := json.Marshal(ctRecordProof{index, p})
	leaf, root := hexOf(l.records[index]), hexOf(l.root)
	expect("verify", "--log", "--proof-format", "ct", "--leaves", n, write("go.ct", ct), leaf, root)
	tp := write("go.tlog-proof", []byte(tlogProofText(index, p, signed)))
	expect("verify", "--proof-format", "tlog-proof", tp, leaf, root)
	if len(p) > 0 {
		p[len(p)-1][0] ^= 1
		bad, _ := json.Marshal(ctRecordProof{index, p})
		if _, status := run("verify", "--log", "--proof-format", "ct", "--leaves", n, write("bad.ct", bad), leaf, root); status != 1 {
			fail("n=%d: a tampered CT proof of %d verified", l.n, index)
		}
	}
	if old == 0 || old > l.n {
		return
	}
	tp2, err := tlog.ProveTree(l.n, old, l.store)
	must(err)
	oldRoot, _ := tlog.TreeHash(old, l.store)
	tree, _ := json.Marshal(ctTreeProof{tp2})
	expect("verify-consistency", "--proof-format", "ct", "--old-size", strconv.FormatInt(old, 10),
		"--new-size", n, write("go-tree.ct", tree), hexOf(oldRoot), root)
}

func oneSize(work string, spec string) {
	asLeaves := strings.HasSuffix(spec, "L")
	n, err := strconv.ParseInt(strings.TrimSuffix(spec, "L"), 10, 64)
	must(err)
	start := time.Now()
	l := buildLog(n)
	built := time.Since(start)
	dir := filepath.Join(work, fmt.Sprintf("log-%d", n))
	must(os.RemoveAll(dir))
	must(os.MkdirAll(dir, 0o755))
	input := filepath.Join(dir, "input")
	var data []byte
	for i := range l.entries {
		if asLeaves {
			data = append(data, l.records[i][:]...)
		} else {
			data = append(append(data, l.entries[i]...), '\n')
		}
	}
	must(os.WriteFile(input, data, 0o644))
	tiles := filepath.Join(dir, "tiles")
	args := []string{"tiles", "--origin", origin, "-o", tiles, input}
	if !asLeaves {
		args = append([]string{"tiles", "--log", "--entries", "lines"}, args[1:]...)
	}
	merklizeStart := time.Now()
	if got := expect(args...); got != body(n, l.root) {
		fail("n=%d: the checkpoint body is %q, Go's TreeHash gives %q", n, got, body(n, l.root))
	}
	tiled := time.Since(merklizeStart)
	checkTiles(l, tiles, !asLeaves)

	skey, vkey, err := note.GenerateKey(rand.Reader, origin)
	must(err)
	signer, err := note.NewSigner(skey)
	must(err)
	verifier, err := note.NewVerifier(vkey)
	must(err)
	signed, err := note.Sign(&note.Note{Text: body(n, l.root)}, signer)
	must(err)
	checkpoint := filepath.Join(dir, "checkpoint")
	must(os.WriteFile(checkpoint, signed, 0o644))

	if root := expect("tiles-read", tiles, "--checkpoint", checkpoint); root != hexOf(l.root)+"\n" {
		fail("n=%d: tiles-read's root %q is not Go's", n, root)
	}
	indices := uniq([]int64{0, n / 2, n - 1})
	olds := uniq([]int64{1, n / 2, n - 1, n})
	for _, i := range indices {
		checkInclusion(l, i, expect("tiles-read", tiles, "--size", strconv.FormatInt(n, 10), "-i",
			strconv.FormatInt(i, 10), "--proof-format", "ct"))
		checkTlogProof(l, i, expect("tiles-read", tiles, "--checkpoint", checkpoint, "-i",
			strconv.FormatInt(i, 10), "--proof-format", "tlog-proof"), verifier)
		goProofsVerified(l, dir, i, olds[len(olds)/2], signed)
	}
	for _, m := range olds {
		if m < 1 {
			continue
		}
		checkConsistency(l, m, expect("tiles-read", tiles, "--checkpoint", checkpoint,
			"--old-size", strconv.FormatInt(m, 10), "--proof-format", "ct"))
	}
	if !asLeaves && n <= 300 { // the same proofs from the tree built on the device
		for _, i := range indices {
			checkInclusion(l, i, expect("proof", "--log", "--entries", "lines", "-i",
				strconv.FormatInt(i, 10), "--proof-format", "ct", input))
		}
		checkTlogProof(l, n-1, expect("proof", "--log", "--entries", "lines", "-i",
			strconv.FormatInt(n-1, 10), "--proof-format", "tlog-proof", "--checkpoint", checkpoint,
			input), verifier)
		for _, m := range olds {
			if m < 1 {
				continue
			}
			out := expect("consistency", "--log", "--entries", "lines", "--old-size",
				strconv.FormatInt(m, 10), "--proof-format", "ct", input)
			lines := strings.Split(strings.TrimSpace(out), "\n")
			checkConsistency(l, m, lines[len(lines)-1])
		}
	}
	fmt.Printf("n=%d: %d tiles (and with entries their bundles), %d proofs compared (Go built the log in %v, merklize tiles took %v)\n",
		n, len(snapshotTiles(n)), len(indices)*2+len(olds), built.Round(time.Millisecond), tiled.Round(time.Millisecond))
}

func uniq(values []int64) []int64 {
	seen := map[int64]bool{}
	var out []int64
	for _, v := range values {
		if v >= 0 && !seen[v] {
			seen[v] = true
			out = append(out, v)
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i] < out[j] })
	return out
}

func main() {
	if len(os.Args) < 4 {
		fmt.Println("usage: tlog_oracle MERKLIZE WORKDIR SIZE...")
		os.Exit(2)
	}
	merklize = os.Args[1]
	for _, size := range os.Args[3:] {
		oneSize(os.Args[2], size)
	}
	if failures > 0 {
		fmt.Printf("%d comparisons failed\n", failures)
		os.Exit(1)
	}
	fmt.Println("every tile, bundle, checkpoint and proof agrees with Go's sumdb/tlog")
}
