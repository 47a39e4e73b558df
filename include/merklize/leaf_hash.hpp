// A log's entries into its leaves on a device: RFC 6962 2.1's leaf hash, SHA-256(0x00 || entry),
// of a batch of entries of any length at once (one work-item an entry), so that a log goes from
// raw entries to a tree of hash_kind::rfc6962. The entries' framing: entries.hpp.
//
//   const auto spans = merklize::split_entries(data.data(), data.size(),
//   merklize::entry_framing::lines); std::vector<merklize::digest> leaves =
//   merklize::hash_entries(queue, data.data(), data.size(), spans);
//
// Like layer.hpp, hash_entries holds no state and may be called from several threads at once.
#pragma once

#include "entries.hpp"
#include "layer.hpp" // detail::queue_info

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

namespace merklize {

// SHA-256(prefix || entry) of each entry in `spans` of the `size` bytes at `data`, on the
// device of `queue`, in one launch (prefix rfc6962_leaf_prefix: RFC 6962's leaf hashes). Returns
// when the digests are in place, one per span, in order.
inline std::vector<digest> hash_entries(const cl::CommandQueue &queue, const std::uint8_t *data,
                                        std::uint64_t size, const std::vector<entry_span> &spans,
                                        std::uint8_t prefix = rfc6962_leaf_prefix) {
  std::vector<cl_ulong> bounds;
  bounds.reserve(2 * spans.size());
  for (const entry_span &s : spans) {
    if (s.first > size || s.size > size - s.first)
      throw error("hash_entries: an entry of " + std::to_string(s.size) + " bytes at offset " +
                  std::to_string(s.first) + " runs past the " + std::to_string(size) +
                  " bytes given");
    bounds.push_back(s.first);
    bounds.push_back(s.first + s.size);
  }
  if (spans.empty()) return {};
  const auto context = detail::queue_info<CL_QUEUE_CONTEXT, cl::Context>(queue);
  const auto device = detail::queue_info<CL_QUEUE_DEVICE, cl::Device>(queue);
  const auto copy = [&](const void *host, std::uint64_t bytes) {
    return detail::create("clCreateBuffer", [&](cl_int *err) {
      return cl::Buffer(context, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR,
                        std::max<std::uint64_t>(1, bytes),
                        const_cast<void *>(bytes ? host : &prefix), err);
    });
  };
  const cl::Buffer in = copy(data, size), ranges = copy(bounds.data(), bounds.size() * 8);
  const cl::Buffer out = detail::create("clCreateBuffer", [&](cl_int *err) {
    return cl::Buffer(context, CL_MEM_WRITE_ONLY, spans.size() * node_bytes, nullptr, err);
  });
  const cl::Program program =
      detail::get_program(context, device, detail::sha256_entries_program());
  cl::Kernel kernel = detail::create(
      "clCreateKernel", [&](cl_int *err) { return cl::Kernel(program, "sha256_entries", err); });
  detail::set_args(kernel, in, ranges, cl_ulong(spans.size()), cl_uint(prefix), out);
  const std::size_t local =
      std::min(tuning_for(detail::read_device_facts(device)).batch_work_group_size,
               detail::work_group_limit(kernel, device));
  const std::vector<cl::Event> hashed{detail::launch(queue, kernel, spans.size(), local, {})};
  std::vector<digest> digests(spans.size());
  detail::call("clEnqueueReadBuffer", [&] {
    return queue.enqueueReadBuffer(out, CL_TRUE, 0, spans.size() * node_bytes, digests.data(),
                                   &hashed);
  });
  return digests;
}

} // namespace merklize
