// SPDX-License-Identifier: Apache-2.0 OR MIT
// A tuning row's kernel_options (tuning.hpp), and MERKLIZE_KERNEL_OPTIONS in their place, reach
// every program; and the variant they choose on NVIDIA GPUs, BLAKE3's adds as multiply-adds
// (-DMERKLIZE_B3_FMA_ADDS, kernels/blake3.cl), computes the same trees and hashes as the plain
// adds: here on the test device, against the host reference and the host BLAKE3.
#include "helpers.hpp"

#include <catch2/catch.hpp>

#include <cstdlib>
#include <optional>
#include <string>

namespace {

// Sets MERKLIZE_KERNEL_OPTIONS (or unsets it, given nothing) for a scope, then puts back what
// was there.
class kernel_options_env {
public:
  explicit kernel_options_env(std::optional<std::string> value) {
    if (const char *old = std::getenv(name)) old_ = old;
    if (value)
      ::setenv(name, value->c_str(), 1);
    else
      ::unsetenv(name);
  }
  ~kernel_options_env() {
    if (old_)
      ::setenv(name, old_->c_str(), 1);
    else
      ::unsetenv(name);
  }
  kernel_options_env(const kernel_options_env &) = delete;
  kernel_options_env &operator=(const kernel_options_env &) = delete;

private:
  static constexpr const char *name = "MERKLIZE_KERNEL_OPTIONS";
  std::optional<std::string> old_;
};

merklize::tuning row_with(const char *kernel_options) {
  merklize::tuning row = merklize::tuning_table().front();
  row.kernel_options = kernel_options;
  return row;
}

constexpr const char *fma_adds = "-DMERKLIZE_B3_FMA_ADDS";

} // namespace

TEST_CASE("a row's kernel options are appended to every program, the environment's in their "
          "place",
          "[kernel-options]") {
  const auto spec = merklize::detail::hash_program(1);
  REQUIRE_FALSE(spec.name.empty());
  {
    const kernel_options_env env(std::nullopt);
    const auto none = merklize::detail::tuned_spec(spec, row_with(""));
    CHECK(none.options == spec.options);
    CHECK(none.name == spec.name); // the ahead-of-time kernels still serve it
    const auto tuned = merklize::detail::tuned_spec(spec, row_with(fma_adds));
    CHECK(tuned.options == spec.options + " " + fma_adds);
    CHECK(tuned.name.empty()); // ahead-of-time kernels are built without them: only compiled
  }
  {
    const kernel_options_env env{std::string("-DSOMETHING_ELSE")};
    CHECK(merklize::detail::tuned_spec(spec, row_with(fma_adds)).options ==
          spec.options + " -DSOMETHING_ELSE");
  }
  {
    const kernel_options_env env{std::string()};
    CHECK(merklize::detail::tuned_spec(spec, row_with(fma_adds)).options == spec.options);
  }
  // Only the NVIDIA row asks for variants (and Keccak's rounds written out); CPUs and unknown
  // devices keep plain adds and Keccak's loop.
  for (const auto &row : merklize::tuning_table())
    CHECK(std::string(row.kernel_options) ==
          (row.vendor == std::string("nvidia")
               ? std::string(fma_adds) + " -DMERKLIZE_KECCAK_UNROLL=24"
               : std::string()));
}

TEST_CASE("BLAKE3's adds as multiply-adds build the same trees as plain adds",
          "[kernel-options][random]") {
  const kernel_options_env env{std::string(fma_adds)};
  const auto hash = GENERATE(merklize::hash_kind::blake3, merklize::hash_kind::blake3_parent);
  const auto pad = GENERATE(merklize::shape::promote, merklize::shape::zero);
  struct variant {
    const char *name;
    merklize::level_kernel_kind kernel;
    unsigned lanes;
  };
  for (const variant v : {variant{"merkle_level", merklize::level_kernel_kind::level, 1},
                          variant{"merkle_levels", merklize::level_kernel_kind::levels, 1},
                          variant{"merkle_subtree", merklize::level_kernel_kind::subtree, 1},
                          variant{"lanes of 8", merklize::level_kernel_kind::automatic, 8}}) {
    merklize::config cfg{{hash, pad}};
    cfg.level_kernel = v.kernel;
    cfg.lanes = v.lanes;
    cfg.work_group_size = 32;
    merklize::merkleizer m(test::test_device(), cfg);
    for (std::uint64_t n : test::awkward_sizes(13)) {
      INFO(v.name << " " << merklize::to_string(hash) << " " << merklize::to_string(pad)
                  << " n=" << n);
      const auto leaves = test::random_bytes(n * 32);
      const auto expected = merklize::reference_tree(leaves.data(), leaves.size(), cfg.tree);
      REQUIRE(test::device_tree(m, leaves) == test::device_nodes_of(expected));
    }
  }
}

TEST_CASE("BLAKE3's adds as multiply-adds hash whole inputs as the host BLAKE3 does",
          "[kernel-options][hash]") {
  const kernel_options_env env{std::string(fma_adds)};
  const auto strategy =
      GENERATE(merklize::chunk_strategy::one_chunk, merklize::chunk_strategy::lanes8);
  merklize::hash_config cfg;
  cfg.strategy = strategy;
  merklize::blake3_device b3(test::test_device(), cfg);
  for (std::uint64_t length : {0ull, 1ull, 64ull, 65ull, 1023ull, 1024ull, 1025ull, 8192ull,
                               65535ull, 65536ull, 65537ull, 1048577ull}) {
    INFO(merklize::to_string(strategy) << " " << length << " bytes");
    const auto input = test::random_bytes(length);
    std::vector<std::uint8_t> out(32, test::poison_byte);
    b3.hash(merklize::blake3_mode::hash(), input.data(), input.size(), out.data(), out.size());
    merklize::blake3::hasher host;
    host.update(input.data(), input.size());
    const auto expected = host.finalize();
    REQUIRE(std::equal(out.begin(), out.end(), expected.begin()));
  }
}
