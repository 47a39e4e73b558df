// SPDX-License-Identifier: Apache-2.0 OR MIT
// The kernels a program must hold: those its OpenCL C source declares, and those a built
// program reports. A program from the disk cache is checked against its source with them, so a
// binary of another program under an entry's name is caught before a kernel is created from it.
//
// The names come from the source rather than from a list beside each program_spec: the source is
// what the program is built from, so the two cannot disagree, and a kernel added to a .cl file
// needs no second edit. The kernels' files declare every kernel at file scope, outside any #if.
#pragma once

#include "../core/quote.hpp"
#include "programs.hpp"

#include <algorithm>
#include <cctype>
#include <optional>
#include <string>
#include <vector>

namespace merklize {
namespace detail {

// OpenCL C source without its comments, each comment a space.
inline std::string without_comments(const std::string &source) {
  std::string code;
  code.reserve(source.size());
  for (std::size_t i = 0; i < source.size();) {
    if (source.compare(i, 2, "//") == 0) {
      i = std::min(source.find('\n', i), source.size());
    } else if (source.compare(i, 2, "/*") == 0) {
      const std::size_t end = source.find("*/", i + 2);
      i = end == std::string::npos ? source.size() : end + 2;
      code += ' ';
    } else {
      code += source[i++];
    }
  }
  return code;
}

// The identifier at `at`, after white space, moving past it; empty where none starts there.
inline std::string next_identifier(const std::string &code, std::size_t &at) {
  while (at < code.size() && std::isspace(static_cast<unsigned char>(code[at])))
    ++at;
  const std::size_t start = at;
  while (at < code.size() &&
         (std::isalnum(static_cast<unsigned char>(code[at])) || code[at] == '_'))
    ++at;
  return code.substr(start, at - start);
}

// Moves `at` past a parenthesized group (an attribute's arguments), after white space.
inline void skip_parenthesized(const std::string &code, std::size_t &at) {
  at = code.find_first_not_of(" \t\r\n", at);
  if (at == std::string::npos || code[at] != '(') return;
  for (int depth = 0; at < code.size(); ++at) {
    depth += code[at] == '(' ? 1 : code[at] == ')' ? -1 : 0;
    if (depth == 0) break;
  }
  ++at;
}

// The kernels that OpenCL C source declares ("__kernel void NAME(" or "kernel void NAME(",
// attributes allowed before "void"), sorted.
inline std::vector<std::string> kernel_names_in(const std::string &source) {
  const std::string code = without_comments(source);
  std::vector<std::string> names;
  for (std::size_t at = 0; at < code.size();) {
    const std::string word = next_identifier(code, at);
    if (word.empty()) ++at;
    if (word != "__kernel" && word != "kernel") continue;
    std::string next = next_identifier(code, at);
    for (; next == "__attribute__"; next = next_identifier(code, at))
      skip_parenthesized(code, at);
    if (next != "void") continue;
    std::string name = next_identifier(code, at);
    const std::size_t paren = code.find_first_not_of(" \t\r\n", at);
    if (!name.empty() && paren != std::string::npos && code[paren] == '(')
      names.push_back(std::move(name));
  }
  std::sort(names.begin(), names.end());
  return names;
}

// The kernels a built program holds (CL_PROGRAM_KERNEL_NAMES), sorted; nothing where the
// implementation will not say: NVIDIA answers CL_INVALID_PROGRAM_EXECUTABLE for a program built
// from a binary for one device of a context that has several (merklize root --devices).
inline std::optional<std::vector<std::string>> kernel_names_of(const cl::Program &program) {
  std::size_t size = 0;
  const cl_int err = clGetProgramInfo(program(), CL_PROGRAM_KERNEL_NAMES, 0, nullptr, &size);
  if (err == CL_INVALID_PROGRAM_EXECUTABLE) return std::nullopt;
  check(err, "clGetProgramInfo");
  std::string list;
  call("clGetProgramInfo", [&] { return program.getInfo(CL_PROGRAM_KERNEL_NAMES, &list); });
  std::vector<std::string> names;
  for (std::size_t start = 0; start <= list.size();) {
    const std::size_t end = std::min(list.find(';', start), list.size());
    const std::string name = trimmed(list.substr(start, end - start));
    if (!name.empty()) names.push_back(name);
    start = end + 1;
  }
  std::sort(names.begin(), names.end());
  return names;
}

inline std::string joined(const std::vector<std::string> &names) {
  std::string text;
  for (const auto &name : names)
    text += (text.empty() ? "" : ", ") + name;
  return text;
}

// Fails where a program from the cache lacks a kernel its source declares, or has another.
// Where the program will not list its kernels, each declared one must at least be created.
inline void check_kernel_names(const cl::Program &program, const std::string &source) {
  const auto held = kernel_names_of(program);
  const auto declared = kernel_names_in(source);
  if (!held) {
    for (const auto &name : declared) {
      cl_int err = CL_SUCCESS;
      const cl_kernel kernel = clCreateKernel(program(), name.c_str(), &err);
      if (err != CL_SUCCESS) throw error("its program lacks the kernel " + name);
      clReleaseKernel(kernel);
    }
    return;
  }
  if (*held != declared)
    throw error("its program holds the kernels " + detail::quoted(joined(*held), 200) + ", not " +
                joined(declared));
}

} // namespace detail
} // namespace merklize
