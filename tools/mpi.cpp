// SPDX-License-Identifier: Apache-2.0 OR MIT
// merklize-mpi: one Merkle tree over many processes and hosts. Each MPI rank builds its part of
// the tree on its own device and rank 0 finishes it; the root printed is the one `merklize root`
// prints for the same leaves. `merklize-mpi --help` says how to run it.
//
// Parts: the N leaves are cut into shards of 2^S leaves by merklize::plan_shards, the planner of
// multi_merkleizer (about 8 shards a rank, equal weights), and each rank takes its run of them.
// Each run obeys the aligned-part rule (parts.hpp), so merkleizer::build_part gives the tree's
// own level-S nodes for it. Rank 0 gathers them in rank order, which is leaf order, and
// finish_tree hashes the levels above.
//
// With --arity K the tree is k-ary (kary.hpp): the shards are subtrees of k^S leaves
// (merklize::plan_kary_shards), each rank builds its part's levels up to S on its device
// (device_tree), and rank 0 finishes the levels above (kary_levels_above).
//
// With --leaf-size L, FILE is data and its leaves are hashed from its blocks of L bytes: the
// shards are runs of blocks, and each rank reads its own blocks' bytes, hashes them and builds its
// part on its device (block_part_builder, multi_blocks.hpp), the data crossing the bus once.
#include "cli.hpp"
#include "memory.hpp"
#include "output.hpp"
#include "parser.hpp"
#include "sizes.hpp"
#include "version.hpp"

#include <merklize/merklize.hpp>

#include <mpi.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <iostream>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace {

struct mpi_session {
  mpi_session(int &argc, char **&argv) { MPI_Init(&argc, &argv); }
  ~mpi_session() { MPI_Finalize(); }
  int rank() const {
    int r = 0;
    MPI_Comm_rank(MPI_COMM_WORLD, &r);
    return r;
  }
  int size() const {
    int s = 1;
    MPI_Comm_size(MPI_COMM_WORLD, &s);
    return s;
  }
};

// The rank's index among the ranks of its host.
int local_rank() {
  MPI_Comm local;
  MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &local);
  int r = 0;
  MPI_Comm_rank(local, &r);
  MPI_Comm_free(&local);
  return r;
}

cl::Device device_for(const std::optional<std::string> &spec, int local) {
  if (spec) return merklize::select_device(*spec);
  if (const char *spec = std::getenv("MERKLIZE_DEVICE"); spec && *spec)
    return merklize::default_device();
  const auto devices = merklize::default_devices();
  return devices[static_cast<std::size_t>(local) % devices.size()];
}

// Where the tree is cut: shards of 2^shard_log2 leaves (k-ary: k^shard_levels), and this
// rank's run of them.
struct part_plan {
  unsigned shard_log2 = 0, shard_levels = 0;
  std::uint64_t first_leaf = 0, count = 0; // count 0: this rank has no part

  part_plan(std::uint64_t leaf_count, const std::optional<merklize::kary_options> &kary, int rank,
            int ranks) {
    const std::vector<double> even(ranks, 1.0);
    if (kary) {
      const auto plan = merklize::plan_kary_shards(leaf_count, kary->arity, even);
      shard_levels = plan.shard_levels;
      first_leaf = plan.first_leaf(rank);
      count = plan.leaf_count_of(rank);
      return;
    }
    const auto plan = merklize::plan_shards(leaf_count, even);
    shard_log2 = plan.shard_log2;
    first_leaf = plan.first_leaf(rank);
    count = plan.leaf_count_of(rank);
  }
};

// The size of FILE (every rank checks it: a bad file fails on all of them alike).
std::uint64_t file_size(const std::string &path) {
  const merklize::input file(path);
  if (!file.size()) throw merklize::error(cli::quote(path) + " is not a regular file");
  return *file.size();
}

// The leaf count of FILE.
std::uint64_t file_leaf_count(const std::string &path) {
  try {
    return merklize::leaf_count_of(file_size(path));
  } catch (const merklize::error &e) {
    throw merklize::error(cli::quote(path) + ": " + e.what());
  }
}

// The block count of FILE's data (at least one byte).
std::uint64_t file_block_count(const std::string &path, std::uint64_t block_bytes,
                               std::uint64_t &bytes) {
  bytes = file_size(path);
  if (bytes == 0)
    throw merklize::error(cli::quote(path) + " is empty: a tree needs at least one data block");
  return merklize::block_count(bytes, block_bytes);
}

double ms_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start)
      .count();
}

void generate_leaves(std::uint64_t first_leaf, std::uint64_t count, std::uint8_t *out) {
  std::memset(out, 0, count * merklize::node_bytes);
  for (std::uint64_t i = 0; i < count; ++i) {
    const std::uint64_t index = first_leaf + i;
    for (unsigned b = 0; b < 8; ++b)
      out[i * merklize::node_bytes + b] = static_cast<std::uint8_t>(index >> (8 * b));
  }
}

// Every rank's outcome of a step: all carry on, or all stop (each failing rank says why), so no
// rank waits forever in a collective that a failed rank never reaches.
// `everywhere`: the failure is the same on every rank (the command line), so rank 0 alone says it.
bool all_succeeded(const std::optional<std::string> &failure, int rank, bool everywhere = false) {
  int ok = failure ? 0 : 1, all_ok = 0;
  MPI_Allreduce(&ok, &all_ok, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
  if (failure && !everywhere)
    cli::print_error("merklize-mpi", "rank " + std::to_string(rank) + ": " + *failure);
  else if (failure && rank == 0)
    cli::print_error("merklize-mpi", *failure);
  return all_ok == 1;
}

double max_over_ranks(double value) {
  double max = 0;
  MPI_Reduce(&value, &max, 1, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);
  return max;
}

// The level-S nodes of every rank, in rank order, on rank 0.
std::vector<merklize::digest> gather_nodes(const std::vector<merklize::digest> &mine, int rank,
                                           int ranks) {
  const int bytes = static_cast<int>(mine.size() * merklize::node_bytes);
  std::vector<int> counts(ranks), offsets(ranks);
  MPI_Gather(&bytes, 1, MPI_INT, counts.data(), 1, MPI_INT, 0, MPI_COMM_WORLD);
  int total = 0;
  for (int r = 0; r < ranks; ++r) {
    offsets[r] = total;
    total += counts[r];
  }
  std::vector<merklize::digest> all(rank == 0 ? total / merklize::node_bytes : 0);
  MPI_Gatherv(mine.data(), bytes, MPI_BYTE, all.data(), counts.data(), offsets.data(), MPI_BYTE, 0,
              MPI_COMM_WORLD);
  return all;
}

struct job {
  merklize::tree_options options;
  std::optional<std::string> device, file;
  std::optional<std::uint64_t> generate;
  unsigned repeat = 1;
  bool times = false;
  // --leaf-size: FILE is data, its leaves hashed from its blocks by `rule`.
  std::optional<std::uint64_t> leaf_size;
  std::optional<std::string> leaf_hash, salt;
  std::optional<merklize::leaf_rule> rule;
  std::optional<std::uint64_t> arity;
  std::optional<merklize::kary_options> kary; // --arity K: a k-ary tree
  std::uint64_t leaf_count = 0; // FILE's or --generate's; with --leaf-size, FILE's blocks
  std::uint64_t data_bytes = 0; // with --leaf-size, FILE's size
};

// What a rank builds, made ready before the timed builds: its part of the tree, over leaves held
// in memory (read from FILE or generated; page-locked for a binary tree), or over FILE's blocks,
// read as it builds.
class rank_part {
public:
  rank_part(const job &j, const part_plan &plan) : job_(j), plan_(plan) {
    const cl::Device device = device_for(j.device, local_rank());
    device_name_ = merklize::device_name(device);
    if (j.rule) file_ = std::make_unique<merklize::input>(*j.file, cli::quote(*j.file));
    if (j.kary) { // its kernels built now, so no timed build includes them
      kary_hasher_.emplace(device);
      if (!j.rule && plan.count) {
        kary_leaves_ = cli::while_doing(
            "holding this rank's " + cli::size_text(plan.count * merklize::node_bytes) +
                " of leaves",
            [&] { return std::vector<std::uint8_t>(plan.count * merklize::node_bytes); });
        read_leaves(kary_leaves_.data());
      }
      return;
    }
    if (j.rule) {
      blocks_.emplace(device, merklize::config(j.options));
      blocks_->program_form();
      return;
    }
    leaves_builder_.emplace(device, merklize::config(j.options));
    leaves_builder_->program_form();
    if (!plan.count) return;
    const std::uint64_t bytes = plan.count * merklize::node_bytes;
    leaves_ = cli::while_doing("holding this rank's " + cli::size_text(bytes) + " of leaves",
                               [&] { return leaves_builder_->allocate_host(bytes); });
    read_leaves(leaves_.data());
  }

  const std::string &device_name() const { return device_name_; }

  // This rank's nodes of level plan.shard_log2 (k-ary: shard_levels), its levels written into
  // `t` (none for a rank without a part).
  std::vector<merklize::digest> build(merklize::tree &t) {
    if (!plan_.count) return {};
    if (job_.kary) return build_kary();
    if (!blocks_)
      return leaves_builder_->build_part(leaves_.data(), plan_.first_leaf, plan_.count,
                                         plan_.shard_log2, t);
    const auto [from, to] = block_bytes();
    auto nodes = blocks_->build_part(file_reader(), *job_.rule, plan_.first_leaf, to - from,
                                     plan_.shard_log2, t);
    file_->check_unchanged();
    return nodes;
  }

private:
  // The rank's leaves, generated or read from FILE.
  void read_leaves(std::uint8_t *into) const {
    if (job_.generate)
      generate_leaves(plan_.first_leaf, plan_.count, into);
    else
      merklize::input(*job_.file)
          .read_at(plan_.first_leaf * merklize::node_bytes, plan_.count * merklize::node_bytes,
                   into);
  }

  // The bytes of FILE that the rank's blocks are.
  std::pair<std::uint64_t, std::uint64_t> block_bytes() const {
    const std::uint64_t block = job_.rule->block_bytes;
    return {plan_.first_leaf * block,
            std::min(job_.data_bytes, (plan_.first_leaf + plan_.count) * block)};
  }

  merklize::data_reader file_reader() const {
    return [this](std::uint64_t offset, std::uint64_t bytes, std::uint8_t *into) {
      file_->read_at(offset, bytes, into);
    };
  }

  // The k-ary part: its nodes of level shard_levels, built on the rank's device from its leaves
  // or blocks.
  std::vector<merklize::digest> build_kary() {
    merklize::block_hasher &h = *kary_hasher_;
    const std::string what = "leaves [" + std::to_string(plan_.first_leaf) + ", " +
                             std::to_string(plan_.first_leaf + plan_.count) + ")";
    merklize::device_leaves leaves;
    if (job_.rule) {
      const auto [from, to] = block_bytes();
      leaves = h.leaves_of(file_reader(), from, to - from, *job_.rule, what);
      file_->check_unchanged();
    } else {
      leaves = h.leaves_as_given(merklize::memory_reader(kary_leaves_.data()), 0,
                                 kary_leaves_.size(), what);
    }
    return merklize::device_tree(h, leaves, *job_.kary, plan_.shard_levels).top_nodes();
  }

  const job &job_;
  const part_plan &plan_;
  std::string device_name_;
  std::optional<merklize::merkleizer> leaves_builder_;
  merklize::host_buffer leaves_;
  std::optional<merklize::block_part_builder> blocks_;
  std::optional<merklize::block_hasher> kary_hasher_;
  std::vector<std::uint8_t> kary_leaves_;
  std::unique_ptr<merklize::input> file_;
};

unsigned parse_repeat(const std::string &option, const std::string &text) {
  const std::uint64_t n = cli::parse_count(option, text);
  if (n < 1 || n > 1000000)
    throw cli::usage_error(option + " takes 1 to 1000000 builds, not " + cli::quote(text, 64));
  return static_cast<unsigned>(n);
}

// --leaf-size, --leaf-hash and --salt, as `merklize root` takes them; returns --leaf-size.
CLI::Option *add_leaf_options(CLI::App &app, job &j) {
  const auto leaf_size =
      cli::add_parsed(app, "--leaf-size", j.leaf_size, cli::parse_count, "L",
                      "FILE is data: leaf i is the hash of its bytes [i L, (i + 1) L), the last "
                      "block shorter, hashed on each rank's device from the blocks it reads");
  cli::add_text(app, "--leaf-hash", j.leaf_hash, "H",
                "with --leaf-size: " + merklize::leaf_hash_list() +
                    " (default: the --hash of that name, else blake3)")
      ->needs(leaf_size);
  cli::add_text(app, "--salt", j.salt, "HEX",
                "with --leaf-size, SHA-256 leaves: the salt hashed before each block (default: "
                "none)")
      ->needs(leaf_size);
  return leaf_size;
}

// The rule of --leaf-size's leaves, checked: a mistake is a usage error.
merklize::leaf_rule leaf_rule_of(const job &j, const char *hint) {
  try {
    merklize::leaf_rule rule;
    rule.block_bytes = *j.leaf_size;
    rule.hash = merklize::leaf_hash_of(j.options.hash);
    if (j.leaf_hash) rule.hash = merklize::parse_leaf_hash(*j.leaf_hash);
    if (j.salt && *j.salt != "-") rule.prefix = merklize::from_hex(*j.salt);
    merklize::check_leaf_rule(rule);
    return rule;
  } catch (const merklize::error &e) {
    throw cli::usage_error(e.what(), hint);
  }
}

// The options of --arity's tree, checked: a mistake is a usage error.
merklize::kary_options kary_options_of(const job &j, const char *hint) {
  const merklize::kary_options options{
      j.options.hash, static_cast<unsigned>(std::min<std::uint64_t>(*j.arity, 1u << 30)),
      j.options.shape};
  try {
    merklize::check_kary(options);
  } catch (const merklize::error &e) {
    throw cli::usage_error(e.what(), hint);
  }
  return options;
}

// The command line (the same on every rank); nothing when --help or --version was answered.
std::optional<job> parse(int argc, char **argv) {
  job j;
  CLI::App app("One Merkle tree over MPI ranks, each building its part on its own device: prints "
               "the root `merklize root` prints for FILE's leaves (N x 32 bytes; each rank reads "
               "only its own byte range), for the leaves of FILE's data blocks (--leaf-size; "
               "each rank hashes its own), or for N generated leaves.",
               "merklize-mpi");
  app.formatter(std::make_shared<cli::help_formatter>());
  app.set_help_flag("-h,--help", "print this help and exit");
  app.set_version_flag("--version", std::string("merklize-mpi ") + cli::version(),
                       "print the version and exit");
  app.footer("Run as: mpirun -np R merklize-mpi [OPTIONS] FILE\nExit status: 0 success, 1 a "
             "failure (on any rank), 2 a mistake in the command line.");
  cli::add_tree_options(app, j.options);
  cli::add_text(app, "--device", j.device, "SPEC",
                "every rank's device (default: $MERKLIZE_DEVICE, else device i mod n of the n "
                "that multi_merkleizer would use, $MERKLIZE_DEVICES or every GPU of the default "
                "platform, i being the rank's index among the ranks of its host)");
  const auto generate =
      cli::add_parsed(app, "--generate", j.generate, cli::parse_count, "N",
                      "build over N generated leaves instead of FILE's: leaf i is i as 8 "
                      "little-endian bytes, then 24 zero bytes (each rank makes its own; not "
                      "timed)");
  cli::add_parsed(app, "--repeat", j.repeat, parse_repeat, "K",
                  "build K times (pinned buffers reused; with --leaf-size each build reads its "
                  "blocks from FILE again)");
  app.add_flag("--times", j.times,
               "per build, on stderr: the slowest rank's part, the gather and finish, and the "
               "whole, in ms (host clock, after a barrier), and each rank's device, leaves and "
               "part time");
  cli::add_parsed(app, "--arity", j.arity, cli::parse_count, "K",
                  "a k-ary tree (merklize root --arity K): each node the hash of K children, K a "
                  "power of two from 2 to 128, --hash " +
                      merklize::kary_hash_names())
      ->excludes(app.get_option("--depth"));
  add_leaf_options(app, j)->excludes(generate);
  cli::add_text(app, "FILE", j.file, "", "N x 32 bytes of leaves, or with --leaf-size data")
      ->excludes(generate);
  if (!cli::parse_command_line(app, argc, argv)) return std::nullopt;
  const char *hint = "Try 'merklize-mpi --help' for more information.";
  if (!j.file && !j.generate)
    throw cli::usage_error("give one FILE of leaves, or --generate N", hint);
  if (j.generate == std::uint64_t(0))
    throw cli::usage_error("--generate 0: a tree needs at least one leaf", hint);
  if (j.leaf_size) j.rule = leaf_rule_of(j, hint);
  if (j.arity) j.kary = kary_options_of(j, hint);
  return j;
}

int run(const job &j, int rank, int ranks) {
  const part_plan plan(j.leaf_count, j.kary, rank, ranks);
  std::optional<rank_part> part;
  merklize::tree t(j.leaf_count, j.options, merklize::output_levels::root_only());
  std::optional<std::string> failure;
  try {
    part.emplace(j, plan);
  } catch (const std::exception &e) {
    failure = e.what();
  }
  if (!all_succeeded(failure, rank)) return 1;
  for (unsigned iteration = 0; iteration < j.repeat; ++iteration) {
    MPI_Barrier(MPI_COMM_WORLD);
    const auto start = std::chrono::steady_clock::now();
    std::vector<merklize::digest> mine;
    try {
      mine = part->build(t);
    } catch (const std::exception &e) {
      failure = e.what();
    }
    const double part_ms = ms_since(start);
    if (!all_succeeded(failure, rank)) return 1;
    const double slowest_part_ms = max_over_ranks(part_ms);
    const auto gathered = std::chrono::steady_clock::now();
    const auto level = gather_nodes(mine, rank, ranks);
    if (rank == 0) {
      const merklize::digest root =
          j.kary ? merklize::kary_levels_above(level, *j.kary, plan.shard_levels).back().front()
                 : merklize::finish_tree(t, plan.shard_log2, level);
      const double finish_ms = ms_since(gathered), total_ms = ms_since(start);
      if (iteration + 1 == j.repeat) cli::write_stdout(merklize::to_hex(root) + "\n");
      if (j.times)
        std::fprintf(stderr,
                     "mpi: %d ranks, %llu leaves: parts %.3f ms (slowest rank), gather and "
                     "finish %.3f ms, total %.3f ms\n",
                     ranks, static_cast<unsigned long long>(j.leaf_count), slowest_part_ms,
                     finish_ms, total_ms);
    }
    if (j.times)
      std::fprintf(stderr, "mpi: rank %d on %s: %llu leaves from %llu, part %.3f ms\n", rank,
                   part->device_name().c_str(), static_cast<unsigned long long>(plan.count),
                   static_cast<unsigned long long>(plan.first_leaf), part_ms);
  }
  return 0;
}

// The leaf count of the job's input, or a failure to report on every rank.
std::optional<std::string> count_leaves(job &j) {
  try {
    j.leaf_count = j.generate ? *j.generate
                   : j.rule   ? file_block_count(*j.file, j.rule->block_bytes, j.data_bytes)
                              : file_leaf_count(*j.file);
  } catch (const std::exception &e) {
    return e.what();
  }
  return std::nullopt;
}

} // namespace

int main(int argc, char **argv) {
  // The command line first: --help and --version need no MPI.
  std::optional<job> j;
  std::optional<cli::usage_error> mistake;
  try {
    j = parse(argc, argv);
  } catch (const cli::usage_error &e) {
    mistake = e;
  }
  if (!j && !mistake) return cli::run_main("merklize-mpi", [] { return 0; }); // stdout checked
  mpi_session mpi(argc, argv);
  const int rank = mpi.rank(), ranks = mpi.size();
  const std::optional<std::string> failure =
      mistake ? std::optional<std::string>(mistake->what()) : count_leaves(*j);
  if (!all_succeeded(failure, rank, true)) { // the same on every rank: rank 0 says it
    if (mistake && rank == 0) std::cerr << mistake->hint << "\n";
    return mistake ? cli::exit_usage : cli::exit_failure;
  }
  try {
    const int status = run(*j, rank, ranks);
    cli::close_stdout();
    return status;
  } catch (const std::exception &e) { // a failure past the checked steps: stop every rank
    cli::print_error("merklize-mpi", "rank " + std::to_string(rank) + ": " + e.what());
    MPI_Abort(MPI_COMM_WORLD, 1);
    return 1;
  }
}
