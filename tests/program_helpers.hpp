// SPDX-License-Identifier: Apache-2.0 OR MIT
// Helpers of the program-form tests (ahead-of-time kernels, disk cache): settings set for one
// test and restored after it, scratch folders, merkleizers whose program is built anew, and
// trees checked against the host reference.
#pragma once

#include "helpers.hpp"

#include <merklize/runtime/kernels.hpp>

#include <filesystem>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include <unistd.h>

namespace test {

namespace fs = std::filesystem;

// Sets the kernel and cache folders ("" turns one off, whatever the environment says) and
// collects warnings; restores the defaults when it goes.
class program_settings {
public:
  program_settings(std::optional<std::string> kernel_dir, std::optional<std::string> cache_dir) {
    merklize::set_kernel_dir(std::move(kernel_dir));
    merklize::set_cache_dir(std::move(cache_dir));
    merklize::set_warning_handler([this](const std::string &message) {
      std::lock_guard<std::mutex> lock(mutex_);
      warnings_.push_back(message);
    });
  }
  ~program_settings() {
    merklize::set_kernel_dir(std::nullopt);
    merklize::set_cache_dir(std::nullopt);
    merklize::set_warning_handler({});
  }
  program_settings(const program_settings &) = delete;
  program_settings &operator=(const program_settings &) = delete;

  std::vector<std::string> warnings() const {
    std::lock_guard<std::mutex> lock(mutex_);
    return warnings_;
  }
  std::string all_warnings() const {
    std::string text;
    for (const auto &w : warnings())
      text += w + "\n";
    return text;
  }

private:
  mutable std::mutex mutex_;
  std::vector<std::string> warnings_;
};

// A new empty folder, removed with everything in it when the object goes. Only its owner may
// write it (mode 0700, whatever the umask), as the program cache requires of its folder.
class scratch_folder {
public:
  explicit scratch_folder(const std::string &name)
      : path_(fs::temp_directory_path() / ("merklize-" + name + "-" + std::to_string(::getpid()) +
                                           "-" + std::to_string(rng()() % 1000000000))) {
    fs::create_directories(path_);
    fs::permissions(path_, fs::perms::owner_all, fs::perm_options::replace);
  }
  ~scratch_folder() {
    std::error_code ignored;
    fs::remove_all(path_, ignored);
  }
  scratch_folder(const scratch_folder &) = delete;
  scratch_folder &operator=(const scratch_folder &) = delete;

  const fs::path &path() const { return path_; }
  std::string str() const { return path_.string(); }

private:
  fs::path path_;
};

// A merkleizer in a context of its own: programs are cached per context, so its program is
// obtained anew, in whatever form the settings give.
inline merklize::merkleizer fresh_merkleizer(merklize::tree_options tree = {}) {
  const cl::Device device = test_device();
  return merklize::merkleizer(cl::Context(device), device, {tree});
}

// The level program a merkleizer uses on the test device, as the device builds it: with its
// tuning row's kernel options (on NVIDIA GPUs, a spec with options and no name).
inline merklize::detail::program_spec level_spec(merklize::tree_options tree = {}) {
  const auto &row = merklize::tuning_for(merklize::read_device_facts(test_device()));
  return merklize::detail::tuned_spec(merklize::merkleizer(test_device(), {tree}).level_program(),
                                      row);
}

// Random leaves at awkward sizes built on the host path and into poisoned device buffers:
// empty if every tree equals the host reference, else what differed.
inline std::string tree_mismatch(merklize::merkleizer &m) {
  const auto options = m.configuration().tree;
  for (std::uint64_t n : {1, 2, 3, 4, 5, 7, 8, 9, 255, 256, 257, 511, 512, 513, 1025}) {
    const auto leaves = random_bytes(n * 32);
    const auto expected = merklize::reference_tree(leaves.data(), leaves.size(), options);
    if (m.build(leaves) != expected) return "build() differs at n=" + std::to_string(n);
    if (device_tree(m, leaves) != device_nodes_of(expected))
      return "enqueue_build() differs at n=" + std::to_string(n);
  }
  return {};
}

inline std::vector<fs::path> files_in(const fs::path &dir) {
  std::vector<fs::path> files;
  for (const auto &entry : fs::directory_iterator(dir))
    files.push_back(entry.path());
  return files;
}

inline void write_bytes(const fs::path &path, const std::vector<unsigned char> &bytes) {
  merklize::detail::write_file_atomically(path, bytes.data(), bytes.size());
}

inline bool contains(const std::string &text, const std::string &part) {
  return text.find(part) != std::string::npos;
}

} // namespace test
