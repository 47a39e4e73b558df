// SPDX-License-Identifier: Apache-2.0 OR MIT
// Portable host BLAKE3: the compression function, the incremental hasher with extendable
// output, keyed hashing and key derivation, written from the BLAKE3 specification. merklize uses
// it to check device results, to compute padding nodes and to verify proofs; it favours clarity
// over speed (no SIMD).
#pragma once

#include "digest.hpp"

#include <array>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

namespace merklize {
namespace blake3 {

constexpr std::uint32_t iv[8] = {0x6A09E667u, 0xBB67AE85u, 0x3C6EF372u, 0xA54FF53Au,
                                 0x510E527Fu, 0x9B05688Cu, 0x1F83D9ABu, 0x5BE0CD19u};

enum flag : std::uint32_t {
  chunk_start = 1,
  chunk_end = 2,
  parent = 4,
  root = 8,
  keyed_hash_mode = 16,
  derive_key_context = 32,
  derive_key_material = 64,
};

constexpr std::size_t block_len = 64;
constexpr std::size_t chunk_len = 1024;
constexpr std::size_t key_len = 32;

using words8 = std::array<std::uint32_t, 8>;
using words16 = std::array<std::uint32_t, 16>;

namespace detail {

inline std::uint32_t rotr(std::uint32_t x, int n) { return x >> n | x << (32 - n); }

inline std::uint32_t load_le(const std::uint8_t *p) {
  return std::uint32_t(p[0]) | std::uint32_t(p[1]) << 8 | std::uint32_t(p[2]) << 16 |
         std::uint32_t(p[3]) << 24;
}

inline void store_le(std::uint8_t *p, std::uint32_t w) {
  for (int i = 0; i < 4; ++i)
    p[i] = static_cast<std::uint8_t>(w >> (8 * i));
}

inline void g(words16 &v, int a, int b, int c, int d, std::uint32_t x, std::uint32_t y) {
  v[a] = v[a] + v[b] + x;
  v[d] = rotr(v[d] ^ v[a], 16);
  v[c] = v[c] + v[d];
  v[b] = rotr(v[b] ^ v[c], 12);
  v[a] = v[a] + v[b] + y;
  v[d] = rotr(v[d] ^ v[a], 8);
  v[c] = v[c] + v[d];
  v[b] = rotr(v[b] ^ v[c], 7);
}

inline words8 load_key(const std::uint8_t key[key_len]) {
  words8 k;
  for (int i = 0; i < 8; ++i)
    k[i] = load_le(key + 4 * i);
  return k;
}

} // namespace detail

// The full 16-word output of BLAKE3's compression function; its first 8 words are the chaining
// value.
inline words16 compress(const words8 &cv, const std::uint8_t block[block_len],
                        std::uint64_t counter, std::uint32_t block_bytes, std::uint32_t flags) {
  static constexpr std::uint8_t permutation[16] = {2, 6,  3,  10, 7, 0,  4,  13,
                                                   1, 11, 12, 5,  9, 14, 15, 8};
  words16 m;
  for (int i = 0; i < 16; ++i)
    m[i] = detail::load_le(block + 4 * i);
  words16 v = {cv[0],
               cv[1],
               cv[2],
               cv[3],
               cv[4],
               cv[5],
               cv[6],
               cv[7],
               iv[0],
               iv[1],
               iv[2],
               iv[3],
               static_cast<std::uint32_t>(counter),
               static_cast<std::uint32_t>(counter >> 32),
               block_bytes,
               flags};
  for (int round = 0; round < 7; ++round) {
    detail::g(v, 0, 4, 8, 12, m[0], m[1]);
    detail::g(v, 1, 5, 9, 13, m[2], m[3]);
    detail::g(v, 2, 6, 10, 14, m[4], m[5]);
    detail::g(v, 3, 7, 11, 15, m[6], m[7]);
    detail::g(v, 0, 5, 10, 15, m[8], m[9]);
    detail::g(v, 1, 6, 11, 12, m[10], m[11]);
    detail::g(v, 2, 7, 8, 13, m[12], m[13]);
    detail::g(v, 3, 4, 9, 14, m[14], m[15]);
    words16 permuted;
    for (int i = 0; i < 16; ++i)
      permuted[i] = m[permutation[i]];
    m = permuted;
  }
  for (int i = 0; i < 8; ++i) {
    v[i] ^= v[i + 8];
    v[i + 8] ^= cv[i];
  }
  return v;
}

inline words8 chaining_value(const words16 &out) {
  words8 cv;
  std::copy(out.begin(), out.begin() + 8, cv.begin());
  return cv;
}

inline digest cv_bytes(const words8 &cv) {
  digest d;
  for (int i = 0; i < 8; ++i)
    detail::store_le(d.data() + 4 * i, cv[i]);
  return d;
}

// Two 32-byte nodes compressed as one 64-byte block from the IV with the given flags: the
// primitive behind both BLAKE3 node modes of merklize.
inline digest compress_pair(const digest &left, const digest &right, std::uint32_t flags) {
  std::uint8_t block[block_len];
  std::memcpy(block, left.data(), 32);
  std::memcpy(block + 32, right.data(), 32);
  return cv_bytes(chaining_value(compress(
      words8{iv[0], iv[1], iv[2], iv[3], iv[4], iv[5], iv[6], iv[7]}, block, 0, block_len, flags)));
}

// merklize's two BLAKE3 node hashes of a pair. pair_node (the "blake3" hash): BLAKE3 of the 64
// bytes, one chunk of one block, so the same at the root. parent_node ("blake3-parent"): BLAKE3's
// own parent compression, the ROOT flag on the root only.
inline digest pair_node(const digest &left, const digest &right) {
  return compress_pair(left, right, chunk_start | chunk_end | root);
}
inline digest parent_node(const digest &left, const digest &right, bool is_root) {
  return compress_pair(left, right, parent | (is_root ? root : 0u));
}

// `size` bytes of the extendable output of a root node (its chaining value, block, length and
// flags; ROOT is added) from byte `seek` on.
inline void root_output(const words8 &cv, const std::uint8_t block[block_len],
                        std::uint32_t block_bytes, std::uint32_t flags, std::uint8_t *out,
                        std::size_t size, std::uint64_t seek = 0) {
  std::size_t skip = static_cast<std::size_t>(seek % block_len);
  for (std::uint64_t block_index = seek / block_len; size > 0; ++block_index) {
    const words16 words = compress(cv, block, block_index, block_bytes, flags | root);
    std::uint8_t bytes[block_len];
    for (int i = 0; i < 16; ++i)
      detail::store_le(bytes + 4 * i, words[i]);
    const std::size_t take = std::min(size, block_len - skip);
    std::memcpy(out, bytes + skip, take);
    out += take;
    size -= take;
    skip = 0;
  }
}

// Incremental BLAKE3 of any length, with extendable output.
class hasher {
public:
  // In a mode given as its key words and flag (0, keyed_hash_mode, derive_key_material).
  static hasher with_key_words(const words8 &key, std::uint32_t mode_flags) {
    return hasher(key, mode_flags);
  }

  hasher() : hasher(words8{iv[0], iv[1], iv[2], iv[3], iv[4], iv[5], iv[6], iv[7]}, 0) {}

  static hasher keyed(const std::uint8_t key[key_len]) {
    return hasher(detail::load_key(key), keyed_hash_mode);
  }

  static hasher derive_key(const std::string &context) {
    return hasher(detail::load_key(context_key(context).data()), derive_key_material);
  }

  // The key derive_key hashes its material with: the context string hashed in
  // DERIVE_KEY_CONTEXT mode.
  static digest context_key(const std::string &context) {
    hasher context_hasher(words8{iv[0], iv[1], iv[2], iv[3], iv[4], iv[5], iv[6], iv[7]},
                          derive_key_context);
    context_hasher.update(context.data(), context.size());
    return context_hasher.finalize();
  }

  hasher &update(const void *data, std::size_t size) {
    auto input = static_cast<const std::uint8_t *>(data);
    while (size > 0) {
      if (chunk_.length() == chunk_len) {
        // A full chunk is only folded into the tree once more input proves it is not the last.
        const words8 cv = chaining_value(chunk_.output().compressed());
        push_chunk_cv(cv, chunk_.counter + 1);
        chunk_ = chunk_state(key_, chunk_.counter + 1, flags_);
      }
      const std::size_t take = std::min(chunk_len - chunk_.length(), size);
      chunk_.update(input, take);
      input += take;
      size -= take;
    }
    return *this;
  }

  // Writes out_size bytes of extendable output, from byte `seek` of it (0: its beginning). The
  // hasher is left as it was: more input may follow.
  void finalize(std::uint8_t *out, std::size_t out_size, std::uint64_t seek = 0) const {
    output_node node = chunk_.output();
    for (std::size_t i = stack_.size(); i-- > 0;)
      node = parent_output(stack_[i], chaining_value(node.compressed()));
    node.root_bytes(out, out_size, seek);
  }

  digest finalize() const {
    digest d;
    finalize(d.data(), d.size());
    return d;
  }

private:
  struct output_node {
    words8 cv;
    std::uint8_t block[block_len];
    std::uint32_t block_bytes;
    std::uint64_t counter;
    std::uint32_t flags;

    words16 compressed() const { return compress(cv, block, counter, block_bytes, flags); }

    // The output from byte `seek` on: the root node compressed with counters 0, 1, ..., 64 bytes a
    // counter (root_output).
    void root_bytes(std::uint8_t *out, std::size_t size, std::uint64_t seek) const {
      root_output(cv, block, block_bytes, flags, out, size, seek);
    }
  };

  struct chunk_state {
    words8 cv;
    std::uint64_t counter;
    std::uint8_t block[block_len] = {};
    std::size_t block_bytes = 0;
    std::size_t blocks_compressed = 0;
    std::uint32_t flags;

    chunk_state(const words8 &key, std::uint64_t chunk_counter, std::uint32_t mode_flags)
        : cv(key), counter(chunk_counter), flags(mode_flags) {}

    std::size_t length() const { return block_len * blocks_compressed + block_bytes; }
    std::uint32_t start_flag() const {
      return blocks_compressed == 0 ? std::uint32_t(chunk_start) : 0u;
    }

    void update(const std::uint8_t *input, std::size_t size) {
      while (size > 0) {
        if (block_bytes == block_len) {
          cv = chaining_value(compress(cv, block, counter, block_len, flags | start_flag()));
          ++blocks_compressed;
          std::memset(block, 0, block_len);
          block_bytes = 0;
        }
        const std::size_t take = std::min(block_len - block_bytes, size);
        std::memcpy(block + block_bytes, input, take);
        block_bytes += take;
        input += take;
        size -= take;
      }
    }

    output_node output() const {
      output_node o{};
      o.cv = cv;
      std::memcpy(o.block, block, block_len);
      o.block_bytes = static_cast<std::uint32_t>(block_bytes);
      o.counter = counter;
      o.flags = flags | start_flag() | chunk_end;
      return o;
    }
  };

  hasher(const words8 &key, std::uint32_t mode_flags)
      : key_(key), flags_(mode_flags), chunk_(key, 0, mode_flags) {}

  output_node parent_output(const words8 &left, const words8 &right) const {
    output_node o{};
    o.cv = key_;
    for (int i = 0; i < 8; ++i) {
      detail::store_le(o.block + 4 * i, left[i]);
      detail::store_le(o.block + 32 + 4 * i, right[i]);
    }
    o.block_bytes = block_len;
    o.counter = 0;
    o.flags = flags_ | parent;
    return o;
  }

  // Merges completed subtrees: after chunk number total_chunks, one merge per trailing zero bit.
  void push_chunk_cv(words8 cv, std::uint64_t total_chunks) {
    while ((total_chunks & 1) == 0) {
      cv = chaining_value(parent_output(stack_.back(), cv).compressed());
      stack_.pop_back();
      total_chunks >>= 1;
    }
    stack_.push_back(cv);
  }

  words8 key_;
  std::uint32_t flags_;
  chunk_state chunk_;
  std::vector<words8> stack_;
};

inline digest hash(const void *data, std::size_t size) {
  return hasher().update(data, size).finalize();
}

inline digest keyed_hash(const std::uint8_t key[key_len], const void *data, std::size_t size) {
  return hasher::keyed(key).update(data, size).finalize();
}

inline digest derive_key(const std::string &context, const void *material, std::size_t size) {
  return hasher::derive_key(context).update(material, size).finalize();
}

} // namespace blake3
} // namespace merklize
