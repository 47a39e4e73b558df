// SPDX-License-Identifier: Apache-2.0 OR MIT
// The formats of transparency logs on the host: base 64, C2SP tlog-tiles' layout (the spec's own
// examples), proofs from complete subtrees against the host tree's, C2SP checkpoints and
// tlog-proofs, and CT v1's JSON proofs, each read back as untrusted text. Built without OpenCL
// and sanitized (merklize_proof_host_tests); Go's sumdb/tlog is the oracle of the command line
// (tests/oracles/tlog/tlog_oracle.go).
#include "proof_helpers.hpp"

#include <merklize/core/base64.hpp>
#include <merklize/core/entries.hpp>
#include <merklize/formats/tlog_tiles.hpp>
#include <merklize/proofs/ct_json.hpp>
#include <merklize/proofs/subtree_proofs.hpp>
#include <merklize/proofs/tlog_proof.hpp>

#include <catch2/catch.hpp>

#include <string>
#include <vector>

using Catch::Matchers::Contains;
namespace tlog = merklize::tlog;

namespace {

std::string b64(const std::string &s) {
  return merklize::to_base64(reinterpret_cast<const std::uint8_t *>(s.data()), s.size());
}

// The tree of `n` leaves SHA-256(0x00 || "entry i"), every level kept.
merklize::tree log_tree(std::uint64_t n) {
  std::vector<merklize::digest> leaves(n);
  for (std::uint64_t i = 0; i < n; ++i) {
    const std::string entry = "entry " + std::to_string(i);
    leaves[i] = merklize::rfc6962_leaf_hash(entry.data(), entry.size());
  }
  return merklize::reference_tree(leaves.data(), n * merklize::node_bytes,
                                  {merklize::hash_kind::rfc6962});
}

} // namespace

TEST_CASE("base 64 is RFC 4648's, and only its canonical text is read", "[tlog]") {
  // RFC 4648 section 10's test vectors.
  const char *vectors[][2] = {{"", ""},
                              {"f", "Zg=="},
                              {"fo", "Zm8="},
                              {"foo", "Zm9v"},
                              {"foob", "Zm9vYg=="},
                              {"fooba", "Zm9vYmE="},
                              {"foobar", "Zm9vYmFy"}};
  for (const auto &v : vectors) {
    CHECK(b64(v[0]) == v[1]);
    const auto bytes = merklize::from_base64(v[1]);
    CHECK(std::string(bytes.begin(), bytes.end()) == v[0]);
  }
  for (const char *bad :
       {"Zg=", "Zg", "Zh==", "Zm9=", "Z===", "Zg==Zg==", "Zm9v\n", "Zm-v", "Zm_v", "=Zm9", " Zm9v"})
    CHECK_THROWS_WITH(merklize::from_base64(bad), Contains("not base 64"));
  CHECK_THROWS_WITH(merklize::digest_from_base64("Zm9v"), Contains("holds 3"));
}

TEST_CASE("tile paths are the spec's, and only its paths are read back", "[tlog]") {
  // c2sp.org/tlog-tiles: "index 1234067 will be encoded as x001/x234/067".
  CHECK(tlog::tile_path({0, 1234067, 256}) == "tile/0/x001/x234/067");
  CHECK(tlog::tile_path({4, 1234067, 1}) == "tile/4/x001/x234/067.p/1");
  CHECK(tlog::tile_path({1, 0, 17}) == "tile/1/000.p/17");
  CHECK(tlog::tile_path({2, 1000, 256}) == "tile/2/x001/000");
  CHECK(tlog::entry_bundle_path({0, 5, 112}) == "tile/entries/005.p/112");
  for (const tlog::tile t : {tlog::tile{0, 0, 256}, tlog::tile{63, 999, 255},
                             tlog::tile{3, 1234567890123, 7}, tlog::tile{0, UINT64_MAX, 1}})
    CHECK(tlog::parse_tile_path(tlog::tile_path(t)) == t);
  CHECK_THROWS_WITH(tlog::parse_tile_path("tile/0/x018/x446/x744/x073/x709/x551/616"),
                    Contains("past 2^64"));
  for (const char *bad :
       {"tile/0/1", "tile/0/0001", "tile/00/000", "tile/64/000", "tile/0/001/002", "tile/0/x001",
        "tile/0/000.p/0", "tile/0/000.p/256", "tile/0/000.p/01", "tile/0/x000/001", "tiles/0/000",
        "tile/0/000.p/", "tile//000", "tile/0/y001/000", "tile/0/000/"})
    CHECK_THROWS_WITH(tlog::parse_tile_path(bad), Contains("not a C2SP tile path"));
}

TEST_CASE("a tree's tiles are the spec's: full ones and one partial tile a level", "[tlog]") {
  // The spec's example: "a tree of size 70,000 will be represented by 273 full level 0 tiles, one
  // partial level 0 tile of width 112, one full level 1 tile, one partial level 1 tile of width
  // 17, and one partial level 2 tile of width 1."
  std::vector<tlog::tile> tiles;
  tlog::for_each_tile(70000, [&](const tlog::tile &t) { tiles.push_back(t); });
  REQUIRE(tiles.size() == 274 + 2 + 1);
  CHECK(tiles[272] == tlog::tile{0, 272, 256});
  CHECK(tiles[273] == tlog::tile{0, 273, 112});
  CHECK(tiles[274] == tlog::tile{1, 0, 256});
  CHECK(tiles[275] == tlog::tile{1, 1, 17});
  CHECK(tiles[276] == tlog::tile{2, 0, 1});
  // "a tree of size 256 will be represented by a full level 0 tile and a partial level 1 tile of
  // width 1."
  tiles.clear();
  tlog::for_each_tile(256, [&](const tlog::tile &t) { tiles.push_back(t); });
  CHECK(tiles == std::vector<tlog::tile>{{0, 0, 256}, {1, 0, 1}});
  CHECK(tlog::tile_levels(0) == 0);
  CHECK(tlog::tile_levels(255) == 1);
  CHECK(tlog::tile_levels(UINT64_MAX) == 8);
  CHECK(!tlog::tile_of(70000, 0, 274));
  CHECK(!tlog::tile_of(70000, 3, 0));
}

TEST_CASE("nodes read from tiles are the tree's nodes", "[tlog]") {
  const std::uint64_t n = 70000;
  const merklize::tree t = log_tree(n);
  // A tile's hashes are nodes of complete subtrees, the last of them included.
  tlog::for_each_tile(n, [&](const tlog::tile &tile) {
    const tlog::tile_nodes at = tlog::nodes_of(tile);
    CHECK((at.first_node + tile.width) << at.tree_level <= n);
  });
  // Every complete node of every level, from the hashes of its tile.
  for (unsigned level = 0; level <= t.depth(); ++level) {
    const std::uint64_t complete = n >> level;
    for (std::uint64_t index : {std::uint64_t(0), complete / 2, complete - 1}) {
      if (complete == 0) break;
      const tlog::node_in_tiles place = tlog::locate_node(level, index);
      const tlog::tile_nodes below = {tlog::tile_height * place.level, 0};
      std::vector<std::uint8_t> hashes;
      for (unsigned k = 0; k < place.hashes; ++k) {
        const merklize::digest d =
            t.node(below.tree_level, place.tile_index * tlog::tile_width + place.first + k);
        hashes.insert(hashes.end(), d.begin(), d.end());
      }
      CHECK(tlog::tile_subtree_hash(hashes.data(), place.hashes) == t.node(level, index));
    }
  }
}

TEST_CASE("proofs from complete subtrees are the host tree's", "[tlog]") {
  for (std::uint64_t n = 1; n <= 70; ++n) {
    const merklize::tree t = log_tree(n);
    const auto complete = [&](unsigned level, std::uint64_t index) {
      REQUIRE((index + 1) << level <= n); // only complete subtrees are asked for
      return t.node(level, index);
    };
    CHECK(merklize::subtree_root(complete, {0, n}) == t.root());
    for (std::uint64_t i = 0; i < n; ++i)
      CHECK(merklize::prove_from_subtrees(n, i, complete) == merklize::prove(t, i));
    for (std::uint64_t m = 0; m <= n; ++m)
      CHECK(merklize::prove_consistency_from_subtrees(m, n, complete) ==
            merklize::prove_consistency(t, m));
  }
}

TEST_CASE("subtree roots of another node hash are its prefix trees' roots", "[tlog]") {
  const auto hash = GENERATE(merklize::hash_kind::sha256, merklize::hash_kind::blake3,
                             merklize::hash_kind::keccak256);
  const std::uint64_t n = 37;
  std::vector<merklize::digest> leaves(n);
  for (std::uint64_t i = 0; i < n; ++i)
    leaves[i][0] = static_cast<std::uint8_t>(i + 1);
  const merklize::tree t =
      merklize::reference_tree(leaves.data(), n * merklize::node_bytes, {hash});
  const auto complete = [&](unsigned level, std::uint64_t index) { return t.node(level, index); };
  for (std::uint64_t m = 1; m <= n; ++m) {
    INFO(merklize::to_string(hash) << ", the first " << m << " leaves");
    const merklize::tree prefix =
        merklize::reference_tree(leaves.data(), m * merklize::node_bytes, {hash});
    CHECK(merklize::subtree_root(complete, {0, m}, hash) == prefix.root());
  }
}

TEST_CASE("checkpoints: the body written, notes read back as untrusted text", "[tlog]") {
  const merklize::tree t = log_tree(5);
  const merklize::checkpoint head{"example.com/log42", 5, t.root(), {}};
  const std::string body = merklize::checkpoint_body(head);
  CHECK(body == "example.com/log42\n5\n" + merklize::to_base64(t.root()) + "\n");
  const std::string note =
      body + "\n\xe2\x80\x94 example.com/log42 Az3grlgtzPICa5OS8npVmf1Myq/5IZniMp+ZJurmRDe=\n";
  for (const std::string &text : {body, note}) {
    const merklize::checkpoint read = merklize::parse_checkpoint(text);
    CHECK(read.origin == head.origin);
    CHECK(read.size == 5);
    CHECK(read.root == t.root());
  }
  CHECK(merklize::parse_checkpoint(body + "ext one\n").extensions ==
        std::vector<std::string>{"ext one"});
  const std::string root = merklize::to_base64(t.root());
  const std::pair<std::string, const char *> bad[] = {
      {"o\n5\n" + root, "does not end with a newline"},
      {"o\n5\n", "fewer than three lines"},
      {"\n5\n" + root + "\n", "origin (line 1) is empty"},
      {"o\n05\n" + root + "\n", "without leading zeros"},
      {"o\n-5\n" + root + "\n", "without leading zeros"},
      {"o\n18446744073709551616\n" + root + "\n", "exceeds 2^64 - 1"},
      {"o\n5\nZm9v\n", "holds 3"},
      {"o\n5\n" + root + "\n\n", "no signature after it"},
      {"o\n5\n" + root + "\n\nnot a signature\n", "not a signature line"},
      {"o\t\n5\n" + root + "\n", "control character"}};
  for (const auto &[text, why] : bad)
    CHECK_THROWS_WITH(merklize::parse_checkpoint(text),
                      Contains("the checkpoint") && Contains(why));
  CHECK_THROWS(merklize::checkpoint_body({"", 1, {}, {}}));
}

TEST_CASE("tlog-proofs are written, read back and verified", "[tlog]") {
  const merklize::tree t = log_tree(13);
  const std::string note = merklize::checkpoint_body({"example.com/log", 13, t.root(), {}}) +
                           "\n\xe2\x80\x94 example.com/log c2lnbmF0dXJl\n";
  const merklize::inclusion_proof proof = merklize::prove(t, 6);
  const std::string text = merklize::to_tlog_proof(proof, note, std::vector<std::uint8_t>{1, 2});
  const merklize::tlog_proof read = merklize::tlog_proof_from_text(text);
  CHECK(read.index == 6);
  CHECK(read.extra == std::vector<std::uint8_t>{1, 2});
  CHECK(read.checkpoint_text == note);
  CHECK(merklize::inclusion_proof_of(read) == proof);
  CHECK(merklize::verify(merklize::inclusion_proof_of(read), t.node(0, 6), read.head.root));
  CHECK(text.rfind("c2sp.org/tlog-proof@v1\nextra AQI=\nindex 6\n", 0) == 0);
  // A checkpoint of another size, another hash, and malformed texts.
  CHECK_THROWS_WITH(merklize::to_tlog_proof(merklize::prove(log_tree(12), 6), note),
                    Contains("a tree of 13 entries"));
  const std::pair<std::string, const char *> bad[] = {
      {"c2sp.org/tlog-proof@v2\nindex 6\n\n" + note, "line 1"},
      {"c2sp.org/tlog-proof@v1\nindex 06\n\n" + note, "leading zeros"},
      {"c2sp.org/tlog-proof@v1\n\n" + note, "not \"index N\""},
      {"c2sp.org/tlog-proof@v1\nindex 6\nZm9v\n\n" + note, "line 3"},
      {"c2sp.org/tlog-proof@v1\nindex 6\n" + note, "line 3"}, // no empty line before it
      {"c2sp.org/tlog-proof@v1\nindex 6\n\nexample.com/log\n13\n", "the checkpoint"},
      {"c2sp.org/tlog-proof@v1\nindex 6", "no empty line"}};
  for (const auto &[bad_text, why] : bad)
    CHECK_THROWS_WITH(merklize::tlog_proof_from_text(bad_text),
                      Contains("tlog-proof") && Contains(why));
}

TEST_CASE("CT v1 JSON proofs round-trip and are read as untrusted text", "[tlog]") {
  const merklize::tree t = log_tree(11);
  const merklize::inclusion_proof proof = merklize::prove(t, 4);
  const std::string json = merklize::to_ct_json(proof);
  CHECK(json.rfind("{\"leaf_index\":4,\"audit_path\":[\"", 0) == 0);
  CHECK(merklize::ct_inclusion_proof_from_json(json, 11) == proof);
  const merklize::consistency_proof consistency = merklize::prove_consistency(t, 6);
  const std::string cjson = merklize::to_ct_json(consistency);
  CHECK(merklize::ct_consistency_proof_from_json(cjson, 6, 11) == consistency);
  CHECK(merklize::ct_consistency_proof_from_json("{\"consistency\":[]}", 11, 11).nodes.empty());
  const std::pair<std::string, const char *> bad[] = {
      {"[]", "not a JSON object"},
      {"{\"leaf_index\":4}", "has no \"audit_path\""},
      {"{\"leaf_index\":4,\"audit_path\":[],\"x\":1}", "unknown key"},
      {"{\"leaf_index\":4,\"leaf_index\":4,\"audit_path\":[]}", "duplicate key"},
      {"{\"leaf_index\":-1,\"audit_path\":[]}", "non-negative integer"},
      {"{\"leaf_index\":4,\"audit_path\":[\"Zm9v\"]}", "\"audit_path\"[0]"},
      {"{\"leaf_index\":4,\"audit_path\":[1]}", "not a string"},
      {"{\"leaf_index\":4,\"audit_path\":[]} x", "JSON"}};
  for (const auto &[text, why] : bad)
    CHECK_THROWS_WITH(merklize::ct_inclusion_proof_from_json(text, 11),
                      Contains("CT proof JSON") && Contains(why));
  CHECK_THROWS_WITH(merklize::to_ct_json(merklize::inclusion_proof{
                        {merklize::hash_kind::sha256}, 2, 0, {merklize::digest{}}}),
                    Contains("RFC 6962 logs only"));
}
