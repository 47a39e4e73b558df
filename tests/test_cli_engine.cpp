// SPDX-License-Identifier: Apache-2.0 OR MIT
// merklize root's engines: --device host (the host engine) gives the device's roots at awkward
// sizes, shapes and hashes, from a file and from stdin through pipes of awkward sizes and a slow
// writer; a pipe closed mid-leaf is a clear error; --device auto says which engine it chose and
// why; --verbose splits the time by phase; the host engine refuses trees it cannot build.
#include "cli_helpers.hpp"
#include "helpers.hpp"

#include <catch2/catch.hpp>

namespace {

using test::merklize_word;
using test::run_shell;
using test::sh_quote;

// The output of `merklize root ARGS` run by sh, stdin from `input` (a shell command) if given.
test::run_result root(const std::string &args, const std::string &input = "") {
  const std::string command = merklize_word() + " root " + args;
  return run_shell(input.empty() ? command : input + " | " + command);
}

const std::uint64_t block = 1 << 15; // the host engine's block of leaves

} // namespace

TEST_CASE("merklize root --device host gives the device's roots", "[cli][host]") {
  const std::uint64_t n = GENERATE_COPY(1, 2, 3, 255, 256, 257, block - 1, block + 1);
  const auto file = sh_quote(test::write_file("host_leaves", test::random_bytes(32 * n)).string());
  for (const std::string tree :
       {"--hash sha256", "--hash sha256 --pad zero", "--hash sha256 --pad zero --depth 17",
        "--hash rfc6962", "--hash blake3"}) {
    INFO(n << " leaves, " << tree);
    const auto device = root(tree + " --device cpu " + file);
    REQUIRE(device.status == 0);
    CHECK(root(tree + " --device host " + file).out == device.out);
    CHECK(root(tree + " --device host -", "cat " + file).out == device.out);
  }
}

TEST_CASE("merklize root --format, --leaf-size and b3sum: the host engine's output is the device's",
          "[cli][host][blocks]") {
  const std::uint64_t size = GENERATE(1, 4095, 4096, 4097, 129 * 4096 + 1, (3 << 20) + 4096);
  const auto path = test::write_file("host_blocks", test::random_bytes(size));
  const auto file = sh_quote(path.string());
  const std::string out = sh_quote((test::scratch_dir() / "host_blocks.out").string());
  const std::string salt = " --salt " + std::string(64, '5');
  std::vector<std::string> tasks = {"root --format fs-verity --tree-output " + out,
                                    "root --format fs-verity --block-size 1024 --salt 0102",
                                    "root --format bao-outboard --outboard " + out,
                                    "root --leaf-size 4096 --hash sha256",
                                    "root --leaf-size 512 --hash blake3 --pad zero",
                                    "root --leaf-size 1024 --hash keccak256",
                                    "root --hash sha3-256",
                                    "b3sum --length 100"};
  if (size % 4096 == 0) {
    tasks.push_back("root --format dm-verity --no-superblock --hash-output " + out + salt);
    tasks.push_back("root --format dm-verity --uuid 6d65726b-6c69-4a65-8000-62656e636821"
                    " --hash-output " +
                    out + salt);
  }
  for (const std::string &task : tasks) {
    if (task == "root --hash sha3-256" && size % 32) continue;
    INFO(size << " bytes: merklize " << task);
    const auto device = run_shell(merklize_word() + " " + task + " --device cpu " + file);
    REQUIRE(device.status == 0);
    const std::string written = test::slurp(test::scratch_dir() / "host_blocks.out");
    const auto host = run_shell(merklize_word() + " " + task + " --device host " + file);
    CHECK(host.out == device.out);
    CHECK(test::slurp(test::scratch_dir() / "host_blocks.out") == written);
  }
}

TEST_CASE("merklize root - reads pipes of every size and pace as the file", "[cli][host][stdin]") {
  const std::string device = GENERATE(as<std::string>(), "host", "cpu");
  for (const std::uint64_t bytes :
       {std::uint64_t(32), 32 * block - 32, 32 * block, 32 * block + 32, 32 * (3 * block + 1)}) {
    INFO("--device " << device << ", " << bytes << " bytes");
    const auto path = test::write_file("piped", test::random_bytes(bytes)).string();
    const auto want = root("--hash sha256 --device " + device + " " + sh_quote(path));
    REQUIRE(want.status == 0);
    CHECK(root("--hash sha256 --device " + device + " -", "cat " + sh_quote(path)).out == want.out);
    // A slow writer: a first leaf and a half, a pause, then the rest in pieces of 4097 bytes.
    const std::string slow = "{ head -c 48 " + sh_quote(path) + "; sleep 0.2; tail -c +49 " +
                             sh_quote(path) + " | dd bs=4097 status=none; }";
    CHECK(root("--hash sha256 --device " + device + " -", slow).out == want.out);
  }
}

TEST_CASE("merklize root - of an empty or early-closed pipe is a clear error", "[cli][host]") {
  const auto empty = root("--hash sha256 --device host -", "true");
  CHECK(empty.status == 1);
  CHECK_THAT(empty.err, Catch::Contains("stdin") && Catch::Contains("no leaves"));
  const auto log = root("--hash rfc6962 --device host -", "true"); // the empty log has a root
  CHECK(log.status == 0);
  CHECK(log.out == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855\n");
  // The writer stops 5 bytes into a leaf, after more than a block, and closes the pipe.
  const auto cut = root("--hash sha256 --device host -",
                        "head -c " + std::to_string(32 * block + 37) + " /dev/zero");
  CHECK(cut.status == 1);
  CHECK(cut.out.empty());
  CHECK_THAT(cut.err, Catch::Contains("stdin") && Catch::Contains("not a multiple of 32"));
}

TEST_CASE("merklize root --device host refuses what it cannot build", "[cli][host]") {
  const auto file = sh_quote(test::write_file("two", test::random_bytes(64)).string());
  const auto parent = root("--hash blake3-parent --device host " + file);
  CHECK(parent.status == 2);
  CHECK_THAT(parent.err, Catch::Contains("--device host builds --hash blake3, sha256, rfc6962, "
                                         "keccak256 and sha3-256"));
  const auto other = run_shell(merklize_word() + " root --format bitcoin --device host " + file);
  CHECK(other.status == 2);
  CHECK_THAT(other.err, Catch::Contains("--device host (the host engine) does not run this: it "
                                        "runs merklize root (but other systems' commitments)"));
}

TEST_CASE("merklize proof --device host gives the device's proofs", "[cli][host]") {
  const auto file =
      sh_quote(test::write_file("host_proof", test::random_bytes(32 * 40000 + 96)).string());
  for (const std::string &tree : {"--hash sha256", "--hash blake3 --pad zero --depth 20",
                                  "--hash rfc6962 --proof-format ct", "--ssz-list 100000"})
    for (const std::string index : {"0", "32768", "40002"}) {
      INFO(tree << " -i " << index);
      const std::string proof = merklize_word() + " proof -i " + index + " " + tree + " ";
      const auto host = run_shell(proof + "--device host " + file);
      const auto device = run_shell(proof + "--device default " + file);
      CHECK(host.status == 0);
      CHECK_FALSE(host.out.empty());
      CHECK(host.out == device.out);
      CHECK(run_shell("cat " + file + " | " + proof + "--device host -").out == device.out);
    }
  const auto past = run_shell(merklize_word() + " proof -i 40003 --device host " + file);
  CHECK(past.status == 1);
  CHECK_THAT(past.err, Catch::Contains("leaf index 40003 out of range"));
}

TEST_CASE("merklize root --verbose says which engine ran, why, and where the time went",
          "[cli][host]") {
  const auto file = sh_quote(test::write_file("verbose_engine", test::random_bytes(320)).string());
  const auto chosen = root("--hash sha256 --verbose " + file);
  CHECK(chosen.status == 0);
  // 320 bytes: the host engine is done before any device of the table could be, so none is
  // looked for.
  CHECK_THAT(chosen.err, Catch::Contains("engine: host engine: chosen by --device auto") &&
                             Catch::Contains("no device looked for") && Catch::Contains("host (") &&
                             Catch::Contains("phase device discovery and engine choice: ") &&
                             Catch::Contains("phase output written: ") &&
                             Catch::Contains("total: "));
  const auto asked = root("--hash blake3 --device default --verbose " + file);
  CHECK(asked.status == 0);
  CHECK_THAT(asked.err, Catch::Contains("asked for (--device") && Catch::Contains("program: ") &&
                            Catch::Contains("phase context and queues (merkleizer): ") &&
                            Catch::Contains("of which programs "));
  CHECK(root("--hash sha256 --device auto " + file).out == chosen.out);
  // A pipe is taken as large: with no records of this machine's devices, and its programs in the
  // cache, a GPU of the tuning table would finish 1 GiB of sha256 nodes first, so the device is
  // opened.
  const auto no_records = test::scratch_dir() / "verbose_engine_cache";
  std::filesystem::create_directories(no_records);
  const std::string piped_root = "cat " + file +
                                 " | MERKLIZE_CACHE_DIR=" + sh_quote(no_records.string()) + " " +
                                 merklize_word() + " root --hash sha256 --verbose -";
  const auto first = run_shell(piped_root);
  CHECK(first.out == chosen.out);
  CHECK_THAT(first.err, Catch::Contains("chosen by --device auto for 1073741824 bytes") &&
                            Catch::Contains("a device's programs compiled first"));
  test::write_text("verbose_engine_cache/merkle-sha256-wg16-lanes1-a.bin", "");
  const auto piped = run_shell(piped_root);
  CHECK(piped.out == chosen.out);
  CHECK_THAT(piped.err, Catch::Contains("chosen by --device auto for 1073741824 bytes") &&
                            Catch::Contains("not before the tuning table's fastest device") &&
                            !Catch::Contains("compiled first") && Catch::Contains("host ("));
}

TEST_CASE("merklize root --device auto: a first use on an empty cache goes where the compile is "
          "not paid",
          "[cli][host]") {
  // 4 MiB of BLAKE3 leaves of 4 KiB blocks: PoCL's kernels would outrun the host's portable
  // BLAKE3 once compiled, but their compile (seconds) exceeds the host engine's whole run.
  const auto file = sh_quote(test::write_file("first_use", test::random_bytes(4 << 20)).string());
  const auto dir = test::scratch_dir() / "first_use_cache";
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  const auto run = run_shell("MERKLIZE_CACHE_DIR=" + sh_quote(dir.string()) + " " +
                             merklize_word() + " root --leaf-size 4096 --verbose " + file);
  CHECK(run.status == 0);
  CHECK_THAT(run.err, Catch::Contains("engine: host engine: chosen by --device auto") &&
                          Catch::Contains("a device's programs compiled first") &&
                          !Catch::Contains("compiling kernels"));
  CHECK(run.out == root("--leaf-size 4096 --device host " + file).out);
}

TEST_CASE("merklize root --device auto trusts the devices this machine ran, while they are current",
          "[cli][host]") {
  const auto file = sh_quote(test::write_file("recorded_engine", test::random_bytes(320)).string());
  const auto dir = test::scratch_dir() / "recorded_engine_cache";
  std::filesystem::create_directories(dir);
  test::write_text("recorded_engine_cache/engine-start-slow_device.ms",
                   "0.001 0.000001 0.000001 0.000001 0.000001\n");
  // Its programs are in the cache: no first compile weighs against a device.
  test::write_text("recorded_engine_cache/merkle-sha256-wg16-lanes1-a.bin", "");
  const std::string env = "MERKLIZE_CACHE_DIR=" + sh_quote(dir.string()) + " ";
  const std::string record = sh_quote((dir / "engine-start-slow_device.ms").string());
  const std::string piped = "cat " + file + " | " + env + merklize_word() +
                            " root --hash sha256 --verbose -"; // a pipe: weighed as 1 GiB
  // A device that starts at once but crawls: the host engine finishes first, and since that
  // device is all this machine has run, none is looked for, where the table's GPU row would be.
  const auto trusted = run_shell(piped);
  CHECK(trusted.status == 0);
  CHECK_THAT(trusted.err, Catch::Contains("before every device of the 1 this machine ran") &&
                              Catch::Contains("no device looked for"));
  // A record older than the OpenCL drivers (one may have been installed since), or one without
  // every rate, says nothing of the machine's devices: the table decides, and opens the device.
  for (const std::string &stale : std::vector<std::string>{
           "touch -d 2000-01-01 " + record, "echo 0.001 0.000001 0.000001 > " + record}) {
    CHECK(run_shell(stale).status == 0);
    const auto looked = run_shell(piped);
    CHECK(looked.out == trusted.out);
    CHECK_THAT(looked.err, !Catch::Contains("no device looked for") &&
                               Catch::Contains("no records of this machine's"));
  }
}
