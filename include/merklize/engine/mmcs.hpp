// SPDX-License-Identifier: Apache-2.0 OR MIT
// Plonky3's MerkleTreeMmcs on a device: the commitment to the rows of one or several matrices of
// field elements (BabyBear, KoalaBear: Poseidon2 width 16; Goldilocks: width 8), its cap read
// back, and on request every digest layer, equal to the host reference's (core/mmcs.hpp, whose
// rules are in docs/LIBRARY.md ("Matrix commitments")).
//
//   std::vector<merklize::mmcs::matrix_view> ms = {{bytes, height, width}, ...};
//   merklize::mmcs::device_commitment c =
//       merklize::mmcs::commit_on(queue, ms, merklize::poseidon2::babybear_16, cap_height);
//
// The kernels (kernels/poseidon2.cl): layer 0 and each layer where matrices enter hash a row of
// several matrices as one sponge by absorbing the matrices in sequence, a launch each, the
// sponges' states carried in device memory between launches (poseidon2_absorb), then ended
// (poseidon2_squeeze); poseidon2_mmcs_layer compresses a layer's pairs and, where matrices
// enter, compresses each node again with their rows' sponge. The matrices are checked on the
// host first (heights Plonky3 refuses, elements that are not canonical) and copied to the device
// whole: the device must hold them, their states and the layers.
#pragma once

#include "../core/mmcs.hpp"
#include "../runtime/kernels.hpp"
#include "../runtime/queue_drain.hpp"
#include "../runtime/runtime.hpp"
#include "layer.hpp" // detail::queue_info

#include <string>
#include <vector>

namespace merklize {
namespace mmcs {

struct device_commitment {
  std::vector<digest> cap;
  std::vector<std::vector<digest>> layers; // layer 0 first; empty unless asked for
};

namespace detail {
using namespace merklize::detail;

class device_commit {
public:
  device_commit(const cl::CommandQueue &queue, const std::vector<matrix_view> &matrices,
                const poseidon2::instance &in)
      : queue_(queue), context_(queue_info<CL_QUEUE_CONTEXT, cl::Context>(queue)),
        device_(queue_info<CL_QUEUE_DEVICE, cl::Device>(queue)), in_(in), matrices_(matrices) {
    const std::string field(in.name, std::string(in.name).find('-'));
    const cl::Program program =
        tuned_program(context_, device_, poseidon2_program(field, in.width));
    for (auto [kernel, name] : {std::pair{&absorb_, "poseidon2_absorb"},
                                {&squeeze_, "poseidon2_squeeze"},
                                {&layer_, "poseidon2_mmcs_layer"}})
      *kernel =
          create("clCreateKernel", [&](cl_int *err) { return cl::Kernel(program, name, err); });
    local_ = std::min(tuning_for(read_device_facts(device_)).batch_work_group_size,
                      work_group_limit(layer_, device_));
  }

  // Every layer on the device, layer 0 first, each padded as the host's (zero digests).
  std::vector<cl::Buffer> layers(std::size_t tallest) {
    std::vector<cl::Buffer> out{zeroed(padded_length(tallest) * node_bytes)};
    sponges(0, tallest, out.back());
    for (unsigned k = 1; k <= depth(tallest); ++k) {
      const std::uint64_t count = rung(tallest, k);
      const bool inject = enters(tallest, k);
      const cl::Buffer injected = zeroed(inject ? count * node_bytes : node_bytes);
      if (inject) sponges(k, tallest, injected);
      out.push_back(zeroed(padded_length(count) * node_bytes));
      set_args(layer_, out[k - 1], cl_ulong(count), injected, cl_uint(inject), out[k]);
      step(launch(queue_, layer_, count, local_, wait_));
    }
    return out;
  }

  std::vector<digest> read(const cl::Buffer &buffer, std::size_t count) {
    std::vector<digest> out(count);
    call("clEnqueueReadBuffer", [&] {
      return queue_.enqueueReadBuffer(buffer, CL_TRUE, 0, count * node_bytes, out.data(), &wait_);
    });
    return out;
  }

private:
  bool enters(std::size_t tallest, unsigned k) const {
    for (const matrix_view &m : matrices_)
      if (m.height == rung(tallest, k)) return true;
    return false;
  }

  cl::Buffer zeroed(std::uint64_t bytes) {
    cl::Buffer b = create("clCreateBuffer", [&](cl_int *err) {
      return cl::Buffer(context_, CL_MEM_READ_WRITE, bytes, nullptr, err);
    });
    cl::Event filled;
    call("clEnqueueFillBuffer",
         [&] { return queue_.enqueueFillBuffer(b, cl_uchar(0), 0, bytes, &wait_, &filled); });
    step(filled);
    return b;
  }

  // out[r] <- the sponge of rows r of the matrices entering layer k, concatenated in order.
  void sponges(unsigned k, std::size_t tallest, const cl::Buffer &out) {
    const std::uint64_t rows = rung(tallest, k), limb = poseidon2::limb_bytes(in_);
    const cl::Buffer states = zeroed(rows * in_.width * limb);
    cl_uint pending = 0;
    for (const matrix_view &m : matrices_) {
      if (m.height != rows || m.width == 0) continue;
      const cl::Buffer matrix = create("clCreateBuffer", [&](cl_int *err) {
        return cl::Buffer(context_, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR,
                          m.height * m.width * limb, const_cast<std::uint8_t *>(m.bytes), err);
      });
      set_args(absorb_, matrix, cl_ulong(rows), cl_ulong(m.width), states, pending);
      step(launch(queue_, absorb_, rows, local_, wait_));
      pending = static_cast<cl_uint>((pending + m.width) % (in_.width / 2));
    }
    set_args(squeeze_, states, cl_ulong(rows), pending, out);
    step(launch(queue_, squeeze_, rows, local_, wait_));
  }

  void step(const cl::Event &done) { wait_ = {done}; }

  cl::CommandQueue queue_;
  cl::Context context_;
  cl::Device device_;
  const poseidon2::instance &in_;
  const std::vector<matrix_view> &matrices_;
  cl::Kernel absorb_, squeeze_, layer_;
  std::size_t local_ = 1;
  std::vector<cl::Event> wait_;
};

} // namespace detail

// The commitment to `matrices` on the device of `queue`: its cap at `cap_height` (as Plonky3's:
// min(cap_height, depth) layers below the root, its first min(2^that, length) digests) and, with
// `all_layers`, every digest layer. Refuses (merklize::error, before the device is used) what
// mmcs::tree refuses. Returns when the digests are read back.
inline device_commitment commit_on(const cl::CommandQueue &queue,
                                   const std::vector<matrix_view> &matrices,
                                   const poseidon2::instance &in, unsigned cap_height,
                                   bool all_layers = false) {
  check_instance(in);
  const std::size_t tallest = check_matrices(matrices, in);
  const merklize::detail::drain_on_unwind drained(queue);
  detail::device_commit run(queue, matrices, in);
  const std::vector<cl::Buffer> layers = run.layers(tallest);
  device_commitment out;
  const unsigned at = cap_layer(tallest, cap_height);
  const std::size_t length = padded_length(rung(tallest, at));
  out.cap = run.read(layers[at], std::min(length, std::size_t{1} << (depth(tallest) - at)));
  if (all_layers)
    for (unsigned k = 0; k < layers.size(); ++k)
      out.layers.push_back(run.read(layers[k], padded_length(rung(tallest, k))));
  return out;
}

} // namespace mmcs
} // namespace merklize
