// SPDX-License-Identifier: Apache-2.0 OR MIT
// The published Certificate Transparency test vectors as a log a user would give the command
// line, for the tests of its log commands (test_log_cli.cpp, test_presets_cli.cpp).
#pragma once

#include <string>

namespace test {

// The eight entries of the CT test vectors (see test_consistency.cpp), one a line: none holds a
// "\n". The roots of the first six and of all eight, as published.
inline const std::string ct_lines =
    std::string("\n") + std::string(1, '\0') +
    "\n\x10\n\x20\x21\n"
    "\x30\x31\n\x40\x41\x42\x43\n\x50\x51\x52\x53\x54\x55\x56\x57\n"
    "\x60\x61\x62\x63\x64\x65\x66\x67\x68\x69\x6a\x6b\x6c\x6d\x6e\x6f\n";
inline const std::string ct_root_8 =
    "5dc9da79a70659a9ad559cb701ded9a2ab9d823aad2f4960cfe370eff4604328";
inline const std::string ct_root_6 =
    "76e67dadbcdf1e10e1b74ddc608abd2f98dfb16fbce75277b5232a127f2087ef";

// The last line of a command's output, without its line break: consistency's proof, after the
// two tree heads.
inline std::string last_line(const std::string &out) {
  const std::string text = out.substr(0, out.size() - (!out.empty() && out.back() == '\n'));
  return text.substr(text.rfind('\n') + 1);
}

} // namespace test
