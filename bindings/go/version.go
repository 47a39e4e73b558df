// SPDX-License-Identifier: Apache-2.0 OR MIT

package merklize

// #include <merklize.h>
import "C"

import "strings"

// Version is the version of the libmerklize loaded, "MAJOR.MINOR.PATCH".
func Version() string { return C.GoString(C.merklize_version()) }

// ABIVersion is the C ABI version of the libmerklize loaded (its soname's number).
func ABIVersion() int { return int(C.merklize_abi_version()) }

// HashNames are the node hashes WithHash takes.
func HashNames() []string { return names(C.merklize_hash_names()) }

// ShapeNames are the shapes WithShape takes.
func ShapeNames() []string { return names(C.merklize_shape_names()) }

// LeafHashNames are the leaf hashes WithLeafHash takes.
func LeafHashNames() []string { return names(C.merklize_leaf_hash_names()) }

func names(list *C.char) []string {
	parts := strings.Split(C.GoString(list), ",")
	for i := range parts {
		parts[i] = strings.TrimSpace(parts[i])
	}
	return parts
}
