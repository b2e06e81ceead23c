#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# This file reproduces, on the running kernel and without squashlab, the
# Linux 6.1.y squashfs_readahead bug that puts another file's bytes past
# EOF in a file's last page (docs/findings.md). It builds a small image
# (8 KiB blocks, tail ends packed into one shared fragment block), mounts
# it read-only through a loop device, maps the last page of file `a` and
# prints what lies past EOF: zeros on a correct kernel.
#   tools/repro/readahead_tail_past_eof.sh            # as root: the check
#   tools/repro/readahead_tail_past_eof.sh --image-only OUT.sqfs
# REPRO_BLOCK_SIZE=128K (mksquashfs's default block size) makes the same
# pair of files at 300,000 and 140,000 bytes in 128 KiB blocks instead.
# Exit status: 0 not affected, 1 affected, 2 the check could not run.
set -euo pipefail

block=${REPRO_BLOCK_SIZE:-8K}
case $block in
  8K) size_a=12000 size_b=9000 ;;
  128K) size_a=300000 size_b=140000 ;;
  *) echo "REPRO_BLOCK_SIZE: 8K or 128K" >&2; exit 2 ;;
esac

work=$(mktemp -d)
mnt=$work/mnt
cleanup() {
  mountpoint -q "$mnt" 2>/dev/null && umount "$mnt"
  rm -rf "$work"
}
trap cleanup EXIT

# Two files of one full block and a tail each; both tails fit in one
# fragment block, a's first. Bytes are never zero, so any byte past EOF
# that came from b shows.
make_image() {  # OUT
  mkdir -p "$work/tree"
  python3 - "$work/tree" "$size_a" "$size_b" <<'PY'
import sys
d, size_a, size_b = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
open(d + "/a", "wb").write(bytes((i * 7 + 3) % 251 + 1 for i in range(size_a)))
open(d + "/b", "wb").write(bytes((i * 13 + 5) % 241 + 1 for i in range(size_b)))
PY
  mksquashfs "$work/tree" "$1" -noappend -quiet -no-progress -b "$block" -tailends \
    -comp gzip -mkfs-time 0 -all-time 0 -all-root >/dev/null
}

if [ "${1:-}" = "--image-only" ]; then
  [ $# -eq 2 ] || { echo "usage: $0 --image-only OUT.sqfs" >&2; exit 2; }
  make_image "$2"
  exit 0
fi

command -v mksquashfs >/dev/null || { echo "needs mksquashfs (squashfs-tools)" >&2; exit 2; }
[ "$(id -u)" -eq 0 ] || { echo "needs root (a loop mount)" >&2; exit 2; }
make_image "$work/img.sqfs"
mkdir "$mnt"
if ! mount -o loop,ro -t squashfs "$work/img.sqfs" "$mnt" 2>"$work/err"; then
  echo "cannot loop-mount a squashfs image here: $(cat "$work/err")" >&2
  exit 2
fi
echo "kernel $(uname -r): mapping the last page of a ($size_a bytes, $block blocks, tail in a shared fragment)"
# A fault on the last page reads the file through ->readahead from page 0:
# on 6.1.y, squashfs_readahead copies a whole block's worth of the
# fragment block into the last page instead of the file's tail.
python3 - "$mnt/a" <<'PY'
import ctypes, mmap, os, sys
libc = ctypes.CDLL(None, use_errno=True)
libc.mmap.restype = ctypes.c_void_p
libc.mmap.argtypes = [ctypes.c_void_p, ctypes.c_size_t, ctypes.c_int,
                      ctypes.c_int, ctypes.c_int, ctypes.c_long]
page = os.sysconf("SC_PAGE_SIZE")
fd = os.open(sys.argv[1], os.O_RDONLY)
size = os.fstat(fd).st_size
last = (size - 1) // page * page
p = libc.mmap(None, page, mmap.PROT_READ, mmap.MAP_SHARED, fd, last)
if p in (None, ctypes.c_void_p(-1).value):
    sys.exit("mmap failed: errno %d" % ctypes.get_errno())
past = ctypes.string_at(p + (size - last), page - (size - last))
nonzero = [i for i, b in enumerate(past) if b]
if not nonzero:
    print("not affected: the %d bytes past EOF are zero" % len(past))
    sys.exit(0)
print("AFFECTED: %d of the %d bytes past EOF are not zero; first at EOF+%d: %s"
      % (len(nonzero), len(past), nonzero[0],
         past[nonzero[0]:nonzero[0] + 16].hex(" ")))
sys.exit(1)
PY
