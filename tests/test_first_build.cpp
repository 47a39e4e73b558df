// SPDX-License-Identifier: Apache-2.0 OR MIT
// Issue 29's first call in a process: the first build of a size finds no page-locked memory in
// its merkleizer's pool and returns its tree in ordinary memory, streamed through the small
// staging ring; the pool pins buffers of that size on a thread after the second such build, and
// the builds after that run from them. Every build's tree, each way, is the host reference's node
// for node at awkward sizes, one of them larger than a ring chunk; the pooled builds write into
// memory poisoned by the test before it went back to the pool. The copy workers that the ring's
// many small copies run on copy every byte, called from several threads at once.
#include "helpers.hpp"

#include <catch2/catch.hpp>

#include <merklize/merklize.hpp>

#include <chrono>
#include <cstring>
#include <thread>

namespace {

// A tree's leaves or nodes of 1 MiB or more come from its merkleizer's pool.
constexpr std::uint64_t pooled_bytes = std::uint64_t(1) << 20;

bool pooled_leaves(const merklize::tree &t) {
  return t.first_level() == 0 && t.leaves_size() >= pooled_bytes;
}

bool pooled(const merklize::tree &t) { return pooled_leaves(t) || t.nodes_size() >= pooled_bytes; }

// Whether the tree's pooled memory is page-locked, i.e. came from the pool's pinned buffers.
bool pinned(const merklize::merkleizer &m, const merklize::tree &t) {
  if (pooled_leaves(t))
    return merklize::is_page_locked(m.context(), t.level_data(0), t.leaves_size());
  return t.nodes_size() >= pooled_bytes &&
         merklize::is_page_locked(m.context(), t.nodes_data(), t.nodes_size());
}

void check_levels(const merklize::tree &t, const merklize::tree &expected) {
  REQUIRE(t.depth() == expected.depth());
  for (unsigned level = t.first_level(); level <= t.depth(); ++level) {
    INFO("level " << level);
    const std::uint64_t bytes = t.layout().level_size(level) * merklize::node_bytes;
    CHECK(std::memcmp(t.level_data(level), expected.level_data(level), bytes) == 0);
  }
}

// Poisons every level the tree keeps, so that a build reusing its memory must write all of it.
void poison(merklize::tree &t) {
  for (unsigned level = t.first_level(); level <= t.depth(); ++level)
    std::memset(t.level_data(level), test::poison_byte,
                t.layout().level_size(level) * merklize::node_bytes);
}

} // namespace

TEST_CASE("the first builds go through the staging ring, the later ones from the pinned pool, "
          "each tree the reference's",
          "[first_build][streaming]") {
  const bool zero_copy = GENERATE(false, true);
  const unsigned first = GENERATE(0u, 1u);
  const merklize::tree_options options{merklize::hash_kind::sha256, merklize::shape::promote};
  // 2^15 leaves are the smallest pooled size (1 MiB); 2^17 + 3 is more than a ring chunk.
  for (const std::uint64_t n :
       {std::uint64_t(1), std::uint64_t(2), std::uint64_t(3), std::uint64_t(32767),
        std::uint64_t(32768), std::uint64_t(32769), (std::uint64_t(1) << 17) + 3}) {
    INFO("n=" << n << (zero_copy ? ", zero copy" : "") << ", output from level " << first);
    const auto leaves = test::random_bytes(n * merklize::node_bytes);
    const auto expected = merklize::reference_tree(leaves.data(), leaves.size(), options);
    merklize::config cfg{options, merklize::output_levels::from_level(first)};
    cfg.zero_copy = zero_copy;
    merklize::merkleizer m(test::test_device(), cfg);
    bool seen_pinned = false, is_pooled = false;
    // Two builds in ordinary memory, then builds until one runs from the pool's pinned buffers
    // (pinned on a thread after the second build) and one more after it.
    for (int b = 0; b < 200 && !(seen_pinned && b >= 4); ++b) {
      INFO("build " << b + 1);
      merklize::tree t = m.build(leaves);
      check_levels(t, expected);
      is_pooled = pooled(t);
      if (b < 2 || !is_pooled) CHECK_FALSE(pinned(m, t));
      seen_pinned = seen_pinned || pinned(m, t);
      poison(t); // pooled memory comes back poisoned
      if (b >= 2 && is_pooled && !seen_pinned)
        std::this_thread::sleep_for(std::chrono::milliseconds(10));
      if (!is_pooled && b >= 2) break;
    }
    if (is_pooled) CHECK(seen_pinned);
  }
}

TEST_CASE("the copy workers copy every byte of every run, from several threads at once",
          "[first_build]") {
  // Runs of awkward lengths end to end, larger and smaller than a slice.
  const std::vector<std::uint64_t> lengths{1, 4095, 4097, (3u << 20) + 7, 1, 65536, 12345};
  std::uint64_t total = 0;
  for (const std::uint64_t l : lengths)
    total += l;
  const auto source = test::random_bytes(total);
  const auto copy_all = [&](std::vector<std::uint8_t> &into) {
    std::vector<merklize::detail::copy_run> runs;
    std::uint64_t at = 0;
    for (const std::uint64_t l : lengths) {
      // Reversed order of the runs in the destination, so a slice's offsets are checked.
      runs.push_back({into.data() + (total - at - l), source.data() + at, l});
      at += l;
    }
    merklize::detail::parallel_copy(runs);
  };
  std::vector<std::uint8_t> expected(total);
  std::uint64_t at = 0;
  for (const std::uint64_t l : lengths) {
    std::memcpy(expected.data() + (total - at - l), source.data() + at, l);
    at += l;
  }
  std::vector<std::vector<std::uint8_t>> outs(4, std::vector<std::uint8_t>(total, 0xA5));
  std::vector<std::thread> threads;
  for (std::size_t i = 1; i < outs.size(); ++i)
    threads.emplace_back([&, i] {
      for (int r = 0; r < 20; ++r)
        copy_all(outs[i]);
    });
  for (int r = 0; r < 20; ++r)
    copy_all(outs[0]);
  for (std::thread &t : threads)
    t.join();
  for (std::size_t i = 0; i < outs.size(); ++i) {
    INFO("thread " << i);
    CHECK(outs[i] == expected);
  }
}
