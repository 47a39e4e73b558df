// SPDX-License-Identifier: Apache-2.0 OR MIT
// k-ary trees built on the device (kary_device.hpp) against the host reference (kary.hpp): every
// level, every shape, both hashes, arities 2 to 128 at sizes around their boundaries, from leaves
// as given (files, pipes) and from data blocks.
#include "block_helpers.hpp"
#include "pipe_input.hpp"
#include "process.hpp"

#include <merklize/block_tree.hpp>
#include <merklize/kary_device.hpp>

#include <catch2/catch.hpp>

using Catch::Matchers::Contains;

namespace {

using test::as_digests;
using test::hasher;

} // namespace

TEST_CASE("k-ary trees on the device match the host's, every level", "[kary]") {
  auto &h = hasher();
  for (unsigned k : {2u, 4u, 16u, 128u})
    for (std::uint64_t n :
         {std::uint64_t(1), std::uint64_t(2), std::uint64_t(k) - 1, std::uint64_t(k),
          std::uint64_t(k) + 1, std::uint64_t(k) * k + 1, std::uint64_t(1000)})
      for (auto hash : {merklize::hash_kind::sha256, merklize::hash_kind::blake3})
        for (auto pad : {merklize::shape::promote, merklize::shape::zero}) {
          const merklize::kary_options options{hash, k, pad};
          const auto bytes = test::random_bytes(n * merklize::node_bytes);
          const auto expected = merklize::kary_levels(as_digests(bytes), options);
          INFO("k=" << k << " n=" << n << " " << merklize::to_string(hash) << " "
                    << merklize::to_string(pad));
          merklize::input file(test::write_file("kary.leaves", bytes).string());
          const auto got = merklize::kary_tree_on_device(h, h.leaves_as_given(file), options, true);
          CHECK(got.levels == expected);
          CHECK(got.root == expected.back().front());
        }
}

TEST_CASE("k-ary trees on the device from pipes and from data blocks", "[kary]") {
  auto &h = hasher();
  h.set_piece_target(4096);
  const merklize::kary_options options{merklize::hash_kind::blake3, 8, merklize::shape::zero};
  const auto bytes = test::random_bytes(300 * merklize::node_bytes);
  test::pipe_input piped(bytes);
  CHECK(merklize::kary_tree_on_device(h, h.leaves_as_given(piped.get()), options).root ==
        merklize::kary_root(as_digests(bytes), options));
  const merklize::leaf_rule rule{merklize::leaf_hash::sha256, 100, {}, false, std::nullopt};
  merklize::input data(test::write_file("kary.data", bytes).string());
  CHECK(merklize::kary_tree_on_device(h, h.leaves_of(data, rule), options).root ==
        merklize::kary_root(merklize::block_leaves(rule, bytes.data(), bytes.size()), options));
  test::pipe_input partial(test::random_bytes(100));
  CHECK_THROWS_WITH(h.leaves_as_given(partial.get()),
                    Contains("the pipe: leaf data is 100 bytes, not a multiple of 32"));
  h.set_piece_target(std::uint64_t(16) << 20);
}
