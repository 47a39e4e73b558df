// SPDX-License-Identifier: Apache-2.0 OR MIT
// What the tree benches of one hash share (sha256_bench, keccak_bench): random input made once,
// and a row's builds on the device timed by OpenCL event profiling.
#pragma once

#include <merklize/merklize.hpp>

#include <benchmark/benchmark.h>

#include <cstring>
#include <random>
#include <vector>

namespace bench {

// Random bytes, generated once and shared by every row (prefixes of it).
inline const std::uint8_t *random_input(std::size_t bytes) {
  static std::vector<std::uint8_t> data;
  if (data.size() < bytes) {
    std::mt19937_64 engine(42);
    data.resize(bytes);
    for (std::size_t i = 0; i + 8 <= bytes; i += 8) {
      const std::uint64_t word = engine();
      std::memcpy(data.data() + i, &word, 8);
    }
  }
  return data.data();
}

// Seconds of a row's builds in all: the kernels' own time (each iteration's, UseManualTime), and
// the span from the first kernel's start to the last one's end, launch gaps included.
struct build_seconds {
  double kernels = 0, span = 0;
};

// Runs the row: each iteration builds the tree of the n leaves at `in` into `out`.
inline build_seconds time_builds(benchmark::State &state, merklize::merkleizer &m,
                                 const cl::Buffer &in, std::uint64_t n, const cl::Buffer &out) {
  build_seconds total;
  for (auto _ : state) {
    const auto events = m.enqueue_build(in, n, out);
    events.back().wait();
    const double s = merklize::events_ms(events) * 1e-3;
    state.SetIterationTime(s);
    total.kernels += s;
    cl_ulong first = 0, last = 0;
    events.front().getProfilingInfo(CL_PROFILING_COMMAND_START, &first);
    events.back().getProfilingInfo(CL_PROFILING_COMMAND_END, &last);
    total.span += static_cast<double>(last - first) * 1e-9;
  }
  return total;
}

} // namespace bench
