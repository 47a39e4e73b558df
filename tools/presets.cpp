// SPDX-License-Identifier: Apache-2.0 OR MIT
#include "presets.hpp"

#include "cli.hpp"
#include "input.hpp"
#include "memory.hpp"
#include "quote.hpp"
#include "sizes.hpp"

#include <merklize/engine/host_entries.hpp>
#include <merklize/engine/leaf_hash.hpp>

#include <functional>

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
  using merklize::tree_kind;
  if (!preset.given()) return given;
  const tree_kind kind = preset.log        ? tree_kind::log
                         : preset.ssz_list ? tree_kind::ssz_list
                                           : tree_kind::ssz_vector;
  merklize::preset_parameters parameters;
  parameters.ssz_limit = preset.ssz_list.value_or(0);
  parameters.framing = preset.entries.value_or(merklize::entry_framing::lines);
  return merklize::tree_options_of(merklize::row_of(kind).spec(parameters));
}

const merklize::preset_row &format_row(const std::string &name) {
  if (const merklize::preset_row *row = merklize::find_format(name)) return *row;
  throw usage_error("--format: unknown format " + quote(name, 64) +
                        " (known: " + merklize::format_names() + ")",
                    "Try 'merklize root --help' for the options.");
}

void refuse_unused(const merklize::preset_row &row,
                   std::initializer_list<std::pair<const char *, bool>> given,
                   const std::string &command) {
  for (const auto &[option, is_given] : given)
    if (is_given && !merklize::takes(row, option))
      throw usage_error(std::string(option) + " has no use with --format " + row.name,
                        "Try 'merklize " + command + " --help' for the options.");
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

namespace {

std::vector<std::uint8_t>
log_leaves_of(const log_entries &entries,
              const std::function<std::vector<merklize::digest>()> &hash) {
  const auto hashed = while_doing("hashing " + std::to_string(entries.spans.size()) + " entries (" +
                                      size_text(entries.data.size()) + ")",
                                  hash);
  const auto *bytes = reinterpret_cast<const std::uint8_t *>(hashed.data());
  return std::vector<std::uint8_t>(bytes, bytes + hashed.size() * merklize::node_bytes);
}

} // namespace

std::vector<std::uint8_t> log_leaves(const cl::CommandQueue &queue, const log_entries &entries) {
  return log_leaves_of(entries, [&] {
    return merklize::hash_entries(queue, entries.data.data(), entries.data.size(), entries.spans);
  });
}

std::vector<std::uint8_t> host_log_leaves(const log_entries &entries) {
  return log_leaves_of(entries, [&] {
    return merklize::host_hash_entries(entries.data.data(), entries.data.size(), entries.spans);
  });
}

} // namespace cli
