// SPDX-License-Identifier: Apache-2.0 OR MIT
// The command-line conventions of the merklize tool (GNU style, as b3sum and coreutils): --version,
// --help for each command, --opt=value, short options, "--" ending the options, exit statuses, a
// --progress line, and every output checked and written whole or not at all.
#include "cli_helpers.hpp"

#include <catch2/catch.hpp>

using Catch::Matchers::Contains;
using Catch::Matchers::EndsWith;
using Catch::Matchers::StartsWith;

namespace {

using args = std::vector<std::string>;

using test::merklize_cli;

const char *const commands[] = {"root", "proof", "verify", "b3sum", "devices"};

// A progress report without the spaces that pad its last line where that line overwrote a
// longer update.
std::string unpadded(std::string report) {
  if (report.empty() || report.back() != '\n') return report;
  report.pop_back();
  while (!report.empty() && report.back() == ' ')
    report.pop_back();
  return report + "\n";
}

} // namespace

TEST_CASE("merklize --version prints the version", "[cli][conventions]") {
  const auto r = merklize_cli({"--version"});
  CHECK(r.status == 0);
  CHECK(r.out == "merklize 0.2.0\n");
  CHECK(r.err.empty());
}

TEST_CASE("merklize --help, help COMMAND and COMMAND --help print usages and exit 0",
          "[cli][conventions]") {
  for (const auto &general : {args{"--help"}, args{"-h"}, args{"help"}}) {
    const auto r = merklize_cli(general);
    CHECK(r.status == 0);
    CHECK(r.err.empty());
    for (const char *command : commands)
      CHECK_THAT(r.out, Contains(std::string("\n  ") + command + " "));
  }
  for (const std::string command : commands) {
    INFO(command);
    const auto help = merklize_cli({"help", command});
    CHECK(help.status == 0);
    CHECK_THAT(help.out, Contains("Usage: merklize " + command + " "));
    for (const std::string other : commands) // that command's usage only
      if (other != command) CHECK_THAT(help.out, !Contains("Usage: merklize " + other));
    CHECK(merklize_cli({command, "--help"}).out == help.out);
    CHECK(merklize_cli({command, "-h"}).out == help.out);
    // --help wins over what else is wrong, as in GNU tools.
    CHECK(merklize_cli({command, "--bogus", "--help"}).status == 0);
  }
  CHECK_THAT(merklize_cli({"help", "root"}).out, Contains("--shard-log2 S") && Contains("-v,"));
  CHECK_THAT(merklize_cli({"help", "b3sum"}).out,
             Contains("-c,--check") && Contains("-l,--length LEN") && Contains("--num-threads"));
}

TEST_CASE("merklize takes --opt=value, --opt value, short options and options after FILE",
          "[cli][conventions]") {
  const auto leaves = test::random_bytes(9 * 32);
  const auto file = test::write_file("nine", leaves).string();
  const auto t =
      merklize::reference_tree(leaves.data(), leaves.size(), {merklize::hash_kind::sha256});
  const std::string root = merklize::to_hex(t.root()) + "\n";
  for (const auto &a :
       {args{"root", "--hash", "sha256", file}, args{"root", "--hash=sha256", file},
        args{"root", file, "--hash", "sha256"}, args{"root", file, "--hash=sha256"}}) {
    const auto r = merklize_cli(a);
    CHECK(r.status == 0);
    CHECK(r.out == root);
  }
  const auto verbose = merklize_cli({"root", "-v", "--hash=sha256", file});
  CHECK(verbose.out == root);
  CHECK_THAT(verbose.err, StartsWith("engine: "));
  const auto proof = merklize_cli({"proof", "-i", "5", "--hash=sha256", file});
  CHECK(proof.status == 0);
  CHECK(merklize_cli({"proof", "--index=5", "--hash", "sha256", file}).out == proof.out);
  CHECK(merklize::inclusion_proof_from_json(proof.out) == merklize::prove(t, 5));
}

TEST_CASE("merklize takes -- as the end of the options", "[cli][conventions]") {
  const auto leaves = test::random_bytes(3 * 32);
  test::write_file("-x", leaves);
  test::write_file("--", leaves);
  const std::string expected =
      merklize::to_hex(merklize::reference_tree(leaves.data(), leaves.size(), {}).root()) + "\n";
  const std::string in_scratch = "cd " + test::sh_quote(test::scratch_dir().string()) + " && ";
  const std::string M = test::merklize_word();
  for (const char *name : {"-x", "--"}) {
    INFO("a file named " << name);
    const auto r = test::run_shell(in_scratch + M + " root -- " + name);
    CHECK(r.status == 0);
    CHECK(r.out == expected);
  }
  const auto options = test::run_shell(in_scratch + M + " root -x");
  CHECK(options.status == 2); // without --, -x is an option
}

TEST_CASE("merklize --progress shows bytes, rate and time on stderr", "[cli][conventions]") {
  const auto leaves = test::random_bytes(1000 * 32);
  const auto file = test::write_file("progress", leaves).string();
  const std::string root =
      merklize::to_hex(merklize::reference_tree(leaves.data(), leaves.size(), {}).root()) + "\n";
  const auto r = merklize_cli({"root", "--progress", file});
  CHECK(r.status == 0);
  CHECK(r.out == root);
  // Updates may come first where reading takes long enough (a GPU driver's start); the line
  // always ends with the total, in place.
  CHECK_THAT(unpadded(r.err), StartsWith("\rreading " + file + ": ") &&
                                  Contains("\rreading " + file + ": 31.2 KiB in 0:00:0") &&
                                  EndsWith("/s\n"));
  CHECK(merklize_cli({"root", file}).err.empty()); // only when asked

  // A slow pipe: the line is updated in place (a carriage return, no newline) while reading.
  const std::string M = test::merklize_word();
  const auto piped = test::run_shell("(head -c 1048576 " + test::sh_quote(file) +
                                     " /dev/zero | head -c 1048576; sleep 1; head -c 1048576 "
                                     "/dev/zero) | " +
                                     M + " root --progress -");
  CHECK(piped.status == 0);
  CHECK_THAT(unpadded(piped.err), StartsWith("\rreading stdin: ") && Contains("B/s\r") &&
                                      Contains("\rreading stdin: 2.0 MiB in 0:00:0") &&
                                      EndsWith("/s\n"));
  CHECK(std::count(piped.err.begin(), piped.err.end(), '\n') == 1);

  const auto hashed = merklize_cli({"b3sum", "--progress", file});
  CHECK(hashed.status == 0);
  CHECK_THAT(unpadded(hashed.err), StartsWith("\rreading " + file + ": ") &&
                                       Contains("\rreading " + file + ": 31.2 KiB in ") &&
                                       EndsWith("/s\n"));
  CHECK(merklize_cli({"proof", "-i", "0", "--progress", file}).err.size() > 0);
}

TEST_CASE("merklize proof --output writes the whole proof or leaves the file as it was",
          "[cli][conventions]") {
  const auto leaves = test::random_bytes(65536 * 32);
  const auto file = test::write_file("65536", leaves).string();
  const auto out = (test::scratch_dir() / "proof.json").string();
  // The program cache lets the limited run below build its kernels without writing a file (PoCL
  // writes some when it compiles).
  const std::string proof_command =
      "MERKLIZE_CACHE_DIR=" + test::sh_quote((test::scratch_dir() / "cache").string()) + " " +
      test::merklize_word() + " proof --hash sha256 -o " + test::sh_quote(out) + " " +
      test::sh_quote(file) + " -i ";
  const auto written = test::run_shell(proof_command + "7");
  CHECK(written.status == 0);
  CHECK(written.out.empty());
  const auto t =
      merklize::reference_tree(leaves.data(), leaves.size(), {merklize::hash_kind::sha256});
  const std::string proof = test::slurp(out);
  CHECK(merklize::inclusion_proof_from_json(proof) == merklize::prove(t, 7));
  REQUIRE(proof.size() > 1024);

  // 1 KiB of file size allowed: the new proof cannot be written; the old one stays whole.
  const auto limited = test::run_shell("ulimit -f 1; trap '' XFSZ; " + proof_command + "9");
  CHECK(limited.status == 1);
  CHECK(limited.err == "merklize: cannot write \"" + out + "\": File too large\n");
  CHECK(test::slurp(out) == proof);
  for (const auto &entry : test::fs::directory_iterator(test::scratch_dir()))
    CHECK_THAT(entry.path().filename().string(), !StartsWith("proof.json.tmp"));

  // A folder in the way: the temporary file is removed too.
  const auto folder = test::run_program(
      {MERKLIZE_CLI, "proof", "-i", "1", "-o", test::scratch_dir().string(), file});
  CHECK(folder.status == 1);
  CHECK_THAT(folder.err, Contains("Is a directory"));
  for (const auto &entry : test::fs::directory_iterator(test::scratch_dir().parent_path()))
    CHECK_THAT(entry.path().filename().string(),
               !StartsWith(test::scratch_dir().filename().string() + ".tmp"));
}

TEST_CASE("merklize reports a failed write of stdout with exit status 1", "[cli][conventions]") {
  const auto file = test::sh_quote(test::write_file("four", test::random_bytes(4 * 32)).string());
  const std::string M = test::merklize_word();
  for (const std::string &command :
       std::vector<std::string>{"root " + file, "proof -i 1 " + file, "b3sum " + file, "devices",
                                "--help", "--version"}) {
    INFO("merklize " << command << " >/dev/full");
    const auto r = test::run_shell(M + " " + command + " >/dev/full");
    CHECK(r.status == 1);
    CHECK_THAT(r.err, Contains("cannot write stdout: No space left on device"));
  }
}

TEST_CASE("merklize names what it was doing when memory runs out", "[cli][conventions]") {
  // root and proof stream their input; several devices build from leaves read whole.
  const auto sparse = test::sparse_file("sparse-4g", std::uint64_t(4) << 30).string();
  const auto r = test::run_shell("ulimit -v 1000000; " + test::merklize_word() +
                                 " root --devices 0:0 " + test::sh_quote(sparse));
  CHECK(r.status == 1);
  CHECK(r.err ==
        "merklize: out of memory while reading \"" + sparse + "\" (4294967296 bytes, 4.0 GiB)\n");
}
