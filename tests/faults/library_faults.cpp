// SPDX-License-Identifier: Apache-2.0 OR MIT
// The library's build, proof and BLAKE3 paths as a program, for the fault sweep (sweep.py): built
// with AddressSanitizer and run under the fault shim, each scenario prints its results in hex, or
// "merklize: <message>" and exit status 1 when the library throws. Every object goes out of scope
// on the way out, as a caller's would: what a failed call left in flight must not outlive the
// memory it touches.
//
//   merklize_fault_library build|stream|proofs|b3sum|blocks LEAVES DATA
#include <merklize/engine/blake3_device.hpp>
#include <merklize/engine/block_tree.hpp>
#include <merklize/engine/proof_device.hpp>
#include <merklize/merklize.hpp>

#include <cstdio>
#include <cstring>
#include <fstream>
#include <iostream>
#include <iterator>
#include <string>
#include <vector>

namespace {

std::vector<std::uint8_t> read_all(const std::string &path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

void print(const merklize::digest &d) { std::cout << merklize::to_hex(d) << "\n"; }

// A tree built from a std::vector (on a CPU: in place, zero copies), from page-locked memory, and
// as a part: the three ways build() takes leaves.
void build(const std::string &leaves_path) {
  const auto leaves = read_all(leaves_path);
  merklize::merkleizer m;
  print(m.build(leaves).root());
  merklize::host_buffer pinned = m.allocate_host(leaves.size());
  std::memcpy(pinned.data(), leaves.data(), leaves.size());
  print(m.build(pinned).root());
  merklize::config kept_above;
  kept_above.output.first = 3; // not every level: streamed in chunks, not in place
  merklize::merkleizer streamed(kept_above);
  print(streamed.build(leaves).root());
}

// A file's root and a proof from it, streamed.
void stream(const std::string &leaves_path) {
  merklize::merkleizer m;
  merklize::input in(leaves_path);
  print(m.root(in));
  merklize::input again(leaves_path);
  std::cout << merklize::to_json(m.prove(again, 5)) << "\n";
}

// Proofs gathered and verified on the device from a tree left there by enqueue_build.
void proofs(const std::string &leaves_path) {
  const auto leaves = read_all(leaves_path);
  const std::uint64_t n = leaves.size() / merklize::node_bytes;
  merklize::merkleizer m;
  // The caller's own buffers, its own step (as a caller of the library would name it).
  const auto buffer = [&](cl_mem_flags flags, std::uint64_t bytes, const void *from) {
    return merklize::detail::in_step(
        [] { return std::string("making the test's buffers"); },
        [&] {
          return merklize::detail::create("clCreateBuffer", [&](cl_int *err) {
            return cl::Buffer(m.context(), flags, bytes, const_cast<void *>(from), err);
          });
        });
  };
  const cl::Buffer on_device =
      buffer(CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, leaves.size(), leaves.data());
  const cl::Buffer nodes =
      buffer(CL_MEM_READ_WRITE, m.output_node_count(n) * merklize::node_bytes, nullptr);
  const auto built = m.enqueue_build(on_device, n, nodes);
  merklize::device_prover prover(m);
  const auto paths = prover.gather(on_device, nodes, n, {0, 5, n - 1}, built);
  for (const auto &p : paths)
    std::cout << merklize::to_json(p) << "\n";
  std::vector<merklize::digest> proven;
  for (const std::uint64_t i : {std::uint64_t(0), std::uint64_t(5), n - 1}) {
    proven.emplace_back();
    std::memcpy(proven.back().data(), leaves.data() + i * merklize::node_bytes,
                merklize::node_bytes);
  }
  const merklize::digest root = m.build(leaves).root();
  for (const bool ok : prover.verify(paths, proven, root, n))
    std::cout << (ok ? "valid" : "invalid") << "\n";
  std::cout << merklize::to_json(prover.gather_consistency(on_device, nodes, n, 50, built)) << "\n";
}

// BLAKE3 of memory (one piece, and streamed in pieces) and of a file read at offsets.
void b3sum(const std::string &data_path) {
  const auto data = read_all(data_path);
  merklize::blake3_device whole;
  print(whole.hash(data.data(), data.size()));
  merklize::hash_config small;
  small.max_device_bytes = std::uint64_t(1) << 20; // streamed
  merklize::blake3_device pieces(small);
  print(pieces.hash(data.data(), data.size()));
  print(pieces.hash_file(data_path));
  std::vector<std::uint8_t> longer(200);
  whole.hash(merklize::blake3_mode::hash(), data.data(), data.size(), longer.data(), longer.size());
  std::cout << merklize::to_hex(longer.data(), longer.size()) << "\n";
}

// Leaves hashed from data blocks and a tree over them on the device, root and proof.
void blocks(const std::string &data_path) {
  merklize::block_hasher h(merklize::default_device());
  h.set_piece_target(256 * 1024); // several pieces
  merklize::leaf_rule rule;
  rule.block_bytes = 4096;
  merklize::input in(data_path);
  print(merklize::block_tree_root(h, in, rule, {}));
  merklize::input again(data_path);
  std::cout << merklize::to_json(merklize::block_tree_prove(h, again, rule, {}, 7)) << "\n";
}

} // namespace

int main(int argc, char **argv) {
  if (argc != 4) {
    std::cerr << "usage: " << argv[0] << " build|stream|proofs|b3sum|blocks LEAVES DATA\n";
    return 2;
  }
  const std::string scenario = argv[1], leaves = argv[2], data = argv[3];
  try {
    if (scenario == "build")
      build(leaves);
    else if (scenario == "stream")
      stream(leaves);
    else if (scenario == "proofs")
      proofs(leaves);
    else if (scenario == "b3sum")
      b3sum(data);
    else if (scenario == "blocks")
      blocks(data);
    else
      throw merklize::error("unknown scenario " + scenario);
  } catch (const std::exception &e) {
    std::cout.flush();
    std::cerr << "merklize: " << e.what() << "\n";
    return 1;
  }
  return 0;
}
