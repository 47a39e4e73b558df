// SPDX-License-Identifier: Apache-2.0 OR MIT
// The merklize command-line tool, run as a user would: roots of the vector cases on stdout and
// nothing else, clear messages and non-zero exits for bad input.
#include "helpers.hpp"
#include "process.hpp"

#include <catch2/catch.hpp>

#include <cstdlib>

namespace fs = std::filesystem;

namespace {

using test::run_result;
using test::scratch_dir;
using test::write_file;

run_result run(const std::string &args, const std::string &stdin_file = "") {
  const fs::path out = scratch_dir() / "stdout", err = scratch_dir() / "stderr";
  std::string command = std::string("\"") + MERKLIZE_CLI + "\" " + args + " >\"" + out.string() +
                        "\" 2>\"" + err.string() + "\"";
  if (!stdin_file.empty()) command += " <\"" + stdin_file + "\"";
  const int raw = std::system(command.c_str());
  return {WIFEXITED(raw) ? WEXITSTATUS(raw) : -1, test::slurp(out), test::slurp(err)};
}

} // namespace

TEST_CASE("merklize root prints the vector roots and nothing else", "[cli]") {
  for (const auto &c : test::merkle_vectors()["cases"].items) {
    const auto hash = c["hash"].str;
    if (c["n"].u64() > 4096) continue;
    const auto file =
        write_file("leaves", test::counting_leaves(c["n"].u64(), merklize::parse_hash_kind(hash)));
    INFO(hash << " " << c["pad"].str << " n=" << c["n"].u64());
    const auto r =
        run("root --hash " + hash + " --pad " + c["pad"].str + " \"" + file.string() + "\"");
    CHECK(r.status == 0);
    CHECK(r.out == c["root"].str + "\n");
    CHECK(r.err.empty());
  }
}

TEST_CASE("merklize root defaults to blake3 promote and reads stdin", "[cli]") {
  const auto leaves = test::random_bytes(1000 * 32);
  const auto file = write_file("random", leaves);
  const auto expected =
      merklize::to_hex(merklize::reference_tree(leaves.data(), leaves.size(), {}).root()) + "\n";
  CHECK(run("root \"" + file.string() + "\"").out == expected);
  CHECK(run("root -", file.string()).out == expected);
}

TEST_CASE("merklize root --depth gives the root of the leaves padded to 2^D", "[cli][depth]") {
  const auto leaves = test::random_bytes(5 * 32);
  const auto file = write_file("five", leaves);
  auto padded = leaves;
  padded.resize(1024 * 32, 0);
  const auto expected =
      merklize::reference_tree(padded.data(), padded.size(), {merklize::hash_kind::sha256});
  const auto r = run("root --hash sha256 --pad zero --depth 10 \"" + file.string() + "\"");
  CHECK(r.status == 0);
  CHECK(r.out == merklize::to_hex(expected.root()) + "\n");
}

TEST_CASE("merklize root rejects bad input with a message and a non-zero status", "[cli]") {
  const auto empty = write_file("empty", {});
  const auto partial = write_file("partial", test::random_bytes(65));
  const auto good = write_file("good", test::random_bytes(64));
  struct bad {
    std::string args, message;
    int status; // 1 a failure, 2 a mistake in the command line
  } cases[] = {
      {"root \"" + empty.string() + "\"", "N = 0", 1},
      {"root \"" + partial.string() + "\"", "65 bytes, not a multiple of 32", 1},
      {"root \"" + (scratch_dir() / "missing").string() + "\"", "cannot open", 1},
      {"root --device no-such-device-xyz \"" + good.string() + "\"", "unknown device", 1},
      {"root --hash md5 \"" + good.string() + "\"", "unknown hash", 2},
      {"root --pad left \"" + good.string() + "\"", "unknown shape", 2},
      {"root --bogus 1 \"" + good.string() + "\"", "unknown option \"--bogus\"", 2},
      {"root --pad zero --depth x \"" + good.string() + "\"", "--depth takes a whole number", 2},
      {"root --pad zero --depth 0 \"" + good.string() + "\"", "cannot hold 2 leaves", 1},
      // A depth without shape zero is a mistake in the command line, found before any input.
      {"root --depth 3 \"" + good.string() + "\"", "--depth 3 needs --pad zero", 2},
      {"root --hash rfc6962 --pad zero \"" + good.string() + "\"", "shape promote only", 2},
      {"root", "FILE is required", 2},
      {"frobnicate", "unknown command", 2},
      {"", "no command", 2},
  };
  for (const auto &c : cases) {
    INFO("merklize " << c.args);
    const auto r = run(c.args);
    CHECK(r.status == c.status);
    CHECK(r.out.empty());
    CHECK_THAT(r.err, Catch::Matchers::Contains(c.message));
  }
}

TEST_CASE("merklize devices lists the selectable devices", "[cli]") {
  const auto r = run("devices");
  CHECK(r.status == 0);
  for (const auto &e : merklize::list_devices())
    CHECK_THAT(r.out, Catch::Matchers::Contains(e.spec() + "  " + e.device_name));
}

TEST_CASE("MERKLIZE_DEVICE picks the device, and an unknown one is an error", "[cli][device]") {
  const auto good = write_file("two", test::random_bytes(64));
  const auto devices = merklize::list_devices();
  REQUIRE(!devices.empty());
  const auto ok = run("root \"" + good.string() + "\"");
  CHECK(::setenv("MERKLIZE_DEVICE", devices.front().spec().c_str(), 1) == 0);
  CHECK(run("root \"" + good.string() + "\"").out == ok.out);
  CHECK(::setenv("MERKLIZE_DEVICE", "no-such-device-xyz", 1) == 0);
  const auto bad = run("root \"" + good.string() + "\"");
  CHECK(bad.status != 0);
  CHECK_THAT(bad.err, Catch::Matchers::Contains("MERKLIZE_DEVICE"));
  ::unsetenv("MERKLIZE_DEVICE");
}

TEST_CASE("merklize root --devices builds over several devices", "[cli][multi]") {
  std::string spec;
  for (const auto &e : merklize::list_devices())
    if (e.device() == merklize::default_device()()) spec = e.spec();
  REQUIRE(!spec.empty());
  const auto leaves = test::random_bytes(1000 * 32);
  const auto file = "\"" + write_file("multi", leaves).string() + "\"";
  const auto expected =
      merklize::to_hex(merklize::reference_tree(leaves.data(), leaves.size(), {}).root()) + "\n";
  for (const auto &devices : {spec + "," + spec, spec + "," + spec + "," + spec}) {
    const auto r = run("root --devices " + devices + " --shard-log2 5 " + file);
    CHECK(r.status == 0);
    CHECK(r.out == expected);
    CHECK(r.err.empty());
  }
  CHECK(run("root --devices " + spec + "," + spec + " --shard-log2 1 " + file).out ==
        expected); // S = 1: shards of 2 leaves, 0 being refused
  const auto depth = run("root --hash sha256 --pad zero --depth 12 " + file).out;
  CHECK(run("root --hash sha256 --pad zero --depth 12 --devices " + spec + "," + spec +
            " --shard-log2 3 " + file)
            .out == depth);
  const std::pair<std::string, std::string> bad[] = {
      {"--devices " + spec + ",," + spec, "empty device spec"},
      {"--devices no-such-device-xyz", "unknown device"},
      {"--device " + spec + " --devices " + spec, "--device excludes --devices"},
      {"--verbose --devices " + spec, "--devices excludes --verbose"},
      {"--shard-log2 4", "--shard-log2 requires --devices"},
      {"--devices " + spec + " --shard-log2 x", "--shard-log2 takes a non-negative integer"},
      {"--devices " + spec + " --shard-log2 0", "--shard-log2 takes 1 to 64"},
  };
  for (const auto &[args, message] : bad) {
    INFO("merklize root " << args);
    const auto r = run("root " + args + " " + file);
    CHECK(r.status != 0);
    CHECK(r.out.empty());
    CHECK_THAT(r.err, Catch::Matchers::Contains(message));
  }
}

TEST_CASE("merklize root --verbose says where the program came from and the start-up times",
          "[cli][programs]") {
  const auto file = "\"" + write_file("verbose", test::random_bytes(100 * 32)).string() + "\"";
  const auto root = run("root " + file).out;
  const auto verbose = [&](const std::string &expected_form) {
    const auto r = run("root --device default --verbose " + file);
    CHECK(r.status == 0);
    CHECK(r.out == root);
    // -v says a compile is coming, before it, and says nothing for a program from the cache.
    const std::string notice =
        expected_form == "cache" ? "" : "merklize: compiling kernels for [^\n]*\n";
    CHECK_THAT(r.err,
               Catch::Matchers::Matches(
                   notice + "engine: device .*\nprogram: " + expected_form +
                   ", [1-9][0-9]* programs built in [0-9.]+ ms\n(phase [^\n]*: [0-9.]+ ms[^\n]*\n)+"
                   "phase exit: none [^\n]*\ntotal: [0-9.]+ ms since the process began\n"));
  };
  ::setenv("MERKLIZE_KERNEL_DIR", "", 1);
  ::setenv("MERKLIZE_CACHE_DIR", "", 1);
  verbose("jit");
  ::setenv("MERKLIZE_CACHE_DIR", (scratch_dir() / "program-cache").c_str(), 1);
  verbose("jit");
  verbose("cache");
  ::setenv("MERKLIZE_CACHE_DIR", "", 1);
  if (std::string(MERKLIZE_AOT_DIR).empty()) {
    WARN("ahead-of-time kernels not checked: configure with -DMERKLIZE_AOT=ON");
  } else {
    ::setenv("MERKLIZE_KERNEL_DIR", MERKLIZE_AOT_DIR, 1);
    const auto forms = merklize::aot_forms(test::test_device());
    verbose(forms.empty() ? "jit" : merklize::to_string(forms.front()));
  }
  ::unsetenv("MERKLIZE_KERNEL_DIR");
  ::unsetenv("MERKLIZE_CACHE_DIR");
}

// A first run on a fresh machine compiles every kernel it uses: the compilers' warnings must not
// reach the user (PoCL printed "224 warnings generated." for the 16-lane kernels), and only a
// failed build's log does. No program cache of ours or PoCL's, so each kernel is compiled here.
TEST_CASE("merklize root compiles its kernels without a word on stderr", "[cli][programs]") {
  const auto file = "\"" + write_file("quiet", test::random_bytes(5000 * 32)).string() + "\"";
  ::setenv("MERKLIZE_CACHE_DIR", "", 1);
  ::setenv("POCL_KERNEL_CACHE", "0", 1);
  for (const char *hash : {"blake3", "blake3-parent", "sha256"}) {
    INFO(hash);
    const auto r = run(std::string("root --chunk-log2 10 --hash ") + hash + " " + file);
    CHECK(r.status == 0);
    CHECK(r.out.size() == 65);
    CHECK(r.err.empty());
  }
  const auto b3 = run("b3sum " + file);
  CHECK(b3.status == 0);
  CHECK(b3.err.empty());
  ::unsetenv("POCL_KERNEL_CACHE");
  ::unsetenv("MERKLIZE_CACHE_DIR");
}
