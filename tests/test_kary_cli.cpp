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

TEST_CASE("merklize root --arity on the host engine equals the device's and the reference's",
          "[kary][host]") {
  const auto bytes = test::random_bytes(70000 * merklize::node_bytes); // three pieces of 1 MiB
  for (const std::uint64_t n : {std::uint64_t(1), std::uint64_t(300), std::uint64_t(70000)}) {
    const auto file =
        test::write_file("kary-host.leaves",
                         std::vector<std::uint8_t>(bytes.begin(), bytes.begin() + 32 * n))
            .string();
    std::vector<merklize::digest> leaves(n);
    std::memcpy(leaves.data(), bytes.data(), 32 * n);
    for (const char *arity : {"4", "128"})
      for (const char *pad : {"promote", "zero"}) {
        const merklize::kary_options options{merklize::hash_kind::keccak256,
                                             static_cast<unsigned>(std::stoul(arity)),
                                             merklize::parse_shape(pad)};
        const std::string root = merklize::to_hex(merklize::kary_root(leaves, options)) + "\n";
        const std::vector<std::string> args = {"root",      "--arity", arity, "--hash",
                                               "keccak256", "--pad",   pad,   file};
        std::vector<std::string> on_host = args;
        on_host.insert(on_host.begin() + 1, {"--device", "host", "-v"});
        const auto host = test::merklize_cli(on_host);
        INFO(n << " leaves, arity " << arity << ", " << pad << ": " << host.err);
        CHECK(host.out == root);
        CHECK_THAT(host.err, Contains("engine: host"));
        CHECK(test::merklize_cli_on_test_device(args).out == root);
      }
  }
  // Over blocks' leaves (--leaf-size): on the host where it hashes the blocks.
  const auto data = test::write_file("kary-host.data", test::random_bytes(5 * 4096 + 7)).string();
  const auto device = test::merklize_cli_on_test_device(
      {"root", "--arity", "8", "--leaf-size", "4096", "--pad", "zero", data});
  const auto host = test::merklize_cli(
      {"root", "--device", "host", "--arity", "8", "--leaf-size", "4096", "--pad", "zero", data});
  INFO(host.err);
  CHECK(device.status == 0);
  CHECK(host.out == device.out);
  const auto odd =
      test::merklize_cli({"root", "--device", "host", "--arity", "8", "--leaf-size", "3000", data});
  CHECK(odd.status != 0);
  CHECK_THAT(odd.err, Contains("divides 1 MiB"));
  // Their proofs, block by block, on both engines; a block past the end refused by both.
  for (const char *index : {"0", "3", "5", "6"}) {
    const std::vector<std::string> proof = {"proof", "--arity", "8",  "--leaf-size", "4096",
                                            "--pad", "zero",    "-i", index,         data};
    std::vector<std::string> on_host = proof;
    on_host.insert(on_host.begin() + 1, {"--device", "host"});
    const auto on_device = test::merklize_cli_on_test_device(proof);
    const auto hosted = test::merklize_cli(on_host);
    INFO("block " << index << ": " << on_device.err << " / " << hosted.err);
    CHECK(hosted.status == on_device.status);
    CHECK(hosted.out == on_device.out);
    if (std::string(index) == "6")
      CHECK_THAT(hosted.err, Contains("out of range"));
    else
      CHECK_THAT(hosted.out, Contains("\"siblings\""));
  }
  const auto odd_proof = test::merklize_cli(
      {"proof", "--device", "host", "--arity", "8", "--leaf-size", "3000", "-i", "0", data});
  CHECK(odd_proof.status != 0);
  CHECK_THAT(odd_proof.err, Contains("divides 1 MiB"));
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

TEST_CASE("merklize proof --arity prints kary_prove's proof on a device and the host engine",
          "[kary]") {
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
        const std::vector<std::string> args = {
            "proof", "--arity", std::to_string(k),     "--hash", "blake3", "--pad",
            pad,     "-i",      std::to_string(index), file};
        const std::string want = merklize::to_json(merklize::kary_prove(levels, options, index));
        const auto printed = test::merklize_cli_on_test_device(args);
        INFO("k=" << k << " " << pad << " index " << index << ": " << printed.err);
        CHECK(printed.out == want + "\n");
        std::vector<std::string> on_host = args;
        on_host.insert(on_host.begin() + 1, {"--device", "host"});
        CHECK(test::merklize_cli(on_host).out == want + "\n");
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
