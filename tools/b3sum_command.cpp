// merklize b3sum: the BLAKE3 of files, hashed on the device and printed exactly as the b3sum
// program prints them: "<hex>  <name>" a line, "-" for stdin. Like b3sum, a name holding a
// backslash or a newline is escaped (\\ and \n) and its line starts with a backslash, a name that
// is not UTF-8 is shown with U+FFFD in place of each invalid sequence (Rust's to_string_lossy), a
// file that cannot be read is reported on stderr and skipped, and the status is then 1.
#include "cli.hpp"

#include <iostream>
#include <unistd.h>

namespace cli {
namespace {

// The name as UTF-8, each maximal invalid sequence (the longest prefix of a well-formed sequence
// that breaks off, else one byte) replaced by U+FFFD, as Rust's String::from_utf8_lossy does.
std::string lossy_utf8(const std::string &name) {
  const auto byte = [&](std::size_t i) { return static_cast<unsigned char>(name[i]); };
  const auto within = [](unsigned char b, unsigned lo, unsigned hi) { return b >= lo && b <= hi; };
  std::string text;
  for (std::size_t i = 0; i < name.size();) {
    const unsigned char lead = byte(i);
    if (lead < 0x80) {
      text += name[i++];
      continue;
    }
    // Well-formed sequences (Unicode table 3-7): the lead byte fixes the length and the range of
    // the second byte; later bytes are 80..BF.
    std::size_t width = 0;
    unsigned lo = 0x80, hi = 0xBF;
    if (within(lead, 0xC2, 0xDF)) width = 2;
    if (within(lead, 0xE0, 0xEF))
      width = 3, lo = lead == 0xE0 ? 0xA0 : lo, hi = lead == 0xED ? 0x9F : hi;
    if (within(lead, 0xF0, 0xF4))
      width = 4, lo = lead == 0xF0 ? 0x90 : lo, hi = lead == 0xF4 ? 0x8F : hi;
    std::size_t valid = 1;
    if (width > 0 && i + 1 < name.size() && within(byte(i + 1), lo, hi))
      for (valid = 2;
           valid < width && i + valid < name.size() && within(byte(i + valid), 0x80, 0xBF);)
        ++valid;
    text += valid == width ? name.substr(i, valid) : "\xEF\xBF\xBD";
    i += valid;
  }
  return text;
}

// One output line as b3sum writes it.
std::string output_line(const std::string &hex, const std::string &name) {
  const std::string text = lossy_utf8(name);
  if (text.find_first_of("\\\n") == std::string::npos) return hex + "  " + text + "\n";
  std::string escaped;
  for (char c : text)
    escaped += c == '\\' ? "\\\\" : c == '\n' ? "\\n" : std::string(1, c);
  return "\\" + hex + "  " + escaped + "\n";
}

std::uint64_t parse_length(const std::string &text) {
  const bool digits = !text.empty() && text.size() <= 19 &&
                      text.find_first_not_of("0123456789") == std::string::npos;
  if (!digits) throw usage_error("--length needs a number of output bytes, got \"" + text + "\"");
  return std::stoull(text);
}

merklize::blake3_mode mode_of(const arguments &args) {
  if (args.has("keyed") && args.has("derive-key"))
    throw usage_error("--keyed and --derive-key exclude each other");
  if (args.has("derive-key")) return merklize::blake3_mode::derive_key(args.get("derive-key", ""));
  if (!args.has("keyed")) return merklize::blake3_mode::hash();
  std::vector<std::uint8_t> key;
  try {
    key = merklize::from_hex(args.get("keyed", ""));
  } catch (const merklize::error &e) {
    throw usage_error(std::string("--keyed: ") + e.what());
  }
  if (key.size() != merklize::blake3::key_len)
    throw usage_error("--keyed needs 64 hex digits (a 32-byte key), got " +
                      std::to_string(2 * key.size()));
  return merklize::blake3_mode::keyed(key.data());
}

// The output for one file, "-" being stdin: regular files are read by several threads.
void hash_input(merklize::blake3_device &device, const merklize::blake3_mode &mode,
                const std::string &name, std::vector<std::uint8_t> &output) {
  if (name != "-") {
    device.hash_file(mode, name, output.data(), output.size());
    return;
  }
  device.hash_stream(
      mode,
      [](std::uint8_t *buffer, std::size_t capacity) {
        return merklize::detail::read_some(STDIN_FILENO, "stdin", buffer, capacity);
      },
      output.data(), output.size(),
      merklize::detail::regular_file_size(STDIN_FILENO)
          .value_or(merklize::blake3_device::unknown_size));
}

} // namespace

int b3sum_command(int argc, char **argv) {
  const arguments args(argc, argv, 2, {"device", "keyed", "derive-key", "length"});
  const merklize::blake3_mode mode = mode_of(args);
  const std::uint64_t length = parse_length(args.get("length", "32"));
  std::vector<std::string> files = args.positional;
  if (files.empty()) files.push_back("-");
  merklize::blake3_device device(chosen_device(args));
  std::vector<std::uint8_t> output(length);
  int status = 0;
  for (const auto &name : files) {
    try {
      hash_input(device, mode, name, output);
    } catch (const merklize::file_error &e) {
      std::cerr << "merklize: " << name << ": " << e.reason() << "\n";
      status = 1;
      continue;
    }
    std::cout << output_line(merklize::to_hex(output.data(), output.size()), name);
  }
  std::cout.flush();
  return status;
}

} // namespace cli
