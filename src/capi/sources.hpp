// SPDX-License-Identifier: Apache-2.0 OR MIT
// A merklize_source checked and opened: bytes in host memory, or a merklize::input (a file by
// its path, or a descriptor) that the library streams. Errors name the source: its path, "file
// descriptor 3", or "the data in memory".
#pragma once

#include "capi.hpp"

#include <merklize/io/input.hpp>

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace merklize {
class block_hasher;
struct device_leaves;
struct leaf_rule;
} // namespace merklize

namespace merklize_capi {

// Bytes in host memory, not owned.
struct byte_view {
  const std::uint8_t *data;
  std::uint64_t size;
};

class opened_source {
public:
  // Opens a path at once, so that a missing file fails before any device work.
  opened_source(const merklize_source *source, const char *function);

  bool in_memory() const { return !input_; }
  // Host memory: the bytes and their count.
  const std::uint8_t *data() const { return data_; }
  std::uint64_t size() const { return size_; }
  // A path or a descriptor. Its reads are counted: bytes_read() after a streamed build.
  merklize::input &input() { return *input_; }
  std::uint64_t bytes_read() const { return *read_; }
  const std::string &name() const { return name_; }

  // Every byte: host memory as it is, an input read to its end (and refused if it changed
  // size while it was read), after which the source is in memory: its bytes are those read.
  // The view lives as long as this source.
  byte_view whole();

private:
  const std::uint8_t *data_ = nullptr;
  std::uint64_t size_ = 0;
  std::unique_ptr<merklize::input> input_;
  std::shared_ptr<std::uint64_t> read_ = std::make_shared<std::uint64_t>(0);
  std::string name_;
  std::vector<std::uint8_t> whole_;
};

// A source's leaves on the device: its data blocks hashed by `rule`, or as given (32-byte
// leaves). Host memory is read into the device's staging piece by piece, as a file is.
device_leaves leaves_of(block_hasher &h, opened_source &source, const leaf_rule &rule);
device_leaves leaves_as_given(block_hasher &h, opened_source &source);
// The chaining values of a source's BLAKE3 chunks (Bao).
device_leaves chunk_cvs_of(block_hasher &h, opened_source &source);

} // namespace merklize_capi
