// SPDX-License-Identifier: Apache-2.0 OR MIT
// The program cache's folder: whom it and its entries may belong to, the temporary files of
// writes that were cut short, and the marks of entries being loaded. Needs no OpenCL.
//
// The folder is trusted as a compiler's cache is (ccache): its entries are native code that the
// driver loads into the process. So the folder and every entry must belong to the user running
// the process and be writable by no one else; anything else is refused with a warning.
#pragma once

#include "compile_lock.hpp"
#include "replace_file.hpp"

#include <cerrno>
#include <cstdio>
#include <ctime>
#include <filesystem>
#include <optional>
#include <string>

#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>

namespace merklize {
namespace detail {

// Why a file or folder of the cache, as stat() describes it, is not to be trusted, or nothing.
inline std::optional<std::string> untrusted_reason(const struct stat &status) {
  if (status.st_uid != ::geteuid())
    return "it belongs to uid " + std::to_string(status.st_uid) + ", not to uid " +
           std::to_string(::geteuid()) + " running this process";
  if (status.st_mode & (S_IWGRP | S_IWOTH)) {
    char mode[8];
    std::snprintf(mode, sizeof mode, "%04o", static_cast<unsigned>(status.st_mode & 07777));
    return std::string("it is writable by ") +
           ((status.st_mode & S_IWGRP) && (status.st_mode & S_IWOTH) ? "its group and others"
            : (status.st_mode & S_IWGRP)                             ? "its group"
                                                                     : "others") +
           " (mode " + mode + ")";
  }
  return std::nullopt;
}

// Why the cache may not use `dir`, or nothing. A folder that does not exist yet, or a path that
// is no folder, is not refused here: the first store creates the folder, or says why it cannot.
inline std::optional<std::string> cache_folder_refusal(const std::filesystem::path &dir) {
  struct stat status {};
  if (::stat(dir.c_str(), &status) != 0)
    return errno == ENOENT || errno == ENOTDIR ? std::nullopt
                                               : std::optional<std::string>(system_reason(errno));
  if (!S_ISDIR(status.st_mode)) return std::nullopt;
  return untrusted_reason(status);
}

// Creates the cache folder where it is missing (mode 0700, its parents as the umask says) and
// checks that it may be used; throws the reason where it may not.
inline void make_cache_folder(const std::filesystem::path &dir) {
  std::error_code ec;
  if (dir.has_parent_path()) std::filesystem::create_directories(dir.parent_path(), ec);
  if (::mkdir(dir.c_str(), 0700) != 0 && errno != EEXIST)
    throw error("cannot create the folder " + dir.string() + ": " + system_reason(errno));
  struct stat status {};
  if (::stat(dir.c_str(), &status) != 0)
    throw error("cannot examine " + dir.string() + ": " + system_reason(errno));
  if (!S_ISDIR(status.st_mode)) throw error(dir.string() + " is not a folder");
  if (auto reason = untrusted_reason(status))
    throw error("the folder " + dir.string() + " is not trusted: " + *reason);
}

// Entries are "<name>-<key>.bin"; these follow an entry's name in the names of its temporary
// files (replace_file.hpp) and of the marks of processes loading it.
constexpr const char cache_temp_infix[] = ".bin.tmp-";
constexpr const char load_mark_infix[] = ".loading-";

// The process id a name ends with after `prefix`, or nothing where it holds anything else.
inline std::optional<pid_t> pid_after(const std::string &name, const std::string &prefix) {
  if (name.compare(0, prefix.size(), prefix) != 0 || name.size() == prefix.size() ||
      name.size() - prefix.size() > 9)
    return std::nullopt;
  long pid = 0;
  for (std::size_t i = prefix.size(); i < name.size(); ++i) {
    if (name[i] < '0' || name[i] > '9') return std::nullopt;
    pid = pid * 10 + (name[i] - '0');
  }
  if (pid <= 0) return std::nullopt; // kill() takes 0 and below as process groups
  return static_cast<pid_t>(pid);
}

// Removes the temporary files of entries whose writers have ended, or last written more than a
// minute ago (a younger one of a live process may still be being written), the marks of
// processes that ended while loading an entry that is gone since, and the compile locks of
// processes killed while compiling (compile_lock.hpp).
inline void tidy_cache_folder(const std::filesystem::path &dir) {
  std::error_code ec;
  const std::time_t now = std::time(nullptr);
  for (std::filesystem::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec)) {
    const std::filesystem::path path = it->path();
    const std::string name = path.filename().string();
    std::error_code ignored;
    if (const auto temp = name.find(cache_temp_infix); temp != std::string::npos) {
      struct stat status {};
      const auto writer = temp_owner(name, name.substr(0, temp) + cache_temp_infix);
      if (::lstat(path.c_str(), &status) == 0 && S_ISREG(status.st_mode) &&
          (now - status.st_mtime > 60 || (writer && process_ended(*writer))))
        std::filesystem::remove(path, ignored);
    } else if (const auto mark = name.find(load_mark_infix); mark != std::string::npos) {
      const auto pid = pid_after(name, name.substr(0, mark) + load_mark_infix);
      if (pid && process_ended(*pid) &&
          !std::filesystem::exists(dir / name.substr(0, mark), ignored))
        std::filesystem::remove(path, ignored);
    } else if (name.size() > sizeof compile_lock_suffix &&
               name.compare(name.size() - (sizeof compile_lock_suffix - 1),
                            sizeof compile_lock_suffix - 1, compile_lock_suffix) == 0) {
      remove_stale_compile_lock(path);
    }
  }
}

// Marks `entry` as being loaded by this process while it lives: a process that dies in the
// driver while loading a damaged entry leaves its mark, so the next one does not load it again.
// One that SIGINT, SIGTERM or SIGHUP ends (a user's ^C, `timeout`) removes its mark on the way
// out (replace_file.hpp): its end says nothing against the entry, which stays.
class load_mark {
public:
  explicit load_mark(const std::filesystem::path &entry)
      : path_(entry.string() + load_mark_infix + std::to_string(::getpid())), removal_(path_) {
    fd_guard fd(::open(path_.c_str(), O_WRONLY | O_CREAT | O_CLOEXEC, 0644));
    made_ = fd.get() >= 0; // a folder we cannot write: load without a mark
  }
  ~load_mark() {
    if (made_) ::unlink(path_.c_str());
  }
  load_mark(const load_mark &) = delete;
  load_mark &operator=(const load_mark &) = delete;

private:
  std::string path_;
  removed_on_signal removal_;
  bool made_ = false;
};

// The process id of a process that began to load `entry` and ended before it finished, if any;
// removes the marks of all such processes.
inline std::optional<pid_t> ended_loader(const std::filesystem::path &entry) {
  const std::string prefix = entry.filename().string() + load_mark_infix;
  std::optional<pid_t> ended;
  std::error_code ec;
  for (std::filesystem::directory_iterator it(entry.parent_path(), ec), end; !ec && it != end;
       it.increment(ec)) {
    const auto pid = pid_after(it->path().filename().string(), prefix);
    if (!pid || !process_ended(*pid)) continue;
    ended = pid;
    std::error_code ignored;
    std::filesystem::remove(it->path(), ignored);
  }
  return ended;
}

} // namespace detail
} // namespace merklize
