// SPDX-License-Identifier: Apache-2.0 OR MIT
// merklize root --arity, proof --arity and verify of k-ary proofs against the host reference
// (kary.hpp), and the mistakes refused.
#include "cli_helpers.hpp"
#include "helpers.hpp"
#include "process.hpp"

#include <merklize/core/kary.hpp>
#include <merklize/proofs/kary_proof_encoding.hpp>

#include <catch2/catch.hpp>

using Catch::Matchers::Contains;

namespace {} // namespace

TEST_CASE("merklize root, proof and verify with --arity", "[kary]") {
  const std::uint64_t n = 300;
  const auto bytes = test::random_bytes(n * merklize::node_bytes);
  const auto file = test::write_file("kary-cli.leaves", bytes).string();
  std::vector<merklize::digest> leaves(n);
  std::memcpy(leaves.data(), bytes.data(), bytes.size());
  for (const char *hash : {"sha256", "blake3"})
    for (const char *pad : {"promote", "zero"}) {
      const merklize::kary_options options{merklize::parse_hash_kind(hash), 16,
                                           merklize::parse_shape(pad)};
      const std::string root = merklize::to_hex(merklize::kary_root(leaves, options));
      const auto printed = test::merklize_cli_on_test_device(
          {"root", "--arity", "16", "--hash", hash, "--pad", pad, file});
      INFO(hash << " " << pad << ": " << printed.err);
      CHECK(printed.out == root + "\n");
      const auto proof_file = (test::scratch_dir() / "kary-cli.proof").string();
      REQUIRE(test::merklize_cli_on_test_device({"proof", "--arity", "16", "--hash", hash, "--pad",
                                                 pad, "-i", "299", "-o", proof_file, file})
                  .status == 0);
      const auto valid = test::merklize_cli_on_test_device(
          {"verify", proof_file, merklize::to_hex(leaves[299]), root});
      CHECK(valid.status == 0);
      CHECK_THAT(valid.out, Contains("valid: leaf 299 of 300"));
      const auto wrong = test::merklize_cli_on_test_device(
          {"verify", proof_file, merklize::to_hex(leaves[298]), root});
      CHECK(wrong.status == 1);
      CHECK_THAT(wrong.err, Contains("invalid proof"));
    }
}

TEST_CASE("merklize --arity: mistakes are refused", "[kary]") {
  const auto file = test::write_file("kary-bad.leaves", test::random_bytes(64)).string();
  const std::pair<std::vector<std::string>, std::string> mistakes[] = {
      {{"root", "--arity", "3", file}, "arity 3"},
      {{"root", "--arity", "4", "--hash", "blake3-parent", file}, "blake3-parent"},
      {{"root", "--arity", "4", "--pad", "zero", "--depth", "5", file}, "--depth excludes --arity"},
      {{"root", "--arity", "4", "--format", "fs-verity", file}, "excludes"},
      {{"proof", "--arity", "4", "-i", "2", file}, "leaf index 2 out of range"},
  };
  for (const auto &[args, message] : mistakes) {
    const auto run = test::merklize_cli_on_test_device(args);
    INFO(run.err);
    CHECK(run.status != 0);
    CHECK_THAT(run.err, Contains(message));
  }
}

TEST_CASE("merklize proof --arity prints the host's proof, byte for byte", "[kary]") {
  for (unsigned k : {2u, 4u, 128u}) {
    const std::uint64_t n = std::uint64_t(k) * k + 1;
    const auto bytes = test::random_bytes(n * merklize::node_bytes);
    const auto file = test::write_file("kary-cli-exact.leaves", bytes).string();
    std::vector<merklize::digest> leaves(n);
    std::memcpy(leaves.data(), bytes.data(), bytes.size());
    for (const char *pad : {"promote", "zero"}) {
      const merklize::kary_options options{merklize::hash_kind::blake3, k,
                                           merklize::parse_shape(pad)};
      const auto levels = merklize::kary_levels(leaves, options);
      for (const std::uint64_t index : {std::uint64_t(0), n / 2, n - 1}) {
        const auto printed = test::merklize_cli_on_test_device(
            {"proof", "--arity", std::to_string(k), "--hash", "blake3", "--pad", pad, "-i",
             std::to_string(index), file});
        INFO("k=" << k << " " << pad << " index " << index << ": " << printed.err);
        CHECK(printed.out ==
              merklize::to_json(merklize::kary_prove(levels, options, index)) + "\n");
      }
    }
  }
}

TEST_CASE("merklize proof --arity refuses an index outside a file before opening a device",
          "[kary]") {
  const auto file = test::write_file("kary-range.leaves", test::random_bytes(3 * 32)).string();
  // No device of this name exists: the index is refused before one is looked for.
  const auto run = test::run_program(
      {MERKLIZE_CLI, "proof", "--device", "no-such-device", "--arity", "4", "-i", "3", file});
  CHECK(run.status != 0);
  CHECK_THAT(run.err, Contains("leaf index 3 out of range: the tree has 3 leaves"));
  CHECK_THAT(run.err, !Contains("device"));
  const auto stdin_run =
      test::merklize_cli_on_test_device({"proof", "--arity", "4", "-i", "9", "-"}, file);
  CHECK_THAT(stdin_run.err, Contains("leaf index 9 out of range"));
}
