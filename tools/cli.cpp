#include "cli.hpp"

#include <cctype>
#include <fstream>
#include <iostream>
#include <iterator>

namespace cli {

arguments::arguments(int argc, char **argv, int first, const std::vector<std::string> &known,
                     const std::vector<std::string> &flags) {
  for (int i = first; i < argc; ++i) {
    const std::string arg = argv[i];
    if (arg.size() <= 2 || arg.compare(0, 2, "--") != 0) {
      positional.push_back(arg);
      continue;
    }
    const std::string name = arg.substr(2);
    if (std::find(flags.begin(), flags.end(), name) != flags.end()) {
      options[name] = "";
      continue;
    }
    if (std::find(known.begin(), known.end(), name) == known.end())
      throw usage_error("unknown option " + arg);
    if (i + 1 >= argc) throw usage_error("option " + arg + " needs a value");
    options[name] = argv[++i];
  }
}

std::vector<std::uint8_t> read_input(const std::string &path) {
  if (path == "-") return std::vector<std::uint8_t>(std::istreambuf_iterator<char>(std::cin), {});
  std::ifstream file(path, std::ios::binary);
  if (!file) throw merklize::error("cannot open " + path);
  std::vector<std::uint8_t> data(std::istreambuf_iterator<char>(file), {});
  if (file.bad()) throw merklize::error("cannot read " + path);
  return data;
}

std::vector<std::uint8_t> read_leaves(const std::string &path) {
  auto leaves = read_input(path);
  try {
    merklize::leaf_count_of(leaves.size());
  } catch (const merklize::error &e) {
    throw merklize::error((path == "-" ? "stdin" : path) + ": " + e.what());
  }
  return leaves;
}

std::uint64_t count_option(const arguments &args, const std::string &name) {
  const std::string text = args.get(name, "");
  bool ok = !text.empty();
  std::uint64_t n = 0;
  for (const char c : text) {
    const auto digit = static_cast<std::uint64_t>(c - '0');
    ok = ok && c >= '0' && c <= '9' && n <= (UINT64_MAX - digit) / 10;
    if (!ok) break;
    n = n * 10 + digit;
  }
  if (!ok) throw usage_error("--" + name + " takes a non-negative integer, not \"" + text + "\"");
  return n;
}

cl::Device chosen_device(const arguments &args) {
  return args.has("device") ? merklize::select_device(args.get("device", ""))
                            : merklize::default_device();
}

// --depth D: a whole number; whether it fits the leaves and the shape is the library's check.
static unsigned depth_of(const std::string &text) {
  const bool digits =
      !text.empty() && text.size() <= 9 &&
      std::all_of(text.begin(), text.end(), [](unsigned char c) { return std::isdigit(c) != 0; });
  if (!digits) throw usage_error("--depth takes a whole number of levels, got \"" + text + "\"");
  return static_cast<unsigned>(std::stoul(text));
}

merklize::tree_options tree_options_of(const arguments &args) {
  merklize::tree_options options;
  options.hash = merklize::parse_hash_kind(args.get("hash", "blake3"));
  options.pad = merklize::parse_shape(args.get("pad", "promote"));
  if (args.has("depth")) options.depth = depth_of(args.get("depth", ""));
  return options;
}

void report_program(const arguments &args, merklize::merkleizer &m) {
  if (args.has(verbose_flag))
    std::cerr << "program: " << merklize::to_string(m.program_form()) << "\n";
}

} // namespace cli
