// SPDX-License-Identifier: Apache-2.0 OR MIT
// The commitments other systems publish (pair_tree.hpp, formats/): OpenZeppelin's
// StandardMerkleTree, Bitcoin's merkle root and branches, Filecoin's piece commitment and CID, as
// `merklize root|proof --format oz-standard|bitcoin|filecoin-tree-d` give them.
#include "handles.hpp"
#include "sources.hpp"

#include <merklize/engine/pair_tree.hpp>
#include <merklize/formats/oz_values.hpp>

#include <cstring>

namespace merklize_capi {
namespace {

std::unique_ptr<merklize_bytes> bytes_of(const std::string &text) {
  auto held = std::make_unique<merklize_bytes>();
  held->data.assign(text.begin(), text.end());
  return held;
}

// The tree of a JSON text: what the text holds is refused as undecodable (malformed JSON, a
// type or a value that does not fit, a dump whose tree is not its values'), with its place and
// reason; the device's failures stay OpenCL errors.
oz::standard_tree oz_tree(merklize_device &d, const char *json, std::size_t size, int sort_leaves,
                          const char *function) {
  required(static_cast<const void *>(json), function, "json");
  try {
    return oz::standard_tree_of(
        oz::read_standard_json(std::string_view(json, size), "the JSON text"), sort_leaves != 0,
        "the JSON text", [&](const auto &leaves) { return oz_standard_array(d.pairs(), leaves); });
  } catch (const opencl_error &) {
    throw;
  } catch (const error &e) {
    throw decode_error(std::string(function) + ": " + e.what());
  }
}

// Refuses `count` indices of values to prove where there are only `most` (values, or bytes of
// text): some value would be proved twice, or one past the values named.
[[noreturn]] void refuse_value_count(std::uint64_t count, std::uint64_t most, const char *what) {
  throw argument_error("merklize_oz_standard_proof: `count` is " + std::to_string(count) +
                       ", more than the " + std::to_string(most) + " " + what +
                       ": each value is proved once");
}

// A source's txids in internal order: 32 bytes each, or display-order hex lines.
std::vector<digest> txids_of(opened_source &source, int display_order) {
  const byte_view all = source.whole();
  if (display_order) {
    auto txids = bitcoin::parse_display_txids(
        std::string(reinterpret_cast<const char *>(all.data), all.size), source.name());
    if (txids.empty()) throw argument_error(source.name() + " holds no txid");
    return txids;
  }
  if (all.size % node_bytes != 0)
    throw argument_error(source.name() + " is " + std::to_string(all.size) +
                         " bytes, not a whole number of 32-byte txids");
  if (all.size == 0) throw argument_error(source.name() + " holds no txid");
  std::vector<digest> txids(all.size / node_bytes);
  std::memcpy(txids.data(), all.data, all.size);
  return txids;
}

// Bitcoin's tree of a source's txids, built on the device under its lock.
bitcoin::tree bitcoin_tree(merklize_device *device, const merklize_source *source,
                           int display_order, const char *function) {
  merklize_device &d = required(device, function, "device");
  const std::lock_guard<std::mutex> lock(d.mutex);
  opened_source opened(source, function);
  return bitcoin_levels(d.pairs(), txids_of(opened, display_order));
}

} // namespace
} // namespace merklize_capi

using namespace merklize_capi;

extern "C" {

merklize_status merklize_oz_standard_tree(merklize_device *device, const char *json, size_t size,
                                          int sort_leaves, uint8_t root[MERKLIZE_DIGEST_SIZE],
                                          merklize_bytes **dump) {
  return guarded([&] {
    merklize_device &d = required(device, "merklize_oz_standard_tree", "device");
    required(root, "merklize_oz_standard_tree", "root");
    const std::lock_guard<std::mutex> lock(d.mutex);
    const auto t = oz_tree(d, json, size, sort_leaves, "merklize_oz_standard_tree");
    std::unique_ptr<merklize_bytes> held;
    if (dump) held = bytes_of(oz::dump_json(t));
    std::memcpy(root, t.root().data(), node_bytes);
    if (dump) *dump = held.release();
  });
}

merklize_status merklize_oz_standard_proof(merklize_device *device, const char *json, size_t size,
                                           int sort_leaves, const uint64_t *indices, size_t count,
                                           merklize_bytes **proof) {
  return guarded([&] {
    merklize_device &d = required(device, "merklize_oz_standard_proof", "device");
    required(proof, "merklize_oz_standard_proof", "proof");
    required(static_cast<const void *>(indices), "merklize_oz_standard_proof", "indices");
    if (count == 0)
      throw argument_error("merklize_oz_standard_proof: `count` is 0: a proof proves a value");
    // A value is proved once: more indices than the text can hold values (a byte each, at the
    // least) are refused before the text is read, more than its values before they are copied.
    if (count > size) refuse_value_count(count, size, "bytes of JSON text");
    const std::lock_guard<std::mutex> lock(d.mutex);
    const auto t = oz_tree(d, json, size, sort_leaves, "merklize_oz_standard_proof");
    if (count > t.values.size()) refuse_value_count(count, t.values.size(), "values");
    const std::vector<std::uint64_t> values(indices, indices + count);
    auto held =
        bytes_of(count == 1 ? oz::proof_json(t, values.front()) : oz::multiproof_json(t, values));
    *proof = held.release();
  });
}

merklize_status merklize_bitcoin_root(merklize_device *device, const merklize_source *source,
                                      int display_order, uint8_t root[MERKLIZE_DIGEST_SIZE],
                                      int *mutated) {
  return guarded([&] {
    required(root, "merklize_bitcoin_root", "root");
    const auto t = bitcoin_tree(device, source, display_order, "merklize_bitcoin_root");
    const digest out = display_order ? bitcoin::reversed(t.root()) : t.root();
    std::memcpy(root, out.data(), node_bytes);
    if (mutated) *mutated = t.mutated ? 1 : 0;
  });
}

merklize_status merklize_bitcoin_proof(merklize_device *device, const merklize_source *source,
                                       int display_order, uint64_t index, merklize_bytes **proof) {
  return guarded([&] {
    required(proof, "merklize_bitcoin_proof", "proof");
    const auto t = bitcoin_tree(device, source, display_order, "merklize_bitcoin_proof");
    auto held = bytes_of(bitcoin::branch_json(t, index, display_order != 0));
    *proof = held.release();
  });
}

merklize_status merklize_filecoin_commitment(merklize_device *device, const merklize_source *source,
                                             uint8_t commitment[MERKLIZE_DIGEST_SIZE],
                                             uint64_t *padded_size) {
  return guarded([&] {
    merklize_device &d = required(device, "merklize_filecoin_commitment", "device");
    required(commitment, "merklize_filecoin_commitment", "commitment");
    const std::lock_guard<std::mutex> lock(d.mutex);
    opened_source opened(source, "merklize_filecoin_commitment");
    std::uint64_t at = 0;
    const auto piece = opened.in_memory()
                           ? filecoin_commitment(
                                 d.pairs(),
                                 [&](std::uint8_t *buffer, std::uint64_t n) {
                                   const std::uint64_t take = std::min(n, opened.size() - at);
                                   if (take) std::memcpy(buffer, opened.data() + at, take);
                                   at += take;
                                   return take;
                                 },
                                 opened.name())
                           : filecoin_commitment(d.pairs(), opened.input());
    std::memcpy(commitment, piece.commitment.data(), node_bytes);
    if (padded_size) *padded_size = piece.padded_bytes;
  });
}

merklize_status merklize_filecoin_piece_cid(const uint8_t commitment[MERKLIZE_DIGEST_SIZE],
                                            char *cid, size_t cid_size) {
  return guarded([&] {
    required(static_cast<const void *>(commitment), "merklize_filecoin_piece_cid", "commitment");
    required(static_cast<const void *>(cid), "merklize_filecoin_piece_cid", "cid");
    digest c;
    std::memcpy(c.data(), commitment, node_bytes);
    const std::string text = filecoin::piece_cid(c);
    if (cid_size < text.size() + 1)
      throw argument_error("merklize_filecoin_piece_cid: `cid_size` is " +
                           std::to_string(cid_size) + ", the CID and its NUL take " +
                           std::to_string(text.size() + 1));
    std::memcpy(cid, text.c_str(), text.size() + 1);
  });
}

} // extern "C"
