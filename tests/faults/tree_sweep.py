#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0 OR MIT
"""The device-tree fault sweep: every OpenCL call made by each call on a tree kept on the device
(merklize_device_tree_create, _update, _update_proved, _update_batch, _append, _snapshot,
_rollback, through the C ABI; binary and of arity 4 and 8) made to fail in turn by the fault
shim (fault_shim.c), armed by the driver (tree_faults.cpp, built with AddressSanitizer) at each
chosen call within the tree's call, on the real driver. After each failure the tree must be as
it was before the call (leaf count, root, every level read back) and take the call again to the
clean result, or refuse every later call (MERKLIZE_ERROR_UNUSABLE); a call that absorbs the
fault must give the clean result; no AddressSanitizer report, crash or hang.

In CI the calls of each entry point are sampled as sweep.py samples them (calls 1..--first, then
at a stride, at most --per-entry of each); --full tries every one. Prints a table of the figures;
exits 1 if any run broke a rule, 77 where the shim or a device is missing."""

import argparse
import concurrent.futures
import os
import shutil
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from sweep import GENERIC_CODES, chosen_calls  # noqa: E402

ARITIES = [2, 4, 8]
CALLS = ["build", "update", "update_proved", "update_batch", "append", "append_in_place",
         "snapshot", "rollback", "rollback_in_place"]
OUTCOMES = ["absorbed", "restored", "refused", "not fired"]


def env(args, code):
    e = {k: v for k, v in os.environ.items() if not k.startswith("MERKLIZE_")}
    e.update({"MERKLIZE_CACHE_DIR": os.path.join(args.workdir, "cache"), "LD_PRELOAD": args.shim,
              "MERKLIZE_FAULT_CODE": str(code),
              "ASAN_OPTIONS": "detect_leaks=0:exitcode=86:verify_asan_link_order=0"})
    return e


def run(args, argv, code=GENERIC_CODES[0]):
    """(status, stdout, stderr, seconds, hung) of the driver with `argv`."""
    start = time.monotonic()
    try:
        p = subprocess.run([args.driver] + argv, env=env(args, code), stdin=subprocess.DEVNULL,
                           capture_output=True, timeout=args.timeout)
        return p.returncode, p.stdout.decode(), p.stderr.decode(), time.monotonic() - start, False
    except subprocess.TimeoutExpired as e:
        return -9, (e.stdout or b"").decode(), (e.stderr or b"").decode(), args.timeout, True


def counts(args, arity, call):
    status, out, err, _, _ = run(args, ["count", str(arity), call])
    if status != 0:
        if "shim is not loaded" in err or "NO_DEVICE" in err:
            print("SKIPPED: %s" % err.strip())
            sys.exit(77)
        raise SystemExit("the clean %s at arity %d failed (%d): %s" % (call, arity, status, err))
    return {line.split()[0]: int(line.split()[1]) for line in out.splitlines() if line.strip()}


def sweep(args, arity, call, calls, index):
    specs = ["%s:%s" % (entry, ",".join(map(str, chosen_calls(n, args.first, args.per_entry,
                                                               args.full))))
             for entry, n in sorted(calls.items())]
    code = GENERIC_CODES[index % len(GENERIC_CODES)]
    status, out, err, seconds, hung = run(args, ["sweep", str(arity), call] + specs, code)
    row = dict.fromkeys(OUTCOMES + ["tried", "problems"], 0)
    problems = []
    for line in out.splitlines():
        entry, nth, outcome = line.split(" ", 2)
        row["tried"] += 1
        if outcome.startswith("PROBLEM"):
            row["problems"] += 1
            problems.append("%s call %s: %s" % (entry, nth, outcome))
        else:
            row[outcome] += 1
    asan = "AddressSanitizer" in err or "runtime error:" in err or status == 86
    if hung or asan or status not in (0, 1) or (status == 1 and not problems):
        problems.append("%s (status %d): %s" % ("hung" if hung else "AddressSanitizer report"
                                                if asan else "crashed", status, err[-4000:]))
    row.update(asan=int(asan), seconds=seconds, calls=sum(calls.values()))
    return arity, call, row, problems


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--driver", required=True)
    parser.add_argument("--shim", required=True)
    parser.add_argument("--workdir", required=True)
    parser.add_argument("--full", action="store_true", help="every call, not a sample")
    parser.add_argument("--first", type=int, default=3)
    parser.add_argument("--per-entry", type=int, default=6)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--timeout", type=float, default=600)
    parser.add_argument("--only", help="the calls whose name starts with this")
    args = parser.parse_args()
    args.driver, args.shim, args.workdir = map(os.path.abspath,
                                               (args.driver, args.shim, args.workdir))
    start = time.monotonic()
    shutil.rmtree(args.workdir, ignore_errors=True)
    os.makedirs(os.path.join(args.workdir, "cache"))
    cases = [(a, c) for a in ARITIES for c in CALLS if not args.only or c.startswith(args.only)]
    counts(args, ARITIES[0], "build")  # the program cache warmed once, not by every job at once
    with concurrent.futures.ThreadPoolExecutor(args.jobs) as pool:
        found = list(pool.map(lambda case: counts(args, *case), cases))
        results = list(pool.map(lambda job: sweep(args, *job[0], job[1], job[2]),
                                [(case, calls, i) for i, (case, calls) in
                                 enumerate(zip(cases, found))]))
    columns = ["calls", "tried"] + OUTCOMES + ["problems", "asan", "seconds"]
    print("%-5s %-18s %s" % ("arity", "call", "  ".join(columns)))
    totals = dict.fromkeys(columns, 0)
    for arity, call, row, _ in results:
        print("%-5d %-18s %s" % (arity, call, "  ".join("%*d" % (len(c), row[c])
                                                          for c in columns)))
        for c in columns:
            totals[c] += row[c]
    print("%-5s %-18s %s" % ("total", "", "  ".join("%*d" % (len(c), totals[c]) for c in columns)))
    bad = [(arity, call, p) for arity, call, _, problems in results for p in problems]
    for arity, call, p in bad:
        print("FAILED: arity %d %s: %s" % (arity, call, p))
    if not args.full:
        print("sampled: calls 1..%d of each entry point, then at a stride, at most %d of each "
              "(--full tries every call)" % (args.first, args.per_entry))
    print("%d faults in %.0f s" % (totals["tried"], time.monotonic() - start))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
