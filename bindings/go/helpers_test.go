// SPDX-License-Identifier: Apache-2.0 OR MIT

package merklize_test

import (
	"bytes"
	"encoding/hex"
	"math/rand"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"unsafe"
)

// sizes are the leaf counts the trees are tested at: 1, 2, 3, and 2^k-1, 2^k, 2^k+1.
var sizes = []int{1, 2, 3, 7, 8, 9, 255, 256, 257, 1023, 1024, 1025}

// randomBytes are n bytes of a fixed seed.
func randomBytes(n int, seed int64) []byte {
	b := make([]byte, n)
	rand.New(rand.NewSource(seed)).Read(b)
	return b
}

// asLeaves views 32-byte leaves back to back as digests (a copy of the slice header, not of the
// bytes).
func asLeaves(b []byte) [][32]byte {
	if len(b) == 0 {
		return nil
	}
	return unsafe.Slice((*[32]byte)(unsafe.Pointer(&b[0])), len(b)/32)
}

func writeTemp(t *testing.T, data []byte) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "input")
	if err := os.WriteFile(path, data, 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}

func fromHex(t *testing.T, s string) []byte {
	t.Helper()
	b, err := hex.DecodeString(s)
	if err != nil {
		t.Fatalf("hex %q: %v", s, err)
	}
	return b
}

func digestHex(t *testing.T, s string) (d [32]byte) {
	t.Helper()
	if copy(d[:], fromHex(t, s)) != 32 {
		t.Fatalf("%q is not a 32-byte digest", s)
	}
	return d
}

// cliPath is the merklize tool the tests compare with: $MERKLIZE_CLI (ctest sets it), else
// merklize on PATH; "" if neither.
func cliPath() string {
	if path := os.Getenv("MERKLIZE_CLI"); path != "" {
		return path
	}
	path, _ := exec.LookPath("merklize")
	return path
}

// cli runs the merklize tool and gives what it printed, without the final newline; the test is
// skipped where there is no tool.
func cli(t *testing.T, args ...string) string {
	t.Helper()
	path := cliPath()
	if path == "" {
		t.Skip("SKIPPED: no merklize tool: set MERKLIZE_CLI or put merklize on PATH")
	}
	var stdout, stderr bytes.Buffer
	cmd := exec.Command(path, args...)
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("merklize %s: %v: %s", strings.Join(args, " "), err, stderr.String())
	}
	return strings.TrimSuffix(stdout.String(), "\n")
}

// vectorDir is tests/vectors of the repository ($MERKLIZE_TEST_VECTOR_DIR if set).
func vectorDir() string {
	if dir := os.Getenv("MERKLIZE_TEST_VECTOR_DIR"); dir != "" {
		return dir
	}
	return filepath.Join("..", "..", "tests", "vectors")
}
