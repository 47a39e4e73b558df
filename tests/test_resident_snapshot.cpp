// SPDX-License-Identifier: Apache-2.0 OR MIT
// Snapshots of trees kept on the device and rollbacks to them (resident_snapshot.hpp): after
// updates, appends within the room and past it (the device memory grown), the tree rolled back
// equals, bit for bit, the tree read back when the snapshot was taken (every level, root, size,
// proofs) and the host reference over the leaves of then; it updates and appends on from there
// as a tree built over those leaves does; a later snapshot is rolled forward to; consistency
// proofs after a rollback are the host's. A snapshot of another tree, or none, is refused and
// changes nothing.
#include "block_helpers.hpp"
#include "proof_helpers.hpp"

#include <merklize/core/reference.hpp>
#include <merklize/engine/resident_tree.hpp>

#include <catch2/catch.hpp>

#include <random>

using Catch::Matchers::Contains;

namespace {

using test::hasher;

using test::random_leaves;

// The tree equal to the host reference over `leaves`: root, size, every level, every leaf's
// proof (the first, a middle one, the last).
void check_reference(const merklize::resident_tree &t,
                     const std::vector<merklize::digest> &leaves) {
  const merklize::tree expected =
      merklize::reference_tree(leaves.data(), leaves.size() * 32, t.options());
  REQUIRE(t.leaf_count() == leaves.size());
  CHECK(t.root() == expected.root());
  const auto levels = t.levels();
  REQUIRE(levels.size() == expected.depth() + 1);
  for (unsigned level = 0; level <= expected.depth(); ++level)
    CHECK(levels[level] == expected.level(level));
  for (const std::uint64_t index : {std::uint64_t(0), leaves.size() / 2, leaves.size() - 1})
    CHECK(t.prove(index) == merklize::prove(expected, index));
}

// Random updates of `count` leaves, applied to the host copy too.
void update(merklize::resident_tree &t, std::vector<merklize::digest> &leaves, std::uint64_t count,
            std::mt19937_64 &random) {
  std::vector<std::uint64_t> indices;
  std::vector<merklize::digest> values;
  for (std::uint64_t k = 0; k < count; ++k) {
    indices.push_back(random() % leaves.size());
    values.push_back(test::random_digest());
    leaves[indices.back()] = values.back();
  }
  t.update(indices, values);
}

void append(merklize::resident_tree &t, std::vector<merklize::digest> &leaves,
            std::uint64_t count) {
  const auto more = random_leaves(count);
  t.append(more);
  leaves.insert(leaves.end(), more.begin(), more.end());
}

} // namespace

TEST_CASE("rollbacks restore the tree of the snapshot bit for bit", "[resident][snapshot]") {
  std::mt19937_64 random(34);
  for (const std::uint64_t n : {1, 2, 3, 7, 8, 9, 257})
    for (const auto &options :
         {merklize::tree_options{merklize::hash_kind::sha256, merklize::shape::promote},
          merklize::tree_options{merklize::hash_kind::blake3_parent, merklize::shape::zero},
          merklize::tree_options{merklize::hash_kind::keccak256, merklize::shape::zero, 12}}) {
      INFO("n=" << n << " " << merklize::to_string(options.hash));
      std::vector<merklize::digest> leaves = random_leaves(n);
      merklize::resident_tree t(hasher(), leaves, merklize::config{options});
      const merklize::resident_snapshot s = t.snapshot();
      CHECK((s.leaf_count() == n && s.root() == t.root()));
      CHECK(s.device_bytes() >= n * 32);
      const auto levels = t.levels();
      const std::vector<merklize::digest> at_snapshot = leaves;
      update(t, leaves, n / 3 + 1, random);
      append(t, leaves, 1);     // within the room or past it
      append(t, leaves, n + 3); // past it: the device memory grows
      update(t, leaves, n, random);
      REQUIRE(t.leaf_count() == 2 * n + 4);
      const std::vector<merklize::digest> grown = leaves;
      const merklize::resident_snapshot later = t.snapshot();
      t.rollback(s);
      CHECK(t.levels() == levels);
      check_reference(t, at_snapshot);
      // From the snapshot on, the tree updates and appends as a tree built over those leaves.
      leaves = at_snapshot;
      update(t, leaves, n / 2 + 1, random);
      t.rollback(s); // the same room now: copied into the tree's own buffers
      CHECK(t.levels() == levels);
      leaves = at_snapshot;
      update(t, leaves, n / 2 + 1, random);
      append(t, leaves, 2);
      check_reference(t, leaves);
      t.rollback(later); // forward to the later snapshot
      check_reference(t, grown);
      t.rollback(s); // and back again: a snapshot is kept
      check_reference(t, at_snapshot);
    }
}

TEST_CASE("consistency proofs after a rollback are the host's", "[resident][snapshot]") {
  std::vector<merklize::digest> leaves = random_leaves(5);
  const merklize::config cfg{{merklize::hash_kind::sha256, merklize::shape::promote}};
  merklize::resident_tree t(hasher(), leaves, cfg);
  append(t, leaves, 4);
  const merklize::resident_snapshot s = t.snapshot();
  const std::vector<merklize::digest> at_snapshot = leaves;
  append(t, leaves, 20);
  t.rollback(s);
  const merklize::tree expected = merklize::reference_tree(at_snapshot.data(), 9 * 32, cfg.tree);
  for (std::uint64_t old_size = 0; old_size <= 9; ++old_size)
    CHECK(t.prove_consistency(old_size) == merklize::prove_consistency(expected, old_size));
}

TEST_CASE("a snapshot of another tree, or none, is refused and changes nothing",
          "[resident][snapshot]") {
  std::vector<merklize::digest> leaves = random_leaves(10);
  const merklize::config cfg{{merklize::hash_kind::blake3}};
  merklize::resident_tree t(hasher(), leaves, cfg);
  merklize::resident_tree other(hasher(), leaves, cfg); // the same leaves: still another tree
  const merklize::resident_snapshot theirs = other.snapshot();
  const auto levels = t.levels();
  const merklize::digest root = t.root();
  CHECK_THROWS_WITH(t.rollback(theirs), Contains("the snapshot is of another tree"));
  CHECK_THROWS_WITH(t.rollback(merklize::resident_snapshot()), Contains("an empty snapshot"));
  CHECK(t.levels() == levels);
  CHECK(t.root() == root);
  // A tree moved keeps its snapshots.
  const merklize::resident_snapshot mine = t.snapshot();
  std::mt19937_64 random(1);
  update(t, leaves, 3, random);
  merklize::resident_tree moved = std::move(t);
  moved.rollback(mine);
  CHECK(moved.levels() == levels);
  CHECK(moved.root() == root);
}
