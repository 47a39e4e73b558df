// SPDX-License-Identifier: Apache-2.0 OR MIT
// k-ary trees kept on the device and updated in place (resident_kary_tree.hpp) against the host
// reference (kary.hpp) rebuilt from scratch over the host's copy with the updates applied: every
// level, bit for bit, after each batch, arities 2, 4, 8 and 16 at sizes around their powers,
// every k-ary hash, shapes promote and zero; batches of one leaf, the last leaf, every leaf, a
// few at random with repeats (the last wins), none; 1% of about 4096 leaves, rounds in a row;
// levels listed, hashed whole (past a share of their groups dirty) or both, each share forced.
// Before each batch the nodes it must write are poisoned on the device, so a node the update
// leaves out shows. The refusals change nothing. Appends (1, 2, 3, k - 1, k, k + 1, k^2 - 1, k^2,
// k^2 + 1 leaves, one after another, across k^m) against the tree built from scratch, the right
// edge they rewrite poisoned first. And the plans (kary_update_plan.hpp) on their own, with the
// choice of the levels hashed whole.
#include "kary_resident_helpers.hpp"

#include <merklize/engine/resident_kary_tree.hpp>

#include <catch2/catch.hpp>

#include <random>
#include <tuple>

using Catch::Matchers::Contains;

namespace {

using test::hasher;
using test::poison;

// The nodes of the tree an append to `total` leaves rewrites (each level's from the parent of
// the first new node on) set to a poison pattern on the device.
void poison_edge(const merklize::resident_kary_tree &t, std::uint64_t total) {
  const merklize::device_tree &d = t.on_device();
  const unsigned k = d.options().arity;
  const std::vector<std::uint8_t> pattern(merklize::node_bytes, 0xA5);
  std::uint64_t first = t.leaf_count(), size = total;
  for (unsigned level = 1; level <= d.top(); ++level) {
    first /= k;
    size = (size + k - 1) / k;
    for (std::uint64_t node = first; node < std::min(size, d.level_sizes()[level]); ++node)
      hasher().queue().enqueueWriteBuffer(d.level_buffer(level), CL_TRUE,
                                          (d.level_first(level) + node) * merklize::node_bytes,
                                          merklize::node_bytes, pattern.data());
  }
}

using test::random_leaves;

// Applies `indices` <- `values` to the tree and the host copy, then checks every level.
void check_update(merklize::resident_kary_tree &t, std::vector<merklize::digest> &host,
                  const std::vector<std::uint64_t> &indices,
                  const std::vector<merklize::digest> &values) {
  poison(t, indices);
  const merklize::digest root = t.update(indices, values);
  for (std::size_t i = 0; i < indices.size(); ++i)
    host[static_cast<std::size_t>(indices[i])] = values[i];
  const auto expected = merklize::kary_levels(host, t.options());
  CHECK(t.levels() == expected);
  CHECK(root == expected.back().front());
  CHECK(t.root() == root);
}

} // namespace

TEST_CASE("k-ary update plans list each level's groups once, the short one apart",
          "[resident][kary]") {
  // Every level listed (a share above 100%): what the plans were before levels went whole.
  const auto p = merklize::plan_kary_update({10, 3, 1}, 4, {9, 2, 9}, 101);
  CHECK(p.list == std::vector<std::uint64_t>{2, 9, 0});
  CHECK(p.batch.sources == std::vector<std::uint32_t>{1, 2}); // leaf 9 takes the last update
  REQUIRE(p.levels.size() == 2);
  CHECK((p.levels[0].first == 2 && p.levels[0].groups == 1 && p.levels[0].short_group));
  CHECK((p.levels[1].first == 3 && p.levels[1].groups == 0 && p.levels[1].short_group));
  CHECK((!p.levels[0].whole && !p.levels[1].whole));
  const auto full = merklize::plan_kary_update({16, 4, 1}, 4, {15, 0}, 101);
  CHECK(full.list == std::vector<std::uint64_t>{0, 15, 0, 3, 0});
  CHECK((!full.levels[0].short_group && !full.levels[1].short_group));
  CHECK_THROWS_WITH(merklize::plan_kary_update({10, 3, 1}, 4, {10}), Contains("out of range"));
}

TEST_CASE("k-ary update plans hash a level whole past a share of its groups, and those above",
          "[resident][kary]") {
  // 64 leaves of arity 4, the default 25%: level 0's 16 groups list at most 4, level 1's 4 at
  // most 1, level 2's 1 none, so the root is hashed whole.
  const auto p = merklize::plan_kary_update({64, 16, 4, 1}, 4, {9, 2, 9});
  CHECK(merklize::kary_whole_level_percent == 25);
  for (const merklize::tuning &row : merklize::tuning_table()) // every device's share a share
    CHECK((row.kary_whole_level_percent > 0 && row.kary_whole_level_percent <= 100));
  CHECK(p.list == std::vector<std::uint64_t>{2, 9, 0, 2, 0});
  REQUIRE(p.levels.size() == 3);
  CHECK((!p.levels[0].whole && p.levels[0].groups == 2));
  CHECK((!p.levels[1].whole && p.levels[1].first == 4 && p.levels[1].groups == 1));
  CHECK((p.levels[2].whole && p.levels[2].groups == 0 && p.levels[2].first == 5));
  // Five groups of level 0 dirty (of 16: past 4): every level whole, only the leaves listed.
  const auto many = merklize::plan_kary_update({64, 16, 4, 1}, 4, {0, 4, 8, 12, 63});
  CHECK(many.list == std::vector<std::uint64_t>{0, 4, 8, 12, 63});
  for (const auto &step : many.levels)
    CHECK((step.whole && step.groups == 0 && !step.short_group && step.first == 5));
  // Four are listed; at 0% everything above the leaves is whole, above 100% nothing is.
  CHECK(!merklize::plan_kary_update({64, 16, 4, 1}, 4, {0, 4, 8, 63}).levels[0].whole);
  const auto none = merklize::plan_kary_update({64, 16, 4, 1}, 4, {9}, 0);
  CHECK((none.list == std::vector<std::uint64_t>{9} && none.levels[0].whole));
  std::vector<std::uint64_t> every(64);
  for (std::uint64_t i = 0; i < 64; ++i)
    every[static_cast<std::size_t>(i)] = i;
  const auto all = merklize::plan_kary_update({64, 16, 4, 1}, 4, every, 101);
  CHECK(all.list.size() == 64 + 16 + 4 + 1);
  for (const auto &step : all.levels)
    CHECK(!step.whole);
  // A short group is never listed, so never counts: 10 leaves, arity 4, level 0's 3 groups list
  // none at 25%, so its first dirty whole group makes level 0 whole, its short one does not.
  const auto last = merklize::plan_kary_update({10, 3, 1}, 4, {9});
  CHECK((!last.levels[0].whole && last.levels[0].short_group));
  CHECK((!last.levels[1].whole && last.levels[1].short_group));
  const auto first = merklize::plan_kary_update({10, 3, 1}, 4, {2});
  CHECK((first.levels[0].whole && first.levels[1].whole && first.list.size() == 1));
}

TEST_CASE("k-ary update plans: once a level is whole every level above is, and lists fit",
          "[resident][kary]") {
  std::mt19937_64 random(37);
  for (unsigned k : {2u, 4u, 16u})
    for (std::uint64_t n : {std::uint64_t(1), std::uint64_t(k) + 1, std::uint64_t(5000)})
      for (unsigned percent : {0u, 10u, 25u, 75u, 101u})
        for (std::uint64_t batch : {std::uint64_t(1), n / 100 + 1, n / 3 + 1, n}) {
          INFO("k=" << k << " n=" << n << " " << percent << "% batch " << batch);
          std::vector<std::uint64_t> sizes = {n};
          while (sizes.back() > 1)
            sizes.push_back((sizes.back() + k - 1) / k);
          std::vector<std::uint64_t> indices(static_cast<std::size_t>(batch));
          for (auto &i : indices)
            i = random() % n;
          const auto plan = merklize::plan_kary_update(sizes, k, indices, percent);
          REQUIRE(plan.levels.size() == sizes.size() - 1);
          bool whole = false;
          for (std::size_t level = 0; level < plan.levels.size(); ++level) {
            const auto &step = plan.levels[level];
            whole = whole || step.whole;
            CHECK(step.whole == whole);
            CHECK(step.first + step.groups <= plan.list.size());
            if (!step.whole && percent <= 100)
              CHECK(step.groups * 100 <= sizes[level + 1] * percent);
          }
        }
}

TEST_CASE("k-ary trees on the device updated in place match the host's rebuilt, every level",
          "[resident][kary]") {
  auto &h = hasher();
  std::mt19937_64 random(31);
  for (unsigned k : {2u, 4u, 8u, 16u})
    for (std::uint64_t n : {std::uint64_t(1), std::uint64_t(2), std::uint64_t(k) - 1,
                            std::uint64_t(k), std::uint64_t(k) + 1, std::uint64_t(k) * k - 1,
                            std::uint64_t(k) * k, std::uint64_t(k) * k + 1, std::uint64_t(300)})
      for (auto hash : {merklize::hash_kind::sha256, merklize::hash_kind::blake3,
                        merklize::hash_kind::keccak256, merklize::hash_kind::sha3_256})
        for (auto pad : {merklize::shape::promote, merklize::shape::zero}) {
          const merklize::kary_options options{hash, k, pad};
          INFO("k=" << k << " n=" << n << " " << merklize::to_string(hash) << " "
                    << merklize::to_string(pad));
          auto host = random_leaves(n);
          merklize::resident_kary_tree t(h, host, options);
          CHECK(t.root() == merklize::kary_root(host, options));
          check_update(t, host, {0}, random_leaves(1));     // one leaf
          check_update(t, host, {n - 1}, random_leaves(1)); // the last
          std::vector<std::uint64_t> every(static_cast<std::size_t>(n));
          for (std::uint64_t i = 0; i < n; ++i)
            every[static_cast<std::size_t>(i)] = n - 1 - i; // every leaf, backwards
          check_update(t, host, every, random_leaves(n));
          std::vector<std::uint64_t> some(5); // repeats likely on small trees: the last wins
          for (auto &i : some)
            i = random() % n;
          some.push_back(some.front());
          check_update(t, host, some, random_leaves(some.size()));
          CHECK(t.update(std::vector<std::uint64_t>{}, {}) == t.root()); // none
        }
}

TEST_CASE("k-ary trees on the device updated listed, whole or both match the host's rebuilt",
          "[resident][kary]") {
  auto &h = hasher();
  std::mt19937_64 random(3137);
  for (unsigned k : {2u, 4u, 8u, 16u})
    for (std::uint64_t n :
         {std::uint64_t(1), std::uint64_t(k) - 1, std::uint64_t(k), std::uint64_t(k) + 1,
          std::uint64_t(k) * k - 1, std::uint64_t(k) * k + 1, std::uint64_t(k) * k * k + 3})
      for (auto hash : {merklize::hash_kind::sha256, merklize::hash_kind::blake3})
        for (auto pad : {merklize::shape::promote, merklize::shape::zero}) {
          const merklize::kary_options options{hash, k, pad};
          auto host = random_leaves(n);
          merklize::resident_kary_tree t(h, host, options);
          t.set_elect_per_mille(0); // every batch planned on the host: the paths this checks
          // Batches of one leaf, about 1%, about 30% with repeats, and every leaf twice over.
          for (std::uint64_t batch : {std::uint64_t(1), n / 100 + 1, n * 3 / 10 + 1, 2 * n})
            for (unsigned percent : {0u, merklize::kary_whole_level_percent, 75u, 101u}) {
              INFO("k=" << k << " n=" << n << " " << merklize::to_string(hash) << " "
                        << merklize::to_string(pad) << " batch " << batch << " " << percent << "%");
              t.set_whole_level_percent(percent);
              std::vector<std::uint64_t> indices(static_cast<std::size_t>(batch));
              for (std::size_t i = 0; i < indices.size(); ++i)
                indices[i] = batch == 2 * n ? i % n : random() % n;
              check_update(t, host, indices, random_leaves(batch));
              const auto plan =
                  merklize::plan_kary_update(t.on_device().level_sizes(), k, indices, percent);
              unsigned listed = 0;
              while (listed < plan.levels.size() && !plan.levels[listed].whole)
                ++listed;
              const merklize::kary_update_split &split = t.last_split();
              CHECK(split.listed_levels == listed);
              CHECK(split.listed_levels + split.whole_levels == t.on_device().top());
              CHECK(split.plan_ms >= 0);
            }
        }
}

TEST_CASE("k-ary trees on the device refuse bad batches and change nothing", "[resident][kary]") {
  auto &h = hasher();
  const merklize::kary_options options{merklize::hash_kind::sha256, 4, merklize::shape::zero};
  const auto host = random_leaves(17);
  merklize::resident_kary_tree t(h, host, options);
  const auto before = t.levels();
  CHECK_THROWS_WITH(t.update({3, 17}, random_leaves(2)), Contains("leaf index 17 out of range"));
  CHECK_THROWS_WITH(t.update({3, 4}, random_leaves(1)), Contains("2 indices but 1 leaves"));
  CHECK(t.levels() == before);
  CHECK(t.root() == before.back().front());
  CHECK_THROWS_WITH(merklize::resident_kary_tree(h, {}, options), Contains("no leaves"));
  CHECK_THROWS(merklize::resident_kary_tree(
      h, host, {merklize::hash_kind::sha256, 1, merklize::shape::promote}));
}

TEST_CASE("k-ary trees on the device updated in place prove their new leaves", "[resident][kary]") {
  auto &h = hasher();
  const merklize::kary_options options{merklize::hash_kind::blake3, 8, merklize::shape::promote};
  auto host = random_leaves(100);
  merklize::resident_kary_tree t(h, host, options);
  const auto leaf = random_leaves(1);
  t.update({99}, leaf);
  host[99] = leaf[0];
  const merklize::kary_proof p = t.prove(99);
  CHECK(p.siblings ==
        merklize::kary_prove(merklize::kary_levels(host, options), options, 99).siblings);
  CHECK(merklize::kary_verify(p, leaf[0], t.root()));
}

TEST_CASE("k-ary append plans list each level's right edge", "[resident][kary]") {
  // 5 leaves of arity 4 grown to 10: level 1's group 1 (leaves 4..7) completed, group 2 short.
  const auto p = merklize::plan_kary_append(5, {10, 3, 1}, 4);
  CHECK(p.list == std::vector<std::uint64_t>{1});
  CHECK((p.levels[0].groups == 1 && p.levels[0].short_group));
  CHECK((p.levels[1].groups == 0 && p.levels[1].short_group));
  const auto q = merklize::plan_kary_append(16, {17, 5, 2, 1}, 4);
  CHECK(q.list.empty()); // leaf 16 alone in a short group, a level each up to the new root
}

TEST_CASE("k-ary trees on the device grown by appends match the host's built from scratch",
          "[resident][kary]") {
  auto &h = hasher();
  for (unsigned k : {2u, 4u, 8u, 16u})
    for (auto hash : {merklize::hash_kind::sha256, merklize::hash_kind::keccak256})
      for (auto pad : {merklize::shape::promote, merklize::shape::zero}) {
        const merklize::kary_options options{hash, k, pad};
        auto host = random_leaves(1);
        merklize::resident_kary_tree t(h, host, options);
        // across k, k^2 and k^3 (for k = 16, 256): 1, 2, 3, k - 1, k, k + 1 leaves at a time
        for (std::uint64_t m :
             {std::uint64_t(1), std::uint64_t(2), std::uint64_t(3), std::uint64_t(k) - 1,
              std::uint64_t(k), std::uint64_t(k) + 1, std::uint64_t(k) * k - 1,
              std::uint64_t(k) * k, std::uint64_t(k) * k + 1, std::uint64_t(1)}) {
          INFO("k=" << k << " " << merklize::to_string(hash) << " " << merklize::to_string(pad)
                    << " " << host.size() << " + " << m);
          const auto more = random_leaves(m);
          poison_edge(t, host.size() + m);
          const merklize::digest root = t.append(more);
          host.insert(host.end(), more.begin(), more.end());
          const auto expected = merklize::kary_levels(host, options);
          CHECK(t.leaf_count() == host.size());
          CHECK(t.levels() == expected);
          CHECK(root == expected.back().front());
        }
        check_update(t, host, {0, host.size() - 1}, random_leaves(2)); // updates after appends
        const auto leaf = host[host.size() / 2];
        CHECK(merklize::kary_verify(t.prove(host.size() / 2), leaf, t.root()));
      }
}

TEST_CASE("k-ary trees on the device take batches of 1% of a larger tree, rounds in a row",
          "[resident][kary]") {
  auto &h = hasher();
  std::mt19937_64 random(3136);
  for (const auto &[k, n, pad] : {std::tuple{4u, std::uint64_t(4099), merklize::shape::promote},
                                  std::tuple{16u, std::uint64_t(4097), merklize::shape::zero}}) {
    const merklize::kary_options options{merklize::hash_kind::sha256, k, pad};
    INFO("k=" << k << " n=" << n);
    auto host = random_leaves(n);
    merklize::resident_kary_tree t(h, host, options);
    for (int round = 0; round < 3; ++round) {
      std::vector<std::uint64_t> batch(static_cast<std::size_t>(n / 100));
      for (auto &i : batch)
        i = random() % n;
      check_update(t, host, batch, random_leaves(batch.size()));
    }
  }
}
