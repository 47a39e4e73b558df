// SPDX-License-Identifier: Apache-2.0 OR MIT
// merklize-aot: compiles every program variant of the library ahead of time (`make aot`).
#include "cli.hpp"
#include "output.hpp"
#include "parser.hpp"
#include "version.hpp"

#include <merklize/runtime/aot.hpp>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <optional>
#include <set>
#include <sstream>

#include <spawn.h>
#include <sys/wait.h>

extern char **environ;

namespace {

// Runs a program without a shell; a missing one is reported with the package that provides it
// and the option that names another.
void run(const std::vector<std::string> &command, const char *package, const char *option) {
  std::vector<char *> argv;
  for (const auto &arg : command)
    argv.push_back(const_cast<char *>(arg.c_str()));
  argv.push_back(nullptr);
  pid_t pid = 0;
  const int err = posix_spawnp(&pid, argv[0], nullptr, nullptr, argv.data(), environ);
  if (err == ENOENT)
    throw merklize::error("cannot run " + command[0] + ": not found; install the Debian package " +
                          package + " (`make aot` does) or name another with --" + option);
  if (err != 0) throw merklize::error("cannot run " + command[0] + ": " + std::strerror(err));
  int status = 0;
  if (waitpid(pid, &status, 0) != pid || !WIFEXITED(status) || WEXITSTATUS(status) != 0) {
    std::string line;
    for (const auto &arg : command)
      line += arg + " ";
    throw merklize::error("failed: " + line);
  }
}

std::vector<std::string> words(const std::string &text) {
  std::istringstream in(text);
  std::vector<std::string> list;
  for (std::string w; in >> w;)
    list.push_back(w);
  return list;
}

// The same concatenated source and options as a run-time build, compiled for spir64. Plain
// `inline` functions get a definition of their own (-fgnu89-inline): C99 semantics would leave
// the ones clang does not inline undefined in the module.
void compile(const merklize::program_spec &spec, const std::filesystem::path &dir,
             const std::string &clang, const std::string &llvm_spirv) {
  using merklize::aot_file;
  const auto source = merklize::write_aot_source(dir, spec), bitcode = aot_file(dir, spec, ".bc");
  const auto compile_to = [&](const std::string &optimization, const std::string &out) {
    std::vector<std::string> command{clang,
                                     "-target",
                                     "spir64",
                                     "-emit-llvm",
                                     "-c",
                                     optimization,
                                     "-fgnu89-inline",
                                     "-Xclang",
                                     "-finclude-default-header"};
    for (const auto &option : words(spec.options))
      command.push_back(option);
    command.insert(command.end(), {"-o", out, source.string()});
    run(command, "clang-14", "clang");
  };
  compile_to("-O2", bitcode.string());
  // SPIR-V comes from unoptimized bitcode: llvm-spirv-14 emits blocks out of dominance order
  // (invalid modules) for some loops that LLVM's optimizer rotated, and the driver that loads
  // SPIR-V optimizes it anyway. Version 1.0 is what OpenCL 1.2 and 2.1 consumers take.
  const std::string unoptimized = aot_file(dir, spec, ".O0.bc").string();
  compile_to("-O0", unoptimized);
  run({llvm_spirv, "--spirv-max-version=1.0", unoptimized, "-o",
       aot_file(dir, spec, ".spv").string()},
      "llvm-spirv-14", "llvm-spirv");
  std::error_code ignored; // a file left behind in DIR is no failure of the compilation
  std::filesystem::remove(unoptimized, ignored);
  merklize::write_aot_meta(dir, spec);
}

struct aot_arguments {
  std::string clang = "clang-14", llvm_spirv = "llvm-spirv-14", dir;
  bool list = false;
};

// The command line; nothing when --help or --version was answered.
std::optional<aot_arguments> parse(int argc, char **argv) {
  aot_arguments args;
  CLI::App app("Compile every program variant of merklize ahead of time: DIR/<name>.bc (SPIR "
               "1.2 bitcode, spir64) with clang and DIR/<name>.spv (SPIR-V) with llvm-spirv, "
               "keeping the source compiled in DIR/<name>.cl and their hashes in "
               "DIR/<name>.meta.",
               "merklize-aot");
  app.formatter(std::make_shared<cli::help_formatter>());
  app.set_help_flag("-h,--help", "print this help and exit");
  app.set_version_flag("--version", std::string("merklize-aot ") + cli::version(),
                       "print the version and exit");
  app.footer("Point the library at DIR with MERKLIZE_KERNEL_DIR=DIR or "
             "merklize::set_kernel_dir.\nExit status: 0 success, 1 a failure, 2 a mistake in "
             "the command line.");
  app.add_option("--clang", args.clang, "the clang compiling OpenCL C (default clang-14)")
      ->type_name("PROGRAM");
  app.add_option("--llvm-spirv", args.llvm_spirv,
                 "the llvm-spirv translating to SPIR-V (default llvm-spirv-14)")
      ->type_name("PROGRAM");
  const auto list = app.add_flag("--list", args.list, "print the name of each program variant");
  app.add_option("DIR", args.dir, "the output folder")->type_name("")->excludes(list);
  if (!cli::parse_command_line(app, argc, argv)) return std::nullopt;
  if (!args.list && args.dir.empty())
    throw cli::usage_error("give one output folder DIR",
                           "Try 'merklize-aot --help' for more information.");
  return args;
}

int aot(const aot_arguments &args) {
  const auto specs = merklize::program_variants();
  std::set<std::string> names;
  for (const auto &spec : specs)
    if (spec.name.empty() || !names.insert(spec.name).second)
      throw merklize::error("program_variants() needs a unique name for each program (\"" +
                            spec.name + "\" is empty or repeated)");
  if (args.list) {
    for (const auto &spec : specs)
      cli::write_stdout(spec.name + "\n");
    return 0;
  }
  const std::filesystem::path dir = args.dir;
  std::error_code failed;
  std::filesystem::create_directories(dir, failed);
  if (failed)
    throw merklize::error("cannot create the folder " + cli::quote(args.dir) + ": " +
                          failed.message());
  for (const auto &spec : specs) {
    compile(spec, dir, args.clang, args.llvm_spirv);
    cli::write_stdout("merklize-aot: " + spec.name + " -> " + (dir / spec.name).string() +
                      ".{bc,spv}\n");
  }
  return 0;
}

} // namespace

int main(int argc, char **argv) {
  return cli::run_main("merklize-aot", [&] {
    const auto args = parse(argc, argv);
    return args ? aot(*args) : 0;
  });
}
