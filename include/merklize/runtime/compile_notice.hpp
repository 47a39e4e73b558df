// SPDX-License-Identifier: Apache-2.0 OR MIT
// The one line said before kernels are compiled, so that a first use's pause (the driver
// compiling from source, seconds on PoCL) does not look like a hang:
//
//   merklize: compiling kernels for DEVICE (once; cached in DIR)
//
// on stderr, at most once a process, and only before a real compile: a program the disk cache
// gives says nothing. A process that waits for another compiling the same kernels into the same
// cache (compile_lock.hpp) says, once:
//
//   merklize: waiting for another process compiling kernels for DEVICE into DIR
// Who wants it is set by set_compile_notice(); left unset, $MERKLIZE_VERBOSE=1
// turns it on and anything else leaves it off, so the library is silent unless asked. The
// merklize tool asks for it where stderr is a terminal, and with -v wherever stderr goes.
#pragma once

#include "device.hpp"

#include <cstdlib>
#include <cstring>
#include <iostream>
#include <mutex>
#include <optional>
#include <string>
#include <unistd.h>

namespace merklize {

enum class compile_notice {
  off,         // never
  on_terminal, // where stderr is a terminal
  on,          // wherever stderr goes
};

namespace detail {

struct compile_notice_state {
  std::mutex mutex;
  std::optional<compile_notice> mode; // unset: $MERKLIZE_VERBOSE decides
  bool said = false, said_wait = false;
};

inline compile_notice_state &compile_notice_settings() {
  static compile_notice_state state;
  return state;
}

inline bool compile_notice_wanted(const std::optional<compile_notice> &mode) {
  const char *env = std::getenv("MERKLIZE_VERBOSE");
  const compile_notice chosen =
      mode.value_or(env && std::strcmp(env, "1") == 0 ? compile_notice::on : compile_notice::off);
  return chosen == compile_notice::on ||
         (chosen == compile_notice::on_terminal && ::isatty(STDERR_FILENO) == 1);
}

// Says that the device's kernels are about to be compiled, the first time a process compiles
// any; `cache_folder` is where the result is kept, empty where the disk cache is off.
inline void announce_compile(const cl::Device &device, const std::string &cache_folder) {
  auto &state = compile_notice_settings();
  std::lock_guard<std::mutex> lock(state.mutex);
  if (state.said || !compile_notice_wanted(state.mode)) return;
  state.said = true;
  std::cerr << "merklize: compiling kernels for " << name_in_message(device)
            << (cache_folder.empty() ? std::string(" (each run: the program cache is off)")
                                     : " (once; cached in " + cache_folder + ")")
            << std::endl;
}

// Says that another process is compiling the device's kernels into `cache_folder`, and that this
// one waits for them, the first time a process waits.
inline void announce_wait(const cl::Device &device, const std::string &cache_folder) {
  auto &state = compile_notice_settings();
  std::lock_guard<std::mutex> lock(state.mutex);
  if (state.said_wait || !compile_notice_wanted(state.mode)) return;
  state.said_wait = true;
  std::cerr << "merklize: waiting for another process compiling kernels for "
            << name_in_message(device) << " into " << cache_folder << std::endl;
}

} // namespace detail

// Whether the lines above are printed: std::nullopt (the default) defers to $MERKLIZE_VERBOSE.
inline void set_compile_notice(std::optional<compile_notice> mode) {
  auto &state = detail::compile_notice_settings();
  std::lock_guard<std::mutex> lock(state.mutex);
  state.mode = mode;
}

} // namespace merklize
