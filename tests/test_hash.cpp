// SPDX-License-Identifier: Apache-2.0 OR MIT
// BLAKE3 of whole inputs on the device (blake3_device) against two oracles: the official vectors
// and the host BLAKE3 (merklize::blake3::hasher). Every chunk strategy, every mode, lengths
// around every boundary (block, chunk, 2^k chunks, a work-item's lanes, a work-group, a launch of
// the parent kernel), streaming in small pieces, extended output, device buffers poisoned first.
#include "helpers.hpp"

#include <catch2/catch.hpp>

#include <map>

using Catch::Matchers::Contains;
using merklize::blake3_device;
using merklize::blake3_mode;
using merklize::chunk_strategy;
using test::host_output;

namespace {

// The three modes with the official vectors' key and context, on the device and on the host.
struct mode_case {
  std::string name;
  blake3_mode device;
  merklize::blake3::hasher host;
};

const std::vector<mode_case> &modes() {
  static const std::vector<mode_case> cases = [] {
    const auto &v = test::official_vectors();
    const auto key = reinterpret_cast<const std::uint8_t *>(v["key"].str.data());
    const std::string context = v["context_string"].str;
    return std::vector<mode_case>{
        {"hash", blake3_mode::hash(), merklize::blake3::hasher()},
        {"keyed_hash", blake3_mode::keyed(key), merklize::blake3::hasher::keyed(key)},
        {"derive_key", blake3_mode::derive_key(context),
         merklize::blake3::hasher::derive_key(context)}};
  }();
  return cases;
}

std::vector<std::uint8_t> device_output(blake3_device &b3, const blake3_mode &mode,
                                        const std::vector<std::uint8_t> &input,
                                        std::size_t out_bytes) {
  std::vector<std::uint8_t> out(out_bytes, test::poison_byte);
  b3.hash(mode, input.data(), input.size(), out.data(), out.size());
  return out;
}

blake3_device make_device(chunk_strategy strategy, std::uint64_t max_device_bytes = 0,
                          std::size_t work_group_size = 0) {
  merklize::hash_config cfg;
  cfg.strategy = strategy;
  cfg.max_device_bytes = max_device_bytes;
  cfg.work_group_size = work_group_size;
  return blake3_device(test::test_device(), cfg);
}

// Input lengths around every boundary of the device's tree up to 2^11 chunks: a block, a chunk,
// 2^k chunks, and a whole work-group of work-items of every strategy (64 x 1..16 chunks).
std::vector<std::uint64_t> boundary_lengths() {
  std::vector<std::uint64_t> lengths{0,   1,    63,   64,   65,   127,  128,
                                     129, 1023, 1024, 1025, 1087, 1088, 1089};
  std::vector<std::uint64_t> chunk_counts;
  for (unsigned k = 1; k <= 11; ++k)
    chunk_counts.push_back(std::uint64_t(1) << k);
  for (unsigned lanes : {1, 2, 4, 8, 16})
    chunk_counts.push_back(64 * lanes);
  for (std::uint64_t c : chunk_counts)
    for (std::uint64_t chunks : {c - 1, c, c + 1})
      for (std::int64_t delta : {-1, 0, 1})
        if (chunks > 0) lengths.push_back(chunks * 1024 + delta);
  std::sort(lengths.begin(), lengths.end());
  lengths.erase(std::unique(lengths.begin(), lengths.end()), lengths.end());
  return lengths;
}

struct random_case {
  std::vector<std::uint8_t> input;
  std::size_t mode;
  std::vector<std::uint8_t> expected; // 32 bytes, or 100 for every fifth length
};

// Random inputs of the boundary lengths and their host outputs, computed once for all strategies.
const std::vector<random_case> &random_cases() {
  static const std::vector<random_case> cases = [] {
    std::vector<random_case> all;
    for (std::uint64_t length : boundary_lengths()) {
      random_case c{test::random_bytes(length), all.size() % modes().size(), {}};
      c.expected = host_output(modes()[c.mode].host, c.input, all.size() % 5 == 0 ? 100 : 32);
      all.push_back(std::move(c));
    }
    return all;
  }();
  return cases;
}

} // namespace

TEST_CASE("device BLAKE3 matches every official vector with every chunk strategy",
          "[hash][vectors]") {
  const auto strategy = GENERATE(from_range(std::begin(merklize::all_chunk_strategies),
                                            std::end(merklize::all_chunk_strategies)));
  blake3_device b3 = make_device(strategy);
  REQUIRE(b3.strategy() == strategy);
  const auto &v = test::official_vectors();
  REQUIRE(v["cases"].items.size() == 35);
  for (const auto &c : v["cases"].items) {
    const auto input = test::official_input(c["input_len"].u64());
    for (const auto &mode : modes()) {
      INFO(merklize::to_string(strategy) << " " << mode.name << " input_len " << input.size());
      const std::string expected = c[mode.name].str; // 131 bytes of extended output
      const auto out = device_output(b3, mode.device, input, expected.size() / 2);
      CHECK(merklize::to_hex(out.data(), out.size()) == expected);
    }
    // The one-shot functions give the first 32 bytes.
    const auto key = reinterpret_cast<const std::uint8_t *>(v["key"].str.data());
    CHECK(merklize::to_hex(b3.hash(input.data(), input.size())) == c["hash"].str.substr(0, 64));
    CHECK(merklize::to_hex(b3.keyed_hash(key, input.data(), input.size())) ==
          c["keyed_hash"].str.substr(0, 64));
    CHECK(merklize::to_hex(b3.derive_key(v["context_string"].str, input.data(), input.size())) ==
          c["derive_key"].str.substr(0, 64));
  }
}

TEST_CASE("random inputs around every boundary match the host BLAKE3", "[hash][random]") {
  const auto strategy = GENERATE(from_range(std::begin(merklize::all_chunk_strategies),
                                            std::end(merklize::all_chunk_strategies)));
  blake3_device b3 = make_device(strategy);
  for (const auto &c : random_cases()) {
    INFO(merklize::to_string(strategy)
         << " " << modes()[c.mode].name << " length " << c.input.size());
    REQUIRE(device_output(b3, modes()[c.mode].device, c.input, c.expected.size()) == c.expected);
    CHECK(b3.last_times().pieces == 1);
  }
}

TEST_CASE("work-groups of any size hash every chunk once", "[hash][work-group]") {
  for (auto strategy : {chunk_strategy::one_chunk, chunk_strategy::lanes8})
    for (std::size_t wg : {1, 3, 7}) {
      blake3_device b3 = make_device(strategy, 0, wg);
      const std::uint64_t per_group = wg * merklize::chunks_per_work_item(strategy);
      for (std::uint64_t chunks : {per_group - 1, per_group, per_group + 1, 3 * per_group + 1})
        for (std::uint64_t length : {chunks * 1024, chunks * 1024 + 500}) {
          INFO(merklize::to_string(strategy) << " work-group " << wg << " length " << length);
          const auto input = test::random_bytes(length);
          CHECK(b3.hash(input.data(), input.size()) ==
                merklize::blake3::hash(input.data(), input.size()));
        }
    }
}

TEST_CASE("inputs needing several launches of the parent kernel match the host BLAKE3",
          "[hash][random]") {
  // blake3_parents merges at most 2^9 nodes per launch (256 work-items): from 2^10 + 1 chunks
  // on, the root's children take two launches, which swap the scratch buffers twice.
  blake3_device b3 = make_device(chunk_strategy::automatic);
  for (std::uint64_t length : {(1ull << 10) * 1024 + 1, (1ull << 12) * 1024 + 3000}) {
    INFO("length " << length);
    const auto input = test::random_bytes(length);
    CHECK(b3.hash(input.data(), input.size()) ==
          merklize::blake3::hash(input.data(), input.size()));
    CHECK(b3.last_times().kernel_launches >= 4); // chunks, two parent launches, output
  }
}

TEST_CASE("extended output of any length, in several pieces, matches the host BLAKE3",
          "[hash][xof]") {
  // A 2048-byte device limit makes output pieces of 1024 bytes.
  for (std::uint64_t max_device_bytes : {0ull, 2048ull}) {
    blake3_device b3 = make_device(chunk_strategy::automatic, max_device_bytes);
    for (std::uint64_t length : {0, 100, 1024, 5000}) {
      const auto input = test::random_bytes(length);
      for (std::size_t out_bytes : {1, 31, 63, 64, 65, 1023, 1024, 1025, 5000}) {
        INFO("limit " << max_device_bytes << " length " << length << " output " << out_bytes);
        const auto &mode = modes()[out_bytes % 3];
        CHECK(device_output(b3, mode.device, input, out_bytes) ==
              host_output(mode.host, input, out_bytes));
      }
    }
  }
}

TEST_CASE("no output bytes asked: nothing is written", "[hash][xof]") {
  blake3_device b3 = make_device(chunk_strategy::automatic);
  const auto input = test::random_bytes(3000);
  std::uint8_t untouched = test::poison_byte;
  b3.hash(blake3_mode::hash(), input.data(), input.size(), &untouched, 0);
  CHECK(untouched == test::poison_byte);
}

TEST_CASE("inputs longer than max_device_bytes are streamed in pieces", "[hash][stream]") {
  // Pieces are the largest power-of-two number of chunks of which two fit the limit.
  const std::pair<std::uint64_t, std::uint64_t> limits[] = {
      {2048, 1024}, {4096, 2048}, {10000, 4096}};
  for (const auto &[limit, piece] : limits) {
    blake3_device b3 = make_device(chunk_strategy::automatic, limit);
    for (std::uint64_t length : {limit - 1, limit, limit + 1, 3 * piece, 5 * piece + 1,
                                 8 * piece - 1, 8 * piece, 8 * piece + 1, 17 * piece + 1000}) {
      INFO("limit " << limit << " length " << length);
      const auto input = test::random_bytes(length);
      const auto &mode = modes()[length % 3];
      CHECK(device_output(b3, mode.device, input, 70) == host_output(mode.host, input, 70));
      CHECK(b3.last_times().pieces == (length <= limit ? 1 : (length + piece - 1) / piece));
    }
  }
}

TEST_CASE("a reader is streamed whatever its read sizes and size hint", "[hash][stream]") {
  for (std::uint64_t limit : {0ull, 4096ull}) {
    blake3_device b3 = make_device(chunk_strategy::automatic, limit);
    for (std::uint64_t length : {0, 1, 1024, 1025, 4096, 4097, 20000}) {
      const auto input = test::random_bytes(length);
      const auto expected = host_output(merklize::blake3::hasher(), input, 40);
      for (std::uint64_t hint : {length, blake3_device::unknown_size, std::uint64_t(1)}) {
        INFO("limit " << limit << " length " << length << " hint " << hint);
        std::size_t at = 0;
        const blake3_device::reader read = [&](std::uint8_t *buffer, std::size_t capacity) {
          std::size_t take =
              std::min<std::size_t>({capacity, input.size() - at, 1 + test::rng()() % 1500});
          std::copy(input.begin() + at, input.begin() + at + take, buffer);
          at += take;
          return take;
        };
        std::vector<std::uint8_t> out(40);
        b3.hash_stream(blake3_mode::hash(), read, out.data(), out.size(), hint);
        CHECK(out == expected);
        CHECK(at == input.size());
      }
    }
  }
}

TEST_CASE("device buffers: exactly the output bytes are written, the input untouched",
          "[hash][buffers]") {
  const auto strategy = GENERATE(from_range(std::begin(merklize::all_chunk_strategies),
                                            std::end(merklize::all_chunk_strategies)));
  blake3_device b3 = make_device(strategy);
  for (std::uint64_t length : {0, 1, 1024, 1025, 40000}) {
    for (std::uint64_t out_bytes : {1, 32, 65, 200}) {
      INFO(merklize::to_string(strategy) << " length " << length << " output " << out_bytes);
      const auto input = test::random_bytes(length);
      const std::size_t input_bytes = std::max<std::size_t>(length, 1);
      cl::Buffer in(b3.context(), CL_MEM_READ_ONLY, input_bytes);
      if (length > 0) b3.queue().enqueueWriteBuffer(in, CL_TRUE, 0, length, input.data());
      const std::size_t room = out_bytes + 64; // poison past the end shows any overrun
      cl::Buffer out = test::poisoned_buffer(b3.context(), b3.queue(), room);
      const auto &mode = modes()[out_bytes % 3];
      b3.enqueue_hash(mode.device, in, length, out, out_bytes).back().wait();
      auto written = test::read_buffer(b3.queue(), out, room);
      CHECK(std::all_of(written.begin() + out_bytes, written.end(),
                        [](auto b) { return b == test::poison_byte; }));
      written.resize(out_bytes);
      CHECK(written == host_output(mode.host, input, out_bytes));
      if (length > 0) CHECK(test::read_buffer(b3.queue(), in, length) == input);
    }
  }
}

TEST_CASE("bad arguments to blake3_device are clear errors", "[hash][errors]") {
  CHECK_THROWS_WITH(make_device(chunk_strategy::automatic, 2047),
                    Contains("max_device_bytes is 2047") && Contains("2048"));
  CHECK_THROWS_WITH(make_device(chunk_strategy::automatic, 0, 1u << 30),
                    Contains("work-group size 1073741824 exceeds"));
  CHECK_THROWS_WITH(merklize::parse_chunk_strategy("lanes3"),
                    Contains("unknown chunk strategy \"lanes3\""));

  blake3_device b3 = make_device(chunk_strategy::automatic);
  cl::Buffer in(b3.context(), CL_MEM_READ_ONLY, 100);
  cl::Buffer out = test::poisoned_buffer(b3.context(), b3.queue(), 32);
  CHECK_THROWS_WITH(b3.enqueue_hash(blake3_mode::hash(), in, 101, out, 32),
                    Contains("input buffer too small") && Contains("101"));
  CHECK_THROWS_WITH(b3.enqueue_hash(blake3_mode::hash(), in, 100, out, 33),
                    Contains("output buffer too small") && Contains("33"));
  const auto after = test::read_buffer(b3.queue(), out, 32);
  CHECK(std::all_of(after.begin(), after.end(), [](auto b) { return b == test::poison_byte; }));
  cl::Context other(test::test_device());
  cl::Buffer foreign(other, CL_MEM_READ_WRITE, 100);
  CHECK_THROWS_WITH(b3.enqueue_hash(blake3_mode::hash(), foreign, 100, out, 32),
                    Contains("another OpenCL context"));
}

TEST_CASE("a failing reader stops the hash, and the device hashes on afterwards",
          "[hash][errors][stream]") {
  blake3_device b3 = make_device(chunk_strategy::automatic, 4096);
  std::size_t calls = 0;
  const blake3_device::reader failing = [&](std::uint8_t *buffer, std::size_t capacity) {
    if (++calls == 4) throw merklize::error("disk on fire");
    std::fill(buffer, buffer + capacity, std::uint8_t(1));
    return capacity;
  };
  std::uint8_t out[32];
  CHECK_THROWS_WITH(b3.hash_stream(blake3_mode::hash(), failing, out, sizeof out),
                    Contains("disk on fire"));
  const blake3_device::reader too_generous = [](std::uint8_t *, std::size_t capacity) {
    return capacity + 1;
  };
  CHECK_THROWS_WITH(b3.hash_stream(blake3_mode::hash(), too_generous, out, sizeof out),
                    Contains("more than the"));
  const auto input = test::random_bytes(9000);
  CHECK(b3.hash(input.data(), input.size()) == merklize::blake3::hash(input.data(), input.size()));
}

TEST_CASE("the automatic chunk strategy follows the documented rule", "[hash][strategy]") {
  const auto width = merklize::detail::device_info<CL_DEVICE_PREFERRED_VECTOR_WIDTH_INT, cl_uint>(
      test::test_device());
  const bool gpu =
      merklize::detail::device_info<CL_DEVICE_TYPE, cl_device_type>(test::test_device()) &
      CL_DEVICE_TYPE_GPU;
  const unsigned lanes = gpu           ? 1
                         : width >= 16 ? 16
                         : width >= 8  ? 8
                         : width >= 4  ? 4
                         : width >= 2  ? 2
                                       : 1;
  const auto expected = merklize::default_chunk_strategy(test::test_device());
  CHECK(merklize::chunks_per_work_item(expected) == lanes);
  CHECK(make_device(chunk_strategy::automatic).strategy() == expected);
  for (auto s : merklize::all_chunk_strategies)
    CHECK(merklize::parse_chunk_strategy(merklize::to_string(s)) == s);
  CHECK(merklize::parse_chunk_strategy("automatic") == chunk_strategy::automatic);
}

// Node mode blake3-parent over the chaining values of the chunks of some data gives the BLAKE3
// hash of the data whenever there are at least two chunks, for any number of chunks, not only
// powers of two: BLAKE3's left-balanced tree puts the largest power of two of chunks less than
// the total on the left, and so does the promote tree (its root splits at 2^(depth - 1) and
// every level pairs aligned nodes), so the two trees are the same; ROOT is set only on the root
// in both. One chunk is the exception: the tree is then the leaf itself, a chaining value
// finished without ROOT, while BLAKE3 sets ROOT on the chunk's last block. Shape zero pads the
// leaves with zero nodes, which BLAKE3 does not, so it agrees only at powers of two.
TEST_CASE("blake3-parent trees over chunk chaining values give the BLAKE3 hash",
          "[hash][blake3-parent]") {
  using namespace merklize::blake3;
  const auto chunk_cvs = [](const std::vector<std::uint8_t> &data) {
    std::vector<std::uint8_t> leaves;
    for (std::size_t c = 0; c * chunk_len < data.size(); ++c) {
      const std::size_t len = std::min(chunk_len, data.size() - c * chunk_len);
      words8 cv = {iv[0], iv[1], iv[2], iv[3], iv[4], iv[5], iv[6], iv[7]};
      for (std::size_t at = 0; at < len; at += block_len) {
        std::uint8_t block[block_len] = {};
        const std::size_t take = std::min(block_len, len - at);
        std::copy(data.begin() + c * chunk_len + at, data.begin() + c * chunk_len + at + take,
                  block);
        const std::uint32_t flags =
            (at == 0 ? chunk_start : 0u) | (at + block_len >= len ? chunk_end : 0u);
        cv = chaining_value(compress(cv, block, c, static_cast<std::uint32_t>(take), flags));
      }
      const auto bytes = cv_bytes(cv);
      leaves.insert(leaves.end(), bytes.begin(), bytes.end());
    }
    return leaves;
  };
  const auto tree_of = [](merklize::shape pad) {
    merklize::config cfg;
    cfg.tree = {merklize::hash_kind::blake3_parent, pad};
    return merklize::merkleizer(test::test_device(), cfg);
  };
  merklize::merkleizer promote = tree_of(merklize::shape::promote);
  merklize::merkleizer zero = tree_of(merklize::shape::zero);
  for (std::uint64_t chunks = 1; chunks <= 70; ++chunks)
    for (std::uint64_t short_by : {0, 1, 1000}) {
      const auto data = test::random_bytes(chunks * chunk_len - short_by);
      const auto leaves = chunk_cvs(data);
      REQUIRE(leaves.size() == chunks * 32);
      const auto expected = hash(data.data(), data.size());
      INFO(chunks << " chunks, the last short by " << short_by);
      const bool power_of_two = (chunks & (chunks - 1)) == 0;
      CHECK((promote.build(leaves).root() == expected) == (chunks > 1));
      CHECK((zero.build(leaves).root() == expected) == (chunks > 1 && power_of_two));
    }
}
