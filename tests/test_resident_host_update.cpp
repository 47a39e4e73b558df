// SPDX-License-Identifier: Apache-2.0 OR MIT
// Resident trees' updates applied by the host's cores to the mapped levels (host_updater.hpp)
// against the host reference rebuilt over the host's copy, and against the kernels' path on a
// twin tree: every level bit for bit after each batch, for sha256, rfc6962 and blake3, shapes
// promote and zero and a fixed depth, at awkward sizes; batches of the first leaf, the last,
// every leaf, 1% at random, repeats (the last value wins) and none. Before each batch the host
// tree's levels are poisoned where the batch must write, so a node left out shows. Refusals
// change nothing; the choice of engine follows the device type and the hash.
#include "block_helpers.hpp"
#include "resident_helpers.hpp"

#include <merklize/engine/resident_tree.hpp>

#include <catch2/catch.hpp>

#include <random>

using Catch::Matchers::Contains;

namespace {

using merklize::resident_update;
using test::hasher;

// The nodes of every level the batch writes set to the poison pattern on the device.
void poison_dirty(const merklize::resident_tree &t, const std::vector<std::uint64_t> &indices) {
  const merklize::device_tree &d = t.on_device();
  const auto plan = merklize::plan_update(d.level_sizes(), 2, indices);
  const cl::CommandQueue &queue = hasher().queue();
  const std::vector<std::uint8_t> poison(32, test::poison_byte);
  for (unsigned level = 0; level <= d.top(); ++level)
    for (const std::uint64_t node : plan.dirty(level))
      queue.enqueueWriteBuffer(d.level_buffer(level), CL_TRUE,
                               (d.level_first(level) + node) * merklize::node_bytes, 32,
                               poison.data());
}

std::vector<merklize::tree_options> host_trees(std::uint64_t n) {
  const unsigned natural = merklize::tree_layout(n).depth();
  std::vector<merklize::tree_options> trees;
  for (const auto hash : {merklize::hash_kind::sha256, merklize::hash_kind::blake3}) {
    trees.push_back({hash, merklize::shape::promote});
    trees.push_back({hash, merklize::shape::zero});
    trees.push_back({hash, merklize::shape::zero, natural + 3});
  }
  trees.push_back({merklize::hash_kind::rfc6962, merklize::shape::promote});
  return trees;
}

} // namespace

TEST_CASE("updates by the host's cores equal the reference and the kernels'",
          "[resident][host-update]") {
  std::mt19937_64 random(36);
  for (std::uint64_t n : {1, 2, 3, 7, 8, 9, 255, 256, 257, 1023, 1024, 1025})
    for (const merklize::tree_options &options : host_trees(n)) {
      INFO("n=" << n << " " << test::describe(options));
      std::vector<merklize::digest> leaves = test::random_leaves(n);
      merklize::resident_tree on_host(hasher(), leaves,
                                      test::on_engine(options, resident_update::host));
      merklize::resident_tree kernels(hasher(), leaves,
                                      test::on_engine(options, resident_update::kernels));
      for (const auto &batch : test::update_batches(n, random, 100)) {
        INFO("batch of " << batch.size());
        std::vector<merklize::digest> values;
        for (const std::uint64_t index : batch) {
          values.push_back(test::random_digest());
          leaves[index] = values.back(); // in order: a repeated index ends with its last value
        }
        poison_dirty(on_host, batch);
        const merklize::digest root = on_host.update(batch, values);
        test::check_tree(on_host, leaves, root);
        CHECK(on_host.last_events().on_host == !batch.empty());
        CHECK(on_host.last_events().kernels.empty());
        CHECK(on_host.last_plan().batch == batch.size());
        CHECK(kernels.update(batch, values) == root);
        CHECK_FALSE(kernels.last_events().on_host);
        CHECK(kernels.levels() == on_host.levels());
      }
    }
}

TEST_CASE("a batch the host's cores refuse changes nothing", "[resident][host-update]") {
  std::vector<merklize::digest> leaves(10);
  for (auto &leaf : leaves)
    leaf = test::random_digest();
  merklize::resident_tree t(hasher(), leaves,
                            test::on_engine({merklize::hash_kind::blake3}, resident_update::host));
  const merklize::digest root = t.root();
  const auto levels = t.levels();
  CHECK_THROWS_WITH(t.update({3, 10}, {leaves[0], leaves[1]}),
                    Contains("update 1 of 2: leaf index 10 out of range: the tree has 10 leaves"));
  CHECK_THROWS_WITH(t.update({3}, {leaves[0], leaves[1]}), Contains("1 indices but 2 leaves"));
  CHECK(t.root() == root);
  CHECK(t.levels() == levels);
  // And the tree goes on updating after them.
  leaves[9] = test::random_digest();
  test::check_tree(t, leaves, t.update({9}, {leaves[9]}));
}

TEST_CASE("a batch refused by the grouping's check changes nothing", "[resident][host-update]") {
  // From 2^15 + 1 leaves the indices are checked by the grouping by block (host_updater's blocks).
  const std::uint64_t n = (1 << 16) + 1;
  std::vector<merklize::digest> leaves = test::random_leaves(n);
  merklize::resident_tree t(hasher(), leaves,
                            test::on_engine({merklize::hash_kind::sha256}, resident_update::host));
  const merklize::digest root = t.root();
  const auto levels = t.levels();
  std::vector<std::uint64_t> indices(50000);
  for (std::size_t k = 0; k < indices.size(); ++k)
    indices[k] = k * 7 % n;
  indices[40000] = n; // one past the last leaf, in a later slice of the batch
  const std::vector<merklize::digest> values(indices.size(), test::random_digest());
  CHECK_THROWS_WITH(t.update(indices, values),
                    Contains("update 40000 of 50000: leaf index 65537 out of range: the tree has "
                             "65537 leaves"));
  CHECK(t.root() == root);
  CHECK(t.levels() == levels);
  indices[40000] = n - 1;
  for (std::size_t k = 0; k < indices.size(); ++k)
    leaves[indices[k]] = values[k];
  test::check_tree(t, leaves, t.update(indices, values));
}

TEST_CASE("the host's cores update CPU devices' trees unless told otherwise",
          "[resident][host-update]") {
  const bool cpu = merklize::read_device_facts(test::test_device()).is_cpu();
  std::vector<merklize::digest> leaves(100);
  for (auto &leaf : leaves)
    leaf = test::random_digest();
  for (const auto hash : {merklize::hash_kind::sha256, merklize::hash_kind::keccak256}) {
    INFO(merklize::to_string(hash));
    merklize::resident_tree t(hasher(), leaves, merklize::config{{hash}});
    leaves[5] = test::random_digest();
    test::check_tree(t, leaves, t.update({5}, {leaves[5]}));
    CHECK(t.last_events().on_host == (cpu && hash == merklize::hash_kind::sha256));
  }
  CHECK_THROWS_WITH(merklize::resident_tree(hasher(), leaves,
                                            test::on_engine({merklize::hash_kind::blake3_parent},
                                                            resident_update::host)),
                    Contains("the host engine has no pair hasher for blake3-parent"));
}

TEST_CASE("large batches shared among the host's threads equal the reference",
          "[resident][host-update]") {
  std::mt19937_64 random(9);
  // Levels of thousands of dirty nodes; from 2^15 leaves up the lower levels go a block of
  // leaves at a time (host_updater's blocks: 64 leaves each at 2^15 + 1, 128 at 2^17 + 3), the
  // last block short, with a lone last node at some levels, before the levels above the blocks.
  for (const std::uint64_t n : {(1u << 15) + 1, (1u << 16) - 1, (1u << 17) + 3})
    for (const merklize::tree_options &options :
         {merklize::tree_options{merklize::hash_kind::blake3, merklize::shape::promote},
          merklize::tree_options{merklize::hash_kind::sha256, merklize::shape::zero},
          merklize::tree_options{merklize::hash_kind::blake3, merklize::shape::zero, 20}}) {
      INFO("n=" << n << " " << merklize::to_string(options.hash) << " "
                << merklize::to_string(options.shape));
      std::vector<merklize::digest> leaves = test::random_leaves(n);
      merklize::resident_tree t(hasher(), leaves, test::on_engine(options, resident_update::host));
      for (const auto &batch : test::update_batches(n, random, 5)) {
        INFO("batch of " << batch.size());
        std::vector<merklize::digest> values;
        for (const std::uint64_t index : batch) {
          values.push_back(test::random_digest());
          leaves[index] = values.back();
        }
        poison_dirty(t, batch);
        test::check_tree(t, leaves, t.update(batch, values));
      }
    }
}

TEST_CASE("a proved batch on the host's cores proves what prove_multi proves",
          "[resident][host-update]") {
  // The multiproof is gathered by a kernel after the host's update: its launch settings come
  // from the tree even though the host's path launched nothing (a 0 local size failed before).
  std::mt19937_64 random(37);
  for (std::uint64_t n : {2, 3, 257})
    for (const auto hash : {merklize::hash_kind::sha256, merklize::hash_kind::blake3}) {
      INFO("n=" << n << " " << merklize::to_string(hash));
      std::vector<merklize::digest> leaves = test::random_leaves(n);
      merklize::resident_tree t(hasher(), leaves, test::on_engine({hash}, resident_update::host));
      for (const auto &batch : test::update_batches(n, random, 100)) {
        std::vector<merklize::digest> values;
        for (const std::uint64_t index : batch) {
          values.push_back(test::random_digest());
          leaves[index] = values.back();
        }
        const auto [root, proof] = t.update_proved(batch, values);
        const merklize::tree expected = test::check_tree(t, leaves, root);
        CHECK(t.last_events().on_host == !batch.empty());
        if (!batch.empty()) CHECK(proof == merklize::prove_multi(expected, batch));
      }
    }
}
