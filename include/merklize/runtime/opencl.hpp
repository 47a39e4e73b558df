// SPDX-License-Identifier: Apache-2.0 OR MIT
// How merklize includes the OpenCL C++ bindings. Include merklize headers before CL/opencl.hpp,
// or define the same CL_HPP_* macros yourself.
#pragma once

// Target 1.2: every device we run on has it, and opencl-clhpp-headers 2023.02 fails to compile
// with a minimum of 1.2 and a target of 3.0. Newer entry points are looked up at run time.
#ifndef CL_HPP_TARGET_OPENCL_VERSION
#define CL_HPP_TARGET_OPENCL_VERSION 120
#endif
#ifndef CL_HPP_MINIMUM_OPENCL_VERSION
#define CL_HPP_MINIMUM_OPENCL_VERSION 120
#endif

#include <CL/opencl.hpp>
