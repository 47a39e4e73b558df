// SPDX-License-Identifier: Apache-2.0 OR MIT
// merkle_level (kernels/merkle_level.cl), the one-level kernel: launched on its own at every
// number of nodes per work-item and both index widths against the host's node hash, then
// through the merkleizer with config::level_kernel set, against the host reference.
#include "helpers.hpp"
#include "proof_helpers.hpp"

#include <catch2/catch.hpp>

#include <algorithm>

using Catch::Matchers::Contains;

namespace {

using merklize::digest;
using merklize::node_bytes;

// Where the launch reads and writes, so that the kernel's offsets are exercised too.
constexpr std::uint64_t in_first = 5, out_first = 3, guard_nodes = 4, zeros_first = 2;

digest node_at(const std::vector<std::uint8_t> &nodes, std::uint64_t i) {
  digest d;
  std::copy_n(nodes.begin() + i * node_bytes, node_bytes, d.begin());
  return d;
}

// The level above `count` nodes as the host computes it, between poisoned margins as the
// launch must leave them.
std::vector<std::uint8_t> expected_output(merklize::hash_kind hash, bool pad_with_node,
                                          const std::vector<std::uint8_t> &level, bool is_top) {
  const std::uint64_t count = level.size() / node_bytes, above = (count + 1) / 2;
  const digest zero = merklize::zero_subtree_roots(hash, zeros_first)[zeros_first];
  std::vector<std::uint8_t> out((out_first + above + guard_nodes) * node_bytes, test::poison_byte);
  for (std::uint64_t i = 0; i < above; ++i) {
    const digest left = node_at(level, 2 * i);
    digest node = left;
    if (2 * i + 1 < count)
      node = merklize::node_hash(hash, left, node_at(level, 2 * i + 1), is_top);
    else if (pad_with_node)
      node = merklize::node_hash(hash, left, zero, is_top);
    std::copy(node.begin(), node.end(), out.begin() + (out_first + i) * node_bytes);
  }
  return out;
}

struct level_launch {
  merklize::hash_kind hash;
  std::size_t work_group_size;
  unsigned nodes_per_item;
  bool wide_index;
};

// One launch of merkle_level over `level` (after in_first filler nodes) into a poisoned buffer:
// every byte of the buffer afterwards.
std::vector<std::uint8_t> launch(const level_launch &l, cl::Kernel &kernel,
                                 const cl::CommandQueue &queue,
                                 const std::vector<std::uint8_t> &level, bool pad_with_node,
                                 bool is_top) {
  const cl::Context context = queue.getInfo<CL_QUEUE_CONTEXT>();
  const std::uint64_t count = level.size() / node_bytes, above = (count + 1) / 2;
  auto input = test::random_bytes(in_first * node_bytes);
  input.insert(input.end(), level.begin(), level.end());
  cl::Buffer in(context, CL_MEM_READ_ONLY, input.size());
  queue.enqueueWriteBuffer(in, CL_TRUE, 0, input.size(), input.data());
  const auto zeros = merklize::zero_subtree_roots(l.hash, 8);
  cl::Buffer zero_buffer(context, CL_MEM_READ_ONLY, zeros.size() * node_bytes);
  queue.enqueueWriteBuffer(zero_buffer, CL_TRUE, 0, zeros.size() * node_bytes, zeros.data());
  const std::size_t out_bytes = (out_first + above + guard_nodes) * node_bytes;
  cl::Buffer out = test::poisoned_buffer(context, queue, out_bytes);
  kernel.setArg(0, in);
  kernel.setArg(1, cl_ulong(in_first));
  kernel.setArg(2, cl_ulong(count));
  kernel.setArg(3, out);
  kernel.setArg(4, cl_ulong(out_first));
  kernel.setArg(5, zero_buffer);
  kernel.setArg(6, cl_ulong(zeros_first));
  kernel.setArg(7, cl_int(pad_with_node));
  kernel.setArg(8, cl_int(is_top));
  const std::size_t items = (above + l.nodes_per_item - 1) / l.nodes_per_item;
  const std::size_t groups = (items + l.work_group_size - 1) / l.work_group_size;
  queue.enqueueNDRangeKernel(kernel, cl::NullRange, cl::NDRange(groups * l.work_group_size),
                             cl::NDRange(l.work_group_size));
  return test::read_buffer(queue, out, out_bytes);
}

// Level sizes for a launch shape: the awkward sizes, and those whose level above is around the
// work-group size and around the nodes one round of work-groups covers (work-group size x nodes
// per item), odd and even.
std::vector<std::uint64_t> level_sizes(const level_launch &l) {
  auto sizes = test::awkward_sizes(10);
  const std::uint64_t w = l.work_group_size, round = w * l.nodes_per_item;
  for (std::uint64_t above : {w - 1, w, w + 1, round - 1, round, round + 1, 2 * round + 1})
    if (above > 0)
      for (std::uint64_t count : {2 * above - 1, 2 * above})
        sizes.push_back(count);
  return sizes;
}

void check_level_kernel(merklize::hash_kind hash, std::size_t work_group_size) {
  const cl::Device device = test::test_device();
  const cl::Context context = merklize::detail::shared_context(device);
  const cl::CommandQueue queue(context, device);
  for (unsigned nodes_per_item : {1u, 2u, 4u})
    for (bool wide_index : {false, true}) {
      const level_launch l{hash, work_group_size, nodes_per_item, wide_index};
      const auto spec =
          merklize::detail::merkle_level_program(hash, work_group_size, nodes_per_item, wide_index);
      const cl::Program program = merklize::detail::get_program(context, device, spec);
      cl::Kernel kernel(program, "merkle_level");
      for (bool pad_with_node : {false, true})
        for (std::uint64_t count : level_sizes(l)) {
          const bool is_top = count <= 2;
          INFO(merklize::to_string(hash)
               << " work-group " << work_group_size << " nodes/item " << nodes_per_item
               << (wide_index ? " 64" : " 32") << "-bit indices pad " << pad_with_node << " count "
               << count);
          const auto level = test::random_bytes(count * node_bytes);
          REQUIRE(launch(l, kernel, queue, level, pad_with_node, is_top) ==
                  expected_output(hash, pad_with_node, level, is_top));
        }
    }
}

// Leaf counts for whole trees: small, around powers of two and around the work-group size 4
// used below, whose levels above 16 nodes get one launch each on a 2-core CPU.
const std::uint64_t tree_sizes[] = {1,  2,  3,  4,   5,   7,   8,    9,    31,   32,  33,
                                    63, 64, 65, 255, 256, 257, 1000, 4095, 4096, 4097};

merklize::config level_config(merklize::tree_options tree, unsigned nodes_per_item,
                              unsigned levels_per_launch) {
  merklize::config cfg{tree};
  cfg.level_kernel = merklize::level_kernel_kind::level;
  cfg.nodes_per_item = nodes_per_item;
  cfg.levels_per_launch = levels_per_launch;
  cfg.lanes = 1; // one node per lane, whatever the device (CPUs default to lanes kernels)
  cfg.work_group_size = 4;
  return cfg;
}

} // namespace

TEST_CASE("merkle_level matches the host node hash: blake3", "[level-kernel]") {
  check_level_kernel(merklize::hash_kind::blake3, GENERATE(1, 3, 32));
}

TEST_CASE("merkle_level matches the host node hash: blake3-parent", "[level-kernel]") {
  check_level_kernel(merklize::hash_kind::blake3_parent, 32);
}

TEST_CASE("merkle_level matches the host node hash: sha256", "[level-kernel]") {
  check_level_kernel(merklize::hash_kind::sha256, 32);
}

TEST_CASE("merkle_level matches the host node hash: rfc6962", "[level-kernel][rfc6962]") {
  check_level_kernel(merklize::hash_kind::rfc6962, GENERATE(3, 32));
}

TEST_CASE("merkle_level matches the host node hash: keccak256 and sha3-256",
          "[level-kernel][keccak]") {
  check_level_kernel(GENERATE(merklize::hash_kind::keccak256, merklize::hash_kind::sha3_256), 32);
}

TEST_CASE("level_kernel = level builds the reference trees, device buffers, in place and streamed",
          "[level-kernel]") {
  const auto options = GENERATE(Catch::Generators::from_range(test::all_tree_options()));
  const auto hash = options.hash;
  const auto pad = options.shape;
  for (unsigned nodes_per_item : {1u, 2u, 4u})
    for (unsigned levels_per_launch : {0u, 1u}) { // hybrid dispatch, or one launch per level
      const merklize::config cfg = level_config({hash, pad}, nodes_per_item, levels_per_launch);
      merklize::config streamed = cfg;
      streamed.zero_copy = false;
      streamed.chunk_log2 = 5;
      merklize::merkleizer m(test::test_device(), cfg), s(test::test_device(), streamed);
      for (std::uint64_t n : tree_sizes) {
        INFO(merklize::to_string(hash)
             << " " << merklize::to_string(pad) << " nodes/item " << nodes_per_item
             << " levels/launch " << levels_per_launch << " n=" << n);
        const auto leaves = test::random_bytes(n * 32);
        const auto expected = merklize::reference_tree(leaves.data(), leaves.size(), cfg.tree);
        REQUIRE(test::device_tree(m, leaves) == test::device_nodes_of(expected));
        REQUIRE(m.build(leaves) == expected);
        REQUIRE(s.build(leaves) == expected);
        if (levels_per_launch == 1 && n > 1)
          CHECK(m.last_times().kernel_launches == merklize::tree_layout(n).depth());
      }
    }
}

TEST_CASE("level_kernel = level with a fixed depth leaves the root flag to the extension",
          "[level-kernel][depth]") {
  const auto hash = GENERATE(merklize::hash_kind::blake3, merklize::hash_kind::blake3_parent,
                             merklize::hash_kind::sha256);
  for (std::uint64_t n : {2, 3, 5, 64, 257}) {
    const unsigned depth = merklize::tree_layout(n).depth() + 2;
    const merklize::tree_options tree{hash, merklize::shape::zero, depth};
    merklize::merkleizer m(test::test_device(), level_config(tree, 2, 1));
    INFO(merklize::to_string(hash) << " n=" << n << " depth " << depth);
    const auto leaves = test::random_bytes(n * 32);
    const auto expected = merklize::reference_tree(leaves.data(), leaves.size(), tree);
    REQUIRE(m.build(leaves) == expected);
    REQUIRE(test::device_tree(m, leaves) == test::device_nodes_of(expected));
  }
}

TEST_CASE("level_options reach the program of the one-level launches, and key its cache",
          "[level-kernel][programs]") {
  const auto leaves = test::random_bytes(100 * 32);
  SECTION("merkle_level's program with level_kernel = level") {
    merklize::config cfg = level_config({}, 1, 1);
    cfg.level_options = "-DMERKLIZE_INDEX=no_such_index_type";
    merklize::merkleizer m(test::test_device(), cfg);
    CHECK_THROWS_WITH(m.build(leaves), Contains("no_such_index_type"));
  }
  SECTION("merkle_subtree's program with level_kernel = subtree") {
    merklize::config cfg = level_config({}, 1, 1);
    cfg.level_kernel = merklize::level_kernel_kind::subtree;
    cfg.level_options = "-DMERKLIZE_NODE=no_such_node_function";
    merklize::merkleizer m(test::test_device(), cfg);
    CHECK_THROWS_WITH(m.build(leaves), Contains("no_such_node_function"));
  }
  SECTION("a new option is a new program, the same one is a cache hit") {
    merklize::config cfg = level_config({}, 4, 0);
    cfg.level_options = "-DMERKLIZE_TEST_OPTION=" + std::to_string(test::rng()());
    const auto expected = merklize::reference_tree(leaves.data(), leaves.size(), cfg.tree);
    auto &cache = merklize::detail::program_cache::instance();
    merklize::merkleizer(test::test_device(), level_config({}, 4, 0)).build(leaves);
    const std::size_t before = cache.builds();
    merklize::merkleizer m(test::test_device(), cfg);
    CHECK(m.build(leaves) == expected);
    CHECK(cache.builds() == before + 1);
    CHECK(merklize::merkleizer(test::test_device(), cfg).build(leaves) == expected);
    CHECK(cache.builds() == before + 1);
    CHECK(m.merkle_level_program().name.empty()); // never loaded ahead of time
  }
}

TEST_CASE("bad level kernel settings are clear errors", "[level-kernel][errors]") {
  for (unsigned nodes_per_item : {3u, 5u, 8u}) {
    merklize::config cfg;
    cfg.nodes_per_item = nodes_per_item;
    CHECK_THROWS_WITH(
        merklize::merkleizer(test::test_device(), cfg),
        Contains("nodes_per_item must be 0, 1, 2 or 4, not " + std::to_string(nodes_per_item)));
  }
  merklize::config cfg;
  cfg.level_kernel = static_cast<merklize::level_kernel_kind>(7);
  CHECK_THROWS_WITH(merklize::merkleizer(test::test_device(), cfg), Contains("level_kernel must"));
}
