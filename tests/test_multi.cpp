// SPDX-License-Identifier: Apache-2.0 OR MIT
// Several devices in one process (multi.hpp), on PoCL as the same device named two and three
// times: bit for bit the single-device tree and the host reference at awkward sizes, every hash
// and shape, fixed depths and output levels; build_part in place, finish_tree, and the errors.
#include "multi_helpers.hpp"
#include "proof_helpers.hpp"
#include "tree_checks.hpp"

#include <catch2/catch.hpp>

#include <cmath>
#include <cstdlib>
#include <optional>

using Catch::Matchers::Contains;

namespace {

using test::multi_config;
using test::same_device;

std::uint64_t leaves_built(const merklize::multi_times &times) {
  std::uint64_t leaves = 0;
  for (const auto &d : times.devices)
    leaves += d.leaves;
  return leaves;
}

// Level `level` of t from node `first` on, `count` nodes.
std::vector<merklize::digest> nodes_of(const merklize::tree &t, unsigned level, std::uint64_t first,
                                       std::uint64_t count) {
  std::vector<merklize::digest> nodes;
  for (std::uint64_t i = first; i < first + count; ++i)
    nodes.push_back(t.node(level, i));
  return nodes;
}

} // namespace

TEST_CASE("several queues on one device give the single-device tree bit for bit", "[multi]") {
  const std::size_t queues = GENERATE(2, 3);
  const auto options = GENERATE(Catch::Generators::from_range(test::all_tree_options()));
  const auto hash = options.hash;
  const auto pad = options.shape;
  const unsigned s = GENERATE(2u, 4u);
  const auto cfg = multi_config({hash, pad}, s);
  merklize::multi_merkleizer mm(same_device(queues), cfg);
  merklize::merkleizer single(test::test_device(), cfg);
  const std::uint64_t shard = std::uint64_t(1) << s;
  auto sizes = test::awkward_sizes(9);
  for (std::uint64_t n : {shard - 1, shard, shard + 1, 2 * shard - 1, 2 * shard + 1, 7 * shard + 3})
    sizes.push_back(n);
  for (std::uint64_t n : sizes) {
    INFO(queues << " queues, " << merklize::to_string(hash) << " " << merklize::to_string(pad)
                << ", shards of 2^" << s << ", n=" << n);
    const auto leaves = test::random_bytes(n * 32);
    const auto built = mm.build(leaves);
    CHECK(built == merklize::reference_tree(leaves.data(), leaves.size(), cfg.tree));
    CHECK(built == single.build(leaves));
    const auto &times = mm.last_times();
    CHECK(leaves_built(times) == n);
    const std::uint64_t shards = (n + shard - 1) >> s;
    if (shards >= 2) {
      CHECK(times.shard_log2 == s);
      CHECK(times.shards == shards);
      // Runs of whole shards in device order: only the run that ends the tree may be short.
      std::uint64_t after = n;
      for (const auto &d : times.devices) {
        after -= d.leaves;
        if (d.leaves > 0 && after > 0) CHECK(d.leaves % shard == 0);
      }
    } else {
      CHECK(times.shards == 1);
    }
  }
}

TEST_CASE("output levels below, at and above the shard level, and the root alone",
          "[multi][output]") {
  const unsigned first = GENERATE(0u, 1u, 3u, 4u, 5u, 9u, ~0u);
  const auto pad = GENERATE(merklize::shape::promote, merklize::shape::zero);
  const auto cfg = multi_config({merklize::hash_kind::blake3, pad}, 4, {first});
  merklize::multi_merkleizer mm(same_device(2), cfg);
  for (std::uint64_t n : {1ull, 17ull, 300ull, 1000ull}) {
    INFO(merklize::to_string(pad) << " n=" << n << " levels from " << first);
    const auto random = test::random_bytes(n * 32);
    const auto full = merklize::reference_tree(random.data(), random.size(), cfg.tree);
    test::check_kept(mm.build(random), full, first);

    merklize::host_buffer leaves = mm.allocate_host(n * 32);
    std::copy(random.begin(), random.end(), leaves.data());
    test::check_kept(mm.build(leaves), full, first);
    merklize::tree reused = mm.allocate_tree(n);
    for (int round = 0; round < 2; ++round) {
      test::poison_nodes(reused);
      mm.build(leaves, reused);
      test::check_kept(reused, full, first);
      if (first == 0) CHECK(reused.level_data(0) == leaves.data()); // shared, not copied
    }
    merklize::tree wrong = mm.allocate_tree(n + 1);
    CHECK_THROWS_WITH(mm.build(leaves, wrong), Contains("allocated for " + std::to_string(n + 1)));
  }
}

TEST_CASE("a fixed depth through several devices is the root of the zero-padded leaves",
          "[multi][depth]") {
  const auto hash = GENERATE(merklize::hash_kind::blake3, merklize::hash_kind::blake3_parent,
                             merklize::hash_kind::sha256);
  for (std::uint64_t n : {9ull, 100ull, 1000ull}) {
    const unsigned depth = merklize::tree_layout(n).depth() + 2;
    INFO(merklize::to_string(hash) << " n=" << n << " depth " << depth);
    const merklize::tree_options options{hash, merklize::shape::zero, depth};
    merklize::multi_merkleizer mm(same_device(3), multi_config(options, 3));
    const auto leaves = test::random_bytes(n * 32);
    const auto built = mm.build(leaves);
    CHECK(built == merklize::reference_tree(leaves.data(), leaves.size(), options));
    auto padded = leaves;
    padded.resize((std::size_t(32) << depth), 0);
    CHECK(built.root() ==
          merklize::reference_tree(padded.data(), padded.size(), {hash, merklize::shape::zero})
              .root());
  }
}

TEST_CASE("explicit uneven weights share out the shards in proportion", "[multi][weights]") {
  const auto weights = GENERATE(std::vector<double>{1, 3}, std::vector<double>{5, 1, 2});
  auto cfg = multi_config({}, 3);
  cfg.weights = weights;
  merklize::multi_merkleizer mm(same_device(weights.size()), cfg);
  // 64 shards of 8 leaves: {1, 3} gives 16 and 48 of them, {5, 1, 2} gives 40, 8 and 16.
  const auto leaves = test::random_bytes(512 * 32);
  CHECK(mm.build(leaves) == merklize::reference_tree(leaves.data(), leaves.size(), {}));
  const double total = weights.size() == 2 ? 4 : 8;
  for (std::size_t i = 0; i < weights.size(); ++i)
    CHECK(mm.last_times().devices[i].leaves == std::uint64_t(512 * weights[i] / total));
  CHECK(mm.weights() == weights); // given weights are kept, never measured

  const auto uneven = test::random_bytes(517 * 32); // a short last shard
  CHECK(mm.build(uneven) == merklize::reference_tree(uneven.data(), uneven.size(), {}));
  CHECK(leaves_built(mm.last_times()) == 517);
}

TEST_CASE("measured weights: a calibration build, then each build's speed", "[multi][weights]") {
  merklize::multi_merkleizer mm(same_device(2), multi_config({}, 3));
  CHECK(mm.weights() == std::vector<double>{1, 1});
  const auto leaves = test::random_bytes(1000 * 32);
  CHECK(mm.build(leaves) == merklize::reference_tree(leaves.data(), leaves.size(), {}));
  for (std::size_t i = 0; i < 2; ++i) {
    const auto &d = mm.last_times().devices[i];
    INFO("device " << i << ": " << d.leaves << " leaves in " << d.times.wall_ms << " ms");
    REQUIRE(d.leaves > 0);
    CHECK(mm.weights()[i] == Approx(d.leaves / std::max(d.times.wall_ms, 1e-3)));
  }

  // Fewer than two shards: one device builds it all, and the weights stay as they were.
  const auto before = mm.weights();
  const auto few = test::random_bytes(5 * 32);
  CHECK(mm.build(few) == merklize::reference_tree(few.data(), few.size(), {}));
  CHECK(mm.last_times().shards == 1);
  CHECK(leaves_built(mm.last_times()) == 5);
  CHECK(mm.weights() == before);
}

TEST_CASE("one device is a plain build", "[multi]") {
  const auto cfg = multi_config({merklize::hash_kind::sha256, merklize::shape::zero}, 2);
  merklize::multi_merkleizer mm(same_device(1), cfg);
  const auto leaves = test::random_bytes(1000 * 32);
  CHECK(mm.build(leaves) == merklize::reference_tree(leaves.data(), leaves.size(), cfg.tree));
  CHECK(mm.last_times().shards == 1);
  CHECK(mm.last_times().shard_log2 == merklize::tree_layout(1000).depth());
}

TEST_CASE("2^16 leaves over three queues, and the default shard size", "[multi][large]") {
  const std::uint64_t n = GENERATE(65536ull, 65537ull);
  merklize::config cfg;
  cfg.chunk_log2 = 10;
  cfg.calibration_log2 = 10;
  merklize::multi_merkleizer mm(same_device(3), cfg);
  const auto random = test::random_bytes(n * 32);
  const auto full = merklize::reference_tree(random.data(), random.size(), {});
  CHECK(mm.build(random) == full);
  // About 8 shards per device, no smaller than a chunk: 2^ceil(log2(n / 24)) = 2^12 leaves.
  CHECK(mm.last_times().shard_log2 == 12);
  CHECK(mm.last_times().shards == (n + 4095) / 4096);
  merklize::host_buffer leaves = mm.allocate_host(n * 32);
  std::copy(random.begin(), random.end(), leaves.data());
  merklize::tree out = mm.allocate_tree(n);
  test::poison_nodes(out);
  mm.build(leaves, out);
  CHECK(out == full);
}

TEST_CASE("the default devices give the reference tree", "[multi][default]") {
  // MERKLIZE_DEVICES, else every GPU of the default platform: both GPUs of a two-GPU machine.
  const auto devices = merklize::default_devices();
  INFO(devices.size() << " devices, the first " << merklize::device_name(devices.front()));
  for (const auto pad : {merklize::shape::promote, merklize::shape::zero}) {
    merklize::config cfg{{merklize::hash_kind::blake3_parent, pad}};
    cfg.shard_log2 = 12;
    cfg.chunk_log2 = 10;
    merklize::multi_merkleizer mm(devices, cfg);
    for (std::uint64_t n : {4096ull * 5 + 1, 65536ull, 100000ull}) {
      const auto leaves = test::random_bytes(n * 32);
      CHECK(mm.build(leaves) == merklize::reference_tree(leaves.data(), leaves.size(), cfg.tree));
      CHECK(leaves_built(mm.last_times()) == n);
    }
  }
}

TEST_CASE("merkle.json: every case up to 2^16 + 1 leaves through two devices", "[multi][vectors]") {
  for (const auto &c : test::merkle_vectors()["cases"].items) {
    const std::uint64_t n = c["n"].u64();
    if (n > 65537) continue;
    const merklize::tree_options options{merklize::parse_hash_kind(c["hash"].str),
                                         merklize::parse_shape(c["pad"].str)};
    INFO(c["hash"].str << " " << c["pad"].str << " n=" << n);
    // About 16 shards, so that both devices get some whatever the size.
    const unsigned depth = merklize::tree_layout(n).depth();
    auto cfg = multi_config(options, std::max(2u, depth > 4 ? depth - 4 : 1u));
    cfg.weights = {1, 1};
    merklize::multi_merkleizer mm(same_device(2), cfg);
    const auto leaves = test::counting_leaves(n, options.hash);
    const auto built = mm.build(leaves);
    CHECK(merklize::to_hex(built.root()) == c["root"].str);
    CHECK(built == merklize::reference_tree(leaves.data(), leaves.size(), options));
  }
}

TEST_CASE("build_part writes its part of the tree and nothing else", "[multi][build_part]") {
  const auto options = GENERATE(Catch::Generators::from_range(test::all_tree_options()));
  const auto hash = options.hash;
  const auto pad = options.shape;
  merklize::config cfg{{hash, pad}};
  cfg.chunk_log2 = 2;
  cfg.work_group_size = 4;
  merklize::merkleizer m(test::test_device(), cfg);
  for (std::uint64_t n : {5ull, 16ull, 37ull, 100ull, 259ull}) {
    const auto leaves = test::random_bytes(n * 32);
    const auto full = merklize::reference_tree(leaves.data(), leaves.size(), cfg.tree);
    for (unsigned top : {0u, 1u, 3u, full.depth()}) {
      if (top > full.depth()) continue;
      // Parts of 3 x 2^top leaves: the last one may be shorter, even shorter than 2^top.
      const std::uint64_t step = std::uint64_t(3) << top;
      for (std::uint64_t first = 0; first < n; first += step) {
        const std::uint64_t count = std::min(step, n - first);
        INFO(merklize::to_string(hash)
             << " " << merklize::to_string(pad) << " n=" << n << " top " << top << " part ["
             << first << ", " << first + count << ")");
        merklize::tree t(n, cfg.tree);
        test::poison(t);
        const auto nodes = m.build_part(leaves.data() + first * 32, first, count, top, t);
        CHECK(nodes == nodes_of(full, top, first >> top, merklize::detail::ceil_shift(count, top)));
        test::check_part_only(t, full, first, count, top);
      }
    }
  }
}

TEST_CASE("parts in turn and finish_tree give the whole tree for any kept levels",
          "[multi][build_part][finish]") {
  const auto pad = GENERATE(merklize::shape::promote, merklize::shape::zero);
  const unsigned first = GENERATE(0u, 2u, 3u, 5u, ~0u);
  const std::uint64_t n = 300;
  const unsigned top = 3;
  for (const std::optional<unsigned> depth : {std::optional<unsigned>(), std::optional(11u)}) {
    if (depth && pad != merklize::shape::zero) continue;
    merklize::config cfg{{merklize::hash_kind::blake3_parent, pad, depth}, {first}};
    cfg.chunk_log2 = 2;
    merklize::merkleizer m(test::test_device(), cfg);
    const auto leaves = test::random_bytes(n * 32);
    const auto full = merklize::reference_tree(leaves.data(), leaves.size(), cfg.tree);
    merklize::tree t(n, cfg.tree, cfg.output);
    test::poison(t);
    std::vector<merklize::digest> level;
    for (std::uint64_t part = 0; part < n; part += 40) {
      const auto nodes = m.build_part(leaves.data() + part * 32, part,
                                      std::min<std::uint64_t>(40, n - part), top, t);
      level.insert(level.end(), nodes.begin(), nodes.end());
    }
    INFO(merklize::to_string(pad) << " levels from " << first << (depth ? " fixed depth" : ""));
    CHECK(merklize::finish_tree(t, top, level) == full.root());
    test::check_kept(t, full, first);
  }
}

TEST_CASE("build_part refuses bad parts before writing anything", "[multi][build_part][errors]") {
  merklize::merkleizer m(test::test_device());
  const std::uint64_t n = 100;
  const auto leaves = test::random_bytes(n * 32);
  merklize::tree t(n, {});
  test::poison(t);
  const auto *p = leaves.data();
  CHECK_THROWS_WITH(m.build_part(p, 4, 8, 3, t),
                    Contains("leaves [4, 12)") && Contains("multiple of 2^3 = 8"));
  CHECK_THROWS_WITH(m.build_part(p, 8, 12, 3, t),
                    Contains("12 leaves are not a multiple of 2^3 = 8") && Contains("at leaf 100"));
  CHECK_THROWS_WITH(m.build_part(p, 0, 0, 0, t), Contains("count 0"));
  CHECK_THROWS_WITH(m.build_part(p, 96, 8, 2, t), Contains("run past the tree's 100 leaves"));
  CHECK_THROWS_WITH(m.build_part(p, 0, 100, 8, t),
                    Contains("level 8 is above the tree's top level 7"));
  CHECK_THROWS_WITH(m.build_part(nullptr, 0, 8, 3, t), Contains("null"));
  merklize::tree other(n, {merklize::hash_kind::sha256});
  CHECK_THROWS_WITH(m.build_part(p, 0, 8, 3, other), Contains("not this merkleizer's"));
  merklize::tree unbuilt(merklize::tree_layout(n), {}, {}, nullptr, nullptr);
  CHECK_THROWS_WITH(m.build_part(p, 0, 8, 3, unbuilt), Contains("no storage"));
  for (unsigned k = 0; k <= t.depth(); ++k)
    for (std::uint64_t i = 0; i < t.layout().level_size(k); ++i)
      REQUIRE(t.node(k, i) == test::poison_digest());
}

TEST_CASE("finish_tree computes the levels above a given level as the reference does",
          "[multi][finish]") {
  const auto options = GENERATE(Catch::Generators::from_range(test::all_tree_options()));
  const auto hash = options.hash;
  const auto pad = options.shape;
  for (std::uint64_t n : test::awkward_sizes(6)) {
    const auto leaves = test::random_bytes(n * 32);
    const auto full = merklize::reference_tree(leaves.data(), leaves.size(), {hash, pad});
    for (unsigned level = 0; level <= full.depth(); ++level)
      for (unsigned first : {0u, level, level + 1, ~0u}) {
        INFO(merklize::to_string(hash) << " " << merklize::to_string(pad) << " n=" << n
                                       << " from level " << level << ", kept from " << first);
        merklize::tree t(n, {hash, pad}, {first});
        test::poison(t);
        CHECK(merklize::finish_tree(t, level, full.level(level)) == full.root());
        for (unsigned k = std::max(t.first_level(), level); k <= full.depth(); ++k)
          CHECK(t.level(k) == full.level(k));
        if (t.first_level() < level) CHECK(t.node(t.first_level(), 0) == test::poison_digest());
      }
  }
}

TEST_CASE("finish_tree from a level of merkle.json gives its root", "[multi][finish][vectors]") {
  for (const auto &c : test::merkle_vectors()["cases"].items) {
    if (!c.has("levels")) continue;
    const merklize::tree_options options{merklize::parse_hash_kind(c["hash"].str),
                                         merklize::parse_shape(c["pad"].str)};
    merklize::tree t(c["n"].u64(), options, merklize::output_levels::root_only());
    const auto &levels = c["levels"].items;
    for (unsigned k = 0; k < levels.size(); ++k) {
      INFO(c["hash"].str << " " << c["pad"].str << " n=" << c["n"].u64() << " level " << k);
      std::vector<merklize::digest> nodes;
      for (std::uint64_t i = 0; i < t.layout().level_size(k); ++i) // zero-shape levels are padded
        nodes.push_back(merklize::digest_from_hex(levels[k].items[i].str));
      CHECK(merklize::to_hex(merklize::finish_tree(t, k, nodes)) == c["root"].str);
    }
  }
}

TEST_CASE("finish_tree refuses a level of the wrong size or above the tree",
          "[multi][finish][errors]") {
  merklize::tree t(10, {});
  CHECK_THROWS_WITH(merklize::finish_tree(t, 1, std::vector<merklize::digest>(4)),
                    Contains("level 1 has 5 nodes, 4 were given"));
  CHECK_THROWS_WITH(merklize::finish_tree(t, 5, std::vector<merklize::digest>(1)),
                    Contains("above the tree's top level 4"));
}

TEST_CASE("an error on a device's thread reaches the caller", "[multi][errors]") {
  auto cfg = multi_config({}, 8);
  cfg.weights = {1, 1};
  cfg.max_device_bytes = 1024; // too small for any part
  merklize::multi_merkleizer mm(same_device(2), cfg);
  auto leaves = test::random_bytes(20000 * 32);
  const auto before = leaves;
  CHECK_THROWS_WITH(mm.build(leaves), Contains("tree too large"));
  CHECK(leaves == before);
}

TEST_CASE("bad weights and calibration sizes are refused", "[multi][errors]") {
  const auto refused = [](std::vector<double> weights, unsigned calibration_log2) {
    merklize::config cfg;
    cfg.weights = std::move(weights);
    cfg.calibration_log2 = calibration_log2;
    return [cfg] { merklize::multi_merkleizer mm(same_device(2), cfg); };
  };
  CHECK_THROWS_WITH(refused({1}, 0)(), Contains("1 weights for 2 devices"));
  CHECK_THROWS_WITH(refused({1, 0}, 0)(), Contains("not a positive number"));
  CHECK_THROWS_WITH(refused({1, -2}, 0)(), Contains("not a positive number"));
  CHECK_THROWS_WITH(refused({1, std::nan("")}, 0)(), Contains("not a positive number"));
  CHECK_THROWS_WITH(refused({}, 1)(), Contains("calibration_log2 is 1"));
  CHECK_THROWS_WITH(merklize::multi_merkleizer({}, merklize::config{}), Contains("no devices"));
}

TEST_CASE("MERKLIZE_DEVICES names the devices, the same one twice if asked", "[multi][device]") {
  std::string spec;
  for (const auto &e : merklize::list_devices())
    if (e.device() == test::test_device()()) spec = e.spec();
  REQUIRE(!spec.empty());
  const char *saved = std::getenv("MERKLIZE_DEVICES");
  const std::optional<std::string> previous =
      saved ? std::optional<std::string>(saved) : std::nullopt;

  setenv("MERKLIZE_DEVICES", (spec + ", " + spec).c_str(), 1);
  CHECK(merklize::default_devices().size() == 2);
  merklize::multi_merkleizer mm;
  CHECK(mm.devices().size() == 2);
  setenv("MERKLIZE_DEVICES", "no-such-device-xyz", 1);
  CHECK_THROWS_WITH(merklize::default_devices(),
                    Contains("MERKLIZE_DEVICES") && Contains("unknown device"));
  setenv("MERKLIZE_DEVICES", (spec + ",," + spec).c_str(), 1);
  CHECK_THROWS_WITH(merklize::default_devices(), Contains("empty device spec"));
  unsetenv("MERKLIZE_DEVICES");
  const auto defaults = merklize::default_devices(); // the GPUs of a platform, else the default
  REQUIRE(!defaults.empty());
  const auto platform = [](const cl::Device &d) {
    return merklize::detail::device_info<CL_DEVICE_PLATFORM, cl_platform_id>(d);
  };
  for (const auto &d : defaults)
    CHECK(platform(d) == platform(merklize::default_device()));
  if (previous) setenv("MERKLIZE_DEVICES", previous->c_str(), 1);
}
