// SPDX-License-Identifier: Apache-2.0 OR MIT
// The definitions of the library's entry points, for the one translation unit of a program that
// compiles them when MERKLIZE_SEPARATE_COMPILATION is defined (core/separate_compilation.hpp).
#pragma once

#if !defined(MERKLIZE_SEPARATE_COMPILATION)
#error                                                                                             \
    "<merklize/src.hpp> is for MERKLIZE_SEPARATE_COMPILATION: define it in every translation unit (header-only use needs no such file)"
#endif

#include "engine/merkleizer.hpp"
#include "io/input.hpp"
#include "runtime/device.hpp"

#include "engine/merkleizer.ipp"
#include "io/input.ipp"
#include "runtime/device.ipp"
