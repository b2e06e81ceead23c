#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""Builds the small tree of squashlab verify's embedded image: files a few
8K blocks long, so that a run is a few hundred scheduling points, and
compressed blocks are small enough that neighbouring blocks share 1K device
blocks (the sharing the 2013 patch's b_private handling gets wrong).

usage: make_small_tree.py DIR
"""
import os
import random
import sys


def text(seed, size):
    rnd = random.Random(seed)
    words = ["squashfs", "readpage", "block", "page", "cache", "buffer", "lock",
             "decompress", "async", "work", "bio", "fragment", "zlib", "dd"]
    out = []
    n = 0
    while n < size:
        w = rnd.choice(words) + (" " if rnd.random() < 0.8 else "\n")
        out.append(w)
        n += len(w)
    return "".join(out)[:size].encode()


def main():
    root = sys.argv[1]
    os.makedirs(root)
    files = {
        "a": text(1, 6 * 8192),                 # 6 compressed blocks
        "b": text(2, 2 * 8192 + 3000),          # 2 blocks + a tail in a fragment (-tailends)
        "t": text(5, 3000),                     # a small file: all in the fragment block
        "u": random.Random(3).randbytes(2 * 8192),  # 2 uncompressed blocks
    }
    for name, data in files.items():
        with open(os.path.join(root, name), "wb") as f:
            f.write(data)
    with open(os.path.join(root, "s"), "wb") as f:  # a sparse block, then data
        f.seek(8192)
        f.write(text(4, 8192))
    for name in list(files) + ["s"]:
        os.utime(os.path.join(root, name), (1577934245, 1577934245))


if __name__ == "__main__":
    main()
