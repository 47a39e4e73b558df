// SPDX-License-Identifier: Apache-2.0 OR MIT
// The binary and JSON encodings of proofs (docs/PROOFS.md): byte for byte as documented, and
// every malformed encoding refused with a merklize::error that names the problem. Also the strict
// JSON reader they use. Host-only, run under AddressSanitizer and UBSan.
#include "proof_helpers.hpp"

#include <catch2/catch.hpp>

#include <fstream>
#include <sstream>

using Catch::Matchers::Contains;
namespace strict = merklize::detail::json; // tests/json.hpp is ::json

namespace {

void append_u64(std::vector<std::uint8_t> &out, std::uint64_t v) {
  for (int i = 0; i < 8; ++i)
    out.push_back(static_cast<std::uint8_t>(v >> (8 * i)));
}

void append_text(std::vector<std::uint8_t> &out, const std::string &s) {
  out.insert(out.end(), s.begin(), s.end());
}

// The documented header, written out by hand.
std::vector<std::uint8_t> documented_header(std::uint8_t kind, const std::string &hash,
                                            const std::string &shape, std::uint64_t leaves,
                                            std::uint8_t depth) {
  std::vector<std::uint8_t> out;
  append_text(out, "MKLP");
  out.push_back(1); // version
  out.push_back(kind);
  out.push_back(static_cast<std::uint8_t>(hash.size()));
  append_text(out, hash);
  out.push_back(static_cast<std::uint8_t>(shape.size()));
  append_text(out, shape);
  append_u64(out, leaves);
  out.push_back(depth);
  return out;
}

merklize::tree counting_tree(std::uint64_t n, merklize::tree_options options) {
  const auto leaves = test::counting_leaves(n);
  return merklize::reference_tree(leaves.data(), leaves.size(), options);
}

} // namespace

TEST_CASE("an inclusion proof encodes as documented", "[proof][encoding]") {
  const auto t = counting_tree(5, {merklize::hash_kind::blake3_parent, merklize::shape::zero});
  const auto p = merklize::prove(t, 4);
  REQUIRE(p.siblings.size() == 3);

  auto bytes = documented_header(1, "blake3-parent", "zero", 5, 3);
  append_u64(bytes, 4);
  append_u64(bytes, 3);
  for (const auto &s : p.siblings)
    bytes.insert(bytes.end(), s.begin(), s.end());
  CHECK(merklize::to_binary(p) == bytes);

  CHECK(merklize::to_json(p) ==
        "{\"format\":\"merklize-proof\",\"version\":1,\"kind\":\"inclusion\",\"hash\":\"blake3-"
        "parent\",\"shape\":\"zero\",\"leaf_count\":5,\"depth\":3,\"index\":4,\"siblings\":[\"" +
            merklize::to_hex(p.siblings[0]) + "\",\"" + merklize::to_hex(p.siblings[1]) + "\",\"" +
            merklize::to_hex(p.siblings[2]) + "\"]}");
}

TEST_CASE("a multiproof encodes as documented", "[proof][encoding]") {
  const auto t = counting_tree(6, {merklize::hash_kind::blake3, merklize::shape::promote});
  const auto m = merklize::prove_multi(t, {5, 0});
  REQUIRE(m.nodes.size() == 3); // leaf 1, leaf 4 and node (1, 1)

  auto bytes = documented_header(2, "blake3", "promote", 6, 3);
  append_u64(bytes, 2);
  append_u64(bytes, 0);
  append_u64(bytes, 5);
  append_u64(bytes, 3);
  for (const auto &d : {t.node(0, 1), t.node(0, 4), t.node(1, 1)})
    bytes.insert(bytes.end(), d.begin(), d.end());
  CHECK(merklize::to_binary(m) == bytes);

  CHECK(merklize::to_json(m) ==
        "{\"format\":\"merklize-proof\",\"version\":1,\"kind\":\"multiproof\",\"hash\":\"blake3\","
        "\"shape\":\"promote\",\"leaf_count\":6,\"depth\":3,\"indices\":[0,5],\"nodes\":[\"" +
            merklize::to_hex(t.node(0, 1)) + "\",\"" + merklize::to_hex(t.node(0, 4)) + "\",\"" +
            merklize::to_hex(t.node(1, 1)) + "\"]}");
}

TEST_CASE("every truncation and extension of a binary proof is refused", "[proof][encoding]") {
  for (const auto &options : test::all_tree_options()) {
    const auto t = test::random_tree(11, options);
    const auto single = merklize::to_binary(merklize::prove(t, 10));
    const auto multi = merklize::to_binary(merklize::prove_multi(t, {1, 2, 7}));
    for (std::size_t size = 0; size < single.size(); ++size)
      CHECK_THROWS_WITH(merklize::inclusion_proof_from_binary(single.data(), size),
                        Contains("binary proof: ") && Contains("truncated"));
    for (std::size_t size = 0; size < multi.size(); ++size)
      CHECK_THROWS_WITH(merklize::multiproof_from_binary(multi.data(), size),
                        Contains("truncated"));
    auto longer = single;
    longer.push_back(0);
    CHECK_THROWS_WITH(merklize::inclusion_proof_from_binary(longer),
                      Contains("1 bytes after the end"));
    longer = multi;
    longer.insert(longer.end(), 32, 0);
    CHECK_THROWS_WITH(merklize::multiproof_from_binary(longer), Contains("32 bytes after the end"));
  }
}

TEST_CASE("binary proofs with a bad header or a hostile count are refused", "[proof][encoding]") {
  const auto t = test::random_tree(9, {});
  const auto good = merklize::to_binary(merklize::prove(t, 3));
  auto bad = good;
  bad[0] = 'X';
  CHECK_THROWS_WITH(merklize::inclusion_proof_from_binary(bad), Contains("not a merklize proof"));
  bad = good;
  bad[4] = 2;
  CHECK_THROWS_WITH(merklize::inclusion_proof_from_binary(bad),
                    Contains("version 2 is not supported"));
  CHECK_THROWS_WITH(merklize::multiproof_from_binary(good),
                    Contains("kind 1 where 2 (multiproof) was expected"));
  CHECK_THROWS_WITH(
      merklize::inclusion_proof_from_binary(merklize::to_binary(merklize::prove_multi(t, {0}))),
      Contains("kind 2 where 1 (inclusion) was expected"));

  auto unknown = documented_header(1, "md5", "promote", 9, 4);
  CHECK_THROWS_WITH(merklize::inclusion_proof_from_binary(unknown), Contains("unknown hash"));
  unknown = documented_header(1, "blake3", "left", 9, 4);
  CHECK_THROWS_WITH(merklize::inclusion_proof_from_binary(unknown), Contains("unknown shape"));
  unknown = documented_header(1, "blake3", "zero", 9, 65);
  CHECK_THROWS_WITH(merklize::inclusion_proof_from_binary(unknown),
                    Contains("depth of 65 is more than 64"));

  // A count of 2^64 - 1 siblings is refused from the bytes left, before allocating anything.
  auto hostile = documented_header(1, "blake3", "promote", 9, 4);
  append_u64(hostile, 3);
  append_u64(hostile, UINT64_MAX);
  CHECK_THROWS_WITH(merklize::inclusion_proof_from_binary(hostile),
                    Contains("truncated") && Contains("18446744073709551615"));
  hostile = documented_header(2, "blake3", "promote", 9, 4);
  append_u64(hostile, UINT64_MAX / 8 + 1);
  CHECK_THROWS_WITH(merklize::multiproof_from_binary(hostile), Contains("truncated"));
}

TEST_CASE("JSON proofs: whitespace and key order are free, every truncation is refused",
          "[proof][encoding]") {
  const auto t = test::random_tree(6, {merklize::hash_kind::blake3, merklize::shape::zero});
  const auto p = merklize::prove(t, 5);
  const std::string text = merklize::to_json(p);
  const std::string pretty =
      "\n{ \"siblings\" : [\n  \"" + merklize::to_hex(p.siblings[0]) + "\",\t\"" +
      merklize::to_hex(p.siblings[1]) + "\", \"" + merklize::to_hex(p.siblings[2]) +
      "\"\r\n ], \"index\": 5, \"depth\": 3, \"leaf_count\": 6, \"shape\": \"zero\", \"hash\": "
      "\"blake3\", "
      "\"kind\": \"inclusion\", \"version\": 1, \"format\": \"merklize-proof\" }\n";
  CHECK(merklize::inclusion_proof_from_json(pretty) == p);
  for (std::size_t size = 0; size < text.size(); ++size)
    CHECK_THROWS_WITH(merklize::inclusion_proof_from_json(text.substr(0, size)),
                      Contains("proof JSON: "));
  CHECK_THROWS_WITH(merklize::inclusion_proof_from_json(text + "x"),
                    Contains("unexpected text after the JSON value"));
  CHECK_THROWS_WITH(merklize::inclusion_proof_from_json(text + text),
                    Contains("unexpected text after the JSON value"));
  CHECK_THROWS_WITH(merklize::multiproof_from_json(text),
                    Contains("kind \"inclusion\" where \"multiproof\" was expected"));
}

TEST_CASE("JSON proofs that break the format are refused with the reason", "[proof][encoding]") {
  const auto t = test::random_tree(3, {});
  const std::string good = merklize::to_json(merklize::prove(t, 2));
  const auto replaced = [&](const std::string &from, const std::string &to) {
    std::string s = good;
    const auto at = s.find(from);
    REQUIRE(at != std::string::npos);
    return s.replace(at, from.size(), to);
  };
  const std::string hex = merklize::to_hex(t.node(1, 0));
  struct bad {
    std::string text, message;
  } cases[] = {
      {replaced("\"version\":1", "\"version\":2"), "version 2 is not supported"},
      {replaced("\"version\":1", "\"version\":01"), "leading zero"},
      {replaced("\"version\":1", "\"version\":1.0"), "\"version\" is not a non-negative integer"},
      {replaced("\"version\":1", "\"version\":1e0"), "not a non-negative integer"},
      {replaced("\"version\":1", "\"version\":\"1\""), "not a non-negative integer"},
      {replaced("\"index\":2", "\"index\":-2"), "\"index\" is not a non-negative integer"},
      {replaced("\"index\":2", "\"index\":18446744073709551616"), "exceeds 2^64 - 1"},
      {replaced("\"format\":\"merklize-proof\"", "\"format\":\"other\""), "\"format\" is not"},
      {replaced("\"hash\":\"blake3\"", "\"hash\":\"md5\""), "unknown hash \"md5\""},
      {replaced("\"shape\":\"promote\"", "\"shape\":\"left\""), "unknown shape \"left\""},
      {replaced("\"kind\":\"inclusion\"", "\"kind\":\"other\""), "kind \"other\""},
      {replaced("\"index\":2,", ""), "the proof has no \"index\""},
      {replaced("\"index\":2,", "\"index\":2,\"extra\":0,"), "unknown key \"extra\""},
      {replaced("\"index\":2,", "\"index\":2,\"index\":2,"), "duplicate key \"index\""},
      {replaced(hex, hex.substr(2)), "\"siblings\"[0]: a digest is 64 hex digits"},
      {replaced(hex, "zz" + hex.substr(2)), "\"siblings\"[0]: not a hex digit"},
      {replaced("[\"" + hex + "\"]", "\"" + hex + "\""), "\"siblings\" is not an array"},
      {replaced("[\"" + hex + "\"]", "[1]"), "\"siblings\"[0] is not a string"},
      {replaced("[\"" + hex + "\"]", "[\"" + hex + "\",]"), "not a JSON value"},
      {replaced("{", "{/*c*/"), "expected a string as object key"},
      {replaced("\"index\"", "'index'"), "expected a string as object key"},
      {replaced("\"index\"", "\"ind\\x\""), "unknown escape"},
      {replaced("\"index\"", "\"ind\nex\""), "control character"},
      {replaced("\"index\"", "\"ind\xc3\x28\""), "bad UTF-8"},
      {replaced("\"index\"", "\"\\ud800\""), "without its low half"},
      {replaced("\"index\"", "\"\\udc00\""), "lone low surrogate"},
      {"[" + good + "]", "the proof is not a JSON object"},
      {"", "unexpected end of text"},
      {std::string(100000, '['), "nesting deeper than 64"},
  };
  for (const auto &c : cases) {
    INFO(c.text.substr(0, 300));
    CHECK_THROWS_WITH(merklize::inclusion_proof_from_json(c.text),
                      Contains("proof JSON: ") && Contains(c.message));
  }
}

TEST_CASE("the JSON reader accepts what RFC 8259 allows", "[json]") {
  const auto v = strict::parse(
      " {\"a\\u00e9\\ud83d\\ude00\\n\\\"\\\\\\/\\b\\f\\r\\t\":[true,false,null,-0,12.5e-3,0.0E+1,"
      "\"\xc3\xa9\xe2\x82\xac\xf0\x9f\x98\x80\"],\"\":{}} ");
  REQUIRE(v.type == strict::value::kind::object);
  REQUIRE(v.members.size() == 2);
  CHECK(v.members[0].first == "a\xc3\xa9\xf0\x9f\x98\x80\n\"\\/\b\f\r\t");
  const auto &items = v.members[0].second.items;
  REQUIRE(items.size() == 7);
  CHECK(items[0].boolean);
  CHECK(items[2].type == strict::value::kind::null);
  CHECK(items[3].text == "-0");
  CHECK(items[4].text == "12.5e-3");
  CHECK(items[6].text == "\xc3\xa9\xe2\x82\xac\xf0\x9f\x98\x80");
  CHECK(v.members[1].second.type == strict::value::kind::object);
  for (const char *bad : {"01", "-", "1.", ".5", "1e", "+1", "tru", "nul", "[1,]", "{\"a\"}",
                          "{\"a\":1,}", "\"\xed\xa0\x80\"", "\"\xe0\x80\xaf\"",
                          "\"\xf4\x90\x80\x80\"", "\"\xc0\xaf\"", "[1 2]", "\"\\u12G4\""}) {
    INFO(bad);
    CHECK_THROWS_AS(strict::parse(bad), merklize::error);
  }
}

TEST_CASE("json_quote writes string literals the JSON reader reads back", "[json]") {
  CHECK(merklize::json_quote("a\"b\\c\x01") == "\"a\\\"b\\\\c\\u0001\"");
  CHECK(merklize::json_quote("") == "\"\"");
  const std::string text = std::string("\x1f\n\t\"\\/ \xc3\xa9\x7f") + '\0';
  const auto v = strict::parse(merklize::json_quote(text));
  REQUIRE(v.type == strict::value::kind::string);
  CHECK(v.text == text);
}

TEST_CASE("docs/PROOFS.md shows real proofs", "[proof][encoding]") {
  std::ifstream file(std::string(MERKLIZE_SOURCE_DIR) + "/docs/PROOFS.md");
  std::stringstream docs;
  docs << file.rdbuf();
  const auto t = counting_tree(5, {});
  for (const std::string &json : {merklize::to_json(merklize::prove(t, 4)),
                                  merklize::to_json(merklize::prove_multi(t, {0, 3}))}) {
    INFO(json);
    CHECK(docs.str().find("```json\n" + json + "\n```") != std::string::npos);
  }
}
