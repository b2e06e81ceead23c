#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# This file builds the embedded default image's tree (make_small_tree.py)
# into a SquashFS image with mksquashfs: 8K blocks, tail ends packed into
# fragments, fixed times and root ownership, so that the same codec always
# gives the same bytes. The build makes the gzip one (the embedded image);
# the real kernels' matrix makes one per codec the kernel reads.
#
#   harness/make_small_image.sh MAKE_SMALL_TREE_PY COMP OUT
set -euo pipefail
if [ $# -ne 3 ]; then
  sed -n 's/^#   //p' "$0" >&2
  exit 2
fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
python3 "$1" "$work/t"
touch -d @1577934245 "$work/t"  # the root directory's time too
mksquashfs "$work/t" "$3" -quiet -no-progress -b 8192 -comp "$2" -tailends \
  -mkfs-time 1577934245 -all-root >/dev/null
