#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0 OR MIT
"""Plots merklize_bench's --csv rows: node hashes per second against leaf count, a line per device
and mode, and the CPU baselines on all the host's cores (OpenSSL, BLAKE3's hash_many, hashtree),
dashed beside them.

Usage: bench/plot.py BENCH.csv OUT.png   (`make plot` runs it; needs python3-matplotlib)

The CSV starts with the header device,mode,log2_leaves,node_hashes_per_s. Runs append to it, so
a device, mode and size measured twice keeps its last row."""
import csv
import sys
from collections import defaultdict

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt

HEADER = ["device", "mode", "log2_leaves", "node_hashes_per_s"]
BASELINE_DEVICE = "host CPU"  # merklize_bench's cpu_<name> rows


def read_lines(csv_path):
    """{(device, mode): [(log2, rate), ...]}, the last row of each device, mode and size."""
    latest = {}
    with open(csv_path, newline="") as f:
        reader = csv.DictReader(f)
        if reader.fieldnames != HEADER:
            sys.exit(f"{csv_path}: the first line is {reader.fieldnames}, not the header {HEADER}")
        for row in reader:
            key = (row["device"], row["mode"], int(row["log2_leaves"]))
            latest[key] = float(row["node_hashes_per_s"])
    lines = defaultdict(list)
    for (device, mode, log2), rate in sorted(latest.items()):
        lines[(device, mode)].append((log2, rate))
    return lines


def main(csv_path, png_path):
    lines = read_lines(csv_path)
    if not lines:
        sys.exit(f"{csv_path}: no rows to plot")
    fig, ax = plt.subplots(figsize=(10, 6))
    # Devices first, the baseline last: it is drawn dashed and black and ends the legend.
    for (device, mode), points in sorted(lines.items(), key=lambda kv: kv[0][0] == BASELINE_DEVICE):
        baseline = device == BASELINE_DEVICE
        ax.plot([2**k for k, _ in points], [r for _, r in points], marker="o", markersize=3,
                linestyle="--" if baseline else "-", color="black" if baseline else None,
                label=f"{device}: {mode}" + (" (CPU baseline)" if baseline else ""))
    ax.set_xscale("log", base=2)
    ax.set_yscale("log")
    ax.set_xlabel("leaves")
    ax.set_ylabel("node hashes per second")
    ax.set_title("merklize: BLAKE3 Merkle tree throughput")
    ax.grid(True, which="both", alpha=0.3)
    ax.legend(fontsize=7)
    fig.tight_layout()
    fig.savefig(png_path, dpi=120)


if __name__ == "__main__":
    if len(sys.argv) != 3:
        sys.exit("usage: bench/plot.py BENCH.csv OUT.png")
    main(sys.argv[1], sys.argv[2])
