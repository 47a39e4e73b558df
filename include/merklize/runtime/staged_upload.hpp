// SPDX-License-Identifier: Apache-2.0 OR MIT
// Uploads from the caller's pageable memory through page-locked memory of the library's own,
// piece by piece: each piece copied into the page-locked buffer and its write enqueued at once,
// so the copy of the next piece overlaps the bus moving this one. A driver's own path from
// pageable memory is many times slower than the bus (about 1.3 GB/s on an H200, stream_memory.hpp);
// a batch of 335k leaves (10.7 MB) would spend 8 ms there. Data already page-locked (a
// host_buffer's) is written directly. Pieces of 1 MiB: small enough that the first write starts
// early, large enough that a write's own cost (microseconds) is small beside its bytes. From 4
// pieces up the pieces are copied by the process's copy workers (worker_pool.hpp: up to 7
// threads, kept from call to call, taking the pieces in order) while this one enqueues each as it
// lands, in order: one core copies about 8 GB/s (1.4-1.8 ms for a 1% batch of 2^25 leaves and its
// indices on the H100 machine's host), four about 30-40 GB/s.
//
// Each call's uploads get room in one buffer (begin), reused by the next call's: its owner waits
// for the writes before then (resident_tree's calls end with a blocking read on the same
// in-order queue).
#pragma once

#include "error.hpp"
#include "host_buffer.hpp"
#include "worker_pool.hpp"

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <cstring>
#include <functional>
#include <initializer_list>
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

  // A write of `bytes` bytes at `from` into `to` from byte `at`.
  struct part {
    const cl::Buffer &to;
    std::uint64_t at;
    const void *from;
    std::uint64_t bytes;
  };

  // Enqueues the writes of `parts` on `queue` (in order), their events appended to `events`;
  // flushed, so the device starts on them while the caller goes on. Page-locked memory is
  // written directly; pageable memory goes through the room begin() made, the pieces of all the
  // parts copied by one job of the workers (a batch's indices beside its leaves: apart, the
  // indices' few pieces were copied on this thread alone, 0.3-0.5 ms of a 1% update on the H200).
  void write(const cl::CommandQueue &queue, std::initializer_list<part> parts,
             std::vector<cl::Event> &events) {
    const cl::Context context = context_of(queue);
    std::vector<piece> pieces;
    for (const part &p : parts) {
      if (p.bytes == 0) continue;
      if (is_page_locked(context, p.from, p.bytes)) {
        events.push_back(enqueue(queue, p.to, p.at, p.from, p.bytes));
        continue;
      }
      if (used_ + p.bytes > staging_.size())
        throw error("staged upload: " + std::to_string(p.bytes) +
                    " bytes more than begin() made room for"); // a bug of the caller's
      for (std::uint64_t done = 0; done < p.bytes; done += piece_bytes)
        pieces.push_back({&p.to, p.at + done, static_cast<const std::uint8_t *>(p.from) + done,
                          staging_.data() + used_ + done, std::min(piece_bytes, p.bytes - done)});
      used_ += p.bytes;
    }
    copy_pieces(pieces, [&](const piece &p, bool first) {
      events.push_back(enqueue(queue, *p.to, p.at, p.staged, p.bytes));
      if (first) call("clFlush", [&] { return queue.flush(); });
    });
    call("clFlush", [&] { return queue.flush(); });
  }

  void write(const cl::CommandQueue &queue, const cl::Buffer &to, std::uint64_t at,
             const void *from, std::uint64_t bytes, std::vector<cl::Event> &events) {
    write(queue, {part{to, at, from, bytes}}, events);
  }

  std::uint64_t bytes() const { return staging_.size(); }

private:
  static constexpr std::uint64_t parallel_pieces = 4;

  // A piece of a pageable part: copied from `source` to `staged`, then written from there.
  struct piece {
    const cl::Buffer *to;
    std::uint64_t at;
    const std::uint8_t *source;
    std::uint8_t *staged;
    std::uint64_t bytes;
  };

  // Copies the pieces into the staging buffer, calling landed(piece, first) for each in order
  // once it is copied: here, or from parallel_pieces pieces on by the kept workers (waited for
  // before this returns or throws: they read the caller's memory).
  template <class Landed>
  static void copy_pieces(const std::vector<piece> &pieces, const Landed &landed) {
    if (pieces.size() < parallel_pieces || std::thread::hardware_concurrency() < 2) {
      for (std::size_t p = 0; p < pieces.size(); ++p) {
        std::memcpy(pieces[p].staged, pieces[p].source, pieces[p].bytes);
        landed(pieces[p], p == 0);
      }
      return;
    }
    const std::unique_ptr<std::atomic<bool>[]> copied(new std::atomic<bool>[pieces.size()]);
    for (std::size_t p = 0; p < pieces.size(); ++p)
      copied[p].store(false, std::memory_order_relaxed);
    const std::function<void(unsigned)> copy_piece = [&](unsigned p) {
      std::memcpy(pieces[p].staged, pieces[p].source, pieces[p].bytes);
      copied[p].store(true, std::memory_order_release);
    };
    // Waited for (its destructor) before this returns or throws: the workers read the caller's
    // memory.
    worker_pool::started job =
        worker_pool::shared().start(static_cast<unsigned>(pieces.size()), copy_piece);
    for (std::size_t p = 0; p < pieces.size(); ++p) {
      while (!copied[p].load(std::memory_order_acquire))
        std::this_thread::yield();
      landed(pieces[p], p == 0);
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
