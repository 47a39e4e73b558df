// SPDX-License-Identifier: Apache-2.0 OR MIT
// The real tools behind the formats of formats/: veritysetup (Debian cryptsetup-bin), fsverity
// (Debian fsverity), b3sum, and tests/bao_model.py (Python). Each is run on a file; a test whose
// tool is missing is skipped with a warning naming the package.
#pragma once

#include "process.hpp"

#include <merklize/formats/bao.hpp>
#include <merklize/formats/dm_verity.hpp>
#include <merklize/formats/fs_verity.hpp>

#include <catch2/catch.hpp>

namespace test {

// Whether `program` is there; a warning saying the test is skipped if not.
inline bool have_tool(const std::string &program, const std::string &package) {
  if (::access(program.c_str(), X_OK) == 0) return true;
  WARN("SKIPPED: " << program << " is not installed (apt-get install " << package << ")");
  return false;
}

inline bool have_veritysetup() { return have_tool("/usr/sbin/veritysetup", "cryptsetup-bin"); }
inline bool have_fsverity() { return have_tool("/usr/bin/fsverity", "fsverity"); }
inline bool have_python() { return have_tool("/usr/bin/python3", "python3"); }

inline std::string salt_hex(const std::vector<std::uint8_t> &salt) {
  return salt.empty() ? "-" : merklize::to_hex(salt.data(), salt.size());
}

// What `veritysetup format --no-superblock` prints as the root hash and writes as the hash device.
struct veritysetup_result {
  std::string root;
  std::string hash_device;
};

inline veritysetup_result run_veritysetup(const fs::path &data,
                                          const merklize::dm_verity_options &options) {
  const fs::path hashes = data.string() + ".hashes";
  fs::remove(hashes);
  const auto run =
      run_program({"/usr/sbin/veritysetup", "format", "--no-superblock",
                   "--data-block-size=" + std::to_string(options.data_block_bytes),
                   "--hash-block-size=" + std::to_string(options.hash_block_bytes),
                   "--salt=" + salt_hex(options.salt), data.string(), hashes.string()});
  INFO("veritysetup: " << run.err);
  REQUIRE(run.status == 0);
  const auto at = run.out.find("Root hash:");
  REQUIRE(at != std::string::npos);
  const auto hex = run.out.find_first_not_of(" \t", at + 10);
  return {run.out.substr(hex, 64), slurp(hashes)};
}

// What `veritysetup format` (with a superblock, its default) prints and writes to `hashes`, with
// the block sizes and salt of `options` and the given UUID.
inline veritysetup_result run_veritysetup_superblock(const fs::path &data, const fs::path &hashes,
                                                     const merklize::dm_verity_options &options,
                                                     const std::string &uuid) {
  fs::remove(hashes);
  const auto run = run_program({"/usr/sbin/veritysetup", "format",
                                "--data-block-size=" + std::to_string(options.data_block_bytes),
                                "--hash-block-size=" + std::to_string(options.hash_block_bytes),
                                "--salt=" + salt_hex(options.salt), "--uuid=" + uuid, data.string(),
                                hashes.string()});
  INFO("veritysetup: " << run.err);
  REQUIRE(run.status == 0);
  return {run.out, slurp(hashes)};
}

// What `fsverity digest` prints (the digest alone, and its whole line with the file name) and
// writes as the Merkle tree.
struct fsverity_result {
  std::string digest;
  std::string merkle_tree;
  std::string line;
};

inline fsverity_result run_fsverity(const fs::path &file,
                                    const merklize::fs_verity_options &options) {
  const fs::path tree = file.string() + ".tree";
  fs::remove(tree);
  std::vector<std::string> argv = {"/usr/bin/fsverity", "digest", file.string(),
                                   "--block-size=" + std::to_string(options.block_bytes),
                                   "--out-merkle-tree=" + tree.string()};
  if (!options.salt.empty()) argv.push_back("--salt=" + salt_hex(options.salt));
  const auto run = run_program(argv);
  INFO("fsverity: " << run.err);
  REQUIRE(run.status == 0);
  return {run.out.substr(0, run.out.find(' ')), slurp(tree), run.out};
}

// tests/bao_model.py's outboard and root of a file.
struct bao_model_result {
  std::string root;
  std::string outboard;
};

inline bao_model_result run_bao_model(const fs::path &file) {
  const fs::path outboard = file.string() + ".model-obao";
  const auto run =
      run_program({"/usr/bin/python3", std::string(MERKLIZE_SOURCE_DIR) + "/tests/bao_model.py",
                   file.string(), outboard.string()});
  INFO("bao_model.py: " << run.err);
  REQUIRE(run.status == 0);
  return {run.out.substr(0, 64), slurp(outboard)};
}

inline std::string as_text(const std::vector<std::uint8_t> &bytes) {
  return std::string(bytes.begin(), bytes.end());
}

} // namespace test
