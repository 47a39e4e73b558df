// SPDX-License-Identifier: Apache-2.0 OR MIT
// A log kept on the device in parts (resident_log.hpp) against the host reference over all its
// leaves: parts of 2, 4 and 8 leaves, the first adopted from a device buffer or appended, then
// appends from host memory and from device buffers of 1, 2, 3, 7, 8, 9 and 17 leaves (within the
// last part, filling it, spanning several new ones) for rfc6962, sha256 and keccak256; the root
// after each. And the refusals: a part adopted after one not full or larger than a part,
// configurations whose parts' roots are not the log's nodes, a log with no leaves.
#include "block_helpers.hpp"
#include "proof_helpers.hpp"

#include <merklize/core/reference.hpp>
#include <merklize/engine/resident_log.hpp>

#include <catch2/catch.hpp>

using Catch::Matchers::Contains;

namespace {

using test::hasher;

std::vector<merklize::digest> some_leaves(std::uint64_t count) {
  std::vector<merklize::digest> leaves(static_cast<std::size_t>(count));
  for (auto &leaf : leaves)
    leaf = test::random_digest();
  return leaves;
}

cl::Buffer on_device(const std::vector<merklize::digest> &leaves, std::uint64_t room) {
  auto &h = hasher();
  const cl::Buffer buffer =
      test::poisoned_buffer(h.context(), h.queue(), std::max<std::uint64_t>(room, 1) * 32);
  if (!leaves.empty())
    h.queue().enqueueWriteBuffer(buffer, CL_TRUE, 0, leaves.size() * 32, leaves.data());
  return buffer;
}

void check_root(const merklize::resident_log &log, const std::vector<merklize::digest> &leaves,
                const merklize::tree_options &options, const merklize::digest &returned) {
  const merklize::digest expected =
      merklize::reference_tree(leaves.data(), leaves.size() * 32, options).root();
  CHECK(returned == expected);
  CHECK(log.root() == expected);
  CHECK(log.leaf_count() == leaves.size());
}

} // namespace

TEST_CASE("a log in parts equals the reference over all its leaves", "[resident][log]") {
  using merklize::hash_kind;
  for (const auto hash : {hash_kind::rfc6962, hash_kind::sha256, hash_kind::keccak256})
    for (unsigned part_log2 : {1u, 2u, 3u})
      for (bool adopt_first : {false, true}) {
        const merklize::tree_options options{hash};
        INFO(merklize::to_string(hash)
             << ", parts of 2^" << part_log2 << (adopt_first ? ", the first adopted" : ""));
        merklize::resident_log log(hasher(), merklize::config{options}, part_log2);
        std::vector<merklize::digest> leaves = some_leaves(std::uint64_t(1) << part_log2);
        const merklize::digest first =
            adopt_first
                ? log.adopt({on_device(leaves, leaves.size()), leaves.size(), leaves.size()})
                : log.append(leaves);
        check_root(log, leaves, options, first);
        bool from_device = false;
        for (std::uint64_t count : {1, 2, 3, 7, 8, 9, 17, 1, 1}) {
          const std::vector<merklize::digest> more = some_leaves(count);
          INFO("append " << count << " onto " << leaves.size()
                         << (from_device ? " from a device buffer" : " from host memory"));
          const merklize::digest root =
              from_device ? log.append(on_device(more, count), count) : log.append(more);
          leaves.insert(leaves.end(), more.begin(), more.end());
          check_root(log, leaves, options, root);
          CHECK(log.parts().size() == (leaves.size() + (1u << part_log2) - 1) >> part_log2);
          from_device = !from_device;
        }
      }
}

TEST_CASE("refused logs in parts", "[resident][log]") {
  auto &h = hasher();
  using merklize::hash_kind;
  const merklize::config rfc{{hash_kind::rfc6962}};
  CHECK_THROWS_WITH(merklize::resident_log(h, rfc, 0), Contains("give 1 <= part_log2 <= 32"));
  CHECK_THROWS_WITH(merklize::resident_log(h, merklize::config{{hash_kind::blake3_parent}}, 4),
                    Contains("root flag"));
  CHECK_THROWS_WITH(
      merklize::resident_log(h, merklize::config{{hash_kind::sha256, merklize::shape::zero}}, 4),
      Contains("shape promote"));
  merklize::resident_log log(h, rfc, 2);
  CHECK_THROWS_WITH(log.root(), Contains("no leaves yet"));
  const std::vector<merklize::digest> leaves = some_leaves(3);
  CHECK_THROWS_WITH(log.adopt({on_device(leaves, 5), 3, 5}),
                    Contains("a part of room for 5 leaves; a part holds at most 4"));
  const merklize::digest root = log.adopt({on_device(leaves, 4), 3, 4});
  CHECK_THROWS_WITH(log.adopt({on_device(leaves, 3), 3, 3}),
                    Contains("the last part holds 3 of its 4 leaves"));
  CHECK(log.root() == root);
  CHECK(log.leaf_count() == 3);
}
