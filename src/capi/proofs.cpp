// SPDX-License-Identifier: Apache-2.0 OR MIT
// Proofs: made from a tree that kept every level (proof_model.hpp, consistency.hpp, kary.hpp) or
// streamed from a source (builds.hpp), encoded and decoded (docs/PROOFS.md; k-ary proofs in
// JSON, kary_proof_encoding.hpp and kary_multiproof_encoding.hpp), and verified on the host as
// untrusted input.
#include "builds.hpp"
#include "proof_pins.hpp"

#include <merklize/proofs/kary_multiproof_encoding.hpp>
#include <merklize/proofs/kary_verify.hpp>
#include <merklize/proofs/proof.hpp>

#include <cstring>
#include <functional>
#include <string_view>
#include <type_traits>

namespace merklize_capi {
namespace {

// Proofs read every level of a tree; a tree built keeping fewer is refused in C's words.
void check_every_level(const merklize_tree &t, const char *function) {
  if (t.first_level != 0)
    throw argument_error(std::string(function) + ": a proof reads every level of the tree, and " +
                         "this one keeps " +
                         (t.first_level > t.depth ? std::string("its root alone")
                                                  : "levels " + std::to_string(t.first_level) +
                                                        ".." + std::to_string(t.depth)) +
                         ": build it with config.keep = MERKLIZE_KEEP_ALL, or prove from the "
                         "source with merklize_prove_source");
}

const tree &binary_of(const merklize_tree &t, const char *function) {
  check_every_level(t, function);
  if (!t.binary)
    throw argument_error(std::string(function) + " proves leaves of binary trees: this tree has " +
                         (t.settings.kary() ? "arity " + std::to_string(t.settings.spec.arity)
                                            : std::string("no leaves")));
  return *t.binary;
}

template <class Proof>
Proof decoded(const void *data, std::size_t size, merklize_encoding encoding,
              Proof (*binary)(const std::uint8_t *, std::size_t),
              Proof (*json)(const std::string &)) {
  const auto *bytes = static_cast<const std::uint8_t *>(data);
  if (encoding == MERKLIZE_ENCODING_BINARY) return binary(bytes, size);
  return json(std::string(reinterpret_cast<const char *>(bytes), size));
}

// The kind of an encoded proof, read as its own decoder reads it: a JSON object's "kind", or
// the byte after a binary proof's magic and version.
merklize_proof::value_type decode(const void *data, std::size_t size, merklize_encoding encoding) {
  if (encoding == MERKLIZE_ENCODING_JSON) {
    const auto kind = json_proof_kind({static_cast<const char *>(data), size});
    if (kind == "kary-inclusion")
      return kary_proof_from_json({static_cast<const char *>(data), size});
    if (kind == "kary-multiproof")
      return kary_multiproof_from_json({static_cast<const char *>(data), size});
    if (kind == "multiproof")
      return decoded(data, size, encoding, multiproof_from_binary, multiproof_from_json);
    if (kind == "consistency")
      return decoded(data, size, encoding, consistency_proof_from_binary,
                     consistency_proof_from_json);
    if (kind && kind != "inclusion")
      throw decode_error("proof JSON: unknown kind \"" + std::string(kind->substr(0, 64)) +
                         "\" (known: inclusion, multiproof, consistency, kary-inclusion, "
                         "kary-multiproof)");
  } else if (size >= 6 && std::memcmp(data, "MKLP", 4) == 0) {
    const unsigned kind = static_cast<const std::uint8_t *>(data)[5];
    if (kind == 2)
      return decoded(data, size, encoding, multiproof_from_binary, multiproof_from_json);
    if (kind == 3)
      return decoded(data, size, encoding, consistency_proof_from_binary,
                     consistency_proof_from_json);
  }
  // An inclusion proof, or something no decoder reads: the inclusion decoder says what is wrong.
  return decoded(data, size, encoding, inclusion_proof_from_binary, inclusion_proof_from_json);
}

std::vector<std::uint8_t> encode(const merklize_proof &p, merklize_encoding encoding) {
  return std::visit(
      [&](const auto &proof) -> std::vector<std::uint8_t> {
        using type = std::decay_t<decltype(proof)>;
        constexpr bool kary =
            std::is_same_v<type, kary_proof> || std::is_same_v<type, kary_multiproof>;
        if constexpr (!kary) {
          if (encoding == MERKLIZE_ENCODING_BINARY) return to_binary(proof);
        } else if (encoding == MERKLIZE_ENCODING_BINARY) {
          throw argument_error("a k-ary proof has a JSON encoding only (MERKLIZE_ENCODING_JSON)");
        }
        const std::string json = to_json(proof);
        return {json.begin(), json.end()};
      },
      p.value);
}

// Whether the proof shows leaves[k] at index k of the proof's indices under `root`, its header
// matching the pins, and why not.
verification verified(const merklize_proof &p, const std::vector<digest> &leaves,
                      const digest &root, const proof_pins &pins, const char *function) {
  if (leaves.size() != p.indices.size())
    throw argument_error(std::string(function) + ": leaf_count is " +
                         std::to_string(leaves.size()) + ", and the proof proves " +
                         std::to_string(p.indices.size()) + " leaves: one leaf per proven index");
  if (std::holds_alternative<consistency_proof>(p.value))
    throw argument_error(std::string(function) + ": a consistency proof is verified by "
                                                 "merklize_verify_consistency");
  if (auto kind = check_kind(p, pins.kind); !kind) return kind;
  return std::visit(
      [&](const auto &proof) -> verification {
        using type = std::decay_t<decltype(proof)>;
        if constexpr (std::is_same_v<type, consistency_proof>) {
          return {}; // refused above
        } else if constexpr (std::is_same_v<type, inclusion_proof> ||
                             std::is_same_v<type, kary_proof>) {
          return verify(proof, leaves.front(), root, pins.expect);
        } else {
          return verify(proof, leaves, root, pins.expect);
        }
      },
      p.value);
}

// merklize_proof_verify and _pinned (`expect` required): *valid, and the reason in
// merklize_last_error().
merklize_status verify_call(const merklize_proof *proof, const uint8_t *leaves, size_t leaf_count,
                            const uint8_t *root, const merklize_proof_expectations *expect,
                            bool pinned, int *valid, const char *function) {
  return guarded([&] {
    const merklize_proof &p = required(proof, function, "proof");
    if (leaf_count > 0) required(leaves, function, "leaves");
    required(root, function, "root");
    required(valid, function, "valid");
    if (leaf_count != p.indices.size()) // before the leaves are copied: a count of 2^62 too
      throw argument_error(std::string(function) + ": leaf_count is " + std::to_string(leaf_count) +
                           ", and the proof proves " + std::to_string(p.indices.size()) +
                           " leaves: one leaf per proven index");
    const proof_pins pins = pinned ? pins_of(expect, function) : proof_pins{};
    const merklize::verification result =
        verified(p, digests_of(leaves, leaf_count), digest_of(root), pins, function);
    if (!result) set_last_error("invalid proof: " + result.reason);
    *valid = result ? 1 : 0;
  });
}

// merklize_verify_consistency and _pinned.
merklize_status consistency_call(const merklize_proof *proof, const uint8_t *old_root,
                                 const uint8_t *new_root, const merklize_proof_expectations *expect,
                                 bool pinned, int *valid, const char *function) {
  return guarded([&] {
    const merklize_proof &p = required(proof, function, "proof");
    required(old_root, function, "old_root");
    required(new_root, function, "new_root");
    required(valid, function, "valid");
    const proof_pins pins = pinned ? pins_of(expect, function) : proof_pins{};
    const auto *c = std::get_if<merklize::consistency_proof>(&p.value);
    if (!c)
      throw argument_error(std::string(function) + ": the proof is not a consistency proof "
                                                   "(merklize_proof_verify verifies the others)");
    merklize::verification result = check_kind(p, pins.kind);
    if (result)
      result = merklize::verify_consistency(c->old_size, c->new_size, digest_of(old_root),
                                            digest_of(new_root), *c, pins.expect);
    if (!result) set_last_error("invalid proof: " + result.reason);
    *valid = result ? 1 : 0;
  });
}

merklize_status proved(merklize_proof **out, const char *function,
                       const std::function<merklize_proof::value_type()> &prove) {
  return guarded([&] {
    required(out, function, "proof");
    *out = proof_handle(prove()).release();
  });
}

} // namespace

std::unique_ptr<merklize_proof> proof_handle(merklize_proof::value_type value) {
  auto p = std::make_unique<merklize_proof>();
  std::visit(overloaded{[&](const inclusion_proof &proof) {
                          p->indices = {proof.index};
                          p->nodes = proof.siblings;
                        },
                        [&](const multiproof &proof) {
                          p->indices = proof.indices;
                          p->nodes = proof.nodes;
                        },
                        [&](const consistency_proof &proof) {
                          p->indices = {proof.old_size};
                          p->nodes = proof.nodes;
                        },
                        [&](const kary_multiproof &proof) {
                          p->indices = proof.indices;
                          p->nodes = proof.nodes;
                        },
                        [&](const kary_proof &proof) {
                          p->indices = {proof.index};
                          for (const auto &level : proof.siblings)
                            p->nodes.insert(p->nodes.end(), level.begin(), level.end());
                        }},
             value);
  p->value = std::move(value);
  return p;
}

} // namespace merklize_capi

using namespace merklize_capi;

extern "C" {

merklize_status merklize_prove(const merklize_tree *tree, uint64_t index, merklize_proof **proof) {
  return proved(proof, "merklize_prove", [&]() -> merklize_proof::value_type {
    const merklize_tree &t = required(tree, "merklize_prove", "tree");
    if (t.settings.kary()) {
      check_every_level(t, "merklize_prove");
      return merklize::kary_prove(t.kary, t.settings.kary_tree(), index);
    }
    merklize::inclusion_proof p = merklize::prove(binary_of(t, "merklize_prove"), index);
    if (t.settings.spec.mix_in_length) p = merklize::mix_in_length(p, t.settings.length);
    return p;
  });
}

merklize_status merklize_prove_multi(const merklize_tree *tree, const uint64_t *indices,
                                     size_t count, merklize_proof **proof) {
  return proved(proof, "merklize_prove_multi", [&]() -> merklize_proof::value_type {
    const merklize_tree &t = required(tree, "merklize_prove_multi", "tree");
    if (count > 0) required(indices, "merklize_prove_multi", "indices");
    if (count == 0) throw argument_error("merklize_prove_multi: count is 0: no leaf to prove");
    if (t.settings.kary()) {
      check_every_level(t, "merklize_prove_multi");
      return merklize::kary_prove_multi(t.kary, t.settings.kary_tree(),
                                        std::vector<std::uint64_t>(indices, indices + count));
    }
    const merklize::tree &binary = binary_of(t, "merklize_prove_multi");
    if (t.settings.spec.mix_in_length)
      throw argument_error("merklize_prove_multi: a multiproof has no length chunk: prove an SSZ "
                           "list's leaves one by one (merklize_prove), or build without "
                           "config.mix_in_length");
    return merklize::prove_multi(binary, std::vector<std::uint64_t>(indices, indices + count));
  });
}

merklize_status merklize_prove_consistency(const merklize_tree *tree, uint64_t old_size,
                                           merklize_proof **proof) {
  return proved(proof, "merklize_prove_consistency", [&]() -> merklize_proof::value_type {
    const merklize_tree &t = required(tree, "merklize_prove_consistency", "tree");
    const merklize::tree &binary = binary_of(t, "merklize_prove_consistency");
    merklize::detail::check_consistency_sizes(old_size, binary.leaf_count());
    return merklize::prove_consistency(binary, old_size);
  });
}

merklize_status merklize_prove_source(merklize_builder *builder, const merklize_source *source,
                                      uint64_t index, merklize_proof **proof) {
  return proved(proof, "merklize_prove_source", [&] {
    merklize_builder &b = required(builder, "merklize_prove_source", "builder");
    const std::lock_guard<std::mutex> lock(b.mutex);
    opened_source opened(source, "merklize_prove_source");
    return prove_in(b, opened, index);
  });
}

void merklize_proof_free(merklize_proof *proof) {
  free_handle(proof, "merklize_proof_free", "proof");
}

merklize_proof_kind merklize_proof_get_kind(const merklize_proof *proof) {
  proof = live_or_null(proof, "merklize_proof_get_kind", "proof");
  if (!proof) return static_cast<merklize_proof_kind>(0);
  static constexpr merklize_proof_kind kinds[] = {MERKLIZE_PROOF_INCLUSION, MERKLIZE_PROOF_MULTI,
                                                  MERKLIZE_PROOF_CONSISTENCY, MERKLIZE_PROOF_KARY,
                                                  MERKLIZE_PROOF_KARY_MULTI};
  return kinds[proof->value.index()];
}

uint64_t merklize_proof_leaf_count(const merklize_proof *proof) {
  proof = live_or_null(proof, "merklize_proof_leaf_count", "proof");
  if (!proof) return 0;
  return std::visit(overloaded{[](const merklize::consistency_proof &p) { return p.new_size; },
                               [](const auto &p) { return p.leaf_count; }},
                    proof->value);
}

merklize_status merklize_proof_indices(const merklize_proof *proof, const uint64_t **indices,
                                       size_t *count) {
  return guarded([&] {
    const merklize_proof &p = required(proof, "merklize_proof_indices", "proof");
    required(indices, "merklize_proof_indices", "indices");
    required(count, "merklize_proof_indices", "count");
    *indices = p.indices.data();
    *count = p.indices.size();
  });
}

merklize_status merklize_proof_nodes(const merklize_proof *proof, const uint8_t **nodes,
                                     size_t *count) {
  return guarded([&] {
    const merklize_proof &p = required(proof, "merklize_proof_nodes", "proof");
    required(nodes, "merklize_proof_nodes", "nodes");
    required(count, "merklize_proof_nodes", "count");
    *nodes = p.nodes.empty() ? nullptr : p.nodes.front().data();
    *count = p.nodes.size();
  });
}

merklize_status merklize_proof_encode(const merklize_proof *proof, merklize_encoding encoding,
                                      merklize_bytes **encoded) {
  return guarded([&] {
    const merklize_proof &p = required(proof, "merklize_proof_encode", "proof");
    required(encoded, "merklize_proof_encode", "encoded");
    if (encoding != MERKLIZE_ENCODING_JSON && encoding != MERKLIZE_ENCODING_BINARY)
      throw argument_error("merklize_proof_encode: encoding " +
                           std::to_string(static_cast<int>(encoding)) +
                           ": MERKLIZE_ENCODING_JSON (0) or MERKLIZE_ENCODING_BINARY (1)");
    auto bytes = std::make_unique<merklize_bytes>();
    bytes->data = encode(p, encoding);
    *encoded = bytes.release();
  });
}

merklize_status merklize_proof_decode(const void *data, size_t size, merklize_encoding encoding,
                                      merklize_proof **proof) {
  return proved(proof, "merklize_proof_decode", [&] {
    if (size > 0) required(data, "merklize_proof_decode", "data");
    if (encoding != MERKLIZE_ENCODING_JSON && encoding != MERKLIZE_ENCODING_BINARY)
      throw argument_error("merklize_proof_decode: encoding " +
                           std::to_string(static_cast<int>(encoding)) +
                           ": MERKLIZE_ENCODING_JSON (0) or MERKLIZE_ENCODING_BINARY (1)");
    // Before a decoder copies the text: a size past what they read is refused unread.
    if (encoding == MERKLIZE_ENCODING_JSON && size > merklize::max_json_proof_bytes)
      throw decode_error("proof JSON: the text is " + std::to_string(size) +
                         " bytes, more than the " + std::to_string(merklize::max_json_proof_bytes) +
                         " a proof's JSON may hold");
    try {
      return decode(size ? data : "", size, encoding);
    } catch (const merklize::error &e) {
      throw decode_error(e.what());
    }
  });
}

merklize_status merklize_proof_verify(const merklize_proof *proof, const uint8_t *leaves,
                                      size_t leaf_count, const uint8_t root[MERKLIZE_DIGEST_SIZE],
                                      int *valid) {
  return verify_call(proof, leaves, leaf_count, root, nullptr, false, valid,
                     "merklize_proof_verify");
}

merklize_status merklize_proof_verify_pinned(const merklize_proof *proof, const uint8_t *leaves,
                                             size_t leaf_count,
                                             const uint8_t root[MERKLIZE_DIGEST_SIZE],
                                             const merklize_proof_expectations *expect,
                                             int *valid) {
  return verify_call(proof, leaves, leaf_count, root, expect, true, valid,
                     "merklize_proof_verify_pinned");
}

merklize_status merklize_verify_consistency(const merklize_proof *proof,
                                            const uint8_t old_root[MERKLIZE_DIGEST_SIZE],
                                            const uint8_t new_root[MERKLIZE_DIGEST_SIZE],
                                            int *valid) {
  return consistency_call(proof, old_root, new_root, nullptr, false, valid,
                          "merklize_verify_consistency");
}

merklize_status merklize_verify_consistency_pinned(const merklize_proof *proof,
                                                   const uint8_t old_root[MERKLIZE_DIGEST_SIZE],
                                                   const uint8_t new_root[MERKLIZE_DIGEST_SIZE],
                                                   const merklize_proof_expectations *expect,
                                                   int *valid) {
  return consistency_call(proof, old_root, new_root, expect, true, valid,
                          "merklize_verify_consistency_pinned");
}

} // extern "C"
