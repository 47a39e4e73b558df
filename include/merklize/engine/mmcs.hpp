// SPDX-License-Identifier: Apache-2.0 OR MIT
// Plonky3's MerkleTreeMmcs on a device: the commitment to the rows of one or several matrices of
// field elements (BabyBear, KoalaBear: Poseidon2 width 16; Goldilocks: width 8), from host memory
// or from buffers already on the device, its cap read back, and on request every digest layer,
// equal to the host reference's (core/mmcs.hpp, whose rules are in docs/LIBRARY.md ("Matrix
// commitments")).
//
//   std::vector<merklize::mmcs::matrix_view> ms = {{bytes, height, width}, ...};
//   merklize::mmcs::device_commitment c =
//       merklize::mmcs::commit_on(queue, ms, merklize::poseidon2::babybear_16, cap_height);
//
// The kernels (kernels/poseidon2.cl): layer 0 and each layer where matrices enter hash a row of
// several matrices as one sponge by absorbing the matrices in sequence, a launch each (a launch
// a piece of rows for a matrix in host memory), the sponges' states carried in device memory
// between launches (poseidon2_absorb), then ended (poseidon2_squeeze); poseidon2_mmcs_layer
// compresses a layer's pairs and, where matrices enter, compresses each node again with their
// rows' sponge. The shapes are checked on the host before the device is used (heights Plonky3
// refuses, sizes); the elements where the absorbing kernel reads them (an element of p or more
// sets a flag read back with the cap; the host then finds and names it, with the host check's
// words), since a scan of a gigabyte on the host took 18 times the kernels' time (H100, 1 GiB:
// 270 ms against 15.6 ms; dev/PERFORMANCE_LOG.md). A matrix in host memory moves in pieces of the
// tuning row's block_piece_bytes or more on a second queue, two device buffers in turn, so the bus
// moves a piece while the previous one is absorbed (pieces of at least the row's sponge_piece_waves
// waves of rows: a launch of fewer leaves the device idle); the device holds the matrices in
// device memory, two pieces, the states and the layers.
#pragma once

#include "../core/mmcs.hpp"
#include "../runtime/kernels.hpp"
#include "../runtime/profiling.hpp"
#include "../runtime/queue_drain.hpp"
#include "../runtime/runtime.hpp"
#include "layer.hpp" // detail::queue_info

#include <limits>
#include <string>
#include <vector>

namespace merklize {
namespace mmcs {

struct device_commitment {
  std::vector<digest> cap;
  // Layer `dropped` first (open_at's), up to the root; empty unless asked for.
  std::vector<std::vector<digest>> layers;
  unsigned dropped = 0;
  // Statistics, never part of the result: the device's times of the call's matrix copies and
  // kernels (profiling; NaN where the driver gives none).
  double upload_ms = 0, kernel_ms = 0;
};

// A matrix already in device memory (of the queue's context): height * width canonical
// little-endian elements (poseidon2::limb_bytes each) from the buffer's start, row-major.
struct device_matrix {
  cl::Buffer buffer;
  std::size_t height, width;
};

namespace detail {
using namespace merklize::detail;

// A matrix as the commitment reads it: bytes in host memory, or a buffer on the device.
struct matrix_source {
  const std::uint8_t *host;
  cl::Buffer device;
  std::size_t height, width;
};

class device_commit {
public:
  // piece_bytes: a host matrix's pieces, in bytes (0: as the tuning row says).
  device_commit(const cl::CommandQueue &queue, const std::vector<matrix_source> &matrices,
                const poseidon2::instance &in, std::uint64_t piece_bytes)
      : queue_(queue), context_(queue_info<CL_QUEUE_CONTEXT, cl::Context>(queue)),
        device_(queue_info<CL_QUEUE_DEVICE, cl::Device>(queue)), in_(in), matrices_(matrices),
        facts_(read_device_facts(device_)), row_(tuning_for(facts_)), piece_bytes_(piece_bytes),
        copies_(make_queue(context_, device_)), refused_(zeroed(sizeof(cl_uint))) {
    const std::string field(in.name, std::string(in.name).find('-'));
    const cl::Program program =
        tuned_program(context_, device_, poseidon2_program(field, in.width));
    for (auto [kernel, name] : {std::pair{&absorb_, "poseidon2_absorb"},
                                {&squeeze_, "poseidon2_squeeze"},
                                {&layer_, "poseidon2_mmcs_layer"}})
      *kernel =
          create("clCreateKernel", [&](cl_int *err) { return cl::Kernel(program, name, err); });
    local_ = std::min(row_.batch_work_group_size, work_group_limit(layer_, device_));
  }

  // The copies read the caller's memory: none may outlive the call, thrown or not.
  ~device_commit() {
    clFlush(queue_()); // the copies may wait for its kernels
    clFinish(copies_());
  }
  device_commit(const device_commit &) = delete;
  device_commit &operator=(const device_commit &) = delete;

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
      step(log_.kernels.emplace_back(launch(queue_, layer_, count, local_, wait_)));
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

  // Whether an absorbing kernel read an element of p or more (after the layers).
  bool refused() {
    cl_uint flag = 0;
    call("clEnqueueReadBuffer", [&] {
      return queue_.enqueueReadBuffer(refused_, CL_TRUE, 0, sizeof flag, &flag, &wait_);
    });
    return flag != 0;
  }

  const event_log &events() const { return log_; }

private:
  bool enters(std::size_t tallest, unsigned k) const {
    for (const matrix_source &m : matrices_)
      if (m.height == rung(tallest, k)) return true;
    return false;
  }

  cl::Buffer buffer(std::uint64_t bytes) const {
    return create("clCreateBuffer", [&](cl_int *err) {
      return cl::Buffer(context_, CL_MEM_READ_WRITE, bytes, nullptr, err);
    });
  }

  cl::Buffer zeroed(std::uint64_t bytes) {
    cl::Buffer b = buffer(bytes);
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
    for (const matrix_source &m : matrices_) {
      if (m.height != rows || m.width == 0) continue;
      if (m.host)
        absorb_from_host(m, states, pending);
      else
        absorb(m.device, 0, rows, m.width, states, pending, {});
      pending = static_cast<cl_uint>((pending + m.width) % (in_.width / 2));
    }
    set_args(squeeze_, states, cl_ulong(rows), pending, out);
    step(log_.kernels.emplace_back(launch(queue_, squeeze_, rows, local_, wait_)));
  }

  // Rows first .. first + rows of a matrix, lying in `matrix` from its start, into the states.
  void absorb(const cl::Buffer &matrix, std::uint64_t first, std::uint64_t rows,
              std::uint64_t width, const cl::Buffer &states, cl_uint pending,
              const std::vector<cl::Event> &copied) {
    set_args(absorb_, matrix, cl_ulong(rows), cl_ulong(width), states, cl_ulong(first), pending,
             refused_);
    std::vector<cl::Event> wait = wait_;
    wait.insert(wait.end(), copied.begin(), copied.end());
    step(log_.kernels.emplace_back(launch(queue_, absorb_, rows, local_, wait)));
  }

  // A matrix in host memory in pieces of whole rows through two device buffers in turn: a
  // piece's copy (on copies_) waits for the absorption of the piece that used its buffer before.
  void absorb_from_host(const matrix_source &m, const cl::Buffer &states, cl_uint pending) {
    const std::uint64_t row_bytes = m.width * poseidon2::limb_bytes(in_);
    const std::uint64_t piece_rows = std::min<std::uint64_t>(m.height, piece_rows_for(row_bytes));
    const cl::Buffer pieces[2] = {buffer(piece_rows * row_bytes), buffer(piece_rows * row_bytes)};
    std::vector<cl::Event> freed[2];
    for (std::uint64_t first = 0, p = 0; first < m.height; first += piece_rows, ++p) {
      const std::uint64_t rows = std::min(piece_rows, m.height - first);
      call("clEnqueueWriteBuffer", [&] {
        return copies_.enqueueWriteBuffer(pieces[p % 2], CL_FALSE, 0, rows * row_bytes,
                                          m.host + first * row_bytes, &freed[p % 2],
                                          &log_.uploads.emplace_back());
      });
      call("clFlush", [&] { return copies_.flush(); }); // queue_ waits for it
      absorb(pieces[p % 2], first, rows, m.width, states, pending, {log_.uploads.back()});
      call("clFlush", [&] { return queue_.flush(); }); // a later copy waits for this kernel
      freed[p % 2] = wait_;
    }
  }

  std::uint64_t piece_rows_for(std::uint64_t row_bytes) const {
    if (piece_bytes_) return std::max<std::uint64_t>(1, piece_bytes_ / row_bytes);
    const std::uint64_t wave = std::uint64_t(local_) * facts_.compute_units;
    return std::max(row_.block_piece_bytes / row_bytes, row_.sponge_piece_waves * wave);
  }

  void step(const cl::Event &done) { wait_ = {done}; }

  cl::CommandQueue queue_;
  cl::Context context_;
  cl::Device device_;
  const poseidon2::instance &in_;
  const std::vector<matrix_source> &matrices_;
  device_facts facts_;
  tuning row_;
  std::uint64_t piece_bytes_;
  cl::CommandQueue copies_; // the host matrices' pieces, beside queue_'s kernels
  std::vector<cl::Event> wait_;
  cl::Buffer refused_; // set to 1 by an absorbing kernel that reads an element of p or more
  cl::Kernel absorb_, squeeze_, layer_;
  std::size_t local_ = 1;
  event_log log_;
};

// The element an absorbing kernel refused, named as the host check names it: the host matrices
// checked in place, a device matrix read back a piece at a time (this path only).
[[noreturn]] inline void refuse_elements(const cl::CommandQueue &queue,
                                         const std::vector<matrix_source> &matrices,
                                         const poseidon2::instance &in) {
  const unsigned limb = poseidon2::limb_bytes(in);
  for (std::size_t m = 0; m < matrices.size(); ++m) {
    const matrix_source &s = matrices[m];
    const std::uint64_t count = s.height * s.width, piece = std::uint64_t(1) << 22;
    std::vector<std::uint8_t> bytes(s.host ? 0 : std::min(count, piece) * limb);
    for (std::uint64_t at = 0; at < count; at += piece) {
      const std::uint64_t n = std::min(piece, count - at);
      const std::uint8_t *from = s.host ? s.host + at * limb : bytes.data();
      if (!s.host)
        call("clEnqueueReadBuffer", [&] {
          return queue.enqueueReadBuffer(s.device, CL_TRUE, at * limb, n * limb, bytes.data());
        });
      const std::uint64_t i = first_at_or_above(from, n, in);
      if (i < n) throw element_error(from + i * limb, m, at + i, s.width, in);
    }
  }
  throw error("a device refused an element that every matrix holds canonically");
}

// The heights of `matrices` once their shapes are checked (as check_matrices, the elements
// apart); a device matrix's buffer must hold its elements.
inline std::size_t check_shapes(const std::vector<matrix_source> &matrices,
                                const poseidon2::instance &in) {
  std::vector<std::size_t> heights;
  for (const matrix_source &m : matrices)
    heights.push_back(m.height);
  const std::size_t tallest = tallest_height(heights);
  const unsigned limb = poseidon2::limb_bytes(in);
  for (std::size_t m = 0; m < matrices.size(); ++m) {
    const std::size_t count = matrices[m].height * matrices[m].width;
    if (matrices[m].width && (count / matrices[m].width != matrices[m].height ||
                              count > std::numeric_limits<std::size_t>::max() / limb))
      throw error("matrix " + std::to_string(m) + " is too large");
    if (!matrices[m].host && matrices[m].device.getInfo<CL_MEM_SIZE>() < count * limb)
      throw error("matrix " + std::to_string(m) + ": its buffer holds " +
                  std::to_string(matrices[m].device.getInfo<CL_MEM_SIZE>()) + " bytes, not the " +
                  std::to_string(count * limb) + " of " + std::to_string(matrices[m].height) +
                  " rows of " + std::to_string(matrices[m].width) + " elements");
  }
  return tallest;
}

inline device_commitment commit_sources(const cl::CommandQueue &queue,
                                        const std::vector<matrix_source> &matrices,
                                        const poseidon2::instance &in, unsigned cap_height,
                                        bool all_layers, unsigned dropped,
                                        std::uint64_t piece_bytes = 0) {
  check_instance(in);
  const std::size_t tallest = check_shapes(matrices, in);
  if (dropped > cap_layer(tallest, cap_height))
    throw error("dropping " + std::to_string(dropped) + " layers would drop the cap's layer " +
                std::to_string(cap_layer(tallest, cap_height)) + " (cap height " +
                std::to_string(cap_height) + ", " + std::to_string(depth(tallest)) +
                " layers above the rows): a commitment keeps its cap's layer");
  const merklize::detail::drain_on_unwind drained(queue);
  device_commit run(queue, matrices, in, piece_bytes);
  const std::vector<cl::Buffer> layers = run.layers(tallest);
  if (run.refused()) refuse_elements(queue, matrices, in);
  device_commitment out;
  const unsigned at = cap_layer(tallest, cap_height);
  const std::size_t length = padded_length(rung(tallest, at));
  out.cap = run.read(layers[at], std::min(length, std::size_t{1} << (depth(tallest) - at)));
  if (all_layers)
    for (unsigned k = out.dropped = dropped; k < layers.size(); ++k)
      out.layers.push_back(run.read(layers[k], padded_length(rung(tallest, k))));
  out.upload_ms = events_ms(run.events().uploads);
  out.kernel_ms = events_ms(run.events().kernels);
  return out;
}

} // namespace detail

// The commitment to `matrices` on the device of `queue`: its cap at `cap_height` (as Plonky3's:
// min(cap_height, depth) layers below the root, its first min(2^that, length) digests) and, with
// `all_layers`, the digest layers from `dropped` up (no higher than the cap's: open_at
// recomputes the layers below from the matrices when opening). Refuses (merklize::error) what
// mmcs::tree refuses: shapes before the device is used, an element that is not canonical once the
// device has read it (the caller's matrices untouched either way). Returns when the digests are
// read back.
inline device_commitment commit_on(const cl::CommandQueue &queue,
                                   const std::vector<matrix_view> &matrices,
                                   const poseidon2::instance &in, unsigned cap_height,
                                   bool all_layers = false, unsigned dropped = 0) {
  std::vector<detail::matrix_source> sources;
  for (const matrix_view &m : matrices)
    sources.push_back({m.bytes, cl::Buffer(), m.height, m.width});
  return detail::commit_sources(queue, sources, in, cap_height, all_layers, dropped);
}

// The same for matrices already in device memory of the queue's context: nothing is copied.
inline device_commitment commit_on(const cl::CommandQueue &queue,
                                   const std::vector<device_matrix> &matrices,
                                   const poseidon2::instance &in, unsigned cap_height,
                                   bool all_layers = false, unsigned dropped = 0) {
  std::vector<detail::matrix_source> sources;
  for (const device_matrix &m : matrices)
    sources.push_back({nullptr, m.buffer, m.height, m.width});
  return detail::commit_sources(queue, sources, in, cap_height, all_layers, dropped);
}

} // namespace mmcs
} // namespace merklize
