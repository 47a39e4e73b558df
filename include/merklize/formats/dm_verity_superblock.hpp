// SPDX-License-Identifier: Apache-2.0 OR MIT
// dm-verity's superblock, as `veritysetup format` writes it by default at the start of the hash
// device (cryptsetup's on-disk format, its struct verity_sb; `veritysetup dump` reads it back).
// With it, `veritysetup verify DATA HASH ROOT` and `veritysetup open` need no other option: the
// superblock holds the block sizes, the data block count, the salt and the hash. Host only, no
// OpenCL.
//
// 512 bytes, little-endian, then zeros up to the first hash block after it, where the hash tree
// (dm_verity.hpp, levels top first) begins:
//
//   offset  bytes  field
//        0      8  signature "verity\0\0"
//        8      4  version, 1
//       12      4  hash type, 1 (format version 1; 0 is Chrome OS's)
//       16     16  the hash device's UUID
//       32     32  hash algorithm name, "sha256", zero-padded
//       64      4  data block size
//       68      4  hash block size
//       72      8  data blocks
//       80      2  salt size
//       82      6  zero
//       88    256  salt, zero-padded
//      344    168  zero
#pragma once

#include "../core/quote.hpp"
#include "dm_verity.hpp"

#include <algorithm>
#include <array>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

namespace merklize {

constexpr std::uint64_t dm_verity_superblock_bytes = 512;

using dm_verity_superblock = std::array<std::uint8_t, dm_verity_superblock_bytes>;
using uuid_bytes = std::array<std::uint8_t, 16>;

// Where the hash tree starts on a hash device with a superblock: the first hash block after the
// superblock's 512 bytes (veritysetup's hash offset, for a hash device of its own).
inline std::uint64_t dm_verity_tree_offset(const dm_verity_options &options) {
  return std::max(dm_verity_superblock_bytes, options.hash_block_bytes);
}

namespace detail {

inline void put_le(std::uint8_t *at, std::uint64_t value, unsigned bytes) {
  for (unsigned i = 0; i < bytes; ++i)
    at[i] = static_cast<std::uint8_t>(value >> (8 * i));
}

} // namespace detail

// The superblock of the hash device of `data_blocks` data blocks, hashed with `options`.
inline dm_verity_superblock dm_verity_superblock_of(const dm_verity_options &options,
                                                    std::uint64_t data_blocks,
                                                    const uuid_bytes &uuid) {
  check_dm_verity(options);
  dm_verity_superblock sb{};
  const char signature[] = "verity";
  std::memcpy(sb.data(), signature, sizeof signature - 1);
  detail::put_le(sb.data() + 8, 1, 4);  // version
  detail::put_le(sb.data() + 12, 1, 4); // hash type: normal
  std::memcpy(sb.data() + 16, uuid.data(), uuid.size());
  const char algorithm[] = "sha256";
  std::memcpy(sb.data() + 32, algorithm, sizeof algorithm - 1);
  detail::put_le(sb.data() + 64, options.data_block_bytes, 4);
  detail::put_le(sb.data() + 68, options.hash_block_bytes, 4);
  detail::put_le(sb.data() + 72, data_blocks, 8);
  detail::put_le(sb.data() + 80, options.salt.size(), 2);
  if (!options.salt.empty()) std::memcpy(sb.data() + 88, options.salt.data(), options.salt.size());
  return sb;
}

// "0c7caaf2-9f6f-4c7e-80ac-d84b1ac5308b": a UUID as veritysetup prints it.
inline std::string uuid_text(const uuid_bytes &uuid) {
  std::string hex = to_hex(uuid.data(), uuid.size());
  for (std::size_t at : {8, 13, 18, 23})
    hex.insert(at, "-");
  return hex;
}

// A UUID written as uuid_text writes it (either case), else an error naming `text`.
inline uuid_bytes parse_uuid(const std::string &text) {
  std::string hex = text;
  bool ok = hex.size() == 36;
  for (std::size_t at : {23, 18, 13, 8})
    if (ok && hex[at] == '-')
      hex.erase(at, 1);
    else
      ok = false;
  std::vector<std::uint8_t> bytes;
  try {
    if (ok) bytes = from_hex(hex);
  } catch (const error &) {
    ok = false;
  }
  if (!ok)
    throw error("the UUID " + detail::quoted(text) +
                " is not 32 hex digits in groups of 8-4-4-4-12 separated by dashes");
  uuid_bytes uuid;
  std::memcpy(uuid.data(), bytes.data(), uuid.size());
  return uuid;
}

// A random (version 4) UUID from 16 random bytes, as RFC 4122 4.4 makes one.
inline uuid_bytes random_uuid(uuid_bytes random) {
  random[6] = static_cast<std::uint8_t>((random[6] & 0x0F) | 0x40);
  random[8] = static_cast<std::uint8_t>((random[8] & 0x3F) | 0x80);
  return random;
}

} // namespace merklize
