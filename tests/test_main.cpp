// SPDX-License-Identifier: Apache-2.0 OR MIT
#define CATCH_CONFIG_MAIN
#include <catch2/catch.hpp>
