// SPDX-License-Identifier: Apache-2.0 OR MIT

// A Go program of someone else's, built outside the repository against an installed libmerklize
// (tests/consumer/run.sh, as bindings/go/README.md says): prints "merklize VERSION" and the root
// of the leaves in the file it is given, as consumer.c does.
package main

import (
	"fmt"
	"os"

	"merklize"
)

func main() {
	if len(os.Args) != 2 {
		fmt.Fprintln(os.Stderr, "usage: consumer LEAVES_FILE")
		os.Exit(2)
	}
	root, err := merklize.RootFile(os.Args[1])
	if err != nil {
		fmt.Fprintln(os.Stderr, "consumer:", err)
		os.Exit(1)
	}
	fmt.Printf("merklize %s\n%x\n", merklize.Version(), root)
}
