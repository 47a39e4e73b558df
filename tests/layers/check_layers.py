#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0 OR MIT
"""No include runs from a lower layer up: each folder of include/merklize/ may include only the
folders this table allows (docs/ARCHITECTURE.md, "Layers"). A header outside every folder
(merklize.hpp, src.hpp, version.hpp) is the top and may include anything.

usage: check_layers.py INCLUDE_DIR    (exit 1 and one line per include that runs up)"""
import os
import re
import sys

# Each layer and the layers below it that it may include (itself always).
ALLOWED = {
    'kernels': set(),
    'core': set(),
    'io': {'core'},
    'plan': {'core'},
    'proofs': {'core'},
    'formats': {'core'},
    'runtime': {'core', 'io', 'plan', 'formats', 'kernels'},
    'pipeline': {'core', 'io', 'plan', 'proofs', 'runtime'},
    'engine': {'core', 'io', 'plan', 'proofs', 'formats', 'runtime', 'pipeline'},
}
INCLUDE = re.compile(r'^\s*#\s*include\s*"([^"]+)"', re.M)


def layer_of(relative):
    parts = relative.split('/')
    return parts[0] if len(parts) > 1 else None


def main(include_dir):
    root = os.path.join(include_dir, 'merklize')
    wrong = []
    for folder, _, names in os.walk(root):
        for name in sorted(names):
            path = os.path.join(folder, name)
            here = os.path.relpath(path, root)
            layer = layer_of(here)
            if layer is not None and layer not in ALLOWED:
                wrong.append(f'{here}: folder {layer}/ is not a layer of check_layers.py')
                continue
            with open(path, encoding='utf-8') as f:
                text = f.read()
            for target in INCLUDE.findall(text):
                there = os.path.relpath(os.path.normpath(os.path.join(folder, target)), root)
                other = layer_of(there)
                if layer is None or other == layer or other in ALLOWED[layer]:
                    continue
                wrong.append(f'{here} includes {there}: {layer}/ may not include {other or "the top"}')
    for line in wrong:
        print(line)
    print(f'{len(wrong)} include(s) run up' if wrong else 'no include runs from a lower layer up')
    return 1 if wrong else 0


if __name__ == '__main__':
    sys.exit(main(sys.argv[1]))
