// SPDX-License-Identifier: Apache-2.0 OR MIT
// The C ABI's device-tree calls as a program, for the device-tree fault sweep (tree_sweep.py):
// built with AddressSanitizer, run under the fault shim (fault_shim.c), which it arms itself at
// each chosen call of an OpenCL entry point within one call on a fresh tree. After each failure
// the tree must be what it was before the call (leaf count, root, every level read back) and
// then take the same call to the clean run's result, or refuse every later call
// (MERKLIZE_ERROR_UNUSABLE); a call that absorbs the fault must give the clean run's result.
//
//   merklize_fault_device_trees count ARITY OP                  each entry point's calls in OP
//   merklize_fault_device_trees sweep ARITY OP CALL:N,N,... ... OP with call N of CALL failing
//
// OP: build, update, update_proved, update_batch, append, append_in_place, snapshot, rollback
// (the room grown since the snapshot), rollback_in_place (the same room). sweep prints a line a
// fault, "CALL N OUTCOME" (absorbed, restored, refused, not fired) or "CALL N PROBLEM: what",
// and exits 1 if any run found a problem.
#include <merklize.h>

#include <dlfcn.h>

#include <cstdint>
#include <cstdio>
#include <cstring>
#include <functional>
#include <map>
#include <sstream>
#include <string>
#include <vector>

namespace {

constexpr std::uint64_t tree_leaves = 3000, batch = 100, appended = 500;

// The shim's own sweep of calls (fault_shim.c), found in the process (LD_PRELOAD).
using calls_fn = std::int64_t (*)(const char *);
using arm_fn = int (*)(const char *, std::uint64_t);
calls_fn shim_calls;
arm_fn shim_arm;

const char *const entry_points[] = {"clCreateBuffer",
                                    "clGetMemObjectInfo",
                                    "clCreateKernel",
                                    "clSetKernelArg",
                                    "clGetKernelWorkGroupInfo",
                                    "clWaitForEvents",
                                    "clFlush",
                                    "clFinish",
                                    "clEnqueueReadBuffer",
                                    "clEnqueueWriteBuffer",
                                    "clEnqueueCopyBuffer",
                                    "clEnqueueFillBuffer",
                                    "clEnqueueMapBuffer",
                                    "clEnqueueUnmapMemObject",
                                    "clEnqueueNDRangeKernel",
                                    "clEnqueueMarkerWithWaitList",
                                    "clEnqueueBarrierWithWaitList",
                                    "clCreateCommandQueue",
                                    "clCreateProgramWithBinary",
                                    "clCreateProgramWithSource",
                                    "clBuildProgram",
                                    "clGetProgramInfo",
                                    "clGetDeviceInfo",
                                    "clGetContextInfo",
                                    "clGetEventInfo",
                                    "clGetEventProfilingInfo",
                                    "clGetKernelInfo"};

[[noreturn]] void die(const std::string &what) {
  std::fprintf(stderr, "merklize_fault_device_trees: %s\n", what.c_str());
  std::exit(2);
}

void ok(merklize_status s, const char *what) {
  if (s != MERKLIZE_OK)
    die(std::string(what) + ": " + merklize_status_name(s) + ": " + merklize_last_error());
}

// What a tree is, as far as its calls can tell: leaf count, root and every level.
struct state {
  std::uint64_t count = 0;
  std::vector<std::uint8_t> root;
  std::vector<std::vector<std::uint8_t>> levels;
  bool operator==(const state &o) const {
    return count == o.count && root == o.root && levels == o.levels;
  }
};

state read_state(merklize_device_tree *t) {
  state s;
  s.count = merklize_device_tree_leaf_count(t);
  s.root.resize(MERKLIZE_DIGEST_SIZE);
  ok(merklize_device_tree_root(t, s.root.data()), "reading the root");
  const std::uint32_t depth = merklize_device_tree_depth(t);
  for (std::uint32_t level = 0; level <= depth; ++level) {
    std::uint64_t size = 0;
    ok(merklize_device_tree_level_size(t, level, &size), "reading a level's size");
    s.levels.emplace_back(size * MERKLIZE_DIGEST_SIZE);
    ok(merklize_device_tree_read_level(t, level, 0, size, s.levels.back().data()),
       "reading a level");
  }
  return s;
}

// How `got` differs from `want`, for a problem's line.
std::string difference(const state &got, const state &want) {
  if (got.count != want.count)
    return "leaf count " + std::to_string(got.count) + ", not " + std::to_string(want.count);
  if (got.root != want.root) return "the root differs (" + std::to_string(got.count) + " leaves)";
  if (got.levels.size() != want.levels.size()) return "the depth differs";
  for (std::size_t l = 0; l < got.levels.size(); ++l)
    if (got.levels[l] != want.levels[l]) return "level " + std::to_string(l) + " differs";
  return "the same";
}

std::vector<std::uint8_t> leaves_of(std::uint64_t count, std::uint32_t seed) {
  std::vector<std::uint8_t> out(count * MERKLIZE_DIGEST_SIZE);
  for (std::uint8_t &b : out) {
    seed = seed * 1103515245u + 12345u;
    b = static_cast<std::uint8_t>(seed >> 16);
  }
  return out;
}

// One call on a tree and what it needs, set up afresh for each fault.
class scenario {
public:
  scenario(merklize_builder *b, std::string op) : builder_(b), op_(std::move(op)) {
    for (std::uint64_t k = 0; k < batch; ++k)
      indices_.push_back((k * 7919 + 3) % tree_leaves);
    values_ = leaves_of(batch, 7);
    more_ = leaves_of(2 * appended, 11);
  }
  ~scenario() { release(); }

  // A fresh tree (none for build), brought to where the call starts.
  void set_up() {
    release();
    if (op_ == "build") return;
    ok(merklize_device_tree_create(builder_, leaves_.data(), leaves_.size(), &tree_), "create");
    if (op_ == "append_in_place")
      ok(merklize_device_tree_append(tree_, more_.data() + appended * MERKLIZE_DIGEST_SIZE,
                                     appended, nullptr),
         "the first append");
    if (op_ == "update_batch") {
      ok(merklize_device_tree_batch_create(tree_, batch, &batch_), "batch_create");
      std::memcpy(merklize_update_batch_indices(batch_), indices_.data(), batch * 8);
      std::memcpy(merklize_update_batch_leaves(batch_), values_.data(), values_.size());
    }
    if (op_ == "rollback" || op_ == "rollback_in_place") {
      ok(merklize_device_tree_snapshot(tree_, &snapshot_), "snapshot");
      ok(merklize_device_tree_update(tree_, indices_.data(), values_.data(), batch, nullptr),
         "an update");
      if (op_ == "rollback") // past the room: the tree moves to larger buffers
        ok(merklize_device_tree_append(tree_, more_.data(), 2 * appended, nullptr), "an append");
    }
  }

  merklize_status call() {
    std::uint8_t root[MERKLIZE_DIGEST_SIZE];
    if (op_ == "build")
      return merklize_device_tree_create(builder_, leaves_.data(), leaves_.size(), &tree_);
    if (op_ == "update")
      return merklize_device_tree_update(tree_, indices_.data(), values_.data(), batch, root);
    if (op_ == "update_proved") {
      merklize_proof *proof = nullptr;
      const merklize_status s = merklize_device_tree_update_proved(
          tree_, indices_.data(), values_.data(), batch, root, &proof);
      merklize_proof_free(proof);
      return s;
    }
    if (op_ == "update_batch") return merklize_device_tree_update_batch(tree_, batch_, batch, root);
    if (op_ == "append" || op_ == "append_in_place")
      return merklize_device_tree_append(tree_, more_.data(), appended, root);
    if (op_ == "snapshot") {
      merklize_tree_snapshot *s = nullptr;
      const merklize_status status = merklize_device_tree_snapshot(tree_, &s);
      merklize_tree_snapshot_free(s);
      return status;
    }
    if (op_ == "rollback" || op_ == "rollback_in_place")
      return merklize_device_tree_rollback(tree_, snapshot_, root);
    die("unknown call " + op_);
  }

  merklize_device_tree *tree() const { return tree_; }

  void release() {
    merklize_update_batch_free(batch_);
    merklize_tree_snapshot_free(snapshot_);
    merklize_device_tree_free(tree_);
    batch_ = nullptr;
    snapshot_ = nullptr;
    tree_ = nullptr;
  }

private:
  merklize_builder *builder_;
  std::string op_;
  std::vector<std::uint8_t> leaves_ = leaves_of(tree_leaves, 3), values_, more_;
  std::vector<std::uint64_t> indices_;
  merklize_device_tree *tree_ = nullptr;
  merklize_update_batch *batch_ = nullptr;
  merklize_tree_snapshot *snapshot_ = nullptr;
};

// Whether the tree refuses its calls: its root and an update both refused.
bool refused(merklize_device_tree *t, std::string &problem) {
  std::uint8_t root[MERKLIZE_DIGEST_SIZE];
  const merklize_status read = merklize_device_tree_root(t, root);
  if (read == MERKLIZE_OK) return false;
  const std::string message = merklize_last_error();
  const std::uint64_t index = 0;
  const merklize_status update = merklize_device_tree_update(t, &index, root, 1, nullptr);
  if (update == MERKLIZE_OK)
    problem = "half refused: the root refused (" + message + ") but an update taken";
  else if (read != MERKLIZE_ERROR_UNUSABLE || update != MERKLIZE_ERROR_UNUSABLE)
    problem =
        std::string("refused with ") + merklize_status_name(read) + ", not unusable: " + message;
  return true;
}

// Call `nth` of `call` failing in the scenario's call: the outcome, or a problem.
std::string fault(scenario &sc, const state &after, const char *call, std::uint64_t nth) {
  sc.set_up();
  const state before = sc.tree() ? read_state(sc.tree()) : state{};
  const std::int64_t at = shim_calls(call);
  shim_arm(call, nth);
  const merklize_status status = sc.call();
  const std::string message = merklize_last_error();
  const bool fired = shim_calls(call) >= at + static_cast<std::int64_t>(nth);
  shim_arm(call, 0);
  if (status == MERKLIZE_OK) {
    if (!sc.tree()) return fired ? "absorbed" : "not fired";
    const state now = read_state(sc.tree());
    if (!(now == after)) return "PROBLEM: wrong result after success: " + difference(now, after);
    return fired ? "absorbed" : "not fired";
  }
  if (!fired) return "PROBLEM: failed with no fault: " + message;
  if (message.empty()) return "PROBLEM: failed with no message";
  if (!sc.tree()) return "restored";
  std::string problem;
  if (refused(sc.tree(), problem)) return problem.empty() ? "refused" : "PROBLEM: " + problem;
  const state now = read_state(sc.tree());
  if (!(now == before))
    return "PROBLEM: corrupted by the failed call (" + message + "): " + difference(now, before);
  if (sc.call() != MERKLIZE_OK)
    return std::string("PROBLEM: the call again refused: ") + merklize_last_error();
  const state again = read_state(sc.tree());
  if (!(again == after))
    return "PROBLEM: wrong result of the call again: " + difference(again, after);
  return "restored";
}

merklize_builder *builder_of(merklize_device *device, std::uint32_t arity) {
  merklize_tree_config config;
  merklize_tree_config_init(&config);
  config.hash = "sha256";
  config.shape = "promote";
  config.arity = arity;
  merklize_builder *b = nullptr;
  ok(merklize_builder_create(device, &config, &b), "builder_create");
  return b;
}

// The tree after a clean call (its state), and each entry point's calls made by it.
state clean_run(scenario &sc, std::map<std::string, std::int64_t> &calls) {
  sc.set_up();
  std::map<std::string, std::int64_t> from;
  for (const char *e : entry_points)
    from[e] = shim_calls(e);
  ok(sc.call(), "the clean call");
  for (const char *e : entry_points)
    if (const std::int64_t n = shim_calls(e) - from[e]; n > 0) calls[e] = n;
  return read_state(sc.tree());
}

} // namespace

int main(int argc, char **argv) {
  if (argc < 4) die("usage: count|sweep ARITY OP [CALL:N,N,... ...]");
  shim_calls = reinterpret_cast<calls_fn>(dlsym(RTLD_DEFAULT, "merklize_fault_calls"));
  shim_arm = reinterpret_cast<arm_fn>(dlsym(RTLD_DEFAULT, "merklize_fault_arm"));
  if (!shim_calls || !shim_arm) die("the fault shim is not loaded (LD_PRELOAD=fault_shim.so)");
  const std::string mode = argv[1];
  merklize_device *device = nullptr;
  ok(merklize_device_open(nullptr, &device), "device_open");
  merklize_builder *builder = builder_of(device, static_cast<std::uint32_t>(std::stoul(argv[2])));
  int problems = 0;
  {
    scenario sc(builder, argv[3]);
    std::map<std::string, std::int64_t> calls, first;
    clean_run(sc, first); // the process's first call builds and caches what later ones reuse
    const state after = clean_run(sc, calls);
    if (mode == "count")
      for (const auto &[call, n] : calls)
        std::printf("%s %lld\n", call.c_str(), static_cast<long long>(n));
    for (int i = 4; mode == "sweep" && i < argc; ++i) {
      const std::string spec = argv[i];
      const std::string call = spec.substr(0, spec.find(':'));
      std::stringstream ns(spec.substr(spec.find(':') + 1));
      for (std::string n; std::getline(ns, n, ',');) {
        const std::string outcome = fault(sc, after, call.c_str(), std::stoull(n));
        problems += outcome.rfind("PROBLEM", 0) == 0;
        std::printf("%s %s %s\n", call.c_str(), n.c_str(), outcome.c_str());
        std::fflush(stdout);
      }
    }
  }
  merklize_builder_free(builder);
  merklize_device_free(device);
  return problems > 0 ? 1 : 0;
}
