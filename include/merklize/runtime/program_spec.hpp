// SPDX-License-Identifier: Apache-2.0 OR MIT
// What a program is made of: kernel files and build options, and the hashes that tell its
// compiled forms apart.
#pragma once

#include "../core/blake3.hpp"
#include "../core/error_type.hpp"
#include "../kernels/sources.hpp"

#include <cstdint>
#include <initializer_list>
#include <string>
#include <vector>

namespace merklize {

// A program of the library's kernels: which kernel files, with which build options.
struct program_spec {
  std::vector<std::string> files; // kernels/*.cl, concatenated in this order
  std::string options;
  // Names its ahead-of-time artifacts (<name>.spv, ...) and disk cache entries; unique among
  // program_variants() (aot.hpp). A spec without one is only ever compiled.
  std::string name;
};

namespace detail {

using merklize::program_spec;

// Whether kernels/<name> is in this build: a kernel file that another change brings (keccak.cl,
// the device Keccak-256) is asked for before a program that needs it is built.
inline bool has_embedded_kernel(const std::string &name) {
  for (const auto &k : embedded_kernels)
    if (name == k.name) return true;
  return false;
}

inline const char *embedded_kernel_source(const std::string &name) {
  for (const auto &k : embedded_kernels)
    if (name == k.name) return k.source;
  throw error("kernel file " + name + " is not in merklize/kernels/sources.hpp");
}

// The kernel file every program ends with: its known-answer self-test (self_test.hpp).
constexpr const char *self_test_file = "self_test.cl";

// The program source for a list of kernel files, concatenated in order, then the self-test.
inline std::string kernel_program_source(const std::vector<std::string> &files) {
  std::string source;
  for (const auto &f : files)
    source += embedded_kernel_source(f) + std::string("\n");
  return source + embedded_kernel_source(self_test_file) + "\n";
}

// A spec with build options of the caller's appended (experiments such as
// "-cl-nv-maxrregcount=48"). It loses its name: ahead-of-time kernels are built without the
// extra options, so it is only ever compiled (and disk-cached under its options' key).
inline program_spec with_extra_options(program_spec spec, const std::string &extra) {
  if (extra.empty()) return spec;
  spec.options += " " + extra;
  spec.name.clear();
  return spec;
}

// BLAKE3 of the fields, each preceded by its length, so no two lists of fields collide.
inline std::string hash_fields(std::initializer_list<std::string> fields) {
  blake3::hasher h;
  for (const auto &field : fields) {
    std::uint8_t length[8];
    for (int b = 0; b < 8; ++b)
      length[b] = static_cast<std::uint8_t>(static_cast<std::uint64_t>(field.size()) >> (8 * b));
    h.update(length, sizeof length).update(field.data(), field.size());
  }
  return to_hex(h.finalize());
}

// Identifies the kernel source and options a compiled form was built from: an ahead-of-time
// artifact whose recorded hash differs is stale.
inline std::string source_hash(const std::string &source, const std::string &options) {
  return hash_fields({"merklize program source 1", source, options});
}

} // namespace detail
} // namespace merklize
