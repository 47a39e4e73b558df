// SPDX-License-Identifier: Apache-2.0 OR MIT
// Trees of inputs streamed through the device (merkleizer::root(input), prove(input)) and the
// CLI's root and proof on files and pipes of many chunks: every hash and shape against the host
// reference, the same answer from a file and from a pipe, files that change while they are read,
// bad inputs, and the memory held.
#include "cli_helpers.hpp"
#include "helpers.hpp"
#include "pipe_input.hpp"
#include "proof_helpers.hpp"

#include <catch2/catch.hpp>

using Catch::Matchers::Contains;
using test::pipe_input;

namespace {

merklize::config streaming(const merklize::tree_options &tree, unsigned chunk_log2) {
  merklize::config cfg{tree};
  cfg.input_chunk_log2 = chunk_log2;
  return cfg;
}

} // namespace

TEST_CASE("roots and proofs of files and pipes of many chunks match the host reference",
          "[input][streaming]") {
  const unsigned chunk_log2 = GENERATE(1u, 3u, 6u);
  auto all = test::all_tree_options();
  for (auto hash : test::padded_hash_kinds()) // SSZ's fixed depths, above every n below
    all.push_back({hash, merklize::shape::zero, 12});
  for (const auto &options : all)
    for (std::uint64_t n : {1ull, 2ull, 3ull, 7ull, 8ull, 9ull, 63ull, 64ull, 65ull, 1000ull}) {
      INFO(test::describe(options) << " n=" << n << " chunks of 2^" << chunk_log2);
      const auto leaves = test::random_bytes(n * 32);
      const auto expected = merklize::reference_tree(leaves.data(), leaves.size(), options);
      merklize::merkleizer m(test::test_device(), streaming(options, chunk_log2));
      const auto file = test::write_file("streamed", leaves);
      merklize::input in(file.string());
      REQUIRE(m.root(in) == expected.root());
      CHECK(m.last_times().chunks == merklize::detail::ceil_shift(n, chunk_log2));
      pipe_input piped(leaves);
      CHECK(m.root(piped.get()) == expected.root());
      for (std::uint64_t i : {std::uint64_t(0), n / 2, n - 1}) {
        merklize::input again(file.string());
        CHECK(m.prove(again, i) == merklize::prove(expected, i));
      }
      pipe_input piped_again(leaves);
      CHECK(m.prove(piped_again.get(), n - 1) == merklize::prove(expected, n - 1));
    }
}

TEST_CASE("a file over 1 MiB is read at offsets by several threads, a leaf of each chunk proven",
          "[input][streaming]") {
  const std::uint64_t n = 40000; // 1.28 MB: read at offsets
  const auto leaves = test::random_bytes(n * 32);
  const auto file = test::write_file("large", leaves);
  for (auto hash : test::padded_hash_kinds()) {
    const merklize::tree_options options{hash, merklize::shape::zero};
    const auto expected = merklize::reference_tree(leaves.data(), leaves.size(), options);
    merklize::merkleizer m(test::test_device(), streaming(options, 12));
    merklize::input in(file.string());
    REQUIRE(in.read_at_offsets());
    CHECK(m.root(in) == expected.root());
    for (std::uint64_t i : {std::uint64_t(0), std::uint64_t(4095), std::uint64_t(4096),
                            std::uint64_t(20000), n - 1}) {
      merklize::input again(file.string());
      CHECK(m.prove(again, i) == merklize::prove(expected, i));
    }
  }
}

TEST_CASE("a file that shrinks or grows while it is read is an error, never a wrong root",
          "[input][streaming]") {
  const std::uint64_t n = 40000;
  const auto leaves = test::random_bytes(n * 32);
  merklize::merkleizer m(test::test_device(), streaming({}, 10));
  SECTION("shrinks") {
    const auto file = test::write_file("shrinking", leaves);
    merklize::input in(file.string());
    in.set_progress([&](std::uint64_t) { test::fs::resize_file(file, 1 << 20); });
    CHECK_THROWS_WITH(m.root(in), Contains("shrank") && Contains("shrinking"));
  }
  SECTION("grows") {
    const auto file = test::write_file("growing", leaves);
    merklize::input in(file.string());
    bool grown = false;
    in.set_progress([&](std::uint64_t) {
      if (!grown) std::ofstream(file, std::ios::app | std::ios::binary) << std::string(64, 'x');
      grown = true;
    });
    CHECK_THROWS_WITH(m.root(in), Contains("changed size while it was read") &&
                                      Contains("1280000 bytes when opened, 1280064 now"));
  }
}

TEST_CASE("bad inputs to a streamed tree are named errors", "[input][streaming]") {
  merklize::merkleizer m(test::test_device(), streaming({}, 3));
  const auto empty = test::write_file("empty", {});
  merklize::input none(empty.string());
  CHECK_THROWS_WITH(m.root(none), Contains("empty") && Contains("N = 0"));
  const auto odd = test::write_file("odd", test::random_bytes(32 * 9 + 1));
  merklize::input partial(odd.string());
  CHECK_THROWS_WITH(m.root(partial), Contains("odd") && Contains("not a multiple of 32"));
  merklize::input directory(test::scratch_dir().string());
  CHECK_THROWS_WITH(m.root(directory), Contains("cannot read") && Contains("Is a directory"));
  CHECK_THROWS_WITH(merklize::input("/no/such/file"),
                    Contains("cannot open /no/such/file: No such file or directory"));
  const auto small = test::write_file("small", test::random_bytes(32 * 10));
  merklize::input ten(small.string());
  CHECK_THROWS_WITH(m.prove(ten, 10), Contains("leaf index 10 out of range"));
  pipe_input piped(test::random_bytes(32 * 10));
  CHECK_THROWS_WITH(m.prove(piped.get(), 10), Contains("leaf index 10 out of range"));
}

TEST_CASE("merklize root and proof stream files and stdin through many chunks", "[cli][input]") {
  const std::string chunk = GENERATE(std::string("2"), std::string("5"));
  for (const auto &options : test::all_tree_options()) {
    if (options.depth) continue; // --depth is the CLI tests' business
    const std::uint64_t n = 777;
    const auto leaves = test::random_bytes(n * 32);
    const auto file = test::write_file("cli-streamed", leaves).string();
    const auto expected = merklize::reference_tree(leaves.data(), leaves.size(), options);
    const std::vector<std::string> tree{"--hash",       merklize::to_string(options.hash),
                                        "--pad",        merklize::to_string(options.shape),
                                        "--chunk-log2", chunk};
    INFO(test::describe(options) << " chunks of 2^" << chunk);
    auto root = std::vector<std::string>{MERKLIZE_CLI, "root"};
    root.insert(root.end(), tree.begin(), tree.end());
    auto from_file = root, from_stdin = root;
    from_file.push_back(file);
    from_stdin.push_back("-");
    const std::string hex = merklize::to_hex(expected.root()) + "\n";
    CHECK(test::run_program(from_file).out == hex);
    CHECK(test::run_shell("cat " + test::sh_quote(file) + " | " + test::merklize_word() +
                          " root --hash " + merklize::to_string(options.hash) + " --pad " +
                          merklize::to_string(options.shape) + " --chunk-log2 " + chunk + " -")
              .out == hex);
    CHECK(test::run_program(from_stdin, file).out == hex);
    auto proof = std::vector<std::string>{MERKLIZE_CLI, "proof", "-i", "500"};
    proof.insert(proof.end(), tree.begin(), tree.end());
    proof.push_back(file);
    CHECK(test::run_program(proof).out == merklize::to_json(merklize::prove(expected, 500)) + "\n");
  }
}

TEST_CASE("merklize root holds a few chunks, not the file", "[cli][input][memory]") {
  // 256 MiB of zero leaves (sparse: no disk space), chunks of 2^16 leaves (2 MiB).
  // What the process holds beyond its start-up (the driver's own memory: about 85 MiB with
  // PoCL, 120 MiB with NVIDIA's) is the measure: a root of 2 leaves gives the start-up's.
  const auto file = test::sparse_file("zeros-256MiB", std::uint64_t(256) << 20).string();
  const auto two = test::write_file("two-leaves", std::vector<std::uint8_t>(64)).string();
  // --device default: the device's path (auto would run 2 leaves on the host engine, no driver).
  const long start_kib = test::peak_memory_kib(
      {MERKLIZE_CLI, "root", "--device", "default", "--chunk-log2", "16", two});
  const long kib = test::peak_memory_kib(
      {MERKLIZE_CLI, "root", "--device", "default", "--chunk-log2", "16", file});
  REQUIRE(start_kib > 0);
  REQUIRE(kib > 0);
  INFO("peak " << kib << " KiB, of which start-up " << start_kib << " KiB");
  CHECK(kib - start_kib < 64 * 1024); // the old CLI held the file whole: 256 MiB more
  // The host engine holds a block of 1 MiB a thread.
  const long host_start = test::peak_memory_kib({MERKLIZE_CLI, "root", "--device", "host", two});
  const long host = test::peak_memory_kib({MERKLIZE_CLI, "root", "--device", "host", file});
  REQUIRE(host_start > 0);
  REQUIRE(host > 0);
  INFO("host engine: peak " << host << " KiB, of which start-up " << host_start << " KiB");
  CHECK(host - host_start < 64 * 1024);
}
