// SPDX-License-Identifier: Apache-2.0 OR MIT
// The one file of a program that compiles merklize's entry points (README, "Compile time").
#include <merklize/src.hpp>
