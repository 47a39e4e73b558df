// SPDX-License-Identifier: Apache-2.0 OR MIT
// merklize leaf-hash: a log's entries into its leaves, RFC 6962's SHA-256(0x00 || entry) of each,
// hashed on the host engine or a device (--device, as root's) and written as 32 raw bytes each
// (the leaves `merklize root --hash rfc6962` takes). The FILEs' entries, in order, are one list.
#include "cli.hpp"
#include "commands.hpp"
#include "engine.hpp"
#include "output.hpp"
#include "presets.hpp"

#include <merklize/merklize.hpp>

#include <filesystem>
#include <optional>
#include <string_view>
#include <vector>

namespace cli {

namespace {

// The bytes of the FILEs together, where each is a regular file ("-" or a pipe: unknown).
std::optional<std::uint64_t> files_size(const std::vector<std::string> &files) {
  std::uint64_t bytes = 0;
  for (const std::string &file : files) {
    std::error_code ec;
    if (file == "-" || !std::filesystem::is_regular_file(file, ec)) return std::nullopt;
    bytes += std::filesystem::file_size(file, ec);
  }
  return bytes;
}

} // namespace

int leaf_hash_command(const leaf_hash_arguments &args) {
  if (args.hash != merklize::hash_kind::rfc6962)
    throw usage_error(std::string("--hash ") + merklize::to_string(args.hash) +
                      " has no leaf hash: leaves are hashed by rfc6962 alone (SHA-256(0x00 || "
                      "entry))");
  if (!args.entries)
    throw usage_error(entries_required, "Try 'merklize leaf-hash --help' for the options.");
  const engine_pick pick = pick_log_engine(args.device, files_size(args.files));
  std::optional<cl::CommandQueue> queue;
  if (!pick.host) queue = merklize::device_queue(pick.device);
  std::string leaves;
  for (const std::string &file : args.files) {
    const log_entries entries = read_log_entries(file, *args.entries, false);
    const auto hashed = pick.host ? host_log_leaves(entries) : log_leaves(*queue, entries);
    leaves.append(reinterpret_cast<const char *>(hashed.data()), hashed.size());
  }
  if (args.output)
    write_file_replacing(*args.output, leaves);
  else
    write_stdout(std::string_view(leaves));
  return 0;
}

} // namespace cli
