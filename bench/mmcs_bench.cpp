// SPDX-License-Identifier: Apache-2.0 OR MIT
// Issue 32: Plonky3's MMCS commitment of one matrix of field elements on the device
// (engine/mmcs.hpp commit_on), the whole call by the host's clock: the matrix copied from host
// memory (pageable, or page-locked with PINNED=1 in the environment), every row sponged, the
// compression layers, the cap read back. Reports ms, GB/s of the matrix and the permutations a
// second it implies (rows x ceil(width / rate) sponge permutations plus rows - 1 compressions),
// to set beside poseidon2_bench's permutation-only rate of the same run. The first call (which
// builds the program) is reported apart. The cap is checked against the host reference on a
// 2^10-row slice of the matrix first.
//   mmcs_bench [LOG2_ROWS [WIDTH [FIELD [ROUNDS]]]]   (defaults 20 256 babybear 5; MERKLIZE_DEVICE)
#include <merklize/engine/mmcs.hpp>
#include <merklize/merklize.hpp>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <string>
#include <vector>

namespace {

const merklize::poseidon2::instance &instance_of(const std::string &field) {
  if (field == "koalabear") return merklize::poseidon2::koalabear_16;
  if (field == "goldilocks") return merklize::poseidon2::goldilocks_8;
  return merklize::poseidon2::babybear_16;
}

// Canonical random elements, little-endian: limbs below p.
void fill(std::uint8_t *bytes, std::size_t elements, const merklize::poseidon2::instance &in) {
  std::mt19937_64 rng(1);
  const unsigned limb = merklize::poseidon2::limb_bytes(in);
  for (std::size_t i = 0; i < elements; ++i) {
    const std::uint64_t v = rng() % in.prime;
    for (unsigned b = 0; b < limb; ++b)
      bytes[i * limb + b] = static_cast<std::uint8_t>(v >> (8 * b));
  }
}

double ms_since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
}

} // namespace

int main(int argc, char **argv) {
  const unsigned log2 = argc > 1 ? static_cast<unsigned>(std::atoi(argv[1])) : 20;
  const std::size_t width = argc > 2 ? std::strtoull(argv[2], nullptr, 10) : 256;
  const std::string field = argc > 3 ? argv[3] : "babybear";
  const int rounds = argc > 4 ? std::atoi(argv[4]) : 5;
  const bool pinned = std::getenv("PINNED") && std::string(std::getenv("PINNED")) == "1";
  const auto &in = instance_of(field);
  const std::size_t rows = std::size_t{1} << log2, limb = merklize::poseidon2::limb_bytes(in);
  const std::size_t bytes = rows * width * limb;

  merklize::block_hasher h(merklize::default_device());
  const cl::CommandQueue queue(h.context(), h.device());
  merklize::host_buffer page_locked;
  std::vector<std::uint8_t> pageable;
  std::uint8_t *data = nullptr;
  if (pinned) {
    page_locked = merklize::host_buffer(h.context(), queue, bytes);
    data = static_cast<std::uint8_t *>(page_locked.data());
  } else {
    pageable.resize(bytes);
    data = pageable.data();
  }
  fill(data, rows * width, in);

  const std::size_t slice = std::min<std::size_t>(rows, 1024);
  const std::vector<merklize::mmcs::matrix_view> small = {{data, slice, width}};
  const bool agree = merklize::mmcs::commit_on(queue, small, in, 0).cap ==
                     merklize::mmcs::tree(small, in, 0).cap();
  std::printf("device: %s; %s, %zu x %zu matrix (%.0f MiB, %s host memory); a slice's cap %s "
              "the host's\n",
              merklize::device_name(h.device()).c_str(), in.name, rows, width, bytes / 1048576.0,
              pinned ? "page-locked" : "pageable", agree ? "equals" : "DIFFERS FROM");
  const unsigned rate = in.width / 2;
  const double perms = double(rows) * double((width + rate - 1) / rate) + double(rows - 1);
  std::printf("| round | commit ms | GB/s | permutations/s |\n|---|---|---|---|\n");
  const std::vector<merklize::mmcs::matrix_view> all = {{data, rows, width}};
  for (int round = 1; round <= rounds; ++round) {
    const auto t0 = std::chrono::steady_clock::now();
    const auto c = merklize::mmcs::commit_on(queue, all, in, 0);
    const double ms = ms_since(t0);
    std::printf("| %d%s | %.3f | %.2f | %.1f M |\n", round, round == 1 ? " (first)" : "", ms,
                bytes / ms / 1e6, perms / ms / 1e3);
    if (c.cap.size() != 1) return 1;
  }
  return agree ? 0 : 1;
}
