// SPDX-License-Identifier: Apache-2.0 OR MIT
// The definitions of the library's entry points, for the one translation unit of a program that
// compiles them when MERKLIZE_SEPARATE_COMPILATION is defined (detail/separate_compilation.hpp).
#pragma once

#if !defined(MERKLIZE_SEPARATE_COMPILATION)
#error                                                                                             \
    "<merklize/impl/src.hpp> is for MERKLIZE_SEPARATE_COMPILATION: define it in every translation unit (header-only use needs no such file)"
#endif

#include "../device.hpp"
#include "../input.hpp"
#include "../merkleizer.hpp"

#include "device.ipp"
#include "input.ipp"
#include "merkleizer.ipp"
