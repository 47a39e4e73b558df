# SPDX-License-Identifier: Apache-2.0 OR MIT
"""Checks a wheel that `auditwheel repair --exclude libOpenCL.so.1` wrote (run_wheel.sh, the
ctest test python_wheel), given `auditwheel show --json` of it on stdin:
    auditwheel show --json WHEEL | python check_wheel.py WHEEL

`auditwheel show` calls even the repaired wheel "consistent with linux_x86_64": libOpenCL.so.1 is
not among any manylinux policy's libraries, and show has no --exclude. So what is checked is what
the manylinux tag promises with that one exception: the wheel's file name and its WHEEL file carry
a manylinux tag, the one that its symbol versions allow (auditwheel's sym_tag), and the system
libraries it needs outside that policy are libOpenCL.so.1 alone, the ICD loader, which finds the
system's drivers and so must not be vendored: the wheel holds no shared library but the
extension."""
from __future__ import annotations

import json
import sys
import zipfile
from pathlib import Path


class WheelError(Exception):
    pass


def wheel_platforms(wheel: zipfile.ZipFile) -> set:
    """The platform tags of the WHEEL file's Tag lines (python-abi-platform)."""
    name = next((n for n in wheel.namelist() if n.endswith(".dist-info/WHEEL")), None)
    if name is None:
        raise WheelError("no .dist-info/WHEEL file")
    lines = wheel.read(name).decode().splitlines()
    return {line.split(":", 1)[1].strip().rsplit("-", 1)[1] for line in lines
            if line.startswith("Tag:")}


def check(path: Path, report: dict) -> str:
    """What the wheel at `path` is, or WheelError saying what it lacks."""
    name_platforms = set(path.name[:-len(".whl")].rsplit("-", 1)[1].split("."))
    if not all(p.startswith("manylinux") for p in name_platforms):
        raise WheelError(f"the file name's platform tags {sorted(name_platforms)} are not all "
                         "manylinux ones")
    sym_tag = report["sym_tag"]
    if not sym_tag.startswith("manylinux_") or sym_tag not in name_platforms:
        raise WheelError(f"auditwheel's tag of its symbol versions, {sym_tag}, is not the file "
                         f"name's {sorted(name_platforms)}")
    with zipfile.ZipFile(path) as wheel:
        if wheel_platforms(wheel) != name_platforms:
            raise WheelError(f"its WHEEL file's platform tags {sorted(wheel_platforms(wheel))} "
                             f"are not the file name's {sorted(name_platforms)}")
        libraries = [n for n in wheel.namelist() if ".so" in Path(n).name]
    if len(libraries) != 1 or not Path(libraries[0]).name.startswith("_merklize."):
        raise WheelError(f"holds the shared libraries {libraries}, not the extension alone "
                         "(nothing vendored)")
    external = sorted(report["external_libs"])
    if external != ["libOpenCL.so.1"]:
        raise WheelError(f"needs {external} from the system outside the {sym_tag} policy, not "
                         "libOpenCL.so.1 alone")
    return (f"{sym_tag}, outside the policy only libOpenCL.so.1 "
            f"({report['external_libs']['libOpenCL.so.1']}), not vendored")


if __name__ == "__main__":
    wheel_path = Path(sys.argv[1])
    try:
        print(f"{wheel_path.name}: {check(wheel_path, json.load(sys.stdin))}")
    except WheelError as e:
        sys.exit(f"{wheel_path.name}: {e}")
