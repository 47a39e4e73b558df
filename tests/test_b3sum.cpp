// SPDX-License-Identifier: Apache-2.0 OR MIT
// merklize b3sum against the b3sum program (Debian package b3sum) on files of awkward sizes and
// awkward names: stdout must be byte-identical. Skipped, saying so, where b3sum is not installed.
#include "b3sum_helpers.hpp"

#include <catch2/catch.hpp>

using Catch::Matchers::Contains;

namespace {

using test::b3sum_program;
using test::check_same_output;
using test::have_b3sum;
using test::with;

// Files whose sizes sit on every boundary of the device's tree.
std::vector<std::string> awkward_files() {
  std::vector<std::uint64_t> sizes{0, 1, 63, 64, 65, 1023, 1024, 1025, 3000};
  for (std::uint64_t chunks : {2, 3, 4, 7, 8, 9, 64, 511, 512, 513, 1025})
    for (std::int64_t delta : {-1, 0, 1})
      sizes.push_back(chunks * 1024 + delta);
  std::vector<std::string> names;
  for (std::uint64_t size : sizes)
    names.push_back(test::write_file("size-" + std::to_string(size), test::random_bytes(size)));
  return names;
}

} // namespace

TEST_CASE("merklize b3sum prints what b3sum prints for files of awkward sizes", "[cli][b3sum]") {
  if (!have_b3sum()) return;
  const auto files = awkward_files();
  check_same_output(files);
  for (const char *length : {"0", "1", "31", "33", "64", "65", "1000"})
    check_same_output(with({"--length", length}, files));
}

TEST_CASE("merklize b3sum --keyed and --derive-key print what b3sum prints", "[cli][b3sum]") {
  if (!have_b3sum()) return;
  const auto files = awkward_files();
  // Both read the key from stdin: 32 raw bytes, no more, no less.
  const auto key = test::write_file("key", test::random_bytes(32));
  check_same_output(with({"--keyed"}, files), key);
  check_same_output(with({"--keyed", "--length", "77"}, files), key);
  check_same_output(with({"--derive-key", "merklize 2026 test context"}, files));
  check_same_output(with({"--derive-key=merklize 2026 test context", "-l", "100"}, files));
  // stdin holds the key, so - is refused (status 1), and the other files still hashed.
  const auto refused = check_same_output({"--keyed", files[3], "-", files[4]}, key);
  CHECK(refused.status == 1);
  for (const auto &size : {31, 33, 0}) {
    INFO("a key of " << size << " bytes");
    const auto bad_key = test::write_file("bad-key", test::random_bytes(size));
    const auto r = check_same_output({"--keyed", files[3]}, bad_key);
    CHECK(r.status == 1);
    CHECK_THAT(r.err, Contains("key bytes from stdin"));
  }
}

TEST_CASE("merklize b3sum --no-names, --raw, -l, --num-threads and --no-mmap print what b3sum "
          "prints",
          "[cli][b3sum]") {
  if (!have_b3sum()) return;
  const auto files = awkward_files();
  const auto large = test::write_file("five-mib", test::random_bytes(5 << 20)).string();
  check_same_output(with({"--no-names"}, files));
  check_same_output(with({"--no-names", "-l", "100"}, files));
  check_same_output(with({"-l64"}, files));
  check_same_output(with({"--length=65"}, files));
  check_same_output({"--raw", large});
  check_same_output({"--raw", "-l", "1000", large});
  check_same_output({"--raw", "--no-names", "-l", "7"}, large); // stdin
  check_same_output(with({"--no-mmap"}, files));
  for (const char *threads : {"0", "1", "3"})
    check_same_output({"--num-threads", threads, large, files.back()});
}

TEST_CASE("merklize b3sum takes -- as the end of the options, as b3sum does", "[cli][b3sum]") {
  if (!have_b3sum()) return;
  test::write_file("-l", test::random_bytes(100));
  test::write_file("--", test::random_bytes(200));
  const std::string in_scratch = "cd " + test::sh_quote(test::scratch_dir().string()) + " && ";
  const auto ours = test::run_shell(in_scratch + test::merklize_word() + " b3sum -- -l --");
  const auto theirs = test::run_shell(in_scratch + b3sum_program + " -- -l --");
  CHECK(ours.status == 0);
  CHECK(ours.out == theirs.out);
  CHECK_THAT(ours.out, Contains("  -l\n") && Contains("  --\n"));
}

TEST_CASE("merklize b3sum escapes and shows file names as b3sum does", "[cli][b3sum]") {
  if (!have_b3sum()) return;
  std::vector<std::string> files;
  for (const std::string name :
       {"back\\slash", "new\nline", "both\\\nand\\n", "cr\rtab\t", "caf\xC3\xA9 \xF0\x9F\x98\x80",
        "bad\xFF\xFE", "cut\xE2\x82", "cut4\xF0\x9F\x98x", "surrogate\xED\xA0\x80",
        "overlong\xC0\xAF", "too-big\xF4\x90\x80\x80", "lone\x80", "end\xE2"})
    files.push_back(test::write_file(name, test::random_bytes(name.size() * 100)));
  check_same_output(files);
}

TEST_CASE("merklize b3sum reads stdin for - or no file, as b3sum does", "[cli][b3sum]") {
  if (!have_b3sum()) return;
  const auto input = test::write_file("stdin-input", test::random_bytes(5000));
  check_same_output({}, input);
  check_same_output({"-"}, input);
  check_same_output({"-", input}, input);
}

TEST_CASE("merklize b3sum skips unreadable files, reports them and exits 1, as b3sum does",
          "[cli][b3sum]") {
  if (!have_b3sum()) return;
  const auto good = test::write_file("good", test::random_bytes(2000));
  const auto missing = (test::scratch_dir() / "missing").string();
  const auto directory = test::scratch_dir().string();
  check_same_output({good, missing, directory, good});
  const auto r = test::run_program({MERKLIZE_CLI, "b3sum", good, missing, directory, good});
  CHECK(r.status == 1);
  CHECK_THAT(r.err, Contains(missing + "\": No such file or directory") &&
                        Contains(directory + "\": Is a directory"));
}

TEST_CASE("merklize b3sum refuses a bad command line with exit status 2", "[cli][b3sum]") {
  // b3sum exits 1 for these; merklize keeps its convention for a bad command line: 2.
  const auto good = test::write_file("good", test::random_bytes(100));
  struct bad {
    std::vector<std::string> args;
    std::string message;
  } cases[] = {
      {{"--length", "-1", good}, "--length takes a non-negative integer"},
      {{"-l", "abc", good}, "--length takes a non-negative integer"},
      {{"--keyed", "--derive-key", "c", good}, "--keyed excludes --derive-key"},
      {{"--keyed"}, "--keyed requires FILE"},
      {{"--raw", good, good}, "--raw takes one input only"},
      {{"--quiet", good}, "--quiet requires --check"},
      {{"--check", "--no-names", good}, "--check excludes --no-names"},
      {{"--num-threads", "x", good}, "--num-threads takes a non-negative integer"},
      {{"--length", "1", "-l", "2", good}, "--length given more than once"},
  };
  for (const auto &c : cases) {
    const auto r = test::run_program(with({MERKLIZE_CLI, "b3sum"}, c.args));
    INFO(c.message);
    CHECK(r.status == 2);
    CHECK(r.out.empty());
    CHECK_THAT(r.err, Contains(c.message));
  }
  const auto device = test::run_program({MERKLIZE_CLI, "b3sum", "--device", "no-such-xyz", good});
  CHECK(device.status == 1);
  CHECK_THAT(device.err, Contains("unknown device"));
}
