// SPDX-License-Identifier: Apache-2.0 OR MIT
// A proof's header (merklize_proof_hash, _shape, _depth, _arity, _mixed_length) and the
// verifier's pins (merklize_proof_expectations): a root binds none of the header, so a verifier
// compares it with what it knows (docs/PROOFS.md, "What a proof binds").
#include "proof_pins.hpp"

#include <merklize/proofs/kary_verify.hpp>
#include <merklize/proofs/proof.hpp>

#include <cstring>
#include <string>

namespace merklize_capi {
namespace {

merklize::detail::proof_header binary_header(const tree_options &options, std::uint64_t leaves) {
  return {options.hash, options.shape, leaves, merklize::detail::root_depth_of(options, leaves), 2};
}

// A k-ary header whose arity a k-ary tree does not take has depth 0 (its height has no end).
merklize::detail::proof_header kary_header(const merklize::kary_options &options,
                                           std::uint64_t leaves) {
  try {
    return merklize::detail::kary_header(options, leaves);
  } catch (const merklize::error &) {
    return {options.hash, options.shape, leaves, 0, options.arity};
  }
}

// The kinds as their JSON's "kind" names them, by merklize_proof_kind.
const char *kind_name(int kind) {
  static const char *const names[] = {"any",         "inclusion",      "multiproof",
                                      "consistency", "kary-inclusion", "kary-multiproof"};
  return kind >= 0 && kind <= 5 ? names[kind] : "unknown";
}

} // namespace

merklize::detail::proof_header header_of(const merklize_proof &p) {
  return std::visit(
      overloaded{
          [](const merklize::inclusion_proof &q) { return binary_header(q.options, q.leaf_count); },
          [](const merklize::multiproof &q) { return binary_header(q.options, q.leaf_count); },
          [](const merklize::consistency_proof &q) { return binary_header(q.options, q.new_size); },
          [](const merklize::kary_proof &q) { return kary_header(q.options, q.leaf_count); },
          [](const merklize::kary_multiproof &q) { return kary_header(q.options, q.leaf_count); }},
      p.value);
}

proof_pins pins_of(const merklize_proof_expectations *expect, const char *function) {
  const merklize_proof_expectations &e = required(expect, function, "expect");
  check_struct_size(e.size, sizeof e, "expect");
  proof_pins pins;
  if (e.kind < 0 || e.kind > 5)
    throw argument_error("expect.kind is " + std::to_string(e.kind) +
                         ": 0 (any) or a merklize_proof_kind (1 to 5)");
  pins.kind = e.kind;
  if (e.hash) pins.expect.hash = for_field("expect.hash", [&] { return parse_hash_kind(e.hash); });
  if (e.shape) pins.expect.shape = for_field("expect.shape", [&] { return parse_shape(e.shape); });
  if (e.depth < -1 || e.depth > 64)
    throw argument_error("expect.depth is " + std::to_string(e.depth) +
                         ": -1 (any) or a depth of 0 to 64");
  if (e.depth >= 0) pins.expect.depth = static_cast<unsigned>(e.depth);
  if (e.arity) pins.expect.arity = e.arity;
  if (e.leaf_count) pins.expect.leaf_count = e.leaf_count;
  return pins;
}

merklize::verification check_kind(const merklize_proof &p, int kind) {
  const int held = static_cast<int>(merklize_proof_get_kind(&p));
  if (kind == 0 || kind == held) return {true, {}};
  return merklize::detail::reject(std::string("the proof is of kind ") + kind_name(held) +
                                  ", not " + kind_name(kind));
}

} // namespace merklize_capi

using namespace merklize_capi;

extern "C" {

const char *merklize_proof_hash(const merklize_proof *proof) {
  return proof ? merklize::to_string(header_of(*proof).hash) : "";
}

const char *merklize_proof_shape(const merklize_proof *proof) {
  return proof ? merklize::to_string(header_of(*proof).shape) : "";
}

uint32_t merklize_proof_depth(const merklize_proof *proof) {
  return proof ? header_of(*proof).depth : 0;
}

uint32_t merklize_proof_arity(const merklize_proof *proof) {
  return proof ? header_of(*proof).arity : 0;
}

int merklize_proof_mixed_length(const merklize_proof *proof, uint64_t *length) {
  const auto *inclusion = proof ? std::get_if<merklize::inclusion_proof>(&proof->value) : nullptr;
  if (!inclusion || !inclusion->mixed_length) return 0;
  if (length) *length = *inclusion->mixed_length;
  return 1;
}

void merklize_proof_expectations_init(merklize_proof_expectations *expect) {
  if (!expect) return;
  std::memset(expect, 0, sizeof *expect);
  expect->size = sizeof *expect;
  expect->depth = -1;
}

} // extern "C"
