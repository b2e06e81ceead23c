#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# Checks docs/findings.md 4 and 5 on the running kernel, as root, with
# only a shell and coreutils or busybox: each image beside this script is
# loop-mounted read-only; for finding 4 the 3,096 bytes of file b's block 2
# past its 1,000 bytes of data must be zeros; for finding 5 a read of
# file t's last bytes must return within 20 s. Boot with init_on_alloc=0
# to see finding 4's stale bytes on a kernel that zeroes new pages.
# Exit status: 0 not affected, 1 affected, 2 could not run.
dir=$(cd "$(dirname "$0")" && pwd)
mnt=${MNT:-/mnt}
status=0
mount -o loop,ro -t squashfs "$dir/real_code_huge_size_uninit_tail.sqfs" "$mnt" || exit 2
nonzero=$(dd if="$mnt/b" bs=4096 skip=2 count=1 2>/dev/null | tail -c 3096 |
  od -An -tx1 -v | tr -s ' ' '\n' | grep -v -e '^$' -e '^00$' | wc -l)
umount "$mnt"
if [ "$nonzero" -eq 0 ]; then
  echo "finding 4: not affected (or the page was zeroed when allocated)"
else
  echo "finding 4: AFFECTED: $nonzero of the 3096 bytes past b's data are not zero"
  status=1
fi
mount -o loop,ro -t squashfs "$dir/real_code_huge_size_locked_page.sqfs" "$mnt" || exit 2
timeout -s KILL 20 tail -c 100 "$mnt/t" >/dev/null
rc=$?
if [ "$rc" -eq 137 ]; then
  # The page stays locked: unmounting would wait for it for good.
  echo "finding 5: AFFECTED: reading t's last page did not return in 20 s (the mount is left in place)"
  status=1
else
  umount "$mnt"
  echo "finding 5: not affected (tail exited $rc)"
fi
exit $status
