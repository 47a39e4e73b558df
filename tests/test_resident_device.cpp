// SPDX-License-Identifier: Apache-2.0 OR MIT
// Trees kept on the device (resident_tree.hpp) fed from device buffers, against the host
// reference rebuilt from scratch: appends from a caller's buffer (1, 2, 3, 2^k - 1, 2^k, 2^k + 1
// leaves onto awkward sizes, across powers of two, for promote, zero, a fixed depth, rfc6962 and
// blake3-parent), the device waiting for the caller's write of the buffer on another queue (held
// back by a user event, released late: a copy that did not wait reads poison); an update from
// device buffers waiting the same way; trees over adopted leaves (the caller's buffer becomes the
// leaves, levels laid out for the room given, appends up to it moving nothing, past it growing);
// reserve(); and the refusals (buffers too small or of another context, room past a fixed
// depth), which change nothing.
#include "block_helpers.hpp"
#include "proof_helpers.hpp"

#include <merklize/core/reference.hpp>
#include <merklize/engine/resident_tree.hpp>

#include <catch2/catch.hpp>

#include <chrono>
#include <thread>

using Catch::Matchers::Contains;

namespace {

using test::hasher;

using test::random_leaves;

// The tree equal to the reference over `leaves`: the returned root, its root and every level.
void check_tree(const merklize::resident_tree &t, const std::vector<merklize::digest> &leaves,
                const merklize::digest &returned) {
  const merklize::tree expected =
      merklize::reference_tree(leaves.data(), leaves.size() * 32, t.options());
  CHECK(returned == expected.root());
  CHECK(t.root() == expected.root());
  REQUIRE(t.leaf_count() == leaves.size());
  const auto levels = t.levels();
  REQUIRE(levels.size() == expected.depth() + 1);
  for (unsigned level = 0; level <= expected.depth(); ++level)
    CHECK(levels[level] == expected.level(level));
}

// A poisoned buffer of the test device that a second queue fills with `leaves` once the
// returned user event is set: `written` receives that write's event, for the tree to wait for.
struct late_buffer {
  cl::Buffer buffer;
  cl::UserEvent release;
  cl::Event written;
};

late_buffer written_late(const cl::CommandQueue &other, const void *data, std::size_t bytes) {
  auto &h = hasher();
  late_buffer b{
      test::poisoned_buffer(h.context(), h.queue(), bytes), cl::UserEvent(h.context()), {}};
  const std::vector<cl::Event> wait = {b.release};
  other.enqueueWriteBuffer(b.buffer, CL_FALSE, 0, bytes, data, &wait, &b.written);
  other.flush();
  return b;
}

// Sets `release` after a while on another thread (the tree's call blocks until it is set).
std::thread release_later(cl::UserEvent release) {
  return std::thread([release]() mutable {
    std::this_thread::sleep_for(std::chrono::milliseconds(30));
    release.setStatus(CL_COMPLETE);
  });
}

// Appends `count` random leaves from a device buffer written late, then checks the tree.
void append_from_device(merklize::resident_tree &t, std::vector<merklize::digest> &leaves,
                        std::uint64_t count, const cl::CommandQueue &other) {
  const std::vector<merklize::digest> more = random_leaves(count);
  INFO("append " << count << " from a device buffer onto " << leaves.size());
  late_buffer b = written_late(other, more.data(), more.size() * 32);
  std::thread releaser = release_later(b.release);
  const merklize::digest root = t.append(b.buffer, count, {b.written});
  releaser.join();
  leaves.insert(leaves.end(), more.begin(), more.end());
  CHECK(t.capacity() >= leaves.size());
  check_tree(t, leaves, root);
}

cl::CommandQueue second_queue() { return cl::CommandQueue(hasher().context(), hasher().device()); }

} // namespace

TEST_CASE("appends from device buffers equal the reference rebuilt",
          "[resident][append][device_buffer]") {
  using merklize::hash_kind;
  using merklize::shape;
  const cl::CommandQueue other = second_queue();
  const std::vector<merklize::tree_options> trees = {{hash_kind::sha256, shape::promote},
                                                     {hash_kind::rfc6962, shape::promote},
                                                     {hash_kind::blake3_parent, shape::promote},
                                                     {hash_kind::keccak256, shape::zero},
                                                     {hash_kind::sha256, shape::zero, 12}};
  for (std::uint64_t n : {1, 2, 3, 7, 8, 9})
    for (const merklize::tree_options &options : trees) {
      INFO("n=" << n << " " << merklize::to_string(options.hash) << " "
                << merklize::to_string(options.shape));
      std::vector<merklize::digest> leaves = random_leaves(n);
      merklize::resident_tree t(hasher(), leaves, merklize::config{options});
      for (std::uint64_t count : {1, 2, 3, 7, 8, 9, 255, 256, 257})
        append_from_device(t, leaves, count, other);
      // Host and device appends mix on one tree, and an update sees the grown tree.
      const std::vector<merklize::digest> more = random_leaves(5);
      leaves.insert(leaves.end(), more.begin(), more.end());
      check_tree(t, leaves, t.append(more));
      const merklize::digest last = test::random_digest();
      leaves.back() = last;
      check_tree(t, leaves, t.update({leaves.size() - 1}, {last}));
    }
}

TEST_CASE("an update from device buffers waits for the caller's events",
          "[resident][device_buffer]") {
  const cl::CommandQueue other = second_queue();
  std::vector<merklize::digest> leaves = random_leaves(1000);
  merklize::resident_tree t(hasher(), leaves, merklize::config{{merklize::hash_kind::sha256}});
  const std::vector<cl_ulong> indices = {999, 0, 500, 0};
  const std::vector<merklize::digest> values = random_leaves(indices.size());
  late_buffer i = written_late(other, indices.data(), indices.size() * sizeof(cl_ulong));
  late_buffer v = written_late(other, values.data(), values.size() * 32);
  std::thread releaser = release_later(i.release);
  v.release.setStatus(CL_COMPLETE);
  const merklize::digest root =
      t.update(i.buffer, v.buffer, indices.size(), {i.written, v.written});
  releaser.join();
  for (std::size_t k = 0; k < indices.size(); ++k)
    leaves[indices[k]] = values[k]; // the last value of index 0 wins
  check_tree(t, leaves, root);
}

TEST_CASE("refused appends from device buffers change nothing", "[resident][device_buffer]") {
  auto &h = hasher();
  std::vector<merklize::digest> leaves = random_leaves(5);
  merklize::resident_tree t(
      h, leaves, merklize::config{{merklize::hash_kind::sha256, merklize::shape::zero, 3}});
  const auto levels = t.levels();
  const merklize::digest root = t.root();
  const cl::Buffer small(h.context(), CL_MEM_READ_WRITE, 2 * 32);
  CHECK_THROWS_WITH(
      t.append(small, 3),
      Contains("the leaves buffer too small: it holds 64 bytes, the append needs 96"));
  const cl::Buffer four(h.context(), CL_MEM_READ_WRITE, 4 * 32);
  CHECK_THROWS_WITH(t.append(four, 4), Contains("would pass its 8 leaves (a fixed depth of 3)"));
  const cl::Context elsewhere(h.device());
  const cl::Buffer foreign(elsewhere, CL_MEM_READ_WRITE, 4 * 32);
  CHECK_THROWS_WITH(t.append(foreign, 1), Contains("belongs to another OpenCL context"));
  CHECK(t.root() == root);
  CHECK(t.levels() == levels);
  CHECK(t.append(small, 0) == root);
  check_tree(t, leaves, t.root());
}

TEST_CASE("trees over adopted leaves: no copy, levels laid out for the room",
          "[resident][append][adopted]") {
  auto &h = hasher();
  const cl::CommandQueue other = second_queue();
  for (const auto hash : {merklize::hash_kind::rfc6962, merklize::hash_kind::blake3_parent})
    for (std::uint64_t n : {1, 2, 3, 7, 8, 9, 255, 256, 257}) {
      INFO("n=" << n << " " << merklize::to_string(hash));
      std::vector<merklize::digest> leaves = random_leaves(n);
      const std::uint64_t room = n + 9;
      const cl::Buffer buffer = test::poisoned_buffer(h.context(), h.queue(), room * 32);
      h.queue().enqueueWriteBuffer(buffer, CL_TRUE, 0, n * 32, leaves.data());
      merklize::resident_tree t(h, {buffer, n, room}, merklize::config{{hash}});
      CHECK(t.capacity() == room);
      CHECK(t.on_device().level_buffer(0)() == buffer()); // the caller's buffer, not a copy
      check_tree(t, leaves, t.root());
      append_from_device(t, leaves, 9, other); // fills the room: nothing moves
      CHECK(t.capacity() == room);
      CHECK(t.on_device().level_buffer(0)() == buffer());
      append_from_device(t, leaves, 1, other); // past it: the tree grows as any does
      CHECK(t.capacity() >= room + 1);
      const merklize::digest value = test::random_digest();
      leaves[n / 2] = value;
      check_tree(t, leaves, t.update({n / 2}, {value}));
    }
}

TEST_CASE("refused adopted leaves, and reserve", "[resident][adopted]") {
  auto &h = hasher();
  const merklize::config depth3{{merklize::hash_kind::sha256, merklize::shape::zero, 3}};
  const cl::Buffer buffer(h.context(), CL_MEM_READ_WRITE, 16 * 32);
  CHECK_THROWS_WITH(merklize::resident_tree(h, {buffer, 0, 4}, depth3), Contains("no leaves"));
  CHECK_THROWS_WITH(merklize::resident_tree(h, {buffer, 5, 4}, depth3),
                    Contains("room for 4 leaves, fewer than their 5"));
  CHECK_THROWS_WITH(merklize::resident_tree(h, {buffer, 5, 9}, depth3),
                    Contains("room for 9 leaves, more than the tree may hold (8)"));
  CHECK_THROWS_WITH(merklize::resident_tree(h, {buffer, 5, 17}, merklize::config{}),
                    Contains("the leaves buffer too small: it holds 512 bytes"));

  std::vector<merklize::digest> leaves = random_leaves(5);
  merklize::resident_tree t(h, leaves, depth3);
  CHECK_THROWS_WITH(t.reserve(9), Contains("reserve: room for 9 leaves, more than the tree may "
                                           "hold (8)"));
  CHECK(t.capacity() == 5);
  t.reserve(7);
  CHECK(t.capacity() == 7);
  check_tree(t, leaves, t.root());
  const std::vector<merklize::digest> more = random_leaves(2);
  leaves.insert(leaves.end(), more.begin(), more.end());
  check_tree(t, leaves, t.append(more));
  CHECK(t.capacity() == 7);
  t.reserve(3); // less than it has: nothing
  CHECK(t.capacity() == 7);
}
