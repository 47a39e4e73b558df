// SPDX-License-Identifier: Apache-2.0 OR MIT
// Status, errors, version, the names the configuration takes, and byte runs.
#include "handles.hpp"

#include <merklize/version.hpp>

namespace merklize_capi {
namespace {

// This thread's last error. A message is copied into it; where even that copy runs out of
// memory, the static text below is given instead, so that a failure is never reported as "".
thread_local std::string last_error;
thread_local const char *last_error_text = "";

void store(const char *message) noexcept {
  try {
    last_error = message;
    last_error_text = last_error.c_str();
  } catch (...) {
    last_error_text = "out of host memory (the message of the failure could not be kept)";
  }
}

} // namespace

merklize_status failed(merklize_status status, const char *message) noexcept {
  store(message);
  return status;
}

void set_last_error(const std::string &message) noexcept { store(message.c_str()); }

} // namespace merklize_capi

extern "C" {

const char *merklize_last_error(void) { return merklize_capi::last_error_text; }

const char *merklize_status_name(merklize_status status) {
  switch (status) {
  case MERKLIZE_OK:
    return "MERKLIZE_OK";
  case MERKLIZE_ERROR_ARGUMENT:
    return "MERKLIZE_ERROR_ARGUMENT";
  case MERKLIZE_ERROR_NO_DEVICE:
    return "MERKLIZE_ERROR_NO_DEVICE";
  case MERKLIZE_ERROR_OPENCL:
    return "MERKLIZE_ERROR_OPENCL";
  case MERKLIZE_ERROR_IO:
    return "MERKLIZE_ERROR_IO";
  case MERKLIZE_ERROR_DECODE:
    return "MERKLIZE_ERROR_DECODE";
  case MERKLIZE_ERROR_NO_MEMORY:
    return "MERKLIZE_ERROR_NO_MEMORY";
  case MERKLIZE_ERROR_INTERNAL:
    return "MERKLIZE_ERROR_INTERNAL";
  case MERKLIZE_ERROR_UNUSABLE:
    return "MERKLIZE_ERROR_UNUSABLE";
  }
  return "unknown status";
}

const char *merklize_version(void) { return merklize::version(); }

uint32_t merklize_abi_version(void) { return MERKLIZE_ABI_VERSION; }

// The lists parse_hash_kind, parse_shape and parse_leaf_hash accept: the table of hashes'
// names (core/hashes.hpp); the test c_api_names checks each name here against the parser.
const char *merklize_hash_names(void) {
  static const std::string names = merklize::hash_names(",");
  return names.c_str();
}
const char *merklize_shape_names(void) { return "promote,zero"; }
const char *merklize_leaf_hash_names(void) {
  static const std::string names = merklize::leaf_hash_names(",");
  return names.c_str();
}

const uint8_t *merklize_bytes_data(const merklize_bytes *bytes) {
  const merklize_bytes *b = merklize_capi::live_or_null(bytes, "merklize_bytes_data", "bytes");
  return b ? b->data.data() : nullptr;
}

size_t merklize_bytes_size(const merklize_bytes *bytes) {
  const merklize_bytes *b = merklize_capi::live_or_null(bytes, "merklize_bytes_size", "bytes");
  return b ? b->data.size() : 0;
}

void merklize_bytes_free(merklize_bytes *bytes) {
  merklize_capi::free_handle(bytes, "merklize_bytes_free", "bytes");
}

} // extern "C"
