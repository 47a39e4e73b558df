// SPDX-License-Identifier: Apache-2.0 OR MIT
#include "progress.hpp"

#include "quote.hpp"
#include "sizes.hpp"

#include <cstdio>

namespace cli {
namespace {

constexpr auto update_interval = std::chrono::milliseconds(250);

// H:MM:SS; past about three years (an input that barely moves), "?".
std::string clock_time(double seconds) {
  if (!(seconds < 1e8)) return "?";
  const auto whole = static_cast<unsigned long long>(seconds + 0.5);
  char text[32];
  std::snprintf(text, sizeof text, "%llu:%02llu:%02llu", whole / 3600, whole / 60 % 60, whole % 60);
  return text;
}

double seconds_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

} // namespace

std::string progress_line(const std::string &name, std::uint64_t done,
                          std::optional<std::uint64_t> total, double seconds, bool finished) {
  const double rate = seconds > 0 ? done / seconds : 0;
  if (finished)
    return "reading " + name + ": " + short_size(done) + " in " + clock_time(seconds) + ", " +
           short_size(rate) + "/s";
  std::string line = "reading " + name + ": " + short_size(done);
  const bool within = total && *total >= done; // a file that grows has no known end
  if (within) {
    line += " of " + short_size(*total);
    if (*total > 0) line += " (" + std::to_string(done * 100 / *total) + "%)";
  }
  line += ", " + short_size(rate) + "/s";
  if (within && rate > 0) line += ", " + clock_time((*total - done) / rate) + " left";
  return line;
}

progress_meter::progress_meter(bool on, const std::string &name, std::optional<std::uint64_t> total)
    : on_(on), name_(printable(name, 200)), total_(total), start_(clock::now()), shown_(start_) {}

progress_meter::~progress_meter() {
  if (on_ && shown_length_ > 0 && !finished_) std::fputc('\n', stderr);
}

void progress_meter::add(std::uint64_t bytes) {
  done_ += bytes;
  if (!on_) return;
  const auto now = clock::now();
  if (now - shown_ < update_interval) return;
  shown_ = now;
  show(progress_line(name_, done_, total_, seconds_since(start_), false));
}

void progress_meter::finish() {
  if (!on_ || finished_) return;
  show(progress_line(name_, done_, total_, seconds_since(start_), true));
  std::fputc('\n', stderr);
  finished_ = true;
}

void progress_meter::show(const std::string &line) {
  // Spaces cover what is left of a longer line before it.
  const std::size_t cover = shown_length_ > line.size() ? shown_length_ - line.size() : 0;
  std::fprintf(stderr, "\r%s%*s", line.c_str(), static_cast<int>(cover), "");
  std::fflush(stderr);
  shown_length_ = line.size();
}

} // namespace cli
