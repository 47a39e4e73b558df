// SPDX-License-Identifier: Apache-2.0 OR MIT
// The stream planner, without a device: chunks cover the part in order, aligned so each is a
// subtree, ramped at both ends of long streams, within the memory allowed. Built without OpenCL.
#include <merklize/plan/stream_plan.hpp>

#include <catch2/catch.hpp>

#if defined(CL_VERSION_1_0)
#error "the stream planner must not pull in the OpenCL headers"
#endif

using Catch::Matchers::Contains;
using merklize::detail::stream_plan;

namespace {

merklize::detail::device_memory plenty() {
  return {std::uint64_t(1) << 40, std::uint64_t(1) << 40, std::uint64_t(1) << 40, "a test device"};
}

merklize::tree_part whole(std::uint64_t n) {
  const merklize::tree_layout layout(n);
  return {0, layout, layout.depth()};
}

// Chunks cover [0, n) in order, each aligned to its own base (a subtree), no larger than 2^s.
void check_chunks(const stream_plan &p, std::uint64_t n) {
  std::uint64_t next = 0;
  for (std::uint64_t c = 0; c < p.chunks(); ++c) {
    const auto ch = p.at(c);
    INFO("chunk " << c << " [" << ch.first << ", +" << ch.count << ")");
    REQUIRE(ch.first == next);
    REQUIRE(ch.count >= 1);
    CHECK(ch.count <= (std::uint64_t(1) << p.s));
    CHECK(ch.first % (std::uint64_t(1) << p.base) == 0);
    const bool last = ch.first + ch.count == n;
    CHECK((last || ch.count % (std::uint64_t(1) << p.base) == 0));
    next += ch.count;
  }
  CHECK(next == n);
}

} // namespace

TEST_CASE("chunks cover the part in aligned subtrees, ramped at both ends", "[stream-plan]") {
  for (unsigned s : {1u, 3u, 4u, 6u, 21u})
    for (std::uint64_t n :
         {2ull, 3ull, 7ull, 8ull, 9ull, 61ull, 64ull, 65ull, 1000ull, 4097ull, (1ull << 25) + 3}) {
      if ((n >> s) > 100000) continue; // a few chunks of each kind say as much
      INFO("n=" << n << " chunks of 2^" << s);
      const auto p = merklize::detail::plan_stream(whole(n), s, 3, 15, plenty());
      check_chunks(p, n);
      const std::uint64_t size = std::uint64_t(1) << p.s;
      const bool ramp = (n + size - 1) / size >= 4 && p.s >= 3;
      CHECK(p.head.size() == (ramp ? 3u : 0u));
      if (ramp) {
        CHECK(p.at(0).count == size / 4);
        CHECK(p.at(2).count == size / 2);
        CHECK(p.at(p.chunks() - 1).count <= size / 4);
        CHECK(p.base == p.s - 2);
      }
      CHECK(p.lower < std::max(p.base, 1u));
      CHECK(p.slots == std::min<std::uint64_t>(3, p.chunks()));
    }
}

TEST_CASE("a chunk's levels of 2^15 nodes or more come back with it", "[stream-plan]") {
  const auto p = merklize::detail::plan_stream(whole(std::uint64_t(1) << 25), 21, 3, 15, plenty());
  CHECK(p.s == 21);
  CHECK(p.base == 19);
  CHECK(p.lower == 6); // levels 1..6 of 2^21 leaves hold 2^20 .. 2^15 nodes
  CHECK(p.slot_nodes == (std::uint64_t(1) << 21) - (std::uint64_t(1) << 15));
  CHECK(p.slot_level_first(1) == 0);
  CHECK(p.slot_level_first(2) == std::uint64_t(1) << 20);
}

TEST_CASE("a memory cap shrinks chunks, and a tree that cannot fit is refused", "[stream-plan]") {
  const std::uint64_t n = 20000;
  merklize::detail::device_memory small{256 * 1024, 256 * 1024, 1 << 30, "a small device"};
  const auto p = merklize::detail::plan_stream(whole(n), 22, 3, 15, small);
  CHECK(p.device_bytes() <= small.budget);
  CHECK(p.chunks() >= 4);
  check_chunks(p, n);
  small.budget = 4096;
  CHECK_THROWS_WITH(merklize::detail::plan_stream(whole(n), 22, 3, 15, small),
                    Contains("tree too large for a small device") &&
                        Contains("4096 bytes are allowed"));
}

TEST_CASE("a part streams in its own layout", "[stream-plan]") {
  const merklize::tree_layout layout(1000);
  const merklize::tree_part part{3072, layout, 3}; // levels 1..3 of leaves [3072, 4072)
  const auto p = merklize::detail::plan_stream(part, 6, 2, 15, plenty());
  check_chunks(p, 1000);
  CHECK(p.s == 3); // never more levels than the part computes
  CHECK(p.upper_nodes == layout.level_offset(4) - layout.level_offset(p.lower + 1));
}

TEST_CASE("streamed k-ary trees take chunks of k^j leaves near the binary chunk", "[kary]") {
  using merklize::detail::kary_chunk_levels;
  CHECK(kary_chunk_levels(2, 21, std::nullopt) == 21); // arity 2: the binary stream's chunks
  CHECK(kary_chunk_levels(8, 21, std::nullopt) == 7);  // 2^21 leaves
  CHECK(kary_chunk_levels(16, 21, std::nullopt) == 5); // 2^20: no larger than the binary chunk
  CHECK(kary_chunk_levels(128, 21, std::nullopt) == 3);
  CHECK(kary_chunk_levels(128, 4, std::nullopt) == 1); // at least one level
  // A known size needs no more: 17 leaves at arity 4 take chunks of 64, one leaf of 16.
  CHECK(kary_chunk_levels(4, 20, 17 * 32) == 3);
  CHECK(kary_chunk_levels(4, 20, 16 * 32) == 2);
  CHECK(kary_chunk_levels(4, 20, 32) == 1);
}
