// SPDX-License-Identifier: Apache-2.0 OR MIT
// merkle_levels (kernels/merkle_levels.cl), several levels per launch with each work-item's
// subtree in registers: launched on its own at 2 and 3 levels and both index widths against the
// host's node hash, then through the merkleizer with config::level_kernel = levels and with the
// automatic choice, against the host reference.
#include "helpers.hpp"
#include "proof_helpers.hpp"

#include <catch2/catch.hpp>

#include <algorithm>

using Catch::Matchers::Contains;

namespace {

using merklize::digest;
using merklize::node_bytes;

// Where the launch reads and writes: filler nodes before its input, its levels at an offset
// inside larger levels (a chunk in its place), so that every offset argument is exercised.
constexpr std::uint64_t levels_in_first = 5, levels_out_first = 3, levels_zeros_first = 2,
                        slack = 5;

digest node_at(const std::uint8_t *nodes, std::uint64_t i) {
  digest d;
  std::copy_n(nodes + i * node_bytes, node_bytes, d.begin());
  return d;
}

struct levels_launch {
  merklize::hash_kind hash;
  std::size_t work_group_size;
  unsigned levels;
  bool wide_index;
  bool pad_with_node;
  std::uint64_t out_offset; // a multiple of 2^levels, as a chunk's offset is
};

// The output buffer's layout: level j at node first[j], holding size[j] nodes.
struct out_layout {
  std::vector<std::uint64_t> first, size;
  std::uint64_t nodes = levels_out_first;

  out_layout(const levels_launch &l, std::uint64_t count) {
    std::uint64_t level_size = l.out_offset + (count + 1) / 2 + slack;
    for (unsigned j = 0; j < l.levels; ++j) {
      first.push_back(nodes);
      size.push_back(level_size);
      nodes += level_size;
      level_size = (level_size + 1) / 2;
    }
    nodes += slack;
  }
};

// What the launch must leave in its poisoned output: the levels above `level` as the host
// computes them, at their places, and poison everywhere else.
std::vector<std::uint8_t> expected_output(const levels_launch &l,
                                          const std::vector<std::uint8_t> &level, int top_level) {
  const auto zeros = merklize::zero_subtree_roots(l.hash, levels_zeros_first + l.levels);
  const out_layout layout(l, level.size() / node_bytes);
  std::vector<std::uint8_t> out(layout.nodes * node_bytes, test::poison_byte);
  std::vector<std::uint8_t> below = level;
  for (unsigned j = 0; j < l.levels; ++j) {
    const std::uint64_t count = below.size() / node_bytes, above = (count + 1) / 2;
    std::vector<std::uint8_t> next(above * node_bytes);
    for (std::uint64_t i = 0; i < above; ++i) {
      const bool is_root = int(j) == top_level;
      digest node = node_at(below.data(), 2 * i);
      if (2 * i + 1 < count)
        node = merklize::node_hash(l.hash, node, node_at(below.data(), 2 * i + 1), is_root);
      else if (l.pad_with_node)
        node = merklize::node_hash(l.hash, node, zeros[levels_zeros_first + j], is_root);
      std::copy(node.begin(), node.end(), next.begin() + i * node_bytes);
    }
    std::copy(next.begin(), next.end(),
              out.begin() + (layout.first[j] + (l.out_offset >> j)) * node_bytes);
    below = std::move(next);
  }
  return out;
}

// One launch of merkle_levels over `level` into a poisoned buffer: every byte of it afterwards.
std::vector<std::uint8_t> launch(const levels_launch &l, cl::Kernel &kernel,
                                 const cl::CommandQueue &queue,
                                 const std::vector<std::uint8_t> &level, int top_level) {
  const cl::Context context = queue.getInfo<CL_QUEUE_CONTEXT>();
  const std::uint64_t count = level.size() / node_bytes;
  auto input = test::random_bytes(levels_in_first * node_bytes);
  input.insert(input.end(), level.begin(), level.end());
  cl::Buffer in(context, CL_MEM_READ_ONLY, input.size());
  queue.enqueueWriteBuffer(in, CL_TRUE, 0, input.size(), input.data());
  const auto zeros = merklize::zero_subtree_roots(l.hash, levels_zeros_first + l.levels);
  cl::Buffer zero_buffer(context, CL_MEM_READ_ONLY, zeros.size() * node_bytes);
  queue.enqueueWriteBuffer(zero_buffer, CL_TRUE, 0, zeros.size() * node_bytes, zeros.data());
  const out_layout layout(l, count);
  cl::Buffer out = test::poisoned_buffer(context, queue, layout.nodes * node_bytes);
  kernel.setArg(0, in);
  kernel.setArg(1, cl_ulong(levels_in_first));
  kernel.setArg(2, cl_ulong(count));
  kernel.setArg(3, out);
  kernel.setArg(4, cl_ulong(levels_out_first));
  kernel.setArg(5, cl_ulong(layout.size[0]));
  kernel.setArg(6, cl_ulong(l.out_offset));
  kernel.setArg(7, zero_buffer);
  kernel.setArg(8, cl_ulong(levels_zeros_first));
  kernel.setArg(9, cl_int(l.pad_with_node));
  kernel.setArg(10, cl_int(top_level));
  const std::uint64_t items = (count + (1u << l.levels) - 1) >> l.levels;
  const std::size_t groups = (items + l.work_group_size - 1) / l.work_group_size;
  queue.enqueueNDRangeKernel(kernel, cl::NullRange, cl::NDRange(groups * l.work_group_size),
                             cl::NDRange(l.work_group_size));
  return test::read_buffer(queue, out, layout.nodes * node_bytes);
}

// Level sizes: the awkward ones, and those whose work-items (a subtree of 2^levels nodes each)
// number around the work-group size and two of them, with every remainder of a last subtree.
std::vector<std::uint64_t> level_sizes(const levels_launch &l) {
  auto sizes = test::awkward_sizes(10);
  const std::uint64_t subtree = std::uint64_t(1) << l.levels;
  for (std::uint64_t items :
       {l.work_group_size - 1, l.work_group_size, l.work_group_size + 1, 2 * l.work_group_size + 1})
    if (items > 0)
      for (std::uint64_t last = 1; last <= subtree; ++last)
        sizes.push_back((items - 1) * subtree + last);
  return sizes;
}

void check_levels_kernel(merklize::hash_kind hash, std::size_t work_group_size) {
  const cl::Device device = test::test_device();
  const cl::Context context = merklize::detail::shared_context(device);
  const cl::CommandQueue queue(context, device);
  for (unsigned levels : {2u, 3u})
    for (bool wide_index : {false, true}) {
      const auto spec =
          merklize::detail::merkle_levels_program(hash, work_group_size, levels, wide_index);
      const cl::Program program = merklize::detail::get_program(context, device, spec);
      cl::Kernel kernel(program, "merkle_levels");
      for (bool pad_with_node : {false, true}) {
        const levels_launch l{hash,       work_group_size, levels,
                              wide_index, pad_with_node,   std::uint64_t(3) << levels};
        for (std::uint64_t count : level_sizes(l)) {
          // The root flag on the launch's top level where it has one node; none elsewhere.
          const bool one_node = count <= (std::uint64_t(1) << levels);
          for (int top_level : {-1, one_node ? int(levels) - 1 : -1}) {
            INFO(merklize::to_string(hash)
                 << " work-group " << work_group_size << " levels " << levels
                 << (wide_index ? " 64" : " 32") << "-bit indices pad " << pad_with_node
                 << " count " << count << " top level " << top_level);
            const auto level = test::random_bytes(count * node_bytes);
            REQUIRE(launch(l, kernel, queue, level, top_level) ==
                    expected_output(l, level, top_level));
          }
        }
      }
    }
}

// Leaf counts for whole trees: small, around powers of two and around what a work-group of 4
// covers at 2 and 3 levels per work-item (32 leaves).
const std::uint64_t levels_tree_sizes[] = {1,  2,   3,   4,   5,    7,    8,    9,
                                           15, 16,  17,  31,  32,   33,   63,   64,
                                           65, 255, 256, 257, 1000, 4095, 4096, 4097};

merklize::config levels_config(merklize::tree_options tree, unsigned levels_per_item,
                               std::size_t work_group_size) {
  merklize::config cfg{tree};
  cfg.level_kernel = merklize::level_kernel_kind::levels;
  cfg.levels_per_item = levels_per_item;
  cfg.lanes = 1; // one node per lane, whatever the device (CPUs default to lanes kernels)
  cfg.work_group_size = work_group_size;
  return cfg;
}

// Device buffers, in place (zero copy on CPUs) and streamed in chunks of 32 leaves.
void check_trees(const merklize::config &cfg, const std::string &what) {
  merklize::config streamed = cfg;
  streamed.zero_copy = false;
  streamed.chunk_log2 = 5;
  merklize::merkleizer m(test::test_device(), cfg), s(test::test_device(), streamed);
  for (std::uint64_t n : levels_tree_sizes) {
    INFO(what << " n=" << n);
    const auto leaves = test::random_bytes(n * 32);
    const auto expected = merklize::reference_tree(leaves.data(), leaves.size(), cfg.tree);
    REQUIRE(test::device_tree(m, leaves) == test::device_nodes_of(expected));
    REQUIRE(m.build(leaves) == expected);
    REQUIRE(s.build(leaves) == expected);
  }
}

} // namespace

TEST_CASE("merkle_levels matches the host node hash: blake3", "[levels-kernel]") {
  check_levels_kernel(merklize::hash_kind::blake3, GENERATE(1, 3, 32));
}

TEST_CASE("merkle_levels matches the host node hash: blake3-parent and sha256", "[levels-kernel]") {
  check_levels_kernel(GENERATE(merklize::hash_kind::blake3_parent, merklize::hash_kind::sha256), 8);
}

TEST_CASE("merkle_levels matches the host node hash: rfc6962", "[levels-kernel][rfc6962]") {
  check_levels_kernel(merklize::hash_kind::rfc6962, GENERATE(3, 8));
}

TEST_CASE("merkle_levels matches the host node hash: keccak256 and sha3-256",
          "[levels-kernel][keccak]") {
  check_levels_kernel(GENERATE(merklize::hash_kind::keccak256, merklize::hash_kind::sha3_256), 8);
}

TEST_CASE("level_kernel = levels builds the reference trees, device buffers, in place and "
          "streamed",
          "[levels-kernel]") {
  const auto options = GENERATE(Catch::Generators::from_range(test::all_tree_options()));
  const auto hash = options.hash;
  const auto pad = options.shape;
  for (unsigned levels_per_item : {2u, 3u})
    for (std::size_t wg : {4u, 8u, 3u}) { // 3: not a power of two, so no fused launches
      const merklize::config cfg = levels_config({hash, pad}, levels_per_item, wg);
      check_trees(cfg, std::string(merklize::to_string(hash)) + " " + merklize::to_string(pad) +
                           " levels/item " + std::to_string(levels_per_item) + " wg " +
                           std::to_string(wg));
    }
}

TEST_CASE("the automatic level kernels with one node per lane build the reference trees",
          "[levels-kernel]") {
  merklize::config cfg{
      GENERATE(merklize::tree_options{merklize::hash_kind::blake3},
               merklize::tree_options{merklize::hash_kind::blake3, merklize::shape::zero},
               merklize::tree_options{merklize::hash_kind::sha256},
               merklize::tree_options{merklize::hash_kind::sha256, merklize::shape::zero},
               merklize::tree_options{merklize::hash_kind::rfc6962})};
  cfg.lanes = 1;
  cfg.work_group_size = GENERATE(4u, 16u);
  check_trees(cfg, std::string(merklize::to_string(cfg.tree.hash)) + " " +
                       merklize::to_string(cfg.tree.shape) + " wg " +
                       std::to_string(cfg.work_group_size));
}

TEST_CASE("level_kernel = levels with a fixed depth leaves the root flag to the extension",
          "[levels-kernel][depth]") {
  const auto hash = GENERATE(merklize::hash_kind::blake3, merklize::hash_kind::blake3_parent);
  for (std::uint64_t n : {2, 3, 5, 8, 64, 257}) {
    const unsigned depth = merklize::tree_layout(n).depth() + 2;
    const merklize::tree_options tree{hash, merklize::shape::zero, depth};
    merklize::merkleizer m(test::test_device(), levels_config(tree, 3, 4));
    INFO(merklize::to_string(hash) << " n=" << n << " depth " << depth);
    const auto leaves = test::random_bytes(n * 32);
    const auto expected = merklize::reference_tree(leaves.data(), leaves.size(), tree);
    REQUIRE(m.build(leaves) == expected);
    REQUIRE(test::device_tree(m, leaves) == test::device_nodes_of(expected));
  }
}

TEST_CASE("merkle_levels takes levels_per_item levels a launch", "[levels-kernel]") {
  // 4096 leaves, work-groups of 3, so no fused launches: 12 levels in launches of 3 levels, or
  // 2 levels each.
  for (unsigned levels_per_item : {2u, 3u}) {
    merklize::merkleizer m(test::test_device(), levels_config({}, levels_per_item, 3));
    const auto leaves = test::random_bytes(4096 * 32);
    cl::Buffer in(m.context(), CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, leaves.size(),
                  const_cast<std::uint8_t *>(leaves.data()));
    cl::Buffer out(m.context(), CL_MEM_READ_WRITE,
                   merklize::merkleizer::output_node_count(4096) * node_bytes);
    const auto launches = m.enqueue_build(in, 4096, out);
    launches.back().wait();
    CHECK(launches.size() == 12 / levels_per_item);
  }
}

TEST_CASE("bad merkle_levels settings are clear errors", "[levels-kernel][errors]") {
  for (unsigned levels_per_item : {1u, 4u, 8u}) {
    merklize::config cfg;
    cfg.levels_per_item = levels_per_item;
    CHECK_THROWS_WITH(
        merklize::merkleizer(test::test_device(), cfg),
        Contains("levels_per_item must be 0, 2 or 3, not " + std::to_string(levels_per_item)));
  }
}
