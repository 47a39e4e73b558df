// SPDX-License-Identifier: Apache-2.0 OR MIT
// The README's command-line examples, run as they are written: each ```console block, whose
// "$ " lines are commands and the lines after one its stdout, runs in a folder of its own with
// the merklize just built first in PATH, so the README cannot drift from the tool.
#include "cli_helpers.hpp"

#include <catch2/catch.hpp>

#include <set>
#include <sstream>

namespace {

struct console_step {
  std::string command, output;
};

struct console_block {
  std::string section; // the "## " heading it is under
  std::vector<console_step> steps;
};

std::vector<console_block> console_blocks(const std::string &markdown) {
  std::vector<console_block> blocks;
  std::istringstream in(markdown);
  std::string line, section;
  bool inside = false;
  while (std::getline(in, line)) {
    if (!inside && line.rfind("## ", 0) == 0) {
      section = line.substr(3);
    } else if (!inside && line == "```console") {
      inside = true;
      blocks.push_back({section, {}});
    } else if (inside && line == "```") {
      inside = false;
    } else if (inside && line.rfind("$ ", 0) == 0) {
      blocks.back().steps.push_back({line.substr(2), ""});
    } else if (inside) {
      if (blocks.back().steps.empty())
        throw std::runtime_error("README: output before any command under " + section);
      blocks.back().steps.back().output += line + "\n";
    }
  }
  return blocks;
}

} // namespace

TEST_CASE("the README's console examples print what the README shows", "[readme][cli]") {
  const auto blocks = console_blocks(test::slurp(std::string(MERKLIZE_SOURCE_DIR) + "/README.md"));
  std::set<std::string> sections;
  for (const auto &block : blocks)
    sections.insert(block.section);
  CHECK(sections.count("Transparency logs") == 1);
  CHECK(sections.count("SSZ") == 1);
  const std::string tools = test::fs::path(MERKLIZE_CLI).parent_path().string();
  for (std::size_t b = 0; b < blocks.size(); ++b) {
    const auto folder = test::scratch_dir() / ("readme-" + std::to_string(b));
    test::fs::remove_all(folder);
    test::fs::create_directories(folder);
    const std::string setup = "cd " + test::sh_quote(folder.string()) +
                              " && export PATH=" + test::sh_quote(tools) + ":\"$PATH\" && ";
    for (const auto &step : blocks[b].steps) {
      INFO(blocks[b].section << ": $ " << step.command);
      const auto r = test::run_shell(setup + step.command);
      CHECK(r.err.empty());
      REQUIRE(r.status == 0);
      CHECK(r.out == step.output);
    }
  }
}
