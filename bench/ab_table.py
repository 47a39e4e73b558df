# SPDX-License-Identifier: Apache-2.0 OR MIT
# The A/B scripts' table (ab_builds.sh, and ab_base.sh's ab_hyperfine): from lines
# "SIDE ROUND ROW MILLISECONDS", one line per row with A's and B's times per round, then B / A of
# the best of each side (above 1: B slower).
#   python3 bench/ab_table.py ROWS_FILE
# With --hyperfine, the rows of hyperfine's JSON export instead (commands named "SIDE NAME"),
# each row PREFIX + NAME, to append to ROWS_FILE:
#   python3 bench/ab_table.py --hyperfine JSON PREFIX >> ROWS_FILE
import collections
import json
import sys

if sys.argv[1] == '--hyperfine':
    for r in json.load(open(sys.argv[2]))['results']:
        side, name = r['command'].split(' ', 1)
        print(side, 1, sys.argv[3] + name.replace(' ', '_'), '%.2f' % (r['mean'] * 1e3))
    sys.exit(0)

times = collections.defaultdict(lambda: collections.defaultdict(list))
for line in open(sys.argv[1]):
    side, _, row, value = line.split()
    times[row][side].append(float(value))
print(f"{'row':44} {'A':>24} {'B':>24} {'B/A':>7}")
for row, sides in times.items():
    a, b = sides.get('A', []), sides.get('B', [])
    ratio = min(b) / min(a) if a and b else float('nan')
    fmt = lambda v: ' '.join('%.3f' % x for x in v)
    print(f"{row:44} {fmt(a):>24} {fmt(b):>24} {ratio:7.3f}")
