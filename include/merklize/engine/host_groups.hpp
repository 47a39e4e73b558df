// SPDX-License-Identifier: Apache-2.0 OR MIT
// The host engine's trees of groups, no OpenCL: a node is its group of children hashed as one
// block by a group rule (core/kary.hpp), at any arity; the k-ary trees of kary_options are these
// trees. Each equals group_levels_above's host reference bit for bit.
//
//   merklize::input in("leaves.bin");
//   merklize::digest root = merklize::host_group_root(in, merklize::group_rule_of({hash, 16}));
//
// How: a tree's leaves as given are read in the host engine's pieces of 1 MiB (host_tree.hpp), on
// every core. Each piece holds whole subtrees of k^j leaves, k^j the largest power of the arity
// that divides a piece, and the thread that read it hashes each up to height j, SHA-256 groups on
// the multi-buffer hashers (core/sha256_many.hpp). The subtrees' roots, 2^-15 of the leaves and
// fewer, are then the level j of the whole tree, hashed up on one thread. Leaves in memory (the
// hashes of data blocks) are hashed a level at a time, each level's groups spread over the
// threads. A proof (host_prove) keeps the one subtree that holds its leaf: its levels give the
// siblings below level j, the levels above the subtrees' roots the others, as kary_prove's.
#pragma once

#include "../core/kary.hpp"
#include "host_blocks.hpp"

#include <algorithm>
#include <atomic>
#include <cstring>
#include <mutex>
#include <optional>
#include <vector>

namespace merklize {
namespace detail {

// One level of a tree of `rule`: the parents of `count` nodes at `below` into `above` (room for
// parent_count(count, k)), the whole groups on `threads` threads, the short last group as the rule
// says (a lone child moves up under shape promote; shape zero pads with `zero`, the zero-subtree
// root of the level's height). Returns the parents' count.
inline std::uint64_t host_group_level(const group_rule &rule, const sha256_prefix &prefix,
                                      const std::uint8_t *below, std::uint64_t count,
                                      const digest &zero, std::uint8_t *above, unsigned threads) {
  const std::uint64_t k = rule.arity(), whole = count / k, rest = count % k;
  const std::uint64_t group_bytes = k * node_bytes;
  host_parallel_for(whole, threads, [&](std::uint64_t begin, std::uint64_t end) {
    host_hash_blocks(rule.block, prefix, below + begin * group_bytes, (end - begin) * group_bytes,
                     above + begin * node_bytes);
  });
  if (rest == 0) return whole;
  std::vector<digest> group(static_cast<std::size_t>(rest));
  std::memcpy(group.data(), below + whole * group_bytes, group.size() * node_bytes);
  if (rule.shape == shape::zero && !rule.block.zero_pad) group.resize(k, zero);
  const digest parent = group.size() == 1 && !rule.block.zero_pad
                            ? group.front()
                            : group_node(rule, group.data(), group.size());
  std::memcpy(above + whole * node_bytes, parent.data(), node_bytes);
  return whole + 1;
}

// Levels 0 .. height of a tree of `rule` whose level 0 is `nodes`, each level's groups hashed on
// `threads` threads (zeros[l]: the zero-subtree root padding level l, as host_group_level takes).
inline std::vector<std::vector<digest>>
host_group_levels(const group_rule &rule, std::vector<digest> nodes, unsigned height,
                  const std::vector<digest> &zeros, unsigned threads) {
  const sha256_prefix prefix = sha256_prefix_of(rule.block.prefix.data(), rule.block.prefix.size());
  std::vector<std::vector<digest>> levels = {std::move(nodes)};
  for (unsigned level = 0; level < height; ++level) {
    const std::vector<digest> &below = levels.back();
    std::vector<digest> parents(static_cast<std::size_t>(parent_count(below.size(), rule.arity())));
    host_group_level(rule, prefix, below.front().data(), below.size(), zeros[level],
                     parents.front().data(), threads);
    levels.push_back(std::move(parents));
  }
  return levels;
}

// The node `height` levels above `count` nodes at `nodes` (level `first_level` of the tree; zeros
// from group_zero_roots up to first_level + height), a level at a time.
inline digest host_group_top(const group_rule &rule, const std::uint8_t *nodes, std::uint64_t count,
                             unsigned first_level, unsigned height,
                             const std::vector<digest> &zeros, unsigned threads) {
  const sha256_prefix prefix = sha256_prefix_of(rule.block.prefix.data(), rule.block.prefix.size());
  std::vector<std::uint8_t> below, above;
  for (unsigned level = 0; level < height; ++level) {
    above.resize(static_cast<std::size_t>(parent_count(count, rule.arity()) * node_bytes));
    count = host_group_level(rule, prefix, level == 0 ? nodes : below.data(), count,
                             zeros[first_level + level], above.data(), threads);
    below.swap(above);
  }
  digest top;
  std::memcpy(top.data(), height == 0 ? nodes : below.data(), node_bytes);
  return top;
}

// j, the height of the subtrees a piece of host_tree.hpp holds whole: k^j leaves divide 2^15.
inline unsigned host_group_subtree_height(unsigned arity) {
  return host_block_log2 / ceil_log2(arity);
}

} // namespace detail

// The root of the tree of `rule` over `count` leaves at `leaves` (at least one), on `threads`
// threads (0: host_engine_threads()).
inline digest host_group_root(const std::uint8_t *leaves, std::uint64_t count,
                              const group_rule &rule, unsigned threads = 0) {
  check_group_rule(rule);
  const unsigned height = kary_height(count, rule.arity()); // refuses no leaves
  return detail::host_group_top(rule, leaves, count, 0, height, group_zero_roots(rule, height),
                                threads ? threads : host_engine_threads());
}

namespace detail {

// What host_group_pieces gives of an input's leaves: their count, the roots of the subtrees of
// k^j leaves (level j of the tree), or where the input is shorter than a piece the root, and the
// leaves of the subtree that holds a leaf asked for (of the whole tree where it is that short).
struct group_pieces {
  std::uint64_t count = 0;
  std::vector<digest> roots;
  digest whole{};
  std::vector<digest> kept;
};

inline std::uint64_t host_group_subtree_leaves(unsigned arity) {
  return std::uint64_t(1) << (host_group_subtree_height(arity) * ceil_log2(arity));
}

// Reads `in` in the host engine's pieces on `threads` threads, each piece's subtrees hashed up to
// height j by the thread that read it; keeps the leaves of the subtree holding leaf `keep`.
inline group_pieces host_group_pieces(input &in, const group_rule &rule, unsigned threads,
                                      std::optional<std::uint64_t> keep = std::nullopt) {
  const unsigned k = rule.arity(), j = host_group_subtree_height(k);
  if (k > (1u << host_block_log2)) throw error("the host engine's groups are of 2^15 at most");
  const std::uint64_t subtree = host_group_subtree_leaves(k), piece_leaves = 1u << host_block_log2;
  const std::vector<digest> zeros = group_zero_roots(rule, j);
  std::mutex order, lock; // order: the input's reads in turn; lock: what the pieces give
  std::atomic<std::uint64_t> next{0};
  const block_source source = host_input_blocks(in, threads, order, next);
  group_pieces out;
  std::uint64_t bytes = 0;
  host_each_block(source, threads, [&](const block_read &piece, std::uint8_t *data) {
    if (piece.bytes % node_bytes)
      host_leaf_count(in.name(), piece.index * piece_leaves * node_bytes + piece.bytes);
    const std::uint64_t count = piece.bytes / node_bytes, first = piece.index * piece_leaves;
    const bool alone = piece.index == 0 && count < piece_leaves;
    std::vector<digest> tops;
    if (alone) out.whole = host_group_root(data, count, rule, 1);
    for (std::uint64_t at = 0; !alone && at < count; at += subtree)
      tops.push_back(host_group_top(rule, data + at * node_bytes, std::min(subtree, count - at), 0,
                                    j, zeros, 1));
    if (keep && *keep >= first && *keep < first + count) {
      const std::uint64_t from = alone ? 0 : *keep / subtree * subtree - first;
      const std::uint64_t leaves = alone ? count : std::min(subtree, count - from);
      out.kept.resize(static_cast<std::size_t>(leaves));
      std::memcpy(out.kept.data(), data + from * node_bytes, leaves * node_bytes);
    }
    const std::lock_guard<std::mutex> hold(lock);
    const std::uint64_t at = piece.index * (piece_leaves / subtree);
    if (out.roots.size() < at + tops.size()) out.roots.resize(at + tops.size());
    std::copy(tops.begin(), tops.end(), out.roots.begin() + static_cast<std::ptrdiff_t>(at));
    bytes += piece.bytes;
  });
  in.check_unchanged();
  out.count = host_leaf_count(in.name(), bytes); // refuses no leaves
  return out;
}

} // namespace detail

// The root of the tree of `rule` (a power-of-two arity that divides 2^15) over the leaves `in`
// holds, read as host_input_blocks reads it. A file that changed while read is refused, an empty
// input or a partial leaf named with the input.
inline digest host_group_root(input &in, const group_rule &rule, unsigned threads = 0) {
  check_group_rule(rule);
  const detail::group_pieces pieces =
      detail::host_group_pieces(in, rule, threads ? threads : host_engine_threads());
  if (pieces.count < (1u << detail::host_block_log2)) return pieces.whole;
  if (pieces.roots.size() == 1) return pieces.roots.front();
  return group_levels_above(pieces.roots, rule, detail::host_group_subtree_height(rule.arity()))
      .back()
      .front();
}

// The proof of leaf `index` of the k-ary tree of `options` over the leaves `in` holds, as
// kary_prove gives it: the leaves are read as host_group_root reads them, the subtree of k^j
// leaves that holds the leaf kept, its levels giving the siblings below level j and the levels
// above the subtrees' roots the others.
inline kary_proof host_prove(input &in, const kary_options &options, std::uint64_t index,
                             unsigned threads = 0) {
  check_kary(options);
  const group_rule rule = group_rule_of(options);
  const detail::group_pieces pieces =
      detail::host_group_pieces(in, rule, threads ? threads : host_engine_threads(), index);
  check_kary_index(index, pieces.count);
  if (pieces.count < (1u << detail::host_block_log2))
    return kary_prove(kary_levels(pieces.kept, options), options, index);
  const unsigned k = options.arity, j = detail::host_group_subtree_height(k);
  const unsigned height = kary_height(pieces.count, k);
  const std::vector<digest> zeros = kary_zero_roots(options, height);
  // The kept subtree's levels 0 .. j - 1.
  const std::vector<std::vector<digest>> below =
      detail::host_group_levels(rule, pieces.kept, j - 1, zeros, 1);
  const std::vector<std::vector<digest>> above = group_levels_above(pieces.roots, rule, j);
  const std::uint64_t first = index / detail::host_group_subtree_leaves(k); // the kept subtree
  std::vector<std::vector<digest>> siblings;
  for (const path_group &g : plan_path(kary_path_shape(options), pieces.count, index, height)) {
    const auto node = [&](std::uint64_t i) {
      if (g.level >= j) return above[g.level - j][static_cast<std::size_t>(i)];
      const std::uint64_t offset = first << ((j - g.level) * detail::ceil_log2(k));
      return below[g.level][static_cast<std::size_t>(i - offset)];
    };
    siblings.push_back(group_siblings(g, node, zeros[g.level]));
  }
  return {options, pieces.count, index, std::move(siblings)};
}

// The same of `count` leaves at `leaves` in memory (the leaves of data blocks, say), as
// kary_prove gives it: every level hashed, a level at a time, on `threads` threads.
inline kary_proof host_prove(const std::uint8_t *leaves, std::uint64_t count,
                             const kary_options &options, std::uint64_t index,
                             unsigned threads = 0) {
  check_kary(options);
  check_kary_index(index, count);
  std::vector<digest> nodes(static_cast<std::size_t>(count));
  std::memcpy(nodes.data(), leaves, static_cast<std::size_t>(count) * node_bytes);
  const unsigned height = kary_height(count, options.arity);
  const auto levels = detail::host_group_levels(group_rule_of(options), std::move(nodes), height,
                                                kary_zero_roots(options, height),
                                                threads ? threads : host_engine_threads());
  return kary_prove(levels, options, index);
}

} // namespace merklize
