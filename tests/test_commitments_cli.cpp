// SPDX-License-Identifier: Apache-2.0 OR MIT
// merklize root|proof --format oz-standard|bitcoin|filecoin-tree-d on the device: the published
// values of tests/vectors/commitments/ as the command line prints them, the files it writes, and
// its refusals of bad input (exit 1, naming the input) and of options that do not go together
// (exit 2). The oracles of tests/oracles/ check the same commands at many sizes.
#include "cli_helpers.hpp"
#include "helpers.hpp"
#include "host_helpers.hpp"

#include <merklize/formats/bitcoin.hpp>
#include <merklize/formats/filecoin.hpp>
#include <merklize/formats/oz_values.hpp>

#include <catch2/catch.hpp>

using Catch::Matchers::Contains;
using test::merklize_cli;

namespace {

// Member `key` of the JSON of a vector file, as JSON text.
std::string vector_member(const std::string &name, const std::string &key) {
  const std::string text = test::slurp(test::vector_path("commitments/" + name));
  const auto doc = merklize::detail::json::parse(text);
  const auto *found = merklize::oz::detail::member(doc, key.c_str());
  REQUIRE(found != nullptr);
  return merklize::oz::value_json(*found);
}

std::string unquoted(const std::string &json_string) {
  return json_string.substr(1, json_string.size() - 2);
}

const std::string readme_values = R"({"leafEncoding": ["address", "uint256"], "values": [
  ["0x1111111111111111111111111111111111111111", "5000000000000000000"],
  ["0x2222222222222222222222222222222222222222", "2500000000000000000"]]})";

} // namespace

TEST_CASE("merklize root --format oz-standard prints OpenZeppelin's root and writes its dump",
          "[cli][commitments]") {
  const auto values = test::write_text("oz-values.json", readme_values);
  const auto dump = (test::scratch_dir() / "oz-dump.json").string();
  const auto r = merklize_cli({"root", "--format", "oz-standard", "--dump", dump, values});
  REQUIRE(r.status == 0);
  CHECK(r.out == unquoted(vector_member("oz/readme_example.COMPUTED.json", "root")) + "\n");
  CHECK(merklize_cli({"root", "--format=oz-standard", dump}).out == r.out); // the dump read back
  // OpenZeppelin's own dump, byte for byte
  const auto verbatim = vector_member("oz/standard-v1.sorted.1_0_6.json", "dump_verbatim");
  const auto theirs = test::write_text("oz-theirs.json", verbatim);
  const auto ours = (test::scratch_dir() / "oz-ours.json").string();
  const auto again = merklize_cli({"root", "--format", "oz-standard", "--dump", ours, theirs});
  CHECK(again.out == unquoted(vector_member("oz/standard-v1.sorted.1_0_6.json", "root")) + "\n");
  CHECK(test::slurp(ours) == verbatim + "\n");
}

TEST_CASE("merklize proof --format oz-standard: proofs and multiproofs", "[cli][commitments]") {
  const auto file = test::write_text(
      "oz-six.json", vector_member("oz/standard-v1.unsorted.1_0_6.json", "dump_verbatim"));
  const auto one = merklize_cli({"proof", "--format", "oz-standard", "-i", "3", file});
  REQUIRE(one.status == 0);
  CHECK_THAT(one.out, Contains("{\"value\":[\"d\"],\"leaf\":\"0x"));
  CHECK_THAT(one.out, Contains("\"proof\":[\"0x"));
  const auto multi = merklize_cli({"proof", "--format", "oz-standard", "-i", "0,5,2", file});
  REQUIRE(multi.status == 0);
  CHECK_THAT(multi.out, Contains("{\"leaves\":["));
  CHECK_THAT(multi.out, Contains("\"proofFlags\":["));
  const auto twice = merklize_cli({"proof", "--format", "oz-standard", "-i", "1,1", file});
  CHECK(twice.status == 1);
  CHECK_THAT(twice.err, Contains("asked twice"));
  const auto past = merklize_cli({"proof", "--format", "oz-standard", "-i", "6", file});
  CHECK(past.status == 1);
  CHECK_THAT(past.err, Contains("value index 6 out of range"));
}

TEST_CASE("merklize root --format bitcoin prints a block's merkle root", "[cli][commitments]") {
  const auto doc = merklize::detail::json::parse(
      test::slurp(test::vector_path("commitments/bitcoin/b100000.json")));
  std::string lines;
  std::vector<std::uint8_t> internal;
  for (const auto &txid : merklize::oz::detail::member(doc, "txids_display")->items) {
    lines += txid.text + "\n";
    const auto d = merklize::bitcoin::reversed(merklize::digest_from_hex(txid.text));
    internal.insert(internal.end(), d.begin(), d.end());
  }
  const std::string root = merklize::oz::detail::member(doc, "merkleroot_display")->text;
  const auto text = test::write_text("b100000.txt", lines);
  CHECK(merklize_cli({"root", "--format", "bitcoin", "--display-order", text}).out == root + "\n");
  const auto binary = test::write_file("b100000.bin", internal).string();
  const auto r = merklize_cli({"root", "--format", "bitcoin", binary});
  CHECK(r.out ==
        merklize::to_hex(merklize::bitcoin::reversed(merklize::digest_from_hex(root))) + "\n");
  const auto proof =
      merklize_cli({"proof", "--format", "bitcoin", "--display-order", "-i", "2", text});
  CHECK_THAT(proof.out, Contains("\"pos\":2,\"merkle\":[\"" + std::string("e9a66845")));
  CHECK_THAT(proof.out, Contains("\"root\":\"" + root + "\""));
}

TEST_CASE("merklize root --format filecoin-tree-d prints the commitment or the piece CID",
          "[cli][commitments]") {
  const auto zeros = test::write_file("zeros-1016", std::vector<std::uint8_t>(1016, 0)).string();
  const auto hex = merklize_cli({"root", "--format", "filecoin-tree-d", zeros});
  REQUIRE(hex.status == 0);
  CHECK(hex.out == merklize::to_hex(merklize::filecoin::zero_piece_commitment(10)) + "\n");
  const auto cid = merklize_cli({"root", "--format", "filecoin-tree-d", "--cid", zeros});
  CHECK(cid.out == "baga6ea4seaqb66wjlfkrbye6uqoemcyxmqylwmrm235uclwfpsyx3ge2imidoly\n");
  const auto empty = test::write_file("empty-piece", {}).string();
  const auto none = merklize_cli({"root", "--format", "filecoin-tree-d", empty});
  CHECK(none.status == 1);
  CHECK_THAT(none.err, Contains("empty-piece"));
  CHECK_THAT(none.err, Contains("no commitment"));
}

TEST_CASE("the commitments' bad input and options are refused, naming them", "[cli][commitments]") {
  const auto values =
      test::write_text("oz-bad.json", R"({"leafEncoding": ["uint8"], "values": [[300]]})");
  const auto txids = test::write_file("three-txids", test::random_bytes(96)).string();
  const auto odd = test::write_file("odd-txids", test::random_bytes(33)).string();
  const auto lines = test::write_text("bad-txids.txt", std::string(64, 'a') + "\nzz\n");
  struct bad {
    std::vector<std::string> arguments;
    std::string message;
    int status;
  } cases[] = {
      {{"root", "--format", "oz-standard", values},
       "\"values\"[0][0]: \"300\" does not fit uint8",
       1},
      {{"root", "--format", "bitcoin", odd}, "odd-txids", 1},
      {{"root", "--format", "bitcoin", "--display-order", lines}, "bad-txids.txt\", line 2", 1},
      {{"root", "--format", "bitcoin", "--cid", txids},
       "--cid has no use with --format bitcoin",
       2},
      {{"root", "--format", "filecoin-tree-d", "--display-order", txids},
       "--display-order has no use",
       2},
      {{"root", "--format", "bitcoin", "--dump", "x", txids}, "--dump has no use", 2},
      {{"root", "--format", "bitcoin", "--salt", "00", txids},
       "--salt has no use with --format bitcoin",
       2},
      {{"root", "--format", "dm-verity", "--cid", txids},
       "--cid has no use with --format dm-verity",
       2},
      {{"root", "--cid", txids}, "--cid requires --format", 2},
      {{"root", "--format", "bitcoin", "--hash", "sha256", txids}, "--hash excludes --format", 2},
      {{"root", "--format", "pedersen", txids}, "oz-standard, bitcoin, filecoin-tree-d", 2},
      {{"proof", "--format", "filecoin-tree-d", "-i", "0", txids}, "has no proofs here", 2},
      {{"proof", "--format", "bitcoin", "-i", "0,1", txids}, "only --format oz-standard", 2},
      {{"proof", "--hash", "rfc6962", "--proof-format", "ct", "-i", "0,1", txids},
       "only merklize's JSON",
       2},
      {{"proof", "--format", "bitcoin", "-i", "3", txids}, "txid index 3 out of range", 1},
      {{"proof", "--format", "bitcoin", "-i", "0,", txids},
       "--index takes a non-negative integer",
       2},
  };
  for (const auto &c : cases) {
    INFO("merklize " << c.arguments[0] << " " << c.arguments[1] << " " << c.arguments[2]);
    const auto r = merklize_cli(c.arguments);
    CHECK(r.status == c.status);
    CHECK(r.out.empty());
    CHECK_THAT(r.err, Contains(c.message));
  }
}
