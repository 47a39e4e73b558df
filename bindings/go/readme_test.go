// SPDX-License-Identifier: Apache-2.0 OR MIT

package merklize_test

import (
	"os"
	"strings"
	"testing"
)

// TestReadmeExample: the README's Go code is the package's Example, line for line, so that what
// the README shows is what go test runs.
func TestReadmeExample(t *testing.T) {
	readme, err := os.ReadFile("README.md")
	if err != nil {
		t.Fatal(err)
	}
	example, err := os.ReadFile("example_test.go")
	if err != nil {
		t.Fatal(err)
	}
	text := string(readme)
	start := strings.Index(text, "```go\n")
	if start < 0 {
		t.Fatal("README.md has no ```go block")
	}
	block := text[start+len("```go\n"):]
	block = block[:strings.Index(block, "```")]
	var indented strings.Builder
	for _, line := range strings.SplitAfter(block, "\n") {
		if strings.TrimSpace(line) != "" {
			indented.WriteString("\t")
		}
		indented.WriteString(line)
	}
	if !strings.Contains(string(example), indented.String()) {
		t.Fatalf("README.md's Go block is not a part of Example in example_test.go:\n%s", block)
	}
}
