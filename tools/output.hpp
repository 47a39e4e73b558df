// SPDX-License-Identifier: Apache-2.0 OR MIT
// Everything the tools write is checked: a write that fails (a full disk, /dev/full, a file size
// limit) is an error naming what was written to, never a silent truncation and exit status 0.
#pragma once

#include <merklize/error_type.hpp>

#include <cstddef>
#include <string>
#include <string_view>

namespace cli {

// A write that failed: "cannot write stdout: No space left on device". Its own type, so that a
// command carrying on past a bad input (b3sum) stops at a failed output.
struct output_error : merklize::file_error {
  using merklize::file_error::file_error;
};

// Appends to stdout (buffered); a failed write is an output_error.
void write_stdout(const void *data, std::size_t size);
inline void write_stdout(std::string_view text) { write_stdout(text.data(), text.size()); }

// Flushes and closes stdout, reporting what the last writes ran into (a full disk shows only
// here). Called once, at the end of every tool.
void close_stdout();

// Writes `text` to a temporary file beside `path`, flushed to disk, then renames it over `path`:
// `path` holds the old content or the whole new one, never a part, whatever fails.
void write_file_replacing(const std::string &path, std::string_view text);

} // namespace cli
