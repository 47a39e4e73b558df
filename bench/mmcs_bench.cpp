// SPDX-License-Identifier: Apache-2.0 OR MIT
// Plonky3's MMCS commitment of one matrix of field elements on the device
// (engine/mmcs.hpp commit_on), the whole call by the host's clock: the matrix copied from host
// memory (pageable; page-locked with MMCS_FROM=pinned in the environment) or already in device
// memory (MMCS_FROM=device), every row sponged and its elements checked, the compression
// layers, the cap read back. Reports ms, GB/s of the matrix and the permutations a second it
// implies (rows x ceil(width / rate) sponge permutations plus rows - 1 compressions), to set
// beside poseidon2_bench's permutation-only rate of the same run, and the device's own times of
// the copies and the kernels. The first call (which builds the program) is reported apart. The
// cap is checked against the host reference on a 2^10-row slice of the matrix first, and the
// host's check of the elements (which commit_on no longer makes) is timed once for scale.
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
  const std::string from = std::getenv("MMCS_FROM") ? std::getenv("MMCS_FROM") : "pageable";
  const bool pinned = from == "pinned";
  const auto &in = instance_of(field);
  const std::size_t rows = std::size_t{1} << log2, limb = merklize::poseidon2::limb_bytes(in);
  const std::size_t bytes = rows * width * limb;

  merklize::block_hasher h(merklize::default_device());
  const cl::CommandQueue queue = merklize::detail::make_queue(h.context(), h.device());
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
  std::printf("device: %s; %s, %zu x %zu matrix (%.0f MiB, %s memory); a slice's cap %s "
              "the host's\n",
              merklize::device_name(h.device()).c_str(), in.name, rows, width, bytes / 1048576.0,
              from == "device" ? "device"
              : pinned         ? "page-locked host"
                               : "pageable host",
              agree ? "equals" : "DIFFERS FROM");
  const unsigned rate = in.width / 2;
  const double perms = double(rows) * double((width + rate - 1) / rate) + double(rows - 1);
  const std::vector<merklize::mmcs::matrix_view> all = {{data, rows, width}};
  std::vector<merklize::mmcs::device_matrix> on_device;
  if (from == "device") {
    on_device.push_back({cl::Buffer(h.context(), CL_MEM_READ_ONLY, bytes), rows, width});
    queue.enqueueWriteBuffer(on_device[0].buffer, CL_TRUE, 0, bytes, data);
  }
  const auto c0 = std::chrono::steady_clock::now();
  merklize::mmcs::check_matrices(all, in);
  std::printf("the host's check of the elements alone: %.3f ms\n", ms_since(c0));
  std::printf("| round | commit ms | GB/s | permutations/s | copies ms (device) | kernels ms "
              "(device) | kernels' permutations/s |\n|---|---|---|---|---|---|---|\n");
  for (int round = 1; round <= rounds; ++round) {
    const auto t0 = std::chrono::steady_clock::now();
    const auto c = on_device.empty() ? merklize::mmcs::commit_on(queue, all, in, 0)
                                     : merklize::mmcs::commit_on(queue, on_device, in, 0);
    const double ms = ms_since(t0);
    std::printf("| %d%s | %.3f | %.2f | %.1f M | %.3f | %.3f | %.1f M |\n", round,
                round == 1 ? " (first)" : "", ms, bytes / ms / 1e6, perms / ms / 1e3, c.upload_ms,
                c.kernel_ms, perms / c.kernel_ms / 1e3);
    if (c.cap.size() != 1) return 1;
  }
  return agree ? 0 : 1;
}
