// SPDX-License-Identifier: Apache-2.0 OR MIT
// --device auto's choice as pure planning (engine_choice.hpp), with no device: the estimates from
// tuning rows for an H200 and for PoCL, the host engine with and without the SHA extensions, a
// measured start in place of the row's, and inputs of every size from 2 leaves to a pipe.
#include "facts_helpers.hpp"

#include <merklize/plan/engine_choice.hpp>

#include <catch2/catch.hpp>

namespace {

using merklize::hash_kind;

merklize::device_facts gpu() { return test::h200(); }
merklize::device_facts pocl() { return test::pocl_cpu(16); }

// The engine --device auto picks between `device` and the host engine on 2 threads.
merklize::engine_choice choose(const merklize::device_facts &device, hash_kind hash,
                               std::optional<std::uint64_t> bytes, bool sha_extensions = true,
                               std::optional<double> measured = std::nullopt,
                               unsigned blake3_lanes = 1) {
  return merklize::choose_engine(
      {merklize::device_estimate(device, merklize::tuning_for(device), hash, measured),
       merklize::host_estimate(hash, 2, sha_extensions, blake3_lanes)},
      bytes);
}

constexpr std::uint64_t gib = std::uint64_t(1) << 30;

} // namespace

TEST_CASE("engine choice: the host engine where the GPU cannot pay for its start", "[choice]") {
  CHECK(choose(gpu(), hash_kind::sha256, 64).chosen == 1); // 2 leaves: the host
  CHECK(choose(gpu(), hash_kind::rfc6962, 64).chosen == 1);
  CHECK(choose(gpu(), hash_kind::sha256, 16 * gib).chosen == 0);     // the GPU's rate pays
  CHECK(choose(gpu(), hash_kind::sha256, std::nullopt).chosen == 0); // a pipe: taken as large
  CHECK(choose(gpu(), hash_kind::blake3, 64).chosen == 1);           // portable, but no start
  CHECK(choose(gpu(), hash_kind::blake3, gib).chosen == 0);
  // In 16 lanes 2 threads finish 1 GiB before the GPU's start and rate do; 4 GiB pay for the GPU.
  CHECK(choose(gpu(), hash_kind::blake3, gib, true, std::nullopt, 16).chosen == 1);
  CHECK(choose(gpu(), hash_kind::blake3, 4 * gib, true, std::nullopt, 16).chosen == 0);
  CHECK(choose(gpu(), hash_kind::blake3_parent, 64).chosen == 0); // the host has no ROOT flag
}

TEST_CASE("engine choice: without a GPU, SHA-256 trees go where they finish first", "[choice]") {
  // Small trees to the host engine's SHA extensions; large sha256 trees to PoCL's 16 lanes of
  // AVX-512 (faster than two SHA-NI threads on the same cores, docs/BENCHMARKS.md), not 8 lanes.
  for (std::uint64_t bytes : {std::uint64_t(32), std::uint64_t(1) << 20})
    CHECK(choose(pocl(), hash_kind::sha256, bytes).chosen == 1);
  for (std::uint64_t bytes : {gib, 64 * gib}) {
    CHECK(choose(pocl(), hash_kind::sha256, bytes).chosen == 0);
    CHECK(choose(test::pocl_cpu(8), hash_kind::sha256, bytes).chosen == 1);
    CHECK(choose(pocl(), hash_kind::rfc6962, bytes).chosen == 1); // no lanes kernel
  }
  CHECK(choose(pocl(), hash_kind::blake3, gib).chosen == 0); // PoCL's lanes outrun the portable
  // code, but not the host's own 16 lanes on as many threads as PoCL has compute units
  CHECK(choose(pocl(), hash_kind::blake3, gib, true, std::nullopt, 16).chosen == 1);
  CHECK_THAT(choose(pocl(), hash_kind::blake3, gib, true, std::nullopt, 16).why,
             Catch::Contains("host (AVX-512, 2 threads)"));
  CHECK(choose(pocl(), hash_kind::blake3, 64).chosen == 1);
  // The portable SHA-256 still starts first; on large inputs the higher rate wins.
  CHECK(choose(pocl(), hash_kind::sha256, 32, false).chosen == 1);
  const double device_rate =
      merklize::device_estimate(pocl(), merklize::tuning_for(pocl()), hash_kind::sha256)
          .gbytes_per_s;
  const double host_rate = merklize::host_estimate(hash_kind::sha256, 2, false).gbytes_per_s;
  CHECK(choose(pocl(), hash_kind::sha256, 1024 * gib, false).chosen ==
        (host_rate > device_rate ? 1u : 0u));
}

TEST_CASE("engine choice: a measured start replaces the row's", "[choice]") {
  const std::uint64_t bytes = std::uint64_t(64) << 20; // 64 MiB: the row says the host
  CHECK(choose(gpu(), hash_kind::sha256, bytes).chosen == 1);
  CHECK(choose(gpu(), hash_kind::sha256, bytes, true, 5.0).chosen == 0); // a warm driver
  const auto c = choose(gpu(), hash_kind::sha256, bytes, true, 5.0);
  CHECK(c.finish.size() == 2);
  CHECK(c.finish[0] < c.finish[1]);
  CHECK_THAT(c.why, Catch::Contains("NVIDIA H200") && Catch::Contains("start 5.0 ms") &&
                        Catch::Contains("host (SHA extensions, 2 threads)"));
}

TEST_CASE("engine choice: an engine that cannot build the tree is never chosen", "[choice]") {
  const auto host_only = merklize::host_estimate(hash_kind::blake3_parent, 2, true);
  CHECK_FALSE(host_only.can_run);
  CHECK_THROWS_WITH(merklize::choose_engine({host_only}, 64),
                    Catch::Contains("no engine builds this tree"));
  const auto c = merklize::choose_engine(
      {host_only,
       merklize::device_estimate(pocl(), merklize::tuning_for(pocl()), hash_kind::blake3_parent)},
      64);
  CHECK(c.chosen == 1);
  CHECK(c.finish[0] == -1);
  CHECK_THAT(c.why, Catch::Contains("cannot"));
}

TEST_CASE("engine choice: with no records, the host where it beats every row of the table",
          "[choice]") {
  const auto host = merklize::host_estimate(hash_kind::sha256, 2, true);
  const auto sha256 = merklize::tree_task(hash_kind::sha256);
  CHECK(merklize::host_beats_table(host, 64, sha256, 2));
  CHECK_FALSE(merklize::host_beats_table(host, 64 * gib, sha256, 2));     // a GPU's rate pays
  CHECK_FALSE(merklize::host_beats_table(host, std::nullopt, sha256, 2)); // a pipe: 1 GiB
  CHECK_FALSE(merklize::host_beats_table(merklize::host_estimate(hash_kind::blake3_parent, 2, true),
                                         64, merklize::tree_task(hash_kind::blake3_parent), 2));
}

TEST_CASE("engine choice: each format and hash of the host engine, against the table", "[choice]") {
  // The 2-core machine: SHA extensions, AVX-512. The host's 2 threads finish 512 MiB of 4 KiB
  // blocks' SHA-256 leaves (dm-verity, fs-verity, --leaf-size) before any row's device, and
  // BLAKE3 of 512 MiB (b3sum, Bao outboards); 64 GiB pay for a GPU.
  const std::uint64_t half_gib = gib / 2;
  const auto blocks = merklize::blocks_task(merklize::leaf_hash::sha256, true);
  const auto blocks_host = merklize::host_estimate(blocks, 2, true, 16);
  CHECK_THAT(blocks_host.name, Catch::Contains("SHA extensions"));
  CHECK(merklize::host_beats_table(blocks_host, half_gib, blocks, 2));
  CHECK_FALSE(merklize::host_beats_table(blocks_host, 64 * gib, blocks, 2));
  const auto input = merklize::blake3_input_task();
  const auto input_host = merklize::host_estimate(input, 2, true, 16);
  CHECK_THAT(input_host.name, Catch::Contains("BLAKE3 AVX-512"));
  CHECK(merklize::host_beats_table(input_host, half_gib, input, 2));
  CHECK_FALSE(merklize::host_beats_table(input_host, 64 * gib, input, 2));
  // On 16 threads (the H200 machine) 1 GiB of either stays on the host.
  CHECK(merklize::host_beats_table(merklize::host_estimate(blocks, 16, true, 16), gib, blocks, 16));
  CHECK(merklize::host_beats_table(merklize::host_estimate(input, 16, true, 16), gib, input, 16));
  // Block leaves of the other hashes go portably; blocks the host cannot hash never go to it.
  const auto keccak = merklize::blocks_task(merklize::leaf_hash::keccak256, true);
  CHECK_THAT(merklize::host_estimate(keccak, 2, true).name, Catch::Contains("portable keccak256"));
  // Keccak trees' nodes go in the lanes of BLAKE3's ISA: AVX-512 faster than AVX2, than portable.
  const auto keccak_tree = [](unsigned lanes) {
    return merklize::host_estimate(hash_kind::keccak256, 2, true, lanes);
  };
  CHECK_THAT(keccak_tree(16).name, Catch::Contains("AVX-512 Keccak, 2 threads"));
  CHECK_THAT(keccak_tree(1).name, Catch::Contains("portable Keccak"));
  CHECK(keccak_tree(16).gbytes_per_s > keccak_tree(8).gbytes_per_s);
  CHECK(keccak_tree(8).gbytes_per_s > keccak_tree(1).gbytes_per_s);
  const auto odd = merklize::blocks_task(merklize::leaf_hash::sha256, false);
  CHECK_FALSE(merklize::host_estimate(odd, 2, true).can_run);
  CHECK_FALSE(merklize::host_beats_table(merklize::host_estimate(odd, 2, true), 64, odd, 2));
  // Without the SHA extensions the portable code's rate is weighed.
  CHECK(merklize::host_estimate(blocks, 2, false).gbytes_per_s <
        merklize::host_estimate(blocks, 2, true).gbytes_per_s);
}

TEST_CASE("engine choice: with only CPU drivers installed, no GPU row is weighed", "[choice]") {
  CHECK(merklize::drivers_may_bring_gpu({}));
  CHECK(merklize::drivers_may_bring_gpu({"libpocl.so.2", "libnvidia-opencl.so.1"}));
  CHECK_FALSE(merklize::drivers_may_bring_gpu({"libpocl.so.2.10.0"}));
  CHECK_FALSE(merklize::drivers_may_bring_gpu({"/opt/intel/libintelocl.so"}));
  // PoCL alone: the formats and BLAKE3 of inputs stay on the host at any size; large sha256
  // trees still go to PoCL's 16 lanes, which outrun two SHA-NI threads.
  for (const auto &task :
       {merklize::blocks_task(merklize::leaf_hash::sha256, true), merklize::blake3_input_task()})
    CHECK(merklize::host_beats_table(merklize::host_estimate(task, 2, true, 16), 64 * gib, task, 2,
                                     false));
  const auto sha256 = merklize::tree_task(hash_kind::sha256);
  CHECK_FALSE(merklize::host_beats_table(merklize::host_estimate(sha256, 2, true), 64 * gib, sha256,
                                         2, false));
}

TEST_CASE("engine choice: a device's recorded rates of each task decide", "[choice]") {
  const merklize::recorded_device pocl{100, 1.1, 0.8, 0.4, 0.8};
  const merklize::recorded_device fast{50, 50, 50, 50, 50};
  const auto blocks = merklize::blocks_task(merklize::leaf_hash::sha256, true);
  const auto input = merklize::blake3_input_task();
  for (const auto &task : {blocks, input}) {
    const auto host = merklize::host_estimate(task, 2, true, 16);
    CHECK(merklize::host_beats_recorded(host, gib, task, {pocl}));
    CHECK_FALSE(merklize::host_beats_recorded(host, gib, task, {pocl, fast}));
  }
}

TEST_CASE("engine choice: the devices this machine ran decide without looking for one",
          "[choice]") {
  const auto host = merklize::host_estimate(hash_kind::sha256, 16, true);
  const std::uint64_t gib = std::uint64_t(1) << 30;
  // A GPU whose whole start is 180 ms, then 10 GB/s from a file, against 16 SHA-NI threads.
  const merklize::recorded_device gpu{180, 10, 10};
  CHECK(merklize::host_beats_recorded(host, gib, hash_kind::sha256, {gpu}));
  CHECK_FALSE(merklize::host_beats_recorded(host, 64 * gib, hash_kind::sha256, {gpu}));
  // Any recorded device that would finish sooner keeps the search, as do no records.
  const merklize::recorded_device quick{1, 100, 100};
  CHECK_FALSE(merklize::host_beats_recorded(host, gib, hash_kind::sha256, {gpu, quick}));
  CHECK_FALSE(merklize::host_beats_recorded(host, gib, hash_kind::sha256, {}));
  // A pipe is taken as 1 GiB, as choose_engine takes it.
  CHECK(merklize::host_beats_recorded(host, std::nullopt, hash_kind::sha256, {gpu}));
  CHECK_FALSE(merklize::host_beats_recorded(host, std::nullopt, hash_kind::sha256, {quick}));
  // The rate is the tree's hash's: the same device is fast at blake3 and slow at sha256.
  const merklize::recorded_device split{180, 1000, 0.1};
  const auto host_blake3 = merklize::host_estimate(hash_kind::blake3, 16, true);
  CHECK_FALSE(merklize::host_beats_recorded(host_blake3, gib, hash_kind::blake3, {split}));
  CHECK(merklize::host_beats_recorded(host, gib, hash_kind::sha256, {split}));
}

TEST_CASE("engine choice: a device first compiles the programs the cache does not hold",
          "[choice]") {
  // BLAKE3 leaves of 4 KiB blocks, 64 MiB, on a machine with PoCL alone: its two cores' kernels
  // outrun the host's portable BLAKE3 once compiled, not while they compile (seconds).
  auto blocks = merklize::blocks_task(merklize::leaf_hash::blake3, true);
  const auto host = merklize::host_estimate(blocks, 2, true, 16);
  const std::uint64_t mib64 = std::uint64_t(64) << 20;
  CHECK_FALSE(merklize::host_beats_table(host, mib64, blocks, 2, false));
  blocks.programs_cached = false;
  CHECK(merklize::host_beats_table(host, mib64, blocks, 2, false));
  // A compile is paid once: an input large enough still goes to the device.
  CHECK_FALSE(merklize::host_beats_table(host, 64 * gib, blocks, 2, false));
  // The same from a record of the device, with its compile time; a record without one (an
  // earlier version's) weighs no compile.
  merklize::recorded_device pocl{100, 1.1, 0.8, 0.4, 0.8, 3400};
  CHECK(merklize::host_beats_recorded(host, mib64, blocks, {pocl}));
  blocks.programs_cached = true;
  CHECK_FALSE(merklize::host_beats_recorded(host, mib64, blocks, {pocl}));
  pocl.compile_ms = 0;
  blocks.programs_cached = false;
  CHECK_FALSE(merklize::host_beats_recorded(host, mib64, blocks, {pocl}));
  // Every row says what its compile costs.
  for (const auto &row : merklize::tuning_table())
    CHECK(row.compile_ms > 0);
}

TEST_CASE("resident updates from host memory go to the host's cores on CPU devices",
          "[engine-choice]") {
  using merklize::resident_update;
  const auto on_host = [](resident_update choice, const merklize::device_facts &device,
                          hash_kind hash) {
    return merklize::resident_updates_on_host(choice, device, {hash});
  };
  for (const auto hash : {hash_kind::sha256, hash_kind::rfc6962, hash_kind::blake3}) {
    CHECK(on_host(resident_update::automatic, pocl(), hash));
    CHECK_FALSE(on_host(resident_update::automatic, gpu(), hash));
    CHECK(on_host(resident_update::host, gpu(), hash));
    CHECK_FALSE(on_host(resident_update::kernels, pocl(), hash));
  }
  // Portable pairs only (Keccak's): the kernels unless the host is asked for. No host pair
  // hasher: the kernels, and forcing the host refused.
  CHECK_FALSE(on_host(resident_update::automatic, pocl(), hash_kind::keccak256));
  CHECK(on_host(resident_update::host, pocl(), hash_kind::keccak256));
  CHECK_FALSE(on_host(resident_update::automatic, pocl(), hash_kind::blake3_parent));
  CHECK_THROWS_WITH(on_host(resident_update::host, pocl(), hash_kind::blake3_parent),
                    Catch::Matchers::Contains("no pair hasher for blake3-parent"));
}
