// SPDX-License-Identifier: Apache-2.0 OR MIT
// A device spec is untrusted text (a command-line option, $MERKLIZE_DEVICE): the errors that
// echo it quote it escaped, so that it cannot drive the terminal, and cut to a bounded length.
#include "helpers.hpp"

#include <catch2/catch.hpp>

#include <cstdlib>
#include <functional>
#include <optional>

using Catch::Matchers::Contains;

namespace {

std::string device_error(const std::function<void()> &f) {
  try {
    f();
  } catch (const merklize::error &e) {
    return e.what();
  }
  FAIL("no merklize::error thrown");
  return {};
}

std::string first_line(const std::string &text) { return text.substr(0, text.find('\n')); }

} // namespace

TEST_CASE("a device spec is quoted escaped and cut in its error", "[errors][device]") {
  const std::string escaped = first_line(device_error([] { merklize::select_device("\x1b[2Jx"); }));
  CHECK_THAT(escaped, Contains("unknown device \"\\x1b[2Jx\": no OpenCL device matches it"));
  const std::string cut =
      first_line(device_error([] { merklize::select_device(std::string(10 << 20, 'x')); }));
  CHECK(cut.size() < 200);
  CHECK_THAT(cut, Contains("...\" (10485760 bytes): no OpenCL device matches it"));

  const char *saved = std::getenv("MERKLIZE_DEVICE");
  const std::optional<std::string> previous =
      saved ? std::optional<std::string>(saved) : std::nullopt;
  ::setenv("MERKLIZE_DEVICE", "\x1b]0;title\x07", 1);
  const std::string from_env = first_line(device_error([] { merklize::default_device(); }));
  if (previous)
    ::setenv("MERKLIZE_DEVICE", previous->c_str(), 1);
  else
    ::unsetenv("MERKLIZE_DEVICE");
  CHECK_THAT(from_env, Contains("MERKLIZE_DEVICE: unknown device \"\\x1b]0;title\\x07\""));
}
