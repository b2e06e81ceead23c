#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""Writes a tree of one larger file, several small ones (whose tails share
fragment blocks) and one whose first 8K block is a hole (a sparse block),
with deterministic contents, into argv[1]."""
import os
import random
import sys


def main():
    root = sys.argv[1]
    os.makedirs(root, exist_ok=True)
    r = random.Random(7)
    with open(os.path.join(root, "big"), "wb") as f:
        f.write(bytes(r.getrandbits(8) % 16 for _ in range(40000)))
    for i in range(6):
        with open(os.path.join(root, "f%d" % i), "wb") as f:
            f.write(bytes(r.getrandbits(8) % 16 for _ in range(1200 + i * 100)))
    h = random.Random(11)
    with open(os.path.join(root, "holey"), "wb") as f:
        f.seek(8192)
        f.write(bytes(h.getrandbits(8) % 16 for _ in range(5000)))


if __name__ == "__main__":
    main()
