// SPDX-License-Identifier: Apache-2.0 OR MIT
// Option values of the tools, converted or refused with a usage error that names the option and
// quotes the value: "--index takes a non-negative integer, not \"-1\"".
#pragma once

#include <merklize/core/entries.hpp>
#include <merklize/core/tree.hpp>

#include <cstdint>
#include <string>
#include <vector>

namespace cli {

// A decimal integer 0..2^64-1: digits only (no sign, no hex, no octal).
std::uint64_t parse_count(const std::string &option, const std::string &text);

// Leaf or value indices, "I" or "I,J,...": each a count as parse_count takes it.
std::vector<std::uint64_t> parse_indices(const std::string &option, const std::string &text);

// A tree depth in levels, 0..64.
unsigned parse_depth(const std::string &option, const std::string &text);

// --shard-log2 S: shards of 2^S leaves, S from 1 to 64. 0 is refused rather than taken to mean
// shards of one leaf (which pair nothing on a device) or the automatic size (leave the option
// out for that).
unsigned parse_shard_log2(const std::string &option, const std::string &text);

// --chunk-log2 S: inputs stream in chunks of 2^S leaves, S from 1 to 40.
unsigned parse_chunk_log2(const std::string &option, const std::string &text);

// merklize bench --runs N: 1 to 1000.
unsigned parse_runs(const std::string &option, const std::string &text);

// A thread count, 0 (automatic) to 1024.
unsigned parse_threads(const std::string &option, const std::string &text);

merklize::hash_kind parse_hash(const std::string &option, const std::string &text);
merklize::shape parse_pad(const std::string &option, const std::string &text);
merklize::entry_framing parse_entries(const std::string &option, const std::string &text);

} // namespace cli
