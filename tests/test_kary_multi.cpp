// SPDX-License-Identifier: Apache-2.0 OR MIT
// k-ary trees on several devices (kary_multi.hpp), on PoCL as the same device named two and
// three times: every level, root and proof bit for bit kary.hpp's, over leaves as given and
// leaves of data blocks, at sizes around the powers of k, with shards of one and two levels and
// about 8 a device, even and uneven weights; files, pipes, and errors that name the input.
#include "block_helpers.hpp"
#include "cli_helpers.hpp"
#include "helpers.hpp"
#include "multi_helpers.hpp"
#include "pipe_input.hpp"
#include "process.hpp"

#include <merklize/engine/kary_multi.hpp>

using Catch::Matchers::Contains;

namespace {

using test::as_digests;
using test::same_device;

std::vector<std::uint64_t> sizes_around_powers(unsigned k) {
  const std::uint64_t k2 = std::uint64_t(k) * k;
  return {1, 2, 3, k - 1, k, k + 1u, k2 - 1, k2, k2 + 1, k2 * 2 + 5};
}

// Levels, root and proofs of a few leaves of `got` against the host's `expected` levels.
void check_tree(const merklize::kary_multi_tree &got,
                const std::vector<std::vector<merklize::digest>> &expected,
                const merklize::kary_options &o) {
  CHECK(got.levels() == expected);
  CHECK(got.root() == expected.back().front());
  const std::uint64_t n = expected.front().size();
  const std::vector<std::uint64_t> indices = {0, n / 2, n - 1, n / 3};
  const auto proofs = got.prove(indices);
  for (std::size_t i = 0; i < indices.size(); ++i) {
    const auto want = merklize::kary_prove(expected, o, indices[i]);
    CHECK(proofs[i].siblings == want.siblings);
    CHECK(proofs[i].leaf_count == n);
    CHECK(merklize::kary_verify(proofs[i], expected.front()[indices[i]], got.root()));
  }
}

} // namespace

TEST_CASE("k-ary trees on several devices equal the host's: levels, root, proofs",
          "[kary][multi]") {
  for (unsigned k : {2u, 4u, 16u})
    for (std::uint64_t n : sizes_around_powers(k))
      for (auto hash : {merklize::hash_kind::sha256, merklize::hash_kind::blake3})
        for (auto pad : {merklize::shape::promote, merklize::shape::zero})
          for (unsigned shard_levels : {1u, 2u}) {
            const merklize::kary_options o{hash, k, pad};
            const auto bytes = test::random_bytes(n * merklize::node_bytes);
            INFO("k=" << k << " n=" << n << " " << merklize::to_string(hash) << " "
                      << merklize::to_string(pad) << " shard levels " << shard_levels);
            merklize::multi_kary_merkleizer mk(same_device(3), {o, {1, 2, 1}, shard_levels});
            const auto tree = mk.build(bytes.data(), bytes.size());
            check_tree(tree, merklize::kary_levels(as_digests(bytes), o), o);
          }
}

TEST_CASE("k-ary trees on several devices from data blocks, files and pipes", "[kary][multi]") {
  const merklize::kary_options o{merklize::hash_kind::sha256, 4, merklize::shape::zero};
  merklize::multi_kary_merkleizer mk(same_device(2), {o, {}, 0});
  mk.set_piece_target(512); // several pieces a shard
  const std::vector<merklize::leaf_rule> rules = {
      {merklize::leaf_hash::sha256, 100, {0xab, 0xcd, 0xef}, false, std::nullopt},
      {merklize::leaf_hash::blake3, 64, {}, true, std::nullopt}};
  for (const auto &rule : rules)
    for (std::uint64_t bytes : {std::uint64_t(1), std::uint64_t(99), std::uint64_t(6401),
                                std::uint64_t(100 * 1024 + 3)}) {
      INFO(merklize::to_string(rule.hash) << " leaves, " << bytes << " bytes");
      const auto data = test::random_bytes(bytes);
      const auto expected =
          merklize::kary_levels(merklize::block_leaves(rule, data.data(), data.size()), o);
      check_tree(mk.build(data.data(), data.size(), rule), expected, o);
      merklize::input file(test::write_file("kary_multi.data", data).string());
      CHECK(mk.build(file, rule).root() == expected.back().front());
      test::pipe_input piped(data);
      CHECK(mk.build(piped.get(), rule).root() == expected.back().front());
    }
  const auto leaves = test::random_bytes(3000 * merklize::node_bytes); // a file read at offsets
  merklize::input file(test::write_file("kary_multi.leaves", leaves).string());
  const auto tree = mk.build(file);
  CHECK(tree.plan().is_spread());
  check_tree(tree, merklize::kary_levels(as_digests(leaves), o), o);
  CHECK(mk.last_times().devices.size() == 2);
  CHECK(mk.last_times().devices[0].leaves + mk.last_times().devices[1].leaves == 3000);
}

TEST_CASE("k-ary trees on several devices refuse bad input, naming it", "[kary][multi]") {
  const merklize::kary_options o{merklize::hash_kind::blake3, 8, merklize::shape::promote};
  merklize::multi_kary_merkleizer mk(same_device(2), {o, {}, 0});
  test::pipe_input empty(std::vector<std::uint8_t>{});
  CHECK_THROWS_WITH(mk.build(empty.get()), Contains("the pipe is empty: a tree needs at least"));
  test::pipe_input partial(test::random_bytes(100));
  CHECK_THROWS_WITH(mk.build(partial.get()),
                    Contains("the pipe: leaf data is 100 bytes, not a multiple of 32"));
  const auto leaves = test::random_bytes(64);
  CHECK_THROWS_WITH(mk.build(leaves.data(), 0), Contains("no leaves"));
  const auto tree = mk.build(leaves.data(), leaves.size());
  CHECK_THROWS_WITH(tree.prove(2), Contains("leaf index 2 out of range: the tree has 2 leaves"));
  CHECK_THROWS_WITH(
      merklize::multi_kary_merkleizer(same_device(1), {{merklize::hash_kind::sha256, 6}, {}, 0}),
      Contains("arity 6"));
  CHECK_THROWS_WITH(merklize::multi_kary_merkleizer(same_device(2), {o, {1}}),
                    Contains("1 weights for 2 devices"));
}

TEST_CASE("a k-ary part on the device rises to its top as the tree's last node does",
          "[kary][multi]") {
  auto &h = test::hasher();
  for (auto pad : {merklize::shape::promote, merklize::shape::zero}) {
    const merklize::kary_options o{merklize::hash_kind::sha256, 4, pad};
    // The tree of 16 + 3 leaves: its part of leaves [16, 19) rises to level 2 and beyond.
    const auto bytes = test::random_bytes(19 * merklize::node_bytes);
    const auto expected = merklize::kary_levels(as_digests(bytes), o);
    merklize::input part(test::write_file("kary.part", std::vector<std::uint8_t>(
                                                           bytes.begin() + 16 * 32, bytes.end()))
                             .string());
    const merklize::device_tree tree(h, h.leaves_as_given(part), o, 2);
    CHECK(tree.top() == 2);
    CHECK(tree.top_nodes() == std::vector<merklize::digest>{expected[2][1]});
    const auto proof = merklize::kary_prove(expected, o, 18);
    const std::vector<std::vector<merklize::digest>> below_top(proof.siblings.begin(),
                                                               proof.siblings.begin() + 2);
    CHECK(tree.path_siblings({2}).front() == below_top);
  }
}

TEST_CASE("merklize root --arity --devices prints the single-device root", "[kary][multi][cli]") {
  const std::string spec = test::test_device_spec();
  const auto data = test::random_bytes(64000);
  const auto file = test::write_file("kary-multi-cli.data", data).string();
  const std::vector<std::vector<std::string>> trees = {
      {"--arity", "16"},
      {"--arity", "4", "--hash", "sha256", "--pad", "zero"},
      {"--arity", "8", "--leaf-size", "1000", "--hash", "sha256", "--salt", "00ff"},
      {"--arity", "2", "--leaf-size", "7", "--pad", "zero"},
  };
  for (const auto &tree : trees) {
    auto single = tree;
    single.insert(single.begin(), {"root", "--device", spec});
    single.push_back(file);
    const auto expected = test::merklize_cli(single);
    REQUIRE(expected.status == 0);
    const std::string shards = tree[1] == "8" ? "3" : tree[1] == "16" ? "4" : "2";
    for (const std::string &shard_log2 : {shards, std::string()}) {
      std::vector<std::string> several = {"root", "--devices", spec + "," + spec};
      several.insert(several.end(), tree.begin(), tree.end());
      if (!shard_log2.empty()) several.insert(several.end(), {"--shard-log2", shard_log2});
      auto from_file = several, from_stdin = several;
      from_file.push_back(file);
      from_stdin.push_back("-");
      INFO("merklize root --devices --arity " << tree[1] << ", --shard-log2 " << shard_log2);
      const auto got = test::merklize_cli(from_file);
      CHECK(got.out == expected.out);
      CHECK(got.err.empty());
      CHECK(test::merklize_cli(from_stdin, file).out == expected.out);
    }
  }
  test::check_devices_usage_errors(
      spec, file,
      {
          {{"--arity", "8", "--shard-log2", "4"}, "a shard of a k-ary tree is a power of K leaves"},
          {{"--arity", "8", "--salt", "00"}, "--salt needs --leaf-size or --format"},
          {{"--arity", "6"}, "arity 6"},
      });
  const auto odd = test::write_file("kary-multi-cli.odd", test::random_bytes(33)).string();
  const auto refused =
      test::merklize_cli({"root", "--devices", spec + "," + spec, "--arity", "4", odd});
  CHECK(refused.status == 1);
  CHECK_THAT(refused.err, Contains("kary-multi-cli.odd"));
  CHECK_THAT(refused.err, Contains("not a multiple of 32"));
}
