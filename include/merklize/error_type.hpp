// merklize::error, the base of every exception merklize throws, without the OpenCL headers, so
// that the host-only parts (BLAKE3, trees, proofs) compile without OpenCL. error.hpp adds the
// OpenCL errors.
#pragma once

#include <stdexcept>

namespace merklize {

class error : public std::runtime_error {
public:
  using std::runtime_error::runtime_error;
};

} // namespace merklize
