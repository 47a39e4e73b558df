// SPDX-License-Identifier: Apache-2.0 OR MIT
// The command line of transparency logs and SSZ lists, run as a user would: entries to leaves
// (leaf-hash), the published CT roots from them, consistency proofs with both tree heads and their
// verification, the empty log, and SSZ list roots and proofs with --mix-in-length and --depth.
// The presets (--log, --ssz-list, --ssz-vector) and the defaults that once gave another tree's
// root without a word are in test_presets_cli.cpp.
#include "cli_helpers.hpp"
#include "ct_log.hpp"
#include "helpers.hpp"
#include "proof_helpers.hpp"

#include <catch2/catch.hpp>

#include <filesystem>
#include <map>

using Catch::Matchers::Contains;

namespace {

using args = std::vector<std::string>;

using test::merklize_cli;

using test::write_text;

using test::ct_lines;
using test::ct_root_6;
using test::ct_root_8;
using test::last_line;

} // namespace

TEST_CASE("merklize leaf-hash and root --hash rfc6962 give the published CT root",
          "[cli][rfc6962]") {
  const auto entries = write_text("ct-entries", ct_lines);
  const auto leaves = (test::scratch_dir() / "ct-leaves").string();
  const auto hashed = merklize_cli({"leaf-hash", "--entries", "lines", "-o", leaves, entries});
  REQUIRE(hashed.status == 0);
  CHECK(hashed.err.empty());
  CHECK(test::slurp(leaves).size() == 8 * 32);
  const auto root = merklize_cli({"root", "--hash", "rfc6962", leaves});
  REQUIRE(root.status == 0);
  CHECK(root.out == ct_root_8 + "\n");
  // The same entries length-prefixed, from two files whose entries are one list.
  std::string framed_a, framed_b;
  std::size_t line = 0;
  for (std::size_t at = 0; at < ct_lines.size(); ++line) {
    const std::size_t end = ct_lines.find('\n', at);
    const std::string entry = ct_lines.substr(at, end - at);
    (line < 3 ? framed_a : framed_b) += std::string(3, '\0') + char(entry.size()) + entry;
    at = end + 1;
  }
  const auto a = write_text("framed-a", framed_a), b = write_text("framed-b", framed_b);
  const auto piped =
      test::run_shell(test::merklize_word() + " leaf-hash --entries length-prefixed " + a + " " +
                      b + " | " + test::merklize_word() + " root --hash rfc6962 -");
  REQUIRE(piped.status == 0);
  CHECK(piped.out == ct_root_8 + "\n");
}

TEST_CASE("merklize leaf-hash refuses other hashes and malformed framing", "[cli][rfc6962]") {
  const auto entries = write_text("entries", "a\nb\n");
  const auto other = merklize_cli({"leaf-hash", "--hash", "sha256", "--entries", "lines", entries});
  CHECK(other.status == 2);
  CHECK_THAT(other.err, Contains("has no leaf hash"));
  const auto bad =
      merklize_cli({"leaf-hash", "--hash", "rfc6962", "--entries", "length-prefixed", entries});
  CHECK(bad.status == 1);
  CHECK_THAT(bad.err, Contains("entry at offset 0 says"));
  const auto framing =
      merklize_cli({"leaf-hash", "--hash", "rfc6962", "--entries", "csv", entries});
  CHECK(framing.status == 2);
  CHECK_THAT(framing.err, Contains("unknown entry framing"));
  const auto missing = merklize_cli({"leaf-hash", "--hash", "rfc6962", entries});
  CHECK(missing.status == 2);
  CHECK_THAT(missing.err, Contains("--entries is required"));
}

TEST_CASE("merklize leaf-hash, root --log and proof --log: the host engine gives the device's",
          "[cli][rfc6962][host]") {
  // Entries around SHA-256's block edges (the leaf's 0x00 makes 55 bytes the last one-block
  // entry), one empty, so that the host's two lanes end at different places.
  std::string lines;
  for (const std::size_t size : {0, 1, 54, 55, 56, 63, 64, 119, 120, 1000, 3, 4097})
    lines += std::string(size, char('a' + size % 26)) + "\n";
  const auto entries = write_text("edge-entries", lines);
  const std::string device = merklize::device_name(test::test_device());
  std::string leaves[2], roots[2];
  const std::string engines[2] = {"host", device};
  for (int e = 0; e < 2; ++e) {
    INFO("--device " << engines[e]);
    const auto hashed =
        merklize_cli({"leaf-hash", "--entries", "lines", "--device", engines[e], entries});
    REQUIRE(hashed.status == 0);
    leaves[e] = hashed.out;
    const auto root =
        merklize_cli({"root", "--log", "--entries", "lines", "--device", engines[e], entries});
    REQUIRE(root.status == 0);
    roots[e] = root.out;
  }
  CHECK(leaves[0].size() == 12 * 32);
  CHECK(leaves[0] == leaves[1]);
  CHECK(roots[0] == roots[1]);
  // An entry's audit path, as JSON and as CT's, on the host engine and on the device.
  for (const char *index : {"0", "5", "11"})
    for (const std::vector<std::string> &format :
         {std::vector<std::string>{}, std::vector<std::string>{"--proof-format", "ct"}}) {
      std::string proofs[2];
      for (int e = 0; e < 2; ++e) {
        std::vector<std::string> args = {"proof",    "--log",    "--entries", "lines",
                                         "--device", engines[e], "-i",        index};
        args.insert(args.end(), format.begin(), format.end());
        args.push_back(entries);
        const auto proof = merklize_cli(args);
        INFO("entry " << index << " on " << engines[e] << ": " << proof.err);
        REQUIRE(proof.status == 0);
        proofs[e] = proof.out;
      }
      CHECK(proofs[0] == proofs[1]);
    }
  // The published CT root on the host engine.
  const auto ct = write_text("ct-entries", ct_lines);
  const auto host = merklize_cli({"root", "--log", "--entries", "lines", "--device", "host", ct});
  REQUIRE(host.status == 0);
  CHECK(host.out == ct_root_8 + "\n");
}

TEST_CASE("merklize consistency and verify-consistency: the CT proof 6 -> 8, and rejections",
          "[cli][consistency]") {
  const auto entries = write_text("ct-entries", ct_lines);
  const auto leaves = (test::scratch_dir() / "ct-leaves").string();
  REQUIRE(merklize_cli({"leaf-hash", "--entries", "lines", "-o", leaves, entries}).status == 0);
  const auto made = merklize_cli({"consistency", "--hash", "rfc6962", "--old-size", "6", leaves});
  REQUIRE(made.status == 0);
  // Both tree heads, then the proof: the old head needs no second run on a cut file.
  CHECK(made.out.rfind("old tree head: 6 leaves, root " + ct_root_6 +
                           "\nnew tree head: 8 leaves, root " + ct_root_8 + "\n",
                       0) == 0);
  const auto proof = merklize::consistency_proof_from_json(last_line(made.out));
  CHECK(proof.old_size == 6);
  CHECK(proof.new_size == 8);
  CHECK(merklize::to_hex(proof.nodes.front()) ==
        "0ebc5d3437fbe2db158b9f126a1d118e308181031d0a949f8dededebc558ef6a");
  const auto file = write_text("consistency.json", last_line(made.out));
  const auto ok = merklize_cli({"verify-consistency", file, ct_root_6, ct_root_8});
  CHECK(ok.status == 0);
  CHECK_THAT(ok.out, Contains("consistent: the tree of 6 leaves is a prefix of the tree of 8"));
  CHECK(merklize_cli({"verify-consistency", "--hash", "rfc6962", "--old-size", "6", "--new-size",
                      "8", "-", ct_root_6, ct_root_8},
                     file)
            .status == 0);
  const auto swapped = merklize_cli({"verify-consistency", file, ct_root_8, ct_root_6});
  CHECK(swapped.status == 1);
  CHECK_THAT(swapped.err, Contains("invalid proof: the proof leads to old root"));
  const auto pinned =
      merklize_cli({"verify-consistency", "--new-size", "9", file, ct_root_6, ct_root_8});
  CHECK(pinned.status == 1);
  CHECK_THAT(pinned.err, Contains("not 6 and 9"));
  const auto bad_root = merklize_cli({"verify-consistency", file, "xyz", ct_root_8});
  CHECK(bad_root.status == 1);
  CHECK_THAT(bad_root.err, Contains("OLDROOT"));
  const auto too_big =
      merklize_cli({"consistency", "--hash", "rfc6962", "--old-size", "9", leaves});
  CHECK(too_big.status == 1);
  CHECK_THAT(too_big.err, Contains("--old-size 9 is more than"));
  const auto parent =
      merklize_cli({"consistency", "--hash", "blake3-parent", "--old-size", "2", leaves});
  CHECK(parent.status == 2);
  CHECK_THAT(parent.err, Contains("blake3-parent has no consistency proofs"));
  // Every old size against the host prover, for blake3 and sha256 as for rfc6962.
  for (const char *hash : {"blake3", "sha256"})
    for (const char *m : {"0", "1", "5", "8"}) {
      INFO(hash << " old size " << m);
      const auto r = merklize_cli({"consistency", "--hash", hash, "--old-size", m, leaves});
      REQUIRE(r.status == 0);
      const auto bytes = test::slurp(leaves);
      const auto t =
          merklize::reference_tree(bytes.data(), bytes.size(), {merklize::parse_hash_kind(hash)});
      CHECK(merklize::consistency_proof_from_json(last_line(r.out)) ==
            merklize::prove_consistency(t, std::stoull(m)));
      // The heads: the roots of the first M leaves (none for M = 0 here: only rfc6962 has an
      // empty tree's root) and of all of them.
      std::string old_head = "no root";
      if (std::string(m) != "0")
        old_head =
            "root " + merklize::to_hex(merklize::reference_tree(bytes.data(), std::stoull(m) * 32,
                                                                {merklize::parse_hash_kind(hash)})
                                           .root());
      CHECK(r.out.rfind("old tree head: " + std::string(m) + " leaves, " + old_head +
                            "\nnew tree head: 8 leaves, root " + merklize::to_hex(t.root()) + "\n",
                        0) == 0);
    }
}

TEST_CASE("the empty log: root, and consistency from size 0", "[cli][rfc6962]") {
  const auto empty = write_text("empty-log", "");
  const auto root = merklize_cli({"root", "--hash", "rfc6962", empty});
  REQUIRE(root.status == 0);
  CHECK(root.out == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855\n");
  const auto made = merklize_cli({"consistency", "--hash", "rfc6962", "--old-size", "0", empty});
  REQUIRE(made.status == 0);
  const std::string empty_root = "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855";
  CHECK(made.out.rfind("old tree head: 0 leaves, root " + empty_root +
                           "\nnew tree head: 0 leaves, root " + empty_root + "\n",
                       0) == 0);
  CHECK(merklize::consistency_proof_from_json(last_line(made.out)).nodes.empty());
  const auto refused = merklize_cli({"root", empty});
  CHECK(refused.status == 1);
  CHECK_THAT(refused.err, Contains("no leaves"));
}

TEST_CASE("SSZ lists: --mix-in-length and --depth give the list's root and element proofs",
          "[cli][ssz]") {
  const auto leaves = test::random_bytes(5 * 32);
  const auto file = test::write_file("list", leaves).string();
  const merklize::tree_options options{merklize::hash_kind::sha256, merklize::shape::zero, 10};
  const auto t = merklize::reference_tree(leaves.data(), leaves.size(), options);
  const std::string root = merklize::to_hex(merklize::mix_in_length(t.root(), 5));
  const args list = {"--hash", "sha256", "--pad", "zero", "--depth", "10", "--mix-in-length", "5"};
  args command = {"root"};
  command.insert(command.end(), list.begin(), list.end());
  command.push_back(file);
  const auto r = merklize_cli(command);
  REQUIRE(r.status == 0);
  CHECK(r.out == root + "\n");
  command[0] = "proof";
  command.insert(command.begin() + 1, {"--index", "3"});
  const auto p = merklize_cli(command);
  REQUIRE(p.status == 0);
  const auto proof = merklize::inclusion_proof_from_json(p.out);
  CHECK(proof == merklize::mix_in_length(merklize::prove(t, 3), 5));
  const auto proof_file = write_text("list-proof.json", p.out);
  CHECK(merklize_cli({"verify", proof_file, merklize::to_hex(t.node(0, 3)), root}).status == 0);
  // The empty list of limit 2^10.
  const auto empty = write_text("empty-list", "");
  const auto e = merklize_cli({"root", "--hash", "sha256", "--pad", "zero", "--depth", "10",
                               "--mix-in-length", "0", empty});
  REQUIRE(e.status == 0);
  CHECK(e.out == merklize::to_hex(merklize::mix_in_length(
                     merklize::zero_subtree_roots(merklize::hash_kind::sha256, 10)[10], 0)) +
                     "\n");
  const auto wrong = merklize_cli({"root", "--mix-in-length", "5", file});
  CHECK(wrong.status == 2);
  CHECK_THAT(wrong.err, Contains("--mix-in-length is SSZ's list root"));
  // Without --depth, the depth of 5 leaves would make the root of another SSZ type.
  const auto no_depth =
      merklize_cli({"root", "--hash", "sha256", "--pad", "zero", "--mix-in-length", "5", file});
  CHECK(no_depth.status == 2);
  CHECK(no_depth.out.empty());
  CHECK_THAT(no_depth.err, Contains("--depth D"));
}

namespace {

// Every file under `folder`, by its path there, with its bytes.
std::map<std::string, std::string> folder_files(const std::string &folder) {
  std::map<std::string, std::string> files;
  for (const auto &entry : std::filesystem::recursive_directory_iterator(folder))
    if (entry.is_regular_file())
      files[std::filesystem::relative(entry.path(), folder).string()] =
          test::slurp(entry.path().string());
  return files;
}

} // namespace

TEST_CASE("multiproofs, consistency proofs and tiles: the host engine gives the device's",
          "[cli][rfc6962][host]") {
  // 300 entries: a full level-0 tile and a partial one.
  std::string lines;
  for (int i = 0; i < 300; ++i)
    lines += "entry " + std::to_string(i * 7919) + "\n";
  const auto entries = write_text("whole-tree-entries", lines);
  const auto leaves = test::write_file("whole-tree.leaves", test::random_bytes(301 * 32)).string();
  const std::string engines[2] = {"host", merklize::device_name(test::test_device())};
  const std::vector<args> runs = {
      {"proof", "-i", "0,5,300", leaves},
      {"proof", "--hash", "sha256", "--pad", "zero", "-i", "1,2,255,256", leaves},
      {"proof", "--log", "--entries", "lines", "-i", "1,7,250,299", entries},
      {"consistency", "--hash", "rfc6962", "--old-size", "257", leaves},
      {"consistency", "--log", "--entries", "lines", "--old-size", "100", entries},
      {"tiles", "--origin", "example.com/t", "-o", "FOLDER", leaves},
      {"tiles", "--log", "--entries", "lines", "--origin", "example.com/t", "-o", "FOLDER",
       entries}};
  for (const args &run : runs) {
    std::string printed[2];
    std::map<std::string, std::string> tiles[2];
    for (int e = 0; e < 2; ++e) {
      args with_device = run;
      with_device.insert(with_device.begin() + 1, {"--device", engines[e]});
      const std::string folder = (test::scratch_dir() / ("tiles-" + std::to_string(e))).string();
      std::filesystem::remove_all(folder);
      for (std::string &word : with_device)
        if (word == "FOLDER") word = folder;
      const auto made = merklize_cli(with_device);
      INFO(with_device[0] << " " << with_device[3] << " on " << engines[e] << ": " << made.err);
      REQUIRE(made.status == 0);
      printed[e] = made.out;
      if (run[0] == "tiles") tiles[e] = folder_files(folder);
    }
    INFO(run[0] << " " << run[1]);
    CHECK(!printed[0].empty());
    CHECK(printed[0] == printed[1]);
    CHECK(tiles[0] == tiles[1]);
    if (run[0] == "tiles") CHECK(tiles[0].size() >= 3); // two level-0 tiles and one above
  }
  // The host engine builds the trees it has pair hashers for, and says so.
  const auto other = merklize_cli(
      {"proof", "--device", "host", "--hash", "poseidon2-babybear", "-i", "0,1", leaves});
  CHECK(other.status == 2);
  CHECK_THAT(other.err,
             Contains("--device host builds") && Contains("not --hash poseidon2-babybear"));
}
