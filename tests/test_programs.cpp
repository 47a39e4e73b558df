// Where programs come from without ahead-of-time kernels: compiled once per context, and the
// disk cache, which is hit on a second build and falls back to compiling, with a warning and
// correct trees, whenever an entry is damaged, foreign or unwritable.
#include "program_helpers.hpp"

#include <catch2/catch.hpp>

#include <cstdlib>
#include <thread>

using merklize::program_form;
using test::contains;
namespace fs = std::filesystem;

namespace {

const merklize::tree_options parent_tree{merklize::hash_kind::blake3_parent,
                                         merklize::shape::promote};

// The cache entry files in `dir` (temporary files of unfinished writes included).
std::vector<fs::path> entries(const fs::path &dir) {
  return fs::exists(dir) ? test::files_in(dir) : std::vector<fs::path>{};
}

struct cache_entry_name {
  fs::path path;
  std::string key;
};

// Where the disk cache keeps the program of `tree` for the test device.
cache_entry_name entry_of(const test::scratch_folder &cache, merklize::tree_options tree = {}) {
  using namespace merklize::detail;
  const auto spec = test::level_spec(tree);
  const auto key =
      cache_key(kernel_program_source(spec.files), spec.options, identity_of(test::test_device()));
  return {cache_entry_path(cache.path(), spec, key), key};
}

// Fills the cache with the program of `tree` and returns its entry.
fs::path cached_entry(const test::scratch_folder &cache, merklize::tree_options tree = {}) {
  auto m = test::fresh_merkleizer(tree);
  REQUIRE(m.program_form() == program_form::jit);
  const auto entry = entry_of(cache, tree).path;
  REQUIRE(fs::exists(entry));
  return entry;
}

} // namespace

TEST_CASE("a program is built once per context", "[programs]") {
  const test::program_settings settings("", "");
  auto &cache = merklize::detail::program_cache::instance();
  const cl::Context context(test::test_device());
  const std::size_t before = cache.builds();
  merklize::merkleizer first(context, test::test_device());
  CHECK(first.program_form() == program_form::jit);
  CHECK(cache.builds() == before + 1);
  merklize::merkleizer second(context, test::test_device());
  CHECK(second.program_form() == program_form::jit);
  CHECK(cache.builds() == before + 1);
  CHECK(test::tree_mismatch(second).empty());
  CHECK(settings.warnings().empty());
}

TEST_CASE("program forms have the names the CLI prints", "[programs]") {
  CHECK(std::string(merklize::to_string(program_form::jit)) == "jit");
  CHECK(std::string(merklize::to_string(program_form::spirv)) == "spirv");
  CHECK(std::string(merklize::to_string(program_form::spir_bitcode)) == "spir-bitcode");
  CHECK(std::string(merklize::to_string(program_form::cache)) == "cache");
}

TEST_CASE("the folders come from the API, else from the environment", "[programs]") {
  ::setenv("MERKLIZE_KERNEL_DIR", "/from/env/kernels", 1);
  ::setenv("MERKLIZE_CACHE_DIR", "/from/env/cache", 1);
  merklize::set_kernel_dir(std::nullopt);
  merklize::set_cache_dir(std::nullopt);
  CHECK(merklize::kernel_dir() == "/from/env/kernels");
  CHECK(merklize::cache_dir() == "/from/env/cache");
  {
    const test::program_settings settings("/from/api", "");
    CHECK(merklize::kernel_dir() == "/from/api");
    CHECK(merklize::cache_dir().empty());
  }
  CHECK(merklize::kernel_dir() == "/from/env/kernels");
  ::unsetenv("MERKLIZE_KERNEL_DIR");
  ::unsetenv("MERKLIZE_CACHE_DIR");
  CHECK(merklize::kernel_dir().empty());
  CHECK(merklize::cache_dir().empty());
}

TEST_CASE("PoCL loads SPIR bitcode and no SPIR-V", "[programs][pocl]") {
  const auto platform = cl::Platform(
      merklize::detail::device_info<CL_DEVICE_PLATFORM, cl_platform_id>(test::test_device()));
  if (!contains(platform.getInfo<CL_PLATFORM_NAME>(), "Portable Computing Language")) {
    WARN("not checked: the test device is not PoCL's");
    return;
  }
  CHECK(merklize::detail::il_versions(test::test_device()).empty());
  CHECK(merklize::aot_forms(test::test_device()) ==
        std::vector<program_form>{program_form::spir_bitcode});
}

TEST_CASE("a kernel folder without the program's kernels warns and compiles", "[programs]") {
  const test::scratch_folder empty("no-kernels");
  const test::program_settings settings(empty.str(), "");
  auto m = test::fresh_merkleizer();
  CHECK(m.program_form() == program_form::jit);
  CHECK(test::tree_mismatch(m).empty());
  if (merklize::aot_forms(test::test_device()).empty())
    CHECK(settings.warnings().empty()); // the device loads no ahead-of-time form: nothing to say
  else
    CHECK(contains(settings.all_warnings(), test::level_spec().name + ".meta"));
}

TEST_CASE("the disk cache is written on the first build and hit on the second", "[cache]") {
  const auto tree = GENERATE(merklize::tree_options{}, parent_tree);
  const test::scratch_folder cache("cache");
  const test::program_settings settings("", cache.str());
  const auto entry = cached_entry(cache, tree);
  auto second = test::fresh_merkleizer(tree);
  CHECK(second.program_form() == program_form::cache);
  CHECK(test::tree_mismatch(second).empty());
  CHECK(entries(cache.path()) == std::vector<fs::path>{entry});
  CHECK(settings.warnings().empty());
}

TEST_CASE("a damaged or foreign cache entry falls back to compiling", "[cache]") {
  const test::scratch_folder cache("cache");
  const test::program_settings settings("", cache.str());
  const auto entry = cached_entry(cache);
  auto bytes = merklize::detail::read_file(entry);
  std::string expected_warning;
  SECTION("truncated") {
    bytes.resize(bytes.size() / 2);
    expected_warning = "truncated";
  }
  SECTION("a payload byte flipped") {
    bytes[bytes.size() - 100] ^= 0x01;
    expected_warning = "corrupt";
  }
  SECTION("empty") {
    bytes.clear();
    expected_warning = "not a merklize program cache entry";
  }
  SECTION("the entry of another program under this one's name") {
    bytes = merklize::detail::read_file(cached_entry(cache, parent_tree));
    expected_warning = "another program's binary";
  }
  SECTION("a well-formed entry whose binary the driver refuses") {
    bytes = merklize::detail::cache_entry(entry_of(cache).key, test::random_bytes(4096));
    // PoCL refuses it in clCreateProgramWithBinary, NVIDIA only in clBuildProgram.
    expected_warning = "not used: cl";
  }
  test::write_bytes(entry, bytes);
  auto m = test::fresh_merkleizer();
  CHECK(m.program_form() == program_form::jit);
  CHECK(test::tree_mismatch(m).empty());
  INFO(settings.all_warnings());
  CHECK(contains(settings.all_warnings(), expected_warning));
  CHECK(contains(settings.all_warnings(), entry.string()));
  auto rewritten = test::fresh_merkleizer();
  CHECK(rewritten.program_form() == program_form::cache);
  CHECK(test::tree_mismatch(rewritten).empty());
}

TEST_CASE("the cache key covers source, options, platform, device and driver", "[cache]") {
  using merklize::detail::cache_key;
  const auto id = merklize::detail::identity_of(test::test_device());
  const std::string source = "kernel source", options = "-DX=1";
  const auto key = cache_key(source, options, id);
  CHECK(key.size() == 64);
  CHECK(cache_key(source, options, id) == key);
  CHECK(cache_key(source + " ", options, id) != key);
  CHECK(cache_key(source, options + " ", id) != key);
  for (auto field :
       {&merklize::detail::device_identity::platform,
        &merklize::detail::device_identity::platform_version,
        &merklize::detail::device_identity::device, &merklize::detail::device_identity::vendor,
        &merklize::detail::device_identity::device_version,
        &merklize::detail::device_identity::driver_version}) {
    auto other = id;
    CHECK(!(other.*field).empty());
    (other.*field) += "+1";
    CHECK(cache_key(source, options, other) != key);
  }
}

TEST_CASE("a cache folder that cannot be written warns and still builds", "[cache]") {
  const test::scratch_folder scratch("unwritable");
  const auto not_a_folder = scratch.path() / "file";
  test::write_bytes(not_a_folder, {1, 2, 3});
  const test::program_settings settings("", not_a_folder.string());
  auto m = test::fresh_merkleizer();
  CHECK(m.program_form() == program_form::jit);
  CHECK(test::tree_mismatch(m).empty());
  CHECK(contains(settings.all_warnings(), "cannot store the program in the cache"));
}

TEST_CASE("builds sharing a cache folder leave only whole entries", "[cache][threads]") {
  const test::scratch_folder cache("shared-cache");
  const test::program_settings settings("", cache.str());
  std::vector<std::string> mismatches(4);
  std::vector<std::thread> threads;
  for (std::size_t t = 0; t < mismatches.size(); ++t)
    threads.emplace_back([&mismatches, t] {
      auto m = test::fresh_merkleizer();
      mismatches[t] = test::tree_mismatch(m);
    });
  for (auto &t : threads)
    t.join();
  for (const auto &mismatch : mismatches)
    CHECK(mismatch.empty());
  const auto entry = entry_of(cache);
  CHECK(entries(cache.path()) == std::vector<fs::path>{entry.path}); // no temporary file left
  CHECK_NOTHROW(
      merklize::detail::cache_payload(merklize::detail::read_file(entry.path), entry.key));
  CHECK(settings.warnings().empty());
}
