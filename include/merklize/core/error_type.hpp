// SPDX-License-Identifier: Apache-2.0 OR MIT
// merklize::error, the base of every exception merklize throws, without the OpenCL headers, so
// that the host-only parts (BLAKE3, trees, proofs) compile without OpenCL. error.hpp adds the
// OpenCL errors.
#pragma once

#include <stdexcept>
#include <string>

namespace merklize {

class error : public std::runtime_error {
public:
  using std::runtime_error::runtime_error;
};

// A file that cannot be opened or read: "cannot <action> <path>: <reason>". reason() alone (the
// system's words, e.g. "No such file or directory") is for messages that name the file their
// own way, as `merklize b3sum` does; code() is the system's error number (errno), 0 where the
// failure is not the system's (a file that shrank).
class file_error : public error {
public:
  file_error(const std::string &path, const std::string &action, const std::string &reason,
             int code = 0)
      : error("cannot " + action + " " + path + ": " + reason), path_(path), reason_(reason),
        code_(code) {}
  const std::string &path() const noexcept { return path_; }
  const std::string &reason() const noexcept { return reason_; }
  int code() const noexcept { return code_; }

private:
  std::string path_;
  std::string reason_;
  int code_;
};

} // namespace merklize
