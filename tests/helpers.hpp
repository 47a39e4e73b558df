// SPDX-License-Identifier: Apache-2.0 OR MIT
// Shared test helpers: leaf generators, the device under test, poisoning.
#pragma once

#include "host_helpers.hpp"

#include <merklize/merklize.hpp>

#include <string>
#include <vector>

namespace test {

// The official BLAKE3 vectors (tests/vectors/blake3_official.json) and their input: the bytes
// 0, 1, ..., 250 repeated.
inline const json::value &official_vectors() {
  static const json::value v = json::parse_file(vector_path("blake3_official.json"));
  return v;
}

inline std::vector<std::uint8_t> official_input(std::size_t length) {
  std::vector<std::uint8_t> input(length);
  for (std::size_t i = 0; i < length; ++i)
    input[i] = static_cast<std::uint8_t>(i % 251);
  return input;
}

// The first GPU of any platform, or a null device where there is none.
inline cl::Device first_gpu() {
  for (const auto &e : merklize::list_devices())
    if (e.type == "gpu") return e.device;
  return cl::Device();
}

// The device the tests run on: MERKLIZE_DEVICE, else the default (PoCL where there is no GPU).
inline cl::Device test_device() {
  static const cl::Device device = merklize::default_device();
  return device;
}

// What enqueue_build writes for this tree: levels 1..depth, or the root alone when N = 1.
inline std::vector<std::uint8_t> device_nodes_of(const merklize::tree &t) {
  if (t.depth() == 0) return {t.level_data(0), t.level_data(0) + merklize::node_bytes};
  return {t.nodes_data(), t.nodes_data() + t.nodes_size()};
}

constexpr std::uint8_t poison_byte = 0xA5;

inline cl::Buffer poisoned_buffer(const cl::Context &context, const cl::CommandQueue &queue,
                                  std::size_t bytes) {
  cl::Buffer buffer(context, CL_MEM_READ_WRITE, bytes);
  const std::vector<std::uint8_t> poison(bytes, poison_byte);
  queue.enqueueWriteBuffer(buffer, CL_TRUE, 0, bytes, poison.data());
  return buffer;
}

inline std::vector<std::uint8_t> read_buffer(const cl::CommandQueue &queue,
                                             const cl::Buffer &buffer, std::size_t bytes) {
  std::vector<std::uint8_t> host(bytes);
  queue.enqueueReadBuffer(buffer, CL_TRUE, 0, bytes, host.data());
  return host;
}

// Builds through the device-buffer API into a poisoned buffer and returns what it wrote.
inline std::vector<std::uint8_t> device_tree(merklize::merkleizer &m,
                                             const std::vector<std::uint8_t> &leaves) {
  const std::uint64_t n = leaves.size() / 32;
  cl::Buffer in(m.context(), CL_MEM_READ_ONLY, leaves.size());
  m.queue().enqueueWriteBuffer(in, CL_TRUE, 0, leaves.size(), leaves.data());
  const std::size_t out_bytes = merklize::merkleizer::output_node_count(n) * 32;
  cl::Buffer out = poisoned_buffer(m.context(), m.queue(), out_bytes);
  m.enqueue_build(in, n, out).back().wait();
  return read_buffer(m.queue(), out, out_bytes);
}

} // namespace test
