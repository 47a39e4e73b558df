// SPDX-License-Identifier: Apache-2.0 OR MIT
// Device facts of the devices the planners are tested for, with no device: an H200 and PoCL on
// 2 AMD cores (tests/test_launch_plan.cpp, tests/test_engine_choice.cpp).
#pragma once

#include <merklize/plan/tuning.hpp>

namespace test {

inline merklize::device_facts h200() {
  merklize::device_facts f;
  f.name = "NVIDIA H200";
  f.vendor = "NVIDIA Corporation";
  f.platform = "NVIDIA CUDA";
  f.type = merklize::device_type::gpu;
  f.compute_units = 132;
  f.max_work_group_size = 1024;
  f.preferred_int_vector_width = 1;
  f.global_memory_bytes = std::uint64_t(141) << 30;
  f.max_buffer_bytes = std::uint64_t(35) << 30;
  return f;
}

inline merklize::device_facts pocl_cpu(unsigned width) {
  merklize::device_facts f;
  f.name = "cpu-x86-64-znver3";
  f.vendor = "AuthenticAMD";
  f.platform = "Portable Computing Language";
  f.type = merklize::device_type::cpu;
  f.compute_units = 2;
  f.max_work_group_size = 4096;
  f.preferred_int_vector_width = width;
  f.global_memory_bytes = std::uint64_t(20) << 30;
  f.max_buffer_bytes = std::uint64_t(4) << 30;
  f.unified_memory = true;
  return f;
}

} // namespace test
