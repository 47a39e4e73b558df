#!/usr/bin/env python3
"""Plots merklize_bench's --csv rows: node hashes per second against leaf count, one line per
device and mode. Usage: plot.py BENCH.csv OUT.png (needs matplotlib: Debian's python3-matplotlib)."""
import csv
import sys
from collections import defaultdict

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt


def main(csv_path, png_path):
    lines = defaultdict(list)
    with open(csv_path, newline="") as f:
        for device, mode, log2, rate in csv.reader(f):
            lines[(device, mode)].append((int(log2), float(rate)))
    fig, ax = plt.subplots(figsize=(10, 6))
    for (device, mode), points in sorted(lines.items()):
        points.sort()
        ax.plot([2**k for k, _ in points], [r for _, r in points], marker="o", markersize=3,
                label=f"{device}: {mode}")
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
    main(sys.argv[1], sys.argv[2])
