// SPDX-License-Identifier: Apache-2.0 OR MIT
// Trees kept on the device and updated in place (resident_tree.hpp) against the host reference
// rebuilt from scratch over the host's copy with the updates applied: root and every level after
// each batch, for every binary node hash, shapes promote and zero, natural and fixed depths, at
// awkward sizes; batches of one leaf, the last leaf, every leaf, 1% at random, repeats (the last
// wins) and none, one after another on one tree, each with the multiproof of its leaves
// (prove_multi's). Before each batch the nodes it must write are
// poisoned on the device, so a node the update leaves out shows. And the refusals, which change
// nothing. Appends (1, 2, 3, 2^k - 1, 2^k, 2^k + 1 leaves onto awkward sizes, repeated, up to a
// fixed depth and past it refused) against the reference and a tree built from scratch, their
// rewritten nodes poisoned first; consistency proofs between every pair of sizes against the
// host's prove_consistency and verify_consistency.
#include "block_helpers.hpp"
#include "proof_helpers.hpp"
#include "resident_helpers.hpp"

#include <merklize/core/reference.hpp>
#include <merklize/engine/resident_tree.hpp>

#include <catch2/catch.hpp>

#include <random>

using Catch::Matchers::Contains;

namespace {

using test::hasher;

// Every node the plan writes set to the poison pattern on the device: leaves and levels read
// back, poisoned where dirty, written back.
void poison_dirty(const merklize::resident_tree &t, const merklize::update_plan &plan) {
  const merklize::device_tree &d = t.on_device();
  const cl::CommandQueue &queue = hasher().queue();
  for (unsigned level = 0; level <= d.top(); ++level) {
    const std::uint64_t at = d.level_first(level) * merklize::node_bytes;
    const std::size_t bytes = static_cast<std::size_t>(d.level_sizes()[level] * 32);
    std::vector<std::uint8_t> nodes(bytes);
    queue.enqueueReadBuffer(d.level_buffer(level), CL_TRUE, at, bytes, nodes.data());
    for (const std::uint64_t node : plan.dirty(level))
      std::fill_n(nodes.begin() + static_cast<std::ptrdiff_t>(node * 32), 32, test::poison_byte);
    queue.enqueueWriteBuffer(d.level_buffer(level), CL_TRUE, at, bytes, nodes.data());
  }
}

// Applies the batch to the host copy and the tree (its dirty nodes poisoned first), then checks.
void apply(merklize::resident_tree &t, std::vector<merklize::digest> &leaves,
           const std::vector<std::uint64_t> &indices) {
  std::vector<merklize::digest> values;
  for (const std::uint64_t index : indices) {
    values.push_back(test::random_digest());
    leaves[index] = values.back(); // in order: a repeated index ends with its last value
  }
  poison_dirty(t, merklize::plan_update(t.on_device().level_sizes(), 2, indices));
  INFO("batch of " << indices.size());
  const auto [root, proof] = t.update_proved(indices, values);
  const merklize::tree expected = test::check_tree(t, leaves, root);
  if (indices.empty())
    CHECK((proof.indices.empty() && proof.nodes.empty()));
  else
    CHECK(proof == merklize::prove_multi(expected, indices));
}

std::vector<merklize::tree_options> binary_trees(std::uint64_t n) {
  std::vector<merklize::tree_options> trees;
  const unsigned natural = merklize::tree_layout(n).depth();
  for (const auto &row : merklize::node_hash_table) {
    trees.push_back({row.kind, merklize::shape::promote});
    if (row.kind == merklize::hash_kind::rfc6962) continue; // shape promote only
    trees.push_back({row.kind, merklize::shape::zero});
    trees.push_back({row.kind, merklize::shape::zero, natural + 3});
  }
  return trees;
}

} // namespace

TEST_CASE("trees on the device updated in place equal the reference rebuilt", "[resident]") {
  std::mt19937_64 random(31);
  for (std::uint64_t n : {1, 2, 3, 7, 8, 9, 255, 256, 257, 1000})
    for (const merklize::tree_options &options : binary_trees(n)) {
      INFO("n=" << n << " " << test::describe(options));
      std::vector<merklize::digest> leaves = test::random_leaves(n);
      merklize::resident_tree t(hasher(), leaves,
                                test::on_engine(options, merklize::resident_update::kernels));
      test::check_tree(t, leaves, t.root());
      for (const auto &batch : test::update_batches(n, random, 100))
        apply(t, leaves, batch);
    }
}

TEST_CASE("updates from device buffers equal updates from host memory", "[resident]") {
  auto &h = hasher();
  std::mt19937_64 random(7);
  const merklize::config cfg{{merklize::hash_kind::sha256, merklize::shape::zero}};
  std::vector<merklize::digest> leaves(300);
  for (auto &leaf : leaves)
    leaf = test::random_digest();
  const cl::Buffer on_device(h.context(), CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR,
                             leaves.size() * 32, leaves.data());
  const std::vector<merklize::digest> original = leaves;
  merklize::resident_tree t(h, on_device, leaves.size(), cfg);
  test::check_tree(t, leaves, t.root());
  for (int round = 0; round < 3; ++round) {
    std::vector<cl_ulong> indices = {299, 5, 5};
    std::vector<merklize::digest> values;
    for (int k = 0; k < 20; ++k)
      indices.push_back(random() % leaves.size());
    for (const cl_ulong index : indices) {
      values.push_back(test::random_digest());
      leaves[index] = values.back();
    }
    const cl::Buffer index_buffer(h.context(), CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR,
                                  indices.size() * 8, indices.data());
    const cl::Buffer value_buffer(h.context(), CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR,
                                  values.size() * 32, values.data());
    test::check_tree(t, leaves, t.update(index_buffer, value_buffer, indices.size()));
    CHECK(t.last_plan().batch == indices.size());
    // The election, the writes, the reset, a launch a level (300: 9)
    CHECK(t.last_events().kernels.size() == 3 + 9);
  }
  // The caller's buffers were read, never written.
  std::vector<merklize::digest> first(300);
  h.queue().enqueueReadBuffer(on_device, CL_TRUE, 0, 300 * 32, first.data());
  CHECK(first == original);
}

TEST_CASE("refused updates name the input and change nothing", "[resident]") {
  auto &h = hasher();
  std::vector<merklize::digest> leaves(10);
  for (auto &leaf : leaves)
    leaf = test::random_digest();
  merklize::resident_tree t(h, leaves, merklize::config{{merklize::hash_kind::blake3}});
  const merklize::digest root = t.root();
  const auto levels = t.levels();
  CHECK_THROWS_WITH(t.update({3, 10}, {leaves[0], leaves[1]}),
                    Contains("update 1 of 2: leaf index 10 out of range: the tree has 10 leaves"));
  CHECK_THROWS_WITH(t.update({3, 4}, {leaves[0]}),
                    Contains("update: 2 indices but 1 leaves; give a leaf for each index"));
  std::vector<cl_ulong> bad = {1, 2, 99};
  const cl::Buffer index_buffer(h.context(), CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR,
                                bad.size() * 8, bad.data());
  const cl::Buffer small(h.context(), CL_MEM_READ_WRITE, 64);
  CHECK_THROWS_WITH(
      t.update(index_buffer, small, 3),
      Contains("the leaves buffer too small: it holds 64 bytes, the update needs 96"));
  const cl::Buffer values(h.context(), CL_MEM_READ_WRITE, 96);
  CHECK_THROWS_WITH(t.update(index_buffer, values, 3),
                    Contains("update 2 of 3: leaf index 99 out of range: the tree has 10 leaves"));
  // Found on the device before any write: the good indices' leaves were not written either.
  CHECK(t.levels() == levels);
  // And the tree still updates right after a refusal (no leaf left elected).
  std::vector<merklize::digest> copy = leaves;
  apply(t, copy, {1, 2, 1});
  CHECK_THROWS_WITH(t.update({0, 1, 1, 10, 2}, std::vector<merklize::digest>(5)),
                    Contains("update 3 of 5: leaf index 10 out of range"));
  test::check_tree(t, copy, t.root());
  t = merklize::resident_tree(h, leaves, merklize::config{{merklize::hash_kind::blake3}});
  CHECK_THROWS_WITH(merklize::resident_tree(h, leaves.data(), 33, merklize::config{}),
                    Contains("not a multiple of 32"));
  CHECK_THROWS_WITH(merklize::resident_tree(h, std::vector<merklize::digest>{}, merklize::config{}),
                    Contains("no leaves"));
  CHECK(t.root() == root);
  CHECK(t.levels() == levels);
}

namespace {

// Nodes an append of `count` leaves rewrites that the tree holds now (the last node of each level
// and, where the room holds them, the nodes after it) set to the poison pattern on the device.
void poison_append(const merklize::resident_tree &t, std::uint64_t count) {
  const merklize::device_tree &d = t.on_device();
  const std::uint64_t n = t.leaf_count(), total = n + count;
  const cl::CommandQueue &queue = hasher().queue();
  for (unsigned level = 0; level <= d.top(); ++level) {
    const std::uint64_t first = level == 0 ? n : n >> level;
    std::uint64_t end = ((total - 1) >> level) + 1;
    if (total > t.capacity()) end = d.level_sizes()[level]; // new buffers: only the old ones
    if (end <= first) continue;
    const std::vector<std::uint8_t> poison((end - first) * 32, test::poison_byte);
    queue.enqueueWriteBuffer(d.level_buffer(level), CL_TRUE,
                             (d.level_first(level) + first) * merklize::node_bytes, poison.size(),
                             poison.data());
  }
}

// Appends `count` random leaves to the tree and the host copy, then checks the tree against the
// reference and a tree built from scratch on the device.
void append_checked(merklize::resident_tree &t, std::vector<merklize::digest> &leaves,
                    std::uint64_t count) {
  std::vector<merklize::digest> more(count);
  for (auto &leaf : more)
    leaf = test::random_digest();
  INFO("append " << count << " onto " << leaves.size());
  poison_append(t, count);
  const merklize::digest root = t.append(more);
  leaves.insert(leaves.end(), more.begin(), more.end());
  REQUIRE(t.leaf_count() == leaves.size());
  CHECK(t.capacity() >= leaves.size());
  test::check_tree(t, leaves, root);
  const merklize::resident_tree fresh(hasher(), leaves, merklize::config{t.options()});
  CHECK(fresh.root() == root);
}

} // namespace

TEST_CASE("appends to trees on the device equal the reference rebuilt", "[resident][append]") {
  for (std::uint64_t n : {1, 2, 3, 7, 8, 9, 100})
    for (const merklize::tree_options &options : binary_trees(n)) {
      if (options.depth) continue; // below, with its limit
      INFO("n=" << n << " " << merklize::to_string(options.hash) << " "
                << merklize::to_string(options.shape));
      std::vector<merklize::digest> leaves = test::random_leaves(n);
      merklize::resident_tree t(hasher(), leaves, merklize::config{options});
      for (std::uint64_t count : {1, 2, 3, 7, 8, 9, 1, 1})
        append_checked(t, leaves, count);
      // An update after appends sees the grown tree.
      apply(t, leaves, {0, leaves.size() - 1, leaves.size() / 2});
    }
}

TEST_CASE("appends of 2^k - 1, 2^k and 2^k + 1 leaves, repeated", "[resident][append]") {
  for (const auto hash : {merklize::hash_kind::sha256, merklize::hash_kind::blake3_parent}) {
    std::vector<merklize::digest> leaves(255);
    for (auto &leaf : leaves)
      leaf = test::random_digest();
    merklize::resident_tree t(hasher(), leaves, merklize::config{{hash}});
    for (std::uint64_t count : {255, 256, 257, 1, 1023, 1024, 1025})
      append_checked(t, leaves, count);
  }
}

TEST_CASE("appends up to a fixed depth, and past it refused", "[resident][append]") {
  std::vector<merklize::digest> leaves(5);
  for (auto &leaf : leaves)
    leaf = test::random_digest();
  for (const auto hash : {merklize::hash_kind::keccak256, merklize::hash_kind::blake3_parent}) {
    std::vector<merklize::digest> copy = leaves;
    merklize::resident_tree t(hasher(), copy, merklize::config{{hash, merklize::shape::zero, 3}});
    const merklize::digest root = t.root();
    const auto levels = t.levels();
    CHECK_THROWS_WITH(t.append(std::vector<merklize::digest>(4, test::random_digest())),
                      Contains("append: 4 leaves onto the tree of 5 would pass its 8 leaves (a "
                               "fixed depth of 3)"));
    CHECK(t.root() == root);
    CHECK(t.levels() == levels);
    CHECK(t.leaf_count() == 5);
    append_checked(t, copy, 2);
    append_checked(t, copy, 1);
    CHECK_THROWS_WITH(t.append(std::vector<merklize::digest>(1)), Contains("would pass its 8"));
    CHECK(t.append(std::vector<merklize::digest>{}) == t.root());
    test::check_tree(t, copy, t.root());
  }
}

TEST_CASE("consistency proofs between every pair of sizes of a tree grown by appends",
          "[resident][append][consistency]") {
  for (const auto hash :
       {merklize::hash_kind::rfc6962, merklize::hash_kind::sha256, merklize::hash_kind::blake3}) {
    const merklize::tree_options options{hash, merklize::shape::promote};
    std::vector<merklize::digest> leaves = {test::random_digest()};
    merklize::resident_tree t(hasher(), leaves, merklize::config{options});
    std::vector<merklize::digest> roots = {{}, t.root()}; // roots[m]: the tree of m leaves'
    for (std::uint64_t count : {1, 1, 2, 3, 1, 7, 8, 9, 2, 1}) {
      append_checked(t, leaves, count);
      const merklize::tree host =
          merklize::reference_tree(leaves.data(), leaves.size() * 32, options);
      for (std::uint64_t m = roots.size(); m <= leaves.size(); ++m)
        roots.push_back(merklize::reference_tree(leaves.data(), m * 32, options).root());
      for (std::uint64_t m = 1; m <= leaves.size(); ++m) {
        INFO(merklize::to_string(hash) << " " << m << " -> " << leaves.size());
        const merklize::consistency_proof proof = t.prove_consistency(m);
        CHECK(proof == merklize::prove_consistency(host, m));
        CHECK(merklize::verify_consistency(m, leaves.size(), roots[m], t.root(), proof));
        if (m < leaves.size() && !proof.nodes.empty()) { // a node changed: refused
          merklize::consistency_proof bad = proof;
          bad.nodes.back()[0] ^= 1;
          CHECK_FALSE(merklize::verify_consistency(m, leaves.size(), roots[m], t.root(), bad));
        }
      }
    }
  }
}

TEST_CASE("consistency proofs refused where the tree has none", "[resident][append][consistency]") {
  const std::vector<merklize::digest> leaves(6, test::random_digest());
  merklize::resident_tree zero(
      hasher(), leaves, merklize::config{{merklize::hash_kind::sha256, merklize::shape::zero}});
  CHECK_THROWS_WITH(zero.prove_consistency(3),
                    Contains("consistency proofs are for shape promote"));
  merklize::resident_tree flagged(hasher(), leaves,
                                  merklize::config{{merklize::hash_kind::blake3_parent}});
  CHECK_THROWS_WITH(flagged.prove_consistency(3), Contains("has no consistency proofs"));
  merklize::resident_tree log(hasher(), leaves, merklize::config{{merklize::hash_kind::rfc6962}});
  CHECK_THROWS_WITH(log.prove_consistency(7), Contains("old size 7 is more than the tree's 6"));
  CHECK(log.prove_consistency(6).nodes.empty());
}

namespace {

// `count` updates at random among `leaves`' first `among` indices, the tree against the
// reference after; returns which path the update took.
merklize::update_events random_batch(merklize::resident_tree &t,
                                     std::vector<merklize::digest> &leaves, std::uint64_t count,
                                     std::uint64_t among, std::mt19937_64 &random) {
  std::vector<std::uint64_t> indices(count);
  std::vector<merklize::digest> values(count);
  for (std::uint64_t k = 0; k < count; ++k) {
    indices[k] = random() % among;
    values[k] = test::random_digest();
    leaves[indices[k]] = values[k];
  }
  poison_dirty(t, merklize::plan_update(t.on_device().level_sizes(), 2, indices));
  test::check_tree(t, leaves, t.update(indices, values));
  return t.last_events();
}

} // namespace

TEST_CASE("many updates racing for a few leaves: the last of each wins", "[resident]") {
  std::mt19937_64 random(3);
  for (const auto hash : {merklize::hash_kind::sha256, merklize::hash_kind::poseidon2_babybear}) {
    std::vector<merklize::digest> leaves(1 << 12);
    for (auto &leaf : leaves)
      leaf = test::random_digest();
    merklize::resident_tree t(hasher(), leaves,
                              test::on_engine({hash}, merklize::resident_update::kernels));
    for (int round = 0; round < 3; ++round) {
      INFO(merklize::to_string(hash) << " round " << round);
      random_batch(t, leaves, 10000, 3, random); // 10,000 updates of leaves 0, 1, 2
      // and among the last leaves, where the shorter levels end
      std::vector<std::uint64_t> indices(5000);
      std::vector<merklize::digest> values(5000);
      for (std::size_t k = 0; k < indices.size(); ++k) {
        indices[k] = leaves.size() - 1 - random() % 2;
        values[k] = test::random_digest();
        leaves[indices[k]] = values[k];
      }
      test::check_tree(t, leaves, t.update(indices, values));
    }
  }
}

TEST_CASE("updates list the levels they can, and rebuild them for large batches", "[resident]") {
  std::mt19937_64 random(5);
  const std::uint64_t n = 1 << 12, factor = merklize::detail::tree_updater::whole_level_factor;
  for (const auto pad : {merklize::shape::promote, merklize::shape::zero}) {
    std::vector<merklize::digest> leaves(n + 3); // the levels end short
    for (auto &leaf : leaves)
      leaf = test::random_digest();
    merklize::resident_tree t(hasher(), leaves,
                              merklize::config{{merklize::hash_kind::keccak256, pad}});
    const auto &sizes = t.on_device().level_sizes();
    auto listed = [&](std::uint64_t count) { // the levels larger than factor x count
      unsigned levels = 0;
      while (levels + 1 < sizes.size() && sizes[levels + 1] > count * factor)
        ++levels;
      return levels;
    };
    auto e = random_batch(t, leaves, 10, leaves.size(), random);
    CHECK_FALSE(e.rebuilt);
    CHECK(e.listed_levels == listed(10));
    CHECK(e.kernels.size() == 3 + t.on_device().top());
    // A batch of half the leaves over the factor or more: every level recomputed whole.
    e = random_batch(t, leaves, (sizes[1] + factor - 1) / factor, leaves.size(), random);
    CHECK(e.rebuilt);
    CHECK(e.listed_levels == 0);
    e = random_batch(t, leaves, sizes[1] / factor - 1, leaves.size(), random); // just below
    CHECK_FALSE(e.rebuilt);
    CHECK(e.listed_levels == 1);
    // More updates than leaves (each leaf many times): a rebuild too.
    e = random_batch(t, leaves, 3 * leaves.size(), leaves.size(), random);
    CHECK(e.rebuilt);
    e = random_batch(t, leaves, 1, leaves.size(), random); // and back to listing
    CHECK(e.listed_levels == listed(1));
    // After an append has left room, the levels lie apart: a rebuild a range a level.
    std::vector<merklize::digest> more(5);
    for (auto &leaf : more)
      leaf = test::random_digest();
    t.append(more);
    leaves.insert(leaves.end(), more.begin(), more.end());
    REQUIRE(t.capacity() > t.leaf_count());
    e = random_batch(t, leaves, leaves.size(), leaves.size(), random);
    CHECK(e.rebuilt);
    CHECK(e.kernels.size() == 3 + t.on_device().top());
    e = random_batch(t, leaves, 2, leaves.size(), random);
    CHECK(e.listed_levels == listed(2));
  }
}

TEST_CASE("batches larger than the tree", "[resident]") {
  std::mt19937_64 random(9);
  for (std::uint64_t n : {1, 2, 3, 5}) {
    std::vector<merklize::digest> leaves = test::random_leaves(n);
    merklize::resident_tree t(hasher(), leaves,
                              merklize::config{{merklize::hash_kind::blake3_parent}});
    INFO("n=" << n);
    random_batch(t, leaves, 100, n, random);
    apply(t, leaves, std::vector<std::uint64_t>(7, n - 1));
  }
}

TEST_CASE("the claim generation wraps, clearing the marks first", "[resident]") {
  merklize::detail::claim_generation fresh;
  CHECK(fresh.clears_next());
  CHECK(fresh.next() == 1);
  CHECK_FALSE(fresh.clears_next());
  CHECK(fresh.next() == 2);
  merklize::detail::claim_generation old(UINT32_MAX - 1);
  CHECK_FALSE(old.clears_next());
  CHECK(old.next() == UINT32_MAX);
  CHECK(old.clears_next());
  CHECK(old.next() == 1); // never 0, the cleared marks' value
  // On the device: updates on either side of the wrap, the same nodes claimed each call.
  std::mt19937_64 random(11);
  std::vector<merklize::digest> leaves(1000);
  for (auto &leaf : leaves)
    leaf = test::random_digest();
  merklize::resident_tree t(
      hasher(), leaves,
      test::on_engine({merklize::hash_kind::sha256}, merklize::resident_update::kernels));
  random_batch(t, leaves, 5, leaves.size(), random); // marks made, generation 1
  t.set_claim_generation(UINT32_MAX - 2);
  for (int round = 0; round < 5; ++round) {
    INFO("round " << round);
    random_batch(t, leaves, 4, 8, random); // the same few paths again and again
  }
}

TEST_CASE("a batch of several MiB staged by several threads, piece by piece", "[resident]") {
  // 2^17 + 3 leaves, each updated once in random order and 1,000 again: 4.03 MiB of leaves and
  // 1 MiB of indices, so the staging copies pieces on threads of their own (from 4 pieces).
  std::mt19937_64 random(13);
  std::vector<merklize::digest> leaves((1 << 17) + 3);
  for (auto &leaf : leaves)
    leaf = test::random_digest();
  merklize::resident_tree t(
      hasher(), leaves,
      test::on_engine({merklize::hash_kind::sha256}, merklize::resident_update::kernels));
  std::vector<std::uint64_t> indices(leaves.size());
  for (std::uint64_t i = 0; i < indices.size(); ++i)
    indices[i] = i;
  std::shuffle(indices.begin(), indices.end(), random);
  for (int k = 0; k < 1000; ++k)
    indices.push_back(random() % leaves.size());
  std::vector<merklize::digest> values(indices.size());
  for (std::size_t k = 0; k < indices.size(); ++k) {
    values[k] = test::random_digest();
    leaves[indices[k]] = values[k];
  }
  REQUIRE(values.size() * 32 >= 4 * merklize::detail::staged_upload::piece_bytes);
  test::check_tree(t, leaves, t.update(indices, values));
  CHECK(t.last_events().transfers.size() >= 5 + 2); // a write a piece, the root's read
}
