// SPDX-License-Identifier: Apache-2.0 OR MIT
// Untrusted text in messages (detail::quoted): escaped so that it cannot drive a terminal, and cut
// so that a huge input gives a short message, wherever the decoders and parsers echo their
// input. Host-only, run under AddressSanitizer and UBSan.
#include "proof_helpers.hpp"

#include <merklize/core/quote.hpp>

#include <catch2/catch.hpp>

#include <algorithm>
#include <functional>

using Catch::Matchers::Contains;
using merklize::detail::quoted;

namespace {

const std::string escape_sequence = "\x1b[31mred\x1b]0;title\x07";

// The message of the merklize::error that `f` throws.
std::string message_of(const std::function<void()> &f) {
  try {
    f();
  } catch (const merklize::error &e) {
    return e.what();
  }
  FAIL("no merklize::error thrown");
  return {};
}

bool has_control_bytes(const std::string &text) {
  return std::any_of(text.begin(), text.end(), [](char c) {
    const auto byte = static_cast<unsigned char>(c);
    return byte < 0x20 || byte >= 0x7f;
  });
}

// A JSON proof of leaf 0 of a 2-leaf tree whose member `key` holds `value` (JSON text).
std::string json_proof_with(const std::string &key, const std::string &value) {
  const auto t = test::random_tree(2, {});
  std::string text = merklize::to_json(merklize::prove(t, 0));
  const std::string member = "\"" + key + "\":";
  const auto at = text.find(member);
  REQUIRE(at != std::string::npos);
  const auto end = text.find_first_of(",}", at + member.size());
  return text.replace(at + member.size(), end - at - member.size(), value);
}

} // namespace

TEST_CASE("quoted() escapes what is not printable ASCII and cuts long text", "[untrusted][quote]") {
  CHECK(quoted("blake3") == "\"blake3\"");
  CHECK(quoted("") == "\"\"");
  CHECK(quoted("a\"b\\c") == "\"a\\\"b\\\\c\"");
  CHECK(quoted(escape_sequence) == "\"\\x1b[31mred\\x1b]0;title\\x07\"");
  CHECK(quoted(std::string("\0\x7f\xc3\xa9", 4)) == "\"\\x00\\x7f\\xc3\\xa9\"");
  CHECK(quoted(std::string(80, 'a')) == "\"" + std::string(80, 'a') + "\"");
  CHECK(quoted(std::string(81, 'a')) == "\"" + std::string(80, 'a') + "...\" (81 bytes)");
  CHECK(quoted("abcdef", 3) == "\"abc...\" (6 bytes)");
  // A cut never leaves half an escape: the limit counts input bytes.
  CHECK(quoted(std::string(10, '\x1b'), 2) == "\"\\x1b\\x1b...\" (10 bytes)");
}

TEST_CASE("names and hex strings are quoted in the parsers' messages", "[untrusted]") {
  const std::string hostile = "md5" + escape_sequence;
  for (const std::string &message :
       {message_of([&] { merklize::parse_hash_kind(hostile); }),
        message_of([&] { merklize::parse_shape(hostile); }),
        message_of([&] { merklize::from_hex("0" + escape_sequence); }),
        message_of([&] { merklize::from_hex(escape_sequence + "0"); }),
        message_of([&] { merklize::digest_from_hex(escape_sequence); })}) {
    INFO(message);
    CHECK(!has_control_bytes(message));
    CHECK_THAT(message, Contains("\\x1b[31mred"));
  }
  const std::string huge(10 << 20, 'z');
  for (const std::string &message : {message_of([&] { merklize::parse_hash_kind(huge); }),
                                     message_of([&] { merklize::parse_shape(huge); }),
                                     message_of([&] { merklize::from_hex(huge); })}) {
    CHECK(message.size() < 300);
    CHECK_THAT(message, Contains("(10485760 bytes)"));
  }
}

TEST_CASE("a JSON proof's strings are quoted in the decoder's messages", "[untrusted][proof]") {
  const std::string escaped = "\\u001b[31mred\\u001b]0;title\\u0007";
  const auto t = test::random_tree(2, {});
  const std::string hex = merklize::to_hex(t.node(0, 1));
  struct hostile {
    std::string text, message;
  } cases[] = {
      {json_proof_with("hash", "\"md5" + escaped + "\""), "unknown hash \"md5\\x1b[31mred"},
      {json_proof_with("shape", "\"" + escaped + "\""), "unknown shape \"\\x1b[31mred"},
      {json_proof_with("kind", "\"" + escaped + "\""), "kind \"\\x1b[31mred"},
      {json_proof_with("siblings", "[\"" + escaped + "\"]"), "\"siblings\"[0]:"},
      {json_proof_with("siblings", "[\"" + hex.substr(2) + escaped + "\"]"), "\\x1b[31mred"},
      {json_proof_with("index", "0,\"" + escaped + "\":1"), "unknown key \"\\x1b[31mred"},
  };
  for (const auto &c : cases) {
    const std::string message = message_of([&] { merklize::inclusion_proof_from_json(c.text); });
    INFO(message);
    CHECK(!has_control_bytes(message));
    CHECK_THAT(message, Contains(c.message));
  }
}

TEST_CASE("a 10 MB string in a proof gives a short message", "[untrusted][proof]") {
  const std::string huge(10 << 20, 'x');
  for (const char *key : {"hash", "shape", "kind"}) {
    const std::string message = message_of(
        [&] { merklize::inclusion_proof_from_json(json_proof_with(key, "\"" + huge + "\"")); });
    INFO(message.substr(0, 300));
    CHECK(message.size() < 300);
    CHECK_THAT(message, Contains("(10485760 bytes)"));
  }
  for (const std::string &value :
       {"[\"" + huge + "\"]", "[\"" + huge + "0\"]", "0,\"" + huge + "\":1"}) {
    const std::string message = message_of(
        [&] { merklize::inclusion_proof_from_json(json_proof_with("siblings", value)); });
    INFO(message.substr(0, 300));
    CHECK(message.size() < 300);
  }
  const std::string message = message_of([&] {
    merklize::inclusion_proof_from_json(json_proof_with("index", std::string(1 << 20, '9')));
  });
  CHECK(message.size() < 300);
  CHECK_THAT(message, Contains("exceeds 2^64 - 1"));
}

TEST_CASE("a binary proof's names are quoted in the decoder's messages", "[untrusted][proof]") {
  const auto t = test::random_tree(2, {});
  const auto good = merklize::to_binary(merklize::prove(t, 0));
  // The hash name, "blake3", is 6 bytes after the 6-byte magic, version and kind.
  REQUIRE(std::string(good.begin() + 7, good.begin() + 13) == "blake3");
  auto bad = good;
  std::copy(escape_sequence.begin(), escape_sequence.begin() + 6, bad.begin() + 7);
  const std::string message = message_of([&] { merklize::inclusion_proof_from_binary(bad); });
  INFO(message);
  CHECK(!has_control_bytes(message));
  CHECK_THAT(message, Contains("unknown hash \"\\x1b[31mr\""));
}
