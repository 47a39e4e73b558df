// SPDX-License-Identifier: Apache-2.0 OR MIT
// Everything the tools write is checked: a write that fails (a full disk, /dev/full, a file size
// limit) is an error naming what was written to, never a silent truncation and exit status 0.
#pragma once

#include <merklize/core/error_type.hpp>

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

// Writes `text` as the whole content of `path`. A regular file (or a new one, or the target of a
// symbolic link) gets it through an unnamed temporary file in its folder, flushed to disk, then
// renamed over it: it holds the old content or the whole new one, never a part, whatever fails,
// and no temporary file outlives the process. A file that is there is written over as cp writes
// over it: refused where the user may not write it ("Permission denied", the file untouched),
// else its mode, and its owner where the process may keep it, stay. A device, a FIFO or a socket is written in place,
// as cp and tee write (merklize/io/replace_file.hpp); the file stdout is (/dev/stdout, or
// the file it was redirected to) gets `text` through stdout, after what was printed before it.
void write_file_replacing(const std::string &path, std::string_view text);

// An input's output held back until it is whole, then written to stdout at once: a failure
// midway leaves nothing of it on stdout. Past 16 MiB it streams instead, as b3sum's long outputs
// do (`b3sum --length 99999999999 | head` must see its start): only such an output can be cut
// short by a failure.
class held_output {
public:
  void append(const void *data, std::size_t size);
  void append(std::string_view text) { append(text.data(), text.size()); }
  // Writes what is held to stdout, and empties it.
  void release();

private:
  std::string memory_;
  bool streaming_ = false; // past the bound: written as it comes
};

} // namespace cli
