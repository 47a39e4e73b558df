// SPDX-License-Identifier: Apache-2.0 OR MIT
// The CLI's dispatch (tools/tree_request.hpp, tools/dispatch.hpp): the arguments of `merklize
// root` and `merklize proof` become a request (a tree_spec and a placement) and the runner tables
// pick one runner by name. No device is opened: only requests are built and rows picked; what
// each runner prints is pinned by the CLI tests and tests/cli_dispatch_cases.sh.
#include <catch2/catch.hpp>

#include "cli.hpp"
#include "dispatch.hpp"
#include "tree_request.hpp"

#include <string>

namespace {

// The runners whose key matches `request`: the tables' rows must not overlap.
template <class Runner, std::size_t N>
int matching_rows(const Runner (&table)[N], const cli::tree_request &request) {
  int count = 0;
  for (const Runner &row : table)
    count += cli::matches(row.key, request) ? 1 : 0;
  return count;
}

std::string root_runner_of(const cli::root_arguments &args) {
  const cli::tree_request request = cli::request_of(args);
  CHECK(matching_rows(cli::root_runners, request) == 1);
  return cli::root_runner_for(request).name;
}

std::string proof_runner_of(const cli::proof_arguments &args) {
  const cli::tree_request request = cli::request_of(args);
  CHECK(matching_rows(cli::proof_runners, request) == 1);
  return cli::proof_runner_for(request).name;
}

cli::root_arguments root_of(const std::string &file = "leaves.bin") {
  cli::root_arguments args;
  args.file = file;
  return args;
}

cli::proof_arguments proof_of(std::uint64_t index = 0) {
  cli::proof_arguments args;
  args.file = "leaves.bin";
  args.index = index;
  args.indices = {index};
  return args;
}

} // namespace

TEST_CASE("merklize root: each kind of arguments picks its runner", "[cli][dispatch]") {
  cli::root_arguments args = root_of();
  CHECK(root_runner_of(args) == "streamed");
  args.device = "host";
  CHECK(root_runner_of(args) == "streamed");
  args.device.reset();
  args.preset.ssz_list = 20;
  CHECK(root_runner_of(args) == "streamed");
  args.devices = "0:0,0:0";
  CHECK(root_runner_of(args) == "leaves-on-devices");
  args = root_of();
  args.blocks.leaf_size = 7;
  CHECK(root_runner_of(args) == "blocks");
  args.devices = "0:0,0:0";
  CHECK(root_runner_of(args) == "blocks-on-devices");
  args.blocks.arity = 4;
  CHECK(root_runner_of(args) == "kary-on-devices");
  args.devices.reset();
  CHECK(root_runner_of(args) == "kary");
  args.blocks.leaf_size.reset();
  args.blocks.arity = 2; // --arity 2 is still the k-ary kind: its proofs are k-ary proofs
  CHECK(root_runner_of(args) == "kary");
  args = root_of();
  args.preset.log = true;
  args.preset.entries = merklize::entry_framing::lines;
  CHECK(root_runner_of(args) == "log");
}

TEST_CASE("merklize root --format: every row's group picks its runner", "[cli][dispatch]") {
  int formats = 0;
  for (const merklize::preset_row &row : merklize::preset_table) {
    if (!row.option || std::string(row.option) != "--format" || !row.root) continue;
    cli::root_arguments args = root_of();
    args.blocks.format = row.name;
    const cli::tree_request request = cli::request_of(args);
    CHECK(request.row == &row);
    CHECK(root_runner_of(args) ==
          (row.group == merklize::preset_group::data ? "data-format" : "commitment"));
    ++formats;
  }
  CHECK(formats == 6);
}

TEST_CASE("merklize proof: each kind of arguments picks its runner", "[cli][dispatch]") {
  cli::proof_arguments args = proof_of(3);
  CHECK(proof_runner_of(args) == "streamed");
  args.preset.ssz_list = 20;
  CHECK(proof_runner_of(args) == "streamed");
  args = proof_of(3);
  args.blocks.leaf_size = 7;
  CHECK(proof_runner_of(args) == "blocks");
  args.arity = 16;
  CHECK(proof_runner_of(args) == "kary");
  args = proof_of(1);
  args.preset.log = true;
  args.preset.entries = merklize::entry_framing::length_prefixed;
  CHECK(proof_runner_of(args) == "log");
  args = proof_of(0);
  args.format = "oz-standard";
  CHECK(proof_runner_of(args) == "commitment");
  args.format = "filecoin-tree-d"; // no proofs: the commitment runner refuses it, by its message
  CHECK(cli::request_of(args).row == nullptr);
  CHECK(proof_runner_of(args) == "commitment");
}

TEST_CASE("the request holds the tree the arguments describe", "[cli][dispatch]") {
  cli::root_arguments args = root_of();
  args.preset.ssz_list = 20;
  merklize::tree_spec spec = cli::request_of(args).spec;
  CHECK(spec.node == merklize::hash_kind::sha256);
  CHECK(spec.shape == merklize::shape::zero);
  CHECK(spec.depth == 5u);
  CHECK(spec.mix_in_length);
  args = root_of();
  args.tree.hash = merklize::hash_kind::sha256;
  args.blocks.leaf_size = 7;
  args.blocks.salt = "00ff";
  args.blocks.arity = 16;
  args.devices = "0:0,0:0";
  const cli::tree_request request = cli::request_of(args);
  CHECK(request.where == cli::placement::several_devices);
  CHECK(request.spec.leaves == merklize::leaf_source::blocks);
  REQUIRE(request.spec.leaf);
  CHECK(request.spec.leaf->block_bytes == 7);
  CHECK(request.spec.leaf->hash == merklize::leaf_hash::sha256);
  CHECK(request.spec.leaf->prefix == std::vector<std::uint8_t>{0x00, 0xff});
  CHECK(request.spec.arity == 16);
  cli::proof_arguments proof = proof_of(1);
  proof.preset.log = true;
  proof.preset.entries = merklize::entry_framing::lines;
  proof.device = "pocl";
  const cli::tree_request log = cli::request_of(proof);
  CHECK(log.where == cli::placement::one_device);
  CHECK(log.spec.leaves == merklize::leaf_source::entries);
  CHECK(log.spec.node == merklize::hash_kind::rfc6962);
}

TEST_CASE("arguments that make no tree are refused before a runner is picked", "[cli][dispatch]") {
  cli::root_arguments args = root_of();
  args.blocks.salt = "00"; // nothing to salt
  CHECK_THROWS_AS(cli::request_of(args), cli::usage_error);
  args = root_of();
  args.blocks.format = "nope";
  CHECK_THROWS_AS(cli::request_of(args), cli::usage_error);
  args = root_of();
  args.blocks.arity = 3;
  CHECK_THROWS_AS(cli::request_of(args), cli::usage_error);
  args = root_of();
  args.preset.log = true; // without --entries
  CHECK_THROWS_AS(cli::request_of(args), cli::usage_error);
  cli::proof_arguments proof = proof_of(0);
  proof.indices = {0, 1}; // a multiproof is a tree's too: the proof command judges its format
  CHECK_NOTHROW(cli::request_of(proof));
  proof = proof_of(0);
  proof.blocks.leaf_size = 0;
  CHECK_THROWS_AS(cli::request_of(proof), cli::usage_error);
}
