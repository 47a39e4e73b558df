// SPDX-License-Identifier: Apache-2.0 OR MIT
// blake3_device::hash_file against the host BLAKE3 and hash_stream: sizes around every boundary
// of its paths (the calling thread's reads up to 1 MiB, threads above; pieces of one block and
// of several blocks, their ends +-1), any number of reading threads, files whose size says
// nothing, pipes, and files that cannot be opened, are directories or shrink, which leave the
// output as it was.
#include "helpers.hpp"
#include "process.hpp"

#include <catch2/catch.hpp>

#include <sys/stat.h>
#include <thread>

using Catch::Matchers::Contains;
using merklize::blake3_device;
using merklize::blake3_mode;
using test::host_output;

namespace {

constexpr std::uint64_t mib = std::uint64_t(1) << 20;

blake3_device file_hasher(std::uint64_t max_device_bytes, unsigned read_threads) {
  merklize::hash_config cfg;
  cfg.max_device_bytes = max_device_bytes;
  cfg.file_read_threads = read_threads;
  return blake3_device(test::test_device(), cfg);
}

std::vector<std::uint8_t> file_output(blake3_device &b3, const blake3_mode &mode,
                                      const std::string &path, std::size_t out_bytes) {
  std::vector<std::uint8_t> out(out_bytes, test::poison_byte);
  b3.hash_file(mode, path, out.data(), out.size());
  return out;
}

std::vector<std::uint8_t> stream_output(blake3_device &b3, const blake3_mode &mode,
                                        const std::vector<std::uint8_t> &input,
                                        std::size_t out_bytes) {
  std::size_t at = 0;
  const blake3_device::reader read = [&](std::uint8_t *buffer, std::size_t capacity) {
    const std::size_t take = std::min(capacity, input.size() - at);
    std::copy(input.begin() + at, input.begin() + at + take, buffer);
    at += take;
    return take;
  };
  std::vector<std::uint8_t> out(out_bytes, test::poison_byte);
  b3.hash_stream(mode, read, out.data(), out.size(), input.size());
  return out;
}

bool all_poison(const std::vector<std::uint8_t> &bytes) {
  return std::all_of(bytes.begin(), bytes.end(), [](auto b) { return b == test::poison_byte; });
}

struct file_case {
  std::uint64_t max_device_bytes; // pieces of at most half of it
  std::vector<std::uint64_t> sizes;
};

} // namespace

TEST_CASE("hash_file matches the host BLAKE3 and hash_stream at every boundary of its paths",
          "[hash][file]") {
  const std::uint64_t piece_1m = mib, piece_4m = 4 * mib, piece_2k = 2048;
  const file_case cases[] = {
      // Pieces as large as the file: the calling thread up to 1 MiB, threads beyond.
      {0, {0, 1, 1023, 1024, 1025, mib - 1, mib, mib + 1, 3 * mib + 5}},
      // Pieces of one block of the reader.
      {2 * piece_1m,
       {piece_1m + 1, 2 * piece_1m - 1, 2 * piece_1m, 2 * piece_1m + 1, 5 * piece_1m + 1000}},
      // Pieces of four blocks, shared by the threads.
      {2 * piece_4m, {piece_4m - 1, piece_4m, piece_4m + 1, 2 * piece_4m + 1}},
      // Pieces smaller than a block: hundreds of them, read two ahead.
      {2 * piece_2k, {mib + 1, mib + piece_2k - 1, mib + 3 * piece_2k}},
  };
  const unsigned threads = GENERATE(1u, 3u, 0u);
  for (const auto &c : cases) {
    blake3_device b3 = file_hasher(c.max_device_bytes, threads);
    for (std::uint64_t size : c.sizes) {
      INFO("max_device_bytes " << c.max_device_bytes << " threads " << threads << " size " << size);
      const auto input = test::random_bytes(size);
      const auto path = test::write_file("hash-file-" + std::to_string(size), input).string();
      const auto keyed_key = test::random_bytes(merklize::blake3::key_len);
      const blake3_mode keyed = blake3_mode::keyed(keyed_key.data());
      const std::size_t out_bytes = size % 2 ? 32 : 100;
      const auto expected =
          host_output(merklize::blake3::hasher::keyed(keyed_key.data()), input, out_bytes);
      CHECK(file_output(b3, keyed, path, out_bytes) == expected);
      const std::uint64_t piece = b3.stream_piece_bytes(size);
      CHECK(b3.last_times().pieces == std::max<std::uint64_t>(1, (size + piece - 1) / piece));
      CHECK(stream_output(b3, keyed, input, out_bytes) == expected);
      CHECK(b3.hash_file(path) == merklize::blake3::hash(input.data(), input.size()));
    }
  }
}

TEST_CASE("hash_file reads files whose size says nothing to their end", "[hash][file]") {
  // /proc files report 0 bytes; b3sum reads them to their end, and so must we.
  const std::string path = "/proc/self/cmdline";
  const std::string text = test::slurp(path);
  REQUIRE(!text.empty());
  blake3_device b3 = file_hasher(0, 0);
  CHECK(b3.hash_file(path) == merklize::blake3::hash(text.data(), text.size()));
}

TEST_CASE("hash_file reads a pipe to its end", "[hash][file]") {
  const auto fifo = (test::scratch_dir() / "hash-file-fifo").string();
  REQUIRE(::mkfifo(fifo.c_str(), 0600) == 0);
  const auto input = test::random_bytes(3 * mib + 17);
  std::thread writer([&] {
    std::ofstream(fifo, std::ios::binary)
        .write(reinterpret_cast<const char *>(input.data()),
               static_cast<std::streamsize>(input.size()));
  });
  blake3_device b3 = file_hasher(2 * mib, 0);
  const auto d = b3.hash_file(fifo);
  writer.join();
  std::remove(fifo.c_str());
  CHECK(d == merklize::blake3::hash(input.data(), input.size()));
  CHECK(b3.last_times().pieces == 4);
}

TEST_CASE("hash_file refuses what it cannot read, naming it, and leaves the output alone",
          "[hash][file][errors]") {
  blake3_device b3 = file_hasher(0, 0);
  const auto missing = (test::scratch_dir() / "hash-file-missing").string();
  const auto directory = test::scratch_dir().string();
  std::vector<std::uint8_t> out(64, test::poison_byte);
  CHECK_THROWS_WITH(b3.hash_file(blake3_mode::hash(), missing, out.data(), out.size()),
                    Contains("cannot open " + missing + ": No such file or directory"));
  CHECK_THROWS_WITH(b3.hash_file(blake3_mode::hash(), directory, out.data(), out.size()),
                    Contains("cannot read " + directory + ": Is a directory"));
  CHECK(all_poison(out));
  try {
    b3.hash_file(missing);
    FAIL("no error");
  } catch (const merklize::file_error &e) {
    CHECK(e.path() == missing);
    CHECK(e.reason() == "No such file or directory");
  }
  const auto input = test::random_bytes(2 * mib + 3);
  const auto path = test::write_file("hash-file-after-errors", input).string();
  CHECK(b3.hash_file(path) == merklize::blake3::hash(input.data(), input.size()));
}

TEST_CASE("the file reader reports a file that shrank, and stops cleanly", "[hash][file][errors]") {
  const auto input = test::random_bytes(3 * mib);
  const auto path = test::write_file("hash-file-shrank", input).string();
  const merklize::detail::file_descriptor file(path);
  // The reader was told the file had 5 MiB: reading piece 1 (2..4 MiB) runs into its end.
  const std::uint64_t claimed = 5 * mib, piece = 2 * mib;
  std::vector<std::uint8_t> pieces(3 * piece, test::poison_byte);
  merklize::detail::parallel_file_reader reader(file.get(), path, claimed, 3);
  for (std::uint64_t j = 0; j < 3; ++j)
    reader.request(pieces.data() + j * piece, j * piece, std::min(piece, claimed - j * piece));
  reader.wait_oldest();
  CHECK(std::equal(input.begin(), input.begin() + piece, pieces.begin()));
  CHECK_THROWS_WITH(reader.wait_oldest(),
                    Contains("cannot read " + path + ": it ends at byte 3145728") &&
                        Contains("before the 5242880 bytes it had when opened"));
  // The third piece is still asked for: the reader's end waits for its threads.
}

TEST_CASE("the file reader gives every byte asked to any number of threads", "[hash][file]") {
  const auto input = test::random_bytes(7 * mib + 321);
  const auto path = test::write_file("hash-file-reader", input).string();
  const merklize::detail::file_descriptor file(path);
  for (unsigned threads : {1u, 2u, 5u, 16u}) {
    for (std::uint64_t piece : {std::uint64_t(1000), mib - 1, 3 * mib + 1}) {
      INFO("threads " << threads << " piece " << piece);
      std::vector<std::uint8_t> got(input.size() + 64, test::poison_byte);
      merklize::detail::parallel_file_reader reader(file.get(), path, input.size(), threads);
      std::uint64_t asked = 0, waited = 0;
      for (; asked < input.size() && asked < 3 * piece; asked += piece) // three ahead at most
        reader.request(got.data() + asked, asked,
                       std::min<std::uint64_t>(piece, input.size() - asked));
      for (; waited < input.size(); waited += piece) {
        reader.wait_oldest();
        if (asked < input.size()) {
          reader.request(got.data() + asked, asked,
                         std::min<std::uint64_t>(piece, input.size() - asked));
          asked += piece;
        }
      }
      CHECK(std::equal(input.begin(), input.end(), got.begin()));
      CHECK(std::all_of(got.begin() + input.size(), got.end(),
                        [](auto b) { return b == test::poison_byte; }));
    }
  }
}
