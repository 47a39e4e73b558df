// SPDX-License-Identifier: Apache-2.0 OR MIT
// Where a k-ary multiproof's nodes lie in a k-ary tree kept on the device, as one flat list of
// places to gather (engine/kary_multiproof_gather.hpp), and how the gathered nodes and shape
// zero's zero-subtree roots are put back in proof order. Pure, no OpenCL: the gatherer and
// bench/multiproof_places_bench run this code.
//
// The places are listed straight from the planner's visits (visit_kary_multiproof, one climb
// into a list reserved once for a bound), no list of positions between; a zero-subtree root (an
// index past its level's size) takes no place and is recorded apart: few, a level's short group has
// at most k - 1.
#pragma once

#include "kary_multiproof.hpp"

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <vector>

namespace merklize {
namespace detail {

struct kary_proof_places {
  struct zero_place {
    unsigned level;
    std::size_t place; // its place in the proof
  };
  std::size_t total = 0;           // the proof's nodes
  std::vector<std::uint64_t> list; // the gathered nodes' places, in proof order
  std::size_t below = 0;           // the first `below` of them are leaves
  std::vector<zero_place> zeros;   // the zero-subtree roots', ascending
};

// At least as many nodes as the multiproof of `m` leaves of a k-ary tree of level sizes `sizes`
// holds: a level's known nodes (at most m, at most the level) each lists at most k - 1 members,
// at most the level's nodes and a short group's k - 1 zero-subtree roots; the root alone where m
// is 0.
inline std::uint64_t kary_multiproof_bound(const std::vector<std::uint64_t> &sizes, unsigned k,
                                           std::uint64_t m) {
  std::uint64_t bound = 1;
  for (std::size_t l = 0; l + 1 < sizes.size(); ++l)
    bound += std::min(std::min(m, sizes[l]) * (k - 1), sizes[l] + k - 1);
  return bound;
}

// The places of the multiproof of `sorted` (strictly increasing, each below sizes[0]) of a
// k-ary tree of `options` whose level sizes are `sizes`, into `out` (its memory reused): a leaf's
// its index, a node above's first(level) + its index. One climb: the list reserved for
// kary_multiproof_bound's places first (address space only: the pages past those written are
// never touched), not counted by a climb of its own.
template <class First>
void list_kary_proof_places(kary_proof_places &out, const kary_options &options,
                            const std::vector<std::uint64_t> &sizes,
                            const std::vector<std::uint64_t> &sorted, const First &first) {
  out.list.clear();
  out.list.reserve(
      static_cast<std::size_t>(kary_multiproof_bound(sizes, options.arity, sorted.size())));
  out.zeros.clear();
  out.below = 0;
  visit_kary_multiproof(options, sizes.front(), sorted, [&](unsigned level, std::uint64_t index) {
    if (index >= sizes[level]) {
      out.zeros.push_back({level, out.list.size() + out.zeros.size()});
    } else {
      out.list.push_back(level == 0 ? index : first(level) + index);
      out.below += level == 0;
    }
  });
  out.total = out.list.size() + out.zeros.size();
}

// `nodes` (places.total of them) whose front holds the gathered nodes in proof order: the
// zero-subtree roots put in their places (zeros[l]: the root of height l), the gathered nodes
// after each moved up to theirs, a run at a time from the back (a node only ever moves to a
// later place).
inline void spread_kary_zeros(std::vector<digest> &nodes, const kary_proof_places &places,
                              const std::vector<digest> &zeros) {
  std::size_t end = nodes.size(); // nodes[end..) are in place
  for (std::size_t z = places.zeros.size(); z-- > 0;) {
    const kary_proof_places::zero_place &p = places.zeros[z];
    const auto at = [&](std::size_t i) { return nodes.begin() + static_cast<std::ptrdiff_t>(i); };
    // Before it lie p.place - z gathered nodes (z zero-subtree roots go before it too).
    std::move_backward(at(p.place - z), at(p.place - z + (end - p.place - 1)), at(end));
    nodes[p.place] = zeros[p.level];
    end = p.place;
  }
}

} // namespace detail
} // namespace merklize
