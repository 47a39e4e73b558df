// SPDX-License-Identifier: Apache-2.0 OR MIT
// OpenSSL 3's one-call SHA256() looks the algorithm up on every call, which costs more than
// hashing 64 bytes; SHA256_Init/Update/Final, deprecated but present, are its fastest path.
#define OPENSSL_SUPPRESS_DEPRECATED
#include "cpu_baselines.hpp"

#include <merklize/core/blake3.hpp>

#include <openssl/evp.h>
#include <openssl/sha.h>

#include <algorithm>
#include <cstring>
#include <thread>

#if defined(MERKLIZE_BENCH_BLAKE3_C)
// The official C library's many-inputs entry point (blake3_impl.h, not a public header: its
// sources are compiled into this program, bench/CMakeLists.txt).
extern "C" void blake3_hash_many(const std::uint8_t *const *inputs, std::size_t num_inputs,
                                 std::size_t blocks, const std::uint32_t key[8],
                                 std::uint64_t counter, bool increment_counter, std::uint8_t flags,
                                 std::uint8_t flags_start, std::uint8_t flags_end,
                                 std::uint8_t *out);
#endif
#if defined(MERKLIZE_BENCH_HASHTREE)
#include <hashtree.h>
#endif

namespace bench {

void openssl_layer(std::uint8_t *out, const std::uint8_t *in, std::uint64_t count, int prefix) {
  const std::uint8_t prefix_byte = static_cast<std::uint8_t>(prefix);
  for (std::uint64_t i = 0; i < count; ++i) {
    SHA256_CTX ctx;
    SHA256_Init(&ctx);
    if (prefix >= 0) SHA256_Update(&ctx, &prefix_byte, 1);
    SHA256_Update(&ctx, in + 64 * i, 64);
    SHA256_Final(out + 32 * i, &ctx);
  }
}

namespace {

void openssl_sha256(std::uint8_t *out, const std::uint8_t *in, std::uint64_t count) {
  openssl_layer(out, in, count, -1);
}

void openssl_rfc6962(std::uint8_t *out, const std::uint8_t *in, std::uint64_t count) {
  openssl_layer(out, in, count, merklize::rfc6962_node_prefix);
}

// OpenSSL's digest of that name (SHA3-256; KECCAK-256 from OpenSSL 3.2 on), or null.
const EVP_MD *openssl_md(const char *name) {
  static const EVP_MD *sha3 = EVP_MD_fetch(nullptr, "SHA3-256", nullptr);
  static const EVP_MD *keccak = EVP_MD_fetch(nullptr, "KECCAK-256", nullptr);
  return std::string(name) == "SHA3-256" ? sha3 : keccak;
}

// HASH(left || right) of each block through EVP, its context reused.
void openssl_evp_layer(const EVP_MD *md, std::uint8_t *out, const std::uint8_t *in,
                       std::uint64_t count) {
  EVP_MD_CTX *ctx = EVP_MD_CTX_new();
  for (std::uint64_t i = 0; i < count; ++i) {
    EVP_DigestInit_ex(ctx, md, nullptr);
    EVP_DigestUpdate(ctx, in + 64 * i, 64);
    EVP_DigestFinal_ex(ctx, out + 32 * i, nullptr);
  }
  EVP_MD_CTX_free(ctx);
}

void openssl_sha3_256(std::uint8_t *out, const std::uint8_t *in, std::uint64_t count) {
  openssl_evp_layer(openssl_md("SHA3-256"), out, in, count);
}

void openssl_keccak256(std::uint8_t *out, const std::uint8_t *in, std::uint64_t count) {
  openssl_evp_layer(openssl_md("KECCAK-256"), out, in, count);
}

#if defined(MERKLIZE_BENCH_BLAKE3_C)
// merklize's blake3 node: BLAKE3 of the 64 bytes, one block that starts and ends the only chunk
// and is the root; hash_many hashes as many inputs at once as the CPU has lanes.
void blake3_many(std::uint8_t *out, const std::uint8_t *in, std::uint64_t count) {
  constexpr std::size_t batch = 64;
  const std::uint8_t *inputs[batch];
  for (std::uint64_t first = 0; first < count; first += batch) {
    const std::size_t n = static_cast<std::size_t>(std::min<std::uint64_t>(batch, count - first));
    for (std::size_t i = 0; i < n; ++i)
      inputs[i] = in + 64 * (first + i);
    blake3_hash_many(inputs, n, 1, merklize::blake3::iv, 0, false, merklize::blake3::root,
                     merklize::blake3::chunk_start, merklize::blake3::chunk_end, out + 32 * first);
  }
}
#endif

#if defined(MERKLIZE_BENCH_HASHTREE)
void hashtree_layer(std::uint8_t *out, const std::uint8_t *in, std::uint64_t count) {
  hashtree_hash(out, in, count);
}
#endif

// One level: `count` nodes from the blocks of `in`, each thread a contiguous run of them; levels
// too small to pay for threads are hashed on the calling one.
void threaded_layer(layer_function layer, std::uint8_t *out, const std::uint8_t *in,
                    std::uint64_t count, unsigned threads) {
  if (threads <= 1 || count < 32768) return layer(out, in, count);
  std::vector<std::thread> workers;
  const std::uint64_t per = (count + threads - 1) / threads;
  for (std::uint64_t first = 0; first < count; first += per) {
    const std::uint64_t n = std::min(per, count - first);
    workers.emplace_back(layer, out + 32 * first, in + 64 * first, n);
  }
  for (auto &w : workers)
    w.join();
}

} // namespace

std::vector<cpu_baseline> cpu_baselines(merklize::hash_kind hash) {
  std::vector<cpu_baseline> all;
  if (hash == merklize::hash_kind::sha256) all.push_back({"OpenSSL", openssl_sha256});
  if (hash == merklize::hash_kind::rfc6962) all.push_back({"OpenSSL", openssl_rfc6962});
  if (hash == merklize::hash_kind::sha3_256 && openssl_md("SHA3-256"))
    all.push_back({"OpenSSL", openssl_sha3_256});
  if (hash == merklize::hash_kind::keccak256 && openssl_md("KECCAK-256"))
    all.push_back({"OpenSSL", openssl_keccak256});
#if defined(MERKLIZE_BENCH_BLAKE3_C)
  if (hash == merklize::hash_kind::blake3) all.push_back({"BLAKE3 hash_many", blake3_many});
#endif
#if defined(MERKLIZE_BENCH_HASHTREE)
  // Picks its SIMD code here, once, before threads call it (hashtree_hash would on first use).
  if (hash == merklize::hash_kind::sha256 && hashtree_init(nullptr))
    all.push_back({"hashtree", hashtree_layer});
#endif
  return all;
}

std::string missing_baselines(merklize::hash_kind hash) {
  std::string missing;
#if !defined(MERKLIZE_BENCH_BLAKE3_C)
  if (hash == merklize::hash_kind::blake3)
    missing += "BLAKE3's hash_many: reconfigure with -DMERKLIZE_BLAKE3_C_DIR=DIR, DIR holding the "
               "official C sources (Debian: apt-get install librust-blake3-dev, found by itself). ";
#endif
#if !defined(MERKLIZE_BENCH_HASHTREE)
  if (hash == merklize::hash_kind::sha256)
    missing += "hashtree: not installed (hashtree.h and libhashtree where CMake looks). ";
#endif
  if (hash == merklize::hash_kind::blake3_parent)
    missing += "blake3-parent: no CPU baseline (BLAKE3's own parent nodes; time --hash=blake3). ";
  if (hash == merklize::hash_kind::keccak256 && !openssl_md("KECCAK-256"))
    missing += "OpenSSL's KECCAK-256: OpenSSL 3.2 or later (this one has SHA3-256 only). ";
  return missing;
}

merklize::digest baseline_root(const cpu_baseline &baseline, const std::uint8_t *leaves,
                               std::uint64_t leaf_count, unsigned threads, std::uint8_t *a,
                               std::uint8_t *b) {
  threaded_layer(baseline.layer, a, leaves, leaf_count / 2, threads);
  for (std::uint64_t size = leaf_count / 2; size > 1; size /= 2) {
    threaded_layer(baseline.layer, b, a, size / 2, threads); // a level never hashes into itself
    std::swap(a, b);
  }
  merklize::digest root;
  std::memcpy(root.data(), a, root.size());
  return root;
}

} // namespace bench
