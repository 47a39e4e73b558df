// SPDX-License-Identifier: Apache-2.0 OR MIT
// k-ary trees streamed through the device (kary_stream.hpp) against the host reference
// (kary.hpp): roots and proofs, arities 2 to 128, shapes promote and zero, leaf counts around a
// small chunk of k^j leaves (many chunks, a short last one), from files and pipes; and the
// refusals of bad inputs, naming them.
#include "block_helpers.hpp"
#include "helpers.hpp"
#include "pipe_input.hpp"
#include "process.hpp"

#include <merklize/engine/kary_stream.hpp>

#include <catch2/catch.hpp>

#include <algorithm>
#include <set>

using Catch::Matchers::Contains;

namespace {

using test::as_digests;
using test::hasher;

// The leaf counts around a chunk of `chunk` leaves at arity k: 1, 2, 3, k - 1, k, k + 1, one
// chunk and a leaf either side, and several chunks with a short last one.
std::set<std::uint64_t> counts_around(std::uint64_t k, std::uint64_t chunk) {
  return {1, 2, 3, k - 1, k, k + 1, chunk - 1, chunk, chunk + 1, 3 * chunk + k + 1};
}

// Chunks of k^2 leaves (k^1 at k = 128): a test's inputs span several of them.
unsigned small_chunk_log2(unsigned k) {
  const unsigned bits = merklize::detail::ceil_log2(k);
  return k == 128 ? bits : 2 * bits;
}

} // namespace

TEST_CASE("streamed k-ary roots and proofs match the host's, files and pipes", "[kary]") {
  auto &h = hasher();
  for (unsigned k : {2u, 4u, 8u, 16u, 128u})
    for (auto pad : {merklize::shape::promote, merklize::shape::zero}) {
      const unsigned s = small_chunk_log2(k);
      const std::uint64_t chunk = std::uint64_t(1) << s;
      const auto hash = k == 8 ? merklize::hash_kind::blake3 : merklize::hash_kind::sha256;
      const merklize::kary_options options{hash, k, pad};
      for (const std::uint64_t n : counts_around(k, chunk)) {
        INFO("k=" << k << " n=" << n << " " << merklize::to_string(pad));
        const auto bytes = test::random_bytes(n * merklize::node_bytes);
        const auto levels = merklize::kary_levels(as_digests(bytes), options);
        const auto path = test::write_file("kary-stream.leaves", bytes).string();
        merklize::input file(path);
        CHECK(merklize::kary_root(h, file, options, s) == levels.back().front());
        for (const std::uint64_t i : {std::uint64_t(0), std::min(chunk, n - 1), n - 1}) {
          INFO("leaf " << i);
          merklize::input again(path);
          const auto proof = merklize::kary_prove(h, again, options, i, s);
          CHECK(proof.siblings == merklize::kary_prove(levels, options, i).siblings);
          CHECK(proof.leaf_count == n);
          CHECK(merklize::kary_verify(proof, levels.front()[i], levels.back().front()));
        }
        // A pipe's length is known only at its end: chunks of k^j leaves, the last one short.
        test::pipe_input piped(bytes, true);
        CHECK(merklize::kary_root(h, piped.get(), options, s) == levels.back().front());
        const std::uint64_t boundary = std::min(chunk, n - 1);
        test::pipe_input piped_again(bytes, true);
        CHECK(merklize::kary_prove(h, piped_again.get(), options, boundary, s).siblings ==
              merklize::kary_prove(levels, options, boundary).siblings);
      }
    }
}

TEST_CASE("streamed k-ary trees at the device's own chunk size", "[kary]") {
  auto &h = hasher();
  const merklize::kary_options options{merklize::hash_kind::keccak256, 16, merklize::shape::zero};
  const auto bytes = test::random_bytes(5000 * merklize::node_bytes);
  const auto levels = merklize::kary_levels(as_digests(bytes), options);
  merklize::input file(test::write_file("kary-stream.leaves", bytes).string());
  CHECK(merklize::kary_root(h, file, options) == levels.back().front());
  test::pipe_input piped(bytes);
  CHECK(merklize::kary_prove(h, piped.get(), options, 4097).siblings ==
        merklize::kary_prove(levels, options, 4097).siblings);
}

TEST_CASE("streamed k-ary trees refuse bad inputs, naming them", "[kary]") {
  auto &h = hasher();
  const merklize::kary_options options{merklize::hash_kind::sha256, 4, merklize::shape::promote};
  const auto refused = [&](merklize::input &in, const std::string &reason, bool prove) {
    INFO(reason);
    try {
      if (prove)
        merklize::kary_prove(h, in, options, 20, 4);
      else
        merklize::kary_root(h, in, options, 4);
      FAIL("not refused");
    } catch (const merklize::error &e) {
      CHECK_THAT(e.what(), Contains(in.name()) && Contains(reason));
    }
  };
  for (const bool pipe : {false, true}) {
    INFO((pipe ? "pipe" : "file"));
    const auto check = [&](const std::vector<std::uint8_t> &bytes, const std::string &reason,
                           bool prove) {
      if (pipe) {
        test::pipe_input piped(bytes, false, "the leaf pipe");
        refused(piped.get(), reason, prove);
      } else {
        merklize::input file(test::write_file("kary-stream.bad", bytes).string());
        refused(file, reason, prove);
      }
    };
    check({}, "no leaves", false);
    check(test::random_bytes(33), "not a multiple of 32", false);
    check(test::random_bytes(20 * 32 + 1), "not a multiple of 32", true);
    check(test::random_bytes(20 * 32), "leaf index 20 out of range: the tree has 20 leaves", true);
  }
  merklize::input file(test::write_file("kary-stream.leaves", test::random_bytes(64)).string());
  CHECK_THROWS_WITH(merklize::kary_root(h, file, {merklize::hash_kind::sha256, 3}),
                    Contains("arity 3"));
}
