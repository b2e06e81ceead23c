#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""Writes a tree of one larger file and several small ones (whose tails
share fragment blocks), with deterministic contents, into argv[1]."""
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


if __name__ == "__main__":
    main()
