#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# This file tests that the real bugs the lab finds in Debian's unmodified
# kernel trees (docs/findings.md) stay found, each on the image that shows
# it, and that the kernel that fixed it stays clean there: the finding's
# class must be reported for the affected kernel on every decompressor
# strategy, nothing else may be, and its token must replay.
set -uo pipefail
bin="${TEST_SRCDIR:-}/squashlab/cli/squashlab"
[[ -x "$bin" ]] || bin="${SQUASHLAB:-bazel-bin/cli/squashlab}"
images="${TEST_SRCDIR:-}/squashlab/testdata"
failures=0
fail() {
  echo "FAIL: $*"
  failures=$((failures + 1))
}

# FINDING AFFECTED FIXED IMAGE TITLE
expect_finding() {
  local name=$1 affected=$2 fixed=$3 image=$4 title=$5
  local out rc
  out="$("$bin" verify --variant "$affected" --variant "$fixed" \
    --image "$image" --budget 300 --expect "$affected=fail" --all-classes 2>&1)"
  rc=$?
  [[ $rc -eq 0 ]] || fail "$name: verify exits $rc, expected 0 (the $affected cells failing, $fixed clean)"
  local rows_affected rows_fixed_clean classes
  rows_affected=$(printf '%s\n' "$out" | grep -cE "^$affected +[a-z-]+ +[0-9]+ +1 class from 1 root cause \[[0-9]+\]$")
  rows_fixed_clean=$(printf '%s\n' "$out" | grep -cE "^$fixed +[a-z-]+ +[0-9]+ +clean$")
  # The class list (one line a class), not the per-cell rows under it.
  classes=$(printf '%s\n' "$out" | grep -E '^  \[[A-Z][0-9]*\] \([0-9]+\) ' |
    grep -vE '^  \[[A-Z,]+\] +(debug|prod) ' |
    sed -E 's/^  \[[A-Z][0-9]*\] \([0-9]+\) +[a-z-]+ +//' | sort -u)
  [[ $rows_affected -ge 1 ]] || fail "$name: no $affected cell reports exactly one class:
$out"
  [[ $rows_fixed_clean -ge 1 ]] || fail "$name: no clean $fixed cell:
$out"
  [[ "$classes" == "$title"* ]] && [[ $(printf '%s\n' "$classes" | wc -l) -eq 1 ]] ||
    fail "$name: classes are not just '$title': $classes"
  local token replay
  token=$(printf '%s\n' "$out" | grep -oE "sq1:[^ ]*:$affected/[^ ]*" | head -n 1)
  [[ -n "$token" ]] || fail "$name: no replay token for $affected"
  replay="$("$bin" repro --image "$image" "$token" 2>&1)"
  [[ "$(printf '%s\n' "$replay" | head -n 1)" == "$title" ]] ||
    fail "$name: the token does not replay the report: $(printf '%s\n' "$replay" | head -n 3)"
}

# Linux 6.1.y's squashfs_readahead computes `expected` from `start`, which
# it never advances: a window from the first block into the tail fragment
# copies a whole block's worth of the shared fragment into the last page.
# Fixed in v6.12.
expect_finding readahead-tail linux-6.1 linux-6.12 "$images/readahead_tail.sqfs" \
  "squashlab: the last page is not zero past EOF"

if [[ $failures -gt 0 ]]; then
  echo "$failures failure(s)"
  exit 1
fi
echo "every finding found, every fixed kernel clean"
