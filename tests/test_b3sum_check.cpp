// SPDX-License-Identifier: Apache-2.0 OR MIT
// merklize b3sum --check against b3sum --check, and outputs of any --length in bounded memory.
#include "b3sum_helpers.hpp"
#include "cli_helpers.hpp"

#include <catch2/catch.hpp>

using Catch::Matchers::Contains;

namespace {

using test::check_same_output;
using test::have_b3sum;

// Files, some with names b3sum escapes, and their check file as b3sum writes it.
struct checked_files {
  std::vector<std::string> files;
  std::string sums;
};

checked_files checked(const std::string &prefix) {
  checked_files c;
  for (const std::string name : {"plain", "back\\slash", "new\nline", "large"})
    c.files.push_back(
        test::write_file(prefix + name, test::random_bytes(name == "large" ? 3 << 20 : 999))
            .string());
  const auto sums = test::run_program(test::with({test::b3sum_program}, c.files));
  REQUIRE(sums.status == 0);
  c.sums = test::write_text(prefix + "sums.b3", sums.out);
  return c;
}

} // namespace

TEST_CASE("merklize b3sum --check prints OK and exits 0 as b3sum does", "[cli][b3sum][check]") {
  if (!have_b3sum()) return;
  const auto c = checked("ok-");
  const auto r = check_same_output({"--check", c.sums});
  CHECK(r.status == 0);
  CHECK_THAT(r.out, Contains("\n\\" + test::scratch_dir().string() + "/ok-new\\nline: OK\n"));
  CHECK(r.err.empty());
  check_same_output({"-c", c.sums, c.sums});
  check_same_output({"-c"}, c.sums); // the check file on stdin
  check_same_output({"-c", "-"}, c.sums);
  CHECK(check_same_output({"-c", "--quiet", c.sums}).out.empty());
  check_same_output({"--check", "--num-threads", "2", "--no-mmap", c.sums});
}

TEST_CASE("merklize b3sum --check prints FAILED for a changed or missing file as b3sum does",
          "[cli][b3sum][check]") {
  if (!have_b3sum()) return;
  const auto c = checked("failed-");
  test::write_file(c.files[0].substr(test::scratch_dir().string().size() + 1),
                   test::random_bytes(999)); // changed
  test::fs::remove(c.files[2]);              // missing
  const auto r = check_same_output({"--check", c.sums});
  CHECK(r.status == 1);
  CHECK_THAT(r.out, Contains("plain: FAILED\n") &&
                        Contains("new\\nline: FAILED (No such file or directory (os error 2))\n") &&
                        Contains("back\\\\slash: OK\n"));
  CHECK_THAT(r.err, Contains("WARNING: 2 computed checksums did NOT match"));
  const auto quiet = check_same_output({"--check", "--quiet", c.sums});
  CHECK_THAT(quiet.out, !Contains(": OK"));

  // A folder where a file was: what reading it says.
  test::fs::create_directories(c.files[2]);
  check_same_output({"-c", c.sums});
  // A check file that is missing: exit status 1, nothing checked.
  const auto missing = check_same_output({"-c", (test::scratch_dir() / "no-sums.b3").string()});
  CHECK_THAT(missing.err, Contains("No such file or directory"));
}

TEST_CASE("merklize b3sum --check reports malformed lines and goes on as b3sum does",
          "[cli][b3sum][check]") {
  if (!have_b3sum()) return;
  const auto file = test::write_file("target", test::random_bytes(500)).string();
  const auto line = test::run_program({test::b3sum_program, file}).out;
  const std::string hex = line.substr(0, 64);
  struct malformed {
    std::string text, message;
  } lines[] = {
      {"\n", "Empty line"},
      {hex + "  \n", "Short line"},
      {hex.substr(0, 60) + "\n", "Short line"},
      {"Z" + hex.substr(1) + "  " + file + "\n", "Invalid hex"},
      {std::string(64, 'A') + "  " + file + "\n", "Invalid hex"},
      {hex + " \t" + file + "\n", "Invalid space"},
      {"\xC3\xA9" + hex.substr(2) + "  " + file + "\n", "Non-ASCII prefix"},
      {"\\" + hex + "  " + file + "\\x\n", "Invalid backslash escape"},
      {"\\" + hex + "  " + file + "\\\n", "Invalid backslash escape"},
      {hex + "  " + file + "\xEF\xBF\xBD\n", "Unicode replacement character in path"},
      {hex + "  " + file + std::string(1, '\0') + "x\n", "Null character in path"},
  };
  std::string all = line;
  for (const auto &l : lines) {
    INFO(l.message);
    const auto r =
        check_same_output({"-c", test::write_text("malformed.b3", line + l.text + line)});
    CHECK(r.status == 1);
    CHECK(r.out == file + ": OK\n" + file + ": OK\n");
    CHECK_THAT(r.err, Contains("line 2: " + l.message));
    all += l.text;
  }
  check_same_output({"-c", test::write_text("all-malformed.b3", all + line)});
  // The last line without its newline, and a carriage return kept in the name, as b3sum keeps it.
  check_same_output(
      {"-c", test::write_text("no-newline.b3", line + line.substr(0, line.size() - 1))});
  check_same_output({"-c", test::write_text("crlf.b3", line.substr(0, line.size() - 1) + "\r\n")});
  // A check file that is not UTF-8 stops the check where b3sum stops (status 1).
  check_same_output({"-c", test::write_text("latin1.b3", line + hex + "  caf\xE9\n" + line)});
}

TEST_CASE("merklize b3sum streams long outputs as b3sum does, in bounded memory",
          "[cli][b3sum][length]") {
  if (!have_b3sum()) return;
  const auto file = test::sh_quote(test::write_file("input", test::random_bytes(5000)).string());
  const auto device = test::sh_quote(merklize::device_name(test::test_device()));
  const std::string ours = test::merklize_word() + " b3sum --device " + device,
                    theirs = test::b3sum_program;
  // 100 MB of output is 200 MB of hex: compared through sha256sum.
  for (const std::string options : {"--length 100000000 ", "--raw -l 100000000 "}) {
    INFO(options);
    const auto mine = test::run_shell(ours + " " + options + file + " | sha256sum");
    CHECK(mine.status == 0);
    CHECK(mine.out == test::run_shell(theirs + " " + options + file + " | sha256sum").out);
  }
  // 100 GB: its start is the same (both stop at the closed pipe).
  const std::string head = " --length 99999999999 " + file + " | head -c 100000";
  const auto start = test::run_shell(ours + head);
  CHECK(start.out.size() == 100000);
  CHECK(start.out == test::run_shell(theirs + head).out);

  // Memory: 100 MB of output costs what a 32-byte output costs, give or take the output pieces
  // (16 MiB on the device and on the host), not a buffer of its length (the old 806 MB).
  const auto peak = [&](const char *length) {
    return test::peak_memory_kib({MERKLIZE_CLI, "b3sum", "--device",
                                  merklize::device_name(test::test_device()), "--length", length,
                                  file.substr(1, file.size() - 2)});
  };
  const long small = peak("32"), large = peak("100000000");
  INFO("peak memory: " << small << " KiB for 32 bytes, " << large << " KiB for 100 MB");
  REQUIRE(small > 0);
  REQUIRE(large > 0);
  CHECK(large - small < 96 * 1024);
}
