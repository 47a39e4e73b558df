// SPDX-License-Identifier: Apache-2.0 OR MIT
// The caller's OpenCL events of the C ABI's calls on device buffers (merklize_build_cl,
// merklize_device_tree_append_cl, _update_cl): the events to wait for, taken in, and the event
// given back, retained for the caller.
#pragma once

#include "capi.hpp"

#include <merklize/runtime/error.hpp>
#include <merklize/runtime/opencl.hpp>

#include <string>
#include <vector>

namespace merklize_capi {

// wait[0 .. count) as events retained while held here; a NULL array or event is refused.
inline std::vector<cl::Event> events_of(uint32_t count, struct _cl_event *const *wait,
                                        const char *function) {
  if (count > 0) required(wait, function, "wait");
  std::vector<cl::Event> events;
  for (uint32_t i = 0; i < count; ++i) {
    if (!wait[i])
      throw argument_error(std::string(function) + ": wait[" + std::to_string(i) + "] is NULL");
    events.emplace_back(wait[i], true);
  }
  return events;
}

// `event` retained for the caller, into *done where done is not NULL.
inline void give_event(const cl::Event &event, struct _cl_event **done) {
  if (!done) return;
  merklize::detail::check(clRetainEvent(event()), "clRetainEvent");
  *done = event();
}

} // namespace merklize_capi
