// SPDX-License-Identifier: Apache-2.0 OR MIT
// The lock that has processes sharing the program cache compile a program once. The first
// process to miss an entry holds "<entry>.compiling" (flock) while it compiles and stores the
// program; another that misses the same entry meanwhile waits, then loads what the first stored.
// Without it, jobs started together on an empty cache (a test suite, a build farm's first runs)
// each compiled every program, minutes for the largest on PoCL, on the same cores.
//
// The holder removes the file before it lets go, and a process that gets the lock checks that
// the path still names the file it locked, so no two hold it at once. A process killed while
// holding it leaves the file unlocked (SIGINT, SIGTERM and SIGHUP remove it), and the next
// process takes it at once. A wait gives up after its patience, and a folder that cannot hold
// the file gives up at once: the caller then compiles without the lock. Needs no OpenCL.
#pragma once

#include "file_io.hpp"
#include "replace_file.hpp"

#include <cerrno>
#include <chrono>
#include <filesystem>
#include <functional>
#include <optional>
#include <string>
#include <thread>

#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

namespace merklize {
namespace detail {

constexpr const char compile_lock_suffix[] = ".compiling";

// Longer than the slowest compile seen (Poseidon2 over BN254 on PoCL 3.1: about 300 s).
constexpr std::chrono::seconds compile_lock_patience{600};

// Locks the open lock file `fd` without waiting, and says whether `path` still names it (its
// holder removes it before letting go, so a file locked after that is no one's lock).
enum class lock_attempt { held, busy, failed };
inline lock_attempt lock_if_named(int fd, const std::string &path) {
  if (::flock(fd, LOCK_EX | LOCK_NB) != 0)
    return errno == EWOULDBLOCK ? lock_attempt::busy : lock_attempt::failed;
  struct stat locked {
  }, named{};
  if (::fstat(fd, &locked) != 0) return lock_attempt::failed;
  return ::stat(path.c_str(), &named) == 0 && named.st_dev == locked.st_dev &&
                 named.st_ino == locked.st_ino
             ? lock_attempt::held
             : lock_attempt::busy;
}

class compile_lock {
public:
  // Takes the lock of the cache entry `entry`. Where another process holds it, calls `on_wait`
  // once and waits, at most `patience`.
  compile_lock(const std::filesystem::path &entry, std::chrono::milliseconds patience,
               const std::function<void()> &on_wait)
      : path_(entry.string() + compile_lock_suffix) {
    const auto give_up = std::chrono::steady_clock::now() + patience;
    for (;;) {
      if (try_once() != lock_attempt::busy) return;
      if (!waited_ && on_wait) on_wait();
      waited_ = true;
      if (std::chrono::steady_clock::now() >= give_up) return;
      std::this_thread::sleep_for(std::chrono::milliseconds(25));
    }
  }
  ~compile_lock() {
    if (fd_ < 0) return;
    ::unlink(path_.c_str()); // before the lock goes: a waiter that gets it then opens a new file
    ::close(fd_);
  }
  compile_lock(const compile_lock &) = delete;
  compile_lock &operator=(const compile_lock &) = delete;

  bool held() const { return fd_ >= 0; }
  // Whether another process held it when this one came: its program may be in the cache now.
  bool waited() const { return waited_; }

private:
  lock_attempt try_once() {
    fd_guard fd(::open(path_.c_str(), O_RDWR | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0600));
    if (fd.get() < 0) return lock_attempt::failed; // no folder, no room, or a link there
    const lock_attempt tried = lock_if_named(fd.get(), path_);
    if (tried != lock_attempt::held) return tried;
    removal_.emplace(path_);
    fd_ = ::dup(fd.get());
    return fd_ >= 0 ? lock_attempt::held : lock_attempt::failed;
  }

  std::string path_;
  std::optional<removed_on_signal> removal_; // only once held: a waiter's end removes nothing
  int fd_ = -1;
  bool waited_ = false;
};

// Removes the lock file at `path` where no process holds it (its holder was killed with
// SIGKILL), as a holder would: under the lock, where the path still names the file locked.
inline void remove_stale_compile_lock(const std::filesystem::path &path) {
  fd_guard fd(::open(path.c_str(), O_RDWR | O_NOFOLLOW | O_CLOEXEC));
  if (fd.get() >= 0 && lock_if_named(fd.get(), path.string()) == lock_attempt::held)
    ::unlink(path.c_str());
}

} // namespace detail
} // namespace merklize
