// SPDX-License-Identifier: Apache-2.0 OR MIT
// How the library's entry points are compiled. By default the library is header-only: every
// function is inline and each translation unit that builds a tree compiles the stream pipeline,
// program cache and device code behind merkleizer again (about 12 s at -O2, docs/BENCHMARKS.md).
// With MERKLIZE_SEPARATE_COMPILATION defined in every translation unit of a program, the headers
// only declare the entry points (merkleizer, the device list, input) and the one translation unit
// that includes <merklize/src.hpp> defines them, as Asio's ASIO_SEPARATE_COMPILATION does.
// CMake users get that from the merklize::compiled target (README, "Compile time").
#pragma once

#if defined(MERKLIZE_SEPARATE_COMPILATION)
#define MERKLIZE_DECL
#else
#define MERKLIZE_DECL inline
#endif
