// SPDX-License-Identifier: Apache-2.0 OR MIT
// Reading an input ahead of whoever consumes it, on a thread of its own (input::read_ahead): a
// stream (stdin, a pipe) is read into blocks of ordinary memory, so that reading overlaps what
// the caller does meanwhile (a device's start: driver discovery, context, programs) and, once the
// consumer reads, its staging, uploads and kernels; the consumer takes the blocks in order. A
// regular file read at offsets is only advised to the system (POSIX_FADV_WILLNEED): its readers
// already go at the page cache's speed, so a copy of ours would only add one; the advice gets a
// cold file's pages coming from the disk while the device starts.
//
// A consumer takes bytes in order with read (a copy), or whole blocks with take (no copy: the
// host engine hashes a block where it was read, then gives its memory back for the next read).
// At most max_held bytes of blocks are held at once (at least one block), so a consumer slower
// than the pipe never makes this hold the whole input. The thread waits in poll() on the input
// and on a wake-up pipe of its own, so it can be stopped while the writer of a pipe is silent.
#pragma once

#include "file_read.hpp"

#include <algorithm>
#include <condition_variable>
#include <cstdint>
#include <cstring>
#include <deque>
#include <exception>
#include <memory>
#include <mutex>
#include <string>
#include <system_error>
#include <thread>
#include <vector>

#include <fcntl.h>
#include <poll.h>
#include <unistd.h>

namespace merklize {
namespace detail {

class stream_prefetch {
public:
  // Blocks of a pipe's widened size (widen_pipe): a read fills most of one.
  static constexpr std::size_t block_bytes = std::size_t(1) << 20;
  // Bytes past a block's end that its taker may write (the host engine's zero sibling of a lone
  // node, which goes after it).
  static constexpr std::size_t room_after = 64;

  // A block handed whole by take: the index-th taken, `size` bytes (block_bytes but for the last;
  // 0 and no memory past the end) at `data`, which has room_after bytes more.
  struct whole_block {
    std::uint64_t index = 0;
    std::size_t size = 0;
    std::unique_ptr<std::uint8_t[]> data;
  };

  // Reads descriptor `fd` (named `name` in errors) to its end into blocks, holding at most
  // `max_held` bytes not yet consumed. Throws std::system_error where no thread can be had.
  // The thread reads a duplicate of `fd` (the same position): a caller that closes its own
  // descriptor early can never have the thread read another file given the same number.
  stream_prefetch(int fd, std::string name, std::uint64_t max_held)
      : fd_(::fcntl(fd, F_DUPFD_CLOEXEC, 0)), name_(std::move(name)), max_held_(max_held) {
    if (fd_ < 0) throw std::system_error(errno, std::generic_category(), "dup");
    if (::pipe(wake_) != 0) {
      const int code = errno;
      ::close(fd_);
      throw std::system_error(code, std::generic_category(), "pipe");
    }
    for (const int end : wake_)
      (void)::fcntl(end, F_SETFD, FD_CLOEXEC);
    try {
      thread_ = std::thread([this] { work(); });
    } catch (...) {
      close_descriptors();
      throw;
    }
  }
  stream_prefetch(const stream_prefetch &) = delete;
  stream_prefetch &operator=(const stream_prefetch &) = delete;

  // Stops the thread, even one waiting for a silent writer; never throws.
  ~stream_prefetch() {
    {
      const std::lock_guard<std::mutex> lock(mutex_);
      stopping_ = true;
    }
    room_.notify_all();
    const char wake = 1;
    (void)!::write(wake_[1], &wake, 1);
    thread_.join();
    close_descriptors();
  }

  // Bytes held at most from now on; blocks already held stay until consumed.
  void set_max_held(std::uint64_t bytes) {
    {
      const std::lock_guard<std::mutex> lock(mutex_);
      max_held_ = bytes;
    }
    room_.notify_all();
  }

  // Bytes the thread has read from the input so far (consumed or not).
  std::uint64_t bytes_read() const {
    const std::lock_guard<std::mutex> lock(mutex_);
    return read_;
  }

  // Up to `capacity` bytes in the input's order, 0 only at its end: waits for a block, then takes
  // what the blocks held have. The reader's failure comes after the bytes read before it.
  std::size_t read(std::uint8_t *buffer, std::size_t capacity) {
    std::unique_lock<std::mutex> lock(mutex_);
    ready_.wait(lock, [&] { return !full_.empty() || ended_; });
    std::size_t have = 0;
    while (have < capacity && !full_.empty()) {
      block &b = full_.front(); // stays put: the thread only appends to the deque
      const std::size_t take = std::min(capacity - have, b.size - taken_);
      lock.unlock();
      std::memcpy(buffer + have, b.data.get() + taken_, take);
      lock.lock();
      have += take;
      taken_ += take;
      if (taken_ == b.size) release_front();
    }
    if (have == 0 && failure_) std::rethrow_exception(failure_);
    return have;
  }

  // Whether the blocks can be taken whole: read has not taken part of one.
  bool whole_blocks() const {
    const std::lock_guard<std::mutex> lock(mutex_);
    return taken_ == 0;
  }

  // The next block in the input's order, whole (whole_blocks() must hold); any thread. A failure
  // of the reader comes after the bytes read before it, with the block they end in (a short
  // block is the last, so its taker would have taken it for the end).
  whole_block take() {
    std::unique_lock<std::mutex> lock(mutex_);
    ready_.wait(lock, [&] { return !full_.empty() || ended_; });
    whole_block out;
    out.index = taken_blocks_++;
    if (failure_ && (full_.empty() || full_.front().size < block_bytes))
      std::rethrow_exception(failure_);
    if (full_.empty()) return out;
    out.size = full_.front().size;
    out.data = std::move(full_.front().data);
    full_.pop_front();
    held_ -= block_bytes; // out of this one's count: the reader goes on while it is hashed
    room_.notify_all();
    return out;
  }

  // A taken block's memory, for the reader again while the spare blocks stay under max_held,
  // else freed. Kept even while the reader holds max_held: a block freed here is one the reader
  // allocates again, and a fresh MiB's page faults cost more than hashing it.
  void give_back(std::unique_ptr<std::uint8_t[]> data) {
    const std::lock_guard<std::mutex> lock(mutex_);
    if ((spare_.size() + 1) * block_bytes <= max_held_) spare_.push_back(std::move(data));
  }

private:
  struct block {
    std::unique_ptr<std::uint8_t[]> data;
    std::size_t size = 0;
  };

  // The consumer is done with the oldest block: its memory goes to the thread again while the
  // blocks stay under max_held, else back to the system.
  void release_front() {
    held_ -= block_bytes;
    if ((spare_.size() + 1) * block_bytes + held_ <= max_held_)
      spare_.push_back(std::move(full_.front().data));
    full_.pop_front();
    taken_ = 0;
    room_.notify_all();
  }

  void work() {
    for (;;) {
      std::unique_ptr<std::uint8_t[]> data;
      {
        std::unique_lock<std::mutex> lock(mutex_);
        room_.wait(lock,
                   [&] { return stopping_ || held_ == 0 || held_ + block_bytes <= max_held_; });
        if (stopping_) return;
        held_ += block_bytes; // counted from now: the consumer sees it only once filled
        if (!spare_.empty()) {
          data = std::move(spare_.back());
          spare_.pop_back();
        }
      }
      std::size_t have = 0;
      bool end = false;
      std::exception_ptr failure;
      try {
        if (!data) data.reset(new std::uint8_t[block_bytes + room_after]);
        end = fill(data.get(), have);
      } catch (...) {
        failure = std::current_exception();
        end = true;
      }
      const std::lock_guard<std::mutex> lock(mutex_);
      if (have > 0)
        full_.push_back({std::move(data), have});
      else
        held_ -= block_bytes;
      read_ += have;
      if (failure) failure_ = failure;
      ended_ = end;
      // A block is for one consumer (of several threads taking blocks, waking them all for each
      // would have them fight over the lock); the end is for all.
      if (end)
        ready_.notify_all();
      else
        ready_.notify_one();
      if (end || stopping_) return;
    }
  }

  // Reads into `into` until a whole block or the end (true); false when told to stop first.
  bool fill(std::uint8_t *into, std::size_t &have) {
    while (have < block_bytes) {
      if (!wait_readable()) return false;
      const std::size_t got = read_some(fd_, name_, into + have, block_bytes - have);
      if (got == 0) return true;
      have += got;
    }
    return false;
  }

  // Waits until the input has bytes (or its end, or an error for read() to tell); false once
  // the wake-up pipe says to stop.
  bool wait_readable() const {
    pollfd fds[2] = {{fd_, POLLIN, 0}, {wake_[0], POLLIN, 0}};
    for (;;) {
      const int n = ::poll(fds, 2, -1);
      if (n < 0 && errno == EINTR) continue;
      if (n < 0) return true; // poll cannot watch it: read() waits, or says what is wrong
      if (fds[1].revents) return false;
      return true;
    }
  }

  void close_descriptors() {
    ::close(wake_[0]);
    ::close(wake_[1]);
    ::close(fd_);
  }

  const int fd_;
  const std::string name_;
  mutable std::mutex mutex_;
  std::condition_variable ready_, room_;
  std::deque<block> full_;                             // read and not yet consumed, oldest first
  std::vector<std::unique_ptr<std::uint8_t[]>> spare_; // consumed blocks, for the thread again
  std::size_t taken_ = 0;                              // bytes of full_.front() consumed
  std::uint64_t held_ = 0, max_held_, read_ = 0;       // held: blocks in full_ and being filled
  std::uint64_t taken_blocks_ = 0;                     // blocks handed by take
  bool ended_ = false, stopping_ = false;
  std::exception_ptr failure_;
  int wake_[2] = {-1, -1};
  std::thread thread_; // last: it starts once everything else is set up
};

// What input::read_ahead holds at most by default: 1 GiB, or an eighth of the memory where that
// is less (a pipe read during a device's start of half a second at a pipe's few GB/s).
inline std::uint64_t default_read_ahead_bytes() {
  std::uint64_t bytes = std::uint64_t(1) << 30;
  const long pages = ::sysconf(_SC_PHYS_PAGES), page = ::sysconf(_SC_PAGESIZE);
  if (pages > 0 && page > 0)
    bytes = std::min<std::uint64_t>(bytes, std::uint64_t(pages) * std::uint64_t(page) / 8);
  return std::max<std::uint64_t>(bytes, stream_prefetch::block_bytes);
}

// Asks the system to read bytes [0, bytes) of a regular file into its page cache, on a thread
// (the advice may wait for the disk's queue); joined when this goes.
class file_advice {
public:
  file_advice(int fd, std::uint64_t bytes) {
#ifdef POSIX_FADV_WILLNEED
    thread_ = std::thread([fd, bytes] {
      (void)::posix_fadvise(fd, 0, static_cast<off_t>(bytes), POSIX_FADV_WILLNEED);
    });
#else
    (void)fd;
    (void)bytes;
#endif
  }
  file_advice(const file_advice &) = delete;
  file_advice &operator=(const file_advice &) = delete;
  ~file_advice() {
    if (thread_.joinable()) thread_.join();
  }

private:
  std::thread thread_;
};

} // namespace detail
} // namespace merklize
