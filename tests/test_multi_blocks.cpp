// SPDX-License-Identifier: Apache-2.0 OR MIT
// Trees over data blocks on several devices (multi_blocks.hpp), on PoCL as the same device named
// two and three times: bit for bit the host reference and the single-device block path at
// awkward block counts, block sizes, leaf rules, node hashes and shapes; block_part_builder's
// parts; files, pipes and the command line; and the block kernels' tuning row.
#include "block_helpers.hpp"
#include "cli_helpers.hpp"
#include "helpers.hpp"
#include "multi_helpers.hpp"
#include "pipe_input.hpp"
#include "proof_helpers.hpp"
#include "tree_checks.hpp"

#include <merklize/engine/multi_blocks.hpp>

using Catch::Matchers::Contains;

namespace {

using test::multi_config;
using test::same_device;

std::array<std::uint8_t, 32> test_key() {
  std::array<std::uint8_t, 32> key;
  for (std::size_t i = 0; i < key.size(); ++i)
    key[i] = static_cast<std::uint8_t>(3 * i + 1);
  return key;
}

// SHA-256 with and without a salt, BLAKE3 plain and keyed, the last block short or zero-padded.
std::vector<merklize::leaf_rule> leaf_rules(std::uint64_t block_bytes) {
  using merklize::leaf_hash;
  return {
      {leaf_hash::sha256, block_bytes, {}, false, std::nullopt},
      {leaf_hash::sha256, block_bytes, {0xab, 0xcd, 0xef}, true, std::nullopt},
      {leaf_hash::blake3, block_bytes, {}, false, std::nullopt},
      {leaf_hash::blake3, block_bytes, {}, true, test_key()},
  };
}

std::string describe(const merklize::leaf_rule &rule) {
  return std::string(merklize::to_string(rule.hash)) + " leaves of " +
         std::to_string(rule.block_bytes) + " bytes" + (rule.prefix.empty() ? "" : ", salted") +
         (rule.key ? ", keyed" : "") + (rule.zero_pad ? ", zero-padded" : "");
}

merklize::tree reference_of(const merklize::leaf_rule &rule, const std::vector<std::uint8_t> &data,
                            const merklize::tree_options &options) {
  const auto leaves = merklize::block_leaves(rule, data.data(), data.size());
  return merklize::reference_tree(leaves.data(), leaves.size() * merklize::node_bytes, options);
}

// What block_tree_root gives for `data` on one device, from a file.
merklize::digest single_device_root(const merklize::leaf_rule &rule,
                                    const std::vector<std::uint8_t> &data,
                                    const merklize::tree_options &options) {
  merklize::input file(test::write_file("multi-blocks.data", data).string());
  return merklize::block_tree_root(test::hasher(), file, rule, options);
}

// Bytes of `blocks` blocks of L, the last one short by `short_by` (less than L).
std::uint64_t data_bytes(std::uint64_t blocks, std::uint64_t block_bytes, std::uint64_t short_by) {
  return blocks * block_bytes - short_by;
}

} // namespace

TEST_CASE("blocks over two devices give the host reference and the single-device tree",
          "[multi-blocks]") {
  const merklize::tree_options options = GENERATE(
      merklize::tree_options{merklize::hash_kind::sha256, merklize::shape::promote},
      merklize::tree_options{merklize::hash_kind::sha256, merklize::shape::zero},
      merklize::tree_options{merklize::hash_kind::blake3, merklize::shape::promote},
      merklize::tree_options{merklize::hash_kind::blake3, merklize::shape::zero},
      merklize::tree_options{merklize::hash_kind::blake3_parent, merklize::shape::promote});
  const unsigned s = GENERATE(1u, 2u);
  merklize::multi_block_merkleizer mm(same_device(2), multi_config(options, s));
  for (std::uint64_t block : {1u, 64u, 77u, 1025u, 4096u}) {
    mm.set_piece_target(2 * block + 1); // two blocks a piece: a part streams in several
    for (const auto &rule : leaf_rules(block))
      for (std::uint64_t n : test::awkward_sizes(5))
        for (std::uint64_t short_by : {std::uint64_t(0), block / 2}) {
          const auto data = test::random_bytes(data_bytes(n, block, short_by));
          INFO(test::describe(options) << ", shards of 2^" << s << ", " << describe(rule) << ", "
                                       << n << " blocks, " << data.size() << " bytes");
          const auto expected = reference_of(rule, data, options);
          const auto built = mm.build(data.data(), data.size(), rule);
          REQUIRE(built == expected);
          std::uint64_t blocks = 0;
          for (const auto &d : mm.last_times().devices)
            blocks += d.leaves;
          CHECK(blocks == n);
          CHECK(mm.last_times().shards == (n > (1u << s) ? (n + (1u << s) - 1) >> s : 1));
          if (n % 7 == 1 && block != 1) // the single-device path on a sample (it writes a file)
            CHECK(single_device_root(rule, data, options) == expected.root());
        }
  }
}

TEST_CASE("three devices with uneven weights, and the default shard size", "[multi-blocks]") {
  auto cfg = multi_config({merklize::hash_kind::sha256, merklize::shape::zero}, 2);
  cfg.weights = {1, 2, 3};
  merklize::multi_block_merkleizer mm(same_device(3), cfg);
  mm.set_piece_target(3 * 100);
  const merklize::leaf_rule rule{merklize::leaf_hash::sha256, 100, {7}, false, std::nullopt};
  const auto data = test::random_bytes(96 * 100 - 1); // 24 shards of 4 blocks
  CHECK(mm.build(data.data(), data.size(), rule) == reference_of(rule, data, cfg.tree));
  const auto &devices = mm.last_times().devices;
  CHECK(devices[0].leaves == 16);
  CHECK(devices[1].leaves == 32);
  CHECK(devices[2].leaves == 48);
  CHECK(mm.weights() == cfg.weights); // given weights stay

  // The default: about 8 shards a device, none smaller than a piece (3 blocks: 2^2).
  cfg.shard_log2 = 0;
  cfg.weights.clear();
  merklize::multi_block_merkleizer automatic(same_device(3), cfg);
  automatic.set_piece_target(3 * 100);
  CHECK(automatic.build(data.data(), data.size(), rule) == reference_of(rule, data, cfg.tree));
  CHECK(automatic.last_times().shard_log2 == 2); // 96 / 24 = 4 blocks a shard
  for (std::size_t i = 0; i < 3; ++i) {
    CHECK(automatic.last_times().devices[i].leaves == 32);
    CHECK(automatic.weights()[i] > 0); // measured: each device's blocks per millisecond
  }
  const auto small = test::random_bytes(4 * 100 - 5);
  CHECK(automatic.build(small.data(), small.size(), rule) == reference_of(rule, small, cfg.tree));
  CHECK(automatic.last_times().shards == 1); // one shard: one device builds it whole
}

TEST_CASE("blocks over several devices keep the levels asked for, and fixed depths",
          "[multi-blocks][output]") {
  const unsigned first = GENERATE(0u, 1u, 2u, 3u, 6u, ~0u);
  const auto hash = GENERATE(merklize::hash_kind::sha256, merklize::hash_kind::blake3_parent);
  const merklize::leaf_rule rule{merklize::leaf_hash::blake3, 50, {}, false, std::nullopt};
  for (const std::optional<unsigned> depth : {std::optional<unsigned>(), std::optional(9u)}) {
    const auto cfg = multi_config({hash, merklize::shape::zero, depth}, 2, {first});
    merklize::multi_block_merkleizer mm(same_device(3), cfg);
    for (std::uint64_t n : {1u, 5u, 33u, 100u}) {
      INFO(merklize::to_string(hash)
           << ", levels from " << first << ", " << n << " blocks" << (depth ? ", depth 9" : ""));
      const auto data = test::random_bytes(n * 50 - 3);
      test::check_kept(mm.build(data.data(), data.size(), rule), reference_of(rule, data, cfg.tree),
                       first);
    }
  }
  const auto cfg = multi_config({merklize::hash_kind::sha256, merklize::shape::zero, 3u}, 1);
  merklize::multi_block_merkleizer mm(same_device(2), cfg);
  const auto data = test::random_bytes(9 * 64);
  const merklize::leaf_rule blocks_of_64{merklize::leaf_hash::sha256, 64, {}, false, std::nullopt};
  CHECK_THROWS_WITH(mm.build(data.data(), data.size(), blocks_of_64),
                    Contains("cannot hold 9 leaves"));
}

TEST_CASE("blocks over several devices from a file read at offsets and from a pipe",
          "[multi-blocks][input]") {
  const merklize::tree_options options{merklize::hash_kind::blake3, merklize::shape::promote};
  merklize::multi_block_merkleizer mm(same_device(2), multi_config(options, 3));
  mm.set_piece_target(5000);
  merklize::leaf_rule rule;
  rule.block_bytes = 1000;
  for (std::uint64_t size : {1u, 999u, 1000u, 1001u, 40000u, 2500000u}) {
    INFO(size << " bytes");
    const auto data = test::random_bytes(size);
    const auto expected = reference_of(rule, data, options).root();
    std::uint64_t reported = 0;
    merklize::input file(test::write_file("multi-blocks-input.data", data).string());
    file.set_progress([&](std::uint64_t bytes) { reported = bytes; });
    CHECK(mm.build(file, rule).root() == expected);
    CHECK(reported == size);
    test::pipe_input piped(data);
    CHECK(mm.build(piped.get(), rule).root() == expected);
    CHECK(single_device_root(rule, data, options) == expected);
  }
  merklize::input empty(test::write_file("multi-blocks-empty.data", {}).string());
  CHECK_THROWS_WITH(mm.build(empty, rule), Contains("is empty"));
  test::pipe_input nothing({});
  CHECK_THROWS_WITH(mm.build(nothing.get(), rule), Contains("the pipe is empty"));
  CHECK_THROWS_WITH(mm.build("", 0, rule), Contains("no data"));
  rule.block_bytes = 0;
  CHECK_THROWS_WITH(mm.build("x", 1, rule), Contains("the leaf size is 0"));
}

TEST_CASE("block_part_builder writes its part of the tree and nothing else",
          "[multi-blocks][build_part]") {
  const auto options = GENERATE(Catch::Generators::from_range(test::all_tree_options()));
  merklize::config cfg{options};
  cfg.work_group_size = 4;
  merklize::block_part_builder b(test::test_device(), cfg);
  b.hasher().set_piece_target(3 * 40);
  const merklize::leaf_rule rule{merklize::leaf_hash::sha256, 40, {1, 2}, false, std::nullopt};
  for (std::uint64_t n : {5u, 16u, 37u}) {
    const auto data = test::random_bytes(n * 40 - 11);
    const merklize::data_reader read = [&](std::uint64_t at, std::uint64_t bytes,
                                           std::uint8_t *into) {
      REQUIRE(at + bytes <= data.size());
      std::memcpy(into, data.data() + at, bytes);
    };
    const auto full = reference_of(rule, data, options);
    for (unsigned top : {0u, 1u, 2u, full.depth()}) {
      const std::uint64_t step = std::uint64_t(3) << top; // the last part may be shorter
      for (std::uint64_t first = 0; first < n; first += step) {
        const std::uint64_t count = std::min(step, n - first);
        const std::uint64_t bytes = std::min<std::uint64_t>(count * 40, data.size() - first * 40);
        INFO(test::describe(options) << " n=" << n << " top " << top << " blocks [" << first << ", "
                                     << first + count << ")");
        merklize::tree t(n, options);
        test::poison(t);
        const auto nodes = b.build_part(read, rule, first, bytes, top, t);
        REQUIRE(nodes.size() == merklize::detail::ceil_shift(count, top));
        for (std::uint64_t i = 0; i < nodes.size(); ++i)
          CHECK(nodes[i] == full.node(top, (first >> top) + i));
        test::check_part_only(t, full, first, count, top);
      }
    }
  }
}

TEST_CASE("block_part_builder refuses bad parts, and reader errors reach the caller",
          "[multi-blocks][build_part][errors]") {
  merklize::block_part_builder b(test::test_device());
  const auto data = test::random_bytes(100 * 10);
  const merklize::data_reader read = [&](std::uint64_t at, std::uint64_t bytes,
                                         std::uint8_t *into) {
    std::memcpy(into, data.data() + at, bytes);
  };
  merklize::leaf_rule rule;
  rule.block_bytes = 10;
  merklize::tree t(100, {});
  CHECK_THROWS_WITH(b.build_part(read, rule, 4, 80, 3, t), Contains("multiple of 2^3 = 8"));
  CHECK_THROWS_WITH(b.build_part(read, rule, 8, 75, 3, t),
                    Contains("75 bytes are not whole 10-byte blocks"));
  CHECK_THROWS_WITH(b.build_part(read, rule, 0, 0, 0, t), Contains("count 0"));
  merklize::tree other(100, {merklize::hash_kind::sha256});
  CHECK_THROWS_WITH(b.build_part(read, rule, 0, 80, 3, other), Contains("not this builder's"));
  const merklize::data_reader failing = [](std::uint64_t, std::uint64_t, std::uint8_t *) {
    throw merklize::error("the disk is on fire");
  };
  CHECK_THROWS_WITH(b.build_part(failing, rule, 0, 80, 3, t), Contains("on fire"));
  const auto after_failure = b.build_part(read, rule, 0, 80, 3, t); // the builder still works
  CHECK(after_failure == std::vector<merklize::digest>{reference_of(rule, data, {}).node(3, 0)});

  merklize::multi_block_merkleizer mm(same_device(2), multi_config({}, 2));
  std::atomic<int> calls{0};
  const merklize::data_reader late_failure = [&](std::uint64_t at, std::uint64_t bytes,
                                                 std::uint8_t *into) {
    if (++calls > 3) throw merklize::error("read failed at byte " + std::to_string(at));
    std::memcpy(into, data.data() + at, bytes);
  };
  mm.set_piece_target(20);
  CHECK_THROWS_WITH(mm.build(late_failure, data.size(), rule), Contains("read failed at byte"));
  CHECK_THROWS_WITH(merklize::multi_block_merkleizer({}, merklize::config{}),
                    Contains("no devices"));
  merklize::config bad;
  bad.weights = {1};
  CHECK_THROWS_WITH(merklize::multi_block_merkleizer(same_device(2), bad),
                    Contains("1 weights for 2 devices"));
}

TEST_CASE("the block kernels take their work-group and piece sizes from the tuning row",
          "[multi-blocks][tuning]") {
  const auto facts = merklize::read_device_facts(test::test_device());
  const merklize::tuning &row = merklize::tuning_for(facts);
  const merklize::block_hasher h(test::test_device());
  CHECK(h.work_group_size() == std::min(row.block_work_group_size, facts.max_work_group_size));
  CHECK(h.piece_target() == row.block_piece_bytes);
  CHECK(h.piece_bytes(4096, std::nullopt) == row.block_piece_bytes / 4096 * 4096);
  for (const auto &r : merklize::tuning_table()) {
    INFO(r.row);
    CHECK(r.block_work_group_size > 0);
    CHECK(r.block_piece_bytes >= 4096);
  }
}

TEST_CASE("merklize root --leaf-size --devices prints the single-device root",
          "[multi-blocks][cli]") {
  const std::string spec = test::test_device_spec();
  const auto data = test::random_bytes(50000);
  const auto file = test::write_file("multi-blocks-cli.data", data).string();
  const std::vector<std::vector<std::string>> trees = {
      {"--leaf-size", "1000"},
      {"--leaf-size", "4096", "--hash", "sha256", "--pad", "zero", "--salt", "00ff"},
      {"--leaf-size", "333", "--hash", "blake3-parent", "--leaf-hash", "sha256"},
      {"--leaf-size", "1", "--hash", "sha256", "--pad", "zero", "--depth", "20"},
  };
  for (const auto &tree : trees) {
    auto single = tree;
    single.insert(single.begin(), {"root", "--device", spec});
    single.push_back(file);
    const auto expected = test::merklize_cli(single);
    REQUIRE(expected.status == 0);
    for (const std::string shards : {"1", "3", ""}) {
      auto several = tree;
      several.insert(several.begin(), {"root", "--devices", spec + "," + spec});
      if (!shards.empty()) several.insert(several.end(), {"--shard-log2", shards});
      auto from_file = several, from_stdin = several;
      from_file.push_back(file);
      from_stdin.push_back("-");
      INFO("merklize root --devices, then " << tree.size() << " arguments from " << tree[1]
                                            << ", --shard-log2 " << shards);
      const auto got = test::merklize_cli(from_file);
      CHECK(got.out == expected.out);
      CHECK(got.err.empty());
      CHECK(test::merklize_cli(from_stdin, file).out == expected.out);
    }
  }
  const auto piped = test::run_shell("cat " + test::sh_quote(file) + " | " + test::merklize_word() +
                                     " root --leaf-size 1000 --devices " + spec + "," + spec +
                                     " --shard-log2 2 -");
  CHECK(piped.out == test::merklize_cli({"root", "--leaf-size", "1000", file}).out);
  test::check_devices_usage_errors(
      spec, file,
      {
          {{"--format", "fs-verity"}, "excludes"},
          {{"--salt", "00"}, "--salt needs --leaf-size or --format"},
          {{"--leaf-size", "64", "--leaf-hash", "blake3", "--salt", "00"}, "takes no prefix"},
      });
  const auto empty = test::write_file("multi-blocks-cli-empty.data", {}).string();
  const auto refused =
      test::merklize_cli({"root", "--devices", spec + "," + spec, "--leaf-size", "64", empty});
  CHECK(refused.status == 1);
  CHECK_THAT(refused.err, Contains("is empty"));
}
