// SPDX-License-Identifier: Apache-2.0 OR MIT
// Trees over leaves in memory with every level kept (the multiproof of several leaves, a
// consistency proof, a log's tiles), on the engine --device picks: the host engine (host_build)
// where --device auto picks it or --device host asks for it, else a device (merkleizer::build). A
// log's entries are hashed into their leaves by the same engine. So these commands, too, answer
// on a machine without a GPU with no kernel to compile.
#pragma once

#include "presets.hpp"

#include <merklize/engine/merkleizer.hpp>

#include <optional>
#include <string>
#include <vector>

namespace cli {

class whole_tree_engine {
public:
  // For a tree with `options` over `bytes` bytes: of leaves, or with `log` of a log's entries
  // (nothing: a pipe's). The device, where one is picked, is opened here.
  whole_tree_engine(const std::optional<std::string> &device, const merklize::tree_options &options,
                    std::optional<std::uint64_t> bytes, bool log);

  // The RFC 6962 leaves of a log's entries.
  std::vector<std::uint8_t> log_leaves(const log_entries &entries);

  // The tree over `leaves` (at least one), every level kept; `doing` names it while it runs.
  merklize::tree build(const std::vector<std::uint8_t> &leaves, const std::string &doing);

private:
  merklize::tree_options options_;
  std::optional<merklize::merkleizer> device_; // none: the host engine
};

} // namespace cli
