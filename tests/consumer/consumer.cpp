// SPDX-License-Identifier: Apache-2.0 OR MIT
// Built against an installed merklize, once through find_package(merklize) and once through
// pkg-config (tests/consumer/run.sh): prints "merklize VERSION" and the root of the leaves in the
// file it is given, built on the default device; fails if that root is not the host reference's
// or the version macros, merklize::version() and the CMake package's version disagree.
#include <merklize/merklize.hpp>

#include <cstdio>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

int main(int argc, char **argv) {
  const std::string macros = std::to_string(MERKLIZE_VERSION_MAJOR) + "." +
                             std::to_string(MERKLIZE_VERSION_MINOR) + "." +
                             std::to_string(MERKLIZE_VERSION_PATCH);
  if (macros != merklize::version()) {
    std::fprintf(stderr, "version(): %s, macros: %s\n", merklize::version(), macros.c_str());
    return 1;
  }
#ifdef MERKLIZE_PACKAGE_VERSION
  if (macros != MERKLIZE_PACKAGE_VERSION) {
    std::fprintf(stderr, "headers: %s, CMake package: %s\n", macros.c_str(),
                 MERKLIZE_PACKAGE_VERSION);
    return 1;
  }
#endif
  if (argc != 2) {
    std::fprintf(stderr, "usage: consumer LEAVES_FILE\n");
    return 2;
  }
  std::ifstream in(argv[1], std::ios::binary);
  const std::vector<std::uint8_t> leaves((std::istreambuf_iterator<char>(in)),
                                         std::istreambuf_iterator<char>());
  if (!in || leaves.empty() || leaves.size() % merklize::node_bytes) {
    std::fprintf(stderr, "%s: cannot be read, or not a non-empty file of 32-byte leaves\n",
                 argv[1]);
    return 2;
  }
  try {
    merklize::merkleizer m;
    const merklize::tree tree = m.build(leaves);
    const merklize::tree expected = merklize::reference_tree(leaves.data(), leaves.size(), {});
    if (tree.root() != expected.root()) {
      std::fprintf(stderr, "device root %s, host reference %s\n",
                   merklize::to_hex(tree.root()).c_str(),
                   merklize::to_hex(expected.root()).c_str());
      return 1;
    }
    std::printf("merklize %s\n%s\n", merklize::version(), merklize::to_hex(tree.root()).c_str());
  } catch (const std::exception &e) {
    std::fprintf(stderr, "consumer: %s\n", e.what());
    return 1;
  }
  return 0;
}
