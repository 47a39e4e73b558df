// SPDX-License-Identifier: Apache-2.0 OR MIT
// Flags of the benchmark drivers: --name=value taken out of argv before Google Benchmark, which
// refuses flags it does not know, reads the rest.
#pragma once

#include <string>

namespace bench {

// Takes --name=value out of argv into `value`; false when the flag is not there.
inline bool take_flag(int &argc, char **argv, const std::string &name, std::string &value) {
  const std::string prefix = "--" + name + "=";
  for (int i = 1; i < argc; ++i)
    if (std::string(argv[i]).rfind(prefix, 0) == 0) {
      value = argv[i] + prefix.size();
      for (int j = i; j + 1 < argc; ++j)
        argv[j] = argv[j + 1];
      --argc;
      return true;
    }
  return false;
}

inline bool take_flag(int &argc, char **argv, const std::string &name, int &value) {
  std::string text;
  if (!take_flag(argc, argv, name, text)) return false;
  value = std::stoi(text);
  return true;
}

} // namespace bench
