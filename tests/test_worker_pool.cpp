// SPDX-License-Identifier: Apache-2.0 OR MIT
// The process's kept workers (runtime/worker_pool.hpp): run() does every task once, on the
// workers and the caller, for fewer tasks than threads, more, and none; jobs after jobs; two
// callers at once (the second's tasks run on its own thread while the first holds the workers);
// start() returns before its tasks are done and wait() after.
#include <merklize/runtime/worker_pool.hpp>

#include <catch2/catch.hpp>

#include <atomic>
#include <thread>
#include <vector>

namespace {

// Each of n tasks run by `pool.run`, counted: every count must come back 1.
std::vector<int> counts_of_run(merklize::detail::worker_pool &pool, unsigned n) {
  std::vector<std::atomic<int>> runs(n);
  pool.run(n, [&](unsigned k) { ++runs[k]; });
  std::vector<int> counts;
  for (const auto &r : runs)
    counts.push_back(r.load());
  return counts;
}

} // namespace

TEST_CASE("a worker pool's run does every task once", "[worker_pool]") {
  for (const unsigned workers : {0u, 1u, 3u}) {
    merklize::detail::worker_pool pool(workers);
    CHECK(pool.threads() == workers);
    for (const unsigned n : {0u, 1u, 2u, 4u, 5u, 100u}) {
      INFO(workers << " workers, " << n << " tasks");
      CHECK(counts_of_run(pool, n) == std::vector<int>(n, 1));
      CHECK(counts_of_run(pool, n) == std::vector<int>(n, 1)); // the next job too
    }
  }
}

TEST_CASE("a second caller's tasks run on its own thread while the workers are held",
          "[worker_pool]") {
  merklize::detail::worker_pool pool(2);
  std::atomic<bool> release{false};
  std::atomic<int> first{0};
  const std::function<void(unsigned)> hold = [&](unsigned) {
    while (!release)
      std::this_thread::yield();
    ++first;
  };
  auto job = pool.start(2, hold); // the workers are busy until released
  const std::thread::id caller = std::this_thread::get_id();
  std::vector<std::thread::id> ran(3);
  pool.run(3, [&](unsigned k) { ran[k] = std::this_thread::get_id(); });
  CHECK(ran == std::vector<std::thread::id>(3, caller));
  CHECK(first == 0); // start returned before its tasks were done
  release = true;
  job.wait();
  CHECK(first == 2);
  CHECK(counts_of_run(pool, 7) == std::vector<int>(7, 1));
}
