// SPDX-License-Identifier: Apache-2.0 OR MIT
// Needs a device that takes SPIR-V: the first one whose CL_DEVICE_IL_VERSION names SPIR-V
// loads the ahead-of-time SPIR-V kernels (clCreateProgramWithIL) and builds the same trees as
// the host reference. Exits with 77 (ctest: skipped) where no device takes SPIR-V.
#include "program_helpers.hpp"

#include <iostream>

int main() {
  std::string seen;
  for (const auto &e : merklize::list_devices()) {
    const auto forms = merklize::aot_forms(e.device);
    if (forms.empty() || forms.front() != merklize::program_form::spirv) {
      seen += "\n  " + e.device_name + ": IL version \"" + merklize::detail::il_versions(e.device) +
              "\"";
      continue;
    }
    std::cout << "SPIR-V device: " << e.device_name << " ("
              << merklize::detail::il_versions(e.device) << ")\n";
    merklize::set_kernel_dir(MERKLIZE_AOT_DIR);
    merklize::set_cache_dir("");
    int failures = 0;
    for (auto hash : {merklize::hash_kind::blake3, merklize::hash_kind::blake3_parent}) {
      merklize::merkleizer m(cl::Context(e.device), e.device, {{hash, merklize::shape::promote}});
      const auto form = m.program_form();
      const auto mismatch = test::tree_mismatch(m);
      std::cout << merklize::to_string(hash) << ": program " << merklize::to_string(form) << ", "
                << (mismatch.empty() ? "trees match" : mismatch) << "\n";
      failures += form != merklize::program_form::spirv || !mismatch.empty();
    }
    return failures ? 1 : 0;
  }
  std::cout << "SKIPPED: no OpenCL device reports SPIR-V in CL_DEVICE_IL_VERSION:" << seen << "\n";
  return 77;
}
