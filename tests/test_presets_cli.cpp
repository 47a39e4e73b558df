// SPDX-License-Identifier: Apache-2.0 OR MIT
// The presets (--log, --ssz-list LIMIT, --ssz-vector) against the host's trees, and each default
// that used to give another tree's root without a word, now an error or the right
// answer: leaf-hash without --entries, --mix-in-length without --depth, consistency without
// --hash, --hash rfc6962 --pad zero, and device lists written with line breaks.
#include "cli_helpers.hpp"
#include "ct_log.hpp"
#include "helpers.hpp"

#include <catch2/catch.hpp>

using Catch::Matchers::Contains;

namespace {

using args = std::vector<std::string>;
using test::merklize_cli;
using test::write_text;

using test::ct_lines;
using test::ct_root_6;
using test::ct_root_8;

args with(args a, const args &more) {
  a.insert(a.end(), more.begin(), more.end());
  return a;
}

// `count` random entries of 0 to 200 bytes, many holding "\n", each a 4-byte big-endian length
// and its bytes; their RFC 6962 leaves.
std::pair<std::string, std::string> length_prefixed(std::size_t count) {
  std::string framed, leaves;
  const auto bytes = test::random_bytes(count * 201);
  for (std::size_t i = 0; i < count; ++i) {
    const std::size_t size = bytes[i] % 201;
    const std::string entry(reinterpret_cast<const char *>(bytes.data()) + i * 201, size);
    framed += std::string(2, '\0') + char(size >> 8) + char(size & 0xff) + entry;
    const auto leaf = merklize::rfc6962_leaf_hash(entry.data(), entry.size());
    leaves.append(reinterpret_cast<const char *>(leaf.data()), leaf.size());
  }
  return {framed, leaves};
}

std::string hex_root(const std::vector<std::uint8_t> &leaves, const merklize::tree_options &o) {
  return merklize::to_hex(merklize::reference_tree(leaves.data(), leaves.size(), o).root());
}

} // namespace

TEST_CASE("leaf-hash needs --entries: binary entries are never split at line breaks unasked",
          "[cli][presets]") {
  const auto [framed, leaves] = length_prefixed(10000);
  const auto file = write_text("binary-entries", framed);
  const auto unframed = merklize_cli({"leaf-hash", file});
  CHECK(unframed.status == 2);
  CHECK(unframed.out.empty());
  CHECK_THAT(unframed.err, Contains("--entries is required"));
  // rfc6962 is the leaf hash without a flag; the framing said, every entry is a leaf.
  const auto hashed = merklize_cli({"leaf-hash", "--entries", "length-prefixed", file});
  REQUIRE(hashed.status == 0);
  CHECK(hashed.out.size() == 10000 * 32);
  CHECK(hashed.out == leaves);
}

TEST_CASE("the --log preset: a log's root, audit path and consistency proof from entries",
          "[cli][presets][rfc6962]") {
  const auto entries = write_text("ct-log", ct_lines);
  const args log = {"--log", "--entries", "lines"};
  const auto root = merklize_cli(with({"root"}, with(log, {entries})));
  REQUIRE(root.status == 0);
  CHECK(root.out == ct_root_8 + "\n");
  CHECK(merklize_cli(with({"root"}, with(log, {"-"})), entries).out == ct_root_8 + "\n");
  const auto unframed = merklize_cli({"root", "--log", entries});
  CHECK(unframed.status == 2);
  CHECK_THAT(unframed.err, Contains("--entries is required"));
  // Entry 3's audit path, verified against its leaf hash as a log's proof.
  const auto proof = merklize_cli(with({"proof", "-i", "3"}, with(log, {entries})));
  REQUIRE(proof.status == 0);
  const auto proof_file = write_text("ct-log-proof.json", proof.out);
  const std::string entry3 = "\x20\x21";
  const auto leaf = merklize::to_hex(merklize::rfc6962_leaf_hash(entry3.data(), entry3.size()));
  const auto ok = merklize_cli({"verify", "--log", proof_file, leaf, ct_root_8});
  CHECK(ok.status == 0);
  CHECK_THAT(ok.out, Contains("valid: leaf 3 of 8 (rfc6962, promote)"));
  CHECK(merklize_cli(with({"proof", "-i", "8"}, with(log, {entries}))).status == 1);
  // Both heads and the proof, in one command.
  const auto made = merklize_cli(with({"consistency", "--old-size", "6"}, with(log, {entries})));
  REQUIRE(made.status == 0);
  CHECK(made.out.rfind("old tree head: 6 leaves, root " + ct_root_6 +
                           "\nnew tree head: 8 leaves, root " + ct_root_8 + "\n",
                       0) == 0);
  // The empty log's root, SHA-256 of nothing.
  CHECK(merklize_cli(with({"root"}, with(log, {write_text("no-entries", "")}))).out ==
        "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855\n");
}

TEST_CASE("consistency over leaves is a log's without --hash, never blake3's unasked",
          "[cli][presets][consistency]") {
  const auto entries = write_text("ct-log", ct_lines);
  const auto leaves = (test::scratch_dir() / "ct-log-leaves").string();
  REQUIRE(merklize_cli({"leaf-hash", "--entries", "lines", "-o", leaves, entries}).status == 0);
  const auto made = merklize_cli({"consistency", "--old-size", "6", leaves});
  REQUIRE(made.status == 0);
  CHECK(made.out.rfind("old tree head: 6 leaves, root " + ct_root_6 + "\n", 0) == 0);
  CHECK_THAT(made.out, Contains("\"hash\":\"rfc6962\""));
}

TEST_CASE("the --ssz-list LIMIT preset gives an SSZ list's root and element proofs",
          "[cli][presets][ssz]") {
  for (const std::uint64_t limit : {0u, 1u, 4u, 5u, 1000u, 1024u})
    for (const std::uint64_t length : {0u, 1u, 3u, 4u, 5u}) {
      INFO("limit " << limit << ", length " << length);
      const auto leaves = test::random_bytes(length * 32);
      const auto file = test::write_file("ssz-list", leaves).string();
      const auto preset = merklize_cli({"root", "--ssz-list", std::to_string(limit), file});
      const auto piped = merklize_cli({"root", "--ssz-list", std::to_string(limit), "-"}, file);
      if (length > limit) {
        CHECK(preset.status == 1);
        CHECK_THAT(preset.err, Contains("more than the list's limit of " + std::to_string(limit)));
        CHECK(piped.status == 1);
        CHECK_THAT(piped.err, Contains("limit"));
        continue;
      }
      const unsigned depth = merklize::detail::ceil_log2(std::max<std::uint64_t>(limit, 1));
      const merklize::tree_options options{merklize::hash_kind::sha256, merklize::shape::zero,
                                           depth};
      const auto top = leaves.empty()
                           ? *merklize::empty_tree_root(options)
                           : merklize::reference_tree(leaves.data(), leaves.size(), options).root();
      const std::string want = merklize::to_hex(merklize::mix_in_length(top, length)) + "\n";
      CHECK(preset.out == want);
      CHECK(piped.out == want);
      if (length == 0) continue;
      const auto proof = merklize_cli(
          {"proof", "--ssz-list", std::to_string(limit), "-i", std::to_string(length - 1), file});
      REQUIRE(proof.status == 0);
      const auto t = merklize::reference_tree(leaves.data(), leaves.size(), options);
      CHECK(merklize::inclusion_proof_from_json(proof.out) ==
            merklize::mix_in_length(merklize::prove(t, length - 1), length));
    }
}

TEST_CASE("the --ssz-vector preset gives an SSZ vector's root, no length mixed in",
          "[cli][presets][ssz]") {
  for (const std::uint64_t n : {1u, 2u, 5u, 8u, 33u}) {
    const auto leaves = test::random_bytes(n * 32);
    const auto file = test::write_file("ssz-vector", leaves).string();
    const auto r = merklize_cli({"root", "--ssz-vector", file});
    INFO(n << " chunks: " << r.err);
    REQUIRE(r.status == 0);
    CHECK(r.out == hex_root(leaves, {merklize::hash_kind::sha256, merklize::shape::zero,
                                     merklize::detail::ceil_log2(n)}) +
                       "\n");
  }
  CHECK(merklize_cli({"root", "--ssz-vector", write_text("no-chunks", "")}).status == 1);
}

TEST_CASE("presets and tree options: mistakes in the command line exit 2 with a reason",
          "[cli][presets][bad-input]") {
  const auto file = test::write_file("four-leaves", test::random_bytes(4 * 32)).string();
  const std::pair<args, std::string> mistakes[] = {
      {{"root", "--hash", "rfc6962", "--pad", "zero", file}, "hash rfc6962 has shape promote only"},
      {{"proof", "-i", "0", "--hash", "rfc6962", "--pad", "zero", file}, "shape promote only"},
      {{"root", "--depth", "3", file}, "--depth 3 needs --pad zero"},
      {{"root", "--ssz-list", "4", "--hash", "sha256", file}, "excludes"},
      {{"root", "--ssz-list", "4", "--ssz-vector", file}, "excludes"},
      {{"root", "--log", "--entries", "lines", "--depth", "3", file}, "excludes"},
      {{"root", "--ssz-list", "4", "--mix-in-length", "4", file}, "excludes"},
      {{"root", "--entries", "lines", file}, "--entries requires --log"},
      {{"root", "--log", "--entries", "csv", file}, "unknown entry framing"},
      {{"consistency", "--log", "--old-size", "1", file}, "--entries is required"},
      {{"consistency", "--log", "--entries", "lines", "--hash", "sha256", "--old-size", "1", file},
       "excludes"},
      {{"verify", "--log", "--hash", "sha256", file, file, file}, "excludes"},
  };
  for (const auto &[argv, message] : mistakes) {
    const auto r = merklize_cli(argv);
    INFO(r.err);
    CHECK(r.status == 2);
    CHECK(r.out.empty());
    CHECK_THAT(r.err, Contains(message));
  }
}

TEST_CASE("an unknown device lists the devices one a line", "[cli][device]") {
  const auto file = test::write_file("two-leaves", test::random_bytes(64)).string();
  const std::string spec = "no-such-device-xyz";
  const auto option = merklize_cli({"root", "--device", spec, file});
  const auto env = test::run_shell("MERKLIZE_DEVICE=" + spec + " " + test::merklize_word() +
                                   " root " + test::sh_quote(file));
  for (const auto *r : {&option, &env}) {
    INFO(r->err);
    CHECK(r->status == 1);
    CHECK_THAT(r->err, Contains("unknown device \"" + spec + "\""));
    CHECK_THAT(r->err, Contains("available devices:\n  "));
    CHECK_THAT(r->err, !Contains("\\x0a"));
  }
  CHECK_THAT(env.err, Contains("MERKLIZE_DEVICE: unknown device"));
}
