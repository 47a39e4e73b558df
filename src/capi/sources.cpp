// SPDX-License-Identifier: Apache-2.0 OR MIT
#include "sources.hpp"

#include <merklize/engine/block_hasher.hpp>

#include <algorithm>

namespace merklize_capi {
namespace {

const char *const memory_name = "the data in memory";

// `kind` is MERKLIZE_SOURCE_PATH or MERKLIZE_SOURCE_FD.
std::unique_ptr<merklize::input> input_of(const merklize_source &source, int kind,
                                          const char *function) {
  if (kind == MERKLIZE_SOURCE_PATH) {
    required(source.path, function, "source->path");
    return std::make_unique<merklize::input>(source.path);
  }
  if (source.fd < 0)
    throw argument_error(std::string(function) + ": source->fd is " + std::to_string(source.fd) +
                         ", not an open file descriptor");
  return std::make_unique<merklize::input>(source.fd,
                                           "file descriptor " + std::to_string(source.fd));
}

} // namespace

opened_source::opened_source(const merklize_source *source, const char *function) {
  const merklize_source &s = required(source, function, "source");
  const int kind = stored_value(s.kind);
  if (kind == MERKLIZE_SOURCE_MEMORY) {
    if (!s.data && s.size > 0)
      throw argument_error(std::string(function) + ": source->data is NULL and source->size is " +
                           std::to_string(s.size));
    data_ = static_cast<const std::uint8_t *>(s.data);
    size_ = s.size;
    name_ = memory_name;
    return;
  }
  if (kind != MERKLIZE_SOURCE_PATH && kind != MERKLIZE_SOURCE_FD)
    throw argument_error(std::string(function) + ": source->kind is " + std::to_string(kind) +
                         ": MERKLIZE_SOURCE_MEMORY (0), MERKLIZE_SOURCE_PATH (1) or "
                         "MERKLIZE_SOURCE_FD (2)");
  input_ = input_of(s, kind, function);
  name_ = input_->name();
  input_->set_progress([read = read_](std::uint64_t bytes) { *read = bytes; });
}

byte_view opened_source::whole() {
  if (in_memory()) return {data_, size_};
  // A regular file's size is known: one buffer of it and one read past it finds the end.
  constexpr std::uint64_t step = std::uint64_t(16) << 20;
  std::uint64_t used = 0;
  whole_.resize(static_cast<std::size_t>(input_->size().value_or(step) + 1));
  for (;;) {
    if (used == whole_.size()) whole_.resize(2 * whole_.size());
    const std::size_t got = input_->read_some(
        whole_.data() + used,
        static_cast<std::size_t>(std::min<std::uint64_t>(whole_.size() - used, step)));
    if (got == 0) break;
    used += got;
  }
  whole_.resize(static_cast<std::size_t>(used));
  input_->check_unchanged();
  input_.reset();
  data_ = whole_.data();
  size_ = used;
  return {data_, size_};
}

device_leaves leaves_of(block_hasher &h, opened_source &source, const leaf_rule &rule) {
  if (!source.in_memory()) return h.leaves_of(source.input(), rule);
  return h.leaves_of(memory_reader(source.data()), 0, source.size(), rule, source.name());
}

device_leaves leaves_as_given(block_hasher &h, opened_source &source) {
  if (!source.in_memory()) return h.leaves_as_given(source.input());
  if (source.size() == 0) leaf_count_of(0); // refused, as the input's are
  return h.leaves_as_given(memory_reader(source.data()), 0, source.size(), source.name());
}

device_leaves chunk_cvs_of(block_hasher &h, opened_source &source) {
  if (!source.in_memory()) return h.chunk_cvs_of(source.input());
  return h.chunk_cvs_of(memory_reader(source.data()), source.size(), source.name());
}

} // namespace merklize_capi
