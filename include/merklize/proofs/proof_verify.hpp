// SPDX-License-Identifier: Apache-2.0 OR MIT
// Verification of inclusion proofs and multiproofs on the host. Proofs are untrusted: any proof,
// however malformed, is rejected with a reason and never read out of bounds, and a multiproof's
// structure is checked before any hashing. No OpenCL.
#pragma once

#include "proof_expectations.hpp"
#include "proof_model.hpp"

#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace merklize {

namespace detail {

// Hands out a proof's nodes in order. Past the end it hands out zeros and keeps counting, so the
// verifier learns how many nodes the proof should hold without reading out of bounds.
class node_stream {
public:
  explicit node_stream(const std::vector<digest> &nodes) : nodes_(nodes) {}
  digest next() { return taken_ < nodes_.size() ? nodes_[taken_++] : (++taken_, digest{}); }
  std::size_t taken() const { return taken_; }

private:
  const std::vector<digest> &nodes_;
  std::size_t taken_ = 0;
};

// The parent of a node and its sibling: the node is the left child when its index is even.
inline digest parent_of(hash_kind hash, std::uint64_t index, const digest &node,
                        const digest &sibling, bool is_root) {
  return index % 2 ? node_hash(hash, sibling, node, is_root)
                   : node_hash(hash, node, sibling, is_root);
}

inline verification check_claims(const tree_options &options, std::uint64_t leaf_count,
                                 const proof_expectations &expect) {
  const unsigned depth = root_depth_of(options, leaf_count);
  if (auto pins = check_pins({options.hash, options.shape, leaf_count, depth, 2}, expect); !pins)
    return pins;
  if (leaf_count == 0) return reject("the proof claims a tree of 0 leaves");
  if (options.hash == hash_kind::rfc6962 && options.shape != shape::promote)
    return reject("the proof claims hash rfc6962 with shape zero, which it does not have");
  if (depth != depth_of(leaf_count)) {
    if (options.shape != shape::zero)
      return reject("the proof claims a fixed depth, which only shape zero has");
    if (depth < depth_of(leaf_count) || depth > 64)
      return reject("the proof claims a root of depth " + std::to_string(depth) +
                    ", which cannot hold " + std::to_string(leaf_count) + " leaves");
  }
  return {true, {}};
}

inline verification check_node_count(const char *what, std::size_t held, std::size_t needed) {
  if (held == needed) return {true, {}};
  return reject("the proof holds " + std::to_string(held) + " " + what + ", the tree needs " +
                std::to_string(needed) + (held < needed ? " (truncated)" : " (overlong)"));
}

// An SSZ list element's proof: sha256, shape zero, and room for its length chunk.
inline verification check_mixed_length(const inclusion_proof &proof) {
  if (!proof.mixed_length) return {true, {}};
  if (proof.options.hash != hash_kind::sha256 || proof.options.shape != shape::zero)
    return reject(std::string("the proof mixes a length into the root, which only SSZ lists "
                              "(hash sha256, shape zero) do, not ") +
                  to_string(proof.options.hash) + " " + to_string(proof.options.shape));
  if (proof.siblings.empty())
    return reject("the proof holds no siblings, not even the length chunk (truncated)");
  return {true, {}};
}

inline verification check_root(const digest &computed, const digest &root) {
  if (computed == root) return {true, {}};
  return reject("the proof leads to root " + to_hex(computed) + ", not " + to_hex(root));
}

// Fails leaves or proof nodes that are not canonical elements of a hash over field elements,
// naming the first ("leaf 3, limb 0 (...)", "sibling 1, limb 7 (...)").
inline verification check_elements(hash_kind hash, const std::vector<std::uint64_t> &indices,
                                   const std::vector<digest> &leaves, const char *node_name,
                                   const std::vector<digest> &nodes) {
  if (!row_of(hash).non_canonical) return {true, {}};
  for (std::size_t k = 0; k < leaves.size() && k < indices.size(); ++k)
    if (auto leaf = check_element(hash, leaves[k], "leaf", indices[k]); !leaf) return leaf;
  for (std::size_t k = 0; k < nodes.size(); ++k)
    if (auto node = check_element(hash, nodes[k], node_name, k); !node) return node;
  return {true, {}};
}

} // namespace detail

// Whether `proof` shows that `leaf` is in the tree whose root is `root`.
inline verification verify(const inclusion_proof &proof, const digest &leaf, const digest &root,
                           const proof_expectations &expect = {}) {
  if (auto claims = detail::check_claims(proof.options, proof.leaf_count, expect); !claims)
    return claims;
  if (proof.index >= proof.leaf_count)
    return detail::reject("leaf index " + std::to_string(proof.index) +
                          " out of range: the proof claims a tree of " +
                          std::to_string(proof.leaf_count) + " leaves");
  if (auto mixed = detail::check_mixed_length(proof); !mixed) return mixed;
  if (auto elements = detail::check_elements(proof.options.hash, {proof.index}, {leaf}, "sibling",
                                             proof.siblings);
      !elements)
    return elements;
  const hash_kind hash = proof.options.hash;
  const unsigned depth = detail::root_depth_of(proof.options, proof.leaf_count);
  const bool zero_pad = proof.options.shape == shape::zero;
  const auto zeros = zero_pad ? zero_subtree_roots(hash, depth) : std::vector<digest>{};
  const std::size_t chunks = proof.mixed_length ? 1 : 0; // the length chunk ends the siblings
  const std::vector<digest> tree_siblings(proof.siblings.begin(), proof.siblings.end() - chunks);
  detail::node_stream siblings(tree_siblings);
  std::optional<unsigned> bad_padding; // a level whose zero-subtree sibling is wrong
  const digest computed = detail::climb<digest>(
      {{proof.index, leaf}}, proof.leaf_count, depth,
      [](unsigned, const digest &, const digest &) { return digest{}; }, // one leaf: no pairs
      [&](unsigned level, std::uint64_t i, const digest &node) {
        return detail::parent_of(hash, i, node, siblings.next(), level + 1 == depth);
      },
      [&](unsigned level, const digest &node) {
        if (!zero_pad) return node;
        const digest sibling = siblings.next();
        if (sibling != zeros[level] && !bad_padding) bad_padding = level;
        return node_hash(hash, node, sibling, level + 1 == depth);
      });
  if (auto count =
          detail::check_node_count("siblings", proof.siblings.size(), siblings.taken() + chunks);
      !count)
    return count;
  if (bad_padding)
    return detail::reject("the sibling at level " + std::to_string(*bad_padding) +
                          " must be the zero-subtree root " + to_hex(zeros[*bad_padding]) +
                          ": the path's node is the last of its level");
  if (!proof.mixed_length) return detail::check_root(computed, root);
  const digest chunk = length_chunk(*proof.mixed_length);
  if (proof.siblings.back() != chunk)
    return detail::reject("the last sibling must be the length chunk " + to_hex(chunk) + " of " +
                          std::to_string(*proof.mixed_length) + " elements");
  return detail::check_root(sha256::hash_pair(computed, chunk), root);
}

namespace detail {

// Node hashes that verify(const multiproof &, ...) computed on this thread: the tests read it to
// show that a malformed multiproof is rejected before any hashing.
inline thread_local std::uint64_t multiproof_hashes = 0;

// How many nodes the multiproof of `indices` (strictly increasing, each below leaf_count) holds
// for a root `depth` levels up, found by climbing positions only; nothing where it is more than
// `limit`. The climb stops there, so that its work is bounded by the proof's size.
inline std::optional<std::uint64_t> multiproof_node_count(std::uint64_t leaf_count, unsigned depth,
                                                          const std::vector<std::uint64_t> &indices,
                                                          std::uint64_t limit) {
  struct past_limit {};
  std::vector<std::pair<std::uint64_t, nothing>> known;
  known.reserve(indices.size());
  for (const std::uint64_t index : indices)
    known.emplace_back(index, nothing{});
  std::uint64_t count = 0;
  try {
    climb<nothing>(
        std::move(known), leaf_count, depth, [](unsigned, nothing, nothing) { return nothing{}; },
        [&](unsigned, std::uint64_t, nothing) {
          if (++count > limit) throw past_limit{};
          return nothing{};
        },
        [](unsigned, nothing) { return nothing{}; });
  } catch (const past_limit &) {
    return std::nullopt;
  }
  return count;
}

// Fails a multiproof whose indices or node count do not fit its tree, without hashing.
inline verification check_multiproof_structure(const multiproof &proof, std::size_t leaves) {
  if (proof.indices.empty()) return reject("the multiproof proves no leaf");
  if (leaves != proof.indices.size())
    return reject(std::to_string(leaves) + " leaves given for " +
                  std::to_string(proof.indices.size()) + " proven indices");
  for (std::size_t k = 0; k < proof.indices.size(); ++k) {
    const std::uint64_t index = proof.indices[k];
    if (index >= proof.leaf_count)
      return reject("leaf index " + std::to_string(index) +
                    " out of range: the proof claims a tree of " +
                    std::to_string(proof.leaf_count) + " leaves");
    if (k > 0 && index <= proof.indices[k - 1])
      return reject("leaf indices are not strictly increasing at position " + std::to_string(k));
  }
  const auto needed =
      multiproof_node_count(proof.leaf_count, root_depth_of(proof.options, proof.leaf_count),
                            proof.indices, proof.nodes.size());
  if (!needed)
    return reject("the proof holds " + std::to_string(proof.nodes.size()) +
                  " nodes, the tree needs more (truncated)");
  return check_node_count("nodes", proof.nodes.size(), *needed);
}

} // namespace detail

// Whether `proof` shows that leaves[k] is the leaf at proof.indices[k], for every k, in the tree
// whose root is `root`. The proof's structure (indices, node count) is checked before any
// hashing, so a hostile proof costs work in proportion to its size.
inline verification verify(const multiproof &proof, const std::vector<digest> &leaves,
                           const digest &root, const proof_expectations &expect = {}) {
  if (auto claims = detail::check_claims(proof.options, proof.leaf_count, expect); !claims)
    return claims;
  if (auto structure = detail::check_multiproof_structure(proof, leaves.size()); !structure)
    return structure;
  if (auto elements =
          detail::check_elements(proof.options.hash, proof.indices, leaves, "node", proof.nodes);
      !elements)
    return elements;
  std::vector<std::pair<std::uint64_t, digest>> known;
  known.reserve(leaves.size());
  for (std::size_t k = 0; k < leaves.size(); ++k)
    known.emplace_back(proof.indices[k], leaves[k]);
  const hash_kind hash = proof.options.hash;
  const unsigned depth = detail::root_depth_of(proof.options, proof.leaf_count);
  const bool zero_pad = proof.options.shape == shape::zero;
  const auto zeros = zero_pad ? zero_subtree_roots(hash, depth) : std::vector<digest>{};
  const auto parent = [&](unsigned level, const digest &left, const digest &right) {
    ++detail::multiproof_hashes;
    return node_hash(hash, left, right, level + 1 == depth);
  };
  detail::node_stream nodes(proof.nodes);
  const digest computed = detail::climb<digest>(
      std::move(known), proof.leaf_count, depth, parent,
      [&](unsigned level, std::uint64_t i, const digest &node) {
        const digest sibling = nodes.next();
        return i % 2 ? parent(level, sibling, node) : parent(level, node, sibling);
      },
      [&](unsigned level, const digest &node) {
        return zero_pad ? parent(level, node, zeros[level]) : node;
      });
  return detail::check_root(computed, root);
}

} // namespace merklize
