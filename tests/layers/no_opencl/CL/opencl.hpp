// SPDX-License-Identifier: Apache-2.0 OR MIT
// Stands first on the include path of merklize_layer_objects: a header of a layer without
// OpenCL that reaches the OpenCL headers fails to compile (tests/layers/CMakeLists.txt).
#error "a header of a layer without OpenCL includes <CL/opencl.hpp>"
