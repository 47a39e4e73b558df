// SPDX-License-Identifier: Apache-2.0 OR MIT
// What k-ary trees kept on the device (resident_kary_tree.hpp) share with binary ones beyond
// updates and appends from host memory, arities 4, 8 and 16 (the powers of two k-ary trees
// take), sha256 and blake3, shapes promote and zero, at 1, k - 1, k, k + 1 and k^2 + 1 leaves:
//  - snapshots and rollbacks (resident_snapshot.hpp): after updates and appends past the room
//    (the device memory grown), the tree rolled back equals bit for bit the levels read when the
//    snapshot was taken and the host reference (kary_levels) over the leaves of then, and
//    updates on from there as a fresh tree would; a later snapshot is rolled forward to; another
//    tree's snapshot (k-ary or binary, either way), or none, is refused and changes nothing;
//  - updates and appends from device buffers, the device waiting for the caller's events (a
//    user event released by a thread), against the host reference and a twin tree changed from
//    host memory, the nodes the update writes poisoned first; repeats take the last value; an
//    index out of range or a short buffer refused, the tree as it was;
//  - update batches in page-locked memory, reused from call to call, the same; a count past the
//    batch's room refused.
#include "kary_resident_helpers.hpp"

#include <merklize/engine/resident_tree.hpp>

#include <catch2/catch.hpp>

#include <chrono>
#include <random>
#include <thread>
#include <tuple>

using Catch::Matchers::Contains;

namespace {

using merklize::digest;
using merklize::resident_kary_tree;
using test::hasher;

using test::random_leaves;

// `body(options, n)` for every case: sha256 and blake3, both shapes, arities 4, 8 and 16, at the
// awkward sizes of arity k (1, k - 1, k, k + 1, k^2 + 1), each named in the failures.
template <class Body> void for_each_case(const Body &body) {
  for (auto hash : {merklize::hash_kind::sha256, merklize::hash_kind::blake3})
    for (auto pad : {merklize::shape::promote, merklize::shape::zero})
      for (unsigned k : {4u, 8u, 16u})
        for (const std::uint64_t n : std::vector<std::uint64_t>{1, k - 1u, k, k + 1u, k * k + 1u}) {
          INFO(merklize::to_string(hash)
               << " arity " << k << " shape " << (pad == merklize::shape::zero ? "zero" : "promote")
               << ", " << n << " leaves");
          body(merklize::kary_options{hash, k, pad}, n);
        }
}

// The tree equal to the host reference over `host`: every level, the root (and `returned`).
void check_reference(const resident_kary_tree &t, const std::vector<digest> &host,
                     const digest &returned) {
  const auto expected = merklize::kary_levels(host, t.options());
  REQUIRE(t.leaf_count() == host.size());
  CHECK(t.levels() == expected);
  CHECK(t.root() == expected.back().front());
  CHECK(returned == t.root());
}

// Batches over n leaves: the first, the last, every leaf in reverse, random ones with repeats.
std::vector<std::vector<std::uint64_t>> batches(std::uint64_t n, std::mt19937_64 &random) {
  std::vector<std::uint64_t> every, some;
  for (std::uint64_t i = 0; i < n; ++i)
    every.push_back(n - 1 - i);
  for (std::uint64_t i = 0; i < n / 3 + 2; ++i)
    some.push_back(random() % n);
  some.push_back(some.front()); // a repeat: the last value wins
  return {{0}, {n - 1}, every, some};
}

// `indices` <- `values` applied to the host copy, in order (the last value wins).
void apply_host(std::vector<digest> &host, const std::vector<std::uint64_t> &indices,
                const std::vector<digest> &values) {
  for (std::size_t i = 0; i < indices.size(); ++i)
    host[static_cast<std::size_t>(indices[i])] = values[i];
}

// A buffer of the tree's context holding `bytes` bytes of `data`, written on `queue` once
// `gate` is released: the write's event.
cl::Event write_later(cl::Buffer &buffer, const cl::CommandQueue &queue, const void *data,
                      std::size_t bytes, const cl::UserEvent &gate) {
  buffer = test::poisoned_buffer(hasher().context(), hasher().queue(), bytes);
  const std::vector<cl::Event> wait = {gate};
  cl::Event written;
  queue.enqueueWriteBuffer(buffer, CL_FALSE, 0, bytes, data, &wait, &written);
  queue.flush();
  return written;
}

// The update of `indices` <- `values` from device buffers, written on another queue behind a
// user event that a thread releases a little later: the tree must wait for the writes.
digest update_from_buffers(resident_kary_tree &t, const std::vector<std::uint64_t> &indices,
                           const std::vector<digest> &values) {
  const cl::CommandQueue other(hasher().context(), hasher().device());
  cl::UserEvent gate(hasher().context());
  cl::Buffer at, leaves;
  const std::vector<cl::Event> wait = {
      write_later(at, other, indices.data(), indices.size() * sizeof(cl_ulong), gate),
      write_later(leaves, other, values.data(), values.size() * merklize::node_bytes, gate)};
  std::thread release([gate]() mutable {
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
    gate.setStatus(CL_COMPLETE);
  });
  const digest root = t.update(at, leaves, indices.size(), wait);
  release.join();
  other.finish();
  return root;
}

} // namespace

TEST_CASE("k-ary trees on the device roll back to their snapshots bit for bit",
          "[resident][kary][snapshot]") {
  std::mt19937_64 random(38);
  for_each_case([&](const merklize::kary_options &options, std::uint64_t n) {
    std::vector<digest> host = random_leaves(n);
    resident_kary_tree t(hasher(), host, options);
    const merklize::resident_snapshot first = t.snapshot();
    CHECK(first.leaf_count() == n);
    CHECK(first.root() == t.root());
    const std::vector<digest> host_first = host;
    const auto levels_first = t.levels();

    // Updates, then appends past the room (the buffers replaced), then updates again.
    for (const auto &indices : batches(n, random)) {
      const std::vector<digest> values = random_leaves(indices.size());
      apply_host(host, indices, values);
      t.update(indices, values);
    }
    const std::vector<digest> more = random_leaves(options.arity + 1);
    host.insert(host.end(), more.begin(), more.end());
    t.append(more);
    const std::vector<std::uint64_t> last = {host.size() - 1, 0};
    const std::vector<digest> values = random_leaves(2);
    apply_host(host, last, values);
    check_reference(t, host, t.update(last, values));
    const merklize::resident_snapshot second = t.snapshot();
    const auto levels_second = t.levels();

    t.rollback(first);
    CHECK(t.levels() == levels_first);
    check_reference(t, host_first, first.root());
    CHECK(t.prove(n - 1).siblings == merklize::kary_prove(levels_first, options, n - 1).siblings);
    // On from the rollback as a tree of those leaves: an update, an append.
    std::vector<digest> again = host_first;
    const std::vector<std::uint64_t> one = {n / 2};
    const std::vector<digest> value = random_leaves(1);
    apply_host(again, one, value);
    test::poison(t, one);
    check_reference(t, again, t.update(one, value));
    const std::vector<digest> tail = random_leaves(2);
    again.insert(again.end(), tail.begin(), tail.end());
    check_reference(t, again, t.append(tail));

    t.rollback(second); // forward, to the later snapshot
    CHECK(t.levels() == levels_second);
    check_reference(t, host, second.root());
    t.rollback(first); // a snapshot serves any number of rollbacks
    check_reference(t, host_first, first.root());
  });
}

TEST_CASE("k-ary trees refuse another tree's snapshot and none, changing nothing",
          "[resident][kary][snapshot]") {
  const merklize::kary_options options{merklize::hash_kind::sha256, 4, merklize::shape::promote};
  const std::vector<digest> leaves = random_leaves(17);
  resident_kary_tree t(hasher(), leaves, options);
  resident_kary_tree twin(hasher(), leaves, options); // the same shape and leaves
  merklize::resident_tree binary(hasher(), leaves, merklize::config{{merklize::hash_kind::sha256}});
  const auto before = t.levels();
  CHECK_THROWS_WITH(t.rollback(twin.snapshot()), Contains("another tree"));
  CHECK_THROWS_WITH(t.rollback(binary.snapshot()), Contains("another tree"));
  CHECK_THROWS_WITH(binary.rollback(t.snapshot()), Contains("another tree"));
  CHECK_THROWS_WITH(t.rollback(merklize::resident_snapshot()), Contains("empty snapshot"));
  CHECK(t.levels() == before);
  check_reference(t, leaves, t.root());
  // A tree moved keeps its snapshots.
  const merklize::resident_snapshot s = t.snapshot();
  resident_kary_tree moved = std::move(t);
  moved.update({3}, random_leaves(1));
  moved.rollback(s);
  check_reference(moved, leaves, s.root());
}

TEST_CASE("k-ary trees on the device update from device buffers as from host memory",
          "[resident][kary][cl]") {
  std::mt19937_64 random(3838);
  for_each_case([&](const merklize::kary_options &options, std::uint64_t n) {
    std::vector<digest> host = random_leaves(n);
    resident_kary_tree t(hasher(), host, options), twin(hasher(), host, options);
    for (const auto &indices : batches(n, random)) {
      const std::vector<digest> values = random_leaves(indices.size());
      apply_host(host, indices, values);
      test::poison(t, indices);
      const digest root = update_from_buffers(t, indices, values);
      check_reference(t, host, root);
      CHECK(twin.update(indices, values) == root);
      CHECK(twin.levels() == t.levels());
    }
  });
}

TEST_CASE("k-ary trees on the device append from device buffers as from host memory",
          "[resident][kary][cl]") {
  for_each_case([&](const merklize::kary_options &options, std::uint64_t n) {
    std::vector<digest> host = random_leaves(n);
    resident_kary_tree t(hasher(), host, options), twin(hasher(), host, options);
    const unsigned k = options.arity;
    for (const std::uint64_t count : {std::uint64_t(1), std::uint64_t(k), std::uint64_t(k) * k}) {
      const std::vector<digest> more = random_leaves(count); // past the room: the memory grows
      host.insert(host.end(), more.begin(), more.end());
      const cl::CommandQueue other(hasher().context(), hasher().device());
      cl::UserEvent gate(hasher().context());
      cl::Buffer leaves;
      const std::vector<cl::Event> wait = {
          write_later(leaves, other, more.data(), more.size() * merklize::node_bytes, gate)};
      std::thread release([gate]() mutable {
        std::this_thread::sleep_for(std::chrono::milliseconds(20));
        gate.setStatus(CL_COMPLETE);
      });
      const digest root = t.append(leaves, count, wait);
      release.join();
      check_reference(t, host, root);
      CHECK(twin.append(more) == root);
    }
    const cl::Buffer two(hasher().context(), CL_MEM_READ_WRITE, std::size_t(64));
    const auto before = t.levels();
    CHECK_THROWS_WITH(t.append(two, 3), Contains("too small"));
    CHECK(t.append(two, 0) == t.root()); // none: nothing read, nothing written
    CHECK(t.levels() == before);
  });
}

TEST_CASE("k-ary updates from device buffers refuse what binary ones do, changing nothing",
          "[resident][kary][cl]") {
  const merklize::kary_options options{merklize::hash_kind::blake3, 8, merklize::shape::zero};
  const std::vector<digest> leaves = random_leaves(70);
  resident_kary_tree t(hasher(), leaves, options);
  const std::vector<std::uint64_t> indices = {1, 70};
  const std::vector<digest> values = random_leaves(2);
  const cl::Buffer at(hasher().context(), CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, std::size_t(16),
                      const_cast<std::uint64_t *>(indices.data()));
  const cl::Buffer leaf_buffer(hasher().context(), CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR,
                               std::size_t(64), const_cast<digest *>(values.data()));
  CHECK_THROWS_WITH(t.update(at, leaf_buffer, 2), Contains("leaf index 70 out of range"));
  CHECK_THROWS_WITH(t.update(at, leaf_buffer, 3), Contains("too small"));
  CHECK(t.update(at, leaf_buffer, 0) == t.root()); // none: nothing read, nothing written
  check_reference(t, leaves, t.root());
  std::vector<digest> host = leaves;
  host[1] = values[0];
  check_reference(t, host, t.update(at, leaf_buffer, 1)); // the first alone is in range
}

TEST_CASE("k-ary trees on the device update from page-locked batches", "[resident][kary][batch]") {
  std::mt19937_64 random(380);
  for_each_case([&](const merklize::kary_options &options, std::uint64_t n) {
    std::vector<digest> host = random_leaves(n);
    resident_kary_tree t(hasher(), host, options);
    merklize::resident_batch b = t.make_update_batch(n + 2); // reused by every call
    for (const auto &indices : batches(n, random)) {
      const std::vector<digest> values = random_leaves(indices.size());
      apply_host(host, indices, values);
      REQUIRE(indices.size() <= b.capacity());
      for (std::size_t i = 0; i < indices.size(); ++i) {
        b.indices()[i] = indices[i];
        b.leaves()[i] = values[i];
      }
      test::poison(t, indices);
      check_reference(t, host, t.update(b, indices.size()));
    }
    const auto before = t.levels();
    CHECK_THROWS_WITH(t.update(b, b.capacity() + 1), Contains("room for"));
    b.indices()[0] = n; // out of range: refused before the tree is written
    CHECK_THROWS_WITH(t.update(b, 1), Contains("out of range"));
    CHECK(t.levels() == before);
  });
}
