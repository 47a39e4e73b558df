// SPDX-License-Identifier: Apache-2.0 OR MIT
// Verification of k-ary proofs and multiproofs against what the verifier pinned, with a reason,
// as verify() does for binary proofs (proof_verify.hpp): the pins first, then kary_verify or
// kary_verify_multi. No OpenCL.
#pragma once

#include "../core/kary.hpp"
#include "kary_multiproof.hpp"
#include "proof_expectations.hpp"

#include <string>
#include <vector>

namespace merklize {
namespace detail {

// A k-ary proof's header: its depth is the tree's height (its arity checked first, as the
// height of an arity of 0 has no end).
inline proof_header kary_header(const kary_options &options, std::uint64_t leaf_count) {
  check_kary(options);
  return {options.hash, options.shape, leaf_count, kary_height(leaf_count, options.arity),
          options.arity};
}

} // namespace detail

// Whether `proof` shows `leaf` at its index under `root`, its header matching `expect`.
inline verification verify(const kary_proof &proof, const digest &leaf, const digest &root,
                           const proof_expectations &expect = {}) {
  if (auto pins = detail::check_pins(detail::kary_header(proof.options, proof.leaf_count), expect);
      !pins)
    return pins;
  if (kary_verify(proof, leaf, root)) return {true, {}};
  return detail::reject("the leaf and the siblings do not hash to the root, or the siblings do "
                        "not fit a k-ary tree of " +
                        std::to_string(proof.leaf_count) + " leaves");
}

// Whether `proof` shows leaves[i] at proof.indices[i] under `root`, its header matching `expect`.
inline verification verify(const kary_multiproof &proof, const std::vector<digest> &leaves,
                           const digest &root, const proof_expectations &expect = {}) {
  if (auto pins = detail::check_pins(detail::kary_header(proof.options, proof.leaf_count), expect);
      !pins)
    return pins;
  if (kary_verify_multi(proof, leaves, root)) return {true, {}};
  return detail::reject("the leaves and the nodes do not hash to the root, or the nodes do not "
                        "fit a k-ary tree of " +
                        std::to_string(proof.leaf_count) + " leaves");
}

} // namespace merklize
