// SPDX-License-Identifier: Apache-2.0 OR MIT
#include "presets.hpp"

#include "cli.hpp"
#include "input.hpp"
#include "memory.hpp"
#include "quote.hpp"
#include "sizes.hpp"

#include <merklize/engine/leaf_hash.hpp>

namespace cli {

const char *entries_required =
    "--entries is required: say how the entries are framed, --entries lines (one a line, the "
    "\"\\n\" not part of it) or --entries length-prefixed (each a 4-byte big-endian length, then "
    "its bytes); binary entries read as lines would give other leaves";

void check_preset(const preset_arguments &preset, const std::string &command) {
  if (preset.log && !preset.entries)
    throw usage_error(std::string("--log reads FILE as the log's entries: ") + entries_required,
                      "Try 'merklize " + command + " --help' for the options.");
}

merklize::tree_options preset_tree(const preset_arguments &preset,
                                   const merklize::tree_options &given) {
  using merklize::hash_kind, merklize::shape;
  if (preset.log) return {hash_kind::rfc6962, shape::promote};
  // A list's tree has room for LIMIT chunks: depth ceil(log2 LIMIT) (0 for limits 0 and 1; 64
  // past 2^63, where ceil_log2's shifts would run out).
  if (preset.ssz_list) {
    const std::uint64_t limit = *preset.ssz_list;
    return {hash_kind::sha256, shape::zero,
            limit > (std::uint64_t(1) << 63) ? 64u : merklize::detail::ceil_log2(limit)};
  }
  // A vector's tree is its own chunks padded to a power of two: shape zero's natural depth.
  if (preset.ssz_vector) return {hash_kind::sha256, shape::zero};
  return given;
}

std::uint64_t ssz_list_length(std::uint64_t limit, std::uint64_t chunks, const std::string &name) {
  if (chunks > limit)
    throw merklize::error(name + " holds " + std::to_string(chunks) +
                          " chunks, more than the list's limit of " + std::to_string(limit) +
                          " (--ssz-list " + std::to_string(limit) + ")");
  return chunks;
}

log_entries read_log_entries(const std::string &file, merklize::entry_framing framing,
                             bool progress) {
  log_entries entries{read_input(file, progress), {}};
  entries.spans = merklize::split_entries(entries.data.data(), entries.data.size(), framing,
                                          file == "-" ? "stdin" : quote(file));
  return entries;
}

std::vector<std::uint8_t> log_leaves(const cl::CommandQueue &queue, const log_entries &entries) {
  const auto hashed =
      while_doing("hashing " + std::to_string(entries.spans.size()) + " entries (" +
                      size_text(entries.data.size()) + ")",
                  [&] {
                    return merklize::hash_entries(queue, entries.data.data(), entries.data.size(),
                                                  entries.spans);
                  });
  const auto *bytes = reinterpret_cast<const std::uint8_t *>(hashed.data());
  return std::vector<std::uint8_t>(bytes, bytes + hashed.size() * merklize::node_bytes);
}

} // namespace cli
