// SPDX-License-Identifier: Apache-2.0 OR MIT
// Where Bao's outboard stores each node of BLAKE3's tree (formats/bao.hpp: bao_parent_position,
// bao_node_slot, the arithmetic kernels/bao_outboard.cl uses), against the host's pre-order walk
// (bao_parents_in_preorder), without a device. Built without OpenCL, sanitized.
#include "host_helpers.hpp"

#include <merklize/formats/bao.hpp>

#include <catch2/catch.hpp>

#include <cstring>
#include <string>

#if defined(CL_VERSION_1_0)
#error "merklize/formats/bao.hpp must not pull in the OpenCL headers"
#endif

namespace {

// Every node of merklize's tree over `chunks` random chaining values (each distinct, so a node's
// value names it; a lone node moved up has its child's value, and so its slot) is in the slot
// bao_node_slot gives, in the outboard the host walk lays out, and every parent's pair is at
// bao_parent_position. Returns the first node found elsewhere, or "" if none is.
std::string misplaced_node(std::uint64_t chunks) {
  const auto bytes = test::random_bytes(chunks * merklize::node_bytes);
  std::vector<merklize::digest> cvs(chunks);
  std::memcpy(cvs.data(), bytes.data(), bytes.size());
  merklize::tree t(chunks, {merklize::hash_kind::blake3_parent, merklize::shape::promote});
  merklize::finish_tree(t, 0, cvs);
  std::vector<merklize::digest> slots; // the host walk's outboard, 32 bytes a slot
  merklize::bao_parents_in_preorder(t, [&](const merklize::digest &l, const merklize::digest &r) {
    slots.push_back(l);
    slots.push_back(r);
  });
  std::uint64_t filled = 0; // by the real nodes: the chunks and the parents but the root
  for (unsigned level = 0; level <= t.depth(); ++level)
    for (std::uint64_t index = 0; index < t.layout().level_size(level); ++index) {
      const std::string node =
          "node (" + std::to_string(level) + ", " + std::to_string(index) + ")";
      const auto slot = merklize::bao_node_slot(chunks, level, index);
      if (slot.has_value() != (level < t.depth())) return node + ": a slot only below the root";
      if (slot && (*slot >= slots.size() || slots[*slot] != t.node(level, index)))
        return node + ": not in its slot";
      const bool parent = level > 0 && ((2 * index + 1) << (level - 1)) < chunks;
      if (slot && (level == 0 || parent)) ++filled;
      if (!parent) continue;
      const std::uint64_t p = merklize::bao_parent_position(chunks, level, index);
      if (p >= chunks - 1 || slots[2 * p] != t.node(level - 1, 2 * index) ||
          slots[2 * p + 1] != t.node(level - 1, 2 * index + 1))
        return node + ": its pair is not at its position";
    }
  // Distinct values in distinct slots: the slots are filled one to one.
  if (filled != slots.size()) return std::to_string(filled) + " slots filled";
  return "";
}

} // namespace

TEST_CASE("Bao outboard positions equal the host walk's, every node", "[bao]") {
  std::vector<std::uint64_t> counts;
  for (std::uint64_t c = 2; c <= 600; ++c)
    counts.push_back(c);
  for (unsigned k = 10; k <= 16; ++k)
    for (std::uint64_t c : {(std::uint64_t(1) << k) - 1, std::uint64_t(1) << k,
                            (std::uint64_t(1) << k) + 1, (std::uint64_t(3) << (k - 1)) + 1})
      counts.push_back(c);
  for (const std::uint64_t chunks : counts) {
    INFO(chunks << " chunks");
    CHECK(misplaced_node(chunks) == "");
  }
}

TEST_CASE("Bao outboard positions of worked trees", "[bao]") {
  // 4 chunks: [ab | cd], [a | b], [c | d]. 5: [abcd | e], [ab | cd], [a | b], [c | d].
  CHECK(merklize::bao_parent_position(4, 2, 0) == 0);
  CHECK(merklize::bao_parent_position(4, 1, 0) == 1);
  CHECK(merklize::bao_parent_position(4, 1, 1) == 2);
  CHECK(merklize::bao_node_slot(5, 0, 4) == std::optional<std::uint64_t>(1)); // e, moved up twice
  CHECK(merklize::bao_node_slot(5, 2, 0) == std::optional<std::uint64_t>(0));
  CHECK(merklize::bao_node_slot(5, 0, 3) == std::optional<std::uint64_t>(7));
  CHECK_FALSE(merklize::bao_node_slot(5, 3, 0).has_value());
  // The largest inputs: 2^54 chunks of 2^64 bytes; the last chunk's parent is the last pair.
  const std::uint64_t huge = std::uint64_t(1) << 54;
  CHECK(merklize::bao_parent_position(huge, 1, huge / 2 - 1) == huge - 2);
  CHECK(merklize::bao_parent_position(huge, 54, 0) == 0);
}
