// SPDX-License-Identifier: Apache-2.0 OR MIT
// --progress: how far a command has read its input, on stderr, updated in place (a carriage
// return, no newline) at most four times a second, as `pv` and `dd status=progress` show it:
//   reading big.bin: 1.5 GiB of 4.0 GiB (37%), 512.0 MiB/s, 0:00:05 left
// then, once the input is read, a last line with its size, time and average rate:
//   reading big.bin: 4.0 GiB in 0:00:08, 512.0 MiB/s
#pragma once

#include <chrono>
#include <cstdint>
#include <optional>
#include <string>

namespace cli {

// The line for `done` bytes of the input `name` (of `total` bytes, if known) read in `seconds`:
// while reading, the rate and, with a total, the share done and the time left; once `finished`,
// the size, time and average rate.
std::string progress_line(const std::string &name, std::uint64_t done,
                          std::optional<std::uint64_t> total, double seconds, bool finished);

class progress_meter {
public:
  // `on` false: a meter that shows nothing. `total`: the input's size, if known.
  progress_meter(bool on, const std::string &name, std::optional<std::uint64_t> total);
  progress_meter(const progress_meter &) = delete;
  progress_meter &operator=(const progress_meter &) = delete;
  // A line cut short (the input failed) is ended, so that the error starts a line of its own.
  ~progress_meter();

  // `bytes` more were read.
  void add(std::uint64_t bytes);
  // The input is read: the last line.
  void finish();

private:
  void show(const std::string &line);

  using clock = std::chrono::steady_clock;
  bool on_;
  std::string name_;
  std::optional<std::uint64_t> total_;
  std::uint64_t done_ = 0;
  clock::time_point start_, shown_;
  std::size_t shown_length_ = 0; // of the line on screen, which the next one must cover
  bool finished_ = false;
};

} // namespace cli
