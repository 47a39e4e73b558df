// SPDX-License-Identifier: Apache-2.0 OR MIT
#include "b3sum.hpp"
#include "utf8.hpp"

namespace cli {
namespace b3sum {
namespace {

std::string lossy_utf8(const std::string &name) {
  std::string text;
  for (std::size_t i = 0; i < name.size();) {
    const utf8_sequence s = utf8_sequence_at(name, i);
    text += s.valid ? name.substr(i, s.length) : "\xEF\xBF\xBD";
    i += s.length;
  }
  return text;
}

} // namespace

std::string shown_name(const std::string &path, bool &escaped) {
  const std::string text = lossy_utf8(path);
  escaped = text.find_first_of("\\\n") != std::string::npos;
  if (!escaped) return text;
  std::string shown;
  for (char c : text)
    shown += c == '\\' ? "\\\\" : c == '\n' ? "\\n" : std::string(1, c);
  return shown;
}

} // namespace b3sum
} // namespace cli
