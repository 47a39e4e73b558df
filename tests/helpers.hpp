// Shared test helpers: leaf generators, the device under test, poisoning.
#pragma once

#include "host_helpers.hpp"
#include "json.hpp"

#include <merklize/merklize.hpp>

#include <string>
#include <vector>

namespace test {

inline std::string vector_path(const std::string &name) {
  return std::string(MERKLIZE_TEST_VECTOR_DIR) + "/" + name;
}

inline const json::value &merkle_vectors() {
  static const json::value v = json::parse_file(vector_path("merkle.json"));
  return v;
}

// The device the tests run on: MERKLIZE_DEVICE, else the default (PoCL where there is no GPU).
inline cl::Device test_device() {
  static const cl::Device device = merklize::default_device();
  return device;
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

} // namespace test
