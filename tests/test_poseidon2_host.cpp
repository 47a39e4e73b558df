// SPDX-License-Identifier: Apache-2.0 OR MIT
// The host reference Poseidon2 (core/poseidon2.hpp) against the known answers of Plonky3's tests
// copied into tests/vectors/commitments/poseidon2/ (README there), and the compiled-in constants
// (core/poseidon2_constants/, written by tools/poseidon2_constants.py) against the same files, so
// that neither can drift from the data. Built without OpenCL, sanitized.
#include "host_helpers.hpp"

#include <merklize/core/hashes.hpp>
#include <merklize/core/poseidon2.hpp>

#include <catch2/catch.hpp>

#include <string>
#include <vector>

#if defined(CL_VERSION_1_0)
#error "the host Poseidon2 must not pull in the OpenCL headers"
#endif

namespace p2 = merklize::poseidon2;

namespace {

struct named_instance {
  const char *file;
  const p2::instance &instance;
};

const named_instance instances[] = {
    {"babybear_w16.json", p2::babybear_16},   {"babybear_w24.json", p2::babybear_24},
    {"koalabear_w16.json", p2::koalabear_16}, {"koalabear_w24.json", p2::koalabear_24},
    {"goldilocks_w8.json", p2::goldilocks_8}, {"goldilocks_w12.json", p2::goldilocks_12},
};

json::value vector_doc(const char *file) {
  return json::parse_file(test::vector_path(std::string("commitments/poseidon2/") + file));
}

std::vector<std::uint64_t> numbers(const json::value &list) {
  std::vector<std::uint64_t> out;
  for (const json::value &v : list.items) {
    if (v.kind == json::value::array)
      for (const json::value &w : v.items)
        out.push_back(std::stoull(w.str));
    else
      out.push_back(std::stoull(v.str));
  }
  return out;
}

std::vector<std::uint64_t> compiled(const std::uint64_t *values, std::size_t n) {
  return {values, values + n};
}

p2::state state_of(const std::vector<std::uint64_t> &values) {
  p2::state x{};
  std::copy(values.begin(), values.end(), x.begin());
  return x;
}

merklize::digest digest_of(const std::uint64_t *elements, unsigned limb_bytes) {
  merklize::digest d{};
  for (unsigned i = 0; i < 32 / limb_bytes; ++i)
    for (unsigned b = 0; b < limb_bytes; ++b)
      d[i * limb_bytes + b] = static_cast<std::uint8_t>(elements[i] >> (8 * b));
  return d;
}

} // namespace

TEST_CASE("poseidon2: the compiled-in constants are the copied data", "[poseidon2]") {
  for (const named_instance &n : instances) {
    INFO(n.file);
    const json::value doc = vector_doc(n.file);
    const p2::instance &in = n.instance;
    CHECK(std::stoull(doc["prime"].str) == in.prime);
    CHECK(doc["width"].u64() == in.width);
    CHECK(doc["sbox_degree"].u64() == in.sbox_degree);
    CHECK(doc["rounds_p"].u64() == in.rounds_p);
    CHECK(doc["rounds_f"].u64() == 8);
    CHECK(numbers(doc["external_initial"]) == compiled(in.external_initial, 4 * in.width));
    CHECK(numbers(doc["internal"]) == compiled(in.internal, in.rounds_p));
    CHECK(numbers(doc["external_final"]) == compiled(in.external_final, 4 * in.width));
    CHECK(numbers(doc["internal_diag"]) == compiled(in.internal_diag, in.width));
  }
}

TEST_CASE("poseidon2: every permutation's known answers", "[poseidon2]") {
  for (const named_instance &n : instances) {
    const json::value doc = vector_doc(n.file);
    REQUIRE(!doc["vectors"].items.empty());
    for (const json::value &v : doc["vectors"].items) {
      INFO(n.file << " " << v["test"].str);
      p2::state x = state_of(numbers(v["input"]));
      const p2::state want = state_of(numbers(v["output"]));
      p2::permute(x, n.instance);
      CHECK(x == want);
      x = state_of(numbers(v["input"])); // and a state that changes is not a fixed point
      x[1] = (x[1] + 1) % n.instance.prime;
      p2::permute(x, n.instance);
      CHECK(x != want);
    }
  }
}

// The compression reads and writes digests as bytes; the known answers' input as left || right
// is a state whose permutation is known, so the first half of its output is the digest.
TEST_CASE("poseidon2: the 2-to-1 compressions from the known answers", "[poseidon2]") {
  for (const named_instance &n : {instances[0], instances[2], instances[4]}) {
    INFO(n.file);
    const json::value v = vector_doc(n.file)["vectors"].items.at(0);
    const std::vector<std::uint64_t> in = numbers(v["input"]), out = numbers(v["output"]);
    const unsigned half = n.instance.width / 2, limb = 32 / half;
    const merklize::digest left = digest_of(in.data(), limb),
                           right = digest_of(in.data() + half, limb);
    CHECK(p2::compress(left, right, n.instance) == digest_of(out.data(), limb));
    CHECK(p2::compress(right, left, n.instance) != digest_of(out.data(), limb));
  }
}

TEST_CASE("poseidon2: non-canonical limbs are found", "[poseidon2]") {
  merklize::digest d{};
  CHECK(p2::first_non_canonical(d, p2::babybear_16) == -1);
  const std::uint64_t p = p2::babybear_16.prime;
  const std::uint64_t below[8] = {0, 0, 0, p - 1, 0, 0, 0, 0}, at[8] = {0, 0, 0, 0, 0, p, 0, 0};
  CHECK(p2::first_non_canonical(digest_of(below, 4), p2::babybear_16) == -1);
  CHECK(p2::first_non_canonical(digest_of(at, 4), p2::babybear_16) == 5);
  CHECK(p2::first_non_canonical(digest_of(at, 4), p2::koalabear_16) == -1); // its p is larger
  const std::uint64_t g[4] = {0, p2::goldilocks_8.prime - 1, ~0ull, 0};
  CHECK(p2::first_non_canonical(digest_of(g, 8), p2::goldilocks_8) == 2);
}

TEST_CASE("poseidon2: the hashes' rows refuse non-canonical leaves, naming leaf and limb",
          "[poseidon2]") {
  const std::uint64_t p = p2::babybear_16.prime;
  const std::uint64_t bad[8] = {1, 2, p + 5, 0, 0, 0, 0, 0};
  CHECK(merklize::leaf_refusal(merklize::hash_kind::poseidon2_babybear, digest_of(bad, 4), 7) ==
        "leaf 7, limb 2 (2013265926) is not a canonical BabyBear element (below p = 2013265921)");
  CHECK(merklize::leaf_refusal(merklize::hash_kind::poseidon2_koalabear, digest_of(bad, 4), 7)
            .empty());
  CHECK(merklize::leaf_refusal(merklize::hash_kind::sha256, digest_of(bad, 4), 7).empty());
  const std::uint64_t g[4] = {0, 0, 0, p2::goldilocks_8.prime};
  CHECK_THAT(
      merklize::leaf_refusal(merklize::hash_kind::poseidon2_goldilocks, digest_of(g, 8), 0),
      Catch::Contains("leaf 0, limb 3 (18446744069414584321) is not a canonical Goldilocks"));
  namespace bn254 = merklize::poseidon2::bn254; // one element: p - 1 is a leaf, p is not
  const bn254::limbs p1{bn254::prime[0] - 1, bn254::prime[1], bn254::prime[2], bn254::prime[3]};
  CHECK(merklize::leaf_refusal(merklize::hash_kind::poseidon2_bn254, bn254::digest_of(p1), 9)
            .empty());
  const merklize::digest bn = bn254::digest_of(bn254::prime);
  CHECK_THAT(
      merklize::leaf_refusal(merklize::hash_kind::poseidon2_bn254, bn, 9),
      Catch::StartsWith("leaf 9, element 0x30644e72e131a029b85045b68181585d2833e84879b9709143"
                        "e1f593f0000001 is not a canonical BN254 Fr element (below p = "));
}
