#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""Builds the small source tree that squashlab's unit tests pack with
mksquashfs. Every file's content follows a formula that the C++ tests
recompute (testdata/expected_tree.h), so no expected bytes are stored.

usage: make_tree.py DIR
"""
import os
import sys

BASE_MTIME = 1577934245  # 2020-01-02 03:04:05 UTC


def pattern(seed, size):
    # Must match ExpectedPattern() in testdata/expected_tree.h.
    return bytes((i * 131 + seed) % 251 for i in range(size))


def main():
    root = sys.argv[1]
    os.makedirs(root)
    files = {
        "empty": pattern(0, 0),
        "small": pattern(1, 100),
        "block": pattern(2, 131072),
        "block_minus_1": pattern(3, 131071),
        "block_plus_1": pattern(4, 131073),
        "big": pattern(5, 700000),
        "suid": pattern(6, 10),
    }
    for name, data in files.items():
        with open(os.path.join(root, name), "wb") as f:
            f.write(data)
    with open(os.path.join(root, "text"), "w") as f:
        f.write("".join("line %d of a compressible text\n" % i for i in range(20000)))
    # 1 MiB of holes, then three bytes: whole sparse blocks in the block list.
    with open(os.path.join(root, "sparse"), "wb") as f:
        f.seek(1 << 20)
        f.write(b"end")
    os.link(os.path.join(root, "big"), os.path.join(root, "big_link"))
    os.symlink("big", os.path.join(root, "sym"))
    os.symlink("x" * 3000, os.path.join(root, "long_sym"))
    os.symlink("no/such/target", os.path.join(root, "dangling"))
    os.mkfifo(os.path.join(root, "fifo"))
    many = os.path.join(root, "many")
    os.mkdir(many)
    for i in range(1000):
        with open(os.path.join(many, "entry_%04d" % i), "w") as f:
            f.write("entry_%04d" % i)
    deep = root
    for i in range(20):
        deep = os.path.join(deep, "d%d" % i)
    os.makedirs(deep)
    with open(os.path.join(deep, "leaf"), "w") as f:
        f.write("leaf")
    os.chmod(os.path.join(root, "small"), 0o640)
    os.chmod(os.path.join(root, "suid"), 0o4755)
    try:
        os.setxattr(os.path.join(root, "small"), "user.color", b"blue")
        os.setxattr(os.path.join(root, "small"), "user.big", pattern(7, 3000))
    except OSError as e:
        sys.exit("make_tree.py: this file system refuses user xattrs: %s" % e)
    # Fixed times, deepest first so that parents keep theirs.
    paths = []
    for dirpath, dirnames, filenames in os.walk(root):
        paths += [os.path.join(dirpath, n) for n in dirnames + filenames]
    for i, p in enumerate(sorted(paths, key=len, reverse=True) + [root]):
        os.utime(p, (BASE_MTIME + i, BASE_MTIME + i), follow_symlinks=False)


if __name__ == "__main__":
    main()
