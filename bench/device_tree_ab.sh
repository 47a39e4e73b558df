#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0 OR MIT
# Issue 30: the tree kept on the device for every arity (device_tree.hpp: binary trees by the
# level kernels, k-ary by the block kernels) beside the commit it starts from, in one run on the
# GPU machine. Builds both trees (A: the base, B: this tree), runs B's device tests of trees kept
# on the device, blocks and several devices on the GPU, checks A and B print the same roots and
# proofs, then times whole processes with hyperfine over 1 GiB in /dev/shm:
#   root --leaf-size 4096 (a binary tree of blocks: block_tree_root), proof -i over it
#   (block_tree_prove), root --arity 2 and --arity 8 (sha256), and root --leaf-size 4096
#   --devices 0,0 (block_part_builder's parts, the GPU named twice);
# and prints each row's times side by side with B / A (bench/ab_table.py).
#   bash bench/device_tree_ab.sh [BASE_TREE]     (logs in $OUT, default /tmp/out)
set -uo pipefail
source bench/ab_base.sh
ab_setup device_tree_ab /tmp/device-tree-ab-base "${1:-}"

ab_build "$base" "$OUT/build.log" merklize_cli &&
  ab_build . "$OUT/build.log" merklize_cli merklize_tests merklize_gpu_test
ab_gpu_tests '[kary],[block-leaves],[multi-blocks],[kary-multi],[binary]'

file=/dev/shm/device_tree_ab_1g
[ -f "$file" ] || head -c $((1 << 30)) /dev/urandom > "$file"
declare -A runs=(
  [blocks]="root --leaf-size 4096"
  [proof_blocks]="proof -i 123457 --leaf-size 4096"
  [arity_2]="root --arity 2 --hash sha256"
  [arity_8]="root --arity 8 --hash sha256"
  [blocks_devices]="root --leaf-size 4096 --devices 0,0"
)
ab_processes "$file" blocks proof_blocks arity_2 arity_8 blocks_devices
