// SPDX-License-Identifier: Apache-2.0 OR MIT
#include "whole_tree.hpp"

#include "engine.hpp"
#include "memory.hpp"

#include <merklize/engine/host_build.hpp>

namespace cli {

whole_tree_engine::whole_tree_engine(const std::optional<std::string> &device,
                                     const merklize::tree_options &options,
                                     std::optional<std::uint64_t> bytes, bool log)
    : options_(options) {
  const engine_pick pick =
      log ? pick_log_engine(device, bytes, options) : pick_engine(device, options, bytes);
  if (!pick.host) device_.emplace(pick.device, merklize::config{options});
}

std::vector<std::uint8_t> whole_tree_engine::log_leaves(const log_entries &entries) {
  return device_ ? cli::log_leaves(device_->queue(), entries) : host_log_leaves(entries);
}

merklize::tree whole_tree_engine::build(const std::vector<std::uint8_t> &leaves,
                                        const std::string &doing) {
  return while_doing(doing, [&] {
    return device_ ? device_->build(leaves)
                   : merklize::host_build(leaves.data(), leaves.size(), options_);
  });
}

} // namespace cli
