// SPDX-License-Identifier: Apache-2.0 OR MIT
// merklize leaf-hash: a log's entries into its leaves, RFC 6962's SHA-256(0x00 || entry) of each,
// hashed on the device and written as 32 raw bytes each (the leaves `merklize root --hash
// rfc6962` takes). The FILEs' entries, in order, are one list.
#include "cli.hpp"
#include "commands.hpp"
#include "output.hpp"
#include "presets.hpp"

#include <merklize/merklize.hpp>

#include <string_view>

namespace cli {

int leaf_hash_command(const leaf_hash_arguments &args) {
  if (args.hash != merklize::hash_kind::rfc6962)
    throw usage_error(std::string("--hash ") + merklize::to_string(args.hash) +
                      " has no leaf hash: leaves are hashed by rfc6962 alone (SHA-256(0x00 || "
                      "entry))");
  if (!args.entries)
    throw usage_error(entries_required, "Try 'merklize leaf-hash --help' for the options.");
  const cl::Device device = chosen_device(args.device);
  const cl::CommandQueue queue =
      merklize::detail::make_queue(merklize::detail::shared_context(device), device);
  std::string leaves;
  for (const std::string &file : args.files) {
    const auto hashed = log_leaves(queue, read_log_entries(file, *args.entries, false));
    leaves.append(reinterpret_cast<const char *>(hashed.data()), hashed.size());
  }
  if (args.output)
    write_file_replacing(*args.output, leaves);
  else
    write_stdout(std::string_view(leaves));
  return 0;
}

} // namespace cli
