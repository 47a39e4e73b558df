// SPDX-License-Identifier: Apache-2.0 OR MIT
// Memory running out, said in words: "out of memory while reading big.bin (8589934592 bytes,
// 8.0 GiB)" rather than std::bad_alloc.
#pragma once

#include <merklize/core/error_type.hpp>

#include <new>
#include <stdexcept>
#include <string>
#include <utility>

namespace cli {

// The error that replaces std::bad_alloc: "out of memory while <doing>".
inline merklize::error out_of_memory(const std::string &doing) {
  return merklize::error("out of memory while " + doing);
}

// Runs `work`; if memory runs out in it (std::bad_alloc, or std::length_error: a size past what a
// container holds), throws out_of_memory(doing) instead.
template <class Work> decltype(auto) while_doing(const std::string &doing, Work &&work) {
  try {
    return std::forward<Work>(work)();
  } catch (const std::bad_alloc &) {
    throw out_of_memory(doing);
  } catch (const std::length_error &) {
    throw out_of_memory(doing);
  }
}

} // namespace cli
