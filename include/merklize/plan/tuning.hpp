// SPDX-License-Identifier: Apache-2.0 OR MIT
// Tuning as data: what the library chooses for a device (work-group sizes, kernels, chunk sizes,
// lanes) is one table of device profiles, keyed by device type, vendor and name, with a default
// row. The fields of merklize::config override a row. Someone tuning for another device adds a
// row here, measured with the bench named in `measured_by`. Plain data, no OpenCL.
#pragma once

#include "../core/hashes.hpp"
#include "build_config.hpp"

#include <algorithm>
#include <cctype>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace merklize {

enum class device_type { gpu, cpu, accelerator, other };

// What the library reads off a device, once (read_device_facts, runtime/runtime.hpp): the
// planners take it as plain data, so they are tested without a device.
struct device_facts {
  std::string name, vendor, platform;
  device_type type = device_type::gpu;
  unsigned compute_units = 1;
  std::size_t max_work_group_size = 256;
  unsigned preferred_int_vector_width = 1; // CL_DEVICE_PREFERRED_VECTOR_WIDTH_INT
  std::uint64_t global_memory_bytes = 0, max_buffer_bytes = 0;
  bool unified_memory = false; // CL_DEVICE_HOST_UNIFIED_MEMORY

  bool is_cpu() const { return type == device_type::cpu; }
};

// How a device runs the tree kernels of one tuning class of node hash.
struct node_tuning {
  level_kernel_kind level_kernel; // what level_kernel automatic runs on one-level launches
  unsigned nodes_per_item;        // merkle_level
  double tree_gbps; // --device auto: leaf bytes per second of a tree's root from a file
  // Nodes per work-item in vector lanes, for the node hashes with a lanes kernel (hashes.hpp);
  // 0: the device's preferred int vector width, at least 4.
  unsigned lanes;
  // The lanes tree_gbps was measured with, where the rate scales with them (0: it does not): a
  // device running fewer, or a hash without the lanes kernel, gets that share of it.
  unsigned rate_lanes;
};

// One row of the table: the devices it is for and what they get.
struct tuning {
  // A device matches when its type is `type` (unset: any) and `vendor` and `name` (lowercase;
  // empty matches anything) are substrings of its vendor or platform name, and of its name.
  const char *row;
  std::optional<device_type> type;
  const char *vendor, *name;
  const char *measured_by; // the bench and the device that decided the numbers

  // Tree kernels.
  std::size_t work_group_size;       // one node per work-item
  std::size_t lanes_work_group_size; // with lanes > 1
  unsigned level_kernel_waves; // automatic runs merkle_level on levels with at least this many
                               // waves of work-groups on every compute unit
  unsigned fuse_waves;         // fused launches on levels of at most this many waves
  unsigned levels_per_item;    // merkle_levels
  // Per tuning class of node hash (hashes.hpp): `nodes` is every class's, and what a new hash
  // gets, but the light class's (BLAKE3's) where `light_nodes` is set.
  node_tuning nodes;
  std::optional<node_tuning> light_nodes;
  // Streaming host builds.
  unsigned chunk_log2;       // chunks of 2^chunk_log2 leaves
  unsigned chunks_in_flight; // chunks on the device at once
  unsigned min_read_log2;    // a chunk's levels of 2^min_read_log2 nodes or more come back with
                             // it; the levels above them come back in one read at the end
  unsigned input_chunk_log2; // trees of files and pipes (merkleizer::root(input)): chunks of
                             // 2^input_chunk_log2 leaves, each staging buffer in flight one
  // Full BLAKE3 (engine/blake3_device.hpp).
  unsigned hash_chunks_per_item; // 1, 2, 4, 8 or 16 chunks per work-item in vector lanes; 0: the
                                 // preferred int vector width, rounded down to one of those
  std::size_t hash_work_group_size;
  // Batches of one work-item per item: the SHA-256 layer and the proof kernels.
  std::size_t batch_work_group_size;
  // Leaves from data blocks (block_hasher.hpp): one block per work-item.
  std::size_t block_work_group_size;
  std::uint64_t block_piece_bytes; // inputs stream through the device in pieces of about this
                                   // many bytes (whole blocks); shards of data (multi_blocks.hpp)
                                   // hold at least one piece
  unsigned sponge_piece_waves;     // a host matrix's rows (engine/mmcs.hpp) move in pieces of at
                                   // least block_piece_bytes and this many waves of rows (a row a
                                   // work-item; a wave: batch_work_group_size x compute units), so
                                   // a piece's launch fills the device
  // Build options of every program of the device: -DMERKLIZE_B3_FMA_ADDS writes BLAKE3's adds as
  // multiply-adds (kernels/blake3.cl), for devices that issue those on a pipe of their own;
  // -DMERKLIZE_KECCAK_UNROLL=24 writes Keccak's 24 rounds out (kernels/keccak.cl; its default is
  // a loop of one round, which CPUs compile ten times faster). The environment's
  // MERKLIZE_KERNEL_OPTIONS replaces them (benches compare variants with it).
  const char *kernel_options;
  // What --device auto weighs (engine_choice.hpp): milliseconds a process pays before the device's
  // first leaf (driver, context, programs from the cache); the rates are node_tuning's, per
  // compute unit where rates_per_compute_unit.
  double start_ms;
  // What a first use adds to the start where the disk cache holds none of the task's programs:
  // the driver compiling them from source.
  double compile_ms;
  bool rates_per_compute_unit;
  // The same choice for work that is not a tree of 32-byte leaves: bytes a second of SHA-256
  // leaves of 4 KiB data blocks from a file (dm-verity, fs-verity, --leaf-size), and of BLAKE3 of
  // a whole file (b3sum, Bao outboards), once started; per compute unit where the row says so.
  double block_gbps, blake3_input_gbps;
  // A k-ary tree updated on the device (plan/kary_update_plan.hpp): once more than this
  // percentage of a level's groups is dirty, that level and every one above are hashed whole
  // rather than gathered from a list. About 100 / R for a listed group costing R whole ones.
  unsigned kary_whole_level_percent;
  // A k-ary tree's batch of at least this many updates a thousand leaves skips the host's plan
  // (its sort and lists): the device elects each leaf's last value and hashes every level whole
  // (engine/kary_leaf_election.hpp). About the plan's cost an update over the device's rebuild's
  // a leaf, times 1000; 0: never.
  unsigned kary_elect_per_mille;

  // The tree kernels' tuning of a class of node hash: its own where the row has it, else the
  // default.
  const node_tuning &nodes_of(tuning_class c) const {
    return c == tuning_class::light && light_nodes ? *light_nodes : nodes;
  }
};

// The host engine's numbers (host_tree.hpp), for the same choice: SHA-256 trees on the CPU's own
// threads, no driver to start.
struct host_engine_tuning {
  const char *measured_by;
  double start_ms;
  double sha_ni_gbps_per_thread, portable_gbps_per_thread;           // SHA-256 nodes
  double blake3_gbps_per_thread;                                     // blake3 nodes, portable
  double blake3_avx2_gbps_per_thread, blake3_avx512_gbps_per_thread; // in 8 and 16 lanes
  // Data blocks' leaves (host_blocks.hpp): SHA-256 ones two at a time on the SHA extensions, or
  // portably; the other leaf hashes' host references, a block at a time.
  double sha256_blocks_sha_ni_gbps_per_thread, sha256_blocks_portable_gbps_per_thread;
  double other_blocks_gbps_per_thread;
  // BLAKE3 of a whole input (host_blake3.hpp): chunks in 16 lanes, 8, or portably.
  double blake3_input_avx512_gbps_per_thread, blake3_input_avx2_gbps_per_thread,
      blake3_input_gbps_per_thread;
  // Keccak-256 and SHA3-256 nodes (keccak_lanes.hpp): in 8 lanes, 4, or one at a time.
  double keccak_avx512_gbps_per_thread, keccak_avx2_gbps_per_thread, keccak_gbps_per_thread;
};

inline const host_engine_tuning &host_engine_row() {
  static const host_engine_tuning row{
      "merklize root --device host of 1 GiB in /dev/shm on the H100 machine's 16 Xeon threads: "
      "SHA-256 with sha_ni 225 ms, BLAKE3 (portable) 369 ms, reading included, which bounds "
      "the rate more than the cores do; the portable SHA-256 loop on 64 MiB on 2 Xeon cores, "
      "by CPU time; BLAKE3 in 16 lanes (AVX-512) of 1 GiB in /dev/shm on the 2-core Xeon "
      "machine under load 5: 0.80 s wall (0.67 GB/s a thread), 0.52 s of CPU (2.0 GB/s a "
      "CPU-second), taken as 1.0; AVX2's 8 lanes half of that, as hashing alone measured "
      "(dev/PERFORMANCE_LOG.md); data blocks' SHA-256 leaves two at a time on sha_ni 2.6 GB/s a "
      "CPU-second and portably 0.2 (4 KiB blocks, sha256_many alone, the 2-core AMD EPYC "
      "machine), taken as 2.0 and 0.15 for the reading; BLAKE3 of inputs in 16 lanes taken as "
      "the node lanes' rate (both a compression a 64 bytes), the other leaf hashes' portable "
      "code by the same rule; keccak256 nodes of 2^20 pairs on one thread of the 2-core AMD "
      "EPYC machine: 1.0 GB/s of leaves in 8 lanes, 0.57 in 4, 0.03 one at a time, taken as "
      "0.9, 0.5 and 0.03 for the reading",
      1,
      0.3,
      0.1,
      0.18,
      0.5,
      1.0,
      2.0,
      0.15,
      0.1,
      1.0,
      0.5,
      0.18,
      0.9,
      0.5,
      0.03};
  return row;
}

// The rows, first match wins; the last row matches every device. Each row names its fields, so
// a new one for another device reads as what it changes.
inline const std::vector<tuning> &tuning_table() {
  static const std::vector<tuning> rows = [] {
    tuning nvidia{};
    nvidia.row = "NVIDIA GPU";
    nvidia.type = device_type::gpu;
    nvidia.vendor = "nvidia";
    nvidia.name = "";
    nvidia.measured_by =
        "bench/kernel_variants.sh, bench/device_run.sh and hash_bench on an NVIDIA H200 "
        "(dev/PERFORMANCE_LOG.md): merkle_levels x2 at 128 work-items 1.242 / 0.073 ms at 2^25 / "
        "2^20 leaves, x3 1.439 / 0.090 (72 registers), merkle_level x2 1.323 / 0.082, "
        "merkle_subtree "
        "1.419 / 0.082; SHA-256 nodes (merklize_bench --variants --hash=sha256): merkle_level x1 "
        "4.413 ms at 2^25, merkle_subtree 4.486, merkle_levels x2 4.728; chunks of 2^21 the best "
        "end to end of 2^18 .. 2^22; one chunk per work-item 1.53 TB/s against lanes2 1.50; block "
        "leaves in work-groups of 64 (SHA-256 leaves of 4 KiB blocks at 673 GB/s, "
        "bench/block_bench.cpp) streamed in pieces of 16 MiB (fs-verity of 4 GiB in 0.566 s, "
        "bench/block_formats.sh), neither varied yet; BLAKE3's adds as multiply-adds "
        "(bench/ab_options.sh): full BLAKE3 of 1 GiB 0.702 -> 0.658 ms, the 2^20-leaf tree 0.075 "
        "-> 0.072 ms, the 2^25-leaf tree 1.24 ms either way; SHA-256's adds, shifts and rotations "
        "as multiply-adds slower; Keccak nodes (keccak256, sha3-256) take SHA-256's kernel and "
        "nodes per work-item and 24 unrolled rounds, none of it measured yet (bench/keccak_run.sh)";
    nvidia.work_group_size = 128;
    nvidia.lanes_work_group_size = 16;
    nvidia.level_kernel_waves = 16;
    nvidia.fuse_waves = 2;
    nvidia.levels_per_item = 2;
    // On the H200 (files in /dev/shm): root of 2 leaves 351 ms, of 1 GiB 566 ms.
    nvidia.nodes = {level_kernel_kind::level, 1, 4.7, 1, 0};
    nvidia.light_nodes = node_tuning{level_kernel_kind::levels, 2, 4.7, 1, 0};
    nvidia.chunk_log2 = 21;
    nvidia.chunks_in_flight = 3;
    nvidia.min_read_log2 = 15;
    nvidia.input_chunk_log2 = 21;
    nvidia.hash_chunks_per_item = 1;
    nvidia.hash_work_group_size = 64;
    nvidia.batch_work_group_size = 256;
    nvidia.block_work_group_size = 64;
    nvidia.block_piece_bytes = std::uint64_t(16) << 20;
    // H100, mmcs_bench 2^20 x 256 BabyBear from page-locked memory: pieces of 16 MiB (half a
    // wave of rows) ran the absorbing kernel at 0.88 G permutations/s, 2.23 G in one launch.
    nvidia.sponge_piece_waves = 8;
    // Keccak's rounds written out: what the other kernels do, not yet measured against a loop
    // (bench/keccak_run.sh times both).
    nvidia.kernel_options = "-DMERKLIZE_B3_FMA_ADDS -DMERKLIZE_KECCAK_UNROLL=24";
    nvidia.start_ms = 350;
    // The H100 machine: a root on an empty cache 3.1 s against 0.2 s warm.
    nvidia.compile_ms = 2900;
    nvidia.rates_per_compute_unit = false;
    // H200: fs-verity of 4 GiB in 0.566 s whole (bench/block_formats.sh), 0.22 s after the start;
    // merklize b3sum of 1 GiB in 485 ms whole by default, 0.135 s after it.
    nvidia.block_gbps = 20;
    nvidia.blake3_input_gbps = 8;
    // A listed group's gather, hash and scatter move its k children about three times in device
    // memory where a whole level's hash reads them once, plus its list entry: R about 4. Not
    // measured yet (kary_update_bench prints the split and the path).
    nvidia.kary_whole_level_percent = 25;
    // The plan 20-60 ns an update on 16 cores against a rebuild's 0.06 ns a leaf (blake3, arity
    // 16, 2^24 leaves on an H100: 1 ms): even at 2 per mille, planning would cost about as much.
    nvidia.kary_elect_per_mille = 2;

    tuning cpu = nvidia;
    cpu.row = "CPU (PoCL)";
    cpu.type = device_type::cpu;
    cpu.vendor = "";
    cpu.measured_by =
        "merklize_bench --variants and hash_bench with PoCL 3.1 on 2 AMD EPYC cores (AVX-512) and "
        "PoCL 5 on 16 Xeon cores: PoCL does not vectorize across work-items, so nodes and chunks "
        "go in the lanes of the preferred int vector; chunks of 2^22 leaves for host builds, and "
        "2^20 for files and pipes, where the staging is host memory too; the start and rates of "
        "--device auto from merklize root of 2 leaves (100 ms, programs from the cache) and of "
        "2^24 leaves (512 MiB) with PoCL 3.1 on 2 Xeon cores (sha_ni, AVX-512) under load "
        "(dev/PERFORMANCE_LOG.md); BLAKE3's rate from merklize root --device cpu of 1 GiB "
        "in /dev/shm there, 1.0-1.2 s whole (0.55 GB/s a compute unit after the start); sha256 "
        "nodes in 16 lanes (kernels/sha256_lanes.cl): merklize_bench --hash=sha256 kernels of "
        "2^24 leaves 8364 -> 875 ms against one node a work-item, and merklize root --hash sha256 "
        "--device cpu of 2^24 leaves 1.22 s against the host engine's SHA extensions' 1.61 s "
        "(1.33x), so the rate is the host row's sha_ni rate times 1.33";
    cpu.work_group_size = 256;
    // merkle_level not measured on CPUs with SHA-256 nodes; their rate is 16 lanes' (AVX-512).
    cpu.nodes = {level_kernel_kind::subtree, 1, 0.4, 0, 16};
    cpu.light_nodes = node_tuning{level_kernel_kind::levels, 1, 0.55, 0, 0};
    cpu.chunk_log2 = 22;
    cpu.input_chunk_log2 = 20;
    cpu.hash_chunks_per_item = 0;
    cpu.kernel_options = ""; // a CPU's multiplies share its ports with its adds
    cpu.start_ms = 100;
    // PoCL 3.1 on the 2 AMD EPYC cores, merklize root of 64 MiB on empty caches against warm
    // ones: 3.4 s more (keccak256), 4.4 s (blake3), 10 s (sha256), 15 s (blake3 leaves of 4 KiB
    // blocks); the least of them.
    cpu.compile_ms = 3400;
    cpu.rates_per_compute_unit = true;
    // PoCL 3.1 on the 2 AMD EPYC cores: fs-verity of 512 MiB 3.3x fsverity digest's 0.4 s, and
    // merklize b3sum 3.2x b3sum's 0.2 s, whole processes (docs/BENCHMARKS.md).
    cpu.block_gbps = 0.2;
    cpu.blake3_input_gbps = 0.4;
    // Hashing dominates, not memory: kary_update_bench 16 5 sha256 with PoCL 3.1 on 2 cores,
    // about 2.0 us a listed group against 1.7 a group of a whole level, R about 1.2.
    cpu.kary_whole_level_percent = 75;
    // PoCL rebuilds a tree of 2^24 leaves in a second or so: the plan is always cheaper.
    cpu.kary_elect_per_mille = 0;

    tuning other = nvidia;
    other.row = "any other device";
    other.type = std::nullopt;
    other.vendor = "";
    other.measured_by = "none of its own: the NVIDIA GPU row's numbers, a starting point to "
                        "measure from, with plain integer arithmetic";
    other.kernel_options = "";
    return std::vector<tuning>{nvidia, cpu, other};
  }();
  return rows;
}

namespace detail {

inline bool contains_lowercase(const std::string &text, const char *needle) {
  std::string lower(text);
  std::transform(lower.begin(), lower.end(), lower.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return lower.find(needle) != std::string::npos;
}

inline bool row_matches(const tuning &row, const device_facts &device) {
  return (!row.type || *row.type == device.type) &&
         (contains_lowercase(device.vendor, row.vendor) ||
          contains_lowercase(device.platform, row.vendor)) &&
         contains_lowercase(device.name, row.name);
}

} // namespace detail

// The row for a device: the first that matches.
inline const tuning &tuning_for(const device_facts &device) {
  for (const tuning &row : tuning_table())
    if (detail::row_matches(row, device)) return row;
  return tuning_table().back();
}

// Nodes per work-item in vector lanes for a row's `lanes` value: 0 is the device's preferred int
// vector width, rounded down to 4, 8 or 16.
inline unsigned resolved_lanes(unsigned lanes, const device_facts &device) {
  if (lanes) return lanes;
  const unsigned width = device.preferred_int_vector_width;
  return width >= 16 ? 16 : width >= 8 ? 8 : 4;
}

} // namespace merklize
