// SPDX-License-Identifier: Apache-2.0 OR MIT
// Bitcoin's transaction Merkle tree (the merkle root of a block header): the leaves are the
// block's txids, a node is SHA-256(SHA-256(left || right)), and a level of odd length pairs its
// last node with itself (formats/pair_rules.hpp). Host reference, no OpenCL; the device's is
// bitcoin_levels (pair_tree.hpp).
//
// Byte order: the tree works on the digests as SHA-256 writes them ("internal" order). Block
// explorers and bitcoin-cli print txids and the merkle root with their 32 bytes reversed
// ("display" order); reversed() turns one into the other.
//
// CVE-2012-2459: since an odd level's last node is paired with itself, the txid lists
// [a, b, c] and [a, b, c, c] have the same root. Bitcoin Core rejects a block whose tree hashes
// two equal nodes as a pair ("mutated"); levels_of reports that too.
#pragma once

#include "../core/path_plan.hpp"
#include "pair_rules.hpp"

#include <string>
#include <vector>

namespace merklize {
namespace bitcoin {

inline digest reversed(digest d) {
  std::reverse(d.begin(), d.end());
  return d;
}

// Every level of the tree over `txids` (internal order, at least one), leaves first, and whether
// any level paired two equal nodes (Bitcoin Core's `mutated`, CVE-2012-2459): such a list has the
// root of a shorter one.
struct tree {
  std::vector<std::vector<digest>> levels;
  bool mutated = false;

  const digest &root() const { return levels.back().front(); }
};

// Whether a level pairs two equal nodes: nodes 2i and 2i + 1 the same (a lone last node paired
// with itself is no such pair).
inline bool pairs_equal_nodes(const std::vector<digest> &level) {
  for (std::size_t i = 0; i + 1 < level.size(); i += 2)
    if (level[i] == level[i + 1]) return true;
  return false;
}

// The mutation flag of levels a device computed.
inline bool is_mutated(const std::vector<std::vector<digest>> &levels) {
  for (std::size_t l = 0; l + 1 < levels.size(); ++l)
    if (pairs_equal_nodes(levels[l])) return true;
  return false;
}

inline tree levels_of(std::vector<digest> txids) {
  if (txids.empty()) throw error("a Bitcoin block has at least one transaction: no txids given");
  tree t{duplicate_odd_levels(pair_hash::sha256d, std::move(txids)), false};
  t.mutated = is_mutated(t.levels);
  return t;
}

inline digest merkle_root(std::vector<digest> txids) { return levels_of(std::move(txids)).root(); }

// The inclusion proof of txid `index`: the sibling of its node on each level (the node itself
// where it is a level's lone last node), from the leaves up, as Electrum's
// blockchain.transaction.get_merkle gives it.
struct branch {
  std::uint64_t index = 0, leaf_count = 0;
  std::vector<digest> siblings;
};

inline branch prove(const std::vector<std::vector<digest>> &levels, std::uint64_t index) {
  const std::uint64_t n = levels.empty() ? 0 : levels.front().size();
  if (index >= n)
    throw error("txid " + std::to_string(index) + " is past the " + std::to_string(n) +
                " txids of the tree");
  branch b{index, n, {}};
  // Shape duplicate-odd's path (core/path_plan.hpp): a lone node stands in for its own sibling.
  const path_shape shape{2, stand_in::itself};
  for (const path_group &g : plan_path(shape, n, index, static_cast<unsigned>(levels.size() - 1))) {
    const std::vector<digest> &level = levels[g.level];
    const auto node = [&](std::uint64_t i) { return level[static_cast<std::size_t>(i)]; };
    b.siblings.push_back(group_siblings(g, node, digest{}).front());
  }
  return b;
}

// The root a branch leads to from `txid`: on each level the node is the left child where its
// index is even, the right where odd.
inline digest root_of(const digest &txid, const branch &b) {
  if (b.index >= b.leaf_count) throw error("the branch's index is past its txids");
  digest node = txid;
  std::uint64_t index = b.index;
  for (const digest &sibling : b.siblings) {
    node = index % 2 ? pair_node(pair_hash::sha256d, sibling, node)
                     : pair_node(pair_hash::sha256d, node, sibling);
    index /= 2;
  }
  return node;
}

// A txid's branch as Electrum's blockchain.transaction.get_merkle gives it ("pos", "merkle": the
// siblings from the txid up), the txid and the root beside it: {"txid", "pos", "merkle", "root"},
// every digest in internal order, or reversed where `display_order` (as explorers print them).
inline std::string branch_json(const tree &t, std::uint64_t index, bool display_order) {
  const branch b = prove(t.levels, index);
  const auto text = [&](const digest &d) {
    return "\"" + to_hex(display_order ? reversed(d) : d) + "\"";
  };
  std::string merkle;
  for (const digest &sibling : b.siblings)
    merkle += (merkle.empty() ? "" : ",") + text(sibling);
  return "{\"txid\":" + text(t.levels.front()[index]) + ",\"pos\":" + std::to_string(index) +
         ",\"merkle\":[" + merkle + "],\"root\":" + text(t.root()) + "}";
}

// Txids in display order, one a line as explorers print them (64 hex digits, either case; blank
// lines and surrounding spaces ignored), into internal order. `name` names the input in errors.
inline std::vector<digest> parse_display_txids(const std::string &text, const std::string &name) {
  std::vector<digest> txids;
  std::size_t line_number = 0;
  for (std::size_t at = 0; at < text.size();) {
    const std::size_t end = std::min(text.find('\n', at), text.size());
    ++line_number;
    std::string line = text.substr(at, end - at);
    at = end + 1;
    const std::size_t first = line.find_first_not_of(" \t\r");
    if (first == std::string::npos) continue;
    line = line.substr(first, line.find_last_not_of(" \t\r") - first + 1);
    try {
      txids.push_back(reversed(digest_from_hex(line)));
    } catch (const error &e) {
      throw error(name + ", line " + std::to_string(line_number) + ": not a txid (" + e.what() +
                  ")");
    }
  }
  return txids;
}

} // namespace bitcoin
} // namespace merklize
