// SPDX-License-Identifier: Apache-2.0 OR MIT
// A log's entries into its leaves on a device: RFC 6962 2.1's leaf hash, SHA-256(0x00 || entry),
// of a batch of entries of any length (one work-item an entry), so that a log goes from raw
// entries to a tree of hash_kind::rfc6962. The entries' framing: entries.hpp.
//
//   const auto spans = merklize::split_entries(data, size, merklize::entry_framing::lines);
//   std::vector<merklize::digest> leaves = merklize::hash_entries(queue, data, size, spans);
//
// The entries go to the device in launches of at most 64 MiB of entries (entries_batch_bytes),
// so the device never holds more, whatever the batch's size; an entry larger than that is a
// launch of its own. Like layer.hpp, hash_entries holds no state and may be called from several
// threads at once.
#pragma once

#include "../core/entries.hpp"
#include "../runtime/queue_drain.hpp"
#include "layer.hpp" // detail::queue_info

#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

namespace merklize {

namespace detail {

// The bytes of entries one launch of sha256_entries reads at most (their range in the input).
constexpr std::uint64_t entries_batch_bytes = std::uint64_t(64) << 20;

// One launch: the entries spans[begin, end), whose bytes lie in [low, high) of the input.
struct entries_launch {
  std::size_t begin = 0, end = 0;
  std::uint64_t low = 0, high = 0;
};

// The launch starting at spans[begin]: as many entries as fit in `limit` bytes of range (one at
// least), and at most 2^20 of them (their bounds and digests are small next to that).
inline entries_launch next_entries_launch(const std::vector<entry_span> &spans, std::size_t begin,
                                          std::uint64_t limit) {
  entries_launch l{begin, begin + 1, spans[begin].first, spans[begin].first + spans[begin].size};
  const std::size_t most = begin + std::min<std::size_t>(spans.size() - begin, 1u << 20);
  for (; l.end < most; ++l.end) {
    const entry_span &s = spans[l.end];
    const std::uint64_t low = std::min(l.low, s.first), high = std::max(l.high, s.first + s.size);
    if (high - low > limit) break;
    l.low = low, l.high = high;
  }
  return l;
}

// A read-only buffer holding a copy of `bytes` (at least one byte: OpenCL has no empty buffer).
inline cl::Buffer entries_input(const cl::Context &context, const void *host, std::uint64_t bytes) {
  static const std::uint8_t nothing = 0;
  return create("clCreateBuffer", [&](cl_int *err) {
    return cl::Buffer(context, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR,
                      std::max<std::uint64_t>(1, bytes),
                      const_cast<void *>(bytes ? host : &nothing), err);
  });
}

// Hashes the launch's entries into digests[l.begin, l.end) and returns when they are there.
inline void hash_entries_launch(const cl::CommandQueue &queue, cl::Kernel &kernel,
                                const std::uint8_t *data, const std::vector<entry_span> &spans,
                                const entries_launch &l, std::uint8_t prefix,
                                std::vector<digest> &digests) {
  const auto context = queue_info<CL_QUEUE_CONTEXT, cl::Context>(queue);
  const auto device = queue_info<CL_QUEUE_DEVICE, cl::Device>(queue);
  const std::uint64_t count = l.end - l.begin;
  std::vector<cl_ulong> bounds; // relative to the launch's first byte
  bounds.reserve(2 * count);
  for (std::size_t i = l.begin; i < l.end; ++i) {
    bounds.push_back(spans[i].first - l.low);
    bounds.push_back(spans[i].first + spans[i].size - l.low);
  }
  const cl::Buffer in = entries_input(context, data + l.low, l.high - l.low);
  const cl::Buffer ranges = entries_input(context, bounds.data(), bounds.size() * 8);
  const cl::Buffer out = create("clCreateBuffer", [&](cl_int *err) {
    return cl::Buffer(context, CL_MEM_WRITE_ONLY, count * node_bytes, nullptr, err);
  });
  set_args(kernel, in, ranges, cl_ulong(count), cl_uint(prefix), out);
  const std::size_t local = std::min(tuning_for(read_device_facts(device)).batch_work_group_size,
                                     work_group_limit(kernel, device));
  const std::vector<cl::Event> hashed{launch(queue, kernel, count, local, {})};
  call("clEnqueueReadBuffer", [&] {
    return queue.enqueueReadBuffer(out, CL_TRUE, 0, count * node_bytes, &digests[l.begin], &hashed);
  });
}

inline std::vector<digest> hash_entries_on(const cl::CommandQueue &queue, const std::uint8_t *data,
                                           const std::vector<entry_span> &spans,
                                           std::uint8_t prefix, std::uint64_t limit) {
  const auto context = queue_info<CL_QUEUE_CONTEXT, cl::Context>(queue);
  const auto device = queue_info<CL_QUEUE_DEVICE, cl::Device>(queue);
  const cl::Program program = tuned_program(context, device, sha256_entries_program());
  // A kernel per call, as layer.hpp: concurrent callers never share one's arguments.
  cl::Kernel kernel = create(
      "clCreateKernel", [&](cl_int *err) { return cl::Kernel(program, "sha256_entries", err); });
  std::vector<digest> digests(spans.size());
  for (std::size_t begin = 0; begin < spans.size();) {
    const entries_launch l = next_entries_launch(spans, begin, limit);
    hash_entries_launch(queue, kernel, data, spans, l, prefix, digests);
    begin = l.end;
  }
  return digests;
}

// hash_entries in launches of at most `limit` bytes of entries (a parameter for the tests).
inline std::vector<digest> hash_entries_in_launches(const cl::CommandQueue &queue,
                                                    const std::uint8_t *data, std::uint64_t size,
                                                    const std::vector<entry_span> &spans,
                                                    std::uint8_t prefix, std::uint64_t limit) {
  check_entry_spans(spans, size, "hash_entries");
  if (spans.empty()) return {};
  const drain_on_unwind drained(queue);
  return in_step([&] { return "hashing " + std::to_string(spans.size()) + " entries"; },
                 [&] { return hash_entries_on(queue, data, spans, prefix, limit); });
}

} // namespace detail

// SHA-256(prefix || entry) of each entry in `spans` of the `size` bytes at `data`, on the device
// of `queue` (prefix rfc6962_leaf_prefix: RFC 6962's leaf hashes). Returns when the digests are
// in place, one per span, in order. Spans may overlap and come in any order; one running past
// `size` is refused before anything is hashed.
inline std::vector<digest> hash_entries(const cl::CommandQueue &queue, const std::uint8_t *data,
                                        std::uint64_t size, const std::vector<entry_span> &spans,
                                        std::uint8_t prefix = rfc6962_leaf_prefix) {
  return detail::hash_entries_in_launches(queue, data, size, spans, prefix,
                                          detail::entries_batch_bytes);
}

} // namespace merklize
