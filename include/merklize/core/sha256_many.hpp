// SPDX-License-Identifier: Apache-2.0 OR MIT
// SHA-256 of many messages at once on the host, each the same prefix (a salt, RFC 6962's 0x00)
// then its own bytes, then zeros where a block is padded: the host engine's leaves of data blocks
// (host_blocks.hpp: dm-verity, fs-verity, --leaf-size) and of log entries.
//
// How: the prefix's whole 64-byte blocks are hashed once, into the state every message starts
// from. Each message is then a stream of 64-byte blocks (what is left of the prefix, its bytes,
// its zeros, FIPS 180-4's padding), read in place where a block lies whole in the message's
// bytes and assembled in a buffer of the lane's where it does not. Two messages go through the
// SHA extensions at once (sha256_pairs.hpp's interleaved rounds), a lane taking the next message
// as soon as its own ends, so messages of any lengths keep both lanes busy.
//
// Why not OpenSSL's SHA256: its interface hashes one message at a time, and one message on the
// SHA extensions waits on each SHA256RNDS2's latency; two interleaved hash 4 KiB blocks twice as
// fast on the same core (2.6 against 1.3 GB/s a core on the 2-core AMD EPYC machine,
// docs/BENCHMARKS.md), and the headers stay free of a link dependency. Checked against OpenSSL in
// tests/test_host_blocks.cpp. Where the CPU has no SHA extensions the portable sha256.hpp runs.
// No OpenCL.
#pragma once

#include "sha256.hpp"
#include "sha256_pairs.hpp"

#include <algorithm>
#include <cstdint>
#include <cstring>

namespace merklize {
namespace detail {

// What every message starts with, hashed as far as whole blocks go.
struct sha256_prefix {
  sha256::state state{sha256::iv[0], sha256::iv[1], sha256::iv[2], sha256::iv[3],
                      sha256::iv[4], sha256::iv[5], sha256::iv[6], sha256::iv[7]};
  std::uint64_t whole_bytes = 0; // the prefix's bytes hashed into `state`
  std::uint8_t tail[sha256::block_len] = {};
  unsigned tail_bytes = 0; // the prefix's bytes after them, which start each message's stream
};

inline sha256_prefix sha256_prefix_of(const std::uint8_t *prefix, std::size_t bytes) {
  sha256_prefix p;
  for (; bytes - p.whole_bytes >= sha256::block_len; p.whole_bytes += sha256::block_len)
    sha256::compress(p.state, prefix + p.whole_bytes);
  p.tail_bytes = static_cast<unsigned>(bytes - p.whole_bytes);
  if (p.tail_bytes) std::memcpy(p.tail, prefix + p.whole_bytes, p.tail_bytes);
  return p;
}

// One message: the prefix, `bytes` bytes at `data`, `zero_bytes` zeros; its digest goes to `out`.
struct sha256_message {
  const std::uint8_t *data = nullptr;
  std::uint64_t bytes = 0, zero_bytes = 0;
  std::uint8_t *out = nullptr;
};

// A message's blocks after the prefix's whole ones: the stream tail || bytes || zeros || 0x80,
// zeros, the message's length in bits, big-endian, to a whole number of blocks.
class sha256_blocks_of {
public:
  sha256_blocks_of() = default;
  sha256_blocks_of(const sha256_prefix &prefix, const sha256_message &m)
      : prefix_(&prefix), m_(m), content_(prefix.tail_bytes + m.bytes + m.zero_bytes),
        total_((content_ + 9 + sha256::block_len - 1) / sha256::block_len * sha256::block_len) {}

  bool done() const { return at_ >= total_; }
  const sha256_message &message() const { return m_; }

  // The next block: in place where it lies whole in the message's bytes, else assembled.
  const std::uint8_t *next() {
    const std::uint64_t at = at_, tail = prefix_->tail_bytes;
    at_ += sha256::block_len;
    if (at >= tail && at + sha256::block_len <= tail + m_.bytes) return m_.data + (at - tail);
    std::memset(built_, 0, sizeof built_);
    copy_part(0, tail, prefix_->tail, at);
    copy_part(tail, tail + m_.bytes, m_.data, at);
    if (content_ >= at && content_ < at + sha256::block_len) built_[content_ - at] = 0x80;
    if (at + sha256::block_len == total_) {
      const std::uint64_t bits = (prefix_->whole_bytes + content_) * 8;
      for (int i = 0; i < 8; ++i)
        built_[sha256::block_len - 8 + i] = static_cast<std::uint8_t>(bits >> (56 - 8 * i));
    }
    return built_;
  }

private:
  // The stream's bytes [from, to), which are `source`'s, where they fall in the block at `at`.
  void copy_part(std::uint64_t from, std::uint64_t to, const std::uint8_t *source,
                 std::uint64_t at) {
    const std::uint64_t begin = std::max(from, at), end = std::min(to, at + sha256::block_len);
    if (begin < end) std::memcpy(built_ + (begin - at), source + (begin - from), end - begin);
  }

  const sha256_prefix *prefix_ = nullptr;
  sha256_message m_;
  std::uint64_t content_ = 0, total_ = 0, at_ = 0;
  alignas(16) std::uint8_t built_[sha256::block_len];
};

// The digests of `count` messages, message_at(i) the i-th, portably.
template <class Messages>
void portable_sha256_many(const sha256_prefix &prefix, std::uint64_t count, Messages message_at) {
  for (std::uint64_t i = 0; i < count; ++i) {
    sha256_blocks_of blocks(prefix, message_at(i));
    sha256::state h = prefix.state;
    while (!blocks.done())
      sha256::compress(h, blocks.next());
    const digest d = sha256::detail::digest_of(h);
    std::memcpy(blocks.message().out, d.data(), node_bytes);
  }
}

#ifdef MERKLIZE_SHA_NI

// The same on the SHA extensions, two lanes: each lane's message restarts it once it ends.
template <class Messages>
__attribute__((target("sha,sse4.1,ssse3"))) void
sha_ni_sha256_many(const sha256_prefix &prefix, std::uint64_t count, Messages message_at) {
  const sha_ni_state start = sha_ni_state_of(prefix.state.data());
  sha256_blocks_of lanes[2];
  sha_ni_state s[2] = {start, start};
  std::uint64_t taken = 0;
  bool busy[2] = {false, false};
  const auto take = [&](int lane) {
    busy[lane] = taken < count;
    if (!busy[lane]) return;
    lanes[lane] = sha256_blocks_of(prefix, message_at(taken++));
    s[lane] = start;
  };
  take(0);
  take(1);
  while (busy[0] || busy[1]) {
    if (busy[0] && busy[1]) {
      const std::uint8_t *const blocks[2] = {lanes[0].next(), lanes[1].next()};
      sha_ni_compress<2>(s, blocks);
    } else {
      const int lane = busy[0] ? 0 : 1;
      sha_ni_state one[1] = {s[lane]};
      const std::uint8_t *const blocks[1] = {lanes[lane].next()};
      sha_ni_compress<1>(one, blocks);
      s[lane] = one[0];
    }
    for (int lane = 0; lane < 2; ++lane)
      if (busy[lane] && lanes[lane].done()) {
        sha_ni_store(s[lane], lanes[lane].message().out);
        take(lane);
      }
  }
}

#endif // MERKLIZE_SHA_NI

// The digests of `count` messages, message_at(i) the i-th, on the fastest code this CPU runs.
template <class Messages>
void sha256_many(const sha256_prefix &prefix, std::uint64_t count, Messages message_at) {
#ifdef MERKLIZE_SHA_NI
  if (sha_extensions_used()) return sha_ni_sha256_many(prefix, count, message_at);
#endif
  portable_sha256_many(prefix, count, message_at);
}

// SHA-256(prefix || block) of the blocks of `block_bytes` bytes in `bytes` bytes at `data`, the
// last maybe shorter (zero_pad: padded with zeros to block_bytes), into consecutive digests.
inline void sha256_block_leaves(const sha256_prefix &prefix, const std::uint8_t *data,
                                std::uint64_t bytes, std::uint64_t block_bytes, bool zero_pad,
                                std::uint8_t *out) {
  const std::uint64_t count = (bytes + block_bytes - 1) / block_bytes;
  sha256_many(prefix, count, [&](std::uint64_t i) {
    const std::uint64_t size = std::min(block_bytes, bytes - i * block_bytes);
    return sha256_message{data + i * block_bytes, size, zero_pad ? block_bytes - size : 0,
                          out + i * node_bytes};
  });
}

} // namespace detail
} // namespace merklize
