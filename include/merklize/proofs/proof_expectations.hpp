// SPDX-License-Identifier: Apache-2.0 OR MIT
// What a verifier knows of a tree apart from the proof (its pins), the header every proof
// claims, and the outcome of a verification. Shared by the verifiers of binary proofs
// (proof_verify.hpp), consistency proofs (consistency.hpp) and k-ary proofs (kary_verify.hpp).
// No OpenCL.
#pragma once

#include "../core/hashes.hpp"
#include "../core/node_rule.hpp"

#include <cstdint>
#include <optional>
#include <string>
#include <utility>

namespace merklize {

// What the verifier knows of the tree apart from the proof. A root commits neither to the leaf
// count nor to the hash, shape, depth and arity that made it, and a proof's header is only its
// claim, so a proof relabelled with other values can still verify where the computation stays
// the same (docs/PROOFS.md, "What a proof binds"): pin what you know. `depth` is the root's depth
// (tree::root_depth(); a k-ary tree's height), `arity` the children per node (2 for binary
// trees). The C ABI's merklize_proof_expectations holds the same pins.
struct proof_expectations {
  std::optional<hash_kind> hash;
  std::optional<merklize::shape> shape;
  std::optional<std::uint64_t> leaf_count;
  std::optional<unsigned> depth;
  std::optional<unsigned> arity;
};

// The outcome of a verification: valid, or the reason it is not.
struct verification {
  bool valid = false;
  std::string reason; // empty when valid
  explicit operator bool() const { return valid; }
};

namespace detail {

inline verification reject(std::string reason) { return {false, std::move(reason)}; }

// What every proof claims of its tree, read from its header.
struct proof_header {
  hash_kind hash;
  merklize::shape shape;
  std::uint64_t leaf_count;
  unsigned depth;
  unsigned arity;
};

// Fails a proof whose header differs from a pinned value, naming the first that differs.
inline verification check_pins(const proof_header &claim, const proof_expectations &expect) {
  if (expect.hash && *expect.hash != claim.hash)
    return reject(std::string("the proof is for hash ") + to_string(claim.hash) + ", not " +
                  to_string(*expect.hash));
  if (expect.shape && *expect.shape != claim.shape)
    return reject(std::string("the proof is for shape ") + to_string(claim.shape) + ", not " +
                  to_string(*expect.shape));
  if (expect.arity && *expect.arity != claim.arity)
    return reject("the proof is for arity " + std::to_string(claim.arity) + ", not " +
                  std::to_string(*expect.arity));
  if (expect.leaf_count && *expect.leaf_count != claim.leaf_count)
    return reject("the proof is for a tree of " + std::to_string(claim.leaf_count) +
                  " leaves, not " + std::to_string(*expect.leaf_count));
  if (expect.depth && *expect.depth != claim.depth)
    return reject("the proof is for a root of depth " + std::to_string(claim.depth) + ", not " +
                  std::to_string(*expect.depth));
  return {true, {}};
}

// Fails a digest that the hash does not take: an element of p or more of a hash over field
// elements ("sibling 2, limb 3 (2013265921) is not a canonical BabyBear element ..."), which
// its host reference and kernels would take mod p, so that the proof would pass for another.
inline verification check_element(hash_kind hash, const digest &d, const char *what,
                                  std::size_t index) {
  if (!row_of(hash).non_canonical) return {true, {}};
  std::string why = digest_refusal(hash, d, what + (" " + std::to_string(index)));
  if (why.empty()) return {true, {}};
  return reject(std::move(why));
}

} // namespace detail

} // namespace merklize
