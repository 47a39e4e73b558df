// SPDX-License-Identifier: Apache-2.0 OR MIT
// C2SP tlog-tiles (c2sp.org/tlog-tiles): a transparency log's RFC 6962 tree published as tiles,
// the layout alone (pure: no OpenCL, no files). A tile of level L and index N lists W <= 256
// consecutive hashes of tree level 8 L, those of nodes N * 256 .. N * 256 + W - 1; each stands
// for a *complete* subtree of 256^L leaves, MTH(D[(N * 256 + i) * 256^L : ... + 256^L]). A tree
// of size s has, at each level L, floor(s / 256^(L+1)) full tiles and, where
// w = floor(s / 256^L) mod 256 is not 0, one partial tile of width w. merklize's promote tree
// holds those hashes as they are: its node (8 L, j) is that MTH wherever the subtree is complete
// (core/tree.hpp), so a level of tiles is a run of one level's nodes.
//
// Paths, relative to the log's prefix: tile/<L>/<N>[.p/<W>], N written in 3-digit elements, all
// but the last led by "x" (1234067 is x001/x234/067); the entry bundles, the log's entries of
// level-0 tile N each framed by a 2-byte big-endian length, at tile/entries/<N>[.p/<W>].
//
// Reading back: the node of level l = 8 L + r (r < 8) and index j of a complete subtree is the
// subtree hash of the hashes j * 2^r .. (j + 1) * 2^r - 1 of level L (node_in_tiles), hashed up
// r levels (tile_subtree_hash), as Go's sumdb/tlog (tileForIndex, tileHash) reads its tiles.
#pragma once

#include "../core/digest.hpp"
#include "../core/error_type.hpp"
#include "../core/node_rule.hpp"
#include "../core/quote.hpp"

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <optional>
#include <string>

namespace merklize {
namespace tlog {

constexpr unsigned tile_height = 8;      // tree levels a tile spans
constexpr std::uint64_t tile_width = 256; // hashes in a full tile
constexpr unsigned max_tile_level = 63;   // the spec's bound on <L>
constexpr std::uint64_t max_bundle_entry_bytes = 65535; // a 2-byte length

struct tile {
  unsigned level = 0;     // L: its hashes are of tree level 8 L
  std::uint64_t index = 0; // N
  unsigned width = 0;     // W, 1..256; 256 is a full tile
  bool full() const { return width == tile_width; }
};

inline bool operator==(const tile &a, const tile &b) {
  return a.level == b.level && a.index == b.index && a.width == b.width;
}

namespace detail {

// floor(size / 256^level); 0 past the top (a shift of 64 bits or more).
inline std::uint64_t complete_at(std::uint64_t size, unsigned level) {
  const unsigned shift = tile_height * level;
  return shift >= 64 ? 0 : size >> shift;
}

inline std::string index_path(std::uint64_t index) {
  std::string path;
  char group[8];
  do {
    const unsigned digits = static_cast<unsigned>(index % 1000);
    std::snprintf(group, sizeof group, "%03u", digits);
    path = (path.empty() ? std::string(group) : std::string("x") + group + "/" + path);
    index /= 1000;
  } while (index > 0);
  return path;
}

inline std::string width_suffix(unsigned width) {
  return width == tile_width ? std::string() : ".p/" + std::to_string(width);
}

} // namespace detail

// The tiles' levels of a tree of `size` leaves: those with a tile (0 for an empty tree).
inline unsigned tile_levels(std::uint64_t size) {
  unsigned levels = 0;
  while (levels <= max_tile_level && detail::complete_at(size, levels) > 0)
    ++levels;
  return levels;
}

// The tiles of level `level` in a tree of `size` leaves: full ones, then the partial one if any.
inline std::uint64_t tile_count(std::uint64_t size, unsigned level) {
  const std::uint64_t hashes = detail::complete_at(size, level);
  return hashes / tile_width + (hashes % tile_width ? 1 : 0);
}

// Tile `index` of level `level` as a tree of `size` leaves publishes it (its width), or nothing
// where the tree has no such tile.
inline std::optional<tile> tile_of(std::uint64_t size, unsigned level, std::uint64_t index) {
  const std::uint64_t hashes = detail::complete_at(size, level);
  if (index >= tile_count(size, level)) return std::nullopt;
  const std::uint64_t first = index * tile_width;
  const std::uint64_t width = hashes - first < tile_width ? hashes - first : tile_width;
  return tile{level, index, static_cast<unsigned>(width)};
}

// visit(tile) for every tile of the tree of `size` leaves, level by level from 0, in index order.
template <class Visit> void for_each_tile(std::uint64_t size, const Visit &visit) {
  for (unsigned level = 0; level < tile_levels(size); ++level)
    for (std::uint64_t index = 0; index < tile_count(size, level); ++index)
      visit(*tile_of(size, level, index));
}

// "tile/1/x001/x234/067.p/17".
inline std::string tile_path(const tile &t) {
  return "tile/" + std::to_string(t.level) + "/" + detail::index_path(t.index) +
         detail::width_suffix(t.width);
}

// "tile/entries/x001/x234/067.p/17": the entry bundle beside level-0 tile `t`.
inline std::string entry_bundle_path(const tile &t) {
  return "tile/entries/" + detail::index_path(t.index) + detail::width_suffix(t.width);
}

// The first tree node a tile holds: its hashes are nodes (tree_level, first_node .. + width - 1).
struct tile_nodes {
  unsigned tree_level;
  std::uint64_t first_node;
};

inline tile_nodes nodes_of(const tile &t) {
  return {tile_height * t.level, t.index * tile_width};
}

// Where the complete subtree node (tree_level, index) is read from: `hashes` hashes of tile
// (level, tile_index), from `first` within it (the tile must be at least first + hashes wide).
struct node_in_tiles {
  unsigned level;
  std::uint64_t tile_index;
  unsigned first, hashes;
};

inline node_in_tiles locate_node(unsigned tree_level, std::uint64_t index) {
  const unsigned level = tree_level / tile_height, rise = tree_level % tile_height;
  if (level > max_tile_level || (rise && index > (UINT64_MAX >> rise)))
    throw error("node " + std::to_string(index) + " of level " + std::to_string(tree_level) +
                " lies past the tiles' levels");
  const std::uint64_t first_hash = index << rise;
  return {level, first_hash / tile_width, static_cast<unsigned>(first_hash % tile_width),
          1u << rise};
}

// The subtree hash of `count` (a power of two) consecutive tile hashes at `hashes`, 32 bytes
// each: RFC 6962's node hash r = log2(count) levels up (Go's tileHash).
inline digest tile_subtree_hash(const std::uint8_t *hashes, unsigned count) {
  if (count == 1) {
    digest d;
    std::copy(hashes, hashes + node_bytes, d.begin());
    return d;
  }
  const unsigned half = count / 2;
  return node_hash(hash_kind::rfc6962, tile_subtree_hash(hashes, half),
                   tile_subtree_hash(hashes + half * node_bytes, half), false);
}

// A tile path read back (untrusted): exactly what tile_path writes, else an error naming it.
inline tile parse_tile_path(const std::string &path) {
  const auto bad = [&](const std::string &why) {
    return error("not a C2SP tile path (tile/<L>/<N>[.p/<W>]): " + why + ": " +
                 merklize::detail::quoted(path, 128));
  };
  if (path.compare(0, 5, "tile/") != 0) throw bad("it does not start with tile/");
  const std::size_t slash = path.find('/', 5);
  if (slash == std::string::npos) throw bad("no index");
  const std::string level_text = path.substr(5, slash - 5);
  if (level_text.empty() || level_text.size() > 2 ||
      level_text.find_first_not_of("0123456789") != std::string::npos)
    throw bad("a level that is not 0 to 63");
  tile t;
  t.level = static_cast<unsigned>(std::stoul(level_text));
  if (t.level > max_tile_level) throw bad("a level that is not 0 to 63");
  t.width = tile_width;
  std::string rest = path.substr(slash + 1);
  const std::size_t partial = rest.find(".p/");
  if (partial != std::string::npos) {
    const std::string width_text = rest.substr(partial + 3);
    if (width_text.empty() || width_text.size() > 3 ||
        width_text.find_first_not_of("0123456789") != std::string::npos)
      throw bad("a width that is not 1 to 255");
    t.width = static_cast<unsigned>(std::stoul(width_text));
    if (t.width == 0 || t.width >= tile_width) throw bad("a width that is not 1 to 255");
    rest.resize(partial);
  }
  t.index = 0;
  for (std::size_t at = 0;;) {
    const std::size_t end = rest.find('/', at);
    const bool last = end == std::string::npos;
    const std::string element = rest.substr(at, last ? std::string::npos : end - at);
    const std::string digits = last ? element : element.substr(element.empty() ? 0 : 1);
    if ((!last && (element.empty() || element[0] != 'x')) || digits.size() != 3 ||
        digits.find_first_not_of("0123456789") != std::string::npos)
      throw bad("an index element that is not 3 digits (x-led but the last)");
    const std::uint64_t group = std::stoul(digits);
    if (t.index > (UINT64_MAX - group) / 1000) throw bad("an index past 2^64");
    t.index = t.index * 1000 + group;
    if (last) break;
    at = end + 1;
  }
  if (tile_path(t) != path) throw bad("not written as the spec writes it");
  return t;
}

} // namespace tlog
} // namespace merklize
