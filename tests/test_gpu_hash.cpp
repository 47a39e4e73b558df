// SPDX-License-Identifier: Apache-2.0 OR MIT
// Needs a GPU: blake3_device on the first GPU of any platform, every chunk strategy, matches the
// official vectors and the host BLAKE3 at awkward lengths up to 1 GiB, in one piece, streamed,
// and from a file read by several threads.
// Exits with 77 (ctest: skipped) where no GPU is present.
#include "helpers.hpp"

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>

namespace {

int failures = 0;

void expect(bool ok, const std::string &what) {
  if (ok) return;
  ++failures;
  std::cout << "MISMATCH " << what << "\n";
}

merklize::blake3_device on(const cl::Device &gpu, merklize::chunk_strategy strategy,
                           std::uint64_t max_device_bytes = 0) {
  merklize::hash_config cfg;
  cfg.strategy = strategy;
  cfg.max_device_bytes = max_device_bytes;
  return merklize::blake3_device(gpu, cfg);
}

void official_vectors(merklize::blake3_device &b3) {
  const auto &v = test::official_vectors();
  const auto key = reinterpret_cast<const std::uint8_t *>(v["key"].str.data());
  const merklize::blake3_mode modes[] = {
      merklize::blake3_mode::hash(), merklize::blake3_mode::keyed(key),
      merklize::blake3_mode::derive_key(v["context_string"].str)};
  const char *names[] = {"hash", "keyed_hash", "derive_key"};
  for (const auto &c : v["cases"].items) {
    const auto input = test::official_input(c["input_len"].u64());
    for (int m = 0; m < 3; ++m) {
      std::vector<std::uint8_t> out(c[names[m]].str.size() / 2);
      b3.hash(modes[m], input.data(), input.size(), out.data(), out.size());
      expect(merklize::to_hex(out.data(), out.size()) == c[names[m]].str,
             merklize::to_string(b3.strategy()) + " official " + names[m] + " input_len " +
                 std::to_string(input.size()));
    }
  }
}

} // namespace

int main() {
  const cl::Device gpu = test::first_gpu();
  if (!gpu()) {
    std::cout << "SKIPPED: no OpenCL GPU on this machine\n";
    return 77;
  }
  std::cout << "GPU: " << merklize::device_name(gpu) << ", automatic strategy "
            << merklize::to_string(merklize::default_chunk_strategy(gpu)) << "\n";
  const std::uint64_t mib = 1 << 20;
  std::vector<std::uint64_t> lengths{0, 1, 1024, 1025, 255 * 1024 + 7, 64 * mib - 1, 64 * mib + 1};
  std::vector<std::vector<std::uint8_t>> inputs;
  std::vector<merklize::digest> expected;
  for (auto length : lengths) {
    inputs.push_back(test::random_bytes(length));
    expected.push_back(merklize::blake3::hash(inputs.back().data(), length));
  }
  for (auto strategy : merklize::all_chunk_strategies) {
    auto b3 = on(gpu, strategy);
    official_vectors(b3);
    for (std::size_t i = 0; i < inputs.size(); ++i)
      expect(b3.hash(inputs[i].data(), inputs[i].size()) == expected[i],
             merklize::to_string(strategy) + " length " + std::to_string(lengths[i]));
  }
  // 1 GiB + 1 in one piece, then streamed through 64 MiB of device memory (17 pieces).
  const auto big = test::random_bytes(1024 * mib + 1);
  const auto big_expected = merklize::blake3::hash(big.data(), big.size());
  auto b3 = on(gpu, merklize::chunk_strategy::automatic);
  expect(b3.hash(big.data(), big.size()) == big_expected, "automatic length 1 GiB + 1");
  std::cout << "1 GiB + 1: kernels " << b3.last_times().kernel_ms << " ms, upload "
            << b3.last_times().upload_ms << " ms\n";
  auto streamed = on(gpu, merklize::chunk_strategy::automatic, 128 * mib);
  expect(streamed.hash(big.data(), big.size()) == big_expected, "streamed length 1 GiB + 1");
  expect(streamed.last_times().pieces == 17, "streamed in 17 pieces");
  // The same from a file: 64 MiB pieces read by several threads.
  const std::string path =
      (std::filesystem::temp_directory_path() / "merklize-gpu-hash-file").string();
  std::ofstream(path, std::ios::binary)
      .write(reinterpret_cast<const char *>(big.data()), static_cast<std::streamsize>(big.size()));
  expect(b3.hash_file(path) == big_expected, "hash_file length 1 GiB + 1");
  expect(b3.last_times().pieces == 17, "hash_file in 17 pieces");
  std::cout << "hash_file 1 GiB + 1: " << b3.last_times().wall_ms << " ms\n";
  std::remove(path.c_str());
  std::cout << (failures ? "FAILED" : "all GPU hashes match the host BLAKE3") << "\n";
  return failures ? 1 : 0;
}
