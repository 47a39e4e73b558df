// SPDX-License-Identifier: Apache-2.0 OR MIT
// Ahead-of-time kernels (`make aot`, built into MERKLIZE_AOT_DIR by the merklize_aot target):
// the files of every program variant, SPIR-V that spirv-val accepts, the same trees as the JIT
// path, and a fallback with a warning and correct trees for every damaged or stale artifact.
#include "program_helpers.hpp"

#include <catch2/catch.hpp>

#include <cstdio>
#include <set>

using merklize::program_form;
using test::contains;
namespace fs = std::filesystem;

namespace {

const fs::path aot_dir = MERKLIZE_AOT_DIR;

// What the program prints on stdout, and its exit status.
std::pair<int, std::string> run(const std::string &command) {
  std::string out;
  FILE *pipe = ::popen((command + " 2>&1").c_str(), "r");
  REQUIRE(pipe);
  char buffer[4096];
  while (std::size_t got = std::fread(buffer, 1, sizeof buffer, pipe))
    out.append(buffer, got);
  const int status = ::pclose(pipe);
  return {WIFEXITED(status) ? WEXITSTATUS(status) : -1, out};
}

std::string quoted(const fs::path &path) { return "'" + path.string() + "'"; }

// The form the test device should load ahead-of-time kernels in (jit where it takes none).
program_form best_aot_form() {
  const auto forms = merklize::aot_forms(test::test_device());
  return forms.empty() ? program_form::jit : forms.front();
}

std::vector<unsigned char> text_bytes(const std::string &text) {
  return std::vector<unsigned char>(text.begin(), text.end());
}

} // namespace

TEST_CASE("merklize-aot wrote every program variant", "[aot]") {
  std::set<std::string> names;
  for (const auto &spec : merklize::detail::all_program_specs()) {
    INFO("program " << spec.name);
    CHECK(!spec.name.empty());
    CHECK(names.insert(spec.name).second);
    for (const char *extension : {".cl", ".bc", ".spv", ".meta"})
      CHECK(fs::exists(aot_dir / (spec.name + extension)));
    const auto source = merklize::detail::read_file(aot_dir / (spec.name + ".cl"));
    CHECK(std::string(source.begin(), source.end()) ==
          merklize::detail::kernel_program_source(spec.files));
  }
  std::string listed;
  for (const auto &name : names)
    listed += name + "\n";
  const auto list = run(std::string("'") + MERKLIZE_AOT_TOOL + "' --list");
  CHECK(list.first == 0);
  std::istringstream lines(list.second);
  std::set<std::string> printed;
  for (std::string line; std::getline(lines, line);)
    printed.insert(line);
  CHECK(printed == names);
}

TEST_CASE("merklize-aot names the Debian package of a missing compiler", "[aot]") {
  const test::scratch_folder out("aot-out");
  const auto r = run(std::string("'") + MERKLIZE_AOT_TOOL + "' --clang no-such-clang-xyz " +
                     quoted(out.path()));
  CHECK(r.first == 1);
  CHECK(contains(r.second, "install the Debian package clang-14"));
}

TEST_CASE("every SPIR-V module is valid and imports only OpenCL built-ins", "[aot][spirv]") {
  const std::string spirv_val = MERKLIZE_SPIRV_VAL;
  if (spirv_val.empty() || std::string(MERKLIZE_SPIRV_DIS).empty())
    FAIL("spirv-val or spirv-dis not found: install the Debian package spirv-tools (`make aot` "
         "does)");
  for (const auto &spec : merklize::detail::all_program_specs()) {
    const auto spv = aot_dir / (spec.name + ".spv");
    INFO(spv);
    for (const char *env : {"opencl1.2", "opencl2.1"}) {
      const auto r = run("'" + spirv_val + "' --target-env " + env + " " + quoted(spv));
      INFO(env << ": " << r.second);
      CHECK(r.first == 0);
    }
    // A function the module only declares (such as a C99 `inline` one that clang did not
    // inline) would fail to link on the device; the built-in variables are the only imports.
    const auto dis = run(std::string("'") + MERKLIZE_SPIRV_DIS + "' " + quoted(spv));
    REQUIRE(dis.first == 0);
    std::istringstream lines(dis.second);
    for (std::string line; std::getline(lines, line);)
      if (contains(line, "LinkageAttributes") && contains(line, "Import"))
        CHECK_THAT(line, Catch::Matchers::Contains("\"__spirv_"));
  }
}

TEST_CASE("ahead-of-time kernels give the same trees as JIT", "[aot]") {
  const auto hash = GENERATE(merklize::hash_kind::blake3, merklize::hash_kind::blake3_parent);
  const auto pad = GENERATE(merklize::shape::promote, merklize::shape::zero);
  const merklize::tree_options tree{hash, pad};
  const auto leaves = test::random_bytes(1000 * 32);
  std::vector<std::uint8_t> jit_nodes;
  {
    const test::program_settings settings("", "");
    auto jit = test::fresh_merkleizer(tree);
    REQUIRE(jit.program_form() == program_form::jit);
    jit_nodes = test::device_tree(jit, leaves);
  }
  const test::program_settings settings(aot_dir.string(), "");
  auto aot = test::fresh_merkleizer(tree);
  CHECK(aot.program_form() == best_aot_form());
  CHECK(test::device_tree(aot, leaves) == jit_nodes);
  CHECK(test::tree_mismatch(aot).empty());
  CHECK(settings.warnings().empty());
}

TEST_CASE("a damaged or stale ahead-of-time kernel falls back to JIT", "[aot]") {
  if (best_aot_form() == program_form::jit) {
    WARN("not checked: the test device loads no ahead-of-time form");
    return;
  }
  const test::scratch_folder copy("aot-copy");
  fs::copy(aot_dir, copy.path());
  const auto spec = test::level_spec({merklize::hash_kind::blake3});
  const auto other = test::level_spec({merklize::hash_kind::blake3_parent});
  const auto artifact = merklize::detail::aot_artifact(copy.path(), spec, best_aot_form());
  const auto meta = merklize::detail::aot_file(copy.path(), spec, ".meta");
  auto bytes = merklize::detail::read_file(artifact);
  std::string expected_warning;
  SECTION("a byte flipped") {
    bytes[bytes.size() / 2] ^= 0x10;
    test::write_bytes(artifact, bytes);
    expected_warning = "corrupt";
  }
  SECTION("truncated") {
    bytes.resize(bytes.size() / 2);
    test::write_bytes(artifact, bytes);
    expected_warning = "corrupt";
  }
  SECTION("missing") {
    fs::remove(artifact);
    expected_warning = "cannot open";
  }
  SECTION("the kernels of another program, with their own meta file") {
    for (const char *extension : {".bc", ".spv", ".meta"})
      fs::copy_file(merklize::detail::aot_file(copy.path(), other, extension),
                    merklize::detail::aot_file(copy.path(), spec, extension),
                    fs::copy_options::overwrite_existing);
    expected_warning = "stale";
  }
  SECTION("built from other kernel source") {
    auto text = merklize::detail::read_file(meta);
    std::string edited(text.begin(), text.end());
    const auto at = edited.find("\nsource ") + 8;
    edited.replace(at, 64, merklize::detail::source_hash("an older kernel", spec.options));
    test::write_bytes(meta, text_bytes(edited));
    expected_warning = "stale";
  }
  SECTION("a meta file of another format") {
    test::write_bytes(meta, text_bytes("something else\n"));
    expected_warning = "does not start with";
  }
  SECTION("garbage that its meta file vouches for") {
    test::write_bytes(artifact, test::random_bytes(4096));
    merklize::detail::write_aot_meta(copy.path(), spec);
    expected_warning = "clCreateProgramWithBinary";
  }
  const test::program_settings settings(copy.str(), "");
  auto m = test::fresh_merkleizer();
  CHECK(m.program_form() == program_form::jit);
  CHECK(test::tree_mismatch(m).empty());
  INFO(settings.all_warnings());
  CHECK(contains(settings.all_warnings(), "ahead-of-time kernel merkle-blake3"));
  CHECK(contains(settings.all_warnings(), expected_warning));
}

TEST_CASE("SPIR-V translated back to bitcode builds the same trees", "[aot][spirv]") {
  const auto hash = GENERATE(merklize::hash_kind::blake3, merklize::hash_kind::blake3_parent);
  const auto pad = GENERATE(merklize::shape::promote, merklize::shape::zero);
  if (best_aot_form() != program_form::spir_bitcode) {
    WARN("not checked: the test device does not load SPIR bitcode alone");
    return;
  }
  // No device here loads SPIR-V, so its content is checked this way round: llvm-spirv turns
  // each module back into LLVM bitcode, which the device loads as SPIR.
  const test::scratch_folder round_trip("spirv-round-trip");
  for (const auto &spec : merklize::detail::all_program_specs()) {
    const auto spv = merklize::detail::aot_file(round_trip.path(), spec, ".spv");
    fs::copy_file(aot_dir / (spec.name + ".spv"), spv);
    const auto r = run(std::string("'") + MERKLIZE_LLVM_SPIRV + "' -r " + quoted(spv) + " -o " +
                       quoted(merklize::detail::aot_file(round_trip.path(), spec, ".bc")));
    INFO(r.second);
    REQUIRE(r.first == 0);
    merklize::detail::write_aot_meta(round_trip.path(), spec);
  }
  const test::program_settings settings(round_trip.str(), "");
  auto m = test::fresh_merkleizer({hash, pad});
  CHECK(m.program_form() == program_form::spir_bitcode);
  CHECK(test::tree_mismatch(m).empty());
  CHECK(settings.warnings().empty());
}

TEST_CASE("a program built ahead of time is cached, then loaded from the cache", "[aot][cache]") {
  const test::scratch_folder cache("aot-cache");
  const test::program_settings settings(aot_dir.string(), cache.str());
  auto first = test::fresh_merkleizer();
  CHECK(first.program_form() == best_aot_form());
  auto second = test::fresh_merkleizer();
  CHECK(second.program_form() == program_form::cache);
  CHECK(test::tree_mismatch(second).empty());
  CHECK(settings.warnings().empty());
}
