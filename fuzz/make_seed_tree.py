#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""Builds the small source tree that the fuzz seed images pack: every inode
type mksquashfs stores, sparse and tail-end files, hard links, short and long
symlinks, shared xattrs (out-of-line values) and a directory large enough to
carry a directory index, while each image stays small.

usage: make_seed_tree.py DIR
"""
import os
import sys


def pattern(seed, size):
    return bytes((i * 131 + seed) % 251 for i in range(size))


def main():
    root = sys.argv[1]
    os.makedirs(root)
    files = {
        "empty": b"",
        "small": pattern(1, 100),
        "block4k": pattern(2, 4096),
        "tail": pattern(3, 5000),
        "mixed": pattern(4, 9000),
        "text": "".join("line %d\n" % i for i in range(2500)).encode(),
    }
    for name, data in files.items():
        with open(os.path.join(root, name), "wb") as f:
            f.write(data)
    with open(os.path.join(root, "sparse"), "wb") as f:
        f.seek(300 * 1024)
        f.write(b"end")
    os.link(os.path.join(root, "small"), os.path.join(root, "small_link"))
    os.symlink("small", os.path.join(root, "sym"))
    os.symlink("../" * 100, os.path.join(root, "long_sym"))
    os.mkfifo(os.path.join(root, "fifo"))
    wide = os.path.join(root, "wide")
    os.mkdir(wide)
    for i in range(700):
        open(os.path.join(wide, "n%03d_padding" % i), "w").close()
    deep = root
    for i in range(5):
        deep = os.path.join(deep, "d%d" % i)
    os.makedirs(deep)
    with open(os.path.join(deep, "leaf"), "w") as f:
        f.write("leaf")
    os.chmod(os.path.join(root, "small"), 0o4750)
    try:
        for name in ("small", "tail", "wide"):
            p = os.path.join(root, name)
            os.setxattr(p, "user.color", b"blue")
            os.setxattr(p, "user.shared", pattern(7, 600))
    except OSError:
        pass  # a file system without user xattrs: the images just lack them


if __name__ == "__main__":
    main()
