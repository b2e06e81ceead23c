#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# The kernel bugs `squashlab fuzz` found in the unmodified trees
# (docs/findings.md 4, 5 and 6) stay found: each committed image, walked
# once, reports its title on the kernels it affects and nothing on the
# other (6.1 for finding 4: it zeroes the page; 6.12 for finding 6: its
# loop index is 64-bit).
set -euo pipefail
bin="$TEST_SRCDIR/squashlab/cli/squashlab"
dir="$TEST_SRCDIR/squashlab/fuzz/findings"
fails=0

expect() {  # IMAGE VARIANT TITLE ("" for clean)
  local out rc
  set +e
  out=$("$bin" fuzz --replay "$dir/$1" --variant "$2" 2>&1)
  rc=$?
  set -e
  if [ -z "$3" ]; then
    if [ "$rc" -eq 0 ]; then echo "ok: $1 on $2: clean"; return; fi
    echo "FAIL: $1 on $2: exit $rc, want 0 (clean)"; echo "$out"
  else
    if [ "$rc" -eq 1 ] && grep -qF "$3" <<<"$out"; then
      echo "ok: $1 on $2: $3"; return
    fi
    echo "FAIL: $1 on $2: exit $rc, want 1 and /$3/"; echo "$out"
  fi
  fails=$((fails + 1))
}

expect real_code_huge_size_uninit_tail.sqfs linux-6.12 \
  "BUG: KMSAN: kernel-infoleak in _copy_to_iter"
expect real_code_huge_size_uninit_tail.sqfs linux-6.1 ""
expect real_code_huge_size_locked_page.sqfs linux-6.12 \
  "INFO: task syz-executor blocked for more than 120 seconds."
expect real_code_huge_size_locked_page.sqfs linux-6.1 \
  "INFO: task syz-executor blocked for more than 120 seconds."

expect real_code_huge_size_page_array_overflow.sqfs linux-6.1 \
  "BUG: KASAN: slab-out-of-bounds in squashfs_readpage_block"
expect real_code_huge_size_page_array_overflow.sqfs linux-6.12 ""

[ "$fails" -eq 0 ] || { echo "$fails failure(s)"; exit 1; }
