// SPDX-License-Identifier: Apache-2.0 OR MIT
// The host Poseidon2 over BN254 (core/poseidon2_bn254.hpp): its Fr arithmetic against big-integer
// identities, its compiled-in constants against the copied data
// (tests/vectors/commitments/poseidon2/bn254_w3.json, HorizenLabs/poseidon2), its permutation
// against the known answer there, and its tree's node against an answer of the independent Python
// model (tests/poseidon2_model.py). Built without OpenCL, sanitized.
#include "bn254_decimal.hpp"
#include "host_helpers.hpp"

#include <merklize/core/poseidon2_bn254.hpp>

#include <catch2/catch.hpp>

#include <string>
#include <vector>

#if defined(CL_VERSION_1_0)
#error "the host Poseidon2 must not pull in the OpenCL headers"
#endif

namespace bn = merklize::poseidon2::bn254;

namespace {

std::vector<bn::limbs> numbers(const json::value &list) {
  std::vector<bn::limbs> out;
  for (const json::value &v : list.items) {
    if (v.kind == json::value::array)
      for (const json::value &w : v.items)
        out.push_back(test::bn254_from_decimal(w.str));
    else
      out.push_back(test::bn254_from_decimal(v.str));
  }
  return out;
}

json::value bn254_doc() {
  return json::parse_file(test::vector_path("commitments/poseidon2/bn254_w3.json"));
}

bn::limbs minus(const bn::limbs &v, std::uint64_t k) { // v - k, v at least k
  bn::limbs out = v;
  for (std::uint64_t &limb : out) {
    const bool borrow = limb < k;
    limb -= k;
    k = borrow;
  }
  return out;
}

} // namespace

TEST_CASE("poseidon2 bn254: the compiled-in constants are the copied data", "[poseidon2]") {
  const json::value doc = bn254_doc();
  namespace c = merklize::poseidon2::constants;
  CHECK(test::bn254_from_decimal(doc["prime"].str) == bn::prime);
  CHECK(doc["width"].u64() == 3);
  CHECK(doc["sbox_degree"].u64() == 5);
  CHECK(doc["rounds_f"].u64() == 8);
  CHECK(doc["rounds_p"].u64() == c::bn254_w3_rounds_p);
  CHECK(numbers(doc["external_initial"]) ==
        std::vector<bn::limbs>(c::bn254_w3_external_initial, c::bn254_w3_external_initial + 12));
  CHECK(numbers(doc["internal"]) ==
        std::vector<bn::limbs>(c::bn254_w3_internal, c::bn254_w3_internal + 56));
  CHECK(numbers(doc["external_final"]) ==
        std::vector<bn::limbs>(c::bn254_w3_external_final, c::bn254_w3_external_final + 12));
  CHECK(numbers(doc["internal_diag"]) ==
        std::vector<bn::limbs>(c::bn254_w3_internal_diag, c::bn254_w3_internal_diag + 3));
}

TEST_CASE("poseidon2 bn254: Fr arithmetic at the corners", "[poseidon2]") {
  const bn::limbs zero{}, one{1, 0, 0, 0}, two{2, 0, 0, 0}, p1 = minus(bn::prime, 1);
  const bn::limbs mone = bn::to_montgomery(one), mp1 = bn::to_montgomery(p1);
  CHECK(bn::from_montgomery(mone) == one);
  CHECK(bn::to_montgomery(bn::prime) == zero);                          // p is 0
  CHECK(bn::from_montgomery(bn::add(mp1, mone)) == zero);               // (p - 1) + 1 = 0
  CHECK(bn::from_montgomery(bn::add(mp1, mp1)) == minus(bn::prime, 2)); // -1 - 1 = p - 2
  CHECK(bn::from_montgomery(bn::mont_mul(mp1, mp1)) == one);            // (-1)^2 = 1
  CHECK(bn::from_montgomery(bn::mont_mul(mp1, bn::to_montgomery(two))) == minus(bn::prime, 2));
  const bn::limbs all{~0ull, ~0ull, ~0ull, ~0ull}; // 2^256 - 1 is taken mod p
  CHECK(bn::from_montgomery(bn::to_montgomery(all)) ==
        bn::limbs{0xac96341c4ffffffaull, 0x36fc76959f60cd29ull, 0x666ea36f7879462eull,
                  0x0e0a77c19a07df2full}); // (2^256 - 1) mod p, from Python's integers
  CHECK(bn::canonical(p1));
  CHECK(!bn::canonical(bn::prime));
  CHECK(!bn::canonical(all));
}

TEST_CASE("poseidon2 bn254: the permutation's known answer", "[poseidon2]") {
  const json::value doc = bn254_doc();
  REQUIRE(!doc["vectors"].items.empty());
  for (const json::value &v : doc["vectors"].items) {
    INFO(v["test"].str);
    const std::vector<bn::limbs> in = numbers(v["input"]), out = numbers(v["output"]);
    bn::state x{in.at(0), in.at(1), in.at(2)};
    bn::permute(x);
    CHECK(x == bn::state{out.at(0), out.at(1), out.at(2)});
    x = bn::state{in.at(0), in.at(1), bn::add(in.at(2), bn::limbs{1, 0, 0, 0})};
    bn::permute(x); // a state that changes is not a fixed point
    CHECK(x != bn::state{out.at(0), out.at(1), out.at(2)});
  }
}

// COMPUTED by the independent model (tests/poseidon2_model.py, Instance.compress over
// bn254_w3.json): the node of [left, right, 0], as hex of its 32 little-endian bytes.
TEST_CASE("poseidon2 bn254: the tree's node against the Python model", "[poseidon2]") {
  const bn::limbs p1 = minus(bn::prime, 1), p2 = minus(bn::prime, 2);
  const struct {
    bn::limbs left, right;
    const char *node;
  } answers[] = {
      {{0, 0, 0, 0},
       {0, 0, 0, 0},
       "823eaaa087cd69eaf1a5e3e9a70dc9135c0d3949ab885bd35b634db100dad12e"},
      {{1, 0, 0, 0},
       {2, 0, 0, 0},
       "d2ff5b06fb6bed057c75a769a1d77dbad047b121dfecfeee713b66c3bdc3fa2a"},
      {p1, p2, "5c4be3ff5c40f941c6fceeacb3f46d070924735a43728d0e7c7ab1574494c32a"},
  };
  for (const auto &a : answers)
    CHECK(merklize::to_hex(bn::compress(bn::digest_of(a.left), bn::digest_of(a.right))) == a.node);
  // Digests are little-endian: value 1 is the byte 01 first.
  CHECK(bn::digest_of({1, 0, 0, 0})[0] == 1);
  CHECK(bn::value_of(bn::digest_of(p1)) == p1);
}

TEST_CASE("poseidon2 bn254: leaves of p or more are named", "[poseidon2]") {
  CHECK(bn::non_canonical(bn::digest_of(minus(bn::prime, 1))).empty());
  CHECK(bn::non_canonical(bn::digest_of(bn::prime)) ==
        "element 0x30644e72e131a029b85045b68181585d2833e84879b9709143e1f593f0000001 is not a "
        "canonical BN254 Fr element (below p = "
        "0x30644e72e131a029b85045b68181585d2833e84879b9709143e1f593f0000001)");
}
