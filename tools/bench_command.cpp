// SPDX-License-Identifier: Apache-2.0 OR MIT
// merklize bench: whether merklize pays on this machine, for the user's own file. Each task a
// user comes for is run as whole processes, merklize's command beside the CPU tool that does the
// same (b3sum, sha256sum, fsverity, veritysetup: those installed), alternating, after a warm-up
// run of each that also checks that their outputs agree where they must. What a process costs
// in all (the driver's start-up, reading the file, the copies) is what a user waits for, so this
// is the comparison that decides; the kernels' own speed is merklize_bench's.
#include "cli.hpp"
#include "commands.hpp"
#include "input.hpp"
#include "output.hpp"
#include "quote.hpp"
#include "sizes.hpp"
#include "timed_run.hpp"

#include <merklize/runtime/device.hpp>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <unistd.h>

namespace cli {
namespace {

// A task, run by merklize and by the CPU tool that does it, or the nearest one.
struct bench_task {
  std::string what;
  std::vector<std::string> ours, theirs;
  // The part of both outputs that must agree; null where they differ by design.
  std::function<std::string(const std::string &)> agreed;
};

std::string whole(const std::string &out) { return out; }

// The "Root hash:" line that veritysetup format and merklize root --format dm-verity print.
std::string root_hash_line(const std::string &out) {
  const std::size_t at = out.find("Root hash:");
  return at == std::string::npos ? out : out.substr(at, out.find('\n', at) - at);
}

// A folder of our own for the hash devices the dm-verity task writes, removed at the end.
class scratch_folder {
public:
  scratch_folder() {
    const char *tmp = std::getenv("TMPDIR");
    std::string pattern = std::string(tmp && *tmp ? tmp : "/tmp") + "/merklize-bench-XXXXXX";
    if (!::mkdtemp(pattern.data()))
      throw merklize::error("cannot make a folder for the bench in " + quote(pattern) + ": " +
                            std::strerror(errno));
    path_ = pattern;
  }
  ~scratch_folder() {
    for (const char *name : {"/merklize.hashes", "/veritysetup.hashes"})
      ::unlink((path_ + name).c_str());
    ::rmdir(path_.c_str());
  }
  const std::string &path() const { return path_; }

private:
  std::string path_;
};

std::vector<bench_task> tasks_for(const bench_arguments &args, std::uint64_t size,
                                  const std::string &scratch) {
  std::vector<std::string> m = {own_path()};
  const auto ours = [&](std::vector<std::string> words) {
    words.insert(words.begin(), m.begin(), m.end());
    if (args.device) words.insert(words.begin() + 2, {"--device", *args.device});
    words.push_back(args.file);
    return words;
  };
  std::vector<bench_task> tasks;
  const auto b3sum = find_program("b3sum"), sha256sum = find_program("sha256sum");
  const auto fsverity = find_program("fsverity"), veritysetup = find_program("veritysetup");
  if (b3sum) {
    tasks.push_back({"BLAKE3 of the file",
                     ours({"b3sum", "--no-names"}),
                     {*b3sum, "--no-names", args.file},
                     whole});
    if (size % 32 == 0)
      tasks.push_back({"Merkle root of its 32-byte leaves, against BLAKE3 of the same bytes",
                       ours({"root"}),
                       {*b3sum, "--no-names", args.file},
                       nullptr});
  }
  if (sha256sum)
    tasks.push_back({"SHA-256 tree of its 4 KiB blocks, against SHA-256 of the same bytes",
                     ours({"root", "--leaf-size", "4096", "--hash", "sha256"}),
                     {*sha256sum, args.file},
                     nullptr});
  if (fsverity)
    tasks.push_back({"fs-verity digest",
                     ours({"root", "--format", "fs-verity"}),
                     {*fsverity, "digest", args.file},
                     whole});
  const std::string salt(64, 'a'), uuid = "6d65726b-6c69-4a65-8000-62656e636821";
  if (veritysetup && size % 4096 == 0)
    tasks.push_back({"dm-verity hash device",
                     ours({"root", "--format", "dm-verity", "--salt", salt, "--uuid", uuid,
                           "--hash-output", scratch + "/merklize.hashes"}),
                     {*veritysetup, "format", "--salt=" + salt, "--uuid=" + uuid, args.file,
                      scratch + "/veritysetup.hashes"},
                     root_hash_line});
  return tasks;
}

// "merklize b3sum --no-names FILE": a command as the report shows it.
std::string command_text(const std::vector<std::string> &argv) {
  std::string text = argv[0].substr(argv[0].rfind('/') + 1);
  for (std::size_t i = 1; i < argv.size(); ++i)
    text += " " + argv[i];
  return text;
}

// One run of `argv`, refused with its error if it fails.
timed_result run_checked(const std::vector<std::string> &argv) {
  timed_result r = run_timed(argv);
  if (r.status != 0)
    throw merklize::error(command_text(argv) + " failed (exit status " + std::to_string(r.status) +
                          "): " + r.err.substr(0, 1000));
  return r;
}

struct side {
  std::vector<double> seconds;
  long peak_kib = 0;
  double median() {
    std::sort(seconds.begin(), seconds.end());
    return seconds[seconds.size() / 2];
  }
};

void record(side &s, const timed_result &r) {
  s.seconds.push_back(r.seconds);
  s.peak_kib = std::max(s.peak_kib, r.peak_kib);
}

std::string cell(double seconds, long kib) {
  char text[64];
  std::snprintf(text, sizeof text, "%.3f s | %ld MiB", seconds, kib / 1024);
  return text;
}

// "12.1x faster" or "3.1x slower", merklize against the tool; `pays` set where it is faster.
std::string verdict(double ours, double theirs, bool &pays) {
  char text[64];
  pays = ours < theirs;
  std::snprintf(text, sizeof text, "%.2fx %s", pays ? theirs / ours : ours / theirs,
                pays ? "faster" : "slower");
  return text;
}

// Warms both up (page cache, program cache), checks their outputs agree, then times them
// alternately; writes the task's row, and adds it to what merklize pays for or loses.
void run_task(const bench_task &task, unsigned runs, std::string &pays, std::string &loses) {
  const timed_result a = run_checked(task.ours), b = run_checked(task.theirs);
  if (task.agreed && task.agreed(a.out) != task.agreed(b.out))
    throw merklize::error(task.what + ": " + command_text(task.ours) + " printed " +
                          quote(task.agreed(a.out), 200) + ", " + command_text(task.theirs) + " " +
                          quote(task.agreed(b.out), 200));
  side ours, theirs;
  for (unsigned i = 0; i < runs; ++i) {
    record(ours, run_checked(task.ours));
    record(theirs, run_checked(task.theirs));
  }
  bool faster = false;
  const double o = ours.median(), t = theirs.median();
  const std::string ratio = verdict(o, t, faster);
  const std::string tool = task.theirs[0].substr(task.theirs[0].rfind('/') + 1);
  write_stdout("| " + task.what + " | " + cell(o, ours.peak_kib) + " | " + tool + " | " +
               cell(t, theirs.peak_kib) + " | " + ratio + (task.agreed ? ", same output" : "") +
               " |\n");
  (faster ? pays : loses) += (faster ? pays : loses).empty() ? "" : "; ";
  (faster ? pays : loses) += task.what + " (" + ratio + " than " + tool + ")";
}

} // namespace

int bench_command(const bench_arguments &args) {
  input_file in(args.file);
  const auto size = in.size();
  if (!size || *size == 0)
    throw merklize::error("merklize bench times whole commands on a regular file of at least one "
                          "byte, and " +
                          quote(args.file) + " is not one");
  scratch_folder scratch;
  const auto tasks = tasks_for(args, *size, scratch.path());
  // --device auto's choice is each command's own, made without opening a device: named here
  // only where --device names one.
  const std::string device =
      !args.device || *args.device == "auto" ? "the engine --device auto picks for each command"
      : *args.device == "host"               ? "the host engine"
                                             : merklize::device_name(chosen_device(args.device));
  write_stdout("merklize bench: " + quote(args.file) + ", " + size_text(*size) + ", merklize on " +
               device + "; each command run " + std::to_string(args.runs) +
               " times after a warm-up, alternating with its CPU tool; median wall time of the "
               "whole process, and its peak memory\n\n"
               "| task | merklize | memory | CPU tool | time | memory | merklize is |\n"
               "|---|---|---|---|---|---|---|\n");
  std::string pays, loses;
  if (tasks.empty())
    write_stdout("(no CPU tool to compare with: install b3sum, fsverity or cryptsetup-bin)\n");
  for (const bench_task &task : tasks)
    run_task(task, args.runs, pays, loses);
  std::string commands = "\nThe commands:\n";
  for (const bench_task &task : tasks)
    commands += "  " + command_text(task.ours) + "\n  " + command_text(task.theirs) + "\n";
  write_stdout(
      commands + "\nOn this machine, for this file: " +
      (pays.empty() ? "merklize pays for none of these tasks" : "merklize pays for " + pays) +
      (loses.empty() ? "" : "; use the CPU tool for " + loses) + ".\n");
  return 0;
}

} // namespace cli
