// merklize: the command-line tool. `merklize --help` says what it does.
#include "cli.hpp"

#include <iostream>

namespace cli {
int root_command(int argc, char **argv);
int devices_command(int argc, char **argv);
int b3sum_command(int argc, char **argv);
int proof_command(int argc, char **argv);
int verify_command(int argc, char **argv);
} // namespace cli

namespace {

const char *usage = R"(usage:
  merklize root [--hash blake3|blake3-parent|sha256] [--pad promote|zero] [--depth D]
                [--device SPEC | --devices SPEC,SPEC... [--shard-log2 S]] [--verbose] FILE
      FILE (or - for stdin) holds N x 32 bytes of leaves; prints the root as 64 hex digits.
      --depth D (with --pad zero): the root of 2^D leaves, zero leaves after FILE's (SSZ).
      --devices: the tree spread over several devices (a device named twice: two queues), in
      shards of 2^S leaves (default: about 8 per device, no smaller than a device's chunk).
      --verbose: also "program: jit|spirv|spir-bitcode|cache" on stderr, where the kernels came
      from ($MERKLIZE_KERNEL_DIR: kernels compiled ahead of time; $MERKLIZE_CACHE_DIR: a cache
      of compiled programs).
  merklize b3sum [--keyed KEYHEX | --derive-key CONTEXT] [--length N] [--device SPEC] FILE...
      the BLAKE3 of each FILE (none, or -, for stdin) hashed on the device, printed as the
      b3sum program prints it; --length N gives N bytes of extended output.
  merklize proof --index I [--hash H] [--pad P] [--depth D] [--device SPEC] FILE
      prints the inclusion proof of leaf I of FILE as one line of JSON (docs/PROOFS.md).
  merklize verify [--hash H] [--pad P] [--leaves N] [--depth D] PROOF.json LEAFHEX ROOTHEX
      checks on the host that PROOF.json (or - for stdin) proves leaf LEAFHEX under root
      ROOTHEX: exit status 0 if it does, 1 if not. --hash, --pad, --leaves and --depth also
      require the proof to be for that hash, shape, leaf count and root depth.
  merklize devices
      lists the OpenCL devices and the specs that select them.

SPEC: P:D indices from `merklize devices`, or a case-insensitive substring of the platform or
device name or vendor, or the device type (nvidia, pocl, cpu, gpu). Default: $MERKLIZE_DEVICE,
else the first GPU, else the first device.
)";

struct command {
  const char *name;
  int (*run)(int, char **);
};

const command commands[] = {
    {"root", cli::root_command},   {"devices", cli::devices_command}, {"b3sum", cli::b3sum_command},
    {"proof", cli::proof_command}, {"verify", cli::verify_command},
};

} // namespace

int main(int argc, char **argv) {
  const std::string name = argc > 1 ? argv[1] : "";
  try {
    if (name == "--help" || name == "-h" || name == "help") {
      std::cout << usage;
      return 0;
    }
    for (const auto &c : commands)
      if (name == c.name) return c.run(argc, argv);
    throw cli::usage_error(name.empty() ? "no command given" : "unknown command " + name);
  } catch (const cli::usage_error &e) {
    std::cerr << "merklize: " << e.what() << "\n" << usage;
    return 2;
  } catch (const std::exception &e) {
    std::cerr << "merklize: " << e.what() << "\n";
    return 1;
  }
}
