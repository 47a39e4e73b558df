// SPDX-License-Identifier: Apache-2.0 OR MIT
// Shared by the tests of trees built on several devices and in parts (merkleizer::build_part,
// block_part_builder::build_part): the test device named several times, poisoned trees, and a
// part's levels written where they belong and nowhere else.
#pragma once

#include "cli_helpers.hpp"
#include "helpers.hpp"

#include <catch2/catch.hpp>

#include <algorithm>

namespace test {

// The test device named `times` times: on PoCL, several queues on one device.
inline std::vector<cl::Device> same_device(std::size_t times) {
  return std::vector<cl::Device>(times, test_device());
}

// Shards of 2^shard_log2 leaves (or blocks), each part streamed in chunks of half a shard,
// several launches a chunk, and a short calibration (none of which the block path has).
// The spec (`merklize devices`) that selects the test device on the command line.
inline std::string test_device_spec() {
  for (const auto &e : merklize::list_devices())
    if (e.device() == test_device()()) return e.spec();
  FAIL("the test device is not among merklize::list_devices()");
  return {};
}

// Each of `mistakes` (its options, then `file`, after `merklize root --devices SPEC,SPEC`) is a
// usage error: exit status 2 and a message holding its text.
inline void check_devices_usage_errors(
    const std::string &spec, const std::string &file,
    const std::vector<std::pair<std::vector<std::string>, std::string>> &mistakes) {
  for (const auto &[args, message] : mistakes) {
    std::vector<std::string> argv{"root", "--devices", spec + "," + spec};
    argv.insert(argv.end(), args.begin(), args.end());
    argv.push_back(file);
    const auto run = merklize_cli(argv);
    INFO(run.err);
    CHECK(run.status == 2);
    CHECK_THAT(run.err, Catch::Matchers::Contains(message));
  }
}

inline merklize::config multi_config(merklize::tree_options options, unsigned shard_log2,
                                     merklize::output_levels output = {}) {
  merklize::config cfg{options, output};
  cfg.shard_log2 = shard_log2;
  cfg.chunk_log2 = std::max(1u, shard_log2 - 1);
  cfg.work_group_size = 4;
  cfg.calibration_log2 = 6;
  return cfg;
}

inline const merklize::digest &poison_digest() {
  static const merklize::digest d = [] {
    merklize::digest p;
    p.fill(poison_byte);
    return p;
  }();
  return d;
}

inline void poison_nodes(merklize::tree &t) {
  if (t.nodes_data()) std::fill(t.nodes_data(), t.nodes_data() + t.nodes_size(), poison_byte);
}

// Nodes and leaves, for a tree that owns its level 0 (not one from allocate_tree).
inline void poison(merklize::tree &t) {
  poison_nodes(t);
  if (t.first_level() == 0)
    std::fill(t.level_data(0), t.level_data(0) + t.leaves_size(), poison_byte);
}

// `t`, poisoned and then given the part over leaves [first, first + count) up to level `top`,
// holds `full`'s nodes of that part at levels 0..top and poison everywhere else.
inline void check_part_only(const merklize::tree &t, const merklize::tree &full,
                            std::uint64_t first, std::uint64_t count, unsigned top) {
  for (unsigned k = 0; k <= full.depth(); ++k)
    for (std::uint64_t i = 0; i < full.layout().level_size(k); ++i) {
      const bool in_part = k <= top && i >= (first >> k) &&
                           i < (first >> k) + merklize::detail::ceil_shift(count, k);
      if (t.node(k, i) != (in_part ? full.node(k, i) : poison_digest()))
        FAIL_CHECK("level " << k << " node " << i << (in_part ? " wrong" : " written"));
    }
}

} // namespace test
