// SPDX-License-Identifier: Apache-2.0 OR MIT
// What merklize computes for the independent oracles of tests/oracles/ (pymerkle for RFC 6962,
// remerkleable for SSZ lists), as JSON lines on stdout, one process for thousands of trees. The
// trees are built on the device (PoCL in CI), proofs read from the device-built trees, and each
// proof is verified by merklize's own verifier too ("ok"). The Python side builds the same
// inputs, compares, and verifies the proofs with the oracle's verifier.
//
//   oracle_dump rfc6962 N...   entries "entry <i>" (lines), leaf hashes on the device; per N: the
//                              root; audit paths (every index for N <= 300, else a sample);
//                              consistency proofs (every old size for N <= 300, else a sample)
//   oracle_dump rfc6962-append N...   the same entries' leaves, per N a tree kept on the device
//                              (resident_tree.hpp) grown from one leaf by appends of 1, 2, 3,
//                              ... leaves to N: after each append the root; audit paths and
//                              consistency proofs from every old size (samples past 300),
//                              all read from the device tree
//   oracle_dump ssz N...       chunks SHA-256(i as 8 bytes little-endian); per N and limit 2^D
//                              (D = 0..40, 2^D >= N): the list root and the branches of a few
//                              elements, the length chunk last
//   oracle_dump keccak N...    per N and hash (keccak256, sha3-256): the host's digest of the N
//                              bytes (i * 7 + N) mod 256, the device's leaf of them as one data
//                              block; for N >= 1, the trees over N leaves HASH(i as 8 bytes
//                              little-endian) built on the device: shapes promote and zero, a
//                              fixed depth two above the natural one, and the 4-ary trees
#include <merklize/merklize.hpp>

#include <cstdio>
#include <iostream>
#include <set>
#include <string>
#include <vector>

namespace {

using merklize::digest;

std::string hex_list(const std::vector<digest> &nodes) {
  std::string out = "[";
  for (std::size_t i = 0; i < nodes.size(); ++i)
    out += (i ? ",\"" : "\"") + merklize::to_hex(nodes[i]) + "\"";
  return out + "]";
}

// Indices 0..n-1 for small trees, else the ends, the middle, powers of two and a stride.
std::set<std::uint64_t> sample(std::uint64_t n, std::uint64_t first, std::uint64_t last) {
  std::set<std::uint64_t> picked;
  if (last - first <= 300) {
    for (std::uint64_t i = first; i <= last; ++i)
      picked.insert(i);
    return picked;
  }
  for (std::uint64_t i : {first, first + 1, (first + last) / 2, last - 1, last})
    picked.insert(i);
  for (std::uint64_t p = 1; p <= last; p *= 2)
    for (std::uint64_t i : {p - 1, p, p + 1})
      if (i >= first && i <= last) picked.insert(i);
  for (std::uint64_t i = first; i <= last; i += n / 17 + 1)
    picked.insert(i);
  return picked;
}

// The RFC 6962 leaf hashes of entries "entry <i>" (lines), i < n, hashed on the device.
std::vector<digest> entry_leaves(const cl::CommandQueue &queue, std::uint64_t n) {
  std::string entries;
  for (std::uint64_t i = 0; i < n; ++i)
    entries += "entry " + std::to_string(i) + "\n";
  const auto *data = reinterpret_cast<const std::uint8_t *>(entries.data());
  const auto spans = merklize::split_entries(data, entries.size(), merklize::entry_framing::lines);
  return merklize::hash_entries(queue, data, entries.size(), spans);
}

void dump_rfc6962(const cl::CommandQueue &queue, merklize::merkleizer &m, std::uint64_t n) {
  const auto leaves = entry_leaves(queue, n);
  if (n == 0) {
    std::cout << "{\"n\":0,\"root\":\""
              << merklize::to_hex(*merklize::empty_tree_root({merklize::hash_kind::rfc6962}))
              << "\"}\n";
    return;
  }
  const merklize::tree t = m.build(leaves.data(), n * merklize::node_bytes);
  std::cout << "{\"n\":" << n << ",\"root\":\"" << merklize::to_hex(t.root()) << "\",\"leaf0\":\""
            << merklize::to_hex(leaves.front()) << "\"}\n";
  for (std::uint64_t i : sample(n, 0, n - 1)) {
    const auto proof = merklize::prove(t, i);
    const bool ok = bool(merklize::verify(proof, leaves[i], t.root()));
    std::cout << "{\"n\":" << n << ",\"i\":" << i << ",\"path\":" << hex_list(proof.siblings)
              << ",\"ok\":" << (ok ? "true" : "false") << "}\n";
  }
  for (std::uint64_t old_size : sample(n, 1, n)) {
    const auto proof = merklize::prove_consistency(t, old_size);
    const auto old_root = merklize::reference_tree(leaves.data(), old_size * merklize::node_bytes,
                                                   {merklize::hash_kind::rfc6962})
                              .root();
    const bool ok = bool(merklize::verify_consistency(old_size, n, old_root, t.root(), proof));
    std::cout << "{\"n\":" << n << ",\"m\":" << old_size << ",\"old_root\":\""
              << merklize::to_hex(old_root) << "\",\"proof\":" << hex_list(proof.nodes)
              << ",\"ok\":" << (ok ? "true" : "false") << "}\n";
  }
}

// The records of dump_rfc6962 for the tree of n leaves kept on the device, grown by appends.
void dump_appended(merklize::block_hasher &h, const std::vector<digest> &leaves, std::uint64_t n,
                   const merklize::resident_tree &t) {
  std::cout << "{\"n\":" << n << ",\"root\":\"" << merklize::to_hex(t.root()) << "\",\"leaf0\":\""
            << merklize::to_hex(leaves.front()) << "\"}\n";
  for (std::uint64_t i : sample(n, 0, n - 1)) {
    const auto proof = t.prove(i);
    const bool ok = bool(merklize::verify(proof, leaves[i], t.root()));
    std::cout << "{\"n\":" << n << ",\"i\":" << i << ",\"path\":" << hex_list(proof.siblings)
              << ",\"ok\":" << (ok ? "true" : "false") << "}\n";
  }
  for (std::uint64_t old_size : sample(n, 1, n)) {
    const auto proof = t.prove_consistency(old_size);
    const digest old_root =
        merklize::resident_tree(h, leaves.data(), old_size * merklize::node_bytes,
                                merklize::config{t.options()})
            .root(); // the tree of old_size leaves, built on its own
    const bool ok = bool(merklize::verify_consistency(old_size, n, old_root, t.root(), proof));
    std::cout << "{\"n\":" << n << ",\"m\":" << old_size << ",\"old_root\":\""
              << merklize::to_hex(old_root) << "\",\"proof\":" << hex_list(proof.nodes)
              << ",\"ok\":" << (ok ? "true" : "false") << "}\n";
  }
}

void dump_rfc6962_append(const cl::CommandQueue &queue, merklize::block_hasher &h,
                         std::uint64_t n) {
  if (n == 0) return;
  const auto leaves = entry_leaves(queue, n);
  merklize::resident_tree t(h, leaves.data(), merklize::node_bytes,
                            merklize::config{{merklize::hash_kind::rfc6962}});
  for (std::uint64_t size = 1, step = 1; size < n; size += step++) {
    t.append(leaves.data() + size, std::min(step, n - size));
    if (t.leaf_count() == n || t.leaf_count() <= 40) dump_appended(h, leaves, t.leaf_count(), t);
  }
  if (n == 1) dump_appended(h, leaves, 1, t);
}

// One merkleizer a limit 2^depth, depth = 0..40.
std::vector<merklize::merkleizer> ssz_merkleizers(const cl::Device &device) {
  std::vector<merklize::merkleizer> all;
  for (unsigned depth = 0; depth <= 40; ++depth)
    all.emplace_back(device,
                     merklize::config{{merklize::hash_kind::sha256, merklize::shape::zero, depth}});
  return all;
}

void dump_ssz(std::vector<merklize::merkleizer> &by_depth, std::uint64_t n) {
  std::vector<digest> chunks(n);
  for (std::uint64_t i = 0; i < n; ++i) {
    std::uint8_t le[8];
    for (int b = 0; b < 8; ++b)
      le[b] = static_cast<std::uint8_t>(i >> (8 * b));
    chunks[i] = merklize::sha256::hash(le, sizeof le);
  }
  for (unsigned depth = 0; depth <= 40; ++depth) {
    if (depth < 64 && (std::uint64_t(1) << depth) < n) continue;
    const merklize::tree_options options{merklize::hash_kind::sha256, merklize::shape::zero, depth};
    if (n == 0) {
      const digest root = merklize::mix_in_length(*merklize::empty_tree_root(options), 0);
      std::cout << "{\"n\":0,\"depth\":" << depth << ",\"root\":\"" << merklize::to_hex(root)
                << "\"}\n";
      continue;
    }
    const merklize::tree t = by_depth[depth].build(chunks.data(), n * merklize::node_bytes);
    const digest root = merklize::mix_in_length(t.root(), n);
    std::cout << "{\"n\":" << n << ",\"depth\":" << depth << ",\"root\":\""
              << merklize::to_hex(root) << "\"}\n";
    for (std::uint64_t i : std::set<std::uint64_t>{0, n / 2, n - 1}) {
      const auto proof = merklize::mix_in_length(merklize::prove(t, i), n);
      const bool ok = bool(merklize::verify(proof, chunks[i], root));
      std::cout << "{\"n\":" << n << ",\"depth\":" << depth << ",\"i\":" << i
                << ",\"branch\":" << hex_list(proof.siblings)
                << ",\"ok\":" << (ok ? "true" : "false") << "}\n";
    }
  }
}

std::vector<std::uint8_t> keccak_message(std::uint64_t n) {
  std::vector<std::uint8_t> m(n);
  for (std::uint64_t i = 0; i < n; ++i)
    m[i] = static_cast<std::uint8_t>(i * 7 + n);
  return m;
}

void dump_keccak(merklize::block_hasher &h, std::uint64_t n) {
  for (const auto hash : {merklize::hash_kind::keccak256, merklize::hash_kind::sha3_256}) {
    const std::string name = merklize::to_string(hash);
    const auto leaf = merklize::leaf_hash_of(hash);
    const auto m = keccak_message(n);
    const merklize::keccak::hasher hasher(merklize::row_of(leaf).keccak_pad);
    std::cout << "{\"hash\":\"" << name << "\",\"n\":" << n << ",\"host\":\""
              << merklize::to_hex(merklize::keccak::hasher(hasher).update(m.data(), n).finalize())
              << "\"";
    if (n > 0) {
      const merklize::leaf_rule rule{leaf, n, {}, false, std::nullopt};
      const merklize::device_leaves leaves =
          h.leaves_of(merklize::memory_reader(m.data()), 0, n, rule, "the message");
      digest d;
      h.queue().enqueueReadBuffer(leaves.buffer, CL_TRUE, 0, d.size(), d.data());
      std::cout << ",\"device\":\"" << merklize::to_hex(d) << "\"";
    }
    std::cout << "}\n";
    if (n == 0) continue;
    std::vector<digest> leaves(n);
    for (std::uint64_t i = 0; i < n; ++i) {
      std::uint8_t le[8];
      for (int b = 0; b < 8; ++b)
        le[b] = static_cast<std::uint8_t>(i >> (8 * b));
      leaves[i] = merklize::keccak::hasher(hasher).update(le, sizeof le).finalize();
    }
    const unsigned depth = merklize::tree_layout(n).depth() + 2;
    for (const merklize::tree_options options :
         {merklize::tree_options{hash, merklize::shape::promote},
          merklize::tree_options{hash, merklize::shape::zero},
          merklize::tree_options{hash, merklize::shape::zero, depth}}) {
      merklize::merkleizer m(h.device(), merklize::config{options});
      const merklize::tree t = m.build(leaves.data(), n * merklize::node_bytes);
      std::cout << "{\"hash\":\"" << name << "\",\"n\":" << n << ",\"shape\":\""
                << merklize::to_string(options.shape)
                << "\",\"depth\":" << (options.depth ? std::to_string(*options.depth) : "null")
                << ",\"root\":\"" << merklize::to_hex(t.root()) << "\"}\n";
    }
    const cl::Buffer uploaded(h.context(), CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR,
                              n * merklize::node_bytes, leaves.data());
    for (const auto pad : {merklize::shape::promote, merklize::shape::zero}) {
      const merklize::kary_options options{hash, 4, pad};
      const auto t =
          merklize::kary_tree_on_device(h, {uploaded, n, n * merklize::node_bytes, {}}, options);
      std::cout << "{\"hash\":\"" << name << "\",\"n\":" << n << ",\"arity\":4,\"shape\":\""
                << merklize::to_string(pad) << "\",\"root\":\"" << merklize::to_hex(t.root)
                << "\"}\n";
    }
  }
}

} // namespace

int main(int argc, char **argv) {
  try {
    if (argc < 2)
      throw merklize::error("usage: oracle_dump rfc6962|rfc6962-append|ssz|keccak N...");
    const std::string what = argv[1];
    const cl::Device device = merklize::default_device();
    const cl::Context context(device);
    const cl::CommandQueue queue(context, device);
    merklize::merkleizer m(device, merklize::config{{merklize::hash_kind::rfc6962}});
    std::vector<merklize::merkleizer> by_depth;
    if (what == "ssz") by_depth = ssz_merkleizers(device);
    merklize::block_hasher h(device);
    for (int a = 2; a < argc; ++a) {
      const std::uint64_t n = std::stoull(argv[a]);
      if (what == "rfc6962")
        dump_rfc6962(queue, m, n);
      else if (what == "rfc6962-append")
        dump_rfc6962_append(queue, h, n);
      else if (what == "ssz")
        dump_ssz(by_depth, n);
      else if (what == "keccak")
        dump_keccak(h, n);
      else
        throw merklize::error("unknown oracle " + what);
    }
    std::cout.flush();
    return std::cout ? 0 : 1;
  } catch (const std::exception &e) {
    std::cerr << "oracle_dump: " << e.what() << "\n";
    return 1;
  }
}
