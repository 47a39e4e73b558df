// SPDX-License-Identifier: Apache-2.0 OR MIT
#include "values.hpp"

#include "cli.hpp"
#include "quote.hpp"

namespace cli {
namespace {

[[noreturn]] void refuse(const std::string &option, const std::string &takes,
                         const std::string &text) {
  throw usage_error(option + " takes " + takes + ", not " + quote(text, 64));
}

// The library's message for an unknown name, as a usage error.
template <class Parse>
auto parse_name(const std::string &option, const std::string &text, Parse parse) {
  try {
    return parse(text);
  } catch (const merklize::error &e) {
    throw usage_error(option + ": " + e.what());
  }
}

} // namespace

std::uint64_t parse_count(const std::string &option, const std::string &text) {
  bool ok = !text.empty();
  std::uint64_t n = 0;
  for (const char c : text) {
    const auto digit = static_cast<std::uint64_t>(c - '0');
    ok = ok && c >= '0' && c <= '9' && n <= (UINT64_MAX - digit) / 10;
    if (!ok) break;
    n = n * 10 + digit;
  }
  if (!ok) refuse(option, "a non-negative integer", text);
  return n;
}

unsigned parse_depth(const std::string &option, const std::string &text) {
  const bool digits = !text.empty() && text.find_first_not_of("0123456789") == std::string::npos;
  if (!digits) refuse(option, "a whole number of levels", text);
  if (text.size() > 19 || parse_count(option, text) > 64) refuse(option, "at most 64 levels", text);
  return static_cast<unsigned>(parse_count(option, text));
}

std::vector<std::uint64_t> parse_indices(const std::string &option, const std::string &text) {
  std::vector<std::uint64_t> indices;
  for (std::size_t at = 0;;) {
    const std::size_t comma = text.find(',', at);
    indices.push_back(parse_count(option, text.substr(at, comma - at)));
    if (comma == std::string::npos) return indices;
    at = comma + 1;
  }
}

unsigned parse_shard_log2(const std::string &option, const std::string &text) {
  const std::uint64_t s = parse_count(option, text);
  if (s < 1 || s > 64)
    refuse(option, "1 to 64 (shards of 2^S leaves; leave it out for the automatic size)", text);
  return static_cast<unsigned>(s);
}

unsigned parse_chunk_log2(const std::string &option, const std::string &text) {
  const std::uint64_t s = parse_count(option, text);
  if (s < 1 || s > 40) refuse(option, "1 to 40 (chunks of 2^S leaves)", text);
  return static_cast<unsigned>(s);
}

unsigned parse_runs(const std::string &option, const std::string &text) {
  const std::uint64_t n = parse_count(option, text);
  if (n < 1 || n > 1000) refuse(option, "1 to 1000 runs", text);
  return static_cast<unsigned>(n);
}

unsigned parse_threads(const std::string &option, const std::string &text) {
  const std::uint64_t n = parse_count(option, text);
  if (n > 1024) refuse(option, "0 (automatic) to 1024 threads", text);
  return static_cast<unsigned>(n);
}

merklize::hash_kind parse_hash(const std::string &option, const std::string &text) {
  return parse_name(option, text, merklize::parse_hash_kind);
}

merklize::shape parse_pad(const std::string &option, const std::string &text) {
  return parse_name(option, text, merklize::parse_shape);
}

merklize::entry_framing parse_entries(const std::string &option, const std::string &text) {
  return parse_name(option, text, merklize::parse_entry_framing);
}

} // namespace cli
