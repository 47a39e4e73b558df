// SPDX-License-Identifier: Apache-2.0 OR MIT
// tests/vectors/merkle.json (reference blake3 package and hashlib): every blake3, blake3-parent
// and sha256 case, both shapes, roots and every given level, through the host reference, the
// host-buffer API and the device-buffer API.
#include "helpers.hpp"

#include <catch2/catch.hpp>

#include <map>

namespace {

const std::vector<std::uint8_t> &leaves_for(std::uint64_t n, merklize::hash_kind hash) {
  static std::map<std::pair<std::uint64_t, merklize::hash_kind>, std::vector<std::uint8_t>> cache;
  auto found = cache.find({n, hash});
  if (found == cache.end())
    found = cache.emplace(std::make_pair(n, hash), test::counting_leaves(n, hash)).first;
  return found->second;
}

struct vector_case {
  merklize::tree_options options;
  std::uint64_t n;
  const json::value *json;
};

std::vector<vector_case> cases_of(const std::string &hash) {
  std::vector<vector_case> cases;
  for (const auto &c : test::merkle_vectors()["cases"].items)
    if (c["hash"].str == hash)
      cases.push_back({{merklize::parse_hash_kind(hash), merklize::parse_shape(c["pad"].str)},
                       c["n"].u64(),
                       &c});
  return cases;
}

void check_levels(const merklize::tree &t, const json::value &c) {
  CHECK(merklize::to_hex(t.root()) == c["root"].str);
  if (!c.has("levels")) return;
  const auto &levels = c["levels"].items;
  REQUIRE(levels.size() == t.depth() + 1);
  // The vectors list zero-shape levels padded to a power of two; the tree stores only the
  // nodes that are not all padding, and the rest must be the zero-subtree roots it hashes with.
  const auto zeros = merklize::zero_subtree_roots(t.options().hash, t.depth());
  for (unsigned k = 0; k < levels.size(); ++k) {
    const std::size_t stored = t.layout().level_size(k);
    const bool padded = t.options().shape == merklize::shape::zero;
    REQUIRE(levels[k].items.size() == (padded ? std::size_t(1) << (t.depth() - k) : stored));
    for (std::size_t i = 0; i < levels[k].items.size(); ++i)
      CHECK(levels[k].items[i].str == merklize::to_hex(i < stored ? t.node(k, i) : zeros[k]));
  }
}

} // namespace

TEST_CASE("merkle.json: every blake3, blake3-parent and sha256 case", "[vectors]") {
  const std::string hash = GENERATE(as<std::string>{}, "blake3", "blake3-parent", "sha256");
  const auto cases = cases_of(hash);
  REQUIRE(cases.size() >= 48);
  for (const auto &vc : cases) {
    INFO(hash << " " << merklize::to_string(vc.options.shape) << " n=" << vc.n);
    const auto &leaves = leaves_for(vc.n, vc.options.hash);

    // The oracle itself must agree with the vectors.
    check_levels(merklize::reference_tree(leaves.data(), leaves.size(), vc.options), *vc.json);

    merklize::merkleizer m(test::test_device(), {vc.options});
    const merklize::tree t = m.build(leaves);
    check_levels(t, *vc.json);

    // Device buffers in and out, output poisoned first.
    cl::Buffer in(m.context(), CL_MEM_READ_ONLY, leaves.size());
    m.queue().enqueueWriteBuffer(in, CL_TRUE, 0, leaves.size(), leaves.data());
    const std::size_t out_bytes = merklize::merkleizer::output_node_count(vc.n) * 32;
    cl::Buffer out = test::poisoned_buffer(m.context(), m.queue(), out_bytes);
    m.enqueue_build(in, vc.n, out).back().wait();
    const auto nodes = test::read_buffer(m.queue(), out, out_bytes);
    CHECK(merklize::to_hex(nodes.data() + out_bytes - 32, 32) == (*vc.json)["root"].str);
    CHECK(nodes == test::device_nodes_of(t));
  }
}
