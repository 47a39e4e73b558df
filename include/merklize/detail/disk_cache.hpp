// The disk cache of program binaries (opt-in: set_cache_dir or $MERKLIZE_CACHE_DIR).
//
// An entry holds what clGetProgramInfo(CL_PROGRAM_BINARIES) gave for one device after a build,
// under a key hashing the source, the build options, the platform, the device and its driver
// version, so another device or a driver update never loads it. <dir>/<name>-<key>.bin holds
//   "MRKLZPC1", the key (64 hex digits), the payload's size (8 bytes little-endian), the
//   payload's BLAKE3 (32 bytes), the payload.
// An entry that is truncated, corrupt or fails to load is passed over with a warning and
// rewritten after compiling. Entries are written atomically, so processes can share a folder.
#pragma once

#include "file_io.hpp"
#include "program_build.hpp"
#include "program_spec.hpp"

#include <algorithm>
#include <cstring>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace merklize {
namespace detail {

constexpr char cache_magic[8] = {'M', 'R', 'K', 'L', 'Z', 'P', 'C', '1'};
constexpr std::size_t cache_key_offset = 8, cache_key_chars = 64,
                      cache_size_offset = cache_key_offset + cache_key_chars,
                      cache_sum_offset = cache_size_offset + 8,
                      cache_header_bytes = cache_sum_offset + 32;

// What, besides the program, decides the binary a driver produces.
struct device_identity {
  std::string platform, platform_version, device, vendor, device_version, driver_version;
};

inline device_identity identity_of(const cl::Device &device) {
  const cl::Platform platform(device_info<CL_DEVICE_PLATFORM, cl_platform_id>(device), true);
  return {platform_info<CL_PLATFORM_NAME>(platform),
          platform_info<CL_PLATFORM_VERSION>(platform),
          device_info<CL_DEVICE_NAME, std::string>(device),
          device_info<CL_DEVICE_VENDOR, std::string>(device),
          device_info<CL_DEVICE_VERSION, std::string>(device),
          device_info<CL_DRIVER_VERSION, std::string>(device)};
}

inline std::string cache_key(const std::string &source, const std::string &options,
                             const device_identity &id) {
  return hash_fields({"merklize program cache 1", source, options, id.platform, id.platform_version,
                      id.device, id.vendor, id.device_version, id.driver_version});
}

inline std::filesystem::path cache_entry_path(const std::filesystem::path &dir,
                                              const program_spec &spec, const std::string &key) {
  return dir / ((spec.name.empty() ? "program" : spec.name) + "-" + key + ".bin");
}

inline std::vector<unsigned char> cache_entry(const std::string &key,
                                              const std::vector<unsigned char> &payload) {
  std::vector<unsigned char> entry(cache_header_bytes + payload.size());
  std::memcpy(entry.data(), cache_magic, sizeof cache_magic);
  key.copy(reinterpret_cast<char *>(entry.data()) + cache_key_offset, cache_key_chars);
  for (int b = 0; b < 8; ++b)
    entry[cache_size_offset + b] =
        static_cast<unsigned char>(static_cast<std::uint64_t>(payload.size()) >> (8 * b));
  const auto sum = blake3::hash(payload.data(), payload.size());
  std::copy(sum.begin(), sum.end(), entry.begin() + cache_sum_offset);
  std::copy(payload.begin(), payload.end(), entry.begin() + cache_header_bytes);
  return entry;
}

// The binary an entry holds, after checking its header, size and checksum.
inline std::vector<unsigned char> cache_payload(const std::vector<unsigned char> &entry,
                                                const std::string &key) {
  if (entry.size() < cache_header_bytes ||
      std::memcmp(entry.data(), cache_magic, sizeof cache_magic) != 0)
    throw error("not a merklize program cache entry");
  if (key.compare(0, cache_key_chars,
                  reinterpret_cast<const char *>(entry.data()) + cache_key_offset,
                  cache_key_chars) != 0)
    throw error("it holds another program's binary");
  std::uint64_t size = 0;
  for (int b = 0; b < 8; ++b)
    size |= std::uint64_t(entry[cache_size_offset + b]) << (8 * b);
  if (entry.size() - cache_header_bytes != size)
    throw error("truncated: it holds " + std::to_string(entry.size() - cache_header_bytes) +
                " of " + std::to_string(size) + " bytes");
  const std::vector<unsigned char> payload(entry.begin() + cache_header_bytes, entry.end());
  const auto sum = blake3::hash(payload.data(), payload.size());
  if (!std::equal(sum.begin(), sum.end(), entry.begin() + cache_sum_offset))
    throw error("corrupt: its checksum does not match");
  return payload;
}

// The cached program, if the entry exists and loads; one that fails is reported through warn().
inline std::optional<built_program> load_cached(const cl::Context &context,
                                                const cl::Device &device, const program_spec &spec,
                                                const std::filesystem::path &path,
                                                const std::string &key) {
  std::error_code ec;
  if (!std::filesystem::exists(path, ec)) return std::nullopt;
  try {
    const auto binary = cache_payload(read_file(path), key);
    return built_program{build_binary(context, device, binary, spec.options), program_form::cache};
  } catch (const error &e) {
    warn("program cache entry " + path.string() + " not used: " + e.what() + "; compiling");
    return std::nullopt;
  }
}

// Stores the built program's binary; a failure is reported through warn(), never thrown.
inline void store_cached(const std::filesystem::path &path, const std::string &key,
                         const cl::Program &program, const cl::Device &device) {
  try {
    const auto binary = program_binary(program, device);
    if (binary.empty()) throw error("the driver returned no binary");
    std::error_code ec;
    std::filesystem::create_directories(path.parent_path(), ec);
    const auto entry = cache_entry(key, binary);
    write_file_atomically(path, entry.data(), entry.size());
  } catch (const std::exception &e) {
    warn("cannot store the program in the cache as " + path.string() + ": " + e.what());
  }
}

} // namespace detail
} // namespace merklize
