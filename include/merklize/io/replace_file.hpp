// SPDX-License-Identifier: Apache-2.0 OR MIT
// Writing a file whole, so that a reader sees the old content or all of the new, and no
// temporary file outlives the process that wrote it:
//   - a regular file (or a new one) is written to an unnamed file in its folder (O_TMPFILE),
//     which gets a name only to be renamed over the file at once; where the filesystem has no
//     O_TMPFILE, to "<file>.tmp-PID-N", removed if SIGINT, SIGTERM or SIGHUP ends the process;
//     either way a temporary file of a process that has ended is removed by the next write;
//   - where asked (replace_file_options::as_cp, the command line's outputs), a file that is
//     there is replaced as cp writes over it: one the process may not write (no write permission
//     for it: root may write any) is refused before anything is made, and the new file keeps the
//     old one's permission bits, and its owner and group where the process may give them (root;
//     else the group where the process is in it); the library's own files (the program cache's
//     entries) are new files of the process's own instead, as an untrusted entry's replacement
//     must be;
//   - a symbolic link is followed to its target, which is written as above (the link stays);
//   - anything else (a character device, a FIFO, a socket) and what is reached through /dev or
//     /proc (/dev/stdout) is written in place, as cp and tee write: it is never replaced.
// Public: replace_file and its replace_file_options. Needs no OpenCL.
#pragma once

#include "file_io.hpp"

#include <atomic>
#include <cerrno>
#include <csignal>
#include <cstring>
#include <filesystem>
#include <optional>
#include <string>

#include <fcntl.h>
#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>

namespace merklize {

// How replace_file writes a file (the top of this file).
struct replace_file_options {
  mode_t mode = 0644; // a new file's, less the umask (with as_cp, one that is there keeps its own)
  bool sync = false;  // flushed to the disk before it takes the file's place
  bool as_cp = false; // a file that is there written over as cp writes over it (the top)
};

namespace detail {

inline bool process_ended(pid_t pid) { return ::kill(pid, 0) != 0 && errno == ESRCH; }

// Paths removed if SIGINT, SIGTERM or SIGHUP ends the process: temporary files that have a name,
// and the cache's load marks. The handler is installed on first use, ahead of whatever handled
// the signal before (LLVM, which PoCL loads, installs its own), unless the signal is ignored (as
// nohup ignores SIGHUP): it removes the paths (unlink is async-signal-safe), puts the previous
// disposition back and raises the signal again, for that disposition to end the process as it
// would have.
constexpr int removal_signals[] = {SIGINT, SIGTERM, SIGHUP};

struct signal_removals {
  static constexpr int slots = 32;
  static constexpr std::size_t path_bytes = 4096;
  std::atomic<int> state[slots]; // 0 free, 1 being written, 2 to remove
  char paths[slots][path_bytes];
  struct sigaction previous[3]; // of removal_signals, as found
};
inline signal_removals signal_removal_table{};

inline void remove_on_signal(int signal_number) {
  for (int i = 0; i < signal_removals::slots; ++i)
    if (signal_removal_table.state[i].load(std::memory_order_acquire) == 2)
      ::unlink(signal_removal_table.paths[i]);
  for (int i = 0; i < 3; ++i)
    if (removal_signals[i] == signal_number)
      ::sigaction(signal_number, &signal_removal_table.previous[i], nullptr);
  ::raise(signal_number); // blocked until this returns, then handled as before
}

inline void install_signal_removal() {
  static const bool installed = [] {
    for (int i = 0; i < 3; ++i) {
      struct sigaction &old = signal_removal_table.previous[i];
      if (::sigaction(removal_signals[i], nullptr, &old) != 0 ||
          (!(old.sa_flags & SA_SIGINFO) && old.sa_handler == SIG_IGN))
        continue;
      struct sigaction ours {};
      ours.sa_handler = remove_on_signal;
      sigemptyset(&ours.sa_mask);
      ::sigaction(removal_signals[i], &ours, nullptr);
    }
    return true;
  }();
  (void)installed;
}

// Holds `path` in the table while it lives (not at all where the table is full or the path too
// long: then only the next write's cleanup removes it).
class removed_on_signal {
public:
  explicit removed_on_signal(const std::string &path) {
    if (path.size() >= signal_removals::path_bytes) return;
    install_signal_removal();
    for (int i = 0; i < signal_removals::slots; ++i) {
      int free = 0;
      if (!signal_removal_table.state[i].compare_exchange_strong(free, 1)) continue;
      std::memcpy(signal_removal_table.paths[i], path.c_str(), path.size() + 1);
      signal_removal_table.state[i].store(2, std::memory_order_release);
      slot_ = i;
      return;
    }
  }
  ~removed_on_signal() {
    if (slot_ >= 0) signal_removal_table.state[slot_].store(0, std::memory_order_release);
  }
  removed_on_signal(const removed_on_signal &) = delete;
  removed_on_signal &operator=(const removed_on_signal &) = delete;

private:
  int slot_ = -1;
};

// Temporary names are "<file>.tmp-<pid>-<n>".
inline std::string temp_prefix(const std::filesystem::path &target) {
  return target.filename().string() + ".tmp-";
}

inline std::filesystem::path temp_name(const std::filesystem::path &target) {
  static std::atomic<unsigned> counter{0};
  return target.string() + ".tmp-" + std::to_string(::getpid()) + "-" + std::to_string(counter++);
}

// The process id in a temporary name of `target`'s, if `name` is one.
inline std::optional<pid_t> temp_owner(const std::string &name, const std::string &prefix) {
  if (name.compare(0, prefix.size(), prefix) != 0) return std::nullopt;
  long pid = 0;
  std::size_t i = prefix.size();
  for (; i < name.size() && name[i] >= '0' && name[i] <= '9' && i - prefix.size() < 9; ++i)
    pid = pid * 10 + (name[i] - '0');
  if (pid <= 0 || i == name.size() || name[i] != '-') return std::nullopt;
  return static_cast<pid_t>(pid);
}

// Removes the temporary files of writes to `target` whose processes have ended.
inline void remove_stale_temps(const std::filesystem::path &target) {
  const std::filesystem::path dir = target.has_parent_path() ? target.parent_path() : ".";
  const std::string prefix = temp_prefix(target);
  std::error_code ec;
  for (std::filesystem::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec)) {
    const auto pid = temp_owner(it->path().filename().string(), prefix);
    struct stat status {};
    if (pid && process_ended(*pid) && ::lstat(it->path().c_str(), &status) == 0 &&
        S_ISREG(status.st_mode))
      ::unlink(it->path().c_str());
  }
}

// Where a write to `given` lands: `given` itself where it is written in place, else the regular
// file (which may not exist yet) its symbolic links lead to.
struct destination {
  std::filesystem::path path;
  bool in_place;
};

inline bool under_special_folder(const std::filesystem::path &p) {
  const std::string text = p.lexically_normal().string();
  return text.rfind("/dev/", 0) == 0 || text.rfind("/proc/", 0) == 0;
}

inline destination destination_of(const std::filesystem::path &given) {
  std::filesystem::path p = given;
  bool special = under_special_folder(p);
  for (int hops = 0; hops < 40; ++hops) {
    struct stat status {};
    if (::lstat(p.c_str(), &status) != 0) return {special ? given : p, special};
    if (!S_ISLNK(status.st_mode)) {
      const bool in_place = special || !S_ISREG(status.st_mode);
      return {in_place ? given : p, in_place};
    }
    std::error_code ec;
    const std::filesystem::path target = std::filesystem::read_symlink(p, ec);
    if (ec) return {given, true}; // let opening it say why
    p = target.is_absolute() ? target : p.parent_path() / target;
    special = special || under_special_folder(p);
  }
  throw file_error(given.string(), "write", system_reason(ELOOP), ELOOP);
}

[[noreturn]] inline void write_failed(const std::filesystem::path &path, int code) {
  throw file_error(path.string(), "write", system_reason(code), code);
}

// Writes into what is there, as cp does: opened for writing, truncated where that means anything.
inline void write_in_place(const std::filesystem::path &path, const void *data, std::size_t size,
                           const replace_file_options &options) {
  fd_guard fd(::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, options.mode));
  if (fd.get() < 0) write_failed(path, errno);
  int failure = write_all(fd.get(), static_cast<const unsigned char *>(data), size);
  const int closing = fd.close();
  if (failure || closing) write_failed(path, failure ? failure : closing);
}

// Gives the written unnamed file `fd` a temporary name, then renames it over `target`. Returns
// false, having changed nothing, where it cannot be linked (no /proc, and no privilege to link
// the descriptor itself).
inline bool link_over(int fd, const std::filesystem::path &target) {
  const std::filesystem::path temp = temp_name(target);
  const removed_on_signal removal(temp.string());
  const std::string self = "/proc/self/fd/" + std::to_string(fd);
  if (::linkat(AT_FDCWD, self.c_str(), AT_FDCWD, temp.c_str(), AT_SYMLINK_FOLLOW) != 0 &&
      ::linkat(fd, "", AT_FDCWD, temp.c_str(), AT_EMPTY_PATH) != 0)
    return false;
  if (::rename(temp.c_str(), target.c_str()) != 0) {
    const int code = errno;
    ::unlink(temp.c_str());
    write_failed(target, code);
  }
  return true;
}

// What the new content of a file that is there keeps of it.
struct kept_attributes {
  mode_t mode; // its permission bits, set-user-ID and the like included
  uid_t owner;
  gid_t group;
};

// The attributes of the file at `target`, nothing where there is none yet. A file the process
// may not write is refused, as cp, tee and the shell's > refuse it ("Permission denied"): its
// folder's permission would let the file be replaced, but its own says it is not to be written.
inline std::optional<kept_attributes> existing_attributes(const std::filesystem::path &target) {
  struct stat status {};
  if (::stat(target.c_str(), &status) != 0) return std::nullopt; // a new file
  if (::faccessat(AT_FDCWD, target.c_str(), W_OK, AT_EACCESS) != 0 && errno != ENOENT)
    write_failed(target, errno);
  return kept_attributes{status.st_mode & 07777, status.st_uid, status.st_gid};
}

// Gives the new file `fd` the old one's owner (where the process may: root), else its group
// (where the process is in it), and its permission bits, before any byte is written: a file of
// mode 0600 is never readable by others, not even for a moment. The set-user-ID and set-group-ID
// bits are kept only with the owner, as the kernel drops them where another user writes a file.
inline int keep_attributes(int fd, const kept_attributes &old) {
  const auto set_mode = [fd](mode_t mode) { return ::fchmod(fd, mode) != 0 ? errno : 0; };
  if (::fchown(fd, old.owner, old.group) == 0) return set_mode(old.mode);
  // Where the process is not in the group either, the new file's is the process's, as for a
  // file it creates.
  if (::fchown(fd, static_cast<uid_t>(-1), old.group) != 0 && errno != EPERM) return errno;
  return set_mode(old.mode & ~mode_t(S_ISUID | S_ISGID));
}

// The mode a replacing file is made with: private until keep_attributes gives it the old one's.
inline mode_t creation_mode(const std::optional<kept_attributes> &old,
                            const replace_file_options &options) {
  return old ? mode_t(0600) : options.mode;
}

// The data in `fd` (given the old file's attributes first, where there was one), flushed if
// asked; 0 or the error.
inline int fill(int fd, const void *data, std::size_t size, const replace_file_options &options,
                const std::optional<kept_attributes> &old) {
  if (old)
    if (const int failure = keep_attributes(fd, *old)) return failure;
  const int failure = write_all(fd, static_cast<const unsigned char *>(data), size);
  if (failure) return failure;
  return options.sync && ::fsync(fd) != 0 ? errno : 0;
}

// A regular file's new content through "<target>.tmp-PID-N", which the signals remove.
inline void replace_through_named(const std::filesystem::path &target, const void *data,
                                  std::size_t size, const replace_file_options &options,
                                  const std::optional<kept_attributes> &old = std::nullopt) {
  const std::filesystem::path temp = temp_name(target);
  const removed_on_signal removal(temp.string());
  // O_EXCL: never write through whatever (a link, say) already has the temporary name.
  fd_guard named(
      ::open(temp.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, creation_mode(old, options)));
  if (named.get() < 0) write_failed(target, errno);
  int failure = fill(named.get(), data, size, options, old);
  const int closing = named.close();
  if (!failure) failure = closing;
  if (!failure && ::rename(temp.c_str(), target.c_str()) != 0) failure = errno;
  if (failure) {
    ::unlink(temp.c_str());
    write_failed(target, failure);
  }
}

// A regular file's new content, through an unnamed temporary file in its folder where the
// filesystem makes one (O_TMPFILE), else a named one.
inline void replace_regular(const std::filesystem::path &target, const void *data, std::size_t size,
                            const replace_file_options &options) {
  const std::optional<kept_attributes> old =
      options.as_cp ? existing_attributes(target) : std::nullopt;
  remove_stale_temps(target);
  const std::filesystem::path dir = target.has_parent_path() ? target.parent_path() : ".";
  fd_guard unnamed(
      ::open(dir.c_str(), O_TMPFILE | O_WRONLY | O_CLOEXEC, creation_mode(old, options)));
  if (unnamed.get() >= 0) {
    if (const int failure = fill(unnamed.get(), data, size, options, old))
      write_failed(target, failure);
    if (link_over(unnamed.get(), target)) return;
  } else if (errno != EOPNOTSUPP && errno != EISDIR && errno != EINVAL) {
    write_failed(target, errno);
  }
  replace_through_named(target, data, size, options, old);
}

} // namespace detail

// Writes `size` bytes at `data` as the whole content of `path` (see the top of this file). A
// failure is a file_error naming `path` and the system's reason; the old content is then intact
// (but for what is written in place). Public, as the one way the library and its tools write a
// file whole, so that a caller's own outputs (a root, a proof, a log's tiles) get the same
// guarantees.
inline void replace_file(const std::filesystem::path &path, const void *data, std::size_t size,
                         const replace_file_options &options = {}) {
  const detail::destination to = detail::destination_of(path);
  if (to.in_place)
    detail::write_in_place(to.path, data, size, options);
  else
    detail::replace_regular(to.path, data, size, options);
}

namespace detail {

// The library's own files (program cache entries, ahead-of-time kernels' meta files): written
// whole, mode 0644 less the umask.
inline void write_file_atomically(const std::filesystem::path &path, const void *data,
                                  std::size_t size) {
  replace_file(path, data, size);
}

} // namespace detail
} // namespace merklize
