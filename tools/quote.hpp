// SPDX-License-Identifier: Apache-2.0 OR MIT
// Untrusted text in messages (a file name, an option's value, a check file's line, an
// environment variable): escaped, so that no terminal control sequence reaches the terminal, and
// cut to a bounded length. Unlike the library's own quoting (core/quote.hpp), which writes every
// non-ASCII byte as \xNN (a proof's or a cache's text has no business being anything else), valid
// UTF-8 is kept as it is here: a user's file name in their own script reads as they typed it, as
// coreutils show it.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace cli {

// `text` with control characters (C0, DEL and C1) and bytes that are not UTF-8 written as \xNN,
// cut to at most `max` bytes, "..." marking a cut.
std::string printable(std::string_view text, std::size_t max);

// The same, line by line: the line breaks of a message of several lines (a list of devices) kept
// as line breaks, never written \x0a.
std::string printable_lines(std::string_view text, std::size_t max);

// `text` in double quotes, printable, a backslash and a double quote escaped (\\ and \"): the
// text's limits are plain even when it holds spaces or quotes. (Not named `quoted`: a call with a
// std::string would find std::quoted by argument-dependent lookup.)
std::string quote(std::string_view text, std::size_t max = 256);

} // namespace cli
