// SPDX-License-Identifier: Apache-2.0 OR MIT
// The CPU baselines of merklize_bench: the same tree computed on the host's cores by the code a
// user would otherwise run, so that a row says whether merklize pays on this machine:
//   OpenSSL   SHA-256 of each node (sha256; rfc6962 with its 0x01 prefix), always built; SHA3-256
//             (sha3-256) and, from OpenSSL 3.2 on, KECCAK-256 (keccak256) through EVP;
//   BLAKE3    the official C library's blake3_hash_many, its SIMD many-inputs path (blake3 nodes),
//             where its sources were found at configure time (bench/CMakeLists.txt);
//   hashtree  the hashtree library's SHA-256 layer (sha256 nodes), where it is installed.
// Each computes the tree level by level, each level cut into one contiguous run of nodes per
// thread, over 2^k leaves (a power of two: no lone node, so every shape agrees).
#pragma once

#include <merklize/core/node_rule.hpp>

#include <cstdint>
#include <string>
#include <vector>

namespace bench {

// Hashes `count` 64-byte blocks of `in` into `count` 32-byte nodes of `out`.
using layer_function = void (*)(std::uint8_t *out, const std::uint8_t *in, std::uint64_t count);

struct cpu_baseline {
  std::string name; // "OpenSSL", "BLAKE3 hash_many", "hashtree"
  layer_function layer;
};

// SHA-256 of each of `count` 64-byte blocks of `in` into `out`, after a prefix byte where one is
// given (rfc6962's 0x01), by OpenSSL on the calling thread.
void openssl_layer(std::uint8_t *out, const std::uint8_t *in, std::uint64_t count, int prefix = -1);

// The baselines of nodes of `hash` in this build.
std::vector<cpu_baseline> cpu_baselines(merklize::hash_kind hash);

// What a baseline that is not built would need, for the summary ("" when none is missing).
std::string missing_baselines(merklize::hash_kind hash);

// The root of `leaf_count` (a power of two, at least 2) leaves by `baseline` on `threads`
// threads; `a` and `b` hold leaf_count / 2 nodes each, the levels' scratch.
merklize::digest baseline_root(const cpu_baseline &baseline, const std::uint8_t *leaves,
                               std::uint64_t leaf_count, unsigned threads, std::uint8_t *a,
                               std::uint8_t *b);

} // namespace bench
