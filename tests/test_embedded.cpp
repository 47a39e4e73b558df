// SPDX-License-Identifier: Apache-2.0 OR MIT
// Each kernel file is kept once, in include/merklize/kernels/, as one raw string literal that
// kernels/sources.hpp includes: every file there is in the table, none is missing, and each is
// exactly its source between the delimiters (nothing before or after them that the device would
// not see).
#include <merklize/kernels/sources.hpp>

#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>

TEST_CASE("kernels/sources.hpp holds every kernel file, each exactly once", "[embedded]") {
  std::set<std::string> on_disk;
  for (const auto &entry : std::filesystem::directory_iterator(MERKLIZE_KERNEL_SOURCE_DIR))
    if (entry.path().extension() == ".cl") on_disk.insert(entry.path().filename().string());
  std::set<std::string> embedded;
  for (const auto &k : merklize::detail::embedded_kernels) {
    INFO("include/merklize/kernels/" << k.name);
    CHECK(embedded.insert(k.name).second);
    std::ifstream file(std::string(MERKLIZE_KERNEL_SOURCE_DIR) + "/" + k.name, std::ios::binary);
    REQUIRE(file);
    std::stringstream text;
    text << file.rdbuf();
    CHECK(text.str() == "R\"merklize_cl(" + std::string(k.source) + ")merklize_cl\"\n");
    CHECK(std::string(k.source).rfind("// SPDX-License-Identifier: ", 0) == 0);
  }
  CHECK(embedded == on_disk);
  CHECK(!embedded.empty());
}
