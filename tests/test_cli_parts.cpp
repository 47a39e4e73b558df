// SPDX-License-Identifier: Apache-2.0 OR MIT
// Pieces of the command-line tools tested on their own (tools/, linked from
// merklize_tool_common): quoting of untrusted text, the --progress line, sizes and option values.
#include <catch2/catch.hpp>

#include "cli.hpp"
#include "progress.hpp"
#include "quote.hpp"
#include "sizes.hpp"
#include "values.hpp"

using Catch::Matchers::Contains;

TEST_CASE("cli::quote and cli::printable escape control characters and cut long text",
          "[cli][parts]") {
  CHECK(cli::quote("plain name.bin") == "\"plain name.bin\"");
  CHECK(cli::quote("a\"b\\c") == "\"a\\\"b\\\\c\"");
  CHECK(cli::quote("\x1b[2J\n\t\x7f") == "\"\\x1b[2J\\x0a\\x09\\x7f\"");
  CHECK(cli::quote("caf\xC3\xA9 \xF0\x9F\x98\x80") ==
        "\"caf\xC3\xA9 \xF0\x9F\x98\x80\""); // UTF-8 kept
  CHECK(cli::quote("\xC2\x9B"
                   "1m") == "\"\\xc2\\x9b1m\"");                    // C1 control (CSI)
  CHECK(cli::quote("bad\xFF\xE2\x82") == "\"bad\\xff\\xe2\\x82\""); // not UTF-8
  CHECK(cli::printable("a\\b \"c\"\r", 100) == "a\\b \"c\"\\x0d");  // only controls escaped
  const std::string long_text(10 << 20, 'x');
  const std::string cut = cli::quote(long_text, 64);
  CHECK(cut.size() <= 66);
  CHECK(cut == "\"" + std::string(61, 'x') + "...\"");
  CHECK(cli::printable(std::string(20, '\x01'), 30) == "\\x01\\x01\\x01\\x01\\x01\\x01...");
  CHECK(cli::printable("exactly", 7) == "exactly");
  // A message of several lines keeps its line breaks; the rest is escaped and cut as before.
  CHECK(cli::printable_lines("devices:\n  0:0 \x1b[2J\n", 100) == "devices:\n  0:0 \\x1b[2J\n");
  CHECK(cli::printable_lines(std::string(10 << 20, '\n'), 64).size() <= 64);
}

TEST_CASE("cli::progress_line shows bytes, share, rate and time left", "[cli][parts]") {
  const std::uint64_t gib = std::uint64_t(1) << 30;
  CHECK(cli::progress_line("big.bin", 3 * gib / 2, 4 * gib, 3.0, false) ==
        "reading big.bin: 1.5 GiB of 4.0 GiB (37%), 512.0 MiB/s, 0:00:05 left");
  CHECK(cli::progress_line("stdin", 3 * gib / 2, std::nullopt, 3.0, false) ==
        "reading stdin: 1.5 GiB, 512.0 MiB/s");
  CHECK(cli::progress_line("big.bin", 4 * gib, 4 * gib, 8.0, true) ==
        "reading big.bin: 4.0 GiB in 0:00:08, 512.0 MiB/s");
  CHECK(cli::progress_line("slow", 1, 4 * gib, 3600.0, false) ==
        "reading slow: 1 B of 4.0 GiB (0%), 0 B/s, ? left");
  CHECK(cli::progress_line("grew", 5 * gib, 4 * gib, 10.0, false) ==
        "reading grew: 5.0 GiB, 512.0 MiB/s"); // past its size when opened: no end known
  CHECK(cli::progress_line("long", 7200ull << 20, 10800ull << 20, 7200.0, false) ==
        "reading long: 7.0 GiB of 10.5 GiB (66%), 1.0 MiB/s, 1:00:00 left");
}

TEST_CASE("cli::size_text gives the exact size and a readable one", "[cli][parts]") {
  CHECK(cli::size_text(1000) == "1000 bytes");
  CHECK(cli::size_text(std::uint64_t(8) << 30) == "8589934592 bytes, 8.0 GiB");
  CHECK(cli::short_size(1536) == "1.5 KiB");
  CHECK(cli::short_size(18446744073709551615.0) == "16.0 EiB");
}

TEST_CASE("option values are decimal and in range, else a usage error naming the option",
          "[cli][parts]") {
  CHECK(cli::parse_count("--index", "0") == 0);
  CHECK(cli::parse_count("--index", "18446744073709551615") == UINT64_MAX);
  for (const char *bad : {"", "-1", "+1", "0x10", "1e3", " 1", "18446744073709551616", "１"}) {
    INFO(bad);
    CHECK_THROWS_AS(cli::parse_count("--index", bad), cli::usage_error);
    CHECK_THROWS_WITH(cli::parse_count("--index", bad),
                      Contains("--index takes a non-negative integer"));
  }
  CHECK(cli::parse_depth("--depth", "064") == 64);
  CHECK_THROWS_WITH(cli::parse_depth("--depth", "65"), Contains("at most 64 levels"));
  CHECK_THROWS_WITH(cli::parse_depth("--depth", "99999999999999999999999"),
                    Contains("at most 64 levels"));
  CHECK(cli::parse_shard_log2("--shard-log2", "1") == 1);
  CHECK_THROWS_WITH(cli::parse_shard_log2("--shard-log2", "0"), Contains("takes 1 to 64"));
  CHECK_THROWS_WITH(cli::parse_threads("--num-threads", "1025"), Contains("0 (automatic) to 1024"));
  CHECK(cli::parse_hash("--hash", "sha256") == merklize::hash_kind::sha256);
  CHECK_THROWS_AS(cli::parse_hash("--hash", "md5"), cli::usage_error);
  CHECK_THROWS_AS(cli::parse_pad("--pad", "left"), cli::usage_error);
}
