// SPDX-License-Identifier: Apache-2.0 OR MIT
// The command-line tool's bad inputs, from a table: each command line must end with its exit
// status (1 a failure, 2 a mistake in the command line) and a message holding its fragment, with
// nothing on stdout, no control character and no C++ exception text in the message, and a bounded
// message length whatever the input's size.
#include "cli_helpers.hpp"

#include <catch2/catch.hpp>

#include <algorithm>
#include <cctype>

#include <sys/stat.h>

namespace {

using test::sh_quote;

struct bad_input {
  std::string name;    // what the row tries
  std::string command; // for sh; the tool is $M
  int status;
  std::string fragment; // of the message
};

// A proof of leaf 0 of 4 leaves whose "hash" field holds `hash` (JSON text, unescaped).
std::string proof_with_hash(const std::string &name, const std::string &hash) {
  const auto leaves = test::random_bytes(4 * 32);
  auto json =
      merklize::to_json(merklize::prove(merklize::reference_tree(leaves.data(), 128, {}), 0));
  const std::string field = "\"hash\":\"blake3\"";
  json.replace(json.find(field), field.size(), "\"hash\":\"" + hash + "\"");
  return test::write_text(name, json);
}

// A file only another user than root can fail to read: the command then runs as nobody. Empty
// where that cannot be arranged (no setpriv), with a warning.
std::string as_another_user(const std::string &unreadable) {
  if (::geteuid() != 0) {
    ::chmod(unreadable.c_str(), 0);
    return "";
  }
  if (::access("/usr/bin/setpriv", X_OK) != 0) return {};
  ::chmod(test::fs::path(unreadable).parent_path().c_str(), 0700);
  return "setpriv --reuid=65534 --regid=65534 --clear-groups ";
}

std::vector<bad_input> table() {
  const std::string M = test::merklize_word();
  const auto file = [](const std::string &name, std::size_t bytes) {
    return sh_quote(test::write_file(name, test::random_bytes(bytes)).string());
  };
  const auto scratch = [](const std::string &name) {
    return (test::scratch_dir() / name).string();
  };
  const std::string good = file("good", 4 * 32);
  const std::string proof_65536 =
      M + " proof -i 0 --hash sha256 " + file("65536-leaves", 65536 * 32) + " -o ";
  const std::string missing = sh_quote((test::scratch_dir() / "missing").string());
  const std::string folder = sh_quote(test::scratch_dir().string());
  const std::string sparse = sh_quote(test::sparse_file("sparse-8g", std::uint64_t(8) << 30));
  const std::string escapes = proof_with_hash("escapes.json", "\\u001b[2J\\u001b[31mred");
  const std::string raw_escapes = proof_with_hash("raw-escapes.json", "\x1b[2J\x1b]0;title\x07");
  const std::string huge = proof_with_hash("huge.json", std::string(10 << 20, 'x'));
  const std::string valid = proof_with_hash("valid.json", "blake3");
  const std::string leaf(64, '0');
  test::fs::create_directories(test::scratch_dir() / "private");
  const std::string locked = test::write_file("private/leaves", test::random_bytes(64)).string();
  std::vector<bad_input> rows{
      {"a missing file", M + " root " + missing, 1, "No such file or directory"},
      {"a directory", M + " root " + folder, 1, "Is a directory"},
      {"a file that fails to read", M + " root /proc/self/mem", 1, "Input/output error"},
      {"a partial leaf", M + " root " + file("33-bytes", 33), 1, "33 bytes, not a multiple of 32"},
      {"an empty file", M + " root " + file("empty", 0), 1, "N = 0"},
      {"an unknown --hash", M + " root --hash md5 " + good, 2, "unknown hash \"md5\""},
      {"an unknown --pad", M + " proof -i 0 --pad left " + good, 2, "unknown shape"},
      {"an unknown option", M + " root --bogus " + good, 2, "unknown option \"--bogus\""},
      {"an option given twice", M + " root --hash sha256 --hash=blake3 " + good, 2,
       "--hash given more than once"},
      {"a missing value", M + " proof " + good + " --index", 2, "--index needs a value"},
      {"no file", M + " root", 2, "FILE is required"},
      {"two files", M + " root " + good + " " + good, 2, "unexpected argument"},
      {"an unknown command", M + " frobnicate", 2, "unknown command \"frobnicate\""},
      {"help for an unknown command", M + " help frobnicate", 2, "unknown command"},
      {"no command", M, 2, "no command given"},
      {"--shard-log2 0", M + " root --devices cpu --shard-log2 0 " + good, 2, "takes 1 to 64"},
      {"--shard-log2 without --devices", M + " root --shard-log2 4 " + good, 2,
       "--shard-log2 requires --devices"},
      {"--depth past 64", M + " root --pad zero --depth 65 " + good, 2, "at most 64 levels"},
      {"a negative --index", M + " proof --index -1 " + good, 2,
       "--index takes a non-negative integer, not \"-1\""},
      {"an --index past 2^64", M + " proof -i 18446744073709551616 " + good, 2,
       "non-negative integer"},
      {"an --index past the leaves", M + " proof -i 4 " + good, 1, "out of range"},
      {"a full stdout", M + " root " + good + " >/dev/full", 1,
       "cannot write stdout: No space left on device"},
      {"a file size limit on stdout",
       "ulimit -f 1; trap '' XFSZ; " + M + " help root >" + sh_quote(scratch("limited")), 1,
       "cannot write stdout: File too large"},
      {"a file size limit on --output", // the program cache: PoCL writes files when it compiles
       "export MERKLIZE_CACHE_DIR=" + sh_quote(scratch("cache")) + "; " + proof_65536 +
           sh_quote(scratch("whole.json")) + " && ulimit -f 1 && trap '' XFSZ && " + proof_65536 +
           sh_quote(scratch("limited.json")),
       1, "cannot write \"" + scratch("limited.json") + "\": File too large"},
      {"--output in a missing folder",
       M + " proof -i 0 -o " + sh_quote((test::scratch_dir() / "no/such/proof.json").string()) +
           " " + good,
       1, "cannot write"},
      {"a huge --length to a full stdout",
       M + " b3sum --length 99999999999 " + good + " >/dev/full", 1, "No space left on device"},
      {"--length past 2^64", M + " b3sum -l 18446744073709551616 " + good, 2, "--length"},
      {"a short key on stdin", "head -c 31 /dev/zero | " + M + " b3sum --keyed " + good, 1,
       "expected 32 key bytes from stdin, found 31"},
      {"a long key on stdin", "head -c 33 /dev/zero | " + M + " b3sum --keyed " + good, 1,
       "read more than 32 key bytes"},
      {"--keyed and --derive-key", M + " b3sum --keyed --derive-key c " + good, 2, "excludes"},
      {"--raw with two files", M + " b3sum --raw " + good + " " + good, 2, "one input"},
      {"--check with --length", M + " b3sum -c -l 3 " + good, 2, "excludes"},
      {"a check file that is not UTF-8",
       M + " b3sum -c " +
           sh_quote(test::write_text("latin1.b3", std::string(64, '0') + "  caf\xE9\n")),
       1, "not UTF-8"},
      {"a missing check file", M + " b3sum -c " + missing, 1, "No such file or directory"},
      {"out of memory reading leaves for several devices",
       "ulimit -v 1000000; " + M + " root --devices 0:0 " + sparse, 1,
       "out of memory while reading"},
      {"a proof past the JSON limit, refused before it is read", // in 1 GB of address space
       "ulimit -v 1000000; " + M + " verify " + sparse + " " + leaf + " " + leaf, 1,
       "past the limit of a JSON proof"},
      {"a proof whose hash holds escapes",
       M + " verify " + sh_quote(escapes) + " " + leaf + " " + leaf, 1, "\\x1b"},
      {"a proof holding raw escapes",
       M + " verify " + sh_quote(raw_escapes) + " " + leaf + " " + leaf, 1, "proof JSON"},
      {"a proof with a 10 MB field", M + " verify " + sh_quote(huge) + " " + leaf + " " + leaf, 1,
       "unknown hash"},
      {"a bad LEAFHEX", M + " verify " + sh_quote(valid) + " xyz " + leaf, 1, "LEAFHEX: "},
      {"a bad ROOTHEX", M + " verify " + sh_quote(valid) + " " + leaf + " 12", 1, "ROOTHEX: "},
      {"a device spec with escapes",
       "MERKLIZE_DEVICE=\"$(printf '\\033[2J')\" " + M + " root " + good, 1, "\\x1b[2J"},
      {"an unknown --device", M + " b3sum --device no-such-device-xyz " + good, 1,
       "unknown device"},
  };
  const std::string prefix = as_another_user(locked);
  if (::geteuid() != 0 || !prefix.empty())
    rows.push_back({"a file without read permission", prefix + M + " root " + sh_quote(locked), 1,
                    "Permission denied"});
  else
    WARN("SKIPPED: the row for a file without read permission needs setpriv (util-linux) when "
         "run as root");
  return rows;
}

} // namespace

TEST_CASE("merklize refuses each bad input of the table with its status and message",
          "[cli][bad-input]") {
  for (const auto &row : table()) {
    INFO(row.name << ": " << row.command);
    const auto r = test::run_shell(row.command);
    std::string shown = r.err.substr(0, 2000); // without what it may hold for a terminal
    std::replace_if(
        shown.begin(), shown.end(), [](char c) { return c != '\n' && std::iscntrl(c); }, '?');
    INFO("stderr: " << shown);
    CHECK(r.status == row.status);
    CHECK(r.out.empty());
    CHECK_THAT(r.err, Catch::Matchers::Contains(row.fragment));
    CHECK(r.err.size() < 8192);
    CHECK(std::none_of(r.err.begin(), r.err.end(), [](char c) {
      return (static_cast<unsigned char>(c) < 0x20 && c != '\n') || c == 0x7F;
    }));
    CHECK_THAT(r.err, !Catch::Matchers::Contains("std::") && !Catch::Matchers::Contains("basic_") &&
                          !Catch::Matchers::Contains("terminate called"));
  }
}
