// SPDX-License-Identifier: Apache-2.0 OR MIT
// How fast a CPU device can update a tree in place (1% of 2^25 leaves, beside BLAKE3's hash_many
// rebuilding the tree): the two floors under the host engine's update
// (host_updater.hpp), measured apart, no OpenCL. The tree is one array of levels in touched
// ordinary memory (4 KiB pages, as PoCL's buffers); PCT% of its leaves at random indices are
// grouped by block of 2^INSIDE leaves as host_updater groups them (group_by_block), and each
// round, on every core (the kept workers, blocks handed out by a counter, as host_updater does):
//   lines: each block's leaves written, then level by level each dirty parent's two children
//          read and the parent written (their bytes folded, no hash), in runs of 64 with the next
//          run prefetched: the update's memory traffic alone (the same lines, in the same order).
//   hash:  as many pairs as `lines` visited hashed by the pair hasher from a buffer in the
//          core's cache: the update's hashing alone.
// The update's real time is update_bench --engine=host's, in the same run; the rebuild it is
// held against, merklize_bench's cpu_blake3 (BLAKE3's hash_many). If `lines` alone is near a
// tenth of the rebuild, the target is under this layout's memory floor.
//   update_floor [LOG2 [PCT [ROUNDS [HASH]]]]  (defaults 25 1 5 blake3)
#include "update_helpers.hpp"

#include <merklize/merklize.hpp>

#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

namespace {

using bench::clock_type;
using bench::ms_since;
using merklize::node_bytes;

constexpr std::uint64_t run_pairs = 64; // as host_updater's hash_pairs

struct tree_memory {
  std::vector<std::uint8_t> nodes;   // every level, back to back (touched: zero-filled)
  std::vector<std::uint8_t *> level; // level l's first node
  std::vector<std::uint64_t> sizes;  // level l's nodes
  explicit tree_memory(unsigned log2) : nodes(((std::uint64_t(2) << log2) - 1) * node_bytes) {
    std::uint8_t *at = nodes.data();
    for (std::uint64_t size = std::uint64_t(1) << log2;; size /= 2) {
      level.push_back(at);
      sizes.push_back(size);
      at += size * node_bytes;
      if (size == 1) break;
    }
  }
};

// Parents list[0 .. n) of `out` from their children in `below`: read both, write the parent as
// their bytes folded; runs of run_pairs, the next run's lines prefetched as hash_pairs does.
void fold_parents(const std::uint8_t *below, std::uint8_t *out, const std::uint64_t *list,
                  std::uint64_t n) {
  for (std::uint64_t at = 0; at < n; at += run_pairs) {
    const std::uint64_t run = std::min(run_pairs, n - at);
    for (std::uint64_t k = at + run; k < std::min(n, at + run + run_pairs); ++k) {
      __builtin_prefetch(below + list[k] * 2 * node_bytes);
      __builtin_prefetch(out + list[k] * node_bytes, 1);
    }
    for (std::uint64_t k = at; k < at + run; ++k) {
      std::uint64_t words[8]; // the pair, read whole (a 64-byte line) before the write
      std::memcpy(words, below + list[k] * 2 * node_bytes, sizeof words);
      for (unsigned w = 0; w < 4; ++w)
        words[w] ^= words[w + 4];
      std::memcpy(out + list[k] * node_bytes, words, node_bytes);
    }
  }
}

// Block b's leaves written and its dirty parents folded level by level up to `inside`; the
// pairs visited.
std::uint64_t fold_block(tree_memory &t, const merklize::leaf_blocks &blocks,
                         const std::vector<std::uint64_t> &indices, const std::uint8_t *values,
                         unsigned inside, std::uint64_t b, std::vector<std::uint64_t> &bits,
                         std::vector<std::uint64_t> &dirty, std::vector<std::uint64_t> &parents) {
  const std::uint64_t first_leaf = b << inside;
  std::fill(bits.begin(), bits.end(), 0);
  for (std::uint64_t at = blocks.starts[b]; at < blocks.starts[b + 1]; ++at) {
    const std::uint64_t k = blocks.order[at], i = indices[k];
    std::memcpy(t.level[0] + i * node_bytes, values + k * node_bytes, node_bytes);
    bits[(i - first_leaf) / 64] |= std::uint64_t(1) << (i % 64);
  }
  dirty.clear();
  for (std::uint64_t w = 0; w < bits.size(); ++w)
    for (std::uint64_t x = bits[w]; x; x &= x - 1)
      dirty.push_back(first_leaf + w * 64 + unsigned(__builtin_ctzll(x)));
  std::uint64_t pairs = 0;
  for (unsigned l = 1; l <= inside; ++l) {
    parents.clear();
    for (const std::uint64_t node : dirty)
      if (parents.empty() || parents.back() != node / 2) parents.push_back(node / 2);
    fold_parents(t.level[l - 1], t.level[l], parents.data(), parents.size());
    pairs += parents.size();
    dirty.swap(parents);
  }
  return pairs;
}

// `lines` on every core: milliseconds; *pairs the pairs visited.
double time_lines(tree_memory &t, const merklize::leaf_blocks &blocks,
                  const std::vector<std::uint64_t> &indices,
                  const std::vector<std::uint8_t> &values, unsigned inside, std::uint64_t *pairs) {
  const unsigned threads = merklize::host_engine_threads();
  const std::uint64_t count = blocks.starts.size() - 1;
  std::atomic<std::uint64_t> next{0}, visited{0};
  const auto start = clock_type::now();
  merklize::detail::worker_pool::cores().run(threads, [&](unsigned) {
    std::vector<std::uint64_t> bits((std::uint64_t(1) << inside) / 64), dirty, parents;
    std::uint64_t mine = 0;
    for (std::uint64_t b; (b = next.fetch_add(1)) < count;)
      mine += fold_block(t, blocks, indices, values.data(), inside, b, bits, dirty, parents);
    visited += mine;
  });
  *pairs = visited;
  return ms_since(start);
}

// `pairs` pairs hashed in runs of run_pairs from one buffer a thread, on every core.
double time_hash(merklize::detail::pair_hash_fn hash, std::uint64_t pairs) {
  const unsigned threads = merklize::host_engine_threads();
  const auto start = clock_type::now();
  merklize::detail::worker_pool::cores().run(threads, [&](unsigned k) {
    std::uint8_t in[run_pairs * 2 * node_bytes] = {}, out[run_pairs * node_bytes];
    const std::uint64_t mine = pairs * (k + 1) / threads - pairs * k / threads;
    for (std::uint64_t at = 0; at < mine; at += run_pairs) {
      hash(in, out, std::min(run_pairs, mine - at));
      in[0] ^= out[0]; // each run depends on the last: nothing hoisted
    }
  });
  return ms_since(start);
}

int run(unsigned log2, double pct, int rounds, const std::string &hash_name) {
  const merklize::detail::pair_hash_fn hash =
      merklize::detail::pair_hasher(merklize::row_of(merklize::parse_hash_kind(hash_name)));
  if (!hash) throw std::runtime_error("no host pair hasher for " + hash_name);
  // host_updater's block height: blocks of 2^(top - 10) leaves, at most 2^16.
  const unsigned inside = std::min(log2 - 10, 16u);
  const std::uint64_t n = std::uint64_t(1) << log2;
  const auto batch = static_cast<std::uint64_t>(std::max(1.0, double(n) * pct / 100));
  tree_memory t(log2);
  std::mt19937_64 rng(31);
  std::printf("update_floor: 2^%u leaves, %llu updates (%.2f%%), blocks of 2^%u leaves, %u "
              "threads, %s\n\n| round | lines ms | hash ms | pairs |\n|---|---|---|---|\n",
              log2, static_cast<unsigned long long>(batch), pct, inside,
              merklize::host_engine_threads(), hash_name.c_str());
  for (int r = 1; r <= rounds; ++r) {
    std::vector<std::uint64_t> indices(batch);
    for (auto &i : indices)
      i = rng() % n;
    std::vector<std::uint8_t> values(batch * node_bytes);
    bench::fill_random(values.data(), values.size(), rng);
    merklize::leaf_blocks blocks;
    if (!merklize::group_by_block(blocks, indices.data(), batch, n, inside, 1,
                                  [](unsigned s, const auto &work) {
                                    for (unsigned k = 0; k < s; ++k)
                                      work(k);
                                  }))
      throw std::runtime_error("an index outside the tree");
    std::uint64_t pairs = 0;
    const double lines_ms = time_lines(t, blocks, indices, values, inside, &pairs);
    const double hash_ms = time_hash(hash, pairs);
    std::printf("| %d | %.3f | %.3f | %llu |\n", r, lines_ms, hash_ms,
                static_cast<unsigned long long>(pairs));
  }
  return 0;
}

} // namespace

int main(int argc, char **argv) {
  try {
    return run(argc > 1 ? static_cast<unsigned>(std::atoi(argv[1])) : 25u,
               argc > 2 ? std::atof(argv[2]) : 1.0, argc > 3 ? std::atoi(argv[3]) : 5,
               argc > 4 ? argv[4] : "blake3");
  } catch (const std::exception &e) {
    std::fprintf(stderr, "update_floor: %s\n", e.what());
    return 1;
  }
}
