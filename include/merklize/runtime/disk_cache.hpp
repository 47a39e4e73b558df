// SPDX-License-Identifier: Apache-2.0 OR MIT
// The disk cache of program binaries (opt-in: set_cache_dir or $MERKLIZE_CACHE_DIR).
//
// An entry holds what clGetProgramInfo(CL_PROGRAM_BINARIES) gave for one device after a build,
// under a key hashing the source, the build options, the platform, the device and its driver
// version, so another device or a driver update never loads it. <dir>/<name>-<key>.bin holds
//   "MRKLZPC1", the key (64 hex digits), the payload's size (8 bytes little-endian), the
//   payload's BLAKE3 (32 bytes), the payload.
// The folder and its entries must be the user's own (cache_folder.hpp). An entry is checked
// whole (header, key, size, checksum) before the driver sees it, and the program it gives must
// have the kernels its source declares and pass its known-answer self-test (self_test.hpp). One
// that fails any of this, or that a process was loading when it died (a driver can crash on a
// damaged binary), is removed with a warning, compiled anew and rewritten; one whose load makes
// no progress for seconds (the driver waits on a lock that is never released) is left alone,
// and the program compiled without the cache. Entries are written atomically, so processes can
// share a folder. With little address space left
// (address_space.hpp) the cache is neither read nor written: PoCL crashes or deadlocks loading
// and storing binaries there.
#pragma once

#include "../io/cache_folder.hpp"
#include "address_space.hpp"
#include "kernel_names.hpp"
#include "program_build.hpp"
#include "program_spec.hpp"
#include "self_test.hpp"

#include <algorithm>
#include <cstring>
#include <filesystem>
#include <mutex>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

namespace merklize {
namespace detail {

constexpr char cache_magic[8] = {'M', 'R', 'K', 'L', 'Z', 'P', 'C', '1'};
constexpr std::size_t cache_key_offset = 8, cache_key_chars = 64,
                      cache_size_offset = cache_key_offset + cache_key_chars,
                      cache_sum_offset = cache_size_offset + 8,
                      cache_header_bytes = cache_sum_offset + 32;
// Larger than any program binary a driver gives (NVIDIA's PTX, PoCL's bundles are megabytes).
constexpr std::uintmax_t cache_entry_max_bytes = std::uintmax_t(1) << 30;

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

// What a look in the cache came to.
struct cache_lookup {
  std::optional<built_program> program; // the entry's, where it was used
  bool store = true;                    // whether to store the compiled program as the entry
};

// Reports an entry passed over, removes it, and has the compiled program stored in its place.
inline cache_lookup replace_entry(const std::filesystem::path &path, const std::string &why) {
  warn("program cache entry " + path.string() + " not used: " + why + "; compiling");
  std::error_code ignored;
  std::filesystem::remove(path, ignored);
  return {};
}

// Reports an entry's path that holds something other than an entry: it is left alone, and the
// compiled program is not stored.
inline cache_lookup leave_entry(const std::filesystem::path &path, const std::string &why) {
  warn("program cache entry " + path.string() + " not used: " + why +
       "; compiling without the cache");
  return {std::nullopt, false};
}

// Loads the entry at `path` where it exists and passes every check; reports through warn() why
// it does not.
inline cache_lookup load_cached(const cl::Context &context, const cl::Device &device,
                                const program_spec &spec, const std::string &source,
                                const std::filesystem::path &path, const std::string &key) {
  struct stat status {};
  if (::lstat(path.c_str(), &status) != 0)
    return errno == ENOENT || errno == ENOTDIR ? cache_lookup{}
                                               : leave_entry(path, system_reason(errno));
  if (!S_ISREG(status.st_mode))
    return leave_entry(path, std::string("it is ") + file_type_name(status.st_mode));
  if (auto reason = untrusted_reason(status)) return replace_entry(path, *reason);
  if (auto pid = ended_loader(path))
    return replace_entry(path, "process " + std::to_string(*pid) +
                                   " ended while loading it (did the driver crash on it?)");
  try {
    const auto binary = cache_payload(read_file(path, cache_entry_max_bytes), key);
    const load_mark mark(path); // removed once the driver is done with the binary
    built_program built{build_binary(context, device, binary, spec.options, build_watch::always),
                        program_form::cache};
    check_kernel_names(built.program, source);
    if (const auto wrong = self_test_failure(context, device, built.program, spec))
      throw error("it fails its self-test: " + *wrong);
    return {std::move(built), true};
  } catch (const stalled_call &e) { // the driver's lock, not the entry: kept, and not used
    return leave_entry(path, e.what());
  } catch (const error &e) {
    return replace_entry(path, e.what());
  }
}

// Why the cache is not to be used with the address space left, or nothing.
inline std::optional<std::string> memory_refusal() {
  const address_space room = address_space_now();
  if (!room.short_of(short_headroom_bytes)) return std::nullopt;
  return room.text() + ", less than the " + std::to_string(short_headroom_bytes / mib) +
         " MiB the driver needs to load or store binaries safely";
}

// The cache folder where the cache is on and the folder may be used (then tidied); a folder
// refused is reported through warn(), once per process, and neither read nor written.
inline std::optional<std::filesystem::path> usable_cache_folder() {
  const std::string dir = cache_dir();
  if (dir.empty()) return std::nullopt;
  auto refusal = cache_folder_refusal(dir);
  if (!refusal) refusal = memory_refusal();
  if (refusal) {
    static std::mutex mutex;
    static std::set<std::string> reported;
    std::lock_guard<std::mutex> lock(mutex);
    if (reported.insert(dir + "\n" + *refusal).second)
      warn("program cache folder " + dir + " not used: " + *refusal +
           "; compiling without the cache");
    return std::nullopt;
  }
  tidy_cache_folder(dir);
  return std::filesystem::path(dir);
}

// Stores the built program's binary; a failure is reported through warn(), never thrown.
inline void store_cached(const std::filesystem::path &path, const std::string &key,
                         const cl::Program &program, const cl::Device &device) {
  try {
    const auto binary = program_binary(program, device);
    if (binary.empty()) throw error("the driver returned no binary");
    make_cache_folder(path.parent_path());
    const auto entry = cache_entry(key, binary);
    write_file_atomically(path, entry.data(), entry.size());
  } catch (const std::exception &e) {
    warn("cannot store the program in the cache as " + path.string() + ": " + e.what());
  }
}

} // namespace detail
} // namespace merklize
