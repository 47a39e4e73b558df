// SPDX-License-Identifier: Apache-2.0 OR MIT
// The several-device layer (spread.hpp) that multi_merkleizer, multi_block_merkleizer and
// multi_kary_merkleizer share, on PoCL as the same device named several times: each device's
// nodes gathered where the plan puts its shards, the parts on threads of their own, a failure
// on one device rethrown on the caller's thread once every device has ended, and the weights
// measured alike by the three builders.
#include "block_helpers.hpp"
#include "multi_helpers.hpp"

#include <merklize/engine/kary_multi.hpp>
#include <merklize/engine/multi.hpp>

#include <atomic>
#include <cstring>
#include <set>
#include <thread>

using Catch::Matchers::Contains;
using Catch::Matchers::Equals;

namespace {

using test::same_device;

// A tree kind's one-device builder that builds nothing itself: the tests' parts say what each
// device does. It keeps its device, as a real one does, to name it.
struct named_builder {
  named_builder(const cl::Context &, const cl::Device &d) : name(merklize::device_name(d)) {}
  std::string name;
};

using spread = merklize::detail::device_spread<named_builder>;

// Node j of a made-up shard level: every byte j, so a node put at the wrong place shows.
merklize::digest node(std::uint64_t j) {
  merklize::digest d;
  d.fill(static_cast<std::uint8_t>(j + 1));
  return d;
}

// Builder i's nodes of the shard level under `plan`, done in `wall_ms`.
merklize::detail::part_built nodes_of(const merklize::shard_plan &plan, std::size_t i,
                                      double wall_ms) {
  merklize::detail::part_built built;
  for (std::uint64_t j = plan.bounds[i]; j < plan.bounds[i + 1]; ++j)
    built.top_nodes.push_back(node(j));
  built.times.wall_ms = wall_ms;
  return built;
}

} // namespace

TEST_CASE("the spread gathers each device's nodes at its shards, each on a thread of its own",
          "[spread]") {
  spread s(same_device(3), {1, 2, 1}, "test");
  const merklize::shard_plan plan = merklize::plan_shards(64, s.weights(), 2); // 16 shards of 4
  REQUIRE(plan.bounds == std::vector<std::uint64_t>{0, 4, 12, 16});
  std::vector<std::thread::id> threads(3);
  merklize::multi_times last;
  const auto start = std::chrono::steady_clock::now();
  const auto level = s.run(
      plan, last, start,
      [&](std::size_t i, named_builder &) {
        threads[i] = std::this_thread::get_id();
        return nodes_of(plan, i, 1.0 + i);
      },
      [&](const std::vector<merklize::digest> &gathered) { return gathered; });
  REQUIRE(level.size() == 16);
  for (std::uint64_t j = 0; j < 16; ++j)
    CHECK(level[j] == node(j));
  for (std::size_t i = 0; i < 3; ++i) {
    CHECK(last.devices[i].leaves == plan.leaf_count_of(i));
    CHECK(last.devices[i].times.wall_ms == 1.0 + i);
  }
  CHECK(last.wall_ms >= last.finish_ms);
  CHECK(threads[2] == std::this_thread::get_id()); // the last on the caller's thread
  CHECK(std::set<std::thread::id>(threads.begin(), threads.end()).size() == 3);
  CHECK(s.weights() == std::vector<double>{1, 2, 1}); // configured: never measured
}

TEST_CASE("a device's failure is rethrown on the caller's thread once every device has ended",
          "[spread][errors]") {
  spread s(same_device(3), {}, "test");
  const merklize::shard_plan plan = merklize::plan_shards(48, s.weights(), 2);
  std::atomic<int> ended{0};
  bool finished = false;
  const auto build = [&] {
    merklize::multi_times last;
    s.run(
        plan, last, std::chrono::steady_clock::now(),
        [&](std::size_t i, named_builder &b) {
          if (i == 1) throw merklize::error("device 1 (" + b.name + ") failed");
          std::this_thread::sleep_for(std::chrono::milliseconds(20)); // ends after the failure
          ++ended;
          return nodes_of(plan, i, 1.0);
        },
        [&](const std::vector<merklize::digest> &) { finished = true; });
  };
  CHECK_THROWS_WITH(build(), Contains("device 1 (" + s[1].name + ") failed"));
  CHECK(ended == 2);
  CHECK_FALSE(finished);
  CHECK(s.weights() == std::vector<double>{1, 1, 1}); // a failed build measures nothing
  CHECK_FALSE(s.weights_known());
}

TEST_CASE("measured weights: leaves per millisecond of the devices that built", "[spread]") {
  spread s(same_device(3), {}, "test");
  CHECK(s.weights() == std::vector<double>{1, 1, 1});
  CHECK_FALSE(s.weights_known());
  const merklize::shard_plan plan{1, 8, {0, 2, 2, 4}}; // device 1: no shard
  merklize::multi_times last;
  bool asked_idle = false;
  s.run(
      plan, last, std::chrono::steady_clock::now(),
      [&](std::size_t i, named_builder &) {
        asked_idle = asked_idle || i == 1;
        return nodes_of(plan, i, i == 0 ? 2.0 : 0.0);
      },
      [](const std::vector<merklize::digest> &) {});
  CHECK_FALSE(asked_idle);
  CHECK(last.devices[1].leaves == 0);
  CHECK(s.weights()[0] == Approx(4 / 2.0));
  CHECK(s.weights()[1] == 1);                // no leaves: kept
  CHECK(s.weights()[2] == Approx(4 / 1e-3)); // too quick for the clock: a microsecond
  CHECK(s.weights_known());
}

TEST_CASE("the spread refuses no devices and bad weights, naming its owner", "[spread][errors]") {
  CHECK_THROWS_WITH(spread({}, {}, "owner"), Contains("owner: no devices given"));
  CHECK_THROWS_WITH(spread(same_device(2), {1}, "owner"),
                    Contains("owner: 1 weights for 2 devices"));
  CHECK_THROWS_WITH(spread(same_device(2), {1, -1}, "owner"), Contains("not a positive number"));
}

namespace {

// Each device that built has the weight of its leaves per millisecond in `last`.
template <class Times> void check_measured(const std::vector<double> &weights, const Times &last) {
  REQUIRE(weights.size() == last.devices.size());
  for (std::size_t i = 0; i < weights.size(); ++i) {
    const auto &d = last.devices[i];
    INFO("device " << i << ": " << d.leaves << " leaves in " << d.times.wall_ms << " ms");
    REQUIRE(d.leaves > 0);
    CHECK(weights[i] == Approx(merklize::detail::leaves_per_ms(d.leaves, d.times.wall_ms)));
  }
}

} // namespace

TEST_CASE("the three builders of several devices measure their weights alike", "[spread]") {
  const merklize::leaf_rule rule{merklize::leaf_hash::sha256, 100, {7}, false, std::nullopt};
  const auto data = test::random_bytes(64 * 100);

  merklize::multi_merkleizer leaves(same_device(2), test::multi_config({}, 3));
  leaves.build(data);
  check_measured(leaves.weights(), leaves.last_times());

  merklize::multi_block_merkleizer blocks(same_device(2), test::multi_config({}, 2));
  blocks.set_piece_target(4 * 100);
  blocks.build(data.data(), data.size(), rule);
  check_measured(blocks.weights(), blocks.last_times());

  merklize::multi_kary_merkleizer kary(same_device(2), {{merklize::hash_kind::sha256, 4}, {}, 1});
  kary.set_piece_target(4 * 100);
  kary.build(data.data(), data.size(), rule);
  check_measured(kary.weights(), kary.last_times());
}

// A device's own failures (OpenCL errors, memory) name the device in the step that failed
// (detail::in_step); an error of the caller's reader, which names its input itself, passes on as
// it is. Either way it reaches the caller's thread from the device that had it.
TEST_CASE("the three builders rethrow a device's failure on the caller's thread",
          "[spread][errors]") {
  const merklize::leaf_rule rule{merklize::leaf_hash::sha256, 100, {7}, false, std::nullopt};
  const auto data = test::random_bytes(64 * 100);
  // The second device's part (blocks or leaves 32 .. 63) cannot be read; the first's can.
  const merklize::data_reader second_fails = [&](std::uint64_t at, std::uint64_t bytes,
                                                 std::uint8_t *into) {
    if (at >= 32 * 100) throw merklize::error("read failed at byte " + std::to_string(at));
    std::memcpy(into, data.data() + at, bytes);
  };

  auto cfg = test::multi_config({}, 3);
  cfg.weights = {1, 1};
  cfg.max_device_bytes = 1024; // too small for any part
  merklize::multi_merkleizer leaves(same_device(2), cfg);
  CHECK_THROWS_WITH(leaves.build(data),
                    Contains("too large for " + merklize::device_name(test::test_device())));

  merklize::multi_block_merkleizer blocks(same_device(2), test::multi_config({}, 2));
  blocks.set_piece_target(4 * 100);
  CHECK_THROWS_WITH(blocks.build(second_fails, data.size(), rule),
                    Equals("read failed at byte 3200"));

  merklize::multi_kary_merkleizer kary(same_device(2), {{merklize::hash_kind::sha256, 4}, {}, 1});
  kary.set_piece_target(4 * 100);
  CHECK_THROWS_WITH(kary.build(second_fails, data.size(), rule),
                    Equals("read failed at byte 3200"));
}
