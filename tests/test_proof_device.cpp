// SPDX-License-Identifier: Apache-2.0 OR MIT
// Proofs on the device against the host prover and verifier of proof.hpp (themselves checked
// against oracles in test_proof_host.cpp): paths gathered in one launch from trees that
// enqueue_build left on the device, at awkward sizes and counts around the work-group size, into
// poisoned buffers that must be written whole; multiproof nodes; batch verification of valid,
// mutated and hostile proofs.
#include "helpers.hpp"
#include "proof_helpers.hpp"

#include <catch2/catch.hpp>

#include <cstring>

using Catch::Matchers::Contains;
using merklize::digest;
using merklize::inclusion_proof;

namespace {

// A tree left on the device by enqueue_build, and the events that complete it.
struct device_tree {
  cl::Buffer leaves, nodes;
  std::uint64_t leaf_count;
  std::vector<cl::Event> built;
};

device_tree build_on_device(merklize::merkleizer &m, const merklize::tree &t) {
  const std::uint64_t n = t.leaf_count();
  device_tree d{cl::Buffer(m.context(), CL_MEM_READ_ONLY, n * 32),
                test::poisoned_buffer(m.context(), m.queue(),
                                      merklize::merkleizer::output_node_count(n) * 32),
                n,
                {}};
  m.queue().enqueueWriteBuffer(d.leaves, CL_TRUE, 0, n * 32, t.level_data(0));
  d.built = m.enqueue_build(d.leaves, n, d.nodes);
  return d;
}

merklize::config config_of(const merklize::tree_options &options) {
  merklize::config cfg;
  cfg.tree = options;
  return cfg;
}

// Every hash and shape, and shape zero with a fixed root depth (above the trees' own).
std::vector<merklize::tree_options> options_with_depth(unsigned depth) {
  auto all = test::all_tree_options();
  for (const auto hash : test::padded_hash_kinds())
    all.push_back({hash, merklize::shape::zero, depth});
  return all;
}

cl::Buffer host_to_device(merklize::merkleizer &m, const void *data, std::size_t bytes) {
  cl::Buffer b(m.context(), CL_MEM_READ_ONLY, bytes);
  m.queue().enqueueWriteBuffer(b, CL_TRUE, 0, bytes, data);
  return b;
}

// The path buffers enqueue_gather must write for `proofs`: siblings, then zeros, per proof.
std::vector<std::uint8_t> expected_paths(const std::vector<inclusion_proof> &proofs,
                                         std::uint64_t slots) {
  std::vector<std::uint8_t> bytes(proofs.size() * slots * 32, 0);
  for (std::size_t p = 0; p < proofs.size(); ++p)
    for (std::size_t k = 0; k < proofs[p].siblings.size(); ++k)
      std::memcpy(&bytes[(p * slots + k) * 32], proofs[p].siblings[k].data(), 32);
  return bytes;
}

std::vector<std::uint64_t> indices_to_prove(std::uint64_t n, std::size_t random_count) {
  std::vector<std::uint64_t> indices;
  if (n <= random_count) {
    for (std::uint64_t i = 0; i < n; ++i)
      indices.push_back(i);
    return indices;
  }
  for (std::size_t k = 0; k < random_count; ++k) // the first and last leaf, then any
    indices.push_back(k == 0 ? 0 : k == 1 ? n - 1 : test::rng()() % n);
  return indices;
}

// Gathers through the buffer API into poisoned buffers and checks every byte against the host
// proofs; indices outside the tree must come back as no_proof with zeroed slots.
void check_enqueue_gather(merklize::merkleizer &m, merklize::device_prover &prover,
                          const merklize::tree &t, const device_tree &d,
                          std::vector<std::uint64_t> indices) {
  const std::uint64_t n = t.leaf_count(), slots = prover.path_slots(n);
  std::vector<inclusion_proof> expected;
  std::vector<cl_uint> expected_lengths;
  for (const std::uint64_t i : indices) {
    expected.push_back(i < n ? merklize::prove(t, i) : inclusion_proof{});
    expected_lengths.push_back(i < n ? static_cast<cl_uint>(expected.back().siblings.size())
                                     : merklize::device_prover::no_proof);
  }
  const std::uint64_t count = indices.size();
  const cl::Buffer index_buffer = host_to_device(m, indices.data(), count * 8);
  const cl::Buffer paths = test::poisoned_buffer(m.context(), m.queue(), count * slots * 32);
  const cl::Buffer lengths = test::poisoned_buffer(m.context(), m.queue(), count * 4);
  prover.enqueue_gather(d.leaves, d.nodes, n, index_buffer, count, paths, lengths, d.built)
      .back()
      .wait();
  CHECK((test::read_buffer(m.queue(), paths, count * slots * 32) ==
         expected_paths(expected, slots))); // (( )): no dump of megabytes on failure
  const auto length_bytes = test::read_buffer(m.queue(), lengths, count * 4);
  std::vector<cl_uint> got(count);
  std::memcpy(got.data(), length_bytes.data(), count * 4);
  CHECK((got == expected_lengths));
}

} // namespace

TEST_CASE("device paths equal the host proofs at awkward sizes, every byte written",
          "[proof][device]") {
  for (const auto &options : options_with_depth(16)) {
    merklize::merkleizer m(test::test_device(), config_of(options));
    merklize::device_prover prover(m);
    for (const std::uint64_t n : test::awkward_sizes(12)) {
      INFO(test::describe(options) << " n=" << n);
      const auto t = test::random_tree(n, options);
      const auto d = build_on_device(m, t);
      auto indices = indices_to_prove(n, 600);
      const auto proofs = prover.gather(d.leaves, d.nodes, n, indices, d.built);
      REQUIRE(proofs.size() == indices.size());
      for (std::size_t p = 0; p < proofs.size(); ++p) {
        INFO("leaf " << indices[p]);
        REQUIRE(proofs[p] == merklize::prove(t, indices[p]));
      }
      CHECK(prover.last_times().kernel_launches == 1);
      indices.push_back(n);
      indices.push_back(UINT64_MAX);
      check_enqueue_gather(m, prover, t, d, indices);
    }
  }
}

TEST_CASE("gathering thousands of paths in one launch, counts around the work-group size",
          "[proof][device]") {
  for (const auto &options : options_with_depth(20)) {
    merklize::merkleizer m(test::test_device(), config_of(options));
    merklize::device_prover prover(m);
    const std::uint64_t n = (1 << 18) + 1;
    const auto t = test::random_tree(n, options);
    const auto d = build_on_device(m, t);
    for (const std::size_t count : {1, 255, 256, 257, 5000}) {
      INFO(test::describe(options) << " " << count << " proofs");
      const auto indices = indices_to_prove(n, count);
      check_enqueue_gather(m, prover, t, d, indices);
      const auto proofs = prover.gather(d.leaves, d.nodes, n, indices, d.built);
      std::vector<digest> leaves;
      for (std::size_t p = 0; p < count; ++p) {
        REQUIRE(proofs[p] == merklize::prove(t, indices[p]));
        leaves.push_back(t.node(0, indices[p]));
      }
      const auto valid = prover.verify(proofs, leaves, t.root(), n);
      CHECK(std::all_of(valid.begin(), valid.end(), [](bool v) { return v; }));
    }
  }
}

TEST_CASE("device multiproofs equal the host multiproofs", "[proof][device][multiproof]") {
  for (const auto &options : test::all_tree_options()) {
    merklize::merkleizer m(test::test_device(), config_of(options));
    merklize::device_prover prover(m);
    for (const std::uint64_t n : test::awkward_sizes(11))
      for (const double fraction : {0.0, 0.01, 0.3, 1.0}) {
        INFO(test::describe(options) << " n=" << n << " fraction " << fraction);
        const auto t = test::random_tree(n, options);
        const auto d = build_on_device(m, t);
        const auto indices = test::random_indices(n, fraction);
        const auto proof = prover.gather_multiproof(d.leaves, d.nodes, n, indices, d.built);
        REQUIRE(proof == merklize::prove_multi(t, indices));
        CHECK(merklize::verify(proof, test::leaves_at(t, proof.indices), t.root()));
      }
  }
}

namespace {

enum class mutation {
  none,
  leaf,
  sibling,
  index,
  index_outside,
  leaf_count,
  truncated,
  overlong,
  zero_sibling,
  hash_label,
  shape_label,
  count
};

// Applies one mutation to a proof (or its leaf) where the proof has what it changes.
void mutate(inclusion_proof &p, digest &leaf, mutation kind) {
  const auto any = [](std::size_t n) { return static_cast<std::size_t>(test::rng()() % n); };
  switch (kind) {
  case mutation::leaf:
    leaf[any(32)] ^= 1;
    break;
  case mutation::sibling:
    if (!p.siblings.empty()) p.siblings[any(p.siblings.size())][any(32)] ^= 0x80;
    break;
  case mutation::index:
    p.index = test::rng()() % p.leaf_count;
    break;
  case mutation::index_outside:
    p.index = p.leaf_count + any(1000);
    break;
  case mutation::leaf_count:
    p.leaf_count += 1 + any(5);
    break;
  case mutation::truncated:
    if (!p.siblings.empty()) p.siblings.pop_back();
    break;
  case mutation::overlong:
    p.siblings.push_back(test::random_digest());
    break;
  case mutation::zero_sibling: {
    const auto zeros = merklize::zero_subtree_roots(p.options.hash, 64);
    for (auto &s : p.siblings)
      if (std::find(zeros.begin(), zeros.end(), s) != zeros.end()) s = test::random_digest();
    break;
  }
  case mutation::hash_label:
    p.options.hash = p.options.hash == merklize::hash_kind::blake3
                         ? merklize::hash_kind::blake3_parent
                         : merklize::hash_kind::blake3;
    break;
  case mutation::shape_label:
    p.options.shape =
        p.options.shape == merklize::shape::zero ? merklize::shape::promote : merklize::shape::zero;
    break;
  default:
    break;
  }
}

} // namespace

TEST_CASE("device batch verification agrees with the host verifier on mutated proofs",
          "[proof][device]") {
  for (const auto &options : options_with_depth(12)) {
    merklize::merkleizer m(test::test_device(), config_of(options));
    merklize::device_prover prover(m);
    for (const std::uint64_t n : {1, 2, 3, 5, 8, 9, 100, 257, 1000}) {
      INFO(test::describe(options) << " n=" << n);
      const auto t = test::random_tree(n, options);
      std::vector<inclusion_proof> proofs;
      std::vector<digest> leaves;
      std::vector<bool> expected;
      for (int round = 0; round < 600; ++round) {
        const std::uint64_t i = test::rng()() % n;
        inclusion_proof p = merklize::prove(t, i);
        digest leaf = t.node(0, i);
        mutate(p, leaf, static_cast<mutation>(round % static_cast<int>(mutation::count)));
        expected.push_back(bool(merklize::verify(p, leaf, t.root(), test::pinned(t))));
        proofs.push_back(p);
        leaves.push_back(leaf);
      }
      const auto valid = prover.verify(proofs, leaves, t.root(), n);
      CHECK((valid == expected));
      CHECK(std::count(expected.begin(), expected.end(), true) > 50);
      CHECK(std::count(expected.begin(), expected.end(), false) > 300);
      CHECK(prover.last_times().kernel_launches == 1);
    }
  }
}

TEST_CASE("device verification of hostile buffers: every result written, none out of bounds",
          "[proof][device]") {
  for (const auto &options : options_with_depth(12)) {
    merklize::merkleizer m(test::test_device(), config_of(options));
    merklize::device_prover prover(m);
    for (const std::uint64_t n : {1, 6, 33}) {
      const auto t = test::random_tree(n, options);
      const std::uint64_t slots = prover.path_slots(n), count = 3000;
      std::vector<std::uint64_t> indices(count);
      std::vector<cl_uint> lengths(count);
      std::vector<digest> leaves(count), paths(count * slots);
      std::vector<cl_uint> expected(count);
      for (std::uint64_t p = 0; p < count; ++p) {
        const bool genuine = p % 3 == 0;
        indices[p] = genuine || p % 2 ? test::rng()() % (n + 2) : test::rng()();
        if (genuine) indices[p] %= n;
        inclusion_proof proof = merklize::prove(t, indices[p] % n);
        proof.index = indices[p];
        if (!genuine)
          for (auto &s : proof.siblings)
            if (test::rng()() % 4 == 0) s = test::random_digest();
        lengths[p] = static_cast<cl_uint>(genuine || p % 5 ? proof.siblings.size()
                                                           : test::rng()() % (2 * slots + 2));
        if (p % 7 == 1) lengths[p] = static_cast<cl_uint>(test::rng()());
        leaves[p] = genuine || p % 11 ? t.node(0, indices[p] % n) : test::random_digest();
        proof.siblings.resize(std::min<std::uint64_t>(lengths[p], slots));
        std::copy(proof.siblings.begin(), proof.siblings.end(), paths.begin() + p * slots);
        expected[p] =
            lengths[p] <= slots && merklize::verify(proof, leaves[p], t.root(), test::pinned(t));
      }
      const cl::Buffer valid = test::poisoned_buffer(m.context(), m.queue(), count * 4);
      prover
          .enqueue_verify(host_to_device(m, leaves.data(), count * 32),
                          host_to_device(m, indices.data(), count * 8),
                          host_to_device(m, paths.data(), count * slots * 32),
                          host_to_device(m, lengths.data(), count * 4), count, n, t.root(), valid)
          .back()
          .wait();
      const auto bytes = test::read_buffer(m.queue(), valid, count * 4);
      std::vector<cl_uint> got(count);
      std::memcpy(got.data(), bytes.data(), count * 4);
      INFO(test::describe(options) << " n=" << n);
      CHECK((got == expected));
      CHECK(std::count(expected.begin(), expected.end(), 1u) > static_cast<long>(count / 4));
    }
  }
}

TEST_CASE("the device prover refuses bad input before touching anything",
          "[proof][device][errors]") {
  merklize::merkleizer m(test::test_device());
  merklize::device_prover prover(m);
  const auto t = test::random_tree(9, {});
  const auto d = build_on_device(m, t);
  CHECK_THROWS_WITH(prover.gather(d.leaves, d.nodes, 9, {3, 9}, d.built),
                    Contains("leaf index 9 out of range"));
  CHECK_THROWS_WITH(prover.gather_multiproof(d.leaves, d.nodes, 9, {}, d.built),
                    Contains("at least one leaf index"));
  CHECK(prover.gather(d.leaves, d.nodes, 9, {}, d.built).empty());

  const cl::Buffer small = test::poisoned_buffer(m.context(), m.queue(), 64);
  const cl::Buffer indices = host_to_device(m, std::vector<std::uint64_t>(4, 1).data(), 32);
  const cl::Buffer lengths = test::poisoned_buffer(m.context(), m.queue(), 16);
  CHECK_THROWS_WITH(prover.enqueue_gather(d.leaves, d.nodes, 9, indices, 4, small, lengths),
                    Contains("paths buffer too small") && Contains("needs 512"));
  CHECK_THROWS_WITH(prover.enqueue_gather(d.leaves, small, 9, indices, 4, small, lengths),
                    Contains("nodes buffer too small"));
  CHECK_THROWS_WITH(prover.gather(d.leaves, d.nodes, 10, {0}), Contains("leaves buffer too small"));
  const auto untouched = test::read_buffer(m.queue(), small, 64);
  CHECK(std::all_of(untouched.begin(), untouched.end(),
                    [](std::uint8_t b) { return b == test::poison_byte; }));

  cl::Context other(test::test_device());
  cl::Buffer foreign(other, CL_MEM_READ_WRITE, 1 << 12);
  CHECK_THROWS_WITH(prover.gather(foreign, d.nodes, 9, {0}), Contains("another OpenCL context"));
  CHECK_THROWS_WITH(prover.verify({merklize::prove(t, 0)}, {}, t.root(), 9),
                    Contains("0 leaves given for 1 proofs"));
  CHECK(prover.verify({}, {}, t.root(), 9).empty());
}
