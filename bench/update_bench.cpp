// SPDX-License-Identifier: Apache-2.0 OR MIT
// A tree kept on the device (resident_tree.hpp) changed in place, against a full
// rebuild of the same leaves from host memory (merkleizer::build, the root only), interleaved in
// one run.
//
// Updates: per round, PCT% of 2^LOG2 leaves at random indices (repeats possible) get new random
// values from host memory; the update is timed whole by the host's clock, the host's part of it
// (the call before it waits for the root: checking the indices, staging and enqueueing the
// uploads, enqueueing the launches; update_events), its kernels and transfers by profiled
// events; then the rebuild, whole and its kernels. After the table, the host's part split, and
// the path the updates took (levels listed on the device, or every level recomputed whole).
// Appends: per round, COUNT new random leaves after the last (the first round may grow the
// device memory: each level moved once), timed the same way, beside the rebuild of all of them.
// After the last round the tree's root must equal the rebuild's. Peak device memory by
// arithmetic: the resident tree's leaves, levels (with the room appends left) and batch scratch
// (device_bytes()); the rebuild's leaves and levels. Prints a table.
// Batch mode: the same updates filled in place in the tree's page-locked update batch
// (resident_batch.hpp), written to the device from there with no host copy (the ordinary mode
// stages them through page-locked memory first).
// Proved mode: each update is update_proved (the batch's multiproof gathered on the device and
// read back: the batch sorted on the host's cores, its places listed from the planner's visits,
// one launch, one read); after the table, the proofs' mean node count, each proof verified
// against the new root outside the timed call.
// Between two updates (UPDATE_BENCH_BETWEEN): `rebuild` (the default, the baseline's row),
// `none` (back to back; the rebuild once at the end, for the root's check) or `sleep` (60 ms
// idle, the rebuild's length without its work): whether what runs between calls slows them.
// The "outside ms" column is the call less its split (check, uploads, launches, the root's
// wait): host time no step of the split accounts for.
// --engine=kernels|host|automatic (first, before the mode) picks the engine of updates from host
// memory (config::resident_updates; automatic: the host's cores on CPU devices). Updates also
// time the host engine's rebuild (host_root on every core) beside the device's, where the hash
// has one.
//   update_bench [--engine=E] [LOG2 [HASH [ROUNDS [PCT]]]]  (defaults 25 blake3 5 1;
//   MERKLIZE_DEVICE)
//   update_bench [--engine=E] batch LOG2 HASH ROUNDS PCT
//   update_bench [--engine=E] proved LOG2 HASH ROUNDS PCT
//   update_bench [--engine=E] append LOG2 HASH ROUNDS COUNT
#include "update_helpers.hpp"

#include <merklize/merklize.hpp>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

namespace {

using bench::clock_type;
using bench::fill_random;
using bench::ms_since;

double mib(std::uint64_t bytes) { return double(bytes) / (1 << 20); }

struct bench_setup {
  unsigned log2;
  std::string hash;
  int rounds;
  std::string between; // what runs between two updates: rebuild, none or sleep
  merklize::resident_update engine;
};

// The table's row of one round: the call whole, its host part, its commands; the rebuild.
void print_row(int round, double call_ms, double host_ms, const merklize::update_events &e,
               std::uint64_t nodes, double rebuild_ms, double rebuild_kernels_ms) {
  const double outside = call_ms - e.check_ms - e.upload_ms - e.enqueue_ms - e.wait_ms;
  std::printf("| %d | %.3f | %.3f | %.3f | %.3f | %.3f | %zu | %llu | %.2f | %.3f |\n", round,
              call_ms, host_ms, outside, merklize::events_ms(e.kernels),
              merklize::events_ms(e.transfers), e.kernels.size(),
              static_cast<unsigned long long>(nodes), rebuild_ms, rebuild_kernels_ms);
}

void print_memory(const merklize::resident_tree &t, std::uint64_t n, const merklize::digest &root,
                  std::uint64_t batch_bytes) {
  const std::uint64_t tree_bytes = (2 * n - 1) * merklize::node_bytes;
  std::printf("\nroots agree: %s\npeak device memory (arithmetic): resident tree %.1f MiB "
              "(room for %llu leaves); rebuild's leaves and levels %.1f MiB\nhost memory of a "
              "call (arithmetic): the batch %.1f MiB, page-locked (staging of it, or in batch "
              "mode the batch itself)\n",
              merklize::to_hex(root).c_str(), mib(t.device_bytes()),
              static_cast<unsigned long long>(t.capacity()), mib(tree_bytes), mib(batch_bytes));
}

const char *table_head(const char *call) {
  static std::string head;
  head = std::string("| round | ") + call +
         " ms | host ms | outside ms | kernels ms | transfers ms | launches | nodes recomputed | "
         "rebuild ms | rebuild kernels ms |\n|---|---|---|---|---|---|---|---|---|---|\n";
  return head.c_str();
}

// n random leaves, the rebuild's merkleizer (root only) and the resident tree over them.
struct bench_trees {
  std::mt19937_64 rng;
  std::vector<merklize::digest> leaves;
  merklize::merkleizer m;
  merklize::block_hasher h;
  double built_ms = 0; // before t, which sets it
  merklize::resident_tree t;

  bench_trees(const bench_setup &b, std::uint64_t n)
      : rng(31), leaves(random_leaves(n, rng)), m(root_only(b.hash)), h(m.device()),
        t(built(h, leaves, b, built_ms)) {}

  static std::vector<merklize::digest> random_leaves(std::uint64_t n, std::mt19937_64 &rng) {
    std::vector<merklize::digest> leaves(n);
    fill_random(leaves.data(), n * merklize::node_bytes, rng);
    return leaves;
  }
  static merklize::config root_only(const std::string &hash) {
    merklize::config cfg{{merklize::parse_hash_kind(hash)}};
    cfg.output = merklize::output_levels::root_only();
    return cfg;
  }
  static merklize::resident_tree built(merklize::block_hasher &h,
                                       const std::vector<merklize::digest> &leaves,
                                       const bench_setup &b, double &ms) {
    const auto start = clock_type::now();
    merklize::config cfg{{merklize::parse_hash_kind(b.hash)}};
    cfg.resident_updates = b.engine;
    merklize::resident_tree t(h, leaves, cfg);
    ms = ms_since(start);
    return t;
  }
};

// The nodes the last update recomputed above the leaves: on the levels it listed, the distinct
// parents of the batch's indices there (counted here from the bench's own copy of them: the
// tree's last_plan() would read them back and plan, and its plan freed inside the next timed
// call cost that call 1-2 ms on the H200); every node of those it recomputed whole (none on the
// host, which lists every level).
std::uint64_t recomputed(const merklize::resident_tree &t, std::vector<std::uint64_t> indices) {
  const merklize::update_events &e = t.last_events();
  const auto &sizes = t.on_device().level_sizes();
  std::sort(indices.begin(), indices.end());
  std::uint64_t nodes = 0;
  for (unsigned level = 1; level < sizes.size(); ++level) {
    if (!e.on_host && level > e.listed_levels) {
      nodes += sizes[level];
      continue;
    }
    for (std::uint64_t &i : indices)
      i >>= 1;
    indices.erase(std::unique(indices.begin(), indices.end()), indices.end());
    nodes += indices.size();
  }
  return nodes;
}

// The host's part of the calls, its milliseconds summed over `rounds` rounds.
struct host_split {
  double check = 0, upload = 0, enqueue = 0, wait = 0, map = 0, on_host = 0, host_rebuild = 0;
  void add(const merklize::update_events &e) {
    map += e.map_ms;
    on_host += e.host_ms;
    check += e.check_ms;
    upload += e.upload_ms;
    enqueue += e.enqueue_ms;
    wait += e.wait_ms;
  }
  void print(int rounds, const merklize::update_events &last) const {
    std::printf("\nhost split, mean ms a call: check %.3f (a thread of its own from 32768 "
                "updates), stage and enqueue the uploads %.3f, enqueue the launches %.3f, wait "
                "for the root %.3f\n",
                check / rounds, upload / rounds, enqueue / rounds, wait / rounds);
    if (last.on_host)
      std::printf("path: the host's cores (host_updater.hpp): map the levels %.3f ms, the whole "
                  "of it (maps, leaves, hashing, unmaps) %.3f ms\n",
                  map / rounds, on_host / rounds);
    else
      std::printf("path: %s (levels 1..%u listed on the device, those above recomputed whole)\n",
                  last.rebuilt ? "rebuilt" : "listed", last.listed_levels);
    if (host_rebuild > 0)
      std::printf("host engine rebuild (host_root, %u threads): %.3f ms\n",
                  merklize::host_engine_threads(), host_rebuild / rounds);
  }
};

// The batch of a round: in ordinary memory, or (batch mode) filled in place in the tree's
// page-locked update batch, which the update writes to the device straight from there.
struct round_batch {
  std::vector<merklize::digest> values;
  std::vector<std::uint64_t> indices;
  merklize::resident_batch pinned;

  round_batch(merklize::resident_tree &t, std::uint64_t batch, bool in_place)
      : values(in_place ? 0 : batch), indices(in_place ? 0 : batch),
        pinned(in_place ? t.make_update_batch(std::max<std::uint64_t>(batch, 1))
                        : merklize::resident_batch()) {}

  std::uint64_t *index_data() { return pinned.capacity() ? pinned.indices() : indices.data(); }
  merklize::digest *value_data() { return pinned.capacity() ? pinned.leaves() : values.data(); }

  // Random indices below n and random leaves, generated where the update reads them.
  void fill(std::uint64_t batch, std::uint64_t n, std::mt19937_64 &rng) {
    std::uint64_t *at = index_data();
    for (std::uint64_t k = 0; k < batch; ++k)
      at[k] = rng() % n;
    fill_random(value_data(), batch * merklize::node_bytes, rng);
  }

  // The update, or (proved) update_proved, whose proof is kept in `proof`.
  void update(merklize::resident_tree &t, std::uint64_t batch, bool proved) {
    if (proved)
      proof = t.update_proved(indices, values).second;
    else if (pinned.capacity())
      t.update(pinned, batch);
    else
      t.update(indices, values);
  }

  merklize::multiproof proof; // proved mode: the last update's

  // The last proof checked against `leaves` as they are now and the new root.
  void check_proof(const std::vector<merklize::digest> &leaves, const merklize::digest &root) {
    if (proof.indices.empty()) return; // an empty batch proves nothing
    std::vector<merklize::digest> proven(proof.indices.size());
    for (std::size_t i = 0; i < proven.size(); ++i)
      proven[i] = leaves[static_cast<std::size_t>(proof.indices[i])];
    if (!merklize::verify(proof, proven, root))
      throw merklize::error("the update's multiproof does not verify");
  }
};

enum class update_mode { ordinary, in_place, proved };

int run_updates(const bench_setup &b, double pct, update_mode mode) {
  const bool in_place = mode == update_mode::in_place, proved = mode == update_mode::proved;
  const std::uint64_t n = std::uint64_t(1) << b.log2;
  const auto batch = static_cast<std::uint64_t>(double(n) * pct / 100);
  bench_trees trees(b, n);
  auto &[rng, leaves, m, h, built_ms, t] = trees;
  round_batch round(t, batch, in_place);
  std::printf("device: %s; %s, 2^%u leaves, batches of %llu (%.2f%%) %s; tree built in %.1f "
              "ms\n\n%s",
              merklize::device_name(m.device()).c_str(), b.hash.c_str(), b.log2,
              static_cast<unsigned long long>(batch), pct,
              in_place ? "filled in place in page-locked memory" : "from ordinary memory", built_ms,
              table_head(proved ? "update_proved" : "update"));
  std::uint64_t proof_nodes = 0;
  merklize::digest rebuilt{};
  host_split split;
  for (int r = 0; r < b.rounds; ++r) {
    round.fill(batch, n, rng);
    auto at = clock_type::now();
    round.update(t, batch, proved);
    const double update_ms = ms_since(at);
    proof_nodes += round.proof.nodes.size();
    const double host_ms = update_ms - t.last_events().wait_ms;
    split.add(t.last_events());
    for (std::uint64_t k = 0; k < batch; ++k)
      leaves[round.index_data()[k]] = round.value_data()[k];
    at = clock_type::now();
    const bool rebuild = b.between == "rebuild" || r + 1 == b.rounds;
    if (rebuild)
      rebuilt = m.build(leaves.data(), n * merklize::node_bytes).root();
    else if (b.between == "sleep")
      std::this_thread::sleep_for(std::chrono::milliseconds(60));
    const double rebuild_ms = rebuild ? ms_since(at) : 0;
    if (rebuild && merklize::host_engine_supports(t.options())) {
      at = clock_type::now();
      if (merklize::host_root(leaves.data(), n * merklize::node_bytes, t.options()) != rebuilt)
        throw merklize::error("the host engine's root differs from the rebuild's");
      split.host_rebuild += ms_since(at);
    }
    if (proved) round.check_proof(leaves, t.root());
    const std::uint64_t nodes =
        recomputed(t, std::vector<std::uint64_t>(round.index_data(), round.index_data() + batch));
    print_row(r + 1, update_ms, host_ms, t.last_events(), nodes, rebuild_ms,
              rebuild ? m.last_times().kernel_ms : 0);
  }
  split.print(b.rounds, t.last_events());
  if (proved)
    std::printf("proofs: %.0f nodes a call (mean), each verified against the new root\n",
                double(proof_nodes) / b.rounds);
  if (rebuilt != t.root()) {
    std::fprintf(stderr, "update_bench: the updated root differs from the rebuild's\n");
    return 1;
  }
  print_memory(t, n, rebuilt, batch * (merklize::node_bytes + 8));
  return 0;
}

int run_appends(const bench_setup &b, std::uint64_t count) {
  std::uint64_t n = std::uint64_t(1) << b.log2;
  bench_trees trees(b, n);
  auto &[rng, leaves, m, h, built_ms, t] = trees;
  std::printf("device: %s; %s, 2^%u leaves, appends of %llu; tree built in %.1f ms\n\n%s",
              merklize::device_name(m.device()).c_str(), b.hash.c_str(), b.log2,
              static_cast<unsigned long long>(count), built_ms, table_head("append"));
  std::vector<merklize::digest> more(count);
  merklize::digest rebuilt{};
  for (int r = 0; r < b.rounds; ++r) {
    fill_random(more.data(), count * merklize::node_bytes, rng);
    auto at = clock_type::now();
    t.append(more);
    const double append_ms = ms_since(at);
    leaves.insert(leaves.end(), more.begin(), more.end());
    n += count;
    at = clock_type::now();
    rebuilt = m.build(leaves.data(), n * merklize::node_bytes).root();
    const double rebuild_ms = ms_since(at);
    std::uint64_t nodes = 0; // the new leaves' paths: a range of each level
    for (unsigned level = 1; level <= merklize::kary_height(n, 2); ++level)
      nodes += ((n - 1) >> level) - ((n - count) >> level) + 1;
    print_row(r + 1, append_ms, 0, t.last_events(), nodes, rebuild_ms, m.last_times().kernel_ms);
  }
  if (rebuilt != t.root()) {
    std::fprintf(stderr, "update_bench: the appended root differs from the rebuild's\n");
    return 1;
  }
  print_memory(t, n, rebuilt, count * merklize::node_bytes);
  return 0;
}

// A leading --engine=kernels|host|automatic, taken off the arguments.
merklize::resident_update engine_flag(int &argc, char **&argv) {
  const std::string flag = argc > 1 ? argv[1] : "", prefix = "--engine=";
  if (flag.compare(0, prefix.size(), prefix) != 0) return merklize::resident_update::automatic;
  --argc;
  ++argv;
  const std::string name = flag.substr(prefix.size());
  if (name == "kernels") return merklize::resident_update::kernels;
  if (name == "host") return merklize::resident_update::host;
  if (name == "automatic") return merklize::resident_update::automatic;
  throw merklize::error("--engine must be kernels, host or automatic, not " + name);
}

} // namespace

int main(int argc, char **argv) {
  try {
    const merklize::resident_update engine = engine_flag(argc, argv);
    const std::string mode = argc > 1 ? argv[1] : "";
    const bool append = mode == "append", in_place = mode == "batch", proved = mode == "proved";
    const int a = append || in_place || proved ? 2 : 1; // the first argument after the mode
    const char *between = std::getenv("UPDATE_BENCH_BETWEEN");
    const bench_setup b{argc > a ? static_cast<unsigned>(std::atoi(argv[a])) : 25u,
                        argc > a + 1 ? argv[a + 1] : "blake3",
                        argc > a + 2 ? std::atoi(argv[a + 2]) : 5, between ? between : "rebuild",
                        engine};
    if (b.between != "rebuild" && b.between != "none" && b.between != "sleep")
      throw std::runtime_error("UPDATE_BENCH_BETWEEN is " + b.between + ": rebuild, none or sleep");
    if (append)
      return run_appends(b, argc > a + 3 ? std::strtoull(argv[a + 3], nullptr, 10) : 65536);
    return run_updates(b, argc > a + 3 ? std::atof(argv[a + 3]) : 1.0,
                       proved     ? update_mode::proved
                       : in_place ? update_mode::in_place
                                  : update_mode::ordinary);
  } catch (const std::exception &e) {
    std::fprintf(stderr, "update_bench: %s\n", e.what());
    return 1;
  }
}
