// SPDX-License-Identifier: Apache-2.0 OR MIT
// The trees that real systems publish, by name, so that one flag says what four would and a
// missing one is an error rather than another tree's root (their rows in
// <merklize/formats/presets.hpp> give their trees; here is what the CLI adds: the framing check,
// the list's length, the entries read and hashed, and the --format rows' lookup and refusals):
//   --ssz-list LIMIT  SSZ's List[Bytes32, LIMIT] (Ethereum consensus): sha256 nodes, shape zero,
//                     depth ceil(log2 LIMIT), FILE's chunk count mixed in as the length;
//   --ssz-vector      SSZ's Vector[Bytes32, N], N being FILE's chunk count: sha256, shape zero,
//                     depth ceil(log2 N), no length;
//   --log             an RFC 6962 / 9162 transparency log (Certificate Transparency, Rekor, Go's
//                     checksum database): FILE holds the log's entries, framed as --entries says,
//                     hashed into the RFC's leaves on the host engine or a device
//                     (--device); rfc6962 nodes, shape promote.
#pragma once

#include "commands.hpp"

#include <merklize/core/entries.hpp>
#include <merklize/core/tree.hpp>
#include <merklize/formats/presets.hpp>

#include <cstdint>
#include <initializer_list>
#include <string>
#include <vector>

namespace cl {
class CommandQueue;
}

namespace cli {

// Refuses --log without --entries, naming the two framings; `command` names the --help to read.
void check_preset(const preset_arguments &preset, const std::string &command);

// "--entries is required: ..." (leaf-hash, --log).
extern const char *entries_required;

// The tree a preset names (--log's over the entries' leaves), from its row; else `given`.
merklize::tree_options preset_tree(const preset_arguments &preset,
                                   const merklize::tree_options &given);

// The row of `merklize root --format NAME`; an unknown NAME is a usage error naming the known.
const merklize::preset_row &format_row(const std::string &name);

// The options given (each with whether it was) that `row` does not take are refused, the first
// in `given`'s order: "OPTION has no use with --format NAME", naming `command`'s --help.
void refuse_unused(const merklize::preset_row &row,
                   std::initializer_list<std::pair<const char *, bool>> given,
                   const std::string &command);

// The length SSZ mixes into the root of a list of `chunks` chunks (one per element) whose limit is
// `limit`: `chunks`, refused when it is past the limit (`name` names the input).
std::uint64_t ssz_list_length(std::uint64_t limit, std::uint64_t chunks, const std::string &name);

// Runs `build` (a tree of --ssz-list's depth over a stream whose size was unknown), saying in its
// error that a stream too large for the depth holds more chunks than the limit.
template <class Build>
auto within_list_limit(const preset_arguments &preset, const std::string &name, Build &&build) {
  try {
    return build();
  } catch (const merklize::error &e) {
    if (!preset.ssz_list || std::string(e.what()).find("cannot hold") == std::string::npos) throw;
    throw merklize::error(name + " holds more chunks than the list's limit of " +
                          std::to_string(*preset.ssz_list) + " (--ssz-list " +
                          std::to_string(*preset.ssz_list) + "): " + e.what());
  }
}

// A log's entries: FILE's bytes and where each entry lies in them.
struct log_entries {
  std::vector<std::uint8_t> data;
  std::vector<merklize::entry_span> spans;
};

// FILE's entries (stdin for "-"), framed by `framing`; a malformed framing is an error naming FILE.
log_entries read_log_entries(const std::string &file, merklize::entry_framing framing,
                             bool progress);

// Their RFC 6962 leaf hashes, SHA-256(0x00 || entry), hashed on `queue`'s device: N x 32 bytes.
std::vector<std::uint8_t> log_leaves(const cl::CommandQueue &queue, const log_entries &entries);

// The same on the host engine's threads (host_entries.hpp).
std::vector<std::uint8_t> host_log_leaves(const log_entries &entries);

} // namespace cli
