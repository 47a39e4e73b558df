// SPDX-License-Identifier: Apache-2.0 OR MIT
// The known-answer self-test every program runs before it is used (runtime/self_test.hpp): the
// programs give the host's answers; one compiled from a source whose BLAKE3 IV (or SHA-256
// constant) was altered does not, and such a binary in the disk cache or in MERKLIZE_KERNEL_DIR
// (SPIR built as merklize-aot builds it, its meta file consistent) is passed over with a warning
// naming its file, trees and roots stay right, and nothing of it is stored under the source's
// cache key.
#include "helpers.hpp"
#include "process.hpp"
#include "program_helpers.hpp"

#include <merklize/core/reference.hpp>

#include <catch2/catch.hpp>

#include <sstream>

using merklize::program_form;
using test::contains;
namespace fs = std::filesystem;
namespace detail = merklize::detail;

namespace {

// The spec's source with one constant changed: what a compiler that got it wrong builds.
std::string altered_source(const merklize::program_spec &spec, const std::string &constant,
                           const std::string &instead) {
  std::string source = detail::kernel_program_source(spec.files);
  const auto at = source.find(constant);
  REQUIRE(at != std::string::npos);
  source.replace(at, constant.size(), instead);
  return source;
}

const std::string blake3_iv0 = "#define B3_IV0 0x6A09E667u",
                  altered_iv0 = "#define B3_IV0 0x6A09E666u";

cl::Program program_of(const cl::Context &context, const std::string &source,
                       const merklize::program_spec &spec) {
  return detail::build_program(context, test::test_device(), source, spec.options);
}

// The level program built from a source with BLAKE3's first IV word altered, as a binary.
std::vector<unsigned char> altered_level_binary() {
  const auto spec = test::level_spec();
  const cl::Device device = test::test_device();
  return detail::program_binary(
      program_of(cl::Context(device), altered_source(spec, blake3_iv0, altered_iv0), spec), device);
}

fs::path source_entry(const test::scratch_folder &cache) {
  const auto spec = test::level_spec();
  return detail::cache_entry_path(cache.path(), spec,
                                  detail::cache_key(detail::kernel_program_source(spec.files),
                                                    spec.options,
                                                    detail::identity_of(test::test_device())));
}

std::vector<fs::path> files_of(const test::scratch_folder &dir) {
  return test::files_in(dir.path());
}

// Compiles the level program's source (altered or not) to SPIR bitcode in `dir` as merklize-aot
// does, with a SPIR-V file of garbage beside it, and a meta file that vouches for both.
bool write_spir(const test::scratch_folder &dir, const std::string &source) {
  if (std::string(MERKLIZE_TEST_SPIR_CLANG).empty()) return false;
  const auto spec = test::level_spec();
  const fs::path cl = detail::aot_file(dir.path(), spec, ".cl");
  test::write_bytes(cl, std::vector<unsigned char>(source.begin(), source.end()));
  std::vector<std::string> argv{MERKLIZE_TEST_SPIR_CLANG,
                                "-target",
                                "spir64",
                                "-emit-llvm",
                                "-c",
                                "-O2",
                                "-fgnu89-inline",
                                "-Xclang",
                                "-finclude-default-header"};
  std::istringstream options(spec.options);
  for (std::string word; options >> word;)
    argv.push_back(word);
  argv.insert(argv.end(), {"-o", detail::aot_file(dir.path(), spec, ".bc").string(), cl.string()});
  const auto compiled = test::run_program(argv);
  INFO(compiled.err);
  REQUIRE(compiled.status == 0);
  test::write_bytes(detail::aot_file(dir.path(), spec, ".spv"), {1, 2, 3, 4});
  detail::write_aot_meta(dir.path(), spec);
  return true;
}

} // namespace

TEST_CASE("programs give the self-test's answers; altered constants do not", "[self-test]") {
  const cl::Device device = test::test_device();
  const cl::Context context(device);
  const auto level = test::level_spec();
  const auto sha = detail::sha256_layer_program();
  const auto source = [](const merklize::program_spec &s) {
    return detail::kernel_program_source(s.files);
  };
  CHECK(!detail::self_test_answers(level).empty());
  CHECK(!detail::self_test_failure(context, device, program_of(context, source(level), level),
                                   level));
  CHECK(!detail::self_test_failure(context, device, program_of(context, source(sha), sha), sha));
  const auto wrong_iv = detail::self_test_failure(
      context, device, program_of(context, altered_source(level, blake3_iv0, altered_iv0), level),
      level);
  REQUIRE(wrong_iv);
  CHECK(contains(*wrong_iv, "its blake3 node of the test pair is "));
  const auto wrong_k = detail::self_test_failure(
      context, device, program_of(context, altered_source(sha, "0x428a2f98u", "0x428a2f99u"), sha),
      sha);
  REQUIRE(wrong_k);
  CHECK(contains(*wrong_k, "its sha256 node of the test pair is "));
}

TEST_CASE("a cache entry that fails its self-test is replaced, and roots stay right",
          "[self-test][cache]") {
  const test::scratch_folder cache("self-test-cache");
  const auto spec = test::level_spec();
  const fs::path entry = source_entry(cache);
  const auto key = detail::cache_key(detail::kernel_program_source(spec.files), spec.options,
                                     detail::identity_of(test::test_device()));
  const auto bad = detail::cache_entry(key, altered_level_binary()); // checksum and key right
  {
    test::write_bytes(entry, bad);
    const test::program_settings settings("", cache.str());
    auto m = test::fresh_merkleizer();
    CHECK(m.program_form() == program_form::jit);
    CHECK(test::tree_mismatch(m).empty());
    INFO(settings.all_warnings());
    CHECK(contains(settings.all_warnings(), "program cache entry " + entry.string() +
                                                " not used: it fails its self-test: its blake3 "
                                                "node of the test pair is "));
    CHECK(files_of(cache) == std::vector<fs::path>{entry}); // rewritten
    CHECK(detail::read_file(entry) != bad);
  }
  // The command line: the right root, exit status 0, the warning naming the file.
  test::write_bytes(entry, bad);
  const auto leaves = test::random_bytes(1000 * 32);
  const auto file = test::write_file("self-test-leaves", leaves).string();
  const auto r = test::run_program({"/usr/bin/env", "MERKLIZE_CACHE_DIR=" + cache.str(),
                                    "MERKLIZE_KERNEL_DIR=", MERKLIZE_CLI, "root", "--device",
                                    "default", file});
  CHECK(r.status == 0);
  CHECK(r.out ==
        merklize::to_hex(merklize::reference_tree(leaves.data(), leaves.size(), {}).root()) + "\n");
  CHECK(contains(r.err, "merklize: warning: program cache entry " + entry.string() +
                            " not used: it fails its self-test"));
  const auto again = test::run_program({"/usr/bin/env", "MERKLIZE_CACHE_DIR=" + cache.str(),
                                        "MERKLIZE_KERNEL_DIR=", MERKLIZE_CLI, "root", "--device",
                                        "default", file});
  CHECK(again.out == r.out);
  CHECK(again.err.empty());
}

TEST_CASE("ahead-of-time kernels that fail their self-test are passed over, never cached",
          "[self-test][aot][cache]") {
  const test::scratch_folder kernels("self-test-kernels"), cache("self-test-aot-cache");
  const auto spec = test::level_spec();
  if (!write_spir(kernels, altered_source(spec, blake3_iv0, altered_iv0))) {
    WARN("not checked: no clang to compile SPIR with");
    return;
  }
  const fs::path bitcode = detail::aot_file(kernels.path(), spec, ".bc");
  {
    const test::program_settings settings(kernels.str(), cache.str());
    auto m = test::fresh_merkleizer();
    CHECK(m.program_form() == program_form::jit);
    CHECK(test::tree_mismatch(m).empty());
    INFO(settings.all_warnings());
    CHECK(contains(settings.all_warnings(), "ahead-of-time kernel " + spec.name +
                                                " (spir-bitcode, " + bitcode.string() +
                                                ") not used: it fails its self-test"));
  }
  // Only the compiled program is cached, under the source's key.
  CHECK(files_of(cache) == std::vector<fs::path>{source_entry(cache)});
  const test::program_settings settings("", cache.str());
  CHECK(test::fresh_merkleizer().program_form() == program_form::cache);
  CHECK(settings.warnings().empty());
}

TEST_CASE("a program built from ahead-of-time kernels is cached under their key, not the source's",
          "[self-test][aot][cache]") {
  const test::scratch_folder kernels("good-kernels"), cache("good-aot-cache");
  if (!write_spir(kernels, detail::kernel_program_source(test::level_spec().files))) {
    WARN("not checked: no clang to compile SPIR with");
    return;
  }
  {
    const test::program_settings settings(kernels.str(), cache.str());
    CHECK(test::fresh_merkleizer().program_form() == program_form::spir_bitcode);
    CHECK(test::fresh_merkleizer().program_form() == program_form::cache);
    CHECK(settings.warnings().empty());
  }
  const auto stored = files_of(cache);
  REQUIRE(stored.size() == 1);
  CHECK(stored.front() != source_entry(cache));
  // Without the kernel folder, the source's key finds nothing: compiled.
  const test::program_settings settings("", cache.str());
  auto m = test::fresh_merkleizer();
  CHECK(m.program_form() == program_form::jit);
  CHECK(test::tree_mismatch(m).empty());
}
