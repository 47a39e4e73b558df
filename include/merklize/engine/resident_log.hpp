// SPDX-License-Identifier: Apache-2.0 OR MIT
// A log kept on the device in parts: for a log larger than the device allows one
// buffer (2^30 leaves are 32 GiB of leaves and 32 GiB of levels, where an H100's OpenCL may allow
// buffers of a quarter of its memory). Its leaves are cut into parts of 2^part_log2 leaves, each
// a resident_tree of its own buffers; the last part takes the appends, and a new part starts
// when it is full. In a tree of shape promote (RFC 6962's) every full part is a complete subtree
// whose root is the log's node at level part_log2, and the last part's root is that level's last
// node (a lone node only moves up), so the log's root is the promote tree over the parts' roots:
// a few node hashes on the host. Hashes with a root flag (blake3-parent), shape zero and fixed
// depths are refused (their parts' roots are not the log's nodes).
//
//   merklize::resident_log log(h, merklize::config{{hash_kind::rfc6962}}, 29);
//   log.adopt({buffer_a, 1 << 29, 1 << 29});   // leaves made on the device, no copy
//   log.adopt({buffer_b, 1 << 29, 1 << 29});
//   merklize::digest root = log.append(more);  // a third part, grown as any tree grows
#pragma once

#include "resident_tree.hpp"

#include <memory>
#include <string>
#include <vector>

namespace merklize {

class resident_log {
public:
  // An empty log of cfg.tree in parts of 2^part_log2 leaves (1 <= part_log2 <= 32).
  resident_log(block_hasher &h, const config &cfg, unsigned part_log2)
      : h_(&h), cfg_(checked(cfg, part_log2)), part_(std::uint64_t(1) << part_log2) {}

  // Leaves already on the device, adopted as the next part (resident_tree's adopted_leaves; no
  // copy): refused unless the last part is full and the part holds at most 2^part_log2 leaves.
  digest adopt(const resident_tree::adopted_leaves &leaves) {
    if (!parts_.empty() && parts_.back()->leaf_count() < part_)
      throw error("resident_log: the last part holds " +
                  std::to_string(parts_.back()->leaf_count()) + " of its " + std::to_string(part_) +
                  " leaves; adopt a part only after full ones");
    if (leaves.capacity > part_)
      throw error("resident_log: a part of room for " + std::to_string(leaves.capacity) +
                  " leaves; a part holds at most " + std::to_string(part_));
    parts_.push_back(std::make_unique<resident_tree>(*h_, leaves, cfg_));
    return root();
  }

  // `count` leaves (count x 32 bytes in host memory) after the last: the last part filled, then
  // new parts (each copied up and grown as resident_tree's appends grow it). Returns the root.
  // An OpenCL failure part way may leave the log partly appended.
  digest append(const void *leaves, std::uint64_t count) {
    const auto *bytes = static_cast<const std::uint8_t *>(leaves);
    std::uint64_t done = std::min(count, room_in_last());
    if (done > 0) parts_.back()->append(bytes, done);
    for (std::uint64_t n = 0; done < count; done += n) {
      n = std::min(count - done, part_);
      parts_.push_back(
          std::make_unique<resident_tree>(*h_, bytes + done * node_bytes, n * node_bytes, cfg_));
    }
    return root();
  }

  digest append(const std::vector<digest> &leaves) { return append(leaves.data(), leaves.size()); }

  // The same from `count` leaves in a buffer of h's context, copied on the device after `wait`
  // (the leaves past the last part's room into new parts' buffers, adopted).
  digest append(const cl::Buffer &leaves, std::uint64_t count,
                const std::vector<cl::Event> &wait = {}) {
    detail::check_buffer(h_->context(), leaves, "the leaves", count * node_bytes, "log", "append");
    std::uint64_t done = std::min(count, room_in_last());
    if (done > 0) parts_.back()->append(leaves, done, wait); // waited for: done with
    std::vector<cl::Event> waits = done > 0 ? std::vector<cl::Event>() : wait;
    for (std::uint64_t n = 0; done < count; done += n) {
      n = std::min(count - done, part_);
      const cl::Buffer part = h_->device_buffer(n * node_bytes, "a part of the log's leaves");
      detail::call("clEnqueueCopyBuffer", [&] {
        return h_->queue().enqueueCopyBuffer(leaves, part, done * node_bytes, 0, n * node_bytes,
                                             waits.empty() ? nullptr : &waits);
      }); // the part's build after it on the same in-order queue reads the copy
      waits.clear();
      parts_.push_back(
          std::make_unique<resident_tree>(*h_, resident_tree::adopted_leaves{part, n, n}, cfg_));
    }
    return root();
  }

  // The root over every leaf: the promote tree over the parts' roots.
  digest root() const {
    if (parts_.empty()) throw error("resident_log: no leaves yet: adopt or append some first");
    std::vector<digest> roots;
    for (const auto &part : parts_)
      roots.push_back(part->root());
    return promote_root(cfg_.tree.hash, std::move(roots));
  }

  // The root of the promote tree over `level` (at least one node), a lone last node moved up:
  // a log's root from the roots of its parts.
  static digest promote_root(hash_kind hash, std::vector<digest> level) {
    while (level.size() > 1) {
      std::vector<digest> up;
      for (std::size_t i = 0; i + 1 < level.size(); i += 2)
        up.push_back(node_hash(hash, level[i], level[i + 1], false));
      if (level.size() % 2) up.push_back(level.back());
      level = std::move(up);
    }
    return level.front();
  }

  std::uint64_t leaf_count() const {
    return parts_.empty() ? 0 : (parts_.size() - 1) * part_ + parts_.back()->leaf_count();
  }
  const std::vector<std::unique_ptr<resident_tree>> &parts() const { return parts_; }

  // Device memory the parts hold (resident_tree::device_bytes of each).
  std::uint64_t device_bytes() const {
    std::uint64_t bytes = 0;
    for (const auto &part : parts_)
      bytes += part->device_bytes();
    return bytes;
  }

private:
  static const config &checked(const config &cfg, unsigned part_log2) {
    if (part_log2 < 1 || part_log2 > 32)
      throw error("resident_log: parts of 2^" + std::to_string(part_log2) +
                  " leaves; give 1 <= part_log2 <= 32");
    if (auto reason = why_no_consistency_proofs(cfg.tree))
      throw error("resident_log: " + *reason +
                  "; a log in parts needs a tree whose parts' roots "
                  "are its nodes");
    return cfg;
  }

  // Leaves the last part may still take (0: none, or no part yet).
  std::uint64_t room_in_last() const {
    return parts_.empty() ? 0 : part_ - parts_.back()->leaf_count();
  }

  block_hasher *h_;
  config cfg_;
  std::uint64_t part_;
  std::vector<std::unique_ptr<resident_tree>> parts_;
};

} // namespace merklize
