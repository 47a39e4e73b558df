// SPDX-License-Identifier: Apache-2.0 OR MIT
// The table of named tree kinds (formats/presets.hpp) walked row by row: each name unique and in
// `merklize root --help`, each row's specification passing check_tree_spec, each row's root from
// the CLI on a small awkward input equal to the root its specification gives through the host
// references (core/reference.hpp, core/kary.hpp, formats/*), which read the specification's
// fields and never the row's name; and unknown names refused with the known ones listed.
#include "cli_helpers.hpp"
#include "helpers.hpp"

#include <merklize/core/reference.hpp>
#include <merklize/core/ssz.hpp>
#include <merklize/formats/bao.hpp>
#include <merklize/formats/filecoin.hpp>
#include <merklize/formats/oz_values.hpp>
#include <merklize/formats/presets.hpp>

#include <catch2/catch.hpp>

#include <algorithm>
#include <cctype>
#include <cstring>
#include <set>

using Catch::Matchers::Contains;

namespace {

using args = std::vector<std::string>;
using merklize::digest;

std::vector<digest> as_digests(const std::uint8_t *bytes, std::size_t size) {
  std::vector<digest> leaves(size / merklize::node_bytes);
  std::memcpy(leaves.data(), bytes, leaves.size() * merklize::node_bytes);
  return leaves;
}

// The leaves of `input` as `spec` says they come.
std::vector<digest> spec_leaves(const merklize::tree_spec &spec, const std::string &input) {
  using merklize::leaf_source;
  const auto *bytes = reinterpret_cast<const std::uint8_t *>(input.data());
  std::vector<digest> leaves;
  switch (spec.leaves) {
  case leaf_source::digests:
    return as_digests(bytes, input.size());
  case leaf_source::blocks:
    return merklize::block_leaves(*spec.leaf, bytes, input.size());
  case leaf_source::entries:
    for (const auto &e : merklize::split_entries(bytes, input.size(), *spec.framing, "input"))
      leaves.push_back(merklize::rfc6962_leaf_hash(bytes + e.first, e.size));
    return leaves;
  case leaf_source::blake3_chunks:
    return merklize::bao_chunk_cvs(bytes, input.size());
  case leaf_source::fr32_chunks: {
    const auto padded = merklize::filecoin::fr32_pad(bytes, input.size());
    return as_digests(padded.data(), padded.size());
  }
  case leaf_source::abi_values:
    return merklize::oz::leaf_hashes(merklize::oz::read_standard_json(input, "input"), "input");
  }
  FAIL("unknown leaf source");
  return leaves;
}

// The root of `spec` over `input` on the host.
digest spec_root(const merklize::tree_spec &spec, const std::string &input) {
  using merklize::shape;
  std::vector<digest> leaves = spec_leaves(spec, input);
  if (spec.sort_leaves) std::sort(leaves.begin(), leaves.end());
  switch (spec.shape) {
  case shape::duplicate_odd:
    return merklize::duplicate_odd_levels(*spec.pair, leaves).back().front();
  case shape::power_of_two:
    return merklize::power_of_two_root(*spec.pair, leaves, 0);
  case shape::heap:
    return merklize::heap_tree(*spec.pair, leaves).front();
  case shape::hash_blocks:
    return merklize::verity_tree_of(leaves, *spec.hash_block_rule).root;
  case shape::promote:
  case shape::zero:
    break;
  }
  if (spec.arity != 2) return merklize::kary_root(leaves, merklize::kary_options_of(spec));
  const digest root = merklize::reference_tree(leaves.data(), leaves.size() * merklize::node_bytes,
                                               merklize::tree_options_of(spec))
                          .root();
  return spec.mix_in_length ? merklize::mix_in_length(root, leaves.size()) : root;
}

std::string text_of(const std::vector<std::uint8_t> &bytes) {
  return std::string(bytes.begin(), bytes.end());
}

// A row's case: the options that pick it, an awkward input, and the parameters they say.
struct preset_case {
  args options;
  std::string input;
  merklize::preset_parameters parameters;
};

preset_case case_of(merklize::tree_kind kind) {
  using merklize::tree_kind;
  const std::string five_leaves = text_of(test::random_bytes(5 * merklize::node_bytes));
  preset_case c{{}, five_leaves, {}};
  c.parameters.ssz_limit = 9;
  const std::vector<std::uint8_t> salt{0x00, 0x11, 0x22, 0x33};
  c.parameters.dm_verity.salt = c.parameters.fs_verity.salt = salt;
  switch (kind) {
  case tree_kind::binary:
    return c;
  case tree_kind::kary:
    return {{"--arity", "4"}, five_leaves, c.parameters};
  case tree_kind::ssz_vector:
    return {{"--ssz-vector"}, five_leaves, c.parameters};
  case tree_kind::ssz_list:
    return {{"--ssz-list", "9"}, five_leaves, c.parameters};
  case tree_kind::log:
    return {{"--log", "--entries", "lines"}, "a\nbb\n\nccc", c.parameters};
  case tree_kind::dm_verity:
    return {{"--no-superblock", "--salt", "00112233"},
            text_of(test::random_bytes(5 * 4096)),
            c.parameters};
  case tree_kind::fs_verity:
    return {{"--salt", "00112233"}, text_of(test::random_bytes(5 * 4096 + 17)), c.parameters};
  case tree_kind::bao_outboard:
    return {{}, text_of(test::random_bytes(5 * 1024 + 17)), c.parameters};
  case tree_kind::oz_standard:
    return {{},
            R"({"leafEncoding": ["uint256"], "values": [["1"], ["2"], ["3"], ["4"], ["5"]]})",
            c.parameters};
  case tree_kind::bitcoin:
    return {{}, five_leaves, c.parameters};
  case tree_kind::filecoin_tree_d:
    return {{}, text_of(test::random_bytes(3 * 127 + 5)), c.parameters};
  }
  return c;
}

// What merklize root prints of `root` for the row (dm-verity's report holds it on a line;
// fs-verity prints its file digest; OpenZeppelin prints 0x and hex).
std::string printed(merklize::tree_kind kind, const digest &root, const preset_case &c,
                    const std::string &file) {
  using merklize::tree_kind;
  switch (kind) {
  case tree_kind::dm_verity:
    return "Root hash:      \t" + merklize::to_hex(root) + "\n";
  case tree_kind::fs_verity:
    return merklize::fs_verity_digest_text(
               merklize::fs_verity_file_digest(root, c.input.size(), c.parameters.fs_verity)) +
           " " + file + "\n";
  case tree_kind::oz_standard:
    return "0x" + merklize::to_hex(root) + "\n";
  default:
    return merklize::to_hex(root) + "\n";
  }
}

// `text` with each run of white space one space: the help wraps its lines where it likes.
std::string one_line(const std::string &text) {
  std::string out;
  for (const char ch : text)
    if (!std::isspace(static_cast<unsigned char>(ch)))
      out += ch;
    else if (!out.empty() && out.back() != ' ')
      out += ' ';
  return out;
}

test::run_result merklize_root(const args &more) {
  args a{"root", "--device", merklize::device_name(test::test_device())};
  a.insert(a.end(), more.begin(), more.end());
  return test::merklize_cli(a);
}

} // namespace

TEST_CASE("each tree kind is one row: a unique name, in merklize root --help, a spec that checks",
          "[presets]") {
  const auto run = test::merklize_cli({"root", "--help"});
  REQUIRE(run.status == 0);
  const std::string help = one_line(run.out);
  std::set<std::string> names;
  for (const merklize::preset_row &row : merklize::preset_table) {
    INFO(row.name);
    CHECK(names.insert(row.name).second);
    if (row.option) CHECK_THAT(help, Contains(row.option));
    if (row.help) CHECK_THAT(help, Contains(std::string(row.name) + " ("));
    CHECK(merklize::row_of(row.kind).name == row.name);
    const merklize::tree_spec spec = row.spec(case_of(row.kind).parameters);
    CHECK_NOTHROW(merklize::check_tree_spec(spec));
    for (const char *option : row.options)
      if (option) CHECK_THAT(help, Contains(option));
  }
}

TEST_CASE("check_tree_spec refuses the parts that do not go together, naming them", "[presets]") {
  using merklize::shape;
  merklize::tree_spec heap_without_pair;
  heap_without_pair.shape = shape::heap;
  CHECK_THROWS_WITH(merklize::check_tree_spec(heap_without_pair),
                    Contains("shape heap is a pair hash's shape"));
  merklize::tree_spec promote_with_depth;
  promote_with_depth.depth = 3;
  CHECK_THROWS_WITH(merklize::check_tree_spec(promote_with_depth), Contains("needs shape zero"));
  merklize::tree_spec blocks_without_rule;
  blocks_without_rule.leaves = merklize::leaf_source::blocks;
  CHECK_THROWS_WITH(merklize::check_tree_spec(blocks_without_rule), Contains("leaf rule"));
  merklize::tree_spec rfc6962_zero;
  rfc6962_zero.node = merklize::hash_kind::rfc6962;
  rfc6962_zero.shape = shape::zero;
  CHECK_THROWS_WITH(merklize::check_tree_spec(rfc6962_zero), Contains("shape promote only"));
  merklize::tree_spec odd_arity;
  odd_arity.arity = 3;
  CHECK_THROWS_WITH(merklize::check_tree_spec(odd_arity), Contains("arity 3"));
  merklize::tree_spec list_without_depth;
  list_without_depth.node = merklize::hash_kind::sha256;
  list_without_depth.shape = shape::zero;
  list_without_depth.mix_in_length = true;
  CHECK_THROWS_WITH(merklize::check_tree_spec(list_without_depth), Contains("SSZ's list root"));
}

TEST_CASE("a binary tree's options and its spec convert both ways (the C ABI's settings)",
          "[presets]") {
  using merklize::hash_kind, merklize::shape;
  for (const merklize::tree_options &options :
       {merklize::tree_options{hash_kind::blake3, shape::promote},
        merklize::tree_options{hash_kind::sha256, shape::zero, 5u},
        merklize::tree_options{hash_kind::rfc6962, shape::promote},
        merklize::tree_options{hash_kind::keccak256, shape::zero}}) {
    const merklize::tree_spec spec = merklize::spec_of(options);
    CHECK(spec.leaves == merklize::leaf_source::digests);
    CHECK(spec.arity == 2);
    CHECK_NOTHROW(merklize::check_tree_spec(spec));
    const merklize::tree_options back = merklize::tree_options_of(spec);
    CHECK(back.hash == options.hash);
    CHECK(back.shape == options.shape);
    CHECK(back.depth == options.depth);
  }
}

TEST_CASE("each row's root from the CLI is its spec's root on the host", "[presets][cli]") {
  for (const merklize::preset_row &row : merklize::preset_table) {
    INFO(row.name);
    const preset_case c = case_of(row.kind);
    const std::string file = test::write_text("preset-" + std::string(row.name), c.input);
    args options = c.options;
    if (row.option && std::string(row.option) == "--format")
      options.insert(options.begin(), {"--format", row.name});
    options.push_back(file);
    const auto ours = merklize_root(options);
    INFO(ours.err);
    REQUIRE(ours.status == 0);
    const std::string expected =
        printed(row.kind, spec_root(row.spec(c.parameters), c.input), c, file);
    if (row.kind == merklize::tree_kind::dm_verity)
      CHECK_THAT(ours.out, Contains(expected));
    else
      CHECK(ours.out == expected);
  }
}

TEST_CASE("an unknown --format is refused with the table's names", "[presets][cli]") {
  const auto file = test::write_text("preset-unknown", std::string(64, 'x'));
  const auto root = test::merklize_cli({"root", "--format", "sha256-tree", file});
  CHECK(root.status == 2);
  CHECK(root.out.empty());
  CHECK_THAT(root.err, Contains("--format: unknown format \"sha256-tree\" (known: " +
                                merklize::format_names() + ")"));
  const auto proof = test::merklize_cli({"proof", "--format", "filecoin-tree-d", "-i", "0", file});
  CHECK(proof.status == 2);
  CHECK_THAT(proof.err,
             Contains("has no proofs here (known: " + merklize::format_names("proof") + ")"));
  CHECK(merklize::format_names("proof") == "oz-standard, bitcoin");
  CHECK_THROWS_WITH(merklize::parse_format("sha256-tree"),
                    Contains("(known: dm-verity, fs-verity, bao-outboard, oz-standard, bitcoin, "
                             "filecoin-tree-d)"));
  // Each --format row's options are refused with the others that take them.
  const auto unused =
      test::merklize_cli({"root", "--format", "bao-outboard", "--salt", "00", file});
  CHECK(unused.status == 2);
  CHECK_THAT(unused.err, Contains("--salt has no use with --format bao-outboard"));
}
