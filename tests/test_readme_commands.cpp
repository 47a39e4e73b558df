// SPDX-License-Identifier: Apache-2.0 OR MIT
// The README's command-line examples, run as they are written: each ```console block, whose
// "$ " lines are commands and the lines after one its stdout, runs in a folder of its own with
// the merklize just built first in PATH (and /usr/sbin, where veritysetup is), so the README
// cannot drift from the tool. A block that calls a system's tool that is not installed
// (veritysetup, fsverity, b3sum, openssl) is skipped, saying so.
#include "cli_helpers.hpp"

#include <catch2/catch.hpp>

#include <cstring>
#include <set>
#include <sstream>

#include <unistd.h>

namespace {

struct console_step {
  std::string command, output;
};

struct console_block {
  std::string section; // the "## " or "### " heading it is under
  std::vector<console_step> steps;
};

// The first tool the block calls that is not installed, or "".
std::string missing_tool(const console_block &block) {
  for (const char *tool : {"veritysetup", "fsverity", "b3sum", "openssl"}) {
    bool called = false;
    for (const auto &step : block.steps)
      for (std::size_t at = step.command.find(tool); at != std::string::npos && !called;
           at = step.command.find(tool, at + 1))
        called =
            (at == 0 || std::string(" |({;$").find(step.command[at - 1]) != std::string::npos) &&
            (at + std::strlen(tool) == step.command.size() ||
             step.command[at + std::strlen(tool)] == ' ');
    bool found = false;
    for (const char *dir : {"/usr/bin/", "/usr/sbin/", "/bin/", "/sbin/", "/usr/local/bin/"})
      found = found || ::access((std::string(dir) + tool).c_str(), X_OK) == 0;
    if (called && !found) return tool;
  }
  return "";
}

std::vector<console_block> console_blocks(const std::string &markdown) {
  std::vector<console_block> blocks;
  std::istringstream in(markdown);
  std::string line, section;
  bool inside = false;
  while (std::getline(in, line)) {
    if (!inside && (line.rfind("## ", 0) == 0 || line.rfind("### ", 0) == 0)) {
      section = line.substr(line.find(' ') + 1);
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
  // The tasks a newcomer comes for, each one command checked with the system's own tool.
  for (const char *task : {"A dm-verity image, with its superblock", "An fs-verity digest",
                           "A transparency log", "An SSZ list", "BLAKE3 of a file, and its tree"})
    CHECK(sections.count(task) == 1);
  const std::string tools = test::fs::path(MERKLIZE_CLI).parent_path().string();
  for (std::size_t b = 0; b < blocks.size(); ++b) {
    const std::string missing = missing_tool(blocks[b]);
    if (!missing.empty()) {
      WARN("SKIPPED: the README's block under \"" << blocks[b].section << "\" calls " << missing
                                                  << ", which is not installed");
      continue;
    }
    const auto folder = test::scratch_dir() / ("readme-" + std::to_string(b));
    test::fs::remove_all(folder);
    test::fs::create_directories(folder);
    const std::string setup = "cd " + test::sh_quote(folder.string()) +
                              " && export PATH=" + test::sh_quote(tools) +
                              ":\"$PATH\":/usr/sbin:/sbin && ";
    for (const auto &step : blocks[b].steps) {
      INFO(blocks[b].section << ": $ " << step.command);
      const auto r = test::run_shell(setup + step.command);
      CHECK(r.err.empty());
      REQUIRE(r.status == 0);
      CHECK(r.out == step.output);
    }
  }
}
