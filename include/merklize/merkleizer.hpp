// merkleizer: builds Merkle trees on one OpenCL device.
//
//   merklize::merkleizer m;                          // default device (see device.hpp)
//   merklize::tree t = m.build(leaves);              // N x 32 bytes in, every node out
//   std::cout << merklize::to_hex(t.root()) << "\n";
//
// The tree is computed with one kernel launch per level, chained by events on an out-of-order
// queue (in-order where the device has none) with profiling on, so kernel, host-to-device and
// device-to-host times are measured apart (last_times()).
//
// A merkleizer is not thread-safe; use one per thread. Programs and contexts are shared.
#pragma once

#include "detail/kernels.hpp"
#include "device.hpp"
#include "tree.hpp"

#include <algorithm>
#include <cstring>
#include <map>
#include <string>
#include <vector>

namespace merklize {

struct config {
  tree_options tree;
  // Work-items per work-group for the level kernels; 0 picks one for the device.
  std::size_t work_group_size = 0;
};

// Profiled times of the last host build, in milliseconds.
struct build_times {
  double upload_ms = 0;
  double kernel_ms = 0; // sum of the kernel events' execution times
  double download_ms = 0;
  std::size_t kernel_launches = 0;
};

// Execution time of a finished command, from its profiling information.
inline double event_ms(const cl::Event &event) {
  cl_ulong start = 0, end = 0;
  detail::call("clGetEventProfilingInfo",
               [&] { return event.getProfilingInfo(CL_PROFILING_COMMAND_START, &start); });
  detail::call("clGetEventProfilingInfo",
               [&] { return event.getProfilingInfo(CL_PROFILING_COMMAND_END, &end); });
  return static_cast<double>(end - start) * 1e-6;
}

inline double events_ms(const std::vector<cl::Event> &events) {
  double total = 0;
  for (const auto &e : events)
    total += event_ms(e);
  return total;
}

namespace detail {

// Refuses a caller's buffer of another context than `context`, or smaller than `needed` bytes.
inline void check_buffer(const cl::Context &context, const cl::Buffer &buffer, const char *what,
                         std::uint64_t needed, const char *owner_name, const char *user) {
  std::size_t size = 0;
  cl_context owner = nullptr;
  call("clGetMemObjectInfo", [&] { return buffer.getInfo(CL_MEM_SIZE, &size); });
  call("clGetMemObjectInfo", [&] { return buffer.getInfo(CL_MEM_CONTEXT, &owner); });
  if (owner != context())
    throw error(std::string(what) + " buffer belongs to another OpenCL context than this " +
                owner_name + " (construct it with your context)");
  if (size < needed)
    throw error(std::string(what) + " buffer too small: it holds " + std::to_string(size) +
                " bytes, " + user + " needs " + std::to_string(needed));
}

} // namespace detail

class merkleizer {
public:
  explicit merkleizer(config cfg = {}) : merkleizer(default_device(), cfg) {}

  explicit merkleizer(const cl::Device &device, config cfg = {})
      : merkleizer(detail::shared_context(device), device, cfg) {}

  // For buffers of the caller's own context: `device` must belong to `context`.
  merkleizer(const cl::Context &context, const cl::Device &device, config cfg = {})
      : context_(context), device_(device), config_(cfg), queue_(make_queue()) {
    if (!detail::device_info<CL_DEVICE_ENDIAN_LITTLE, cl_bool>(device_))
      throw error(device_name(device_) +
                  " is big-endian; merklize's kernels load BLAKE3 words little-endian");
  }

  const cl::Context &context() const { return context_; }
  const cl::Device &device() const { return device_; }
  const cl::CommandQueue &queue() const { return queue_; }
  const config &configuration() const { return config_; }
  bool out_of_order() const { return out_of_order_; }

  // Nodes that enqueue_build writes for N leaves: levels 1..depth, and for N = 1 the root (the
  // leaf itself), so the root is always the last node written.
  static std::uint64_t output_node_count(std::uint64_t leaf_count) {
    return std::max<std::uint64_t>(1, tree_layout(leaf_count).internal_node_count());
  }

  // Device buffers in and out. `leaves` holds N x 32 bytes; `nodes` receives
  // output_node_count(N) nodes in the tree layout less its leaves (level 1 at offset 0, root
  // last). Waits for `wait` first; returns the events of the enqueued commands, the last one
  // completing the tree. Nothing is read back.
  std::vector<cl::Event> enqueue_build(const cl::Buffer &leaves, std::uint64_t leaf_count,
                                       const cl::Buffer &nodes,
                                       const std::vector<cl::Event> &wait = {}) {
    const tree_layout layout(leaf_count);
    check_buffer(leaves, "leaves", leaf_count * node_bytes);
    check_buffer(nodes, "nodes", output_node_count(leaf_count) * node_bytes);
    std::vector<cl::Event> events;
    if (leaf_count == 1) {
      events.emplace_back();
      detail::call("clEnqueueCopyBuffer", [&] {
        return queue_.enqueueCopyBuffer(leaves, nodes, 0, 0, node_bytes, &wait, &events.back());
      });
      return events;
    }
    enqueue_levels(leaves, nodes, layout, wait, events);
    return events;
  }

  // Host leaves in (N x 32 bytes), the whole tree out.
  tree build(const void *leaves, std::uint64_t leaf_bytes) {
    const tree_layout layout(leaf_count_of(leaf_bytes));
    const std::uint64_t internal_bytes = layout.internal_node_count() * node_bytes;
    last_ = build_times{};
    if (internal_bytes > 0) reserve(leaf_bytes, internal_bytes); // before any host allocation
    tree t(layout.leaf_count(), config_.tree);
    if (internal_bytes == 0) { // one leaf: it is the root, nothing to compute
      std::memcpy(t.bytes().data(), leaves, leaf_bytes);
      return t;
    }
    cl::Event upload, download;
    detail::call("clEnqueueWriteBuffer", [&] {
      return queue_.enqueueWriteBuffer(leaves_, CL_FALSE, 0, leaf_bytes, leaves, nullptr, &upload);
    });
    std::vector<cl::Event> kernels;
    enqueue_levels(leaves_, nodes_, t.layout(), {upload}, kernels);
    const std::vector<cl::Event> after_kernels{kernels.back()};
    detail::call("clEnqueueReadBuffer", [&] {
      return queue_.enqueueReadBuffer(nodes_, CL_FALSE, 0, internal_bytes,
                                      t.bytes().data() + leaf_bytes, &after_kernels, &download);
    });
    detail::call("clFlush", [&] { return queue_.flush(); });
    std::memcpy(t.bytes().data(), leaves, leaf_bytes); // overlaps the device's work
    detail::call("clWaitForEvents", [&] { return download.wait(); });
    last_ = build_times{event_ms(upload), events_ms(kernels), event_ms(download), kernels.size()};
    return t;
  }

  tree build(const std::vector<std::uint8_t> &leaves) {
    return build(leaves.data(), leaves.size());
  }

  const build_times &last_times() const { return last_; }

private:
  cl::CommandQueue make_queue() {
    const auto supported =
        detail::device_info<CL_DEVICE_QUEUE_PROPERTIES, cl_command_queue_properties>(device_);
    out_of_order_ = (supported & CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE) != 0;
    const cl_command_queue_properties props =
        CL_QUEUE_PROFILING_ENABLE | (out_of_order_ ? CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE : 0);
    return detail::create("clCreateCommandQueue", [&](cl_int *err) {
      return cl::CommandQueue(context_, device_, props, err);
    });
  }

  cl::Kernel &level_kernel() {
    auto found = level_kernels_.find(config_.tree.hash);
    if (found != level_kernels_.end()) return found->second;
    const cl::Program program =
        detail::get_program(context_, device_, detail::merkle_program(config_.tree.hash));
    cl::Kernel kernel = detail::create(
        "clCreateKernel", [&](cl_int *err) { return cl::Kernel(program, "merkle_level", err); });
    return level_kernels_.emplace(config_.tree.hash, kernel).first->second;
  }

  std::size_t work_group_size(cl::Kernel &kernel) const {
    std::size_t kernel_max = 0;
    detail::call("clGetKernelWorkGroupInfo", [&] {
      return kernel.getWorkGroupInfo(device_, CL_KERNEL_WORK_GROUP_SIZE, &kernel_max);
    });
    const std::size_t wanted = config_.work_group_size ? config_.work_group_size : 256;
    if (wanted > kernel_max)
      throw error("work-group size " + std::to_string(wanted) + " exceeds the kernel's limit of " +
                  std::to_string(kernel_max) + " on " + device_name(device_));
    return wanted;
  }

  void enqueue_levels(const cl::Buffer &leaves, const cl::Buffer &nodes, const tree_layout &layout,
                      const std::vector<cl::Event> &wait, std::vector<cl::Event> &events) {
    cl::Kernel &kernel = level_kernel();
    const std::size_t local = work_group_size(kernel);
    const std::uint64_t n = layout.leaf_count();
    const auto zeros = zero_subtree_roots(config_.tree.hash, layout.depth());
    for (unsigned level = 1; level <= layout.depth(); ++level) {
      const std::uint64_t out_count = layout.level_size(level);
      cl_uint8 pad;
      std::memcpy(&pad, zeros[level - 1].data(), node_bytes);
      detail::call("clSetKernelArg", [&] {
        cl_int err = kernel.setArg(0, level == 1 ? leaves : nodes);
        err |= kernel.setArg(1, cl_ulong(level == 1 ? 0 : layout.level_offset(level - 1) - n));
        err |= kernel.setArg(2, cl_ulong(layout.level_size(level - 1)));
        err |= kernel.setArg(3, nodes);
        err |= kernel.setArg(4, cl_ulong(layout.level_offset(level) - n));
        err |= kernel.setArg(5, pad);
        err |= kernel.setArg(6, cl_int(config_.tree.pad == shape::zero));
        err |= kernel.setArg(7, cl_int(level == layout.depth()));
        return err;
      });
      const std::size_t global = (out_count + local - 1) / local * local;
      const std::vector<cl::Event> deps =
          events.empty() ? wait : std::vector<cl::Event>{events.back()};
      events.emplace_back();
      detail::call("clEnqueueNDRangeKernel", [&] {
        return queue_.enqueueNDRangeKernel(kernel, cl::NullRange, cl::NDRange(global),
                                           cl::NDRange(local), &deps, &events.back());
      });
    }
  }

  void check_buffer(const cl::Buffer &buffer, const char *what, std::uint64_t needed) const {
    detail::check_buffer(context_, buffer, what, needed, "merkleizer's", "the tree");
  }

  // Grows the scratch buffers of host builds, after checking the device can hold the tree.
  void reserve(std::uint64_t leaf_bytes, std::uint64_t internal_bytes) {
    const auto max_alloc = detail::device_info<CL_DEVICE_MAX_MEM_ALLOC_SIZE, cl_ulong>(device_);
    const auto global = detail::device_info<CL_DEVICE_GLOBAL_MEM_SIZE, cl_ulong>(device_);
    if (leaf_bytes > max_alloc || internal_bytes > max_alloc ||
        leaf_bytes + internal_bytes > global)
      throw error("tree too large for " + device_name(device_) + ": " + std::to_string(leaf_bytes) +
                  " bytes of leaves and " + std::to_string(internal_bytes) +
                  " bytes of nodes, but the device has " + std::to_string(global) +
                  " bytes of memory and buffers of at most " + std::to_string(max_alloc) +
                  " bytes");
    grow(leaves_, leaves_bytes_, leaf_bytes);
    grow(nodes_, nodes_bytes_, internal_bytes);
  }

  void grow(cl::Buffer &buffer, std::uint64_t &capacity, std::uint64_t needed) {
    if (needed <= capacity) return;
    buffer = cl::Buffer(); // release the old one first: both may not fit at once
    capacity = 0;
    buffer = detail::create("clCreateBuffer", [&](cl_int *err) {
      return cl::Buffer(context_, CL_MEM_READ_WRITE, needed, nullptr, err);
    });
    capacity = needed;
  }

  cl::Context context_;
  cl::Device device_;
  config config_;
  bool out_of_order_ = false;
  cl::CommandQueue queue_;
  std::map<hash_kind, cl::Kernel> level_kernels_;
  cl::Buffer leaves_, nodes_;
  std::uint64_t leaves_bytes_ = 0, nodes_bytes_ = 0;
  build_times last_;
};

} // namespace merklize
