// SPDX-License-Identifier: Apache-2.0 OR MIT
// Where programs come from without ahead-of-time kernels: compiled once per context, and the
// disk cache, which is hit on a second build and falls back to compiling, with a warning and
// correct trees, whenever an entry is damaged, foreign or unwritable, its folder or an entry is
// not the user's own, or a process died loading an entry.
#include "helpers.hpp"
#include "process.hpp"
#include "program_helpers.hpp"

#include <catch2/catch.hpp>

#include <chrono>
#include <cstdlib>
#include <memory>
#include <set>
#include <thread>

#include <sys/stat.h>
#include <unistd.h>

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

TEST_CASE("callers on several threads load a program once, and other programs beside it",
          "[programs]") {
  const test::program_settings settings("", "");
  auto &cache = merklize::detail::program_cache::instance();
  const cl::Context context(test::test_device());
  const auto blake3 = test::level_spec({}), parent = test::level_spec(parent_tree);
  const std::size_t before = cache.builds();
  std::vector<cl_program> got(6);
  std::vector<std::thread> callers;
  for (std::size_t i = 0; i < got.size(); ++i)
    callers.emplace_back([&, i] {
      got[i] = merklize::detail::get_program(context, test::test_device(), i % 2 ? parent : blake3)
                   .program();
    });
  for (auto &caller : callers)
    caller.join();
  CHECK(cache.builds() == before + 2);
  for (std::size_t i = 2; i < got.size(); ++i)
    CHECK(got[i] == got[i % 2]);
  CHECK(got[0] != got[1]);
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

// ---- A cache folder and entries that are not to be trusted, or that crash the driver ----

namespace {

// A user that does not run the tests (they run as root in CI, so chown works).
constexpr uid_t stranger = 12345;

bool can_chown() { return ::geteuid() == 0; }

struct stat status_of(const fs::path &path) {
  struct stat status {};
  REQUIRE(::lstat(path.c_str(), &status) == 0);
  return status;
}

// The load marks left beside the cache's entries.
std::vector<fs::path> load_marks(const fs::path &dir) {
  std::vector<fs::path> marks;
  for (const auto &path : entries(dir))
    if (contains(path.filename().string(), ".loading-")) marks.push_back(path);
  return marks;
}

// The binary of another program than the level program, with kernels of other names.
std::vector<unsigned char> other_program_binary() {
  using namespace merklize::detail;
  const auto spec = sha256_layer_program();
  const cl::Device device = test::test_device();
  const auto program =
      build_program(cl::Context(device), device, kernel_program_source(spec.files), spec.options);
  return program_binary(program, device);
}

// Runs tests/cache_helper.cpp, which builds the level program through the cache in `dir`;
// `how` it ends in the driver, if it does ("--die-in-driver", "--terminated-in-driver").
test::run_result run_cache_helper(const test::scratch_folder &dir, const std::string &how = "") {
  std::vector<std::string> argv{MERKLIZE_CACHE_HELPER, dir.str()};
  if (!how.empty()) argv.push_back(how);
  return test::run_program(argv);
}

// That the cache holds a valid entry for the level program, and nothing else.
void check_only_valid_entry(const test::scratch_folder &cache) {
  const auto entry = entry_of(cache);
  CHECK(entries(cache.path()) == std::vector<fs::path>{entry.path});
  CHECK_NOTHROW(
      merklize::detail::cache_payload(merklize::detail::read_file(entry.path), entry.key));
  CHECK(status_of(entry.path).st_uid == ::geteuid());
}

} // namespace

TEST_CASE("a cache folder not the user's own, or writable by others, is not used", "[cache]") {
  const test::scratch_folder cache("cache");
  std::string reason;
  SECTION("writable by its group") {
    REQUIRE(::chmod(cache.path().c_str(), 0770) == 0);
    reason = "writable by its group (mode 0770)";
  }
  SECTION("writable by everyone") {
    REQUIRE(::chmod(cache.path().c_str(), 0777) == 0);
    reason = "writable by its group and others (mode 0777)";
  }
  SECTION("another user's") {
    if (!can_chown()) {
      WARN("not checked: chown needs root");
      return;
    }
    REQUIRE(::chmod(cache.path().c_str(), 0700) == 0);
    REQUIRE(::chown(cache.path().c_str(), stranger, stranger) == 0);
    reason = "it belongs to uid 12345";
  }
  const test::program_settings settings("", cache.str());
  for (int run = 0; run < 2; ++run) {
    auto m = test::fresh_merkleizer();
    CHECK(m.program_form() == program_form::jit);
    CHECK(test::tree_mismatch(m).empty());
  }
  INFO(settings.all_warnings());
  CHECK(contains(settings.all_warnings(), "program cache folder " + cache.str() + " not used: "));
  CHECK(contains(settings.all_warnings(), reason));
  CHECK(settings.warnings().size() == 1); // once per process
  CHECK(entries(cache.path()).empty());   // nothing written into a folder refused
}

TEST_CASE("a cache entry not the user's own, or writable by others, is replaced", "[cache]") {
  const test::scratch_folder cache("cache");
  const test::program_settings settings("", cache.str());
  const auto entry = cached_entry(cache);
  std::string reason;
  SECTION("writable by its group") {
    fs::permissions(entry, fs::perms::group_write, fs::perm_options::add);
    reason = "it is writable by its group (mode 0664)";
  }
  SECTION("another user's") {
    if (!can_chown()) {
      WARN("not checked: chown needs root");
      return;
    }
    REQUIRE(::chown(entry.c_str(), stranger, stranger) == 0);
    reason = "it belongs to uid 12345";
  }
  auto m = test::fresh_merkleizer();
  CHECK(m.program_form() == program_form::jit);
  CHECK(test::tree_mismatch(m).empty());
  INFO(settings.all_warnings());
  CHECK(contains(settings.all_warnings(),
                 "program cache entry " + entry.string() + " not used: " + reason));
  check_only_valid_entry(cache);
  CHECK((status_of(entry).st_mode & 022) == 0);
  CHECK(test::fresh_merkleizer().program_form() == program_form::cache);
}

TEST_CASE("a directory or special file at an entry's path is passed over", "[cache]") {
  const test::scratch_folder cache("cache");
  const auto entry = entry_of(cache).path; // before the settings: it may build the program
  const test::program_settings settings("", cache.str());
  std::string what;
  SECTION("a directory") {
    fs::create_directory(entry);
    what = "it is a directory";
  }
  SECTION("a FIFO, which a read would wait on forever") {
    REQUIRE(::mkfifo(entry.c_str(), 0600) == 0);
    what = "it is a FIFO";
  }
  SECTION("a symbolic link") {
    fs::create_symlink("/dev/zero", entry);
    what = "it is a symbolic link";
  }
  const auto type = status_of(entry).st_mode & S_IFMT;
  for (int run = 0; run < 2; ++run) {
    auto m = test::fresh_merkleizer();
    CHECK(m.program_form() == program_form::jit);
    CHECK(test::tree_mismatch(m).empty());
  }
  INFO(settings.all_warnings());
  CHECK(contains(settings.all_warnings(), "program cache entry " + entry.string() + " not used: " +
                                              what + "; compiling without the cache"));
  CHECK(!contains(settings.all_warnings(), "basic_filebuf"));
  CHECK((status_of(entry).st_mode & S_IFMT) == type); // left alone, not replaced
  CHECK(entries(cache.path()) == std::vector<fs::path>{entry});
}

TEST_CASE("another program's valid binary under an entry's name is replaced", "[cache]") {
  const test::scratch_folder cache("cache");
  const test::program_settings settings("", cache.str());
  const auto entry = entry_of(cache);
  // A well-formed entry: its key and checksum are right, only the program is another's.
  test::write_bytes(entry.path, merklize::detail::cache_entry(entry.key, other_program_binary()));
  auto m = test::fresh_merkleizer();
  CHECK(m.program_form() == program_form::jit);
  CHECK(test::tree_mismatch(m).empty());
  INFO(settings.all_warnings());
  CHECK(contains(settings.all_warnings(), "program cache entry " + entry.path.string() +
                                              " not used: its program holds the kernels "
                                              "\"merklize_self_test, sha256_layer, "
                                              "sha256_layer_prefixed\", not "));
  check_only_valid_entry(cache);
  CHECK(test::fresh_merkleizer().program_form() == program_form::cache);
}

TEST_CASE("the kernels a program's source declares are the kernels it holds", "[cache]") {
  using namespace merklize::detail;
  std::set<std::vector<std::string>> file_sets; // the kernels depend on the files only
  const cl::Device device = test::test_device();
  const cl::Context context(device);
  for (const auto &spec : all_program_specs()) {
    if (!file_sets.insert(spec.files).second) continue;
    INFO(spec.name);
    const std::string source = kernel_program_source(spec.files);
    const auto declared = kernel_names_in(source);
    CHECK(!declared.empty());
    CHECK(declared == kernel_names_of(build_program(context, device, source, spec.options)));
  }
  CHECK(kernel_names_in("/* __kernel void a( */ // kernel void b(\n"
                        "kernel void c(int x) {}\n__kernel\n__attribute__((x(1, (2))))\nvoid\nd\n"
                        "(int y) {} void e(int kernel) {} __kernel void\n") ==
        std::vector<std::string>{"c", "d"});
}

TEST_CASE("stale temporary files and load marks are removed when the cache is used", "[cache]") {
  const test::scratch_folder cache("cache");
  const test::program_settings settings("", cache.str());
  const auto entry = cached_entry(cache);
  // Linux pids stay below 2^22: 4194399 is a process that is gone.
  const std::string live = std::to_string(::getpid());
  const auto old_temp = fs::path(entry.string() + ".tmp-" + live + "-1");
  const auto new_temp = fs::path(entry.string() + ".tmp-" + live + "-2");
  const auto dead_temp = fs::path(entry.string() + ".tmp-4194399-2");
  // The mark of a process that is gone, loading an entry since removed.
  const auto gone_mark = cache.path() / "program-0123.bin.loading-4194399";
  for (const auto &path : {old_temp, new_temp, dead_temp, gone_mark})
    test::write_bytes(path, {1, 2, 3});
  fs::last_write_time(old_temp, fs::file_time_type::clock::now() - std::chrono::seconds(61));
  auto m = test::fresh_merkleizer();
  CHECK(m.program_form() == program_form::cache);
  CHECK(!fs::exists(old_temp));  // left over by a write cut short
  CHECK(fs::exists(new_temp));   // may be a write in progress
  CHECK(!fs::exists(dead_temp)); // its writer is gone
  CHECK(!fs::exists(gone_mark));
  CHECK(settings.warnings().empty());
}

TEST_CASE("a process that dies in the driver loading an entry does not make the next one die",
          "[cache][crash]") {
  const test::scratch_folder cache("cache");
  const test::program_settings settings("", cache.str());
  const auto entry = cached_entry(cache);
  const auto died = run_cache_helper(cache, "--die-in-driver");
  INFO(died.err);
  CHECK(died.status == -1); // killed by the signal raised in clCreateProgramWithBinary
  CHECK(load_marks(cache.path()).size() == 1);
  auto m = test::fresh_merkleizer();
  CHECK(m.program_form() == program_form::jit);
  CHECK(test::tree_mismatch(m).empty());
  INFO(settings.all_warnings());
  CHECK(contains(settings.all_warnings(),
                 "program cache entry " + entry.string() + " not used: process "));
  CHECK(contains(settings.all_warnings(), "ended while loading it"));
  check_only_valid_entry(cache); // rewritten; the mark is gone
  CHECK(test::fresh_merkleizer().program_form() == program_form::cache);
}

TEST_CASE("a process terminated while loading an entry leaves no mark, and the entry stays",
          "[cache][crash]") {
  const test::scratch_folder cache("cache");
  const test::program_settings settings("", cache.str());
  const auto entry = cached_entry(cache);
  const auto before = merklize::detail::read_file(entry);
  const auto ended = run_cache_helper(cache, "--terminated-in-driver");
  INFO(ended.err);
  CHECK(ended.status == -1); // ended by SIGTERM, raised in clCreateProgramWithBinary
  CHECK(load_marks(cache.path()).empty());
  auto m = test::fresh_merkleizer();
  CHECK(m.program_form() == program_form::cache); // not discarded
  CHECK(merklize::detail::read_file(entry) == before);
  CHECK(settings.warnings().empty());
}

TEST_CASE("an entry whose load is stuck in the driver is kept, and the program compiled",
          "[cache][crash]") {
  const test::scratch_folder cache("cache");
  const test::program_settings settings("", cache.str());
  const auto entry = cached_entry(cache);
  const auto before = merklize::detail::read_file(entry);
  const auto r = run_cache_helper(cache, "--stuck-loading"); // after 5 s without progress
  INFO(r.err);
  CHECK(r.status == 0);
  CHECK(r.out == "jit\n");
  CHECK(contains(r.err, "program cache entry " + entry.string() +
                            " not used: clBuildProgram made "
                            "no progress for 5 s"));
  CHECK(contains(r.err, "compiling without the cache"));
  CHECK(merklize::detail::read_file(entry) == before);
  CHECK(load_marks(cache.path()).empty());
}

TEST_CASE("a truncated payload under a correct header crashes no run after the first",
          "[cache][crash]") {
  const test::scratch_folder cache("cache");
  const test::program_settings settings("", cache.str());
  const auto entry = entry_of(cache);
  auto payload =
      merklize::detail::cache_payload(merklize::detail::read_file(cached_entry(cache)), entry.key);
  payload.resize(payload.size() / 2);
  // Size and checksum match the half payload: nothing but the driver can tell.
  test::write_bytes(entry.path, merklize::detail::cache_entry(entry.key, payload));
  // PoCL dies on it (an assertion or SIGSEGV in clCreateProgramWithBinary); a driver that
  // refuses it instead replaces it at once.
  const auto first = run_cache_helper(cache);
  INFO("first run: status " << first.status << ", " << first.out << first.err);
  CHECK((first.status == -1 || first.status == 0));
  const auto second = run_cache_helper(cache);
  INFO("second run: status " << second.status << ", " << second.out << second.err);
  CHECK(second.status == 0);
  check_only_valid_entry(cache);
  CHECK(test::fresh_merkleizer().program_form() == program_form::cache);
}

// ---- Processes that share a cache compile a program once (compile_lock.hpp) ----

TEST_CASE("a compile lock waits for its holder, gives up after its patience, and is removed",
          "[cache][lock]") {
  using merklize::detail::compile_lock;
  const test::scratch_folder cache("lock");
  const fs::path entry = cache.path() / "program-0123.bin";
  const fs::path file = entry.string() + ".compiling";
  int waits = 0;
  {
    const compile_lock first(entry, std::chrono::milliseconds(0), [&] { ++waits; });
    CHECK(first.held());
    CHECK_FALSE(first.waited());
    CHECK(fs::exists(file));
    // Another open file (as another process's) finds it held: it waits, then gives up.
    const compile_lock second(entry, std::chrono::milliseconds(100), [&] { ++waits; });
    CHECK_FALSE(second.held());
    CHECK(second.waited());
    CHECK(waits == 1);
  }
  CHECK_FALSE(fs::exists(file)); // its holder removed it
  auto holder = std::make_unique<compile_lock>(entry, std::chrono::milliseconds(0), nullptr);
  std::thread release([&] {
    std::this_thread::sleep_for(std::chrono::milliseconds(150));
    holder.reset();
  });
  const compile_lock waiter(entry, std::chrono::seconds(30), [&] { ++waits; });
  release.join();
  CHECK(waiter.held()); // the holder let go while it waited
  CHECK(waiter.waited());
  CHECK(waits == 2);
  // A folder that cannot hold the file: no lock, no wait.
  const compile_lock nowhere(cache.path() / "missing" / "program.bin", std::chrono::seconds(30),
                             [&] { ++waits; });
  CHECK_FALSE(nowhere.held());
  CHECK_FALSE(nowhere.waited());
  CHECK(waits == 2);
}

TEST_CASE("the lock of a process killed while compiling is taken at once, and tidied away",
          "[cache][lock]") {
  const test::scratch_folder cache("cache");
  const test::program_settings settings("", cache.str());
  const auto entry = cached_entry(cache);
  // What a process killed with SIGKILL while compiling leaves: the file, unlocked.
  const fs::path left = cache.path() / "program-4567.bin.compiling";
  test::write_bytes(left, {});
  const fs::path held = cache.path() / "program-89ab.bin";
  const merklize::detail::compile_lock holder(held, std::chrono::milliseconds(0), nullptr);
  REQUIRE(holder.held());
  CHECK(test::fresh_merkleizer().program_form() == program_form::cache); // tidies the folder
  CHECK_FALSE(fs::exists(left));
  CHECK(fs::exists(held.string() + ".compiling")); // held: it stays
  const fs::path lock_of_entry = entry.string() + ".compiling";
  test::write_bytes(lock_of_entry, {});
  const merklize::detail::compile_lock next(entry, std::chrono::milliseconds(0), nullptr);
  CHECK(next.held());
  CHECK_FALSE(next.waited());
  CHECK(settings.warnings().empty());
}

TEST_CASE("processes started together on an empty cache compile a program once",
          "[cache][lock][processes]") {
  const test::scratch_folder cache("cache"), outputs("outputs");
  // Two helpers at once: one compiles, the other waits for its entry and loads it.
  const auto both = test::run_program({"/bin/sh", "-c",
                                       "\"$0\" \"$1\" > \"$2/a\" 2> \"$2/a.err\" & "
                                       "\"$0\" \"$1\" > \"$2/b\" 2> \"$2/b.err\" & wait",
                                       MERKLIZE_CACHE_HELPER, cache.str(), outputs.str()});
  REQUIRE(both.status == 0);
  std::multiset<std::string> forms;
  for (const char *name : {"a", "b"}) {
    const auto text = [&](const std::string &file) {
      const auto bytes = merklize::detail::read_file(outputs.path() / file);
      return std::string(bytes.begin(), bytes.end());
    };
    const std::string out = text(name);
    INFO(name << ": " << out << text(std::string(name) + ".err"));
    forms.insert(out.substr(0, out.find('\n')));
  }
  CHECK(forms == std::multiset<std::string>{"cache", "jit"});
  check_only_valid_entry(cache); // and no lock left
}

TEST_CASE("read_file names the system's reason and refuses what is not a regular file",
          "[cache][errors]") {
  using merklize::detail::read_file;
  const test::scratch_folder scratch("read-file");
  const auto missing = scratch.path() / "missing", fifo = scratch.path() / "fifo";
  REQUIRE(::mkfifo(fifo.c_str(), 0600) == 0);
  CHECK_THROWS_WITH(read_file(missing),
                    "cannot open " + missing.string() + ": No such file or directory");
  CHECK_THROWS_WITH(read_file(scratch.path()),
                    "cannot read " + scratch.str() + ": it is a directory");
  CHECK_THROWS_WITH(read_file(fifo), "cannot read " + fifo.string() + ": it is a FIFO");
  CHECK_THROWS_WITH(read_file("/dev/zero"), "cannot read /dev/zero: it is a device");
  const auto file = scratch.path() / "file";
  test::write_bytes(file, {1, 2, 3});
  CHECK(read_file(file) == std::vector<unsigned char>{1, 2, 3});
  CHECK_THROWS_WITH(read_file(file, 2),
                    "cannot read " + file.string() + ": it is 3 bytes, more than 2");
}
