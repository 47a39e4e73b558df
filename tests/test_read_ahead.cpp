// SPDX-License-Identifier: Apache-2.0 OR MIT
// The input path and first call: a stream read ahead on a thread of its own
// (input::read_ahead, io/stream_prefetch.hpp) gives its bytes in order however the writer
// cuts and delays them, stops with a silent writer, and passes the reader's failure on; the device
// path's root of such a pipe is the file path's and the host reference's at awkward sizes, in
// the library and in the CLI; the first build in a process (fresh page-locked memory pinned side
// by side, programs loaded on a thread) and the next ones (the pool) give every node right.
#include "cli_helpers.hpp"
#include "helpers.hpp"
#include "multi_helpers.hpp"
#include "pipe_input.hpp"
#include "proof_helpers.hpp"

#include <catch2/catch.hpp>

#include <merklize/merklize.hpp>

#include <cstring>

#include <fcntl.h>
#include <unistd.h>

using Catch::Matchers::Contains;

namespace {

// The pipe of these tests: written in irregular pieces with pauses (pipe_input.hpp).
struct trickled_pipe : test::pipe_input {
  explicit trickled_pipe(std::vector<std::uint8_t> bytes)
      : pipe_input(std::move(bytes), true, "the trickled pipe") {}
};

} // namespace

TEST_CASE("a stream read ahead gives its bytes in order, however written and read",
          "[input][read_ahead]") {
  const std::uint64_t held =
      GENERATE(std::uint64_t(0), std::uint64_t(1) << 20, std::uint64_t(3) << 20);
  for (const std::size_t size : {std::size_t(0), std::size_t(1), std::size_t(1) << 20,
                                 (std::size_t(1) << 20) + 1, std::size_t(5000001)}) {
    INFO("size " << size << ", held " << held);
    const auto bytes = test::random_bytes(size);
    trickled_pipe pipe(bytes);
    pipe.get().read_ahead(held);
    std::vector<std::uint8_t> got(size + 7, test::poison_byte), readback;
    std::size_t have = 0, ask = 1;
    for (;;) { // reads of 1, 3, 7, ... bytes: every read cuts the blocks elsewhere
      const std::size_t n =
          pipe.get().read_some(got.data() + have, std::min(ask, got.size() - have));
      if (n == 0) break;
      have += n;
      ask = ask * 2 + 1 > (std::size_t(3) << 20) ? 1 : ask * 2 + 1;
    }
    CHECK(have == size);
    got.resize(have);
    CHECK(got == bytes);
    CHECK(pipe.get().read_ahead_bytes() == size);
    CHECK(pipe.get().read_some(got.data(), 0) == 0); // the end stays the end
  }
}

TEST_CASE("a stream read ahead stops with a silent writer and passes failures on",
          "[input][read_ahead]") {
  SECTION("the writer never writes nor closes: the input goes all the same") {
    int fds[2];
    REQUIRE(::pipe(fds) == 0);
    {
      merklize::input in(fds[0], "the silent pipe");
      in.read_ahead();
      CHECK(in.read_ahead_bytes() == 0);
    } // ends here, else ctest's timeout fails the test
    ::close(fds[0]);
    ::close(fds[1]);
  }
  SECTION("a read that fails is an error naming the input, after the bytes before it") {
    const int dir = ::open(test::scratch_dir().c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    REQUIRE(dir >= 0);
    merklize::input in(dir, "the folder");
    in.read_ahead();
    std::uint8_t byte = 0;
    CHECK_THROWS_WITH(in.read_some(&byte, 1), Contains("the folder") && Contains("directory"));
    ::close(dir);
  }
  SECTION("a file over 1 MiB is read at offsets as before, only advised to the system") {
    const auto bytes = test::random_bytes((std::size_t(3) << 20) + 5);
    const auto file = test::write_file("advised", bytes);
    merklize::input in(file.string());
    in.read_ahead();
    CHECK(in.read_ahead_bytes() == 0);
    std::vector<std::uint8_t> got(bytes.size(), test::poison_byte);
    in.read_at(0, got.size(), got.data());
    CHECK(got == bytes);
  }
}

TEST_CASE("the device path's root of a trickled pipe read ahead is the file path's",
          "[input][read_ahead][streaming]") {
  const std::size_t local = merklize::merkleizer(test::test_device()).tuning().work_group_size;
  const unsigned chunk_log2 = GENERATE(2u, 5u, 15u);
  for (const auto hash : {merklize::hash_kind::blake3, merklize::hash_kind::sha256})
    for (const std::uint64_t n :
         {std::uint64_t(1), std::uint64_t(2), std::uint64_t(3), std::uint64_t(127),
          std::uint64_t(128), std::uint64_t(129), std::uint64_t(local - 1), std::uint64_t(local),
          std::uint64_t(local + 1), (std::uint64_t(1) << 16) - 1, (std::uint64_t(1) << 16) + 1}) {
      const merklize::tree_options options{hash, merklize::shape::promote};
      INFO(test::describe(options) << " n=" << n << " chunks of 2^" << chunk_log2);
      const auto leaves = test::random_bytes(n * merklize::node_bytes);
      const auto expected = merklize::reference_tree(leaves.data(), leaves.size(), options);
      merklize::config cfg{options};
      cfg.input_chunk_log2 = chunk_log2;
      merklize::merkleizer m(test::test_device(), cfg);
      merklize::input file(test::write_file("read-ahead", leaves).string());
      merklize::digest from_file = test::poison_digest(), from_pipe = test::poison_digest();
      from_file = m.root(file);
      trickled_pipe pipe(leaves);
      pipe.get().read_ahead(); // as the CLI does before the device starts
      from_pipe = m.root(pipe.get());
      CHECK(from_file == expected.root());
      CHECK(from_pipe == expected.root());
    }
}

TEST_CASE("the first build in a process and the next ones give every node right",
          "[read_ahead][first_build]") {
  // 2^16 leaves: 2 MiB of leaves and of nodes, both from the page-locked pool (1 MiB and up),
  // the first pinned side by side, the next reused; with and without the CPU's zero copy.
  const bool zero_copy = GENERATE(true, false);
  const auto leaves = test::random_bytes(std::size_t(merklize::node_bytes) << 16);
  const merklize::tree_options options{merklize::hash_kind::sha256, merklize::shape::promote};
  const auto expected = merklize::reference_tree(leaves.data(), leaves.size(), options);
  merklize::config cfg{options};
  cfg.zero_copy = zero_copy;
  merklize::merkleizer m(test::test_device(), cfg);
  for (int b = 0; b < 3; ++b) {
    INFO("build " << b + 1 << (zero_copy ? ", zero copy" : ""));
    const merklize::tree t = m.build(leaves);
    REQUIRE(t.depth() == expected.depth());
    for (unsigned level = 0; level <= t.depth(); ++level) {
      const std::uint64_t bytes = t.layout().level_size(level) * merklize::node_bytes;
      CHECK(std::memcmp(t.level_data(level), expected.level_data(level), bytes) == 0);
    }
  }
}

TEST_CASE("merklize root of a trickled stdin on a device is the root of the file",
          "[cli][read_ahead]") {
  for (const std::uint64_t n : {std::uint64_t(1), std::uint64_t(3), std::uint64_t(65),
                                (std::uint64_t(1) << 15) + 1, std::uint64_t(100001)}) {
    INFO("n=" << n);
    const auto leaves = test::random_bytes(n * merklize::node_bytes);
    const auto file = test::sh_quote(test::write_file("cli-read-ahead", leaves).string());
    const std::string root = test::merklize_word() + " root --device default --chunk-log2 4 ";
    const std::string hex = test::run_shell(root + file).out;
    REQUIRE(hex.size() == 65);
    // The head first, a pause while the device starts, then the rest in small writes.
    const std::string trickle = "{ head -c 1000 " + file + "; sleep 0.2; tail -c +1001 " + file +
                                " | dd bs=4093 status=none; } | ";
    CHECK(test::run_shell(trickle + root + "--verbose -").out == hex);
    CHECK(test::run_shell("cat " + file + " | " + root + "-").out == hex);
  }
}
