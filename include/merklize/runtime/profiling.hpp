// SPDX-License-Identifier: Apache-2.0 OR MIT
// Profiled times of commands on a device, and the timeline of a host call: shared by every
// device class (queues are made with profiling on, detail::device_runtime::make_queue).
//
// Times are statistics, never part of a result: a command whose times the driver does not give
// (clGetEventProfilingInfo fails) counts as NaN, and a timeline leaves it out.
#pragma once

#include "error.hpp"

#include <algorithm>
#include <chrono>
#include <limits>
#include <optional>
#include <utility>
#include <vector>

namespace merklize {
namespace detail {

// A finished command's start and end on the device's clock, in nanoseconds.
inline std::pair<cl_ulong, cl_ulong> event_ns(const cl::Event &event) {
  cl_ulong start = 0, end = 0;
  call("clGetEventProfilingInfo",
       [&] { return event.getProfilingInfo(CL_PROFILING_COMMAND_START, &start); });
  call("clGetEventProfilingInfo",
       [&] { return event.getProfilingInfo(CL_PROFILING_COMMAND_END, &end); });
  return {start, end};
}

// The same where the driver gives them, else nothing: for statistics.
inline std::optional<std::pair<cl_ulong, cl_ulong>> profiled_ns(const cl::Event &event) {
  cl_ulong start = 0, end = 0;
  if (clGetEventProfilingInfo(event(), CL_PROFILING_COMMAND_START, sizeof start, &start, nullptr) !=
          CL_SUCCESS ||
      clGetEventProfilingInfo(event(), CL_PROFILING_COMMAND_END, sizeof end, &end, nullptr) !=
          CL_SUCCESS)
    return std::nullopt;
  return std::make_pair(start, end);
}

inline double ms_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start)
      .count();
}

} // namespace detail

// Execution time of a finished command, from its profiling information; NaN where the driver
// does not give it.
inline double event_ms(const cl::Event &event) {
  const auto times = detail::profiled_ns(event);
  if (!times) return std::numeric_limits<double>::quiet_NaN();
  return static_cast<double>(times->second - times->first) * 1e-6;
}

// The sum of event_ms; NaN if any is.
inline double events_ms(const std::vector<cl::Event> &events) {
  double total = 0;
  for (const auto &e : events)
    total += event_ms(e);
  return total;
}

// A command of a host call on the device's clock, in milliseconds from the start of the call's
// first command: where copies and kernels overlap or wait.
struct command_span {
  enum class kind { upload, kernel, download } what;
  double start_ms, end_ms;
};

namespace detail {

// The commands a host call enqueued, by kind; read once they have finished.
struct event_log {
  std::vector<cl::Event> uploads, kernels, downloads;

  void clear() {
    uploads.clear();
    kernels.clear();
    downloads.clear();
  }

  // Every command whose times the driver gives, ordered by start.
  std::vector<command_span> timeline() const {
    struct command {
      command_span::kind what;
      cl_ulong start, end;
    };
    std::vector<command> commands;
    const auto add = [&](const std::vector<cl::Event> &events, command_span::kind what) {
      for (const auto &e : events)
        if (const auto times = profiled_ns(e))
          commands.push_back({what, times->first, times->second});
    };
    add(uploads, command_span::kind::upload);
    add(kernels, command_span::kind::kernel);
    add(downloads, command_span::kind::download);
    std::sort(commands.begin(), commands.end(),
              [](const command &a, const command &b) { return a.start < b.start; });
    // Differences of the integer nanoseconds: a double holds a device clock's ~1e18 ns only to
    // about 256 ns (NVIDIA's clock; found by the timeline test on an H200).
    std::vector<command_span> spans;
    for (const auto &c : commands)
      spans.push_back({c.what, double(c.start - commands.front().start) * 1e-6,
                       double(c.end - commands.front().start) * 1e-6});
    return spans;
  }
};

} // namespace detail
} // namespace merklize
