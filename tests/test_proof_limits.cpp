// SPDX-License-Identifier: Apache-2.0 OR MIT
// Hostile JSON proofs cost time and memory in proportion to their size: 100,000 keys, a 50 MB
// array, a text over the size limit, deep nesting. This program replaces the global allocator to
// measure the peak of what the decoders hold (so it is built without sanitizers, which bring
// their own), and is built optimized, as a user's program is. The only timing checked is a cap
// on CPU time of several seconds that a quadratic algorithm cannot meet (it took 33 s on
// 100,000 keys); CPU time, as other work on the machine stretches the wall-clock time.
#include "proof_helpers.hpp"

#include <catch2/catch.hpp>

#include <atomic>
#include <cstdlib>
#include <ctime>
#include <new>

using Catch::Matchers::Contains;
namespace strict = merklize::detail::json;

namespace {

std::atomic<std::size_t> allocated{0}, peak_allocated{0};
constexpr std::size_t header = alignof(std::max_align_t); // where each block keeps its size

void *counted_allocation(std::size_t size) {
  auto *block = static_cast<unsigned char *>(std::malloc(size + header));
  if (!block) throw std::bad_alloc();
  *reinterpret_cast<std::size_t *>(block) = size;
  const std::size_t now = allocated += size;
  for (std::size_t peak = peak_allocated; now > peak;)
    if (peak_allocated.compare_exchange_weak(peak, now)) break;
  return block + header;
}

void counted_free(void *pointer) noexcept {
  if (!pointer) return;
  auto *block = static_cast<unsigned char *>(pointer) - header;
  allocated -= *reinterpret_cast<std::size_t *>(block);
  std::free(block);
}

constexpr double max_seconds = 5; // generous: each case takes well under a second

// Runs `f`, checking that it takes at most max_seconds of CPU time and holds at most `max_bytes`
// more than before at any moment.
template <class F> void within(std::size_t max_bytes, F f) {
  const std::size_t before = allocated;
  peak_allocated = before;
  const std::clock_t start = std::clock();
  f();
  const double took = double(std::clock() - start) / CLOCKS_PER_SEC;
  const std::size_t peak = peak_allocated - before;
  INFO("took " << took << " s of CPU time, held up to " << peak << " bytes");
  CHECK(took < max_seconds);
  CHECK(peak <= max_bytes);
}

constexpr std::size_t mib = std::size_t(1) << 20;
constexpr std::size_t fifty_mb = 50000000;

// A valid JSON proof of `kind` ("inclusion" or "multiproof") whose member `key` holds `value`.
std::string proof_with(bool multi, const std::string &key, const std::string &value) {
  const auto t = test::random_tree(4, {});
  std::string text = multi ? merklize::to_json(merklize::prove_multi(t, {0, 2}))
                           : merklize::to_json(merklize::prove(t, 0));
  const std::string member = "\"" + key + "\":";
  const auto at = text.find(member) + member.size();
  const auto end = key == "indices" || key == "nodes" || key == "siblings"
                       ? text.find(']', at) + 1
                       : text.find_first_of(",}", at);
  return text.replace(at, end - at, value);
}

// "[item,item,...]" of at least `bytes` bytes; items_in() counts its items.
std::string array_of(const std::string &item, std::size_t bytes) {
  std::string text = "[";
  text.reserve(bytes + item.size() + 2);
  while (text.size() < bytes)
    text += item + ",";
  text.back() = ']';
  return text;
}

std::size_t items_in(const std::string &array, const std::string &item) {
  return (array.size() - 1) / (item.size() + 1);
}

} // namespace

void *operator new(std::size_t size) { return counted_allocation(size); }
void *operator new[](std::size_t size) { return counted_allocation(size); }
void operator delete(void *pointer) noexcept { counted_free(pointer); }
void operator delete[](void *pointer) noexcept { counted_free(pointer); }
void operator delete(void *pointer, std::size_t) noexcept { counted_free(pointer); }
void operator delete[](void *pointer, std::size_t) noexcept { counted_free(pointer); }

TEST_CASE("a JSON proof of 100,000 keys is refused at once", "[proof][limits]") {
  std::string keys;
  for (int k = 0; k < 100000; ++k)
    keys += ",\"k" + std::to_string(k) + "\":0";
  const std::string proof = proof_with(false, "index", "0" + keys);
  REQUIRE(proof.size() > 1000000);
  within(mib, [&] {
    CHECK_THROWS_WITH(merklize::inclusion_proof_from_json(proof), Contains("unknown key \"k0\""));
  });
  const std::string object = "{" + keys.substr(1) + "}";
  within(mib, [&] {
    CHECK_THROWS_WITH(merklize::inclusion_proof_from_json(object), Contains("has no \"format\""));
  });
  std::string repeated = "0";
  for (int k = 0; k < 100000; ++k)
    repeated += ",\"index\":0";
  const std::string duplicates = proof_with(false, "index", repeated);
  within(mib, [&] {
    CHECK_THROWS_WITH(merklize::inclusion_proof_from_json(duplicates),
                      Contains("duplicate key \"index\""));
  });
}

TEST_CASE("the whole-document reader finds a duplicate among 100,000 keys in O(n log n)",
          "[json][limits]") {
  std::string object = "{";
  for (int k = 0; k < 100000; ++k) // four letters a key: the object stays under parse()'s 1 MiB
    object += std::string{'"',
                          char('a' + k / 17576),
                          char('a' + k / 676 % 26),
                          char('a' + k / 26 % 26),
                          char('a' + k % 26),
                          '"',
                          ':',
                          '0',
                          ','};
  REQUIRE(object.size() + 10 < strict::max_tree_bytes);
  const std::string distinct = object.substr(0, object.size() - 1) + "}";
  const std::string twice = object + "\"dcba\":1}";
  within(100 * mib, [&] { CHECK(strict::parse(distinct).members.size() == 100000); });
  within(100 * mib,
         [&] { CHECK_THROWS_WITH(strict::parse(twice), Contains("duplicate key \"dcba\"")); });
  const std::string over(strict::max_tree_bytes + 1, ' ');
  within(mib, [&] {
    CHECK_THROWS_WITH(strict::parse(over), Contains("1048577 bytes, more than the 1048576"));
  });
}

TEST_CASE("a 50 MB array in a JSON proof costs memory in proportion to it", "[proof][limits]") {
  SECTION("50 MB of indices decode into their 8 bytes each, no more") {
    const std::string indices = array_of("0", fifty_mb);
    const std::string text = proof_with(true, "indices", indices);
    within(4 * text.size() + mib, [&] {
      CHECK(merklize::multiproof_from_json(text).indices.size() == items_in(indices, "0"));
    });
  }
  SECTION("50 MB of siblings decode into their 32 bytes each") {
    const std::string hex = "\"" + std::string(64, 'a') + "\"";
    const std::string siblings = array_of(hex, fifty_mb);
    const std::string text = proof_with(false, "siblings", siblings);
    within(text.size() / 2 + mib, [&] {
      CHECK(merklize::inclusion_proof_from_json(text).siblings.size() == items_in(siblings, hex));
    });
  }
  SECTION("50 MB of strings too short to be nodes hold no more than nodes would") {
    const std::string text = proof_with(false, "siblings", array_of("\"ab\"", fifty_mb));
    within(text.size() / 2 + mib, [&] {
      CHECK_THROWS_WITH(merklize::inclusion_proof_from_json(text),
                        Contains("\"siblings\"[0]: a digest is 64 hex digits, got 2"));
    });
  }
  SECTION("50 MB under an unknown key are read past, holding nothing") {
    const std::string text = proof_with(false, "index", "0,\"extra\":" + array_of("[1]", fifty_mb));
    within(mib, [&] {
      CHECK_THROWS_WITH(merklize::inclusion_proof_from_json(text), Contains("unknown key"));
    });
  }
  SECTION("50 MB of the wrong kind are read past, holding nothing") {
    const std::string text = proof_with(false, "siblings", array_of("{\"a\":[0]}", fifty_mb));
    const std::string array = array_of("0", fifty_mb);
    within(mib, [&] {
      CHECK_THROWS_WITH(merklize::inclusion_proof_from_json(text),
                        Contains("\"siblings\"[0] is not a string"));
      CHECK_THROWS_WITH(merklize::multiproof_from_json(array),
                        Contains("the proof is not a JSON object"));
    });
  }
}

TEST_CASE("a JSON proof over 64 MiB or nested deeper than 64 is refused at once",
          "[proof][limits]") {
  CHECK(merklize::max_json_proof_bytes == 64 * mib);
  const std::string over(merklize::max_json_proof_bytes + 1, ' ');
  const std::string deep(fifty_mb, '[');
  within(mib, [&] {
    CHECK_THROWS_WITH(merklize::inclusion_proof_from_json(over),
                      Contains("67108865 bytes, more than the 67108864"));
    CHECK_THROWS_WITH(merklize::multiproof_from_json(deep), Contains("nesting deeper than 64"));
  });
}
