// SPDX-License-Identifier: Apache-2.0 OR MIT
// Where `-o FILE` writes, on nodes the tests make themselves: a regular file is replaced whole
// through a temporary file that never outlives the process; a symbolic link is written through
// (the link stays); a FIFO, a socket, a character device and /dev/stdout are written in place,
// as cp and tee write, and never replaced. Temporary files of processes that have ended are
// removed by the next write; where there is no O_TMPFILE, a named temporary file is, and SIGTERM
// removes it. A file that is there is replaced as cp writes over it (cp, run beside, is the
// oracle): its mode and owner stay, and one its user may not write is refused, untouched.
#include "cli_helpers.hpp"

#include <merklize/io/replace_file.hpp>

#include <catch2/catch.hpp>

#include <grp.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/un.h>
#include <unistd.h>

using Catch::Matchers::Contains;

namespace {

namespace fs = test::fs;

// A folder of its own for each case: what is left in it is checked.
fs::path fresh_folder(const std::string &name) {
  const fs::path dir = test::scratch_dir() / ("outputs-" + name);
  fs::remove_all(dir);
  fs::create_directories(dir);
  return dir;
}

struct output_command {
  const char *name;
  std::vector<std::string> (*arguments)(const std::string &out);
  std::string expected; // what a clean run writes
  std::string printed;  // what it prints on stdout beside (consistency's tree heads)
};

// 300 leaves, their proof of leaf 7, consistency proof from 40, and the leaf hashes of 3 entries.
const std::string &leaves_file() {
  static const std::string path = test::write_file("outputs-leaves", test::random_bytes(300 * 32));
  return path;
}
const std::string &entries_file() {
  static const std::string path = test::write_text("outputs-entries", "a\nbb\nccc\n");
  return path;
}

std::vector<std::string> proof_args(const std::string &out) {
  return {"proof", "-i", "7", "-o", out, leaves_file()};
}
std::vector<std::string> consistency_args(const std::string &out) {
  return {"consistency", "--old-size", "40", "-o", out, leaves_file()};
}
std::vector<std::string> leaf_hash_args(const std::string &out) {
  return {"leaf-hash", "--hash", "rfc6962", "--entries", "lines", "-o", out, entries_file()};
}

std::vector<output_command> output_commands() {
  std::vector<output_command> commands = {{"proof", proof_args, "", ""},
                                          {"consistency", consistency_args, "", ""},
                                          {"leaf-hash", leaf_hash_args, "", ""}};
  for (auto &c : commands) {
    const fs::path dir = fresh_folder(std::string("expected-") + c.name);
    const auto r = test::merklize_cli(c.arguments((dir / "out").string()));
    REQUIRE(r.status == 0);
    c.expected = test::slurp(dir / "out");
    c.printed = r.out;
    REQUIRE(!c.expected.empty());
  }
  return commands;
}

// The names in `dir`, but for those listed.
std::vector<std::string> others_in(const fs::path &dir, const std::vector<std::string> &known) {
  std::vector<std::string> others;
  for (const auto &entry : fs::directory_iterator(dir)) {
    const std::string name = entry.path().filename().string();
    if (std::find(known.begin(), known.end(), name) == known.end()) others.push_back(name);
  }
  return others;
}

struct file_facts {
  mode_t mode;
  uid_t owner;
  gid_t group;
  bool operator==(const file_facts &o) const {
    return mode == o.mode && owner == o.owner && group == o.group;
  }
};

std::ostream &operator<<(std::ostream &out, const file_facts &f) {
  return out << "mode " << std::oct << f.mode << std::dec << ", owner " << f.owner << ":"
             << f.group;
}

file_facts facts_of(const fs::path &path) {
  struct stat status {};
  REQUIRE(::stat(path.c_str(), &status) == 0);
  return {status.st_mode & 07777, status.st_uid, status.st_gid};
}

// A file holding "old\n" with these facts.
void old_file(const fs::path &path, const file_facts &facts) {
  test::write_text(fs::relative(path, test::scratch_dir()).string(), "old\n");
  REQUIRE(::chown(path.c_str(), facts.owner, facts.group) == 0);
  REQUIRE(::chmod(path.c_str(), facts.mode) == 0);
}

// Runs argv as test::run_program does, but as user `uid` of group `gid` (no supplementary
// groups): a forked child, root's, gives up its privileges and then executes argv. Status 126 and
// a message on err where the child could not change its user (not root, or no such user here).
test::run_result run_program_as(uid_t uid, gid_t gid, const std::vector<std::string> &argv) {
  const fs::path out = test::scratch_dir() / "stdout", err = test::scratch_dir() / "stderr";
  std::vector<char *> args;
  for (const auto &a : argv)
    args.push_back(const_cast<char *>(a.c_str()));
  args.push_back(nullptr);
  const pid_t pid = ::fork();
  if (pid == 0) { // only async-signal-safe calls from here: the parent may have threads
    const int in = ::open("/dev/null", O_RDONLY);
    const int o = ::open(out.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    const int e = ::open(err.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    if (in < 0 || o < 0 || e < 0 || ::dup2(in, 0) < 0 || ::dup2(o, 1) < 0 || ::dup2(e, 2) < 0)
      ::_exit(126);
    if (::setgroups(0, nullptr) != 0 || ::setgid(gid) != 0 || ::setuid(uid) != 0) {
      const char message[] = "cannot change the user: setgroups, setgid or setuid failed\n";
      if (::write(2, message, sizeof message - 1) < 0) ::_exit(126);
      ::_exit(126);
    }
    ::execve(args[0], args.data(), environ);
    ::_exit(127);
  }
  if (pid < 0) return {-1, "", std::string("fork: ") + std::strerror(errno)};
  int raw = 0;
  ::waitpid(pid, &raw, 0);
  return {WIFEXITED(raw) ? WEXITSTATUS(raw) : -1, test::slurp(out), test::slurp(err)};
}

// Who a refusal is checked as: root writes any file, as cp does, so a root run checks it as nobody
// (uid and gid 65534), in a forked child that gives up root's privileges; another user as itself.
struct writer {
  uid_t uid;
  gid_t gid;
  bool other; // not this process's user
};

writer unprivileged_writer() {
  if (::geteuid() != 0) return {::geteuid(), ::getegid(), false};
  return {65534, 65534, true};
}

test::run_result run_as(const writer &w, const std::vector<std::string> &argv) {
  return w.other ? run_program_as(w.uid, w.gid, argv) : test::run_program(argv);
}

} // namespace

TEST_CASE("merklize -o keeps the mode and owner of the file it replaces, as cp does",
          "[cli][outputs]") {
  const bool root = ::geteuid() == 0;
  std::vector<file_facts> cases;
  for (const mode_t mode : {0600, 0640, 0604, 0755})
    cases.push_back({static_cast<mode_t>(mode), ::geteuid(), ::getegid()});
  if (root) cases.push_back({0640, 65534, 65534}); // another user's file
  for (const auto &c : output_commands())
    for (const file_facts &before : cases) {
      INFO(c.name << ", mode " << std::oct << before.mode << std::dec << ", owner "
                  << before.owner);
      const fs::path dir = fresh_folder(std::string("mode-") + c.name);
      old_file(dir / "out", before);
      old_file(dir / "cp-out", before);
      const auto copied = test::run_program({"/bin/cp", leaves_file(), (dir / "cp-out").string()});
      REQUIRE(copied.status == 0);
      const auto r = test::merklize_cli(c.arguments((dir / "out").string()));
      CHECK(r.status == 0);
      CHECK(test::slurp(dir / "out") == c.expected);
      CHECK(facts_of(dir / "cp-out") == before);
      CHECK(facts_of(dir / "out") == before);
      CHECK(others_in(dir, {"out", "cp-out"}).empty());
    }
}

TEST_CASE("merklize -o writes a file without write permission only where cp does: as root",
          "[cli][outputs]") {
  if (::geteuid() != 0) return; // the refusal is the next test's
  const fs::path dir = fresh_folder("read-only-root");
  const file_facts before{0444, 0, 0};
  old_file(dir / "out", before);
  old_file(dir / "cp-out", before);
  CHECK(test::run_program({"/bin/cp", leaves_file(), (dir / "cp-out").string()}).status == 0);
  const auto r = test::merklize_cli(proof_args((dir / "out").string()));
  CHECK(r.status == 0);
  CHECK(test::slurp(dir / "out") != "old\n");
  CHECK(facts_of(dir / "out") == before);
  CHECK(facts_of(dir / "cp-out") == before);
}

TEST_CASE("merklize -o refuses a file its user may not write, as cp does, and leaves it whole",
          "[cli][outputs]") {
  const writer w = unprivileged_writer();
  const fs::path dir = fresh_folder("read-only");
  const fs::path out = dir / "out", cache = dir / "cache", pocl = dir / "pocl";
  fs::copy_file(leaves_file(), dir / "leaves");
  const std::vector<std::string> proof = {
      MERKLIZE_CLI, "proof", "-i", "7", "-o", out.string(), (dir / "leaves").string()};
  std::vector<std::string> command = proof;
  if (w.other) {
    // nobody's own caches, and its folder: the program cache warmed first, so that nobody
    // compiles nothing, then everything in the folder given to nobody.
    const auto with_env = [&](std::vector<std::string> env) {
      env.insert(env.begin(), "/usr/bin/env");
      env.insert(env.end(), proof.begin(), proof.end());
      return env;
    };
    REQUIRE(test::run_program(with_env({"MERKLIZE_CACHE_DIR=" + cache.string()})).status == 0);
    fs::remove(out);
    fs::create_directories(pocl);
    command = with_env({"HOME=" + dir.string(), "MERKLIZE_CACHE_DIR=" + cache.string(),
                        "POCL_CACHE_DIR=" + pocl.string()});
    for (const auto &entry : fs::recursive_directory_iterator(dir))
      REQUIRE(::lchown(entry.path().c_str(), w.uid, w.gid) == 0);
    REQUIRE(::chown(dir.c_str(), w.uid, w.gid) == 0);
  }
  const file_facts before{0444, w.uid, w.gid};
  old_file(out, before);
  old_file(dir / "cp-out", before);
  const auto copied = run_as(w, {"/bin/cp", (dir / "leaves").string(), (dir / "cp-out").string()});
  if (copied.status == 126) {
    WARN("SKIPPED: the refusal of a read-only file needs a user other than root, and this "
         "process cannot become nobody: "
         << copied.err);
    return;
  }
  CHECK(copied.status == 1);
  CHECK_THAT(copied.err, Contains("Permission denied"));
  const auto r = run_as(w, command);
  CHECK(r.status == 1);
  CHECK(r.err == "merklize: cannot write \"" + out.string() + "\": Permission denied\n");
  CHECK(test::slurp(out) == "old\n");
  CHECK(facts_of(out) == before);
  CHECK(others_in(dir, {"out", "cp-out", "leaves", "cache", "pocl"}).empty()); // no temporary
}

TEST_CASE("merklize -o writes through a symbolic link, which stays a link", "[cli][outputs]") {
  for (const auto &c : output_commands()) {
    INFO(c.name);
    const fs::path dir = fresh_folder(std::string("link-") + c.name);
    test::write_text("outputs-link-" + std::string(c.name) + "/target", "old\n");
    fs::create_symlink("target", dir / "hop");
    fs::create_symlink("hop", dir / "out"); // two links to follow
    const auto r = test::merklize_cli(c.arguments((dir / "out").string()));
    CHECK(r.status == 0);
    CHECK(fs::is_symlink(dir / "out"));
    CHECK(fs::is_symlink(dir / "hop"));
    CHECK(test::slurp(dir / "target") == c.expected);
    CHECK(others_in(dir, {"out", "hop", "target"}).empty());
  }
}

TEST_CASE("merklize -o through a dangling link creates its target", "[cli][outputs]") {
  const fs::path dir = fresh_folder("dangling");
  fs::create_symlink("made.json", dir / "out");
  const auto r =
      test::merklize_cli({"proof", "-i", "3", "-o", (dir / "out").string(), leaves_file()});
  CHECK(r.status == 0);
  CHECK(fs::is_symlink(dir / "out"));
  CHECK(fs::is_regular_file(dir / "made.json"));
  CHECK(others_in(dir, {"out", "made.json"}).empty());
}

TEST_CASE("merklize -o writes into a FIFO in place", "[cli][outputs]") {
  for (const auto &c : output_commands()) {
    INFO(c.name);
    const fs::path dir = fresh_folder(std::string("fifo-") + c.name);
    const fs::path fifo = dir / "out";
    REQUIRE(::mkfifo(fifo.c_str(), 0600) == 0);
    std::string command = "timeout 60 cat " + test::sh_quote(fifo.string()) + " > " +
                          test::sh_quote((dir / "read").string()) + " & " + test::merklize_word();
    for (const auto &a : c.arguments(fifo.string()))
      command += " " + test::sh_quote(a);
    const auto r = test::run_shell(command + "; status=$?; wait; exit $status");
    CHECK(r.status == 0);
    CHECK(test::slurp(dir / "read") == c.expected); // the reader got it all
    struct stat status {};
    REQUIRE(::lstat(fifo.c_str(), &status) == 0);
    CHECK(S_ISFIFO(status.st_mode));
    CHECK(others_in(dir, {"out", "read"}).empty());
  }
}

TEST_CASE("merklize -o onto a socket fails as cp does, and leaves it a socket", "[cli][outputs]") {
  const fs::path dir = fresh_folder("socket");
  const fs::path path = dir / "out";
  const int fd = ::socket(AF_UNIX, SOCK_STREAM, 0);
  REQUIRE(fd >= 0);
  sockaddr_un address{};
  address.sun_family = AF_UNIX;
  REQUIRE(path.string().size() < sizeof address.sun_path);
  std::strcpy(address.sun_path, path.c_str());
  REQUIRE(::bind(fd, reinterpret_cast<sockaddr *>(&address), sizeof address) == 0);
  const auto r = test::merklize_cli({"proof", "-i", "3", "-o", path.string(), leaves_file()});
  ::close(fd);
  CHECK(r.status == 1);
  CHECK(r.err == "merklize: cannot write \"" + path.string() + "\": No such device or address\n");
  struct stat status {};
  REQUIRE(::lstat(path.c_str(), &status) == 0);
  CHECK(S_ISSOCK(status.st_mode));
  CHECK(others_in(dir, {"out"}).empty());
}

TEST_CASE("merklize -o writes into a character device in place", "[cli][outputs]") {
  const fs::path dir = fresh_folder("device");
  const fs::path null = dir / "null"; // the test's own node, never the system's /dev/null
  if (::mknod(null.c_str(), S_IFCHR | 0666, makedev(1, 3)) != 0) {
    WARN("not checked: cannot make a device node here (" << std::strerror(errno) << ")");
    return;
  }
  const int probe = ::open(null.c_str(), O_WRONLY);
  if (probe < 0) {
    WARN("not checked: the device node cannot be opened here (" << std::strerror(errno) << ")");
    return;
  }
  ::close(probe);
  for (const auto &c : output_commands()) {
    INFO(c.name);
    const auto r = test::merklize_cli(c.arguments(null.string()));
    CHECK(r.status == 0);
    struct stat status {};
    REQUIRE(::lstat(null.c_str(), &status) == 0);
    CHECK(S_ISCHR(status.st_mode));
    CHECK(status.st_rdev == makedev(1, 3));
    CHECK(others_in(dir, {"null"}).empty());
  }
}

TEST_CASE("merklize -o /dev/stdout writes into the stream the process was given",
          "[cli][outputs]") {
  for (const auto &c : output_commands()) {
    INFO(c.name);
    std::string command = test::merklize_word();
    for (const auto &a : c.arguments("/dev/stdout"))
      command += " " + test::sh_quote(a);
    // In order, after what the command prints anyway: never over it.
    const auto piped = test::run_shell(command + " | cat");
    CHECK(piped.status == 0);
    CHECK(piped.out == c.printed + c.expected);
    const auto to_file = test::merklize_cli(c.arguments("/dev/stdout"));
    CHECK(to_file.status == 0);
    CHECK(to_file.out == c.printed + c.expected);
  }
}

TEST_CASE("merklize -o removes the temporary files of writers that have ended", "[cli][outputs]") {
  const fs::path dir = fresh_folder("stale");
  // Linux pids stay below 2^22: 4194399 is a process that is gone; this one is alive.
  const std::string dead = "out.tmp-4194399-0",
                    alive = "out.tmp-" + std::to_string(::getpid()) + "-0";
  for (const auto &name : {dead, alive})
    test::write_text("outputs-stale/" + name, "a write cut short");
  const auto r =
      test::merklize_cli({"proof", "-i", "3", "-o", (dir / "out").string(), leaves_file()});
  CHECK(r.status == 0);
  CHECK(!fs::exists(dir / dead));
  CHECK(fs::exists(dir / alive)); // may be a write in progress
  CHECK(others_in(dir, {"out", alive}).empty());
}

TEST_CASE("merklize -o onto a regular file replaces it whole and leaves no temporary file",
          "[cli][outputs]") {
  for (const auto &c : output_commands()) {
    INFO(c.name);
    const fs::path dir = fresh_folder(std::string("regular-") + c.name);
    test::write_text("outputs-regular-" + std::string(c.name) + "/out", "old\n");
    const auto r = test::merklize_cli(c.arguments((dir / "out").string()));
    CHECK(r.status == 0);
    CHECK(fs::is_regular_file(fs::symlink_status(dir / "out")));
    CHECK(test::slurp(dir / "out") == c.expected);
    CHECK(others_in(dir, {"out"}).empty());
  }
}

TEST_CASE("where there is no O_TMPFILE, the named temporary file is written whole and renamed",
          "[outputs]") {
  const fs::path dir = fresh_folder("named");
  const std::string text = "whole\n";
  merklize::detail::replace_through_named(dir / "out", text.data(), text.size(), {});
  CHECK(test::slurp(dir / "out") == text);
  CHECK(others_in(dir, {"out"}).empty());
  // As -o writes over a file that is there: its mode stays.
  const file_facts before{0640, ::geteuid(), ::getegid()};
  old_file(dir / "out", before);
  merklize::replace_file_options as_cp;
  as_cp.as_cp = true;
  merklize::detail::replace_through_named(dir / "out", text.data(), text.size(), as_cp,
                                          merklize::detail::existing_attributes(dir / "out"));
  CHECK(test::slurp(dir / "out") == text);
  CHECK(facts_of(dir / "out") == before);
  CHECK(others_in(dir, {"out"}).empty());
}

TEST_CASE("replace_file writes a file whole, as_cp keeping the old one's mode", "[outputs]") {
  const fs::path dir = fresh_folder("replace-file");
  const std::string text = "new\n";
  const file_facts before{0640, ::geteuid(), ::getegid()};
  old_file(dir / "kept", before);
  old_file(dir / "fresh", before);
  merklize::replace_file_options as_cp;
  as_cp.as_cp = true;
  merklize::replace_file(dir / "kept", text.data(), text.size(), as_cp);
  merklize::replace_file(dir / "fresh", text.data(), text.size()); // a new file of its own
  CHECK(test::slurp(dir / "kept") == text);
  CHECK(facts_of(dir / "kept") == before);
  CHECK(test::slurp(dir / "fresh") == text);
  const mode_t mask = ::umask(0); // read, then put back
  ::umask(mask);
  CHECK(facts_of(dir / "fresh").mode == (0644 & ~mask));
  CHECK(others_in(dir, {"kept", "fresh"}).empty());
  CHECK_THROWS_AS(merklize::replace_file(dir / "none" / "out", text.data(), text.size()),
                  merklize::file_error);
}

TEST_CASE("a named temporary file is removed when SIGTERM ends its writer", "[outputs]") {
  const fs::path dir = fresh_folder("terminated");
  const fs::path temp = dir / "out.tmp-1-0";
  // A process of its own (tests/faults/signal_helper.cpp): this one's signal handlers are Catch's.
  const auto r = test::run_program({MERKLIZE_SIGNAL_HELPER, temp.string()});
  INFO(r.err);
  CHECK(r.status == -1); // ended by the signal
  CHECK(!fs::exists(temp));
}
