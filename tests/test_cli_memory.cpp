// SPDX-License-Identifier: Apache-2.0 OR MIT
// merklize under an address-space limit (ulimit -v), from too little to load a driver to enough:
// it ends with the right root or with one clear message, never a crash or a hang, with the
// program cache warm, cold, or out of reach, and with PoCL's own kernel cache cold. Beside it, a
// bare OpenCL program (faults/opencl_probe.c) shows what the driver does on its own there: PoCL
// aborts in its thread set-up at some limits (reported, not required: a fixed PoCL passes). That
// abort, PoCL's "PTHREAD ERROR in pthread_scheduler_init", is the one end a run may have besides
// a root or a message: where PoCL 5 shares the process with NVIDIA's driver (the GPU machine,
// every platform listed), it happens up to about 500 MiB, in merklize and the bare program alike.
#include "cli_helpers.hpp"

#include <merklize/core/reference.hpp>

#include <catch2/catch.hpp>

using Catch::Matchers::StartsWith;

namespace {

struct limited_run {
  int status;
  std::string out, err;
};

// `command` under `kib` KiB of address space, given 120 s (a hang ends killed: status 137).
limited_run under_limit(long kib, const std::string &command) {
  const auto r =
      test::run_shell("ulimit -v " + std::to_string(kib) + "; exec timeout -s KILL 120 " + command);
  return {r.status, r.out, r.err};
}

// Whether a run ended in PoCL's own abort while setting up its threads (see the top).
bool pocl_thread_abort(const limited_run &r) {
  return r.status != 0 && r.status != 1 &&
         r.err.find("pthread_scheduler_init") != std::string::npos;
}

// The lines of `err` that are not warnings.
std::vector<std::string> error_lines(const std::string &err) {
  std::vector<std::string> lines;
  std::istringstream in(err);
  for (std::string line; std::getline(in, line);)
    if (line.rfind("merklize: warning: ", 0) != 0) lines.push_back(line);
  return lines;
}

} // namespace

TEST_CASE("merklize under an address-space limit ends cleanly, never crashes or hangs",
          "[cli][memory]") {
  const auto leaves = test::random_bytes(4096 * 32);
  const auto file = test::write_file("memory-leaves", leaves).string();
  const std::string root =
      merklize::to_hex(merklize::reference_tree(leaves.data(), leaves.size(), {}).root()) + "\n";
  const auto warm = test::scratch_dir() / "memory-warm-cache";
  const auto env = [&](const std::string &cache, const std::string &pocl) {
    return "env MERKLIZE_CACHE_DIR=" + test::sh_quote(cache) +
           (pocl.empty() ? "" : " POCL_CACHE_DIR=" + test::sh_quote(pocl)) + " ";
  };
  // --device default: the driver under the limit, not the host engine that auto would pick.
  REQUIRE(test::run_shell(env(warm.string(), "") + test::merklize_word() +
                          " root --device default " + test::sh_quote(file))
              .out == root);
  int pocl_died = 0;
  for (const long mib :
       {100, 200, 240, 245, 250, 255, 260, 280, 300, 350, 400, 450, 500, 600, 800, 1200}) {
    const long kib = mib * 1024;
    const auto cold = test::scratch_dir() / ("memory-cold-" + std::to_string(mib));
    const std::vector<std::pair<const char *, std::string>> setups = {
        {"warm cache", env(warm.string(), "")},
        {"cold cache", env(cold.string(), "")},
        {"no cache", env("", "")},
        {"cold PoCL cache", env("", (cold / "pocl").string())}};
    for (const auto &[what, prefix] : setups) {
      INFO(mib << " MiB, " << what);
      const auto r = under_limit(kib, prefix + test::merklize_word() + " root --device default " +
                                          test::sh_quote(file));
      INFO("status " << r.status << ", stderr:\n" << r.err);
      if (pocl_thread_abort(r)) {
        WARN("PoCL aborted in its thread set-up under " << mib << " MiB, " << what);
        continue;
      }
      CHECK((r.status == 0 || r.status == 1)); // not a signal, not the time limit
      if (r.status == 0) CHECK(r.out == root);
      if (r.status == 1) {
        CHECK(r.out.empty());
        const auto lines = error_lines(r.err);
        REQUIRE(lines.size() == 1);
        CHECK_THAT(lines.front(), StartsWith("merklize: "));
      }
    }
    const auto probe = under_limit(kib, test::sh_quote(MERKLIZE_OPENCL_PROBE));
    if (probe.status != 0) {
      ++pocl_died;
      WARN("the driver alone, under " << mib << " MiB: status " << probe.status << ", "
                                      << probe.err);
    }
  }
  if (pocl_died == 0) WARN("the driver alone ended cleanly at every limit");
}
