// SPDX-License-Identifier: Apache-2.0 OR MIT
// Catch2 checks of built trees against the reference.
#pragma once

#include "helpers.hpp"

#include <catch2/catch.hpp>

namespace test {

// The levels of `full` from `first` up must be exactly the levels `kept` holds.
inline void check_kept(const merklize::tree &kept, const merklize::tree &full, unsigned first) {
  REQUIRE(kept.first_level() == std::min(first, full.depth()));
  for (unsigned k = kept.first_level(); k <= full.depth(); ++k) {
    INFO("level " << k);
    REQUIRE(std::equal(full.level_data(k),
                       full.level_data(k) + full.layout().level_size(k) * merklize::node_bytes,
                       kept.level_data(k)));
  }
  if (kept.first_level() > 0)
    CHECK_THROWS_WITH(kept.node(0, 0), Catch::Matchers::Contains("was not kept"));
  CHECK(kept.root() == full.root());
}

} // namespace test
