// SPDX-License-Identifier: Apache-2.0 OR MIT
// The tools' command lines, parsed by CLI11 (Debian's libcli11-dev; see README, "Command line"):
// --opt=value and --opt value, short options, options before or after the operands, "--" ending
// the options, --help for each command, a single-valued option given twice refused. Mistakes
// become usage_error (exit 2) with a message of our own where CLI11's would be obscure.
// Header-only and included by one file of each tool, since CLI11 alone takes seconds to compile.
#pragma once

#include "cli.hpp"
#include "output.hpp"
#include "quote.hpp"
#include "values.hpp"

#include <CLI/CLI.hpp>

#include <sstream>
#include <string>

namespace cli {

// CLI11's help with the descriptions wrapped to fit 100 columns, and without CLI11's
// "Excludes:" and "Needs:" lists (the descriptions say what goes with what).
class help_formatter : public CLI::Formatter {
public:
  static constexpr std::size_t width = 100;

  help_formatter() { column_width(24); }

  std::string make_option_opts(const CLI::Option *option) const override {
    const std::string type = option->get_type_name();
    return type.empty() ? "" : " " + type;
  }
  std::string make_option_desc(const CLI::Option *option) const override {
    return wrap(option->get_description(), width - get_column_width());
  }
  // A command's line of the list: its name in the first column, its description in the second,
  // on the next line where the name fills the first.
  std::string make_subcommand(const CLI::App *command) const override {
    const std::size_t column = get_column_width();
    const std::string name = "  " + command->get_name();
    const std::string description = wrap(command->get_description(), width - column);
    std::string line = name + std::string(column > name.size() ? column - name.size() : 0, ' ');
    if (!description.empty() && name.size() >= column) line += "\n" + std::string(column, ' ');
    for (const char c : description)
      line += c == '\n' ? "\n" + std::string(column, ' ') : std::string(1, c);
    return line + "\n";
  }
  std::string make_description(const CLI::App *app) const override {
    return wrap(app->get_description(), width) + "\n";
  }
  std::string make_footer(const CLI::App *app) const override {
    return app->get_footer().empty() ? "" : wrap(app->get_footer(), width) + "\n";
  }

  // `text` in lines of at most `columns` characters, broken at spaces; its own line breaks kept.
  static std::string wrap(const std::string &text, std::size_t columns) {
    std::string wrapped, line, word;
    std::istringstream paragraphs(text);
    for (std::string paragraph; std::getline(paragraphs, paragraph);) {
      if (!wrapped.empty()) wrapped += "\n";
      std::istringstream words(paragraph);
      line.clear();
      while (words >> word) {
        if (!line.empty() && line.size() + 1 + word.size() > columns) {
          wrapped += line + "\n";
          line.clear();
        }
        line += (line.empty() ? "" : " ") + word;
      }
      wrapped += line;
    }
    return wrapped;
  }
};

// "--length" of "-l,--length".
inline std::string long_name(const std::string &names) {
  const auto comma = names.rfind(',');
  return comma == std::string::npos ? names : names.substr(comma + 1);
}

// An option whose value `parse(name, text)` converts into `target`, throwing usage_error if it
// cannot (so every value gets a message naming its option).
template <class T, class Parse>
CLI::Option *add_parsed(CLI::App &app, const std::string &names, T &target, Parse parse,
                        const std::string &value_name, const std::string &description) {
  const std::string name = long_name(names);
  return app
      .add_option_function<std::string>(
          names, [&target, parse, name](const std::string &text) { target = parse(name, text); },
          description)
      ->type_name(value_name);
}

// A string option kept as given, nothing when not given.
inline CLI::Option *add_text(CLI::App &app, const std::string &names,
                             std::optional<std::string> &target, const std::string &value_name,
                             const std::string &description) {
  return add_parsed(
      app, names, target, [](const std::string &, const std::string &text) { return text; },
      value_name, description);
}

// --hash, --pad and --depth: the tree's node hash, shape and fixed depth.
inline void add_tree_options(CLI::App &app, merklize::tree_options &tree) {
  add_parsed(app, "--hash", tree.hash, parse_hash, "H", "node hash: " + merklize::hash_help());
  add_parsed(app, "--pad", tree.shape, parse_pad, "P",
             "shape of a level of odd length: promote (default) or zero");
  add_parsed(app, "--depth", tree.depth, parse_depth, "D",
             "with --pad zero: the root of 2^D leaves, zero leaves after the file's (SSZ's "
             "limit); an empty FILE is then 2^D zero leaves");
}

// The deepest command given: the app itself or the subcommand chosen.
inline const CLI::App &chosen_command(const CLI::App &app) {
  const CLI::App *command = &app;
  while (!command->get_subcommands().empty())
    command = command->get_subcommands().front();
  return *command;
}

// "merklize root" for `merklize root ...`.
inline std::string command_path(const CLI::App &app) {
  std::string path = app.get_name();
  for (const CLI::App *c = &app; !c->get_subcommands().empty();) {
    c = c->get_subcommands().front();
    path += " " + c->get_name();
  }
  return path;
}

// CLI11's account of a mistake, where ours says more.
inline std::string mistake(const CLI::App &app, const CLI::ParseError &e) {
  const CLI::App &command = chosen_command(app);
  const auto given = command.remaining();
  if (dynamic_cast<const CLI::ExtrasError *>(&e)) {
    for (const auto &arg : given)
      if (arg.size() > 1 && arg[0] == '-') return "unknown option " + quote(arg, 64);
    return "unexpected argument " + quote(given.empty() ? "" : given.front(), 64);
  }
  if (dynamic_cast<const CLI::ArgumentMismatch *>(&e)) {
    for (const CLI::Option *option : command.get_options())
      if (option->get_items_expected_max() == 1 && option->count() > 1)
        return option->get_name() + " given more than once (it takes one value)";
    // CLI11 says "--index: 1 required I missing" when the arguments end before the value.
    const std::string what = e.what(), colon = what.substr(0, what.find(':'));
    if (what.size() > 8 && what.compare(what.size() - 8, 8, " missing") == 0)
      return colon + " needs a value";
  }
  if (&command == &app && !app.get_subcommands({}).empty() &&
      dynamic_cast<const CLI::RequiredError *>(&e))
    return given.empty() ? "no command given" : "unknown command " + quote(given.front(), 64);
  return e.what();
}

// Parses the command line into the options' targets. Answers --help (the usage of the command
// it follows) and --version on stdout and returns false; returns true to go on. A mistake is a
// usage_error whose hint names the --help to read.
inline bool parse_command_line(CLI::App &app, int argc, char **argv) {
  const auto hint = [&] { return "Try '" + command_path(app) + " --help' for more information."; };
  try {
    app.parse(argc, argv);
    return true;
  } catch (const CLI::CallForHelp &) {
    write_stdout(app.help());
  } catch (const CLI::CallForVersion &e) {
    write_stdout(std::string(e.what()) + "\n");
  } catch (const CLI::ParseError &e) {
    throw usage_error(mistake(app, e), hint());
  } catch (const usage_error &e) { // from a value's parse
    throw usage_error(e.what(), hint());
  }
  return false;
}

} // namespace cli
