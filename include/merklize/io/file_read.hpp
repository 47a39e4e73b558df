// SPDX-License-Identifier: Apache-2.0 OR MIT
// Reading files for blake3_device::hash_file: an owned descriptor, read() that reports failures
// as file_error, and parallel_file_reader, which fills pieces of a regular file with several
// threads while the caller uploads the pieces before them.
#pragma once

#include "../core/error_type.hpp"

#include <algorithm>
#include <cerrno>
#include <condition_variable>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <deque>
#include <exception>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace merklize {
namespace detail {

// The failure of a system call on a file, with the system's reason and error number (`code`,
// taken before anything else can change errno).
[[noreturn]] inline void throw_file_error(const std::string &path, const char *action, int code) {
  throw file_error(path, action, std::strerror(code), code);
}

// Threads for host copies and file reads: min(8, hardware threads). One core copies far slower
// than a PCIe 5 link moves data; eight leave the rest of a large machine to other work.
inline unsigned host_threads() {
  return std::min(8u, std::max(1u, std::thread::hardware_concurrency()));
}

// A file opened for reading, closed when this goes.
class file_descriptor {
public:
  explicit file_descriptor(const std::string &path)
      : fd_(::open(path.c_str(), O_RDONLY | O_CLOEXEC)) {
    if (fd_ < 0) throw_file_error(path, "open", errno);
  }
  file_descriptor(const file_descriptor &) = delete;
  file_descriptor &operator=(const file_descriptor &) = delete;
  ~file_descriptor() { ::close(fd_); }

  int get() const { return fd_; }

private:
  int fd_;
};

// The size of a regular file; nothing for anything else (a pipe, a terminal, a directory).
inline std::optional<std::uint64_t> regular_file_size(int fd) {
  struct stat info;
  if (::fstat(fd, &info) != 0 || !S_ISREG(info.st_mode)) return std::nullopt;
  return static_cast<std::uint64_t>(info.st_size);
}

// The largest pipe buffer an unprivileged process may ask for (/proc/sys/fs/pipe-max-size,
// 1 MiB by default), at most 16 MiB; 1 MiB where it cannot be read.
inline int pipe_max_size() {
  long bytes = 1 << 20;
  if (std::FILE *f = std::fopen("/proc/sys/fs/pipe-max-size", "r")) {
    if (std::fscanf(f, "%ld", &bytes) != 1) bytes = 1 << 20;
    std::fclose(f);
  }
  return static_cast<int>(std::min<long>(std::max<long>(bytes, 1 << 20), 16 << 20));
}

// Widens a pipe's buffer to pipe_max_size(), so that a writer such as `cat` blocks less often and
// each read takes a MiB or more, not 64 KiB: fewer wake-ups of both ends. Anything but a pipe is
// left as it is; where the system refuses (a user over its pipe pages), 1 MiB is tried, then
// the pipe is left as it is.
inline void widen_pipe(int fd) {
#ifdef F_SETPIPE_SZ
  struct stat info;
  if (::fstat(fd, &info) != 0 || !S_ISFIFO(info.st_mode)) return;
  const int wanted = pipe_max_size();
  if (::fcntl(fd, F_SETPIPE_SZ, wanted) < 0 && wanted > (1 << 20))
    (void)::fcntl(fd, F_SETPIPE_SZ, 1 << 20);
#else
  (void)fd;
#endif
}

// Up to `capacity` bytes from the descriptor's position, 0 only at its end; `name` names it in
// errors.
inline std::size_t read_some(int fd, const std::string &name, std::uint8_t *buffer,
                             std::size_t capacity) {
  for (;;) {
    const ssize_t got = ::read(fd, buffer, capacity);
    if (got >= 0) return static_cast<std::size_t>(got);
    if (errno != EINTR) throw_file_error(name, "read", errno);
  }
}

// Reads ranges ("pieces") of a regular file of known size into the caller's memory with several
// threads, in the order asked. Each piece is cut into blocks of block_bytes that the threads take
// in turn with pread, so all of them work on the oldest piece first and go on to the next asked
// without waiting for the caller: asking for two pieces ahead keeps them busy while the caller
// uploads. Blocks are large enough that a read costs far more than taking one; small enough that
// the threads share a piece evenly and keep a disk's queue full.
class parallel_file_reader {
public:
  static constexpr std::uint64_t block_bytes = std::uint64_t(1) << 20;

  // `size`: the file's size when opened; a read that ends before it is an error.
  parallel_file_reader(int fd, const std::string &path, std::uint64_t size, unsigned threads)
      : fd_(fd), path_(path), size_(size) {
    try {
      for (unsigned i = 0; i < std::max(1u, threads); ++i)
        threads_.emplace_back([this] { work(); });
    } catch (...) { // no thread to be had: the ones started must not outlive this
      stop();
      throw;
    }
  }
  parallel_file_reader(const parallel_file_reader &) = delete;
  parallel_file_reader &operator=(const parallel_file_reader &) = delete;

  // Stops after the blocks being read (their memory must outlive this), never throws.
  ~parallel_file_reader() { stop(); }

  // Asks for bytes [offset, offset + bytes) of the file in `into`; returns at once.
  void request(std::uint8_t *into, std::uint64_t offset, std::uint64_t bytes) {
    if (bytes == 0) return;
    {
      const std::lock_guard<std::mutex> lock(mutex_);
      pieces_.push_back({into, offset, bytes, 0, 0, {}});
    }
    work_ready_.notify_all();
  }

  // Waits until the oldest piece asked and not yet waited for is read; throws its first failure.
  void wait_oldest() {
    std::unique_lock<std::mutex> lock(mutex_);
    piece_done_.wait(lock, [&] { return pieces_.front().done == pieces_.front().bytes; });
    const std::exception_ptr failure = pieces_.front().failure;
    pieces_.pop_front();
    --handing_; // the piece was done, so all its blocks had been handed out
    if (failure) std::rethrow_exception(failure);
  }

private:
  struct piece {
    std::uint8_t *into;
    std::uint64_t offset, bytes;
    std::uint64_t handed = 0, done = 0; // bytes given to threads, bytes read (or failed)
    std::exception_ptr failure;
  };

  void stop() {
    {
      const std::lock_guard<std::mutex> lock(mutex_);
      stopping_ = true;
    }
    work_ready_.notify_all();
    for (auto &thread : threads_)
      thread.join();
  }

  void work() {
    std::unique_lock<std::mutex> lock(mutex_);
    for (;;) {
      work_ready_.wait(lock, [&] { return stopping_ || handing_ < pieces_.size(); });
      if (stopping_) return;
      piece &p = pieces_[handing_]; // stays put: a deque grows and shrinks at its ends only
      const std::uint64_t at = p.handed, take = std::min(block_bytes, p.bytes - at);
      p.handed += take;
      if (p.handed == p.bytes) ++handing_;
      lock.unlock();
      std::exception_ptr failure;
      try {
        read_block(p.into + at, p.offset + at, take);
      } catch (...) {
        failure = std::current_exception();
      }
      lock.lock();
      if (failure && !p.failure) p.failure = failure;
      p.done += take;
      if (p.done == p.bytes) piece_done_.notify_all();
    }
  }

  void read_block(std::uint8_t *into, std::uint64_t offset, std::uint64_t bytes) const {
    while (bytes > 0) {
      const ssize_t got =
          ::pread(fd_, into, static_cast<std::size_t>(bytes), static_cast<off_t>(offset));
      if (got < 0 && errno == EINTR) continue;
      if (got < 0) throw_file_error(path_, "read", errno);
      if (got == 0)
        throw file_error(path_, "read",
                         "it ends at byte " + std::to_string(offset) + ", before the " +
                             std::to_string(size_) + " bytes it had when opened (it shrank)");
      into += got;
      offset += static_cast<std::uint64_t>(got);
      bytes -= static_cast<std::uint64_t>(got);
    }
  }

  const int fd_;
  const std::string path_;
  const std::uint64_t size_;
  std::mutex mutex_;
  std::condition_variable work_ready_, piece_done_;
  std::deque<piece> pieces_; // asked and not yet waited for, oldest first
  std::size_t handing_ = 0;  // index of the first piece with blocks not yet handed out
  bool stopping_ = false;
  std::vector<std::thread> threads_; // last: they start once everything else is set up
};

// Threads reading a regular file of `size` bytes: `wanted` (0: host_threads()), at most one per
// block.
inline unsigned file_read_threads(std::uint64_t size, unsigned wanted) {
  const std::uint64_t blocks =
      (size + parallel_file_reader::block_bytes - 1) / parallel_file_reader::block_bytes;
  return static_cast<unsigned>(std::max<std::uint64_t>(
      1, std::min<std::uint64_t>(wanted ? wanted : host_threads(), blocks)));
}

} // namespace detail
} // namespace merklize
