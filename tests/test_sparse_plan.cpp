// SPDX-License-Identifier: Apache-2.0 OR MIT
// The sparse tree's trie and batch plans (plan/sparse_trie.hpp), without a device: the plan
// carried out on the host (each dirty branch from its children, a height at a time, as
// kernels/sparse.cl does) must give the host reference's root (core/sparse.hpp) after every
// batch, with inserts, changes, deletions, repeats and empty batches; the plan itself keeps its
// promises (dirty branches by height, children lower, each slot written once).
#include "sparse_helpers.hpp"
#include <merklize/plan/sparse_trie.hpp>

#include <catch2/catch.hpp>

#if defined(CL_VERSION_1_0)
#error "merklize/plan/sparse_trie.hpp must not pull in the OpenCL headers"
#endif

#include <map>
#include <random>
#include <set>

using Catch::Matchers::Contains;
using merklize::digest;

namespace {

// The device's part, on the host: branch digests by slot, kept across batches as the device's.
struct host_mirror {
  explicit host_mirror(merklize::sparse_options o)
      : options(o), zeros(merklize::zero_subtree_roots(o.hash, o.depth)) {}

  merklize::sparse_options options;
  std::vector<digest> zeros;
  std::map<std::uint32_t, digest> branches;

  digest raised(const merklize::sparse_trie &trie, merklize::sparse_ref r, unsigned to) const {
    const digest node = merklize::sparse_trie::is_branch(r)
                            ? branches.at(r & ~merklize::sparse_branch_bit)
                            : trie.value_of(r);
    return merklize::sparse_raise(options, zeros, node, trie.key_of(r), trie.height_of(r), to);
  }

  digest carry_out(const merklize::sparse_trie &trie, const merklize::sparse_plan &plan) {
    for (const auto &e : plan.entries) {
      const digest left = raised(trie, e.child[0], e.height - 1);
      const digest right = raised(trie, e.child[1], e.height - 1);
      branches[e.branch] =
          merklize::node_hash(options.hash, left, right, e.height == options.depth);
    }
    if (trie.root() == merklize::sparse_none) return merklize::sparse_empty_root(options, zeros);
    return raised(trie, trie.root(), options.depth);
  }
};

void check_plan_promises(const merklize::sparse_trie &trie, const merklize::sparse_plan &plan) {
  std::uint32_t covered = 0;
  for (const auto &[first, count] : plan.groups) {
    CHECK(first == covered);
    covered += count;
    for (std::uint32_t i = first; i < first + count; ++i)
      CHECK(plan.entries[i].height == plan.entries[first].height);
    if (first > 0) CHECK(plan.entries[first - 1].height < plan.entries[first].height);
  }
  CHECK(covered == plan.entries.size());
  for (const auto &e : plan.entries)
    for (unsigned side = 0; side < 2; ++side)
      CHECK(e.child_height[side] < e.height);
  CHECK(std::set<std::uint32_t>(plan.leaf_slots.begin(), plan.leaf_slots.end()).size() ==
        plan.leaf_slots.size());
  CHECK(std::set<std::uint32_t>(plan.branch_slots.begin(), plan.branch_slots.end()).size() ==
        plan.branch_slots.size());
  for (const std::uint32_t slot : plan.leaf_slots)
    CHECK(slot < trie.leaf_slots());
}

} // namespace

TEST_CASE("a sparse trie's plans, carried out on the host, give the reference's roots",
          "[sparse]") {
  std::mt19937_64 rng(2026);
  for (const auto hash : {merklize::hash_kind::sha256, merklize::hash_kind::blake3})
    for (const unsigned depth : {1u, 2u, 3u, 9u, 64u, 256u}) {
      INFO(merklize::to_string(hash) << " depth " << depth);
      const merklize::sparse_options options{hash, depth};
      merklize::sparse_trie trie(depth);
      merklize::sparse_reference reference(options);
      host_mirror mirror(options);
      const std::uint64_t pool = depth < 9 ? (1ull << depth) : 300;
      for (int batch = 0; batch < 25; ++batch) {
        std::vector<digest> keys, values;
        const std::uint64_t size = batch == 3 ? 0 : batch % 7 == 6 ? 200 : rng() % 20;
        const bool deleting = batch % 5 == 4; // mostly zeros: the trie shrinks, maybe to nothing
        for (std::uint64_t k = 0; k < size; ++k) {
          keys.push_back(test::pooled_key(depth, pool, rng));
          digest value{};
          if (!deleting || rng() % 8 == 0) value[rng() % 32] = static_cast<std::uint8_t>(rng() | 1);
          values.push_back(value);
        }
        const auto plan = trie.apply(keys.data(), values.data(), keys.size());
        check_plan_promises(trie, plan);
        CHECK(mirror.carry_out(trie, plan) == reference.update(keys, values));
        CHECK(trie.size() == reference.size());
      }
    }
}

TEST_CASE("a sparse trie refuses a batch with a key out of range whole", "[sparse]") {
  merklize::sparse_trie trie(8);
  digest a{}, b{};
  a[31] = 7;
  b[30] = 1; // bit 8
  const digest one = [] {
    digest d{};
    d[0] = 1;
    return d;
  }();
  trie.apply(&a, &one, 1);
  const digest keys[] = {a, b}, values[] = {digest{}, one};
  CHECK_THROWS_WITH(trie.apply(keys, values, 2), Contains("has bit 8 set"));
  CHECK(trie.size() == 1);
  CHECK(trie.path(a).found);
  CHECK_THROWS_WITH(merklize::sparse_trie(0), Contains("depth 0"));
}
