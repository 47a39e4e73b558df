// SPDX-License-Identifier: Apache-2.0 OR MIT
// The README's API example is examples/readme_example.cpp, word for word; ctest also builds and
// runs that file (test readme_example).
#include <catch2/catch.hpp>

#include <fstream>
#include <sstream>

static std::string slurp(const std::string &path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

TEST_CASE("README shows examples/readme_example.cpp verbatim", "[readme]") {
  const auto readme = slurp(std::string(MERKLIZE_SOURCE_DIR) + "/README.md");
  auto example = slurp(std::string(MERKLIZE_SOURCE_DIR) + "/examples/readme_example.cpp");
  REQUIRE(!example.empty());
  // The file's license line is the repository's business, not the reader's: the README shows
  // the program from the line after it.
  const std::string license = "// SPDX-License-Identifier: Apache-2.0 OR MIT\n";
  REQUIRE(example.rfind(license, 0) == 0);
  example.erase(0, license.size());
  CHECK(readme.find("```cpp\n" + example + "```") != std::string::npos);
}
