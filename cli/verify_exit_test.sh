#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# This file tests `squashlab verify`'s exit status on small budgets: 0 when
# every verdict is as expected, 1 when a violation is found where none was
# expected (or none where one was), 2 for usage errors.
set -uo pipefail
bin="${TEST_SRCDIR:-}/squashlab/cli/squashlab"
[[ -x "$bin" ]] || bin="${SQUASHLAB:-bazel-bin/cli/squashlab}"
failures=0

expect_exit() {  # WANT ARGS...
  local want="$1"
  shift
  "$bin" verify "$@" >/dev/null 2>&1
  local rc=$?
  if [[ $rc -ne $want ]]; then
    echo "FAIL: squashlab verify $*: exit $rc, expected $want"
    failures=$((failures + 1))
  fi
}

# async-2013 fails within a few dozen schedules (a page left locked).
expect_exit 1 --variant async-2013 --decomp single --budget 60
expect_exit 0 --variant async-2013 --decomp single --budget 60 --expect async-2013=fail
expect_exit 0 --variant sync-3.13 --decomp single --budget 30
expect_exit 1 --variant sync-3.13 --decomp single --budget 30 --expect sync-3.13=fail
expect_exit 0 --variant sync-3.13 --variant async-2013 --decomp single --budget 60 \
  --expect async-2013=fail
expect_exit 1 --variant async-2013 --decomp single --budget 60 --first-only
expect_exit 2 --variant async-2013 --expect async-2013
expect_exit 2 --budget 1 --strategy nosuch
# The data-race detector needs a tree built here (--source), its
# watchpoints the detector.
expect_exit 2 --variant linux-6.12 --decomp single --budget 1 --detector kcsan
expect_exit 2 --variant sync-3.13 --decomp single --budget 1 --watchpoints
expect_exit 2 --budget 1 --detector nosuch
# --without-workload trims --source's default job: not without --source.
expect_exit 2 --variant sync-3.13 --decomp single --budget 1 \
  --without-workload mmap

# The bitflip plan only on images whose codec checks what it decodes: a flip
# in a zstd block is wrong bytes the kernel returns too (a usage error, with
# the reason), in an xz block an error the read path must turn into EIO.
images="${TEST_SRCDIR:-}/squashlab/testdata"
expect_exit 2 --variant sync-3.13 --decomp single --budget 20 --faults bitflip \
  --image "$images/tree_zstd.sqfs"
msg="$("$bin" verify --variant sync-3.13 --decomp single --budget 20 \
  --faults bitflip --image "$images/tree_lz4.sqfs" 2>&1)"
[[ "$msg" == *"bitflip plan needs an image whose codec checks"* ]] || {
  echo "FAIL: no reason for refusing bitflip on lz4: $msg"
  failures=$((failures + 1))
}
expect_exit 0 --variant sync-3.13 --variant linux-6.12 --decomp single \
  --budget 20 --faults bitflip --image "$images/tree_xz.sqfs"

# The verdict reads from the end: the table, then one summary line (six
# hand-written read paths and the two real kernels, one strategy each); the
# listings only with -v.
out="$("$bin" verify --decomp single --budget 40 --expect async-2013=fail 2>/dev/null)"
last="$(printf '%s\n' "$out" | tail -n 1)"
[[ "$last" == "verdict: 8 cells in "*": as expected" ]] || {
  echo "FAIL: the last line is not the summary: $last"
  failures=$((failures + 1))
}
[[ "$(printf '%s\n' "$out" | grep -c '^async-2013 ')" -eq 1 ]] || {
  echo "FAIL: no table row for async-2013"
  failures=$((failures + 1))
}
[[ "$out" != *"# tracer:"* ]] || {
  echo "FAIL: ftrace listings without -v"
  failures=$((failures + 1))
}
verbose="$("$bin" verify --variant async-2013 --decomp single --budget 40 -v 2>/dev/null)"
[[ "$verbose" == *"# tracer:"* ]] || {
  echo "FAIL: no ftrace listing with -v"
  failures=$((failures + 1))
}

[[ $failures -eq 0 ]] || exit 1
echo PASS
