// SPDX-License-Identifier: Apache-2.0 OR MIT
// The README's API examples are examples/readme_example.cpp and device_trees_example.cpp, word
// for word; ctest also builds and runs those files (tests readme_example, device_trees_example).
#include <catch2/catch.hpp>

#include <fstream>
#include <sstream>

static std::string slurp(const std::string &path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

// The README shows each example from the line after its license line, which is the
// repository's business, not the reader's.
static void check_shown_verbatim(const std::string &example_file) {
  const auto readme = slurp(std::string(MERKLIZE_SOURCE_DIR) + "/README.md");
  auto example = slurp(std::string(MERKLIZE_SOURCE_DIR) + "/examples/" + example_file);
  REQUIRE(!example.empty());
  const std::string license = "// SPDX-License-Identifier: Apache-2.0 OR MIT\n";
  REQUIRE(example.rfind(license, 0) == 0);
  example.erase(0, license.size());
  CHECK(readme.find("```cpp\n" + example + "```") != std::string::npos);
}

TEST_CASE("README shows examples/readme_example.cpp verbatim", "[readme]") {
  check_shown_verbatim("readme_example.cpp");
}

TEST_CASE("README shows examples/device_trees_example.cpp verbatim", "[readme]") {
  check_shown_verbatim("device_trees_example.cpp");
}
