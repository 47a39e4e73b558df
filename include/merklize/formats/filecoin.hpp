// SPDX-License-Identifier: Apache-2.0 OR MIT
// Filecoin's piece commitment (CommP, the root of tree_d over a piece): the data's bytes Fr32
// padded, zero-padded to a power-of-two piece, and a binary tree of SHA-256 truncated to 254 bits
// over its 32-byte chunks; printed as hex or as the piece CID (baga6ea4sea...). Host reference,
// no OpenCL; the device's is filecoin_commitment (pair_tree.hpp).
//
// Fr32 padding: the data is cut into blocks of 127 bytes (the last one zero-filled), each read as
// 1016 bits, least significant bit of byte 0 first; the block becomes four 32-byte chunks, each
// holding 254 of those bits and two zero bits on top (the chunk, read as a little-endian number,
// is below 2^254, so an element of BLS12-381's scalar field). The padded piece is the blocks'
// 128 bytes each, then zero bytes up to the next power of two, 128 bytes at least.
//
// The chunks are the tree's leaves as they are (no leaf hash); a node is
// SHA-256(left || right) with byte 31's top two bits cleared (formats/pair_rules.hpp). Rules
// from go-fil-commp-hashhash commp.go @ 0588fdcd40b82d5ccfaa40acc095c9352a8b7ab5 and
// go-commp-utils commd.go @ 3493ca35aca45adfa69a524a1a9422fff8060f21.
#pragma once

#include "pair_rules.hpp"

#include <cstring>
#include <string>

namespace merklize {
namespace filecoin {

constexpr std::size_t fr32_block_bytes = 127;  // data bytes a block
constexpr std::size_t fr32_padded_bytes = 128; // its four chunks
constexpr std::uint64_t min_padded_piece = 128;
// The largest padded piece this library computes: 2^62 bytes keeps every size in 64 bits.
constexpr unsigned max_padded_log2 = 62;

// Fr32: 127 data bytes into 128 bytes, four chunks of 254 data bits and two zero bits. Bit b of
// the block (bit b % 8 of byte b / 8) is bit b - 254 q of chunk q = b / 254.
inline void fr32_expand(const std::uint8_t in[fr32_block_bytes],
                        std::uint8_t out[fr32_padded_bytes]) {
  for (unsigned q = 0; q < 4; ++q) {
    const unsigned first_bit = 254 * q;
    for (unsigned j = 0; j < node_bytes; ++j) {
      const unsigned at = first_bit / 8 + j, shift = first_bit % 8;
      unsigned value = unsigned(in[at]) >> shift;
      if (shift && at + 1 < fr32_block_bytes) value |= unsigned(in[at + 1]) << (8 - shift);
      out[node_bytes * q + j] =
          static_cast<std::uint8_t>(j == node_bytes - 1 ? value & 0x3F : value);
    }
  }
}

// The padded piece size of `bytes` bytes of data: 128 bytes a 127-byte block, rounded up to a
// power of two, at least 128. Refuses no data and data past 2^max_padded_log2 padded bytes.
inline std::uint64_t padded_piece_size(std::uint64_t bytes) {
  if (bytes == 0) throw error("a piece of no data has no commitment: Filecoin pieces hold data");
  const std::uint64_t max_blocks = (std::uint64_t(1) << max_padded_log2) / fr32_padded_bytes;
  const std::uint64_t blocks = bytes / fr32_block_bytes + (bytes % fr32_block_bytes != 0);
  if (blocks > max_blocks)
    throw error(std::to_string(bytes) + " bytes of data pad to more than 2^" +
                std::to_string(max_padded_log2) + " bytes");
  std::uint64_t padded = min_padded_piece;
  while (padded < blocks * fr32_padded_bytes)
    padded *= 2;
  return padded;
}

// The unpadded size of a padded piece: the data bytes it holds (127/128 of it).
inline std::uint64_t unpadded_piece_size(std::uint64_t padded) {
  return padded / fr32_padded_bytes * fr32_block_bytes;
}

// The padded piece of `size` bytes of data: Fr32 blocks, then zeros.
inline std::vector<std::uint8_t> fr32_pad(const std::uint8_t *data, std::uint64_t size) {
  std::vector<std::uint8_t> padded(padded_piece_size(size), 0);
  std::uint8_t block[fr32_block_bytes];
  for (std::uint64_t at = 0, out = 0; at < size; at += fr32_block_bytes, out += fr32_padded_bytes) {
    const std::uint64_t take = std::min<std::uint64_t>(fr32_block_bytes, size - at);
    std::memset(block, 0, sizeof block);
    std::memcpy(block, data + at, take);
    fr32_expand(block, padded.data() + out);
  }
  return padded;
}

// The commitment of an all-zero padded piece of 2^log2_padded bytes (go-commp-utils' zerocomm
// table, from 128 bytes on).
inline digest zero_piece_commitment(unsigned log2_padded) {
  if (log2_padded < 7 || log2_padded > max_padded_log2)
    throw error("a padded piece is 2^7 to 2^" + std::to_string(max_padded_log2) + " bytes, not 2^" +
                std::to_string(log2_padded));
  return zero_roots(pair_hash::sha256_trunc254, log2_padded - 5).back();
}

// The commitment of `size` bytes of data (the root of tree_d over their padded piece). The
// reference holds the padded piece: for checks, not for sectors.
inline digest piece_commitment(const std::uint8_t *data, std::uint64_t size) {
  const std::vector<std::uint8_t> padded = fr32_pad(data, size);
  std::vector<digest> level(padded.size() / node_bytes);
  for (std::size_t i = 0; i < level.size(); ++i)
    std::memcpy(level[i].data(), padded.data() + i * node_bytes, node_bytes);
  return power_of_two_root(pair_hash::sha256_trunc254, std::move(level), 0);
}

// RFC 4648 base32, lower case, no padding: the multibase "b" of CIDs.
inline std::string base32_lower(const std::uint8_t *bytes, std::size_t size) {
  static const char alphabet[] = "abcdefghijklmnopqrstuvwxyz234567";
  std::string out;
  unsigned buffer = 0, bits = 0;
  for (std::size_t i = 0; i < size; ++i) {
    buffer = (buffer << 8 | bytes[i]) & 0xFFFF;
    for (bits += 8; bits >= 5; bits -= 5)
      out += alphabet[(buffer >> (bits - 5)) & 31];
  }
  if (bits > 0) out += alphabet[(buffer << (5 - bits)) & 31];
  return out;
}

// The unsigned varint of multiformats (LEB128).
inline void append_varint(std::vector<std::uint8_t> &out, std::uint64_t value) {
  for (; value >= 0x80; value >>= 7)
    out.push_back(static_cast<std::uint8_t>(value | 0x80));
  out.push_back(static_cast<std::uint8_t>(value));
}

// The codes of a piece CID (multicodec table): CID version 1, codec fil-commitment-unsealed,
// multihash sha2-256-trunc254-padded with a 32-byte digest.
constexpr std::uint64_t cid_version = 1, fil_commitment_unsealed = 0xf101,
                        sha2_256_trunc254_padded = 0x1012;

// The piece CID of a commitment, as Lotus prints it ("baga6ea4sea..."): multibase base32 of
// version, codec and multihash.
inline std::string piece_cid(const digest &commitment) {
  std::vector<std::uint8_t> cid;
  append_varint(cid, cid_version);
  append_varint(cid, fil_commitment_unsealed);
  append_varint(cid, sha2_256_trunc254_padded);
  append_varint(cid, node_bytes);
  cid.insert(cid.end(), commitment.begin(), commitment.end());
  return "b" + base32_lower(cid.data(), cid.size());
}

} // namespace filecoin
} // namespace merklize
