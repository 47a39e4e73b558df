// SPDX-License-Identifier: Apache-2.0 OR MIT
// A k-ary resident tree's large batches elected on the device, no plan on the host
// (kary_leaf_election.hpp; resident_kary_tree's elect_per_mille), arities 2, 4, 8 and 16, sha256
// and blake3, shapes promote and zero, at 1, k - 1, k, k + 1, k^2 + 1 and 257 leaves (a
// work-group and one): every level above the leaves and the updated leaves poisoned on the
// device before each batch, the tree after it equal to the host reference (kary_levels over the
// leaves updated on the host) and to a twin tree whose batches are planned on the host; batches
// of one leaf, the last leaf, every leaf in a shuffled order, and random ones with repeats (the
// last value wins), one after another (winner[] must be zero again between them). From device
// buffers the same, the device waiting for the caller's writes. An index outside the tree is
// refused, naming it, from host memory (before anything is written) and from a device buffer
// (found by the device, then nothing written): the tree as it was. Appends past the room grow
// winner[] for the leaves they add. The choice itself: at least per_mille updates a thousand
// leaves, never at 0.
#include "kary_resident_helpers.hpp"

#include <catch2/catch.hpp>

#include <algorithm>
#include <random>

using Catch::Matchers::Contains;

namespace {

using merklize::digest;
using merklize::resident_kary_tree;
using test::hasher;

using test::random_leaves;

// Every level above the leaves, and the leaves at `indices`, poisoned on the device: an elected
// batch rewrites all of them.
void poison_elected(const resident_kary_tree &t, const std::vector<std::uint64_t> &indices) {
  const merklize::device_tree &d = t.on_device();
  const std::vector<std::uint8_t> pattern(merklize::node_bytes, 0x5A);
  const auto put = [&](unsigned level, std::uint64_t node) {
    hasher().queue().enqueueWriteBuffer(d.level_buffer(level), CL_TRUE,
                                        (d.level_first(level) + node) * merklize::node_bytes,
                                        merklize::node_bytes, pattern.data());
  };
  for (const std::uint64_t i : indices)
    put(0, i);
  for (unsigned level = 1; level <= d.top(); ++level)
    for (std::uint64_t node = 0; node < d.level_sizes()[level]; ++node)
      put(level, node);
}

// The batches every case runs, in order: one leaf, the last, every leaf shuffled, random with
// repeats.
std::vector<std::vector<std::uint64_t>> batches_of(std::uint64_t n, std::mt19937_64 &rng) {
  std::vector<std::uint64_t> every(n);
  for (std::uint64_t i = 0; i < n; ++i)
    every[i] = i;
  std::shuffle(every.begin(), every.end(), rng);
  std::vector<std::uint64_t> repeats(2 * n + 3);
  for (auto &i : repeats)
    i = rng() % n;
  return {{n / 2}, {n - 1}, every, repeats};
}

// `body(options, n)` for every case, each named in the failures.
template <class Body> void for_each_elect_case(const Body &body) {
  for (auto hash : {merklize::hash_kind::sha256, merklize::hash_kind::blake3})
    for (auto pad : {merklize::shape::promote, merklize::shape::zero})
      for (unsigned k : {2u, 4u, 8u, 16u})
        for (const std::uint64_t n :
             std::vector<std::uint64_t>{1, k - 1u, k, k + 1u, k * k + 1u, 257}) {
          INFO(merklize::to_string(hash)
               << " arity " << k << " shape " << (pad == merklize::shape::zero ? "zero" : "promote")
               << ", " << n << " leaves");
          body(merklize::kary_options{hash, k, pad}, n);
        }
}

// A tree whose every batch is elected on the device.
resident_kary_tree elected_tree(const std::vector<digest> &leaves,
                                const merklize::kary_options &o) {
  resident_kary_tree t(hasher(), leaves, o);
  t.set_elect_per_mille(1); // at least one update a thousand leaves: every batch here
  return t;
}

void check_elect_reference(const resident_kary_tree &t, const std::vector<digest> &host,
                           const digest &returned) {
  const auto expected = merklize::kary_levels(host, t.options());
  CHECK(t.levels() == expected);
  CHECK(returned == expected.back().front());
  CHECK(t.root() == returned);
}

} // namespace

TEST_CASE("k-ary resident trees elect large batches on the device: the host reference",
          "[resident][kary][elect]") {
  std::mt19937_64 rng(41);
  for_each_elect_case([&](const merklize::kary_options &o, std::uint64_t n) {
    std::vector<digest> host = random_leaves(n);
    resident_kary_tree t = elected_tree(host, o);
    resident_kary_tree planned(hasher(), host, o);
    planned.set_elect_per_mille(0);
    for (const auto &indices : batches_of(n, rng)) {
      const std::vector<digest> values = random_leaves(indices.size());
      for (std::size_t i = 0; i < indices.size(); ++i)
        host[static_cast<std::size_t>(indices[i])] = values[i];
      poison_elected(t, indices);
      const digest root = t.update(indices, values);
      check_elect_reference(t, host, root);
      CHECK(t.last_split().listed_levels == 0);
      CHECK(t.last_split().whole_levels == t.on_device().top());
      CHECK(planned.update(indices, values) == root);
    }
  });
}

TEST_CASE("k-ary resident trees elect large batches from device buffers",
          "[resident][kary][elect][cl]") {
  std::mt19937_64 rng(42);
  const cl::Context &context = hasher().context();
  for_each_elect_case([&](const merklize::kary_options &o, std::uint64_t n) {
    std::vector<digest> host = random_leaves(n);
    resident_kary_tree t = elected_tree(host, o);
    for (const auto &indices : batches_of(n, rng)) {
      const std::vector<digest> values = random_leaves(indices.size());
      for (std::size_t i = 0; i < indices.size(); ++i)
        host[static_cast<std::size_t>(indices[i])] = values[i];
      cl::Buffer index_buffer(context, CL_MEM_READ_ONLY, indices.size() * sizeof(cl_ulong));
      cl::Buffer leaf_buffer(context, CL_MEM_READ_ONLY, values.size() * merklize::node_bytes);
      std::vector<cl::Event> written(2);
      hasher().queue().enqueueWriteBuffer(index_buffer, CL_FALSE, 0,
                                          indices.size() * sizeof(cl_ulong), indices.data(),
                                          nullptr, &written[0]);
      hasher().queue().enqueueWriteBuffer(leaf_buffer, CL_FALSE, 0,
                                          values.size() * merklize::node_bytes, values.data(),
                                          nullptr, &written[1]);
      poison_elected(t, indices);
      check_elect_reference(t, host, t.update(index_buffer, leaf_buffer, indices.size(), written));
    }
  });
}

TEST_CASE("an elected k-ary batch with an index outside the tree changes nothing",
          "[resident][kary][elect]") {
  const merklize::kary_options o{merklize::hash_kind::sha256, 4, merklize::shape::zero};
  const std::vector<digest> leaves = random_leaves(21);
  resident_kary_tree t = elected_tree(leaves, o);
  const auto before = t.levels();
  const digest root = t.root();
  const std::vector<std::uint64_t> indices = {3, 21, 5, 7};
  const std::vector<digest> values = random_leaves(indices.size());
  SECTION("from host memory: refused before anything is written") {
    REQUIRE_THROWS_WITH(t.update(indices, values), Contains("update 1 of 4") &&
                                                       Contains("leaf index 21 out of range") &&
                                                       Contains("21 leaves"));
  }
  SECTION("from device buffers: found by the device, nothing written") {
    cl::Buffer index_buffer(hasher().context(), CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR,
                            indices.size() * sizeof(cl_ulong),
                            const_cast<std::uint64_t *>(indices.data()));
    cl::Buffer leaf_buffer(hasher().context(), CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR,
                           values.size() * merklize::node_bytes,
                           const_cast<digest *>(values.data()));
    REQUIRE_THROWS_WITH(t.update(index_buffer, leaf_buffer, indices.size()),
                        Contains("update 1 of 4") && Contains("leaf index 21 out of range"));
  }
  CHECK(t.levels() == before);
  CHECK(t.root() == root);
  // and the next batch as a fresh tree's (the refused one left winner[] and the state clean)
  std::vector<digest> host = leaves;
  host[7] = values[3];
  host[5] = values[2];
  check_elect_reference(t, host, t.update({7, 5}, {values[3], values[2]}));
}

TEST_CASE("elected k-ary batches reach the leaves that appends add past the room",
          "[resident][kary][elect]") {
  const merklize::kary_options o{merklize::hash_kind::blake3, 8, merklize::shape::promote};
  std::vector<digest> host = random_leaves(9);
  resident_kary_tree t = elected_tree(host, o);
  t.update({0, 8}, random_leaves(2)); // winner[] made for the first room
  const std::vector<digest> more = random_leaves(100);
  host = t.levels().front();
  host.insert(host.end(), more.begin(), more.end());
  t.append(more); // the room grows past 9 leaves
  const std::vector<std::uint64_t> indices = {108, 9, 50, 108};
  const std::vector<digest> values = random_leaves(indices.size());
  for (std::size_t i = 0; i < indices.size(); ++i)
    host[static_cast<std::size_t>(indices[i])] = values[i];
  poison_elected(t, indices);
  check_elect_reference(t, host, t.update(indices, values));
}

TEST_CASE("which k-ary batches are elected on the device", "[kary][elect]") {
  using merklize::detail::kary_leaf_election;
  CHECK(kary_leaf_election::chosen(2, 1000, 2));
  CHECK_FALSE(kary_leaf_election::chosen(1, 1000, 2));
  CHECK(kary_leaf_election::chosen(1, 1, 1000));
  CHECK_FALSE(kary_leaf_election::chosen(0, 1, 5)); // an empty batch changes nothing anyway
  CHECK_FALSE(kary_leaf_election::chosen(5, 1000, 0));
  CHECK_FALSE(kary_leaf_election::chosen(std::uint64_t(1) << 32, std::uint64_t(1) << 32, 1001));
  CHECK(kary_leaf_election::chosen(std::uint64_t(1) << 32, std::uint64_t(1) << 32, 1000));
}
