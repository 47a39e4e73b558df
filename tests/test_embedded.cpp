// SPDX-License-Identifier: Apache-2.0 OR MIT
// The kernels embedded in include/ must be exactly kernels/*.cl: no file missing, none extra,
// not one byte different.
#include <merklize/runtime/kernel_sources.hpp>

#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>

TEST_CASE("embedded kernels are identical to kernels/*.cl", "[embedded]") {
  std::set<std::string> on_disk;
  for (const auto &entry : std::filesystem::directory_iterator(MERKLIZE_KERNEL_DIR))
    if (entry.path().extension() == ".cl") on_disk.insert(entry.path().filename().string());
  std::set<std::string> embedded;
  for (const auto &k : merklize::detail::embedded_kernels) {
    embedded.insert(k.name);
    std::ifstream file(std::string(MERKLIZE_KERNEL_DIR) + "/" + k.name, std::ios::binary);
    INFO("kernels/" << k.name << " (regenerate with `make embed`)");
    REQUIRE(file);
    std::stringstream text;
    text << file.rdbuf();
    CHECK(text.str() == k.source);
  }
  CHECK(embedded == on_disk);
  CHECK(!embedded.empty());
}
