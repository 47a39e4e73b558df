// SPDX-License-Identifier: Apache-2.0 OR MIT
// A bounded fuzz loop over the verifier and the decoders: random bytes, random structured proofs
// and mutated valid encodings. Run under AddressSanitizer and UBSan (tests/CMakeLists.txt), so an
// out-of-bounds read, overflow or other undefined behaviour fails the test. A decoder may refuse
// an input only with merklize::error; a verifier that knows its tree (everything pinned) may
// accept a mutated proof only if it decodes to the original.
#include "proof_helpers.hpp"

#include <catch2/catch.hpp>

#include <functional>

using merklize::digest;

namespace {

// A random number below n; below(0) is any 64-bit number (n = 2^64 wrapped around).
std::uint64_t below(std::uint64_t n) { return n ? test::rng()() % n : test::rng()(); }

// A leaf count from every range: tiny, near powers of two, and hostile giants.
std::uint64_t random_leaf_count() {
  switch (below(4)) {
  case 0:
    return below(20);
  case 1: {
    const unsigned k = static_cast<unsigned>(below(63));
    return (std::uint64_t(1) << k) + below(3) - 1;
  }
  case 2:
    return UINT64_MAX - below(3);
  default:
    return test::rng()();
  }
}

// Applies one to four random edits: flip a bit, set a byte, insert, erase, truncate, duplicate.
template <class Bytes> Bytes mutated(Bytes s, const std::string &alphabet) {
  const auto pick = [&] {
    return static_cast<typename Bytes::value_type>(alphabet[below(alphabet.size())]);
  };
  for (std::uint64_t edits = 1 + below(4); edits > 0 && !s.empty(); --edits) {
    const std::size_t at = below(s.size());
    switch (below(6)) {
    case 0:
      s[at] = static_cast<typename Bytes::value_type>(s[at] ^ (1u << below(8)));
      break;
    case 1:
      s[at] = pick();
      break;
    case 2:
      s.insert(s.begin() + static_cast<std::ptrdiff_t>(at), pick());
      break;
    case 3:
      s.erase(s.begin() + static_cast<std::ptrdiff_t>(at));
      break;
    case 4:
      s.resize(at);
      break;
    default: {
      const Bytes copy(s.begin(), s.begin() + static_cast<std::ptrdiff_t>(below(s.size())));
      s.insert(s.begin() + static_cast<std::ptrdiff_t>(at), copy.begin(), copy.end());
    }
    }
  }
  return s;
}

const std::string every_byte = [] {
  std::string s;
  for (int c = 0; c < 256; ++c)
    s += static_cast<char>(c);
  return s;
}();

const std::string json_alphabet = "{}[],:\"\\ 0123456789abcdef-+.eEtrunlsx\n\t\xc3\xa9\x80";

// Decodes; an error must be merklize::error (std::exception is not enough: a
// std::out_of_range or a length_error would mean an unchecked read or size).
template <class Proof, class Decode> std::optional<Proof> try_decode(Decode decode) {
  try {
    return decode();
  } catch (const merklize::error &) {
    return std::nullopt;
  }
}

} // namespace

TEST_CASE("fuzz: random structured inclusion proofs are rejected without a crash", "[fuzz]") {
  for (int round = 0; round < 10000; ++round) {
    merklize::inclusion_proof p;
    const auto all = test::all_tree_options();
    p.options = all[below(all.size())];
    p.leaf_count = random_leaf_count();
    p.index = below(3) ? below(p.leaf_count + 1) : test::rng()();
    p.siblings.resize(below(3) ? below(70) : merklize::detail::depth_of(p.leaf_count));
    for (auto &s : p.siblings)
      s = test::random_digest();
    INFO("leaf_count " << p.leaf_count << " index " << p.index << " siblings "
                       << p.siblings.size());
    const auto result = merklize::verify(p, test::random_digest(), test::random_digest());
    REQUIRE(!result);
    REQUIRE(!result.reason.empty());
  }
}

TEST_CASE("fuzz: random structured multiproofs are rejected without a crash", "[fuzz]") {
  for (int round = 0; round < 2500; ++round) {
    merklize::multiproof m;
    const auto all = test::all_tree_options();
    m.options = all[below(all.size())];
    m.leaf_count = random_leaf_count();
    for (std::uint64_t k = below(30); k > 0; --k)
      m.indices.push_back(below(4) ? below(m.leaf_count + 1) : test::rng()());
    if (below(2)) std::sort(m.indices.begin(), m.indices.end());
    m.nodes.resize(below(200));
    for (auto &d : m.nodes)
      d = test::random_digest();
    std::vector<digest> leaves(below(4) ? m.indices.size() : below(30));
    for (auto &d : leaves)
      d = test::random_digest();
    REQUIRE(!merklize::verify(m, leaves, test::random_digest()));
  }
}

TEST_CASE("fuzz: random bytes and text never crash the decoders", "[fuzz]") {
  for (int round = 0; round < 10000; ++round) {
    const std::vector<std::uint8_t> bytes = test::random_bytes(below(2) ? below(16) : below(400));
    std::vector<std::uint8_t> with_magic = bytes;
    const std::uint8_t header[] = {'M', 'K', 'L', 'P', 1, static_cast<std::uint8_t>(1 + below(2))};
    with_magic.insert(with_magic.begin(), header, header + sizeof header);
    for (const auto &b : {bytes, with_magic}) {
      try_decode<merklize::inclusion_proof>(
          [&] { return merklize::inclusion_proof_from_binary(b); });
      try_decode<merklize::multiproof>([&] { return merklize::multiproof_from_binary(b); });
    }
    std::string text;
    for (std::uint64_t k = below(60); k > 0; --k)
      text += json_alphabet[below(json_alphabet.size())];
    try_decode<merklize::inclusion_proof>(
        [&] { return merklize::inclusion_proof_from_json(text); });
    try_decode<merklize::multiproof>([&] { return merklize::multiproof_from_json(text); });
  }
}

TEST_CASE("fuzz: mutated encodings never crash, and pinned verifiers accept only the original",
          "[fuzz]") {
  std::size_t decoded = 0;
  for (const auto &options : test::all_tree_options())
    for (const std::uint64_t n : {1, 2, 3, 7, 8, 9, 100}) {
      const auto t = test::random_tree(n, options);
      const auto pins = test::pinned(t);
      for (int round = 0; round < 250; ++round) {
        const std::uint64_t i = below(n);
        const auto p = merklize::prove(t, i);
        const auto m = merklize::prove_multi(t, test::random_indices(n, 0.2));
        const auto leaves = test::leaves_at(t, m.indices);
        // Each decoded mutant is verified; acceptance implies it is the original proof.
        const auto check_single = [&](const std::optional<merklize::inclusion_proof> &q) {
          if (!q) return;
          ++decoded;
          if (merklize::verify(*q, t.node(0, i), t.root(), pins)) REQUIRE(*q == p);
        };
        const auto check_multi = [&](const std::optional<merklize::multiproof> &q) {
          if (!q) return;
          ++decoded;
          if (merklize::verify(*q, leaves, t.root(), pins)) REQUIRE(*q == m);
        };
        const auto binary = mutated(merklize::to_binary(p), every_byte);
        check_single(try_decode<merklize::inclusion_proof>(
            [&] { return merklize::inclusion_proof_from_binary(binary); }));
        const auto text = mutated(merklize::to_json(p), json_alphabet);
        check_single(try_decode<merklize::inclusion_proof>(
            [&] { return merklize::inclusion_proof_from_json(text); }));
        const auto multi_binary = mutated(merklize::to_binary(m), every_byte);
        check_multi(try_decode<merklize::multiproof>(
            [&] { return merklize::multiproof_from_binary(multi_binary); }));
        const auto multi_text = mutated(merklize::to_json(m), json_alphabet);
        check_multi(try_decode<merklize::multiproof>(
            [&] { return merklize::multiproof_from_json(multi_text); }));
      }
    }
  CHECK(decoded > 100); // the mutants reach the verifier, not only the decoders
}
