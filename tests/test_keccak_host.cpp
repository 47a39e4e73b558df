// SPDX-License-Identifier: Apache-2.0 OR MIT
// The host Keccak-256 and SHA3-256 (keccak.hpp) against oracles our code did not write: the
// published vectors of tests/vectors/keccak_sha3_256_vectors.json (XKCP, the Keccak team's KATs,
// golang/crypto) and OpenSSL's SHA3-256 at every length from 0 to 300 bytes, the rate's
// boundaries among them, and longer; the incremental hasher cut anywhere; the node hash. Keccak-256
// at every length against pycryptodome: tests/oracles/keccak_oracle.py.
#include "host_helpers.hpp"

#include <merklize/core/keccak.hpp>
#include <merklize/core/keccak_lanes.hpp>

#include <catch2/catch.hpp>

#include <openssl/evp.h>

#include <algorithm>
#include <string>
#include <vector>

namespace {

merklize::digest openssl_sha3_256(const std::uint8_t *data, std::size_t size) {
  merklize::digest d;
  unsigned int length = 0;
  REQUIRE(EVP_Digest(data, size, d.data(), &length, EVP_sha3_256(), nullptr) == 1);
  REQUIRE(length == d.size());
  return d;
}

// Messages of `size` bytes whose bytes depend on their position and the size.
std::vector<std::uint8_t> message(std::size_t size) {
  std::vector<std::uint8_t> m(size);
  for (std::size_t i = 0; i < size; ++i)
    m[i] = static_cast<std::uint8_t>(i * 7 + size);
  return m;
}

// 0..300 (the rate, 136, and its multiples' neighbours 135/136/137 and 271/272/273 among them),
// then a few longer.
std::vector<std::size_t> lengths() {
  std::vector<std::size_t> sizes;
  for (std::size_t n = 0; n <= 300; ++n)
    sizes.push_back(n);
  for (std::size_t n : {407u, 408u, 409u, 1000u, 1087u, 1088u, 1089u, 4096u, 65537u})
    sizes.push_back(n);
  return sizes;
}

} // namespace

TEST_CASE("keccak: the published vectors", "[keccak]") {
  const json::value v = json::parse_file(test::vector_path("keccak_sha3_256_vectors.json"));
  int keccak = 0, sha3 = 0;
  for (const auto &c : v["vectors"].items) {
    const std::string alg = c["alg"].str;
    const auto input = merklize::from_hex(c["input_hex"].str);
    REQUIRE(input.size() == c["input_len_bytes"].u64());
    const bool is_sha3 = alg == "SHA3-256";
    INFO(alg << ": " << c["name"].str);
    REQUIRE((is_sha3 || alg.rfind("Keccak-256", 0) == 0));
    const merklize::digest want = merklize::digest_from_hex(c["digest"].str);
    const merklize::digest got = is_sha3 ? merklize::keccak::sha3_256(input.data(), input.size())
                                         : merklize::keccak::keccak256(input.data(), input.size());
    CHECK(merklize::to_hex(got) == merklize::to_hex(want));
    // The incremental hasher, cut at every place.
    const std::uint8_t pad = is_sha3 ? merklize::keccak::sha3_pad : merklize::keccak::keccak_pad;
    for (std::size_t cut = 0; cut <= input.size(); ++cut) {
      merklize::keccak::hasher h(pad);
      h.update(input.data(), cut).update(input.data() + cut, input.size() - cut);
      CHECK(h.finalize() == want);
    }
    ++(is_sha3 ? sha3 : keccak);
  }
  CHECK(sha3 == 4);
  CHECK(keccak == 3);
}

TEST_CASE("keccak: SHA3-256 equals OpenSSL's at every length to 300 and beyond", "[keccak]") {
  for (std::size_t n : lengths()) {
    INFO(n << " bytes");
    const auto m = message(n);
    const merklize::digest want = openssl_sha3_256(m.data(), m.size());
    CHECK(merklize::keccak::sha3_256(m.data(), m.size()) == want);
    // In pieces of every size from 1 to 137 bytes, each straddling the rate differently.
    for (std::size_t piece : {1u, 7u, 64u, 135u, 136u, 137u}) {
      merklize::keccak::hasher h(merklize::keccak::sha3_pad);
      for (std::size_t at = 0; at < n; at += piece)
        h.update(m.data() + at, std::min(piece, n - at));
      CHECK(h.finalize() == want);
    }
  }
  const auto random = test::random_bytes(100000);
  CHECK(merklize::keccak::sha3_256(random.data(), random.size()) ==
        openssl_sha3_256(random.data(), random.size()));
}

TEST_CASE("keccak: the two hashes differ only in the padding byte", "[keccak]") {
  for (std::size_t n : {0u, 1u, 135u, 136u, 137u, 272u}) {
    const auto m = message(n);
    CHECK(merklize::keccak::keccak256(m.data(), n) != merklize::keccak::sha3_256(m.data(), n));
    CHECK(merklize::keccak::hasher(merklize::keccak::keccak_pad).update(m.data(), n).finalize() ==
          merklize::keccak::keccak256(m.data(), n));
  }
  // finalize() leaves the hasher as it was.
  merklize::keccak::hasher h;
  h.update("ab", 2);
  CHECK(h.finalize() == h.finalize());
  CHECK(h.update("c", 1).finalize() == merklize::keccak::keccak256("abc", 3));
}

TEST_CASE("keccak: the node hash is the hash of the 64 bytes left || right", "[keccak]") {
  const auto bytes = test::random_bytes(64);
  merklize::digest left, right;
  std::copy(bytes.begin(), bytes.begin() + 32, left.begin());
  std::copy(bytes.begin() + 32, bytes.end(), right.begin());
  CHECK(merklize::keccak::hash_pair(merklize::keccak::keccak_pad, left, right) ==
        merklize::keccak::keccak256(bytes.data(), 64));
  CHECK(merklize::keccak::hash_pair(merklize::keccak::sha3_pad, left, right) ==
        openssl_sha3_256(bytes.data(), 64));
}

TEST_CASE("keccak: nodes in vector lanes are the sponge's, at every count around the lanes",
          "[keccak]") {
  using merklize::detail::keccak_isa;
  std::vector<keccak_isa> isas{keccak_isa::portable};
#ifdef MERKLIZE_KECCAK_LANES
  if (__builtin_cpu_supports("avx2")) isas.push_back(keccak_isa::avx2);
  if (__builtin_cpu_supports("avx512f")) isas.push_back(keccak_isa::avx512);
#endif
  if (isas.size() == 1) WARN("this CPU has neither AVX2 nor AVX-512: only the portable code ran");
  const auto in = test::random_bytes(64 * 41);
  for (const keccak_isa isa : isas)
    for (const std::uint8_t pad : {merklize::keccak::keccak_pad, merklize::keccak::sha3_pad})
      for (const std::uint64_t pairs : {1, 2, 3, 4, 5, 7, 8, 9, 12, 15, 16, 17, 41}) {
        INFO("isa " << int(isa) << ", pad " << int(pad) << ", " << pairs << " pairs");
        std::vector<std::uint8_t> out(32 * pairs + 32, 0xA5); // poisoned, one node past the end
        merklize::detail::keccak_pairs_on(isa, pad, in.data(), out.data(), pairs);
        for (std::uint64_t i = 0; i < pairs; ++i) {
          merklize::digest left, right, got;
          std::copy(in.begin() + 64 * i, in.begin() + 64 * i + 32, left.begin());
          std::copy(in.begin() + 64 * i + 32, in.begin() + 64 * i + 64, right.begin());
          std::copy(out.begin() + 32 * i, out.begin() + 32 * i + 32, got.begin());
          CHECK(got == merklize::keccak::hash_pair(pad, left, right));
        }
        CHECK(std::all_of(out.end() - 32, out.end(), [](std::uint8_t b) { return b == 0xA5; }));
      }
  // SHA3-256 nodes in lanes against OpenSSL too.
  std::vector<std::uint8_t> out(32 * 9);
  merklize::detail::keccak_pairs_on(isas.back(), merklize::keccak::sha3_pad, in.data(), out.data(),
                                    9);
  const merklize::digest last = openssl_sha3_256(in.data() + 64 * 8, 64);
  CHECK(std::equal(last.begin(), last.end(), out.begin() + 32 * 8));
}
