// SPDX-License-Identifier: Apache-2.0 OR MIT
// merklize b3sum --check: reads check files as b3sum (1.x) writes them, "<64 hex>  <name>" a line
// (a line starting with a backslash holds a name with \\ and \n escaped), hashes each file named
// and prints "NAME: OK", "NAME: FAILED" or "NAME: FAILED (<reason> (os error N))" on stdout, byte
// for byte as b3sum does. A malformed line is reported on stderr; a check file that cannot be
// read, or that is not UTF-8, stops the check with exit status 1, as b3sum stops.
#include "b3sum.hpp"

#include "cli.hpp"
#include "input.hpp"
#include "output.hpp"
#include "quote.hpp"
#include "utf8.hpp"

#include <algorithm>
#include <array>

namespace cli {
namespace b3sum {
namespace {

// A check file's lines, "\n" removed, read in bounded memory: a line longer than max_line is
// reported as such, not held.
class line_reader {
public:
  static constexpr std::size_t max_line = std::size_t(1) << 20;

  explicit line_reader(input_file &input) : input_(input) {}

  // The next line (false at the end); `too_long` when it was cut at max_line.
  bool next(std::string &line, bool &too_long) {
    line.clear();
    too_long = false;
    for (;;) {
      if (at_ == end_ && !refill()) return !line.empty() || too_long;
      const auto newline = std::find(buffer_.begin() + at_, buffer_.begin() + end_, '\n');
      const std::size_t take = static_cast<std::size_t>(newline - buffer_.begin()) - at_;
      too_long = too_long || line.size() + take > max_line;
      if (!too_long) line.append(buffer_.data() + at_, take);
      at_ += take;
      if (newline != buffer_.begin() + end_) {
        ++at_;
        return true;
      }
    }
  }

private:
  bool refill() {
    at_ = 0;
    end_ = input_.read_some(reinterpret_cast<std::uint8_t *>(buffer_.data()), buffer_.size());
    return end_ > 0;
  }

  input_file &input_;
  std::array<char, 65536> buffer_;
  std::size_t at_ = 0, end_ = 0;
};

bool is_utf8(const std::string &text) {
  for (std::size_t i = 0; i < text.size();) {
    const utf8_sequence s = utf8_sequence_at(text, i);
    if (!s.valid) return false;
    i += s.length;
  }
  return true;
}

// A line of a check file, parsed as b3sum 1.x parses it.
struct check_line {
  std::array<std::uint8_t, 32> expected;
  std::string shown; // the name as the line gives it, and its leading backslash if escaped
  std::string path;  // the file to hash
};

// b3sum's words for each way a line can be malformed.
struct malformed : merklize::error {
  using merklize::error::error;
};

int hex_digit(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10; // lowercase only, as b3sum
  throw malformed("Invalid hex");
}

std::string unescape(const std::string &name) {
  std::string path;
  for (std::size_t i = 0; i < name.size(); ++i) {
    if (name[i] != '\\') {
      path += name[i];
      continue;
    }
    if (i + 1 == name.size() || (name[i + 1] != 'n' && name[i + 1] != '\\'))
      throw malformed("Invalid backslash escape");
    path += name[++i] == 'n' ? '\n' : '\\';
  }
  return path;
}

check_line parse_line(std::string line) {
  constexpr std::size_t hex_length = 64, prefix_length = hex_length + 2;
  if (line.empty()) throw malformed("Empty line");
  const bool escaped = line[0] == '\\';
  if (escaped) line.erase(0, 1);
  if (line.size() <= prefix_length) throw malformed("Short line");
  for (std::size_t i = 0; i < prefix_length; ++i)
    if (static_cast<unsigned char>(line[i]) >= 0x80) throw malformed("Non-ASCII prefix");
  if (line.compare(hex_length, 2, "  ") != 0) throw malformed("Invalid space");
  check_line parsed;
  for (std::size_t i = 0; i < parsed.expected.size(); ++i)
    parsed.expected[i] =
        static_cast<std::uint8_t>(16 * hex_digit(line[2 * i]) + hex_digit(line[2 * i + 1]));
  const std::string name = line.substr(prefix_length);
  parsed.shown = (escaped ? "\\" : "") + name;
  parsed.path = escaped ? unescape(name) : name;
  if (parsed.path.find('\0') != std::string::npos) throw malformed("Null character in path");
  if (parsed.path.find("\xEF\xBF\xBD") != std::string::npos)
    throw malformed("Unicode replacement character in path");
  return parsed;
}

// " (<reason> (os error N))" as Rust shows an I/O error, for a file that cannot be read.
std::string failure_reason(const merklize::file_error &e) {
  return " (" + e.reason() +
         (e.code() ? " (os error " + std::to_string(e.code()) + ")" : std::string()) + ")";
}

// Checks the file one line names; false if it fails.
bool check_one(input_hasher &hasher, const check_line &line, bool quiet) {
  std::array<std::uint8_t, 32> found;
  try {
    hasher.hash(
        line.path,
        [&](const std::uint8_t *bytes, std::size_t size) {
          std::copy(bytes, bytes + size, found.begin());
        },
        found.size());
  } catch (const output_error &) {
    throw;
  } catch (const merklize::file_error &e) {
    write_stdout(line.shown + ": FAILED" + failure_reason(e) + "\n");
    return false;
  }
  if (found != line.expected) {
    write_stdout(line.shown + ": FAILED\n");
    return false;
  }
  if (!quiet) write_stdout(line.shown + ": OK\n");
  return true;
}

// The lines of one check file; returns how many failed.
std::uint64_t check_file(input_hasher &hasher, const std::string &path, bool quiet) {
  input_file input(path);
  line_reader lines(input);
  std::uint64_t failed = 0, number = 0;
  std::string line;
  for (bool too_long = false; lines.next(line, too_long);) {
    ++number;
    const std::string where = quote(input.name()) + " line " + std::to_string(number);
    if (!too_long && !is_utf8(line))
      throw merklize::error(where + ": not UTF-8 (b3sum reads check files as UTF-8 text)");
    try {
      if (too_long) throw malformed("Line longer than " + std::to_string(line_reader::max_line));
      if (!check_one(hasher, parse_line(line), quiet)) ++failed;
    } catch (const malformed &e) {
      print_error("merklize", where + ": " + e.what());
      ++failed;
    }
  }
  return failed;
}

} // namespace

int check(const b3sum_arguments &args, input_hasher &hasher) {
  std::vector<std::string> files = args.files;
  if (files.empty()) files.push_back("-");
  std::uint64_t failed = 0;
  for (const auto &path : files)
    failed += check_file(hasher, path, args.quiet);
  if (failed == 0) return 0;
  print_error("merklize", "WARNING: " + std::to_string(failed) + " computed checksum" +
                              (failed == 1 ? "" : "s") + " did NOT match");
  return exit_failure;
}

} // namespace b3sum
} // namespace cli
