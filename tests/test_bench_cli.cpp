// SPDX-License-Identifier: Apache-2.0 OR MIT
// merklize bench: the user-path comparison runs each task beside its CPU tool, checks that their
// outputs agree, and says whether merklize pays. No timing is asserted: only that every task the
// machine's tools allow was run, compared and judged.
#include "cli_helpers.hpp"

#include <catch2/catch.hpp>

using Catch::Matchers::Contains;

namespace {

bool installed(const char *program) {
  for (const char *dir : {"/usr/bin/", "/usr/sbin/", "/sbin/", "/bin/"})
    if (::access((std::string(dir) + program).c_str(), X_OK) == 0) return true;
  return false;
}

} // namespace

TEST_CASE("merklize bench compares each task with its CPU tool and gives a verdict",
          "[cli][bench]") {
  const auto file = test::write_file("bench.data", test::random_bytes(1 << 20)).string();
  const auto r = test::merklize_cli({"bench", "--runs", "1", file});
  INFO(r.out << r.err);
  REQUIRE(r.status == 0);
  CHECK_THAT(r.out,
             Contains("| task | merklize | memory | CPU tool | time | memory | merklize is |"));
  const std::pair<const char *, const char *> rows[] = {
      {"b3sum", "| BLAKE3 of the file |"},
      {"b3sum", "| Merkle root of its 32-byte leaves"},
      {"sha256sum", "| SHA-256 tree of its 4 KiB blocks"},
      {"fsverity", "| fs-verity digest |"},
      {"veritysetup", "| dm-verity hash device |"},
  };
  for (const auto &[tool, row] : rows)
    if (installed(tool))
      CHECK_THAT(r.out, Contains(row));
    else
      WARN("SKIPPED: the row of " << tool << ", which is not installed");
  // Where both print the same thing, they did.
  if (installed("b3sum")) CHECK_THAT(r.out, Contains("b3sum | ") && Contains("same output"));
  CHECK_THAT(r.out, Contains("\nOn this machine, for this file: merklize pays for "));
}

TEST_CASE("merklize bench refuses what it cannot time", "[cli][bench][bad-input]") {
  const auto empty = test::write_file("bench.empty", {}).string();
  const auto none = test::merklize_cli({"bench", empty});
  CHECK(none.status == 1);
  CHECK_THAT(none.err, Contains("regular file of at least one byte"));
  const auto folder = test::merklize_cli({"bench", test::scratch_dir().string()});
  CHECK(folder.status == 1);
  const auto runs = test::merklize_cli({"bench", "--runs", "0", empty});
  CHECK(runs.status == 2);
  CHECK_THAT(runs.err, Contains("--runs takes 1 to 1000 runs"));
}
