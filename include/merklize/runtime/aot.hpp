// SPDX-License-Identifier: Apache-2.0 OR MIT
// Ahead-of-time kernels, for merklize-aot (`make aot`, tools/aot.cpp): every program variant the
// library builds, the source each compiles, and the files that hold it compiled ahead of time
// (the layout is in runtime/aot_artifacts.hpp; programs.hpp says how the library loads them).
#pragma once

#include "aot_artifacts.hpp"
#include "kernels.hpp"

#include <filesystem>
#include <string>
#include <vector>

namespace merklize {

// Every program variant the library builds, each with a unique name. A new program belongs in
// this list (detail::all_program_specs).
inline std::vector<program_spec> program_variants() { return detail::all_program_specs(); }

// The OpenCL C source a variant compiles: its kernel files, concatenated.
inline std::string program_source(const program_spec &spec) {
  return detail::kernel_program_source(spec.files);
}

// <dir>/<name><extension>: where merklize-aot writes, and the library looks for, a variant's
// artifacts (".cl", ".bc", ".spv", ".meta").
inline std::filesystem::path aot_file(const std::filesystem::path &dir, const program_spec &spec,
                                      const char *extension) {
  return detail::aot_file(dir, spec, extension);
}

// Writes <name>.cl, the source the compilers are given; returns its path.
inline std::filesystem::path write_aot_source(const std::filesystem::path &dir,
                                              const program_spec &spec) {
  const auto path = aot_file(dir, spec, ".cl");
  const std::string text = program_source(spec);
  detail::write_file_atomically(path, text.data(), text.size());
  return path;
}

// Records <name>.bc and <name>.spv in <name>.meta as built from this library's source and
// options, so the library loads them (and passes over stale ones).
inline void write_aot_meta(const std::filesystem::path &dir, const program_spec &spec) {
  detail::write_aot_meta(dir, spec);
}

} // namespace merklize
