#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# Packs one five-file tree with mksquashfs N times (default 20) and counts
# the images that do not hold the tree, as unsquashfs extracts them: with
# -always-use-fragments and duplicate detection on (the default),
# mksquashfs 4.5.1 now and then writes a fragment table entry that runs
# into the next fragment block and the inode table. The same packs with
# -no-duplicates are the control. Extra arguments replace the options
# (default: -comp lz4 -noD -noF -always-use-fragments).
# usage: tools/repro/mksquashfs_fragment_race.sh [N] [mksquashfs options...]
set -euo pipefail
runs=${1:-20}
shift || true
opts=("$@")
[[ ${#opts[@]} -gt 0 ]] || opts=(-comp lz4 -noD -noF -always-use-fragments)
for tool in mksquashfs unsquashfs python3; do
  command -v "$tool" >/dev/null || { echo "$tool is not installed" >&2; exit 2; }
done
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir "$work/tree"
# Byte o of a file is (167 o + r + o / 512) mod 253: five files, two of
# them (r = 0) sharing their first bytes. The sizes and patterns are those
# of the tree a property test first met the fault on.
python3 - "$work/tree" <<'PY'
import sys
for size, r in ((131071, 101), (160674, 0), (168342, 181), (198539, 0),
                (262144, 18)):
    data = bytes((o * 167 + r + (o >> 9)) % 253 for o in range(size))
    with open("%s/f%d_%d" % (sys.argv[1], size, r), "wb") as f:
        f.write(data)
PY
count() {  # OPTIONS...: how many of $runs images do not hold the tree
  local bad=0
  for _ in $(seq "$runs"); do
    rm -rf "$work/img" "$work/out"
    mksquashfs "$work/tree" "$work/img" -quiet -no-progress -noappend "$@" \
      >/dev/null 2>&1
    unsquashfs -n -d "$work/out" "$work/img" >/dev/null 2>&1 || true
    diff -rq "$work/tree" "$work/out" >/dev/null 2>&1 || bad=$((bad + 1))
  done
  echo "$bad"
}
echo "$(mksquashfs -version 2>&1 | head -1)"
echo "mksquashfs ${opts[*]}: $(count "${opts[@]}") of $runs images do not hold the tree"
echo "mksquashfs ${opts[*]} -no-duplicates: $(count "${opts[@]}" -no-duplicates) of $runs"
