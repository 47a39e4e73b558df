// SPDX-License-Identifier: Apache-2.0 OR MIT
// Every call that changes a tree kept on the device (resident_tree.hpp, resident_kary_tree.hpp)
// all or nothing. A call that fails before it has begun to write the tree's device memory is
// undone on the host: its size, layout, room, buffers and root put back, so the tree is bit for
// bit what it was (an append that moved the tree to larger buffers keeps the old ones until it
// is done, so it too is undone so). A call that fails after (the leaves written, levels
// recomputed, a rollback's copies begun) cannot know what the device holds: the tree is unusable
// from then on, and every later call is refused with unusable_tree_error, naming the call that
// failed and why, until the tree is destroyed.
//
//   return health_.change("append", [&] { grow(); health_.writing(); recompute(); }, undo);
#pragma once

#include "../runtime/error.hpp"

#include <exception>
#include <string>

namespace merklize {

// A call on a tree kept on the device that an earlier failed call left unusable.
class unusable_tree_error : public error {
public:
  using error::error;
};

namespace detail {

class tree_health {
public:
  // Refuses `call` on an unusable tree.
  void check(const char *call) const {
    if (!broken_.empty()) throw unusable_tree_error(std::string(call) + ": " + broken_);
  }

  // `body()` as `call`: refused on an unusable tree; where it throws, `undo()` (the host's state
  // put back) if it had not called writing() yet, else the tree made unusable; then rethrown. A
  // change within a change (update_proved's update) keeps the outer one's point of no return.
  template <class Body, class Undo>
  decltype(auto) change(const char *call, Body &&body, Undo &&undo) {
    check(call);
    const scope under_way(*this);
    try {
      return body();
    } catch (const std::exception &e) {
      failed(call, e.what(), undo);
      throw;
    } catch (...) {
      failed(call, "an unknown exception", undo);
      throw;
    }
  }

  // From here on the call changes the tree's device memory: a failure leaves it unusable.
  void writing() { writing_ = true; }
  // The device is done and left the tree as it was (a refusal it found): undo() suffices again.
  void unchanged() { writing_ = false; }

private:
  // The tree unusable: `call` failed for `reason` once the tree had changed.
  void break_after(const std::string &call, const std::string &reason) {
    broken_ = "the tree is unusable after a failed " + call + " (" + reason +
              "): free it and build it again";
  }

  // A change under way (the outermost one's start clears writing_), left with its scope.
  class scope {
  public:
    explicit scope(tree_health &h) : h_(h), outer_(!h.in_change_) {
      if (outer_) h_.writing_ = false;
      h_.in_change_ = true;
    }
    ~scope() {
      if (outer_) h_.in_change_ = false;
    }
    scope(const scope &) = delete;
    scope &operator=(const scope &) = delete;

  private:
    tree_health &h_;
    bool outer_;
  };

  template <class Undo> void failed(const char *call, const char *reason, Undo &undo) {
    if (!broken_.empty()) return; // an inner change's verdict stands
    if (writing_) return break_after(call, reason);
    try {
      undo();
    } catch (const std::exception &e) {
      break_after(call, std::string(reason) + "; then putting it back failed: " + e.what());
    }
  }

  std::string broken_; // why the tree is unusable; empty while it is usable
  bool writing_ = false, in_change_ = false;
};

} // namespace detail
} // namespace merklize
