// SPDX-License-Identifier: Apache-2.0 OR MIT
// merklize proof and merklize verify, run as a user would: the proof is strict JSON equal to the
// host prover's, verify exits 0 for it and 1 with a message for anything wrong.
#include "cli_helpers.hpp"
#include "helpers.hpp"
#include "process.hpp"
#include "proof_helpers.hpp"

#include <catch2/catch.hpp>

using Catch::Matchers::Contains;

namespace {

using args = std::vector<std::string>;

using test::merklize_cli;

using test::write_text;

std::string hash_name(const merklize::tree_options &o) { return merklize::to_string(o.hash); }
std::string shape_name(const merklize::tree_options &o) { return merklize::to_string(o.shape); }

} // namespace

TEST_CASE("merklize proof prints the host prover's proof as JSON, and verify accepts it",
          "[cli][proof]") {
  for (const auto &options : test::all_tree_options())
    for (const std::uint64_t n : {1, 3, 9}) {
      const auto leaves = test::random_bytes(n * 32);
      const auto t = merklize::reference_tree(leaves.data(), leaves.size(), options);
      const auto file = test::write_file("leaves", leaves).string();
      for (const std::uint64_t i : std::set<std::uint64_t>{0, n - 1}) { // each run JITs kernels
        INFO(test::describe(options) << " n=" << n << " leaf " << i);
        const auto r = merklize_cli({"proof", "--index", std::to_string(i), "--hash",
                                     hash_name(options), "--pad", shape_name(options), file});
        REQUIRE(r.status == 0);
        CHECK(r.err.empty());
        REQUIRE(!r.out.empty());
        CHECK(r.out.back() == '\n');
        const auto parsed = json::parser(r.out).parse(); // the tests' own reader
        CHECK(parsed["index"].u64() == i);
        CHECK(merklize::inclusion_proof_from_json(r.out) == merklize::prove(t, i));

        const auto proof = write_text("proof.json", r.out);
        const auto leaf = merklize::to_hex(t.node(0, i)), root = merklize::to_hex(t.root());
        const auto ok = merklize_cli({"verify", proof, leaf, root});
        CHECK(ok.status == 0);
        CHECK_THAT(ok.out,
                   Contains("valid: leaf " + std::to_string(i) + " of " + std::to_string(n)));
        CHECK(merklize_cli({"verify", "--hash", hash_name(options), "--pad", shape_name(options),
                            "--leaves", std::to_string(n), proof, leaf, root})
                  .status == 0);
        CHECK(merklize_cli({"verify", "-", leaf, root}, proof).status == 0);
      }
    }
}

TEST_CASE("merklize proof and verify with a fixed depth", "[cli][proof]") {
  const auto leaves = test::random_bytes(9 * 32);
  const merklize::tree_options options(merklize::hash_kind::sha256, merklize::shape::zero, 7);
  const auto t = merklize::reference_tree(leaves.data(), leaves.size(), options);
  const auto r = merklize_cli({"proof", "--index", "8", "--hash", "sha256", "--pad", "zero",
                               "--depth", "7", test::write_file("leaves", leaves).string()});
  REQUIRE(r.status == 0);
  CHECK(merklize::inclusion_proof_from_json(r.out) == merklize::prove(t, 8));
  const args tail{write_text("proof.json", r.out), merklize::to_hex(t.node(0, 8)),
                  merklize::to_hex(t.root())};
  const auto with_depth = [&](const char *depth) {
    args a{"verify", "--depth", depth};
    a.insert(a.end(), tail.begin(), tail.end());
    return merklize_cli(a);
  };
  CHECK(with_depth("7").status == 0);
  const auto wrong = with_depth("8");
  CHECK(wrong.status == 1);
  CHECK_THAT(wrong.err, Contains("a root of depth 7, not 8"));
}

TEST_CASE("merklize verify exits 1 with a message for a wrong leaf, root or proof",
          "[cli][proof]") {
  const auto leaves = test::random_bytes(5 * 32);
  const auto t = merklize::reference_tree(leaves.data(), leaves.size(), {});
  const auto text = merklize::to_json(merklize::prove(t, 2));
  const auto proof = write_text("proof.json", text);
  const auto leaf = merklize::to_hex(t.node(0, 2)), root = merklize::to_hex(t.root());
  const auto other = merklize::to_hex(t.node(0, 3));
  auto tampered = text;
  tampered.replace(tampered.find("\"index\":2"), 9, "\"index\":3");
  auto resized = text;
  resized.replace(resized.find("\"leaf_count\":5"), 14, "\"leaf_count\":9");
  struct bad {
    args arguments;
    std::string message;
  } cases[] = {
      {{proof, other, root}, "invalid proof: the proof leads to root"},
      {{proof, leaf, other}, "invalid proof"},
      {{write_text("tampered.json", tampered), leaf, root}, "invalid proof"},
      {{write_text("resized.json", resized), leaf, root}, "invalid proof"},
      {{"--leaves", "6", proof, leaf, root}, "a tree of 5 leaves, not 6"},
      {{"--hash", "blake3-parent", proof, leaf, root}, "not blake3-parent"},
      {{"--pad", "zero", proof, leaf, root}, "for shape promote, not zero"},
      {{write_text("broken.json", text.substr(0, text.size() - 1)), leaf, root}, "proof JSON: "},
      {{write_text("multi.json", merklize::to_json(merklize::prove_multi(t, {1, 2}))), leaf, root},
       "1 leaves given for 2 proven indices"},
      {{proof, leaf.substr(1), root}, "LEAFHEX: "},
      {{proof, leaf, "xyz"}, "ROOTHEX: "},
      {{(test::scratch_dir() / "missing.json").string(), leaf, root}, "cannot open"},
  };
  for (auto &c : cases) {
    c.arguments.insert(c.arguments.begin(), "verify");
    INFO("merklize verify " << c.arguments[1] << " ...");
    const auto r = merklize_cli(c.arguments);
    CHECK(r.status == 1);
    CHECK(r.out.empty());
    CHECK_THAT(r.err, Contains(c.message));
  }
}

TEST_CASE("merklize proof and verify reject a bad command line", "[cli][proof]") {
  const auto file = test::write_file("five", test::random_bytes(5 * 32)).string();
  struct bad {
    args arguments;
    std::string message;
    int status;
  } cases[] = {
      {{"proof", "--index", "5", file}, "leaf index 5 out of range: the tree has 5 leaves", 1},
      {{"proof", "--index", "-1", file}, "--index takes a non-negative integer", 2},
      {{"proof", "--index", "99999999999999999999", file}, "--index takes a non-negative", 2},
      {{"proof", file}, "--index is required", 2},
      {{"proof", "--index", "0"}, "FILE is required", 2},
      {{"proof", "--index", "0", "--hash", "md5", file}, "unknown hash", 2},
      {{"verify", "a", "b"}, "ROOTHEX is required", 2},
      {{"verify", "--leaves", "x", "a", "b", "c"}, "--leaves takes a non-negative integer", 2},
      {{"verify", "--depth", "65", "a", "b", "c"}, "--depth takes at most 64", 2},
  };
  for (const auto &c : cases) {
    INFO("merklize " << c.arguments[0] << " " << c.arguments[1]);
    const auto r = merklize_cli(c.arguments);
    CHECK(r.status == c.status);
    CHECK(r.out.empty());
    CHECK_THAT(r.err, Contains(c.message));
  }
}
