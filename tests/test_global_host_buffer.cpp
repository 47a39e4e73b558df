// SPDX-License-Identifier: Apache-2.0 OR MIT
// A host_buffer held by a global object is freed after main returns, when function-local statics
// may already be destroyed: it must still unregister its page-locked memory cleanly. Built with
// AddressSanitizer, which reports the use after free that a destroyed registry would give.
#include <merklize/merklize.hpp>

#include <memory>

std::unique_ptr<merklize::host_buffer> held_until_exit;

int main() {
  merklize::merkleizer m;
  held_until_exit = std::make_unique<merklize::host_buffer>(m.allocate_host(4096));
  return 0;
}
