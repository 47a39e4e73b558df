// SPDX-License-Identifier: Apache-2.0 OR MIT
// hashtree's call on the host (include/merklize/hashtree.h): SHA-256 of 64-byte blocks by the host
// engine's pair hasher (core/sha256_pairs.hpp, SHA extensions where the CPU has them), no device,
// no status, hashtree's contract.
#include <merklize.h>

#include <merklize/core/hashes.hpp>
#include <merklize/engine/host_tree.hpp>

extern "C" {

// The pair hashers read a pair before they write its digest, digest i at 32 i: over the input's
// first half, behind what they read, so output may be input.
void merklize_hashtree_hash(uint8_t *output, const uint8_t *input, uint64_t count) {
  if (count == 0) return;
  static const merklize::detail::pair_hash_fn sha256_pairs =
      merklize::detail::pair_hasher(merklize::row_of(merklize::hash_kind::sha256));
  sha256_pairs(input, output, count);
}

} // extern "C"
