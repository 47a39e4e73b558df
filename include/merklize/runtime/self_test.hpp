// SPDX-License-Identifier: Apache-2.0 OR MIT
// The known-answer self-test of a built program: every program ends with kernels/self_test.cl,
// whose one work-item hashes a fixed pair of nodes with each node hash the program's files
// define; the results are compared here with the host's reference (node_rule.hpp). One launch
// of one work-item and a 700-byte read: microseconds next to the program's build or load. A
// program that answers wrong (a compiler that changed a constant, a binary that is not the
// program it claims to be) is not used (program_cache.hpp).
#pragma once

#include "../core/node_rule.hpp"
#include "kernel_call.hpp"
#include "program_spec.hpp"
#include "queue_drain.hpp"

#include <algorithm>
#include <cstring>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace merklize {
namespace detail {

// Slots of 32 bytes that self_test.cl may write: five node hashes, then up to 16 lanes.
constexpr std::size_t self_test_slots = 5 + 16;

struct self_test_answer {
  std::size_t slot;
  const char *what;
  digest expected;
};

// The number after "-DMERKLIZE_LANES=" in a program's options, or 0.
inline unsigned lanes_option(const std::string &options) {
  const std::string key = "-DMERKLIZE_LANES=";
  const auto at = options.find(key);
  return at == std::string::npos
             ? 0u
             : static_cast<unsigned>(std::stoul(options.substr(at + key.size())));
}

// What self_test.cl writes for a program of the spec's files and options.
inline std::vector<self_test_answer> self_test_answers(const program_spec &spec) {
  digest left, right;
  for (std::uint8_t k = 0; k < 32; ++k) {
    left[k] = k;
    right[k] = static_cast<std::uint8_t>(32 + k);
  }
  const auto has = [&](const char *file) {
    return std::find(spec.files.begin(), spec.files.end(), file) != spec.files.end();
  };
  std::vector<self_test_answer> answers;
  if (has("blake3.cl")) {
    answers.push_back({0, "blake3 node", node_hash(hash_kind::blake3, left, right, false)});
    answers.push_back(
        {1, "blake3-parent node", node_hash(hash_kind::blake3_parent, left, right, false)});
    answers.push_back(
        {2, "blake3-parent root", node_hash(hash_kind::blake3_parent, left, right, true)});
  }
  if (has("sha256.cl")) {
    answers.push_back({3, "sha256 node", node_hash(hash_kind::sha256, left, right, false)});
    answers.push_back({4, "rfc6962 node", node_hash(hash_kind::rfc6962, left, right, false)});
  }
  const bool sha256_lanes = has("sha256_lanes.cl"); // else BLAKE3's parent compression
  if (has("merkle_lanes.cl"))
    for (unsigned r = 0; r < std::min(16u, lanes_option(spec.options)); ++r) {
      digest lane_left = left;
      lane_left[0] = static_cast<std::uint8_t>(lane_left[0] ^ r);
      answers.push_back({5 + r, sha256_lanes ? "lanes' sha256 node" : "lanes' parent node",
                         node_hash(sha256_lanes ? hash_kind::sha256 : hash_kind::blake3_parent,
                                   lane_left, right, false)});
    }
  return answers;
}

// Runs the program's self-test on `device`: nothing where every answer is right, else which is
// wrong. An OpenCL call that fails throws.
inline std::optional<std::string> self_test_failure(const cl::Context &context,
                                                    const cl::Device &device,
                                                    const cl::Program &program,
                                                    const program_spec &spec) {
  const cl::CommandQueue queue = create("clCreateCommandQueue", [&](cl_int *err) {
    return cl::CommandQueue(context, device, 0, err);
  });
  cl::Kernel kernel = create("clCreateKernel", [&](cl_int *err) {
    return cl::Kernel(program, "merklize_self_test", err);
  });
  std::vector<std::uint8_t> out(self_test_slots * node_bytes, 0);
  const cl::Buffer results = create("clCreateBuffer", [&](cl_int *err) {
    return cl::Buffer(context, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, out.size(), out.data(),
                      err);
  });
  set_args(kernel, results);
  const drain_on_unwind drained(queue);
  const std::vector<cl::Event> ran{launch(queue, kernel, 1, 1, {})};
  call("clEnqueueReadBuffer",
       [&] { return queue.enqueueReadBuffer(results, CL_TRUE, 0, out.size(), out.data(), &ran); });
  for (const auto &answer : self_test_answers(spec))
    if (std::memcmp(out.data() + answer.slot * node_bytes, answer.expected.data(), node_bytes)) {
      digest got;
      std::memcpy(got.data(), out.data() + answer.slot * node_bytes, node_bytes);
      return std::string("its ") + answer.what + " of the test pair is " + to_hex(got) + ", not " +
             to_hex(answer.expected);
    }
  return std::nullopt;
}

} // namespace detail
} // namespace merklize
