// SPDX-License-Identifier: Apache-2.0 OR MIT
// merklize root --leaf-size and --format against the real tools on the same files: veritysetup,
// fsverity, b3sum and the Python Bao model, outputs compared byte for byte; stdin; and the
// mistakes in the command line that are refused with exit status 2.
#include "format_oracles.hpp"
#include "helpers.hpp"
#include "program_helpers.hpp"

#include <merklize/core/block_leaves.hpp>
#include <merklize/core/kary.hpp>
#include <merklize/core/reference.hpp>

#include <algorithm>
#include <filesystem>

using Catch::Matchers::Contains;

namespace {

test::run_result merklize_root(std::vector<std::string> args, const std::string &stdin_file = "") {
  args.insert(args.begin(),
              {MERKLIZE_CLI, "root", "--device", merklize::device_name(test::test_device())});
  return test::run_program(args, stdin_file);
}

// `count` 32-byte leaves from `bytes`.
std::vector<merklize::digest> digests_of(const std::uint8_t *bytes, std::size_t count) {
  std::vector<merklize::digest> leaves(count);
  std::memcpy(leaves.data(), bytes, count * merklize::node_bytes);
  return leaves;
}

} // namespace

// The "Root hash:" of veritysetup's report.
std::string root_hash_of(const std::string &report) {
  const auto at = report.find("Root hash:");
  REQUIRE(at != std::string::npos);
  return report.substr(report.find_first_not_of(" \t", at + 10), 64);
}

TEST_CASE("merklize root --format dm-verity prints and writes what veritysetup format does",
          "[block-cli]") {
  if (!test::have_veritysetup()) return;
  const std::string uuid = "0c7caaf2-9f6f-4c7e-80ac-d84b1ac5308b";
  for (std::uint64_t blocks : {1u, 128u, 129u}) {
    const auto file = test::write_file("cli-dm.data", test::random_bytes(blocks * 4096));
    merklize::dm_verity_options options;
    options.salt = test::random_bytes(32);
    const std::string salt = test::salt_hex(options.salt);
    const auto hashes = test::scratch_dir() / "cli-dm.hashes";
    const auto ours = merklize_root({"--format", "dm-verity", "--salt", salt, "--uuid", uuid,
                                     "--hash-output", hashes.string(), file.string()});
    INFO(blocks << " blocks: " << ours.err);
    CHECK(ours.status == 0);
    const std::string our_device = test::slurp(hashes);
    // veritysetup writes the same file: the superblock, then the tree; and prints the same report.
    const auto theirs = test::run_veritysetup_superblock(file, hashes, options, uuid);
    CHECK(ours.out == theirs.root);
    CHECK(our_device == theirs.hash_device);
    // --no-superblock: the hash tree alone, as before.
    const auto bare = test::run_veritysetup(file, options);
    const auto no_sb = merklize_root({"--format", "dm-verity", "--no-superblock", "--salt", salt,
                                      "--hash-output", hashes.string(), file.string()});
    CHECK(root_hash_of(no_sb.out) == bare.root);
    CHECK(test::slurp(hashes) == bare.hash_device);
  }
}

TEST_CASE("merklize root --format dm-verity: veritysetup verify takes its output with no options",
          "[block-cli]") {
  if (!test::have_veritysetup()) return;
  const auto file = test::write_file("cli-dm-verify.data", test::random_bytes(300 * 4096));
  const auto hashes = test::scratch_dir() / "cli-dm-verify.hashes";
  const auto ours =
      merklize_root({"--format", "dm-verity", "--hash-output", hashes.string(), file.string()});
  REQUIRE(ours.status == 0);
  const std::string root = root_hash_of(ours.out);
  const auto verify =
      test::run_program({"/usr/sbin/veritysetup", "verify", file.string(), hashes.string(), root});
  INFO(ours.out << verify.err);
  CHECK(verify.status == 0);
  // The salt is random, 32 bytes, as veritysetup's: a second run prints another.
  const auto salt_of = [](const std::string &report) {
    const auto at = report.find("Salt:            \t");
    return at == std::string::npos ? std::string() : report.substr(at + 18, 64);
  };
  const auto again = merklize_root({"--format", "dm-verity", file.string()});
  CHECK(salt_of(ours.out).find_first_not_of("0123456789abcdef") == std::string::npos);
  CHECK(salt_of(ours.out).size() == 64);
  CHECK(salt_of(again.out) != salt_of(ours.out));
  // A flipped data byte is caught.
  auto data = test::slurp(file.string());
  data[5000] ^= 1;
  test::write_file("cli-dm-verify.data", std::vector<std::uint8_t>(data.begin(), data.end()));
  CHECK(test::run_program({"/usr/sbin/veritysetup", "verify", file.string(), hashes.string(), root})
            .status != 0);
  if (::access("/dev/mapper/control", F_OK) != 0) {
    WARN("SKIPPED: veritysetup open needs device-mapper, and /dev/mapper/control is absent "
         "here; veritysetup verify checked the files instead");
    return;
  }
  const auto opened = test::run_program(
      {"/usr/sbin/veritysetup", "open", file.string(), "merklize-test", hashes.string(), root});
  if (opened.status != 0) {
    WARN("SKIPPED: veritysetup open could not set up the device here: " << opened.err);
    return;
  }
  CHECK(test::run_program({"/usr/sbin/veritysetup", "close", "merklize-test"}).status == 0);
}

TEST_CASE("merklize root --format fs-verity prints fsverity digest's line and writes its tree",
          "[block-cli]") {
  if (!test::have_fsverity()) return;
  for (std::uint64_t size : {0u, 4096u, 4096u * 128 + 1}) {
    merklize::fs_verity_options options;
    options.block_bytes = 1024;
    options.salt = {0x12, 0x34};
    const auto data = test::random_bytes(size);
    const auto file = test::write_file("cli-fs.data", data);
    const auto theirs = test::run_fsverity(file, options);
    const auto tree = test::scratch_dir() / "cli-fs.tree";
    const std::vector<std::string> args = {"--format", "fs-verity", "--block-size",  "1024",
                                           "--salt",   "1234",      "--tree-output", tree.string()};
    auto with_file = args;
    with_file.push_back(file.string());
    const auto ours = merklize_root(with_file);
    INFO(size << " bytes: " << ours.err);
    CHECK(ours.out == theirs.line); // "sha256:<digest> <file>", the name as given
    CHECK(test::slurp(tree) == theirs.merkle_tree);
    auto from_stdin = args;
    from_stdin.push_back("-");
    CHECK(merklize_root(from_stdin, file.string()).out == theirs.digest + " -\n");
  }
}

TEST_CASE("merklize root --format bao-outboard prints b3sum's root and the model's outboard",
          "[block-cli]") {
  if (!test::have_python()) return;
  for (std::uint64_t size : {0u, 1024u, 70000u}) {
    const auto file = test::write_file("cli-bao.data", test::random_bytes(size));
    const auto outboard = test::scratch_dir() / "cli-bao.obao";
    const auto ours =
        merklize_root({"--format", "bao-outboard", "--outboard", outboard.string(), file.string()});
    const auto model = test::run_bao_model(file);
    INFO(size << " bytes: " << ours.err);
    CHECK(ours.out == model.root + "\n");
    CHECK(test::slurp(outboard) == model.outboard);
    if (test::have_tool("/usr/bin/b3sum", "b3sum"))
      CHECK(test::run_program({"/usr/bin/b3sum", "--no-names", file.string()}).out == ours.out);
  }
}

TEST_CASE("merklize root --leaf-size: the tree over the blocks' leaves", "[block-cli]") {
  const auto data = test::random_bytes(10000);
  const auto file = test::write_file("cli-leaves.data", data);
  merklize::leaf_rule rule{merklize::leaf_hash::sha256, 300, {0xab}, false, std::nullopt};
  const auto leaves = merklize::block_leaves(rule, data.data(), data.size());
  const merklize::tree_options options{merklize::hash_kind::sha256, merklize::shape::zero};
  const auto expected =
      merklize::reference_tree(leaves.data(), leaves.size() * merklize::node_bytes, options);
  const auto ours = merklize_root(
      {"--leaf-size", "300", "--salt", "ab", "--hash", "sha256", "--pad", "zero", file.string()});
  INFO(ours.err);
  CHECK(ours.out == merklize::to_hex(expected.root()) + "\n");
  rule = {merklize::leaf_hash::blake3, 1000, {}, false, std::nullopt};
  const auto b3 = merklize::block_leaves(rule, data.data(), data.size());
  CHECK(merklize_root({"--leaf-size", "1000", file.string()}).out ==
        merklize::to_hex(merklize::reference_tree(b3.data(), b3.size() * merklize::node_bytes,
                                                  merklize::tree_options{})
                             .root()) +
            "\n");
}

TEST_CASE("merklize root --hash and --leaf-hash keccak256 and sha3-256", "[block-cli][keccak]") {
  const auto data = test::random_bytes(10000);
  const auto file = test::write_file("cli-keccak.data", data);
  const auto root_of = [](const std::vector<merklize::digest> &leaves,
                          const merklize::tree_options &options) {
    return merklize::to_hex(merklize::reference_tree(leaves.data(),
                                                     leaves.size() * merklize::node_bytes, options)
                                .root()) +
           "\n";
  };
  for (const auto hash : {merklize::hash_kind::keccak256, merklize::hash_kind::sha3_256}) {
    const std::string name = merklize::to_string(hash);
    INFO(name);
    // Data as 32-byte leaves, both shapes and a fixed depth.
    const auto leaves = digests_of(data.data(), 312);
    const auto leaf_file =
        test::write_file("cli-keccak.leaves", {data.begin(), data.begin() + 312 * 32});
    CHECK(merklize_root({"--hash", name, leaf_file.string()}).out == root_of(leaves, {hash}));
    CHECK(
        merklize_root({"--hash", name, "--pad", "zero", "--depth", "12", leaf_file.string()}).out ==
        root_of(leaves, {hash, merklize::shape::zero, 12}));
    // Leaves from data blocks: the tree's own hash by default, a block size around the rate.
    const merklize::leaf_rule own{merklize::leaf_hash_of(hash), 137, {}, false, std::nullopt};
    CHECK(merklize_root({"--hash", name, "--leaf-size", "137", file.string()}).out ==
          root_of(merklize::block_leaves(own, data.data(), data.size()), {hash}));
    // --leaf-hash under a tree of another hash.
    const merklize::leaf_rule leaf{merklize::leaf_hash_of(hash), 136, {}, false, std::nullopt};
    CHECK(merklize_root({"--leaf-size", "136", "--leaf-hash", name, file.string()}).out ==
          root_of(merklize::block_leaves(leaf, data.data(), data.size()), {}));
    // A k-ary tree: each node the hash of its 4 children's 128 bytes.
    const merklize::kary_options kary{hash, 4, merklize::shape::promote};
    CHECK(merklize_root({"--hash", name, "--arity", "4", leaf_file.string()}).out ==
          merklize::to_hex(merklize::kary_root(leaves, kary)) + "\n");
    const auto salted =
        merklize_root({"--leaf-size", "64", "--leaf-hash", name, "--salt", "00", file.string()});
    CHECK(salted.status == 2);
    CHECK_THAT(salted.err, Contains("takes no prefix"));
  }
}

TEST_CASE("merklize root --format and --leaf-size: mistakes are refused with exit status 2",
          "[block-cli]") {
  const auto file = test::write_file("cli-bad.data", test::random_bytes(5000));
  const std::pair<std::vector<std::string>, std::string> mistakes[] = {
      {{"--format", "zfs"}, "unknown format \"zfs\""},
      {{"--format", "fs-verity", "--hash-block-size", "512"},
       "--hash-block-size has no use with --format fs-verity"},
      {{"--format", "bao-outboard", "--salt", "ab"}, "--salt has no use with --format bao"},
      {{"--format", "dm-verity", "--salt", "abc"}, "--salt: hex string has an odd number"},
      {{"--format", "dm-verity", "--data-block-size", "1000"}, "data block size is 1000"},
      {{"--format", "fs-verity", "--hash", "sha256"}, "excludes"},
      {{"--format", "fs-verity", "--leaf-size", "64"}, "excludes"},
      {{"--leaf-size", "0"}, "the leaf size is 0"},
      {{"--leaf-size", "64", "--leaf-hash", "md5"}, "unknown leaf hash \"md5\""},
      {{"--leaf-size", "64", "--leaf-hash", "blake3", "--salt", "00"}, "takes no prefix"},
      {{"--tree-output", "x"}, "--tree-output requires --format"},
  };
  for (const auto &[args, message] : mistakes) {
    auto argv = args;
    argv.push_back(file.string());
    const auto run = merklize_root(argv);
    INFO(run.err);
    CHECK(run.status == 2);
    CHECK_THAT(run.err, Contains(message));
  }
  const std::pair<std::vector<std::string>, std::string> dm_mistakes[] = {
      {{"--uuid", "1234"}, "the UUID \"1234\" is not 32 hex digits"},
      {{"--no-superblock", "--uuid", "0c7caaf2-9f6f-4c7e-80ac-d84b1ac5308b"},
       "--uuid has no use with --no-superblock"},
  };
  for (const auto &[args, message] : dm_mistakes) {
    auto argv = args;
    argv.insert(argv.begin(), {"--format", "dm-verity"});
    argv.push_back(file.string());
    const auto run = merklize_root(argv);
    INFO(run.err);
    CHECK(run.status == 2);
    CHECK_THAT(run.err, Contains(message));
  }
  const auto partial = merklize_root({"--format", "dm-verity", file.string()});
  CHECK(partial.status == 1);
  CHECK_THAT(partial.err, Contains("not a whole number of 4096-byte data blocks"));
}

TEST_CASE("a first use compiles only the leaf hash it runs", "[block-cli][cache]") {
  // fs-verity's SHA-256 leaves on the test device, on an empty program cache: the cache then holds
  // their program and not BLAKE3's (PoCL compiles every kernel of a program it caches).
  const test::scratch_folder cache("leaf-programs");
  const auto file = test::write_file("leaf-programs.data", test::random_bytes(3 * 4096 + 5));
  const auto run = test::run_shell("MERKLIZE_CACHE_DIR=" + test::sh_quote(cache.str()) + " " +
                                   test::merklize_word() + " root --format fs-verity --device " +
                                   test::sh_quote(merklize::device_name(test::test_device())) +
                                   " " + test::sh_quote(file.string()));
  INFO(run.err);
  REQUIRE(run.status == 0);
  std::vector<std::string> names;
  for (const auto &entry : std::filesystem::directory_iterator(cache.str()))
    names.push_back(entry.path().filename().string());
  std::string listed;
  for (const auto &n : names)
    listed += n + " ";
  INFO("the cache holds " << listed);
  const auto has = [&](const std::string &prefix) {
    return std::any_of(names.begin(), names.end(),
                       [&](const std::string &n) { return n.rfind(prefix, 0) == 0; });
  };
  CHECK(has("sha256-block-leaves-"));
  CHECK_FALSE(has("blake3-block-leaves-"));
  CHECK_FALSE(has("keccak-"));
}
