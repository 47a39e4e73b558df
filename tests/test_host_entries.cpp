// SPDX-License-Identifier: Apache-2.0 OR MIT
// The host engine's leaves of a log's entries (host_entries.hpp) against OpenSSL's
// SHA-256(0x00 || entry) and the host reference (entries.hpp's rfc6962_leaf_hash): entries of
// every length around SHA-256's block edges (0, 55, 56, 63, 64, 119, 120, ...), mixed so that the
// two lanes of the SHA extensions end at different places, in counts around the threads' runs
// (1, 2, 3, threads +-1, many), out of order in their buffer; and spans past the bytes refused.
#include <merklize/core/entries.hpp>
#include <merklize/engine/host_entries.hpp>

#include <catch2/catch.hpp>

#include <openssl/sha.h>

#include <cstdint>
#include <vector>

namespace {

using merklize::digest;
using merklize::entry_span;

digest openssl_leaf(const std::uint8_t *entry, std::uint64_t size) {
  std::vector<std::uint8_t> message{0x00};
  message.insert(message.end(), entry, entry + size);
  digest d{};
  SHA256(message.data(), message.size(), d.data());
  return d;
}

// `count` entries whose lengths cycle through the block edges, laid out back to front (so a
// span's offset says nothing of its index), over bytes of a pattern.
struct entry_set {
  std::vector<std::uint8_t> data;
  std::vector<entry_span> spans;
};

entry_set entries_of(std::uint64_t count) {
  static const std::uint64_t lengths[] = {0,   1,   54,  55,  56,  63,   64,   65,   119,
                                          120, 127, 128, 129, 200, 4095, 4096, 4097, 31};
  entry_set set;
  std::vector<std::uint64_t> sizes(count);
  std::uint64_t total = 0;
  for (std::uint64_t i = 0; i < count; ++i)
    total += sizes[i] = lengths[(i * 7) % (sizeof lengths / sizeof *lengths)];
  set.data.resize(total);
  for (std::uint64_t i = 0; i < total; ++i)
    set.data[i] = static_cast<std::uint8_t>(i * 131 + (i >> 8));
  set.spans.resize(count);
  std::uint64_t at = total;
  for (std::uint64_t i = 0; i < count; ++i) {
    at -= sizes[i];
    set.spans[i] = {at, sizes[i]};
  }
  return set;
}

} // namespace

TEST_CASE("host engine: log entries' leaves are OpenSSL's SHA-256(0x00 || entry)",
          "[host][entries]") {
  for (const std::uint64_t count : {1, 2, 3, 4, 5, 17, 18, 19, 1000}) {
    const entry_set set = entries_of(count);
    for (const unsigned threads : {1u, 2u, 3u}) {
      const auto leaves =
          merklize::host_hash_entries(set.data.data(), set.data.size(), set.spans, threads);
      REQUIRE(leaves.size() == count);
      for (std::uint64_t i = 0; i < count; ++i) {
        const entry_span &s = set.spans[i];
        const std::uint8_t *entry = set.data.data() + s.first;
        INFO(count << " entries on " << threads << " threads, entry " << i << " of " << s.size
                   << " bytes");
        CHECK(leaves[i] == openssl_leaf(entry, s.size));
        CHECK(leaves[i] == merklize::rfc6962_leaf_hash(entry, s.size));
      }
    }
  }
}

TEST_CASE("host engine: no entries have no leaves; spans past the bytes are refused",
          "[host][entries]") {
  CHECK(merklize::host_hash_entries(nullptr, 0, {}).empty());
  const std::vector<std::uint8_t> data(10, 7);
  CHECK_THROWS_WITH(merklize::host_hash_entries(data.data(), data.size(), {{0, 4}, {8, 3}}),
                    "host_hash_entries: an entry of 3 bytes at offset 8 runs past the 10 bytes "
                    "given");
  CHECK_THROWS_WITH(merklize::host_hash_entries(data.data(), data.size(), {{11, 0}}),
                    Catch::Matchers::Contains("at offset 11 runs past"));
  // Empty entries at the end of the bytes are entries ("\n\n" as lines).
  const auto empty = merklize::host_hash_entries(data.data(), data.size(), {{10, 0}, {10, 0}});
  REQUIRE(empty.size() == 2);
  CHECK(empty[0] == openssl_leaf(data.data(), 0));
}
