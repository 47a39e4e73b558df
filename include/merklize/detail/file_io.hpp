// Whole-file reads and atomic writes for the ahead-of-time kernels and the program cache.
#pragma once

#include "../error.hpp"

#include <atomic>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <system_error>
#include <vector>

#include <unistd.h>

namespace merklize {
namespace detail {

inline std::vector<unsigned char> read_file(const std::filesystem::path &path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw error("cannot open " + path.string());
  std::vector<unsigned char> bytes(std::istreambuf_iterator<char>(in), {});
  if (in.bad()) throw error("cannot read " + path.string());
  return bytes;
}

// Writes to a temporary file beside `path`, then renames it over `path`: a reader, in this
// process or another, sees the old file or the whole new one, never a part.
inline void write_file_atomically(const std::filesystem::path &path, const void *data,
                                  std::size_t size) {
  static std::atomic<unsigned> counter{0};
  const std::filesystem::path temp =
      path.string() + ".tmp-" + std::to_string(::getpid()) + "-" + std::to_string(counter++);
  {
    std::ofstream out(temp, std::ios::binary | std::ios::trunc);
    out.write(static_cast<const char *>(data), static_cast<std::streamsize>(size));
    out.close();
    if (!out) {
      std::error_code ignored;
      std::filesystem::remove(temp, ignored);
      throw error("cannot write " + temp.string());
    }
  }
  std::error_code ec;
  std::filesystem::rename(temp, path, ec);
  if (ec) {
    const std::string reason = ec.message();
    std::filesystem::remove(temp, ec);
    throw error("cannot rename " + temp.string() + " to " + path.string() + ": " + reason);
  }
}

} // namespace detail
} // namespace merklize
