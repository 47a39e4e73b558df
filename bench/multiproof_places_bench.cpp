// SPDX-License-Identifier: Apache-2.0 OR MIT
// update_proved's host part without a device: what the host does before a batch's
// multiproof is gathered, the way it was (the before rows: the bench's own copies) and the way
// it is (the after rows: the library's), for the binary tree of 2^LOG2 leaves and the k-ary one
// of K^LEVELS leaves (shapes promote and zero), PCT% of the leaves at random (repeats possible).
//   sort: the sorted distinct batch. Before: canonical_indices' std::sort (k-ary) and sort_batch
//     on one thread (binary); after: sort_batch_into in batch_slices slices on the host's cores,
//     its memory kept (a k-ary batch that was planned takes its plan's, sorting nothing).
//   positions: multiproof_positions / kary_multiproof_positions. Before: a list grown by
//     push_back; after: the visitor's count pass, one exact reserve, its fill pass.
//   places: the gatherer's flat list of places. Before: from the positions (their list made
//     first); after: the gatherers' own code (list_visits_into, list_kary_proof_places),
//     straight from the visitor in one climb into a list reserved for a bound, its memory kept
//     from call to call as the gatherers keep it, the k-ary one recording shape zero's
//     zero-subtree places apart.
// Each row the median of ROUNDS runs, in ms. Prints a table.
//   multiproof_places_bench [LOG2 [K [LEVELS [PCT [ROUNDS]]]]]  (defaults 25 8 8 1 7)
#include "update_helpers.hpp"

#include <merklize/plan/update_batch.hpp>
#include <merklize/proofs/kary_proof_places.hpp>
#include <merklize/runtime/worker_pool.hpp>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <random>
#include <string>
#include <vector>

namespace {

using bench::clock_type;
using bench::ms_since;
using merklize::node_position;

// The median of `rounds` timings of work(), which returns something to keep it from being
// optimized away.
double median_ms(int rounds, const std::function<std::size_t()> &work) {
  std::vector<double> ms;
  std::size_t sink = 0;
  for (int r = 0; r < rounds; ++r) {
    const auto at = clock_type::now();
    sink += work();
    ms.push_back(ms_since(at));
  }
  std::sort(ms.begin(), ms.end());
  if (sink == 42) std::printf(" ");
  return ms[ms.size() / 2];
}

// Before: the binary positions grown by push_back (multiproof_positions as it was).
std::vector<node_position> old_binary_positions(std::uint64_t n,
                                                const std::vector<std::uint64_t> &sorted) {
  using merklize::detail::nothing;
  std::vector<std::pair<std::uint64_t, nothing>> known;
  for (const std::uint64_t i : sorted)
    known.emplace_back(i, nothing{});
  std::vector<node_position> positions;
  merklize::detail::climb<nothing>(
      std::move(known), n, merklize::detail::depth_of(n),
      [](unsigned, nothing, nothing) { return nothing{}; },
      [&](unsigned level, std::uint64_t i, nothing) {
        positions.push_back({level, i ^ 1});
        return nothing{};
      },
      [](unsigned, nothing) { return nothing{}; });
  return positions;
}

// Before: the k-ary positions grown by push_back (kary_multiproof_positions as it was).
std::vector<node_position> old_kary_positions(const merklize::kary_options &o, std::uint64_t n,
                                              const std::vector<std::uint64_t> &sorted) {
  using value = merklize::detail::kary_position_only;
  std::vector<std::pair<std::uint64_t, value>> known;
  for (const std::uint64_t i : sorted)
    known.emplace_back(i, value{});
  std::vector<node_position> positions;
  merklize::detail::kary_climb<value>(
      std::move(known), o, n,
      [&](unsigned level, std::uint64_t index) {
        positions.push_back({level, index});
        return value{};
      },
      [](unsigned, const std::vector<value> &) { return value{}; });
  return positions;
}

// A stand-in for device_tree's layout: each level's first node, levels back to back.
std::vector<std::uint64_t> level_firsts(std::uint64_t n, unsigned k) {
  std::vector<std::uint64_t> first{0};
  for (std::uint64_t size = n; size > 1; size = (size + k - 1) / k)
    first.push_back(first.back() + size);
  return first;
}

std::vector<std::uint64_t> level_sizes(std::uint64_t n, unsigned k) {
  std::vector<std::uint64_t> sizes{n};
  while (sizes.back() > 1)
    sizes.push_back((sizes.back() + k - 1) / k);
  return sizes;
}

void row(const char *what, double before, double after) {
  std::printf("| %s | %.2f | %.2f |\n", what, before, after);
}

void binary_rows(std::uint64_t n, const std::vector<std::uint64_t> &batch, int rounds) {
  merklize::update_batch sorted_batch;
  merklize::batch_sort_memory memory;
  const auto slices = merklize::detail::batch_slices(batch.size());
  row("binary: sort",
      median_ms(rounds, [&] { return merklize::sort_batch(n, batch).leaves.size(); }),
      median_ms(rounds, [&] {
        merklize::sort_batch_into(sorted_batch, memory, n, batch.data(), batch.size(), slices,
                                  merklize::detail::on_cores{});
        return sorted_batch.leaves.size();
      }));
  const std::vector<std::uint64_t> sorted(sorted_batch.leaves.begin(), sorted_batch.leaves.end());
  row("binary: positions",
      median_ms(rounds, [&] { return old_binary_positions(n, sorted).size(); }),
      median_ms(rounds, [&] { return merklize::multiproof_positions(n, sorted).size(); }));
  const auto first = level_firsts(n, 2);
  const std::uint64_t capacity = n;
  std::vector<std::uint64_t> offsets; // its memory kept, as the gatherer keeps it
  row("binary: places",
      median_ms(rounds,
                [&] {
                  std::vector<std::uint64_t> offsets;
                  for (const node_position &p : old_binary_positions(n, sorted))
                    offsets.push_back(p.level == 0 ? p.index : capacity + first[p.level] + p.index);
                  return offsets.size();
                }),
      median_ms(rounds, [&] {
        merklize::detail::list_visits_into(
            offsets, merklize::detail::multiproof_bound(n, sorted.size()),
            [&](const auto &visit) { merklize::detail::visit_multiproof(n, sorted, visit); },
            [&](unsigned level, std::uint64_t index) {
              return level == 0 ? index : capacity + first[level] + index;
            });
        return offsets.size();
      }));
}

void kary_rows(const merklize::kary_options &o, std::uint64_t n,
               const std::vector<std::uint64_t> &batch, int rounds) {
  const std::string shape = o.shape == merklize::shape::zero ? " zero" : " promote";
  merklize::update_batch sorted_batch;
  merklize::batch_sort_memory memory;
  const auto slices = merklize::detail::batch_slices(batch.size());
  row(("k-ary" + shape + ": sort (elected; planned: none)").c_str(),
      median_ms(rounds, [&] { return merklize::canonical_indices(batch, n).size(); }),
      median_ms(rounds, [&] {
        merklize::sort_batch_into(sorted_batch, memory, n, batch.data(), batch.size(), slices,
                                  merklize::detail::on_cores{});
        return sorted_batch.leaves.size();
      }));
  const std::vector<std::uint64_t> sorted(sorted_batch.leaves.begin(), sorted_batch.leaves.end());
  row(("k-ary" + shape + ": positions").c_str(),
      median_ms(rounds, [&] { return old_kary_positions(o, n, sorted).size(); }),
      median_ms(rounds, [&] { return merklize::kary_multiproof_positions(o, n, sorted).size(); }));
  const auto first = level_firsts(n, o.arity);
  const auto sizes = level_sizes(n, o.arity);
  merklize::detail::kary_proof_places places; // its memory kept, as the gatherer keeps it
  row(("k-ary" + shape + ": places").c_str(),
      median_ms(rounds,
                [&] {
                  const auto positions = old_kary_positions(o, n, sorted);
                  std::vector<std::uint64_t> list;
                  list.reserve(positions.size());
                  for (const node_position &p : positions)
                    if (p.index < sizes[p.level])
                      list.push_back(p.level == 0 ? p.index : first[p.level] + p.index);
                  return list.size() + positions.size();
                }),
      median_ms(rounds, [&] {
        merklize::detail::list_kary_proof_places(places, o, sizes, sorted,
                                                 [&](unsigned level) { return first[level]; });
        return places.list.size() + places.total;
      }));
}

} // namespace

int main(int argc, char **argv) {
  const unsigned log2 = argc > 1 ? static_cast<unsigned>(std::atoi(argv[1])) : 25u;
  const unsigned k = argc > 2 ? static_cast<unsigned>(std::atoi(argv[2])) : 8u;
  const unsigned levels = argc > 3 ? static_cast<unsigned>(std::atoi(argv[3])) : 8u;
  const double pct = argc > 4 ? std::atof(argv[4]) : 1.0;
  const int rounds = argc > 5 ? std::max(1, std::atoi(argv[5])) : 7;
  std::mt19937_64 rng(39);
  const std::uint64_t n = std::uint64_t(1) << log2;
  std::uint64_t kn = 1;
  for (unsigned l = 0; l < levels; ++l)
    kn *= k;
  const auto random_batch = [&](std::uint64_t leaves) {
    std::vector<std::uint64_t> batch(static_cast<std::size_t>(std::max(1.0, leaves * pct / 100)));
    for (auto &i : batch)
      i = rng() % leaves;
    return batch;
  };
  std::printf("binary: 2^%u leaves; k-ary: %u^%u = %llu leaves; batches of %.2f%%, random; median "
              "of %d runs; sorts in %u slices\n\n| step | before ms | after ms |\n|---|---|---|\n",
              log2, k, levels, static_cast<unsigned long long>(kn), pct, rounds,
              merklize::detail::batch_slices(n));
  binary_rows(n, random_batch(n), rounds);
  const auto kary_batch = random_batch(kn);
  for (auto pad : {merklize::shape::promote, merklize::shape::zero})
    kary_rows({merklize::hash_kind::blake3, k, pad}, kn, kary_batch, rounds);
  return 0;
}
