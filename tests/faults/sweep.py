#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0 OR MIT
"""The fault sweep: every OpenCL call of each merklize command, and of the library's build, proof
and BLAKE3 paths (a program built with AddressSanitizer), made to fail in turn by the LD_PRELOAD
shim (fault_shim.c) on the real driver, and what follows checked:

  - exit status 1 with one message naming the failing call, its error code and the step (text
    before the call's name), or exit status 0 with the right result (the fault absorbed);
  - nothing on stdout but whole lines of the right result; no partial output file: an output
    holds its old content or the whole new one, and a symbolic link given as the output is still
    that link;
  - no crash (a signal, an AddressSanitizer report), no hang (a time limit);
  - no temporary file or load mark left in the output's folder or the program cache;
  - the cache not poisoned: where a faulted run changed the cache, a clean run on it still gives
    the right result.

First each case runs clean under the shim, which counts the calls of each entry point; then the
sweep fails call n of entry point f for the calls chosen: all of them (--full), or in CI every
call up to --first (3), then at a stride so that at most --per-entry (6) of each are tried. Error codes
rotate through CL_OUT_OF_RESOURCES, CL_MEM_OBJECT_ALLOCATION_FAILURE and CL_OUT_OF_HOST_MEMORY
(and CL_BUILD_PROGRAM_FAILURE for clBuildProgram). Prints a table of the figures; exits 1 if
any run broke a rule above, 77 where the shim cannot be used."""

import argparse
import concurrent.futures
import os
import re
import shutil
import signal
import struct
import subprocess
import sys
import time

CODES = {-5: "CL_OUT_OF_RESOURCES", -4: "CL_MEM_OBJECT_ALLOCATION_FAILURE",
         -6: "CL_OUT_OF_HOST_MEMORY", -11: "CL_BUILD_PROGRAM_FAILURE"}
GENERIC_CODES = [-5, -4, -6]
MESSAGE = re.compile(r"^merklize: (?P<step>.+): (?P<call>cl\w+) failed: (?P<name>CL_\w+) "
                     r"\((?P<code>-?\d+)\)")
TEMP = re.compile(r"\.tmp-\d+|\.loading-\d+")


class Case:
    """A command: its arguments ({in} the inputs' folder, {out} the run's folder), the outputs
    it writes into {out} (each given as a symbolic link to a file holding old content), the
    cache it starts with ("warm": a copy of the prepared one, "cold": none)."""

    def __init__(self, name, argv, outputs=(), cache="warm", library=False, stdin=None):
        self.name, self.argv, self.outputs = name, argv, list(outputs)
        self.cache, self.library, self.stdin = cache, library, stdin
        self.expected_out, self.expected_files, self.counts = b"", {}, {}


def cases(full):
    root = ["root", "--device", "default", "{in}/leaves.bin"]  # the driver, not the host engine
    list_ = [
        Case("root", root),
        Case("root (cold cache)", root, cache="cold"),
        Case("root --leaf-size", ["root", "--leaf-size", "4096", "{in}/data.bin"]),
        Case("root --format", ["root", "--format", "dm-verity", "--hash-output", "{out}/hash.img",
                               "{in}/data.bin"], outputs=["hash.img"]),
        Case("root --arity", ["root", "--arity", "4", "{in}/leaves.bin"]),
        Case("proof", ["proof", "--index", "5", "-o", "{out}/proof.json", "{in}/leaves.bin"],
             outputs=["proof.json"]),
        Case("proof --leaf-size", ["proof", "--index", "3", "--leaf-size", "4096",
                                   "{in}/data.bin"]),
        Case("verify", ["verify", "{in}/proof.json", "{leaf}", "{root}"]),
        Case("consistency", ["consistency", "--old-size", "50", "-o", "{out}/c.json",
                             "{in}/leaves.bin"], outputs=["c.json"]),
        Case("leaf-hash", ["leaf-hash", "--hash", "rfc6962", "--entries", "lines",
                           "-o", "{out}/leaves.out", "{in}/entries.txt"], outputs=["leaves.out"]),
        Case("b3sum", ["b3sum", "{in}/small.bin", "{in}/data.bin", "{in}/large.bin"]),
        Case("b3sum (cold cache)", ["b3sum", "{in}/small.bin"], cache="cold"),
        Case("devices", ["devices"]),
    ]
    for scenario in ["build", "stream", "proofs", "b3sum", "blocks"]:
        list_.append(Case("library " + scenario, [scenario, "{in}/leaves.bin", "{in}/large.bin"],
                          library=True))
    if full:
        list_.append(Case("proof (cold cache)", list_[5].argv, outputs=["proof.json"],
                          cache="cold"))
    return list_


def make_inputs(folder):
    os.makedirs(folder, exist_ok=True)
    seed = bytes(range(256)) * 4

    def write(name, size):
        data = (seed * (size // len(seed) + 1))[:size]
        data = bytes((b * 7 + i // 1024) & 0xFF for i, b in enumerate(data))
        with open(os.path.join(folder, name), "wb") as f:
            f.write(data)

    write("leaves.bin", 2 * 1024 * 1024 + 4096)  # more than 1 MiB: read at offsets
    write("data.bin", 300 * 1024)
    write("small.bin", 100)
    write("large.bin", 3 * 1024 * 1024 + 17)
    with open(os.path.join(folder, "entries.txt"), "w") as f:
        f.write("".join("entry %d\n" % i for i in range(300)))


def read_counts(path):
    counts, fired = {}, 0
    if not os.path.exists(path):  # the program made no OpenCL call
        return counts, fired
    with open(path, "rb") as f:
        data = f.read()
    for i in range(len(data) // 64):
        slot = data[i * 64:(i + 1) * 64]
        name = slot[:56].split(b"\0")[0].decode()
        (value,) = struct.unpack("=Q", slot[56:])
        if name == "fired":
            fired = value
        elif value:
            counts[name] = value
    return counts, fired


class Runner:
    def __init__(self, args):
        self.args = args
        self.work = os.path.abspath(args.workdir)
        self.inputs = os.path.join(self.work, "inputs")
        self.warm = os.path.join(self.work, "warm-cache")
        self.fields = {"in": self.inputs}

    def env(self, cache, extra=None):
        env = dict(os.environ)
        for key in list(env):
            if key.startswith("MERKLIZE_"):
                del env[key]
        env.update({"MERKLIZE_CACHE_DIR": cache, "LD_PRELOAD": self.args.shim,
                    "ASAN_OPTIONS": "detect_leaks=0:exitcode=86:verify_asan_link_order=0"})
        env.update(extra or {})
        return env

    def argv(self, case, out):
        program = self.args.library if case.library else self.args.cli
        fields = dict(self.fields, out=out)
        return [program] + [a.format(**fields) for a in case.argv]

    def prepare_outputs(self, case, out):
        for name in case.outputs:
            with open(os.path.join(out, name + ".target"), "wb") as f:
                f.write(b"old\n")
            os.symlink(name + ".target", os.path.join(out, name))

    def execute(self, case, out, cache, extra=None):
        """Runs the case; returns (status, stdout, stderr, seconds, hung)."""
        start = time.monotonic()
        proc = subprocess.Popen(self.argv(case, out), cwd=out, env=self.env(cache, extra),
                                stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                                stderr=subprocess.PIPE, start_new_session=True)
        try:
            stdout, stderr = proc.communicate(timeout=self.args.timeout)
            hung = False
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
            stdout, stderr = proc.communicate()
            hung = True
        return proc.returncode, stdout, stderr, time.monotonic() - start, hung

    def fresh_dir(self, name):
        path = os.path.join(self.work, "runs", name)
        shutil.rmtree(path, ignore_errors=True)
        os.makedirs(path)
        return path

    def cache_for(self, case, run_dir):
        cache = os.path.join(run_dir, "cache")
        if case.cache == "warm":
            shutil.copytree(self.warm, cache)
        return cache

    def clean_run(self, case, index):
        """The case without a fault (the shim counting): its expected result and its calls."""
        out = self.fresh_dir("clean-%d" % index)
        self.prepare_outputs(case, out)
        cache = self.warm if case.cache == "warm" else self.cache_for(case, out)
        counts = os.path.join(out, "counts")
        status, stdout, stderr, _, _ = self.execute(case, out, cache,
                                                    {"MERKLIZE_FAULT_COUNTS": counts})
        if status != 0:
            raise SystemExit("clean run of %s failed (%s): %s" % (case.name, status,
                                                                  stderr.decode()[-2000:]))
        case.expected_out = stdout
        case.expected_files = {n: open(os.path.join(out, n), "rb").read() for n in case.outputs}
        case.counts = read_counts(counts)[0]

    def snapshot(self, folder):
        files = {}
        for base, _, names in os.walk(folder):
            for n in names:
                p = os.path.join(base, n)
                with open(p, "rb") as f:
                    files[os.path.relpath(p, folder)] = f.read()
        return files

    def fault_run(self, case, call, nth, code, index):
        out = self.fresh_dir("f%d" % index)
        self.prepare_outputs(case, out)
        cache = self.cache_for(case, out)
        before = self.snapshot(cache) if os.path.isdir(cache) else {}
        counts = os.path.join(out, "counts")
        status, stdout, stderr, seconds, hung = self.execute(
            case, out, cache, {"MERKLIZE_FAULT_CALL": call, "MERKLIZE_FAULT_NTH": str(nth),
                               "MERKLIZE_FAULT_CODE": str(code), "MERKLIZE_FAULT_COUNTS": counts})
        fired = read_counts(counts)[1] > 0 if os.path.exists(counts) else False
        os.unlink(counts) if os.path.exists(counts) else None
        result = {"case": case.name, "call": call, "nth": nth, "code": code, "status": status,
                  "fired": fired, "seconds": seconds, "problems": []}
        problems = result["problems"]
        text = stderr.decode(errors="replace")
        if hung:
            problems.append("hang")
        elif status not in (0, 1) or "AddressSanitizer" in text or "runtime error:" in text:
            problems.append("crash")
        self.check_output(case, out, status, stdout, problems)
        if status == 1 and not hung:
            self.check_message(text, call, code, result)
        elif status == 0:
            result["outcome"] = "absorbed" if fired else "not fired"
        self.check_leftovers(out, cache, problems)
        if not problems and os.path.isdir(cache) and self.snapshot(cache) != before:
            self.check_cache(case, cache, index, problems)
        if problems:
            result["stderr"] = text[-1500:]
        shutil.rmtree(out, ignore_errors=True)
        return result

    def check_output(self, case, out, status, stdout, problems):
        good = case.expected_out
        if status == 0 and stdout != good:
            problems.append("wrong result")
        elif status != 0 and stdout and not (good.startswith(stdout) and stdout.endswith(b"\n")
                                             and stdout != good):
            problems.append("partial output")
        for name in case.outputs:
            link = os.path.join(out, name)
            if not os.path.islink(link):
                problems.append("replaced destination")
                continue
            content = open(link, "rb").read()
            if status == 0 and content != case.expected_files[name]:
                problems.append("wrong result")
            elif status != 0 and content != b"old\n":
                problems.append("partial output")

    def check_message(self, text, call, code, result):
        errors = [l for l in text.splitlines() if not l.startswith("merklize: warning:")]
        match = MESSAGE.match(errors[0]) if len(errors) == 1 else None
        result["message"] = errors[0] if errors else ""
        if not result["fired"]:
            result["problems"].append("failed without a fault")
        elif len(errors) != 1:
            result["problems"].append("not one message")
        elif not match or match["call"] != call or int(match["code"]) != code:
            result["problems"].append("message does not name the call")
        result["outcome"] = "clean error"

    def check_leftovers(self, out, cache, problems):
        for folder in (out, cache):
            for base, _, names in os.walk(folder):
                if any(TEMP.search(n) for n in names):
                    problems.append("stray temporary file")
                    return

    def check_cache(self, case, cache, index, problems):
        out = self.fresh_dir("check%d" % index)
        self.prepare_outputs(case, out)
        status, stdout, _, _, _ = self.execute(case, out, cache)
        if status != 0 or stdout != case.expected_out:
            problems.append("cache poisoned")
        shutil.rmtree(out, ignore_errors=True)


def chosen_calls(count, first, per_entry, full):
    if full or count <= per_entry:
        return list(range(1, count + 1))
    picks = list(range(1, min(first, count) + 1))
    rest = per_entry - len(picks)
    if rest > 0:
        stride = max(1, (count - first) // rest)
        picks += list(range(first + stride, count + 1, stride))[:rest - 1] + [count]
    return sorted(set(picks))


def plan(case, args):
    jobs = []
    for call, count in sorted(case.counts.items()):
        for n in chosen_calls(count, args.first, args.per_entry, args.full):
            codes = GENERIC_CODES + ([-11] if call == "clBuildProgram" else [])
            jobs.append((case, call, n, codes[(n + len(jobs)) % len(codes)]))
    return jobs


COLUMNS = ["runs", "fired", "clean error", "absorbed", "crash", "hang", "partial output",
           "wrong result", "stray temporary file", "replaced destination", "names the call",
           "seconds"]


def report(results, cases_, seconds):
    rows = []
    for case in cases_:
        mine = [r for r in results if r["case"] == case.name]
        row = {"runs": len(mine), "fired": sum(r["fired"] for r in mine)}
        for outcome in ("clean error", "absorbed"):
            row[outcome] = sum(r.get("outcome") == outcome for r in mine)
        for problem in COLUMNS[4:10]:
            row[problem] = sum(problem in r["problems"] for r in mine)
        row["names the call"] = sum(r.get("outcome") == "clean error" and not any(
            p in r["problems"] for p in ("not one message", "message does not name the call"))
            for r in mine)
        row["seconds"] = int(sum(r["seconds"] for r in mine))
        rows.append((case.name, row, sum(case.counts.values())))
    width = max(len(name) for name, _, _ in rows)
    print("%-*s %6s  %s" % (width, "case", "calls", "  ".join(COLUMNS)))
    totals = dict.fromkeys(COLUMNS, 0)
    for name, row, calls in rows:
        print("%-*s %6d  %s" % (width, name, calls, "  ".join(
            "%*d" % (len(c), row[c]) for c in COLUMNS)))
        for c in COLUMNS:
            totals[c] += row[c]
    print("%-*s %6s  %s" % (width, "total", "", "  ".join(
        "%*d" % (len(c), totals[c]) for c in COLUMNS)))
    print("%d faulted runs in %.0f s" % (len(results), seconds))


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--cli", required=True)
    parser.add_argument("--library", required=True)
    parser.add_argument("--shim", required=True)
    parser.add_argument("--workdir", required=True)
    parser.add_argument("--full", action="store_true", help="every call, not a sample")
    parser.add_argument("--first", type=int, default=3)
    parser.add_argument("--per-entry", type=int, default=6)
    parser.add_argument("--jobs", type=int, default=4)
    parser.add_argument("--timeout", type=float, default=60)
    parser.add_argument("--only", help="run the cases whose name starts with this")
    args = parser.parse_args()
    args.shim, args.cli, args.library = map(os.path.abspath, (args.shim, args.cli, args.library))
    start = time.monotonic()
    runner = Runner(args)
    shutil.rmtree(runner.work, ignore_errors=True)
    make_inputs(runner.inputs)
    all_cases = [c for c in cases(args.full) if not args.only or c.name.startswith(args.only)]
    prepare(runner, all_cases)
    jobs = [job for case in all_cases for job in plan(case, args)]
    results = []
    with concurrent.futures.ThreadPoolExecutor(args.jobs) as pool:
        futures = [pool.submit(runner.fault_run, *job, i) for i, job in enumerate(jobs)]
        for future in concurrent.futures.as_completed(futures):
            results.append(future.result())
    bad = [r for r in results if r["problems"]]
    for r in sorted(bad, key=lambda r: (r["case"], r["call"], r["nth"])):
        print("FAILED: %s: %s call %d (%s): %s, status %s\n  %s" % (
            r["case"], r["call"], r["nth"], CODES[r["code"]], ", ".join(r["problems"]),
            r["status"], r.get("stderr", "").strip().replace("\n", "\n  ")))
    report(results, all_cases, time.monotonic() - start)
    if not args.full:
        print("sampled: calls 1..%d of each entry point, then at a stride, at most %d of each "
              "(--full tries every call)" % (args.first, args.per_entry))
    shutil.rmtree(os.path.join(runner.work, "runs"), ignore_errors=True)
    return 1 if bad else 0


def prepare(runner, all_cases):
    """The warm cache, the proof `verify` checks, then each case's clean run."""
    os.makedirs(runner.warm, exist_ok=True)
    for i, case in enumerate(all_cases):
        out = runner.fresh_dir("warm-%d" % i)
        runner.prepare_outputs(case, out)
        if not case.argv[0] == "verify":
            runner.execute(case, out, runner.warm)
    out = runner.fresh_dir("proof")
    status, stdout, _, _, _ = runner.execute(
        Case("p", ["proof", "--index", "5", "{in}/leaves.bin"]), out, runner.warm)
    with open(os.path.join(runner.inputs, "proof.json"), "wb") as f:
        f.write(stdout)
    proof = stdout.decode()
    runner.fields["leaf"] = open(os.path.join(runner.inputs, "leaves.bin"), "rb").read()[
        5 * 32:6 * 32].hex()
    root = runner.execute(Case("r", ["root", "{in}/leaves.bin"]), out, runner.warm)[1]
    runner.fields["root"] = root.decode().strip()
    if status != 0 or '"index":5' not in proof:
        raise SystemExit("cannot make the proof that verify checks")
    for i, case in enumerate(all_cases):
        runner.clean_run(case, i)


if __name__ == "__main__":
    sys.exit(main())
