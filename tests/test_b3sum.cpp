// merklize b3sum against the b3sum program (Debian package b3sum) on files of awkward sizes and
// awkward names: stdout must be byte-identical. Skipped, saying so, where b3sum is not installed.
#include "process.hpp"

#include <catch2/catch.hpp>

using Catch::Matchers::Contains;

namespace {

const char *b3sum_program = "/usr/bin/b3sum";

bool have_b3sum() {
  if (::access(b3sum_program, X_OK) == 0) return true;
  WARN("SKIPPED: " << b3sum_program << " is not installed (apt-get install b3sum)");
  return false;
}

std::vector<std::string> with(std::vector<std::string> command,
                              const std::vector<std::string> &more) {
  command.insert(command.end(), more.begin(), more.end());
  return command;
}

// Both programs on the same arguments, each with its own extra ones first (ours is also given
// --device for the test device).
void check_same_output(const std::vector<std::string> &args, const std::string &stdin_file = "",
                       const std::vector<std::string> &their_args = {},
                       const std::vector<std::string> &our_args = {}) {
  const auto theirs = test::run_program(with(with({b3sum_program}, their_args), args), stdin_file);
  const auto ours = test::run_program(
      with(with({MERKLIZE_CLI, "b3sum", "--device", merklize::device_name(test::test_device())},
                our_args),
           args),
      stdin_file);
  INFO("b3sum stderr: " << theirs.err << "\nmerklize stderr: " << ours.err);
  CHECK(!theirs.out.empty());
  CHECK(ours.out == theirs.out);
  CHECK(ours.status == theirs.status);
}

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
  const auto key = test::random_bytes(32);
  // b3sum reads the key from stdin, merklize from its argument.
  const auto key_file = test::write_file("key", key);
  const std::string hex_key = merklize::to_hex(key.data(), key.size());
  check_same_output(files, key_file, {"--keyed"}, {"--keyed", hex_key});
  check_same_output(with({"--length", "77"}, files), key_file, {"--keyed"}, {"--keyed", hex_key});
  check_same_output(with({"--derive-key", "merklize 2026 test context"}, files));
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
  CHECK_THAT(r.err, Contains(missing + ": No such file or directory") &&
                        Contains(directory + ": Is a directory"));
}

TEST_CASE("merklize b3sum refuses a bad command line", "[cli][b3sum]") {
  const auto good = test::write_file("good", test::random_bytes(100));
  const std::string key(64, 'a');
  struct bad {
    std::vector<std::string> args;
    std::string message;
  } cases[] = {
      {{"--length", "-1", good}, "--length needs a number"},
      {{"--length", "abc", good}, "--length needs a number"},
      {{"--keyed", "abcd", good}, "--keyed needs 64 hex digits"},
      {{"--keyed", std::string(64, 'x'), good}, "not a hex digit"},
      {{"--keyed", key, "--derive-key", "c", good}, "exclude each other"},
      {{"--device", "no-such-device-xyz", good}, "unknown device"},
  };
  for (const auto &c : cases) {
    const auto r = test::run_program(with({MERKLIZE_CLI, "b3sum"}, c.args));
    INFO(c.message);
    CHECK(r.status != 0);
    CHECK(r.out.empty());
    CHECK_THAT(r.err, Contains(c.message));
  }
}
