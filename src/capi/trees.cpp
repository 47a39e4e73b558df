// SPDX-License-Identifier: Apache-2.0 OR MIT
// Builders and trees: merklize_builder_create checks the configuration once; builds, roots and
// device-buffer builds go through builds.hpp's dispatch under the builder's mutex; a tree's
// accessors read what the build kept.
#include "builds.hpp"
#include "cl_events.hpp"

#include <merklize/engine/merkleizer.hpp>

#include <cstring>

namespace merklize_capi {
namespace {

// Level `level` of a tree: its nodes and their count, or a refusal naming what the tree keeps.
std::pair<const std::uint8_t *, std::uint64_t> level_of(const merklize_tree &t, unsigned level) {
  if (level > t.depth)
    throw argument_error("level " + std::to_string(level) +
                         " out of range: the tree has levels 0.." + std::to_string(t.depth));
  if (level < t.first_level)
    throw argument_error("level " + std::to_string(level) + " was not kept: " +
                         (t.first_level > t.depth
                              ? std::string("this tree keeps its root alone, above its levels")
                              : "this tree keeps levels " + std::to_string(t.first_level) + ".." +
                                    std::to_string(t.depth)) +
                         " (config.keep)");
  if (t.binary) return {t.binary->level_data(level), t.binary->layout().level_size(level)};
  if (!t.kary.empty()) return {t.kary[level].front().data(), t.kary[level].size()};
  return {t.tree_root.data(), 1}; // the root alone, at level depth
}

// merklize_build_cl's buffers must be of the builder's context.
void check_context_of(const merklize_builder &b, cl_mem buffer, const char *name) {
  cl_context context = nullptr;
  detail::check(clGetMemObjectInfo(buffer, CL_MEM_CONTEXT, sizeof context, &context, nullptr),
                "clGetMemObjectInfo");
  if (context != b.device->context())
    throw argument_error(std::string("merklize_build_cl: `") + name +
                         "` is a buffer of another OpenCL context than the builder's device: "
                         "open the device with merklize_device_open_cl on the buffers' context");
}

void check_cl_builder(const merklize_builder &b) {
  if (b.settings.kary() || b.settings.blocks())
    throw argument_error(
        "merklize_build_cl builds binary trees of 32-byte leaves: this builder "
        "has config.arity " +
        std::to_string(b.settings.spec.arity) + " and config.leaf_size " +
        (b.settings.blocks() ? std::to_string(b.settings.blocks()->block_bytes) : "0"));
}

} // namespace
} // namespace merklize_capi

using namespace merklize_capi;

extern "C" {

merklize_status merklize_builder_create(merklize_device *device, const merklize_tree_config *config,
                                        merklize_builder **builder) {
  return guarded([&] {
    const merklize_device &d = required(device, "merklize_builder_create", "device");
    tree_settings settings =
        parse_tree_config(required(config, "merklize_builder_create", "config"));
    required(builder, "merklize_builder_create", "builder");
    *builder = new merklize_builder(d.state, std::move(settings));
  });
}

void merklize_builder_free(merklize_builder *builder) {
  free_handle(builder, "merklize_builder_free", "builder");
}

merklize_status merklize_build(merklize_builder *builder, const merklize_source *source,
                               merklize_tree **tree) {
  return guarded([&] {
    merklize_builder &b = required(builder, "merklize_build", "builder");
    required(tree, "merklize_build", "tree");
    const std::lock_guard<std::mutex> lock(b.mutex);
    opened_source opened(source, "merklize_build");
    *tree = build_tree(b, opened).release();
  });
}

merklize_status merklize_root(merklize_builder *builder, const merklize_source *source,
                              uint8_t root[MERKLIZE_DIGEST_SIZE]) {
  return guarded([&] {
    merklize_builder &b = required(builder, "merklize_root", "builder");
    required(root, "merklize_root", "root");
    const std::lock_guard<std::mutex> lock(b.mutex);
    opened_source opened(source, "merklize_root");
    const merklize::digest d = root_of(b, opened);
    std::memcpy(root, d.data(), d.size());
  });
}

void merklize_tree_free(merklize_tree *tree) { free_handle(tree, "merklize_tree_free", "tree"); }

merklize_status merklize_tree_root(const merklize_tree *tree, uint8_t root[MERKLIZE_DIGEST_SIZE]) {
  return guarded([&] {
    const merklize_tree &t = required(tree, "merklize_tree_root", "tree");
    required(root, "merklize_tree_root", "root");
    std::memcpy(root, t.root.data(), t.root.size());
  });
}

uint64_t merklize_tree_leaf_count(const merklize_tree *tree) {
  const merklize_tree *t = live_or_null(tree, "merklize_tree_leaf_count", "tree");
  return t ? t->leaf_count : 0;
}

uint32_t merklize_tree_depth(const merklize_tree *tree) {
  const merklize_tree *t = live_or_null(tree, "merklize_tree_depth", "tree");
  return t ? t->depth : 0;
}

uint32_t merklize_tree_first_level(const merklize_tree *tree) {
  const merklize_tree *t = live_or_null(tree, "merklize_tree_first_level", "tree");
  return t ? t->first_level : 0;
}

merklize_status merklize_tree_level(const merklize_tree *tree, uint32_t level,
                                    const uint8_t **nodes, uint64_t *count) {
  return guarded([&] {
    const merklize_tree &t = required(tree, "merklize_tree_level", "tree");
    required(nodes, "merklize_tree_level", "nodes");
    required(count, "merklize_tree_level", "count");
    const auto found = level_of(t, level);
    *nodes = found.first;
    *count = found.second;
  });
}

merklize_status merklize_tree_node(const merklize_tree *tree, uint32_t level, uint64_t index,
                                   uint8_t node[MERKLIZE_DIGEST_SIZE]) {
  return guarded([&] {
    const merklize_tree &t = required(tree, "merklize_tree_node", "tree");
    required(node, "merklize_tree_node", "node");
    const auto found = level_of(t, level);
    if (index >= found.second)
      throw argument_error("node " + std::to_string(index) + " out of range: level " +
                           std::to_string(level) + " has " + std::to_string(found.second) +
                           " nodes");
    std::memcpy(node, found.first + index * MERKLIZE_DIGEST_SIZE, MERKLIZE_DIGEST_SIZE);
  });
}

uint64_t merklize_output_node_count(uint64_t leaf_count) {
  return leaf_count == 0 ? 0 : merklize::merkleizer::output_node_count(leaf_count);
}

merklize_status merklize_build_cl(merklize_builder *builder, struct _cl_mem *leaves,
                                  uint64_t leaf_count, struct _cl_mem *nodes, uint32_t wait_count,
                                  struct _cl_event *const *wait, struct _cl_event **done) {
  return guarded([&] {
    merklize_builder &b = required(builder, "merklize_build_cl", "builder");
    required(leaves, "merklize_build_cl", "leaves");
    required(nodes, "merklize_build_cl", "nodes");
    check_cl_builder(b);
    if (leaf_count == 0)
      throw argument_error("merklize_build_cl: leaf_count is 0: a tree needs at least one leaf");
    if (leaf_count > UINT64_MAX / (2 * node_bytes)) // the buffers' sizes would pass 2^64 bytes
      throw argument_error("merklize_build_cl: leaf_count is " + std::to_string(leaf_count) +
                           ": more leaves than a buffer can hold");
    check_context_of(b, leaves, "leaves");
    check_context_of(b, nodes, "nodes");
    const std::vector<cl::Event> waits = events_of(wait_count, wait, "merklize_build_cl");
    const std::lock_guard<std::mutex> lock(b.mutex);
    const auto events = b.kept().enqueue_build(cl::Buffer(leaves, true), leaf_count,
                                               cl::Buffer(nodes, true), waits);
    give_event(events.back(), done);
  });
}

} // extern "C"
