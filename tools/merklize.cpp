// merklize: the command-line tool. `merklize --help` says what it does; each command lives in its
// own <name>_command.cpp, its options in command_line.cpp.
#include "cli.hpp"
#include "command_line.hpp"

int main(int argc, char **argv) {
  return cli::run_main("merklize", [&] { return cli::parse_merklize_command_line(argc, argv)(); });
}
