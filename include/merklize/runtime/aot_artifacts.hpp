// SPDX-License-Identifier: Apache-2.0 OR MIT
// Ahead-of-time kernels: the files `make aot` (tools/aot.cpp) writes into the kernel folder for
// each program spec, and loading them.
//
//   <name>.cl    the concatenated source that clang compiled (to read; never loaded)
//   <name>.bc    SPIR 1.2 LLVM bitcode for spir64, for devices with cl_khr_spir
//   <name>.spv   SPIR-V, for devices that report it in CL_DEVICE_IL_VERSION
//   <name>.meta  what they were built from and their BLAKE3 hashes, one "key hex" a line:
//                  merklize-aot 1
//                  source <source_hash of the source and options>
//                  spir-bitcode <BLAKE3 of <name>.bc>
//                  spirv <BLAKE3 of <name>.spv>
#pragma once

#include "../io/replace_file.hpp"
#include "program_build.hpp"
#include "program_spec.hpp"
#include "self_test.hpp"

#include <filesystem>
#include <map>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

namespace merklize {
namespace detail {

constexpr const char *aot_meta_header = "merklize-aot 1";
constexpr program_form aot_artifact_forms[] = {program_form::spir_bitcode, program_form::spirv};

inline std::filesystem::path aot_file(const std::filesystem::path &dir, const program_spec &spec,
                                      const char *extension) {
  return dir / (spec.name + extension);
}

inline std::filesystem::path aot_artifact(const std::filesystem::path &dir,
                                          const program_spec &spec, program_form form) {
  return aot_file(dir, spec, form == program_form::spirv ? ".spv" : ".bc");
}

inline std::string file_hash(const std::vector<unsigned char> &bytes) {
  return to_hex(blake3::hash(bytes.data(), bytes.size()));
}

// Records the artifacts in `dir` as built from this library's source and options for `spec`.
inline void write_aot_meta(const std::filesystem::path &dir, const program_spec &spec) {
  std::string text = std::string(aot_meta_header) + "\nsource " +
                     source_hash(kernel_program_source(spec.files), spec.options) + "\n";
  for (const auto form : aot_artifact_forms)
    text += std::string(to_string(form)) + " " +
            file_hash(read_file(aot_artifact(dir, spec, form))) + "\n";
  write_file_atomically(aot_file(dir, spec, ".meta"), text.data(), text.size());
}

// The meta file of `spec`'s artifacts, after checking they were built from `source` and the
// spec's options.
inline std::map<std::string, std::string> checked_aot_meta(const std::filesystem::path &dir,
                                                           const program_spec &spec,
                                                           const std::string &source) {
  const auto path = aot_file(dir, spec, ".meta");
  const auto bytes = read_file(path);
  std::istringstream in(std::string(bytes.begin(), bytes.end()));
  std::string line, key, value;
  if (!std::getline(in, line) || line != aot_meta_header)
    throw error(path.string() + " does not start with \"" + aot_meta_header + "\"");
  std::map<std::string, std::string> meta;
  while (in >> key >> value)
    meta[key] = value;
  if (meta["source"] != source_hash(source, spec.options))
    throw error("stale: built from other kernel source or options than this library's (run "
                "`make aot` again)");
  return meta;
}

inline cl::Program build_artifact(const cl::Context &context, const cl::Device &device,
                                  const std::filesystem::path &dir, const program_spec &spec,
                                  program_form form,
                                  const std::map<std::string, std::string> &meta) {
  const auto path = aot_artifact(dir, spec, form);
  const auto bytes = read_file(path);
  const auto recorded = meta.find(to_string(form));
  if (recorded == meta.end() || recorded->second != file_hash(bytes))
    throw error(path.string() + " does not match its hash in " + spec.name +
                ".meta: corrupt or replaced");
  if (form == program_form::spirv) return build_spirv(context, device, bytes);
  return build_binary(context, device, bytes, "-x spir -spir-std=1.2");
}

// A spec's ahead-of-time kernels that may be loaded: their folder, the forms the device loads,
// and what their meta file records.
struct aot_kernels {
  std::filesystem::path dir;
  std::vector<program_form> forms;
  std::map<std::string, std::string> meta;

  // What identifies the artifacts, in place of the source (a disk cache entry of a program built
  // from them is kept under this, never under the source's key).
  std::string identity() const {
    std::string text = "merklize-aot artifacts";
    for (const auto form : aot_artifact_forms) {
      const auto hash = meta.find(to_string(form));
      text += std::string(" ") + to_string(form) + "=" + (hash == meta.end() ? "" : hash->second);
    }
    return text;
  }
};

// The spec's ahead-of-time kernels, if the kernel folder is set and holds ones built from
// `source` in a form the device loads; a folder passed over is reported through warn().
inline std::optional<aot_kernels> find_aot(const cl::Device &device, const program_spec &spec,
                                           const std::string &source) {
  aot_kernels found{kernel_dir(), {}, {}};
  if (found.dir.empty() || spec.name.empty()) return std::nullopt;
  found.forms = aot_forms(device);
  if (found.forms.empty()) return std::nullopt;
  try {
    found.meta = checked_aot_meta(found.dir, spec, source);
  } catch (const error &e) {
    warn("ahead-of-time kernel " + spec.name + " in " + found.dir.string() +
         " not used: " + e.what() + "; falling back");
    return std::nullopt;
  }
  return found;
}

// The kernels in the best form the device loads that builds and passes its self-test; each one
// passed over is reported through warn(), naming its file.
inline std::optional<built_program> build_aot(const cl::Context &context, const cl::Device &device,
                                              const aot_kernels &aot, const program_spec &spec) {
  for (const auto form : aot.forms) {
    const auto path = aot_artifact(aot.dir, spec, form);
    try {
      built_program built{build_artifact(context, device, aot.dir, spec, form, aot.meta), form};
      if (const auto wrong = self_test_failure(context, device, built.program, spec))
        throw error("it fails its self-test: " + *wrong);
      return built;
    } catch (const error &e) {
      warn("ahead-of-time kernel " + spec.name + " (" + to_string(form) + ", " + path.string() +
           ") not used: " + e.what() + "; falling back");
    }
  }
  return std::nullopt;
}

} // namespace detail
} // namespace merklize
