// SPDX-License-Identifier: Apache-2.0 OR MIT
// Uploads from the caller's pageable memory through page-locked memory of the library's own,
// piece by piece: each piece copied into the page-locked buffer and its write enqueued at once,
// so the copy of the next piece overlaps the bus moving this one. A driver's own path from
// pageable memory is many times slower than the bus (about 1.3 GB/s on an H200, stream_memory.hpp);
// a batch of 335k leaves (10.7 MB) would spend 8 ms there. Data already page-locked (a
// host_buffer's) is written directly. Pieces of 1 MiB: small enough that the first write starts
// early, large enough that a write's own cost (microseconds) is small beside its bytes. From 4
// pieces up the pieces are copied by the process's copy workers (copy_workers.hpp: up to 7
// threads, kept from call to call, taking the pieces in order) while this one enqueues each as it
// lands, in order: one core copies about 8 GB/s (1.4-1.8 ms for a 1% batch of 2^25 leaves and its
// indices on the H100 machine's host), four about 30-40 GB/s.
//
// Each call's uploads get room in one buffer (begin), reused by the next call's: its owner waits
// for the writes before then (resident_tree's calls end with a blocking read on the same
// in-order queue).
#pragma once

#include "copy_workers.hpp"
#include "error.hpp"
#include "host_buffer.hpp"

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <cstring>
#include <memory>
#include <string>
#include <thread>
#include <vector>

namespace merklize {
namespace detail {

class staged_upload {
public:
  static constexpr std::uint64_t piece_bytes = std::uint64_t(1) << 20;

  // Room for the next `bytes` bytes of uploads (one call's), from the start of the staging
  // buffer: the writes of the last ones must be done.
  void begin(const cl::CommandQueue &queue, std::uint64_t bytes) {
    used_ = 0;
    if (staging_.size() >= bytes || bytes == 0) return;
    staging_ = host_buffer(); // the old one first: both may not fit at once
    staging_ = host_buffer(context_of(queue), queue, static_cast<std::size_t>(bytes));
  }

  // Enqueues the write of `bytes` bytes at `from` into `to` from byte `at`, on `queue` (in
  // order), its events appended to `events`; flushed, so the device starts on them while the
  // caller goes on. Pageable memory goes through the room begin() made.
  void write(const cl::CommandQueue &queue, const cl::Buffer &to, std::uint64_t at,
             const void *from, std::uint64_t bytes, std::vector<cl::Event> &events) {
    if (bytes == 0) return;
    if (is_page_locked(context_of(queue), from, bytes)) {
      events.push_back(enqueue(queue, to, at, from, bytes));
    } else {
      if (used_ + bytes > staging_.size())
        throw error("staged upload: " + std::to_string(bytes) +
                    " bytes more than begin() made "
                    "room for"); // a bug of the caller's, never the user's
      const auto *source = static_cast<const std::uint8_t *>(from);
      std::uint8_t *staged = staging_.data() + used_;
      used_ += bytes;
      copy_pieces(staged, source, bytes, [&](std::uint64_t done, std::uint64_t n) {
        events.push_back(enqueue(queue, to, at + done, staged + done, n));
        if (done == 0) call("clFlush", [&] { return queue.flush(); });
      });
    }
    call("clFlush", [&] { return queue.flush(); });
  }

  std::uint64_t bytes() const { return staging_.size(); }

private:
  static constexpr std::uint64_t parallel_pieces = 4;

  // Copies `bytes` from `source` to `staged` piece by piece, calling landed(offset, size) for
  // each piece in order once it is copied: here, or from parallel_pieces pieces on by the kept
  // workers (waited for before this returns or throws: they read the caller's memory).
  template <class Landed>
  void copy_pieces(std::uint8_t *staged, const std::uint8_t *source, std::uint64_t bytes,
                   const Landed &landed) {
    const std::uint64_t pieces = (bytes + piece_bytes - 1) / piece_bytes;
    auto size_of = [&](std::uint64_t p) { return std::min(piece_bytes, bytes - p * piece_bytes); };
    if (pieces < parallel_pieces || std::thread::hardware_concurrency() < 2) {
      for (std::uint64_t p = 0; p < pieces; ++p) {
        std::memcpy(staged + p * piece_bytes, source + p * piece_bytes, size_of(p));
        landed(p * piece_bytes, size_of(p));
      }
      return;
    }
    const std::unique_ptr<std::atomic<bool>[]> copied(new std::atomic<bool>[pieces]);
    for (std::uint64_t p = 0; p < pieces; ++p)
      copied[p].store(false, std::memory_order_relaxed);
    const std::function<void(unsigned)> copy_piece = [&](unsigned p) {
      std::memcpy(staged + p * piece_bytes, source + p * piece_bytes, size_of(p));
      copied[p].store(true, std::memory_order_release);
    };
    // Waited for (its destructor) before this returns or throws: the workers read the caller's
    // memory.
    copy_workers::started job =
        copy_workers::shared().start(static_cast<unsigned>(pieces), copy_piece);
    for (std::uint64_t p = 0; p < pieces; ++p) {
      while (!copied[p].load(std::memory_order_acquire))
        std::this_thread::yield();
      landed(p * piece_bytes, size_of(p));
    }
  }

  static cl::Context context_of(const cl::CommandQueue &queue) {
    return queue.getInfo<CL_QUEUE_CONTEXT>();
  }

  static cl::Event enqueue(const cl::CommandQueue &queue, const cl::Buffer &to, std::uint64_t at,
                           const void *from, std::uint64_t bytes) {
    cl::Event done;
    call("clEnqueueWriteBuffer",
         [&] { return queue.enqueueWriteBuffer(to, CL_FALSE, at, bytes, from, nullptr, &done); });
    return done;
  }

  host_buffer staging_;
  std::uint64_t used_ = 0;
};

} // namespace detail
} // namespace merklize
