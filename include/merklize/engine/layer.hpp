// SPDX-License-Identifier: Apache-2.0 OR MIT
// The layer primitive of hashtree and gohashtree, the SHA-256 libraries behind SSZ's
// hash_tree_root: `count` consecutive 64-byte blocks in, `count` 32-byte digests out, digest i
// being SHA-256 of block i. One level of a tree is one call: its nodes, two by two, are the blocks.
//
//   cl::Event done = merklize::hash_layer(queue, out, in, count);           // device buffers
//   merklize::hash_layer(queue, digests, digest_bytes, chunks, chunk_bytes); // host memory
//   merklize::hash_layer_host(digests, digest_bytes, chunks, chunk_bytes);   // no device
//
// Each has a variant with a prefix byte, digest i being SHA-256(prefix || block i): with 0x01
// (rfc6962_node_prefix) a layer of RFC 6962's interior nodes, whose blocks are the pairs of
// children. A prefix makes a 65-byte message, two blocks whose second depends on the data.
//
//   merklize::hash_layer_prefixed(queue, out, in, count, 0x01);
//   merklize::hash_layer_prefixed(queue, digests, digest_bytes, chunks, chunk_bytes, 0x01);
//   merklize::hash_layer_prefixed_host(digests, digest_bytes, chunks, chunk_bytes, 0x01);
//
// Host memory is given as gohashtree's byte slices are, and gets its checks: the input is a whole
// number of 32-byte chunks, an even number of them, and the output holds a digest per pair.
// Each failure is a merklize::error naming the sizes, raised before anything is written.
// These functions hold no state and may be called from several threads at once.
#pragma once

#include "../core/sha256.hpp"
#include "../runtime/kernels.hpp"
#include "../runtime/queue_drain.hpp"
#include "../runtime/runtime.hpp"

#include <algorithm>
#include <cstring>
#include <optional>
#include <string>
#include <vector>

namespace merklize {
namespace detail {

// gohashtree's checks on a layer given as byte counts; returns the number of 64-byte blocks.
inline std::uint64_t layer_block_count(std::uint64_t digest_bytes, std::uint64_t chunk_bytes) {
  if (chunk_bytes % node_bytes != 0)
    throw error("layer input is " + std::to_string(chunk_bytes) +
                " bytes, not a whole number of 32-byte chunks");
  const std::uint64_t chunks = chunk_bytes / node_bytes;
  if (chunks % 2 != 0)
    throw error("odd number of chunks (" + std::to_string(chunks) +
                "): a layer hashes its 32-byte chunks two by two");
  const std::uint64_t count = chunks / 2;
  if (digest_bytes < count * node_bytes)
    throw error("layer output too small: it holds " + std::to_string(digest_bytes) + " bytes, " +
                std::to_string(count) + " digests need " + std::to_string(count * node_bytes));
  return count;
}

template <cl_command_queue_info Name, class T> T queue_info(const cl::CommandQueue &queue) {
  T value{};
  call("clGetCommandQueueInfo", [&] { return queue.getInfo(Name, &value); });
  return value;
}

// A prefix byte, if any, goes before each block (sha256_layer_prefixed).
using layer_prefix = std::optional<std::uint8_t>;

inline cl::Event enqueue_layer_kernel(const cl::CommandQueue &queue, const cl::Context &context,
                                      const cl::Buffer &out, const cl::Buffer &in,
                                      std::uint64_t count, const std::vector<cl::Event> &wait,
                                      layer_prefix prefix = std::nullopt) {
  const auto device = queue_info<CL_QUEUE_DEVICE, cl::Device>(queue);
  const cl::Program program = tuned_program(context, device, sha256_layer_program());
  const char *name = prefix ? "sha256_layer_prefixed" : "sha256_layer";
  // A kernel per call: cheap next to the work, and it keeps concurrent callers apart.
  cl::Kernel kernel =
      create("clCreateKernel", [&](cl_int *err) { return cl::Kernel(program, name, err); });
  if (prefix)
    set_args(kernel, in, out, cl_ulong(count), cl_uint(*prefix));
  else
    set_args(kernel, in, out, cl_ulong(count));
  const std::size_t local = std::min(tuning_for(read_device_facts(device)).batch_work_group_size,
                                     work_group_limit(kernel, device));
  return launch(queue, kernel, count, local, wait);
}

inline cl::Event hash_layer_buffers(const cl::CommandQueue &queue, const cl::Buffer &out,
                                    const cl::Buffer &in, std::uint64_t count,
                                    const std::vector<cl::Event> &wait, layer_prefix prefix) {
  const auto context = detail::queue_info<CL_QUEUE_CONTEXT, cl::Context>(queue);
  if (in() == out())
    throw error("layer in and out are the same buffer: the device hashes in parallel, so it "
                "cannot work in place");
  if (count > UINT64_MAX / sha256::block_len)
    throw error("layer of " + std::to_string(count) + " blocks: more than 2^64 bytes");
  detail::check_buffer(context, in, "layer in", count * sha256::block_len, "queue", "layer");
  detail::check_buffer(context, out, "layer out", count * node_bytes, "queue", "layer");
  if (count == 0) {
    cl::Event marker;
    detail::call("clEnqueueMarkerWithWaitList",
                 [&] { return queue.enqueueMarkerWithWaitList(&wait, &marker); });
    return marker;
  }
  return detail::enqueue_layer_kernel(queue, context, out, in, count, wait, prefix);
}

inline void hash_layer_blocks(const cl::CommandQueue &queue, void *digests, std::uint64_t count,
                              const void *chunks, std::uint64_t chunk_bytes, layer_prefix prefix) {
  const auto context = detail::queue_info<CL_QUEUE_CONTEXT, cl::Context>(queue);
  const cl::Buffer in = detail::create("clCreateBuffer", [&](cl_int *err) {
    return cl::Buffer(context, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, chunk_bytes,
                      const_cast<void *>(chunks), err);
  });
  const cl::Buffer out = detail::create("clCreateBuffer", [&](cl_int *err) {
    return cl::Buffer(context, CL_MEM_WRITE_ONLY, count * node_bytes, nullptr, err);
  });
  const std::vector<cl::Event> hashed{
      detail::enqueue_layer_kernel(queue, context, out, in, count, {}, prefix)};
  detail::call("clEnqueueReadBuffer", [&] {
    return queue.enqueueReadBuffer(out, CL_TRUE, 0, count * node_bytes, digests, &hashed);
  });
}

inline void hash_layer_memory(const cl::CommandQueue &queue, void *digests,
                              std::uint64_t digest_bytes, const void *chunks,
                              std::uint64_t chunk_bytes, layer_prefix prefix) {
  const std::uint64_t count = detail::layer_block_count(digest_bytes, chunk_bytes);
  if (count == 0) return;
  const drain_on_unwind drained(queue);
  in_step([&] { return "hashing a layer of " + std::to_string(count) + " blocks"; },
          [&] { hash_layer_blocks(queue, digests, count, chunks, chunk_bytes, prefix); });
}

inline void hash_layer_on_host(void *digests, std::uint64_t digest_bytes, const void *chunks,
                               std::uint64_t chunk_bytes, layer_prefix prefix) {
  const std::uint64_t count = detail::layer_block_count(digest_bytes, chunk_bytes);
  auto out = static_cast<std::uint8_t *>(digests);
  auto in = static_cast<const std::uint8_t *>(chunks);
  for (std::uint64_t i = 0; i < count; ++i) {
    // Block i is read whole before digest i is written, so digests == chunks works in place.
    sha256::hasher h;
    if (prefix) h.update(&*prefix, 1);
    const digest d = h.update(in + i * sha256::block_len, sha256::block_len).finalize();
    std::memcpy(out + i * node_bytes, d.data(), node_bytes);
  }
}

} // namespace detail

// Device buffers: enqueues on `queue`, after `wait`, the hashing of the first `count` 64-byte
// blocks of `in` into the first `count` 32-byte digests of `out`, and returns its event (a
// marker for count 0). `in` and `out` must be distinct buffers of the queue's context: the
// device hashes every block at once, so it cannot work in place.
inline cl::Event hash_layer(const cl::CommandQueue &queue, const cl::Buffer &out,
                            const cl::Buffer &in, std::uint64_t count,
                            const std::vector<cl::Event> &wait = {}) {
  return detail::hash_layer_buffers(queue, out, in, count, wait, std::nullopt);
}

// The same, digest i being SHA-256(prefix || block i).
inline cl::Event hash_layer_prefixed(const cl::CommandQueue &queue, const cl::Buffer &out,
                                     const cl::Buffer &in, std::uint64_t count, std::uint8_t prefix,
                                     const std::vector<cl::Event> &wait = {}) {
  return detail::hash_layer_buffers(queue, out, in, count, wait, prefix);
}

// Host memory through the device on `queue`, with gohashtree's checks: `chunks` holds
// chunk_bytes bytes of 32-byte chunks, an even number of them; `digests` receives one 32-byte
// digest per pair and must hold at least chunk_bytes / 2 bytes. Returns when the digests are in
// place. `digests` may be `chunks` itself (in place).
inline void hash_layer(const cl::CommandQueue &queue, void *digests, std::uint64_t digest_bytes,
                       const void *chunks, std::uint64_t chunk_bytes) {
  detail::hash_layer_memory(queue, digests, digest_bytes, chunks, chunk_bytes, std::nullopt);
}

// The same, digest i being SHA-256(prefix || pair i).
inline void hash_layer_prefixed(const cl::CommandQueue &queue, void *digests,
                                std::uint64_t digest_bytes, const void *chunks,
                                std::uint64_t chunk_bytes, std::uint8_t prefix) {
  detail::hash_layer_memory(queue, digests, digest_bytes, chunks, chunk_bytes, prefix);
}

// The host alone, same contract and checks as the device's host-memory hash_layer.
inline void hash_layer_host(void *digests, std::uint64_t digest_bytes, const void *chunks,
                            std::uint64_t chunk_bytes) {
  detail::hash_layer_on_host(digests, digest_bytes, chunks, chunk_bytes, std::nullopt);
}

// The host alone, with a prefix byte, as hash_layer_prefixed.
inline void hash_layer_prefixed_host(void *digests, std::uint64_t digest_bytes, const void *chunks,
                                     std::uint64_t chunk_bytes, std::uint8_t prefix) {
  detail::hash_layer_on_host(digests, digest_bytes, chunks, chunk_bytes, prefix);
}

} // namespace merklize
