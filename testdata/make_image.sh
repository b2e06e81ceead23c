#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# Packs the test tree into a SquashFS image with mksquashfs.
# usage: make_image.sh MAKE_TREE_PY OUT.sqfs [mksquashfs options...]
set -euo pipefail
make_tree=$1 out=$2
shift 2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
python3 "$make_tree" "$work/tree"
mksquashfs "$work/tree" "$out" -quiet -no-progress -mkfs-time 1577934245 "$@" >/dev/null
