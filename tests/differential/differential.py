#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""This file implements the differential test driver: it builds source
trees, packs them with every producer and option set of a suite, runs the
per-image checks (checks.py), prints a summary table and fails with the
differences when squashlab disagrees with the kernel, unsquashfs or the
source.

Usage: differential.py SUITE   (SUITE: compressors, options, ng, large)
Honours Bazel's sharding protocol (TEST_TOTAL_SHARDS / TEST_SHARD_INDEX).
"""

import os
import random
import signal
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import checks  # noqa: E402
import snapshot  # noqa: E402
import trees  # noqa: E402
from env import Env  # noqa: E402

# (name, producer, arguments). Compressor options are spread over the suites
# so that each codec's stored options get read too.
SUITES = {
    "compressors": [
        ("mksquashfs-gzip", "mksquashfs", ["-comp", "gzip"]),
        ("mksquashfs-xz", "mksquashfs", ["-comp", "xz"]),
        ("mksquashfs-lzo", "mksquashfs", ["-comp", "lzo"]),
        ("mksquashfs-lz4", "mksquashfs", ["-comp", "lz4"]),
        ("mksquashfs-zstd", "mksquashfs", ["-comp", "zstd"]),
    ],
    "options": [
        ("b4K-gzip", "mksquashfs", ["-comp", "gzip", "-b", "4K"]),
        ("b64K-lz4-hc", "mksquashfs", ["-comp", "lz4", "-b", "64K", "-Xhc"]),
        ("b1M-zstd", "mksquashfs", ["-comp", "zstd", "-b", "1M"]),
        ("noIDFX-xz", "mksquashfs", ["-comp", "xz", "-noI", "-noD", "-noF", "-noX"]),
        ("no-fragments-zstd", "mksquashfs", ["-comp", "zstd", "-no-fragments"]),
        ("always-frag-lzo", "mksquashfs", ["-comp", "lzo", "-always-use-fragments"]),
        ("no-xattrs-gzip", "mksquashfs", ["-comp", "gzip", "-no-xattrs"]),
        ("nopad-lz4", "mksquashfs", ["-comp", "lz4", "-nopad"]),
        ("all-root-zstd", "mksquashfs", ["-comp", "zstd", "-all-root"]),
        ("b4K-uncomp-allfrag", "mksquashfs", ["-comp", "gzip", "-b", "4K", "-noI", "-noD",
                                             "-noF", "-noX", "-always-use-fragments"]),
        ("gzip-opts", "mksquashfs", ["-comp", "gzip", "-Xcompression-level", "1",
                                     "-Xwindow-size", "10", "-Xstrategy", "filtered"]),
        ("xz-bcj-dict", "mksquashfs", ["-comp", "xz", "-Xbcj", "x86,arm", "-Xdict-size", "50%"]),
        ("lzo-opts", "mksquashfs", ["-comp", "lzo", "-Xalgorithm", "lzo1x_999",
                                    "-Xcompression-level", "5"]),
        ("zstd-19", "mksquashfs", ["-comp", "zstd", "-Xcompression-level", "19"]),
        ("xz-b64K-no-exports", "mksquashfs", ["-comp", "xz", "-b", "64K", "-no-exports"]),
    ],
    "ng": [
        ("gensquashfs-zstd", "gensquashfs", ["-c", "zstd"]),
        ("gensquashfs-xz-b64K", "gensquashfs", ["-c", "xz", "-b", "65536"]),
        ("gensquashfs-gzip-notail", "gensquashfs", ["-c", "gzip", "-T"]),
        ("tar2sqfs-gzip", "tar2sqfs", ["-c", "gzip"]),
        ("tar2sqfs-lz4-b4K", "tar2sqfs", ["-c", "lz4", "-b", "4096"]),
    ],
    "large": [
        ("large-mksquashfs-zstd", "mksquashfs", ["-comp", "zstd"]),
        ("large-mksquashfs-gzip-b1M", "mksquashfs", ["-comp", "gzip", "-b", "1M"]),
        ("large-gensquashfs-lz4", "gensquashfs", ["-c", "lz4"]),
    ],
}


def _random_cases(count, seed0=1000):
    """Seeded random trees, each packed with seeded random options."""
    out = []
    for k in range(count):
        rng = random.Random(seed0 + k)
        bs = rng.choice((4096, 8192, 65536, 131072, 1 << 20))
        args = ["-comp", rng.choice(("gzip", "xz", "lzo", "lz4", "zstd")), "-b", str(bs)]
        args += rng.sample(["-no-fragments", "-always-use-fragments", "-noI", "-noD", "-noF",
                            "-noX", "-no-duplicates", "-no-exports", "-nopad", "-no-xattrs"],
                           rng.randrange(0, 4))
        if "-no-fragments" in args and "-always-use-fragments" in args:
            args.remove("-always-use-fragments")
        out.append(("random-%d" % (seed0 + k), "mksquashfs", args, ("random", seed0 + k, bs)))
    return out


SUITES["random"] = _random_cases(8)

SUBTREES = ("/links", "/odd names/-dir with ü", "/special", "/files/b4k+1",
            "/links/dangling")
LS_DIRS = ("/", "/bigdir", "/links", "/odd names")


def make_image(env, producer, args, src, image):
    if producer == "mksquashfs":
        argv = ["mksquashfs", src, image, "-noappend", "-quiet", "-no-progress"] + args
        return env.run(argv, timeout=300)
    if producer == "gensquashfs":
        argv = ["gensquashfs", "--pack-dir", src, "-k", "-x", "-q", "-f", "-j", "2"] + args
        return env.run(argv + [image], timeout=300)
    tar = src.rstrip("/") + ".tar"
    if not os.path.exists(tar):
        r = env.run(["tar", "--format=pax", "--xattrs", "--xattrs-include=*", "--numeric-owner",
                     "--sparse", "-C", src, "-cf", tar, "."], timeout=300)
        if r.rc != 0:
            return r
    with open(tar, "rb") as f:
        return env.run(["tar2sqfs", "-q", "-f"] + args + [image], stdin=f, timeout=300)


def fields_for(env):
    f = ["type", "mode", "mtime", "size", "content", "target", "rdev", "xattrs"]
    if env.is_root:
        f += ["uid", "gid"]
    return f


def select_cases(cases):
    total = int(os.environ.get("TEST_TOTAL_SHARDS", "1"))
    index = int(os.environ.get("TEST_SHARD_INDEX", "0"))
    status = os.environ.get("TEST_SHARD_STATUS_FILE")
    if status:
        open(status, "a").close()
    return [c for i, c in enumerate(cases) if i % total == index]


def print_table(reports, extra):
    cols = checks.CHECKS
    w0 = max([len("image")] + [len(r.name) for r in reports])
    widths = [max(len(c), 4) for c in cols]
    head = "  ".join(["image".ljust(w0)] + [c.ljust(w) for c, w in zip(cols, widths)] +
                     ["seconds"])
    print("\n" + head)
    print("-" * len(head))
    for r in reports:
        cells = [r.status.get(c, "-").ljust(w) for c, w in zip(cols, widths)]
        print("  ".join([r.name.ljust(w0)] + cells + ["%.1f" % extra.get(r.name, 0)]))
    print()


def main(argv):
    if len(argv) != 2 or argv[1] not in SUITES:
        sys.exit("usage: differential.py {%s}" % ",".join(SUITES))
    suite = argv[1]
    large = suite == "large"
    env = Env(want_tmpfs_mb=3072 if large else 1024)
    reports, seconds = [], {}
    try:
        for n in env.notes:
            print("NOTE:", n)
        cases = select_cases(SUITES[suite])
        print("suite %s: %d image(s): %s" % (suite, len(cases), ", ".join(c[0] for c in cases)))
        sources = {}

        def source_for(tree):
            if tree not in sources:
                src = env.path("src-%d" % len(sources))
                t0 = time.monotonic()
                if tree == "full":
                    trees.build_full_tree(src, env.caps)
                elif tree == "large":
                    trees.build_large_tree(src, env.caps)
                else:
                    trees.build_random_tree(src, env.caps, seed=tree[1], block_size=tree[2])
                for s in env.caps.skipped:
                    print("SKIPPED PART OF THE TREE:", s)
                env.caps.skipped.clear()
                snap = snapshot.Snapshot(src)
                print("source tree %s: %d entries, built in %.1fs" %
                      (tree, len(snap.entries), time.monotonic() - t0))
                sources[tree] = (src, snap)
            return sources[tree]
        checker = checks.ImageChecker(env, fields_for(env), timeout=600 if large else 120)
        for i, case in enumerate(cases):
            name, producer, args = case[:3]
            tree = case[3] if len(case) > 3 else ("large" if large else "full")
            src, source = source_for(tree)
            full = tree == "full"
            t0 = time.monotonic()
            image = env.path(name + ".sqfs")
            print("%s: %s %s" % (name, producer, " ".join(args)), flush=True)
            r = make_image(env, producer, args, src, image)
            if r.rc != 0:
                rep = checks.ImageReport(name)
                rep.set("extract~source", False, ["producer failed: " + r.describe()])
                reports.append(rep)
                continue
            rep = checker.check(name, image, source,
                                extract_jobs=(None, 1, 3)[i % 3],
                                subtrees=SUBTREES if full else (),
                                ls_dirs=LS_DIRS if full else ("/",))
            os.unlink(image)
            seconds[name] = time.monotonic() - t0
            reports.append(rep)
            print("%-28s %s (%.1fs)" % (name, "FAIL" if rep.failed() else "ok", seconds[name]),
                  flush=True)
        if env.mount_ok is False:
            print("NOTE: kernel comparison skipped: mount -o loop,ro -t squashfs failed: " +
                  env.mount_reason)
    finally:
        env.cleanup()
    print_table(reports, seconds)
    notes = sorted({n for r in reports for n in r.notes})
    for n in notes[:30]:
        print("note:", n)
    failed = [r for r in reports if r.failed()]
    for r in failed:
        print("\n==== %s: FAILED" % r.name)
        for check, d in r.details:
            print("  [%s] %s" % (check, d))
    print("\n%d image(s), %d failed" % (len(reports), len(failed)))
    return 1 if failed or not reports else 0


if __name__ == "__main__":
    # Bazel's timeout sends SIGTERM: unwind so that mounts and the tmpfs go.
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))
    sys.exit(main(sys.argv))
