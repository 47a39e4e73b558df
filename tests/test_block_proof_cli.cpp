// SPDX-License-Identifier: Apache-2.0 OR MIT
// merklize proof --leaf-size, of binary trees and with --arity of k-ary trees, against the host
// reference: the blocks' leaves hashed on the host (block_leaves.hpp), the tree and its proof there
// (reference.hpp and proof.hpp, kary.hpp). The printed JSON is the host's byte for byte, and
// merklize verify accepts it with the host's leaf under the root merklize root prints, and refuses
// it with another leaf. Then the mistakes: bad indices and empty files (refused before a device is
// opened where the file's size tells), and options that make no sense together (exit status 2).
#include "cli_helpers.hpp"
#include "helpers.hpp"
#include "process.hpp"

#include <merklize/core/block_leaves.hpp>
#include <merklize/core/kary.hpp>
#include <merklize/core/reference.hpp>
#include <merklize/proofs/kary_proof_encoding.hpp>
#include <merklize/proofs/proof.hpp>

#include <catch2/catch.hpp>

#include <set>

using Catch::Matchers::Contains;

namespace {

using args = std::vector<std::string>;

constexpr std::uint64_t block_bytes = 100;

args joined(args a, const args &more) {
  a.insert(a.end(), more.begin(), more.end());
  return a;
}

// How the blocks become leaves: the host's rule, and the options that ask merklize for it.
struct leaf_case {
  merklize::leaf_rule rule;
  args options;
};

// SHA-256 leaves with a salt, and BLAKE3 leaves.
std::vector<leaf_case> leaf_cases() {
  return {{{merklize::leaf_hash::sha256, block_bytes, {0xab, 0xcd, 0x01}, false, std::nullopt},
           {"--leaf-size", "100", "--leaf-hash", "sha256", "--salt", "abcd01"}},
          {{merklize::leaf_hash::blake3, block_bytes, {}, false, std::nullopt},
           {"--leaf-size", "100", "--leaf-hash", "blake3"}}};
}

// The data of `blocks` blocks of block_bytes, the last one short.
std::vector<std::uint8_t> data_of(std::uint64_t blocks) {
  return test::random_bytes(static_cast<std::size_t>((blocks - 1) * block_bytes + 37));
}

// The first, middle and last leaves of `count`.
std::set<std::uint64_t> indices_of(std::uint64_t count) { return {0, count / 2, count - 1}; }

// The root merklize root prints with `tree` (the tree's options and the leaves') over `file`,
// checked to be the host's.
std::string printed_root(const args &tree, const std::string &file,
                         const merklize::digest &expected) {
  const auto r = test::merklize_cli_on_test_device(joined(joined({"root"}, tree), {file}));
  INFO("merklize root: " << r.err);
  CHECK(r.status == 0);
  CHECK(r.out == merklize::to_hex(expected) + "\n");
  return r.out.substr(0, 64);
}

// merklize proof -i index with `tree` over `file` prints `expected` (the host's JSON); verify
// accepts it with `leaf` under `root` and refuses it with another leaf.
void check_proof(const args &tree, const std::string &file, std::uint64_t index,
                 const std::string &expected, const merklize::digest &leaf,
                 const std::string &root) {
  const auto printed = test::merklize_cli_on_test_device(
      joined(joined({"proof", "-i", std::to_string(index)}, tree), {file}));
  INFO("leaf " << index << ": " << printed.err);
  REQUIRE(printed.status == 0);
  CHECK(printed.out == expected + "\n");
  const auto proof = test::write_text("block-proof.json", printed.out);
  const auto valid =
      test::merklize_cli_on_test_device({"verify", proof, merklize::to_hex(leaf), root});
  CHECK(valid.status == 0);
  CHECK_THAT(valid.out, Contains("valid: leaf " + std::to_string(index) + " of "));
  merklize::digest other = leaf;
  other[31] ^= 1;
  const auto invalid =
      test::merklize_cli_on_test_device({"verify", proof, merklize::to_hex(other), root});
  CHECK(invalid.status == 1);
  CHECK_THAT(invalid.err, Contains("invalid proof"));
}

std::string name_of(merklize::hash_kind h) { return merklize::to_string(h); }
std::string name_of(merklize::shape s) { return merklize::to_string(s); }

} // namespace

TEST_CASE("merklize proof --leaf-size prints the host's proof of a block's leaf, and verify "
          "accepts it",
          "[block-cli][proof]") {
  for (const std::uint64_t blocks : {1, 2, 3, 7, 8, 9}) {
    const auto data = data_of(blocks);
    const auto file = test::write_file("block-proof.data", data).string();
    for (const auto &leaves_case : leaf_cases()) {
      const auto leaves = merklize::block_leaves(leaves_case.rule, data.data(), data.size());
      REQUIRE(leaves.size() == blocks);
      for (const auto hash : {merklize::hash_kind::sha256, merklize::hash_kind::blake3})
        for (const auto pad : {merklize::shape::promote, merklize::shape::zero}) {
          const merklize::tree_options options(hash, pad);
          const auto t = merklize::reference_tree(leaves.data(),
                                                  leaves.size() * merklize::node_bytes, options);
          const args tree =
              joined({"--hash", name_of(hash), "--pad", name_of(pad)}, leaves_case.options);
          INFO(blocks << " blocks, " << name_of(hash) << " " << name_of(pad) << ", "
                      << merklize::to_string(leaves_case.rule.hash) << " leaves");
          const std::string root = printed_root(tree, file, t.root());
          for (const std::uint64_t index : indices_of(blocks))
            check_proof(tree, file, index, merklize::to_json(merklize::prove(t, index)),
                        leaves[index], root);
        }
    }
  }
}

TEST_CASE("merklize proof --leaf-size on the host engine prints the reference's proof, as a device "
          "does",
          "[block-cli][proof][host]") {
  const merklize::leaf_rule rule{merklize::leaf_hash::sha256, 1024, {}, false, std::nullopt};
  for (const std::uint64_t bytes :
       {std::uint64_t(1), std::uint64_t(3 * 1024), std::uint64_t(5000 * 1024 + 7)}) {
    const auto data = test::random_bytes(static_cast<std::size_t>(bytes));
    const auto file = test::write_file("block-proof-host.data", data).string();
    const auto leaves = merklize::block_leaves(rule, data.data(), data.size());
    for (const merklize::tree_options options :
         {merklize::tree_options{merklize::hash_kind::sha256, merklize::shape::zero},
          merklize::tree_options{merklize::hash_kind::keccak256, merklize::shape::promote}}) {
      const auto t =
          merklize::reference_tree(leaves.data(), leaves.size() * merklize::node_bytes, options);
      for (const std::uint64_t index : indices_of(leaves.size())) {
        const args proof = {"proof",
                            "-i",
                            std::to_string(index),
                            "--hash",
                            name_of(options.hash),
                            "--pad",
                            name_of(options.shape),
                            "--leaf-size",
                            "1024",
                            "--leaf-hash",
                            "sha256",
                            file};
        INFO(bytes << " bytes, " << name_of(options.hash) << ", leaf " << index);
        const auto host = test::merklize_cli(
            joined({"proof", "--device", "host"}, args(proof.begin() + 1, proof.end())));
        INFO(host.err);
        CHECK(host.out == merklize::to_json(merklize::prove(t, index)) + "\n");
        CHECK(test::merklize_cli_on_test_device(proof).out == host.out);
      }
    }
  }
  const auto empty = test::write_file("block-proof-host-empty.data", {}).string();
  const auto nothing = test::merklize_cli(
      {"proof", "--device", "host", "--leaf-size", "1024", "-i", "0", "-"}, empty);
  CHECK(nothing.status == 1);
  CHECK_THAT(nothing.err, Contains("stdin is empty: a tree needs at least one data block"));
  const auto some =
      test::write_file("block-proof-host-some.data", test::random_bytes(300)).string();
  const auto odd =
      test::merklize_cli({"proof", "--device", "host", "--leaf-size", "100", "-i", "0", some});
  CHECK(odd.status == 2);
  CHECK_THAT(odd.err, Contains("blocks whose size divides 1 MiB"));
}

TEST_CASE("merklize proof --leaf-size with Keccak-256 and SHA3-256 leaves and nodes",
          "[block-cli][proof][keccak]") {
  const auto data = data_of(9);
  const auto file = test::write_file("block-proof-keccak.data", data).string();
  for (const auto hash : {merklize::hash_kind::keccak256, merklize::hash_kind::sha3_256})
    for (const auto pad : {merklize::shape::promote, merklize::shape::zero}) {
      const merklize::leaf_rule rule{
          merklize::leaf_hash_of(hash), block_bytes, {}, false, std::nullopt};
      const auto leaves = merklize::block_leaves(rule, data.data(), data.size());
      const merklize::tree_options options(hash, pad);
      const auto t =
          merklize::reference_tree(leaves.data(), leaves.size() * merklize::node_bytes, options);
      const args tree = {
          "--hash",      name_of(hash), "--pad",       name_of(pad),
          "--leaf-size", "100",         "--leaf-hash", merklize::to_string(rule.hash)};
      INFO(name_of(hash) << " " << name_of(pad));
      const std::string root = printed_root(tree, file, t.root());
      for (const std::uint64_t index : indices_of(leaves.size()))
        check_proof(tree, file, index, merklize::to_json(merklize::prove(t, index)), leaves[index],
                    root);
    }
}

TEST_CASE("merklize proof --leaf-size with a fixed depth", "[block-cli][proof]") {
  const auto data = data_of(9);
  const auto file = test::write_file("block-proof-depth.data", data).string();
  const leaf_case sha256_leaves = leaf_cases().front();
  const auto leaves = merklize::block_leaves(sha256_leaves.rule, data.data(), data.size());
  const merklize::tree_options options(merklize::hash_kind::sha256, merklize::shape::zero, 6);
  const auto t =
      merklize::reference_tree(leaves.data(), leaves.size() * merklize::node_bytes, options);
  const args tree =
      joined({"--hash", "sha256", "--pad", "zero", "--depth", "6"}, sha256_leaves.options);
  const std::string root = printed_root(tree, file, t.root());
  check_proof(tree, file, 8, merklize::to_json(merklize::prove(t, 8)), leaves[8], root);
  const auto proof = test::write_text(
      "block-proof-depth.json",
      test::merklize_cli_on_test_device(joined(joined({"proof", "-i", "8"}, tree), {file})).out);
  CHECK(test::merklize_cli_on_test_device(
            {"verify", "--depth", "6", "--leaves", "9", proof, merklize::to_hex(leaves[8]), root})
            .status == 0);
  const auto too_shallow =
      test::merklize_cli_on_test_device({"proof", "-i", "0", "--hash", "sha256", "--pad", "zero",
                                         "--depth", "3", "--leaf-size", "100", file});
  CHECK(too_shallow.status == 1);
  CHECK_THAT(too_shallow.err, Contains("cannot hold 9 leaves"));
}

TEST_CASE("merklize proof --arity --leaf-size prints the host's k-ary proof of a block's leaf, "
          "and verify accepts it",
          "[block-cli][kary]") {
  for (const unsigned k : {2u, 4u, 16u}) {
    const std::set<std::uint64_t> counts = {1, 2, 3, k - 1, k, k + 1, std::uint64_t(k) * k + 1};
    for (const std::uint64_t blocks : counts) {
      const auto data = data_of(blocks);
      const auto file = test::write_file("block-proof-kary.data", data).string();
      for (const auto &leaves_case : leaf_cases()) {
        const auto leaves = merklize::block_leaves(leaves_case.rule, data.data(), data.size());
        // The node hash is the other one than the leaves': each with each.
        const auto hash = leaves_case.rule.hash == merklize::leaf_hash::sha256
                              ? merklize::hash_kind::blake3
                              : merklize::hash_kind::sha256;
        for (const auto pad : {merklize::shape::promote, merklize::shape::zero}) {
          const merklize::kary_options options{hash, k, pad};
          const auto levels = merklize::kary_levels(leaves, options);
          const args tree =
              joined({"--arity", std::to_string(k), "--hash", name_of(hash), "--pad", name_of(pad)},
                     leaves_case.options);
          INFO("k=" << k << ", " << blocks << " blocks, " << name_of(hash) << " " << name_of(pad)
                    << ", " << merklize::to_string(leaves_case.rule.hash) << " leaves");
          const std::string root = printed_root(tree, file, levels.back().front());
          for (const std::uint64_t index : indices_of(blocks))
            check_proof(tree, file, index,
                        merklize::to_json(merklize::kary_prove(levels, options, index)),
                        leaves[index], root);
        }
      }
    }
  }
}

TEST_CASE("merklize proof --leaf-size reads stdin as it reads a file", "[block-cli][proof]") {
  const auto file = test::write_file("block-proof-stdin.data", data_of(9)).string();
  for (const args &tree :
       {args{"--hash", "sha256", "--pad", "zero", "--leaf-size", "100"},
        args{"--arity", "4", "--hash", "sha256", "--leaf-size", "100", "--salt", "00"}}) {
    const auto from_file =
        test::merklize_cli_on_test_device(joined(joined({"proof", "-i", "8"}, tree), {file}));
    const auto from_stdin =
        test::merklize_cli_on_test_device(joined(joined({"proof", "-i", "8"}, tree), {"-"}), file);
    INFO(from_file.err << from_stdin.err);
    CHECK(from_file.status == 0);
    CHECK(from_stdin.status == 0);
    CHECK(from_stdin.out == from_file.out);
  }
}

TEST_CASE("merklize proof --leaf-size refuses an index past the blocks and an empty file, a "
          "regular file's before opening a device",
          "[block-cli][proof]") {
  const auto file = test::write_file("block-proof-range.data", data_of(3)).string();
  const auto empty = test::write_file("block-proof-empty.data", {}).string();
  for (const args &arity : {args{}, args{"--arity", "4"}}) {
    INFO((arity.empty() ? "binary" : "k-ary"));
    // No device of this name exists: the file is refused before one is looked for.
    const args no_device = {MERKLIZE_CLI,     "proof",       "--device",
                            "no-such-device", "--leaf-size", "100"};
    const auto past = test::run_program(joined(no_device, joined(arity, {"-i", "3", file})));
    CHECK(past.status == 1);
    CHECK_THAT(past.err, Contains("leaf index 3 out of range: \"" + file +
                                  "\" has 3 data blocks of 100 bytes"));
    CHECK_THAT(past.err, !Contains("no-such-device"));
    const auto nothing = test::run_program(joined(no_device, joined(arity, {"-i", "0", empty})));
    CHECK(nothing.status == 1);
    CHECK_THAT(nothing.err,
               Contains("\"" + empty + "\" is empty: a tree needs at least one data block"));
    CHECK_THAT(nothing.err, !Contains("no-such-device"));
    // A pipe's blocks are counted once it is read.
    const args piped = joined({"proof", "--leaf-size", "100"}, arity);
    const auto past_piped =
        test::merklize_cli_on_test_device(joined(piped, {"-i", "9", "-"}), file);
    CHECK(past_piped.status == 1);
    CHECK_THAT(past_piped.err,
               Contains("leaf index 9 out of range: stdin has 3 data blocks of 100 bytes"));
    const auto empty_piped =
        test::merklize_cli_on_test_device(joined(piped, {"-i", "0", "-"}), empty);
    CHECK(empty_piped.status == 1);
    CHECK_THAT(empty_piped.err, Contains("stdin is empty: a tree needs at least one data block"));
  }
}

TEST_CASE("merklize proof --leaf-size: options that make no sense together exit with status 2",
          "[block-cli][proof]") {
  const auto file = test::write_file("block-proof-bad.data", data_of(3)).string();
  const std::pair<args, std::string> mistakes[] = {
      {{"--salt", "ab"}, "--salt requires --leaf-size"},
      {{"--leaf-hash", "blake3"}, "--leaf-hash requires --leaf-size"},
      {{"--leaf-size", "100", "--chunk-log2", "3"}, "excludes"},
      {{"--leaf-size", "100", "--hash", "sha256", "--pad", "zero", "--mix-in-length", "3"},
       "excludes"},
      {{"--leaf-size", "0"}, "the leaf size is 0"},
      {{"--leaf-size", "100", "--leaf-hash", "md5"}, "unknown leaf hash \"md5\""},
      {{"--leaf-size", "100", "--leaf-hash", "blake3", "--salt", "00"}, "takes no prefix"},
      {{"--leaf-size", "100", "--salt", "abc"}, "--salt: hex string has an odd number"},
      {{"--leaf-size", "100", "--arity", "3"}, "arity 3"},
      {{"--leaf-size", "100", "--arity", "4", "--pad", "zero", "--depth", "5"}, "excludes"},
      {{"--leaf-size", "100", "--format", "dm-verity"}, "--format"},
  };
  for (const auto &[options, message] : mistakes) {
    const auto run =
        test::merklize_cli_on_test_device(joined(joined({"proof", "-i", "0"}, options), {file}));
    INFO(run.err);
    CHECK(run.status == 2);
    CHECK_THAT(run.err, Contains(message));
    CHECK_THAT(run.err, Contains("merklize proof --help"));
  }
}

TEST_CASE("the leaf of a block, as docs/PROOFS.md gets it in the shell, is the host's",
          "[block-cli][proof]") {
  const auto data = data_of(9);
  const auto file = test::write_file("block-proof-recipe.data", data).string();
  const std::string cli = test::merklize_word();
  const std::string block = "tail -c +$((8 * 100 + 1)) " + test::sh_quote(file) + " | head -c 100";
  const std::pair<std::string, leaf_case> recipes[] = {
      {"{ printf %s abcd01 | tr a-f A-F | basenc -d --base16; " + block +
           "; } | sha256sum | cut -c1-64",
       leaf_cases().front()},
      {block + " | " + cli + " b3sum --no-names", leaf_cases().back()},
  };
  for (const auto &[recipe, leaves_case] : recipes) {
    const auto leaves = merklize::block_leaves(leaves_case.rule, data.data(), data.size());
    const auto run = test::run_shell(recipe);
    INFO(recipe << ": " << run.err);
    CHECK(run.status == 0);
    CHECK(run.out == merklize::to_hex(leaves[8]) + "\n");
  }
}
