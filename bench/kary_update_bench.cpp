// SPDX-License-Identifier: Apache-2.0 OR MIT
// A k-ary tree kept on the device (resident_kary_tree.hpp) changed in place, against building it
// again, interleaved in one run. Per round, PCT% of K^LEVELS leaves at random indices (repeats
// possible) get new random values from host memory; the update is timed whole by the host's clock
// (the host's sort and lists, the uploads, three launches a listed level or one a level hashed
// whole, the root read back) and split (resident_kary_tree::last_split: the host's plan, enqueueing
// and wait; the device's uploads, leaves, listed and whole levels, with the levels each way and the
// groups listed); then two rebuilds of the same leaves: on the device over the leaves already there
// (device_tree's build alone) and from host memory (a new resident_kary_tree: upload and build).
// After the last round the updated root must equal the rebuilds'. Prints a table. WHOLE sets the
// share of a level's dirty groups past which levels are hashed whole, in percent (default: the
// device's tuning row's; 1000: every level listed, the path of a plan without whole levels). ELECT
// sets the batches elected on the device with every level hashed whole, no plan on the host, in
// updates a thousand leaves (default: the tuning row's; 0: none, every batch planned on the host).
// --proved: each round's update is update_proved (the batch's k-ary multiproof gathered on the
// device and read back; its node count in the last column), and the proof must verify against the
// new root.
//   kary_update_bench [--proved] [K [LEVELS [HASH [ROUNDS [PCT [WHOLE [ELECT]]]]]]]  (defaults
//                                                        16 6 sha256 5 1; MERKLIZE_DEVICE)
#include "update_helpers.hpp"

#include <merklize/merklize.hpp>

#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

namespace {

using bench::clock_type;
using bench::ms_since;

// The update's multiproof checked against the leaves as they are now and the new root.
void check_proof(const merklize::kary_multiproof &proof,
                 const std::vector<merklize::digest> &leaves, const merklize::digest &root) {
  std::vector<merklize::digest> proven(proof.indices.size());
  for (std::size_t i = 0; i < proven.size(); ++i)
    proven[i] = leaves[static_cast<std::size_t>(proof.indices[i])];
  if (!merklize::kary_verify_multi(proof, proven, root))
    throw std::runtime_error("the update's multiproof does not verify");
}

int run(bool proved, unsigned k, unsigned levels, const std::string &hash, int rounds, double pct,
        int whole, int elect) {
  const merklize::kary_options options{merklize::parse_hash_kind(hash), k,
                                       merklize::shape::promote};
  std::uint64_t n = 1;
  for (unsigned l = 0; l < levels; ++l)
    n *= k;
  const auto batch = static_cast<std::size_t>(std::max(1.0, double(n) * pct / 100));
  std::mt19937_64 rng(36);
  std::vector<merklize::digest> leaves(static_cast<std::size_t>(n)), values(batch);
  bench::fill_random(leaves.data(), leaves.size() * merklize::node_bytes, rng);
  merklize::block_hasher h(merklize::default_device());
  auto at = clock_type::now();
  merklize::resident_kary_tree t(h, leaves, options);
  if (whole >= 0) t.set_whole_level_percent(static_cast<unsigned>(whole));
  if (elect >= 0) t.set_elect_per_mille(static_cast<unsigned>(elect));
  std::printf(
      "device: %s; %s, arity %u, %u^%u = %llu leaves, batches of %zu (%.2f%%), levels "
      "whole past %u%% dirty, batches elected on the device from %u per mille; tree built in "
      "%.1f ms\n\n| round | update ms | host: plan, "
      "enqueue, wait ms | device: upload, "
      "leaves, listed, whole ms | levels listed + whole (groups listed) | device rebuild "
      "ms | host rebuild ms | proof nodes |\n|---|---|---|---|---|---|---|---|\n",
      merklize::device_name(h.device()).c_str(), hash.c_str(), k, k, levels,
      static_cast<unsigned long long>(n), batch, pct, t.whole_level_percent(), t.elect_per_mille(),
      ms_since(at));
  merklize::digest device_root{}, host_root{};
  for (int r = 0; r < rounds; ++r) {
    std::vector<std::uint64_t> indices(batch);
    for (auto &i : indices)
      i = rng() % n;
    bench::fill_random(values.data(), batch * merklize::node_bytes, rng);
    for (std::size_t i = 0; i < batch; ++i)
      leaves[static_cast<std::size_t>(indices[i])] = values[i];
    at = clock_type::now();
    merklize::kary_multiproof proof;
    if (proved)
      proof = t.update_proved(indices, values).second;
    else
      t.update(indices, values);
    const double update_ms = ms_since(at);
    if (proved) check_proof(proof, leaves, t.root());
    at = clock_type::now();
    const merklize::device_tree again(h, {t.on_device().level_buffer(0), n, n * 32, {}}, options);
    device_root = again.root();
    const double device_ms = ms_since(at);
    at = clock_type::now();
    host_root = merklize::resident_kary_tree(h, leaves, options).root();
    const double host_ms = ms_since(at);
    const merklize::kary_update_split &s = t.last_split();
    std::printf("| %d | %.3f | %.3f, %.3f, %.3f | %.3f, %.3f, %.3f, %.3f | %u + %u (%llu) | %.3f | "
                "%.3f | %llu |\n",
                r + 1, update_ms, s.plan_ms, s.enqueue_ms, s.wait_ms, s.upload_ms, s.leaves_ms,
                s.listed_ms, s.whole_ms, s.listed_levels, s.whole_levels,
                static_cast<unsigned long long>(s.listed_groups), device_ms, host_ms,
                static_cast<unsigned long long>(proof.nodes.size()));
  }
  if (device_root != t.root() || host_root != t.root()) {
    std::fprintf(stderr, "kary_update_bench: the updated root differs from the rebuilds'\n");
    return 1;
  }
  return 0;
}

} // namespace

int main(int argc, char **argv) {
  try {
    const bool proved = argc > 1 && std::string(argv[1]) == "--proved";
    if (proved) --argc, ++argv;
    return run(proved, argc > 1 ? static_cast<unsigned>(std::atoi(argv[1])) : 16u,
               argc > 2 ? static_cast<unsigned>(std::atoi(argv[2])) : 6u,
               argc > 3 ? argv[3] : "sha256", argc > 4 ? std::atoi(argv[4]) : 5,
               argc > 5 ? std::atof(argv[5]) : 1.0, argc > 6 ? std::atoi(argv[6]) : -1,
               argc > 7 ? std::atoi(argv[7]) : -1);
  } catch (const std::exception &e) {
    std::fprintf(stderr, "kary_update_bench: %s\n", e.what());
    return 1;
  }
}
