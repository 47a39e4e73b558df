# SPDX-License-Identifier: Apache-2.0 OR MIT
# Target merklize_aot (built by default with MERKLIZE_AOT=ON, and by `make aot`): compiles every
# program variant (detail::all_program_specs) with clang and llvm-spirv into MERKLIZE_AOT_DIR,
# through tools/aot.cpp. Point the library there with MERKLIZE_KERNEL_DIR or set_kernel_dir.
if(NOT TARGET merklize_aot_tool)
  message(FATAL_ERROR "MERKLIZE_AOT needs MERKLIZE_BUILD_TOOLS=ON (it builds merklize-aot)")
endif()
if(NOT MERKLIZE_CLANG OR NOT MERKLIZE_LLVM_SPIRV)
  message(FATAL_ERROR "MERKLIZE_AOT needs clang-14 and llvm-spirv-14: install the Debian packages "
                      "clang-14 and llvm-spirv-14 (`make aot` does), or set MERKLIZE_CLANG and "
                      "MERKLIZE_LLVM_SPIRV to the programs")
endif()
set(MERKLIZE_AOT_DIR ${PROJECT_BINARY_DIR}/kernels CACHE PATH "Where merklize_aot writes the kernels")

add_custom_command(
  OUTPUT ${PROJECT_BINARY_DIR}/merklize_aot.stamp
  COMMAND merklize_aot_tool --clang ${MERKLIZE_CLANG} --llvm-spirv ${MERKLIZE_LLVM_SPIRV}
          ${MERKLIZE_AOT_DIR}
  COMMAND ${CMAKE_COMMAND} -E touch ${PROJECT_BINARY_DIR}/merklize_aot.stamp
  DEPENDS merklize_aot_tool
  COMMENT "Compiling the kernels ahead of time into ${MERKLIZE_AOT_DIR}")
add_custom_target(merklize_aot ALL DEPENDS ${PROJECT_BINARY_DIR}/merklize_aot.stamp)
