// SPDX-License-Identifier: Apache-2.0 OR MIT
// A proof's header as the C ABI reads it (merklize_proof_hash, _shape, _depth, _arity), and a
// merklize_proof_expectations turned into the library's pins: what proofs.cpp verifies against.
#pragma once

#include "handles.hpp"

#include <merklize/proofs/proof_expectations.hpp>

namespace merklize_capi {

// What the proof claims of its tree.
merklize::detail::proof_header header_of(const merklize_proof &p);

// The pins of `expect` (its names parsed, its size checked), and its kind (0: any).
struct proof_pins {
  merklize::proof_expectations expect;
  int kind = 0;
};
proof_pins pins_of(const merklize_proof_expectations *expect, const char *function);

// Fails a proof that is not of the pinned kind.
merklize::verification check_kind(const merklize_proof &p, int kind);

} // namespace merklize_capi
