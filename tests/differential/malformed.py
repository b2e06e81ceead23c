#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""This file implements the command-line checks of malformed images and of
the exit-code contract: truncated images, superblock fields set off one at a
time, unsafe directory entries ('..', names with '/', duplicates that would
lead extraction through a symlink, a directory loop) and seeded byte flips.
Every run must end with a clean message and the right exit code: never a
signal, never a hang, never a write outside DEST.

Exit codes: 0 ok, 1 path not found, 2 usage, 3 corrupt or unsupported image,
4 host I/O error.
"""

import os
import random
import signal
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import squashfs_bytes as sb  # noqa: E402
from env import Env, rmtree  # noqa: E402

TIMEOUT = 20
SANITIZER_WORDS = (b"AddressSanitizer", b"runtime error:", b"terminate called",
                   b"Assertion", b"Segmentation", b"core dumped")


class Checker:
    def __init__(self, env):
        self.env = env
        self.rows = []  # (case, command, expected, got, ok)
        self.failures = []
        self.canary = env.path("canary")
        os.makedirs(self.canary)

    def run(self, case, image, command, expect):
        """Runs one command on `image`; expect: an int or a set of allowed codes."""
        env = self.env
        xparent = env.path("x")
        rmtree(xparent)
        os.makedirs(xparent)
        argv = {"info": ["info", image], "ls": ["ls", "-l", "-R", image],
                "extract": ["extract", "-p", "2", image, os.path.join(xparent, "dest")],
                "cat": ["cat", image, "/files/a", "/files/small"]}[command]
        r = env.run(env.squashlab_cmd(*argv), timeout=TIMEOUT)
        allowed = {expect} if isinstance(expect, int) else set(expect)
        problems = []
        if r.timed_out:
            problems.append("hang (killed after %ds)" % TIMEOUT)
        elif r.rc < 0:
            problems.append("killed by signal %d" % -r.rc)
        elif r.rc not in allowed:
            problems.append("exit %d, expected %s" % (r.rc, "/".join(map(str, sorted(allowed)))))
        if r.rc > 0 and not r.timed_out:
            first = r.err.split(b"\n", 1)[0]
            if not first.startswith(b"squashlab: "):
                problems.append("stderr does not start with 'squashlab: ': %r" % r.err[:200])
        if any(w in r.err for w in SANITIZER_WORDS):
            problems.append("crash report on stderr")
        stray = sorted(set(os.listdir(xparent)) - {"dest"}) + sorted(os.listdir(self.canary))
        if stray:
            problems.append("wrote outside DEST: %s" % stray)
            rmtree(self.canary)
            os.makedirs(self.canary)
        rmtree(xparent)
        ok = not problems
        self.rows.append((case, command, "/".join(map(str, sorted(allowed))),
                          "timeout" if r.timed_out else str(r.rc), ok))
        if not ok:
            self.failures.append("%s / %s: %s\n      %s" % (case, command, "; ".join(problems),
                                                            r.describe()))
        return r


def build_images(env):
    src = env.path("src")
    os.makedirs(os.path.join(src, "files"))
    with open(os.path.join(src, "files", "a"), "wb") as f:
        f.write(random.Random(3).randbytes(300000) + b"tail" * 1000)
    with open(os.path.join(src, "files", "small"), "wb") as f:
        f.write(b"small file in a fragment\n")
    try:
        os.setxattr(os.path.join(src, "files", "small"), "user.k", b"xattr value")
    except OSError as e:
        print("NOTE: no xattr in the malformed images' tree:", e)
    os.makedirs(os.path.join(src, "PR"))  # becomes a duplicate of the symlink PQ
    with open(os.path.join(src, "PR", "escaped"), "wb") as f:
        f.write(b"must never land in the canary directory\n")
    os.symlink(env.path("canary"), os.path.join(src, "PQ"))
    os.makedirs(os.path.join(src, "LP"))  # becomes a loop back to the root
    with open(os.path.join(src, "PS"), "wb") as f:
        f.write(b"renamed to contain a slash\n")
    images = {}
    for name, opts in (("gzip", ["-comp", "gzip"]),
                       ("raw", ["-comp", "gzip", "-noI", "-noD", "-noF", "-noX", "-no-xattrs"]),
                       ("zstd-b4K", ["-comp", "zstd", "-b", "4K"])):
        path = env.path(name + ".sqfs")
        r = env.run(["mksquashfs", src, path, "-noappend", "-quiet", "-no-progress"] + opts)
        if r.rc != 0:
            sys.exit("FATAL: " + r.describe())
        with open(path, "rb") as f:
            images[name] = f.read()
    return images


def write(env, name, data):
    path = env.path("case-" + name + ".sqfs")
    with open(path, "wb") as f:
        f.write(data)
    return path


ALL = ("info", "ls", "extract", "cat")


def superblock_cases(img):
    """(name, bytes, commands that must give exit 3)."""
    used = sb.get(img, "bytes_used")
    yield "magic=0", sb.put(img, "magic", 0), ALL
    yield "version_major=3", sb.put(img, "version_major", 3), ALL
    yield "version_minor=1", sb.put(img, "version_minor", 1), ALL
    yield "block_size=3000", sb.put(img, "block_size", 3000), ALL
    yield "block_size=2M,log=21", sb.put(sb.put(img, "block_size", 2 << 20), "block_log", 21), ALL
    yield "block_size=2K,log=11", sb.put(sb.put(img, "block_size", 2048), "block_log", 11), ALL
    yield "block_log=16", sb.put(img, "block_log", 16), ALL
    yield "compression_id=0", sb.put(img, "compression_id", 0), ALL
    yield "compression_id=7", sb.put(img, "compression_id", 7), ALL
    yield "compression_id=0xffff", sb.put(img, "compression_id", 0xFFFF), ALL
    yield "bytes_used=size+1", sb.put(img, "bytes_used", len(img) + 1), ALL
    yield "bytes_used=2^63", sb.put(img, "bytes_used", 1 << 63), ALL
    yield "bytes_used=0", sb.put(img, "bytes_used", 0), ALL
    yield "id_table_start>bytes_used", sb.put(img, "id_table_start", used + 64), ALL
    yield "inode_table_start=2^64-1", sb.put(img, "inode_table_start", (1 << 64) - 1), ALL
    it, dt = sb.get(img, "inode_table_start"), sb.get(img, "directory_table_start")
    swapped = sb.put(sb.put(img, "inode_table_start", dt), "directory_table_start", it)
    yield "inode/directory tables swapped", swapped, ALL
    yield "directory_table_start>bytes_used", sb.put(img, "directory_table_start", used + 8), ALL
    yield "fragment_table_start>bytes_used", sb.put(img, "fragment_table_start", used + 8), \
        ("ls", "extract", "cat")
    yield "root_inode_ref past table", sb.put(img, "root_inode_ref", 0xFFFFFF << 16), \
        ("ls", "extract", "cat")
    root = sb.get(img, "root_inode_ref")
    yield "root_inode_ref offset 8191", sb.put(img, "root_inode_ref", (root & ~0xFFFF) | 8191), \
        ("ls", "extract", "cat")
    yield "id_count=0", sb.put(img, "id_count", 0), ("ls", "extract")
    yield "inode_count=0", sb.put(img, "inode_count", 0), ("ls", "extract")
    yield "fragment_entry_count=0", sb.put(img, "fragment_entry_count", 0), ("extract", "cat")


def _put_u64(img, pos, value):
    out = bytearray(img)
    out[pos:pos + 8] = value.to_bytes(8, "little")
    return bytes(out)


def table_cases(img):
    """Lookup tables whose index entries or counts are off."""
    used = sb.get(img, "bytes_used")
    yield "id index -> past the image", _put_u64(img, sb.get(img, "id_table_start"), used + 4096), \
        ("ls", "extract")
    yield "id index -> superblock", _put_u64(img, sb.get(img, "id_table_start"), 0), \
        ("ls", "extract")
    yield "fragment index -> past the image", \
        _put_u64(img, sb.get(img, "fragment_table_start"), used + 4096), ("extract", "cat")
    yield "id_count=0xffff", sb.put(img, "id_count", 0xFFFF), ("ls", "extract")
    yield "fragment_entry_count=2^32-1", sb.put(img, "fragment_entry_count", 0xFFFFFFFF), \
        ("extract", "cat")
    yield "inode_count=2^32-1", sb.put(img, "inode_count", 0xFFFFFFFF), ()
    xt = sb.get(img, "xattr_id_table_start")
    if xt != (1 << 64) - 1:
        yield "xattr table start -> past the image", _put_u64(img, xt, used + 4096), ("extract",)
        out = bytearray(img)
        out[xt + 8:xt + 12] = (0xFFFFFFFF).to_bytes(4, "little")
        yield "xattr id count=2^32-1", bytes(out), ("extract",)


def truncation_cases(img):
    used = sb.get(img, "bytes_used")
    for n in (0, 1, 95, 96, 200, used // 2, used - 1):
        yield "truncated to %d of %d" % (n, used), img[:n], ALL


def entry_cases(raw):
    listing = sb.RootListing(raw)
    yield "name '..'", listing.rename(b"PS", b".."), ("ls", "extract")
    yield "name with '/'", listing.rename(b"PS", b"P/"), ("ls", "extract")
    yield "duplicate name (symlink + dir)", listing.rename(b"PR", b"PQ"), ("ls", "extract")
    yield "directory loop", listing.point_at_root(b"LP"), ("ls", "extract")


def flip_cases(img, label, count, seed):
    """Seeded single-byte changes in the metadata tables (and some data)."""
    rng = random.Random(seed)
    start = sb.get(img, "inode_table_start")
    used = sb.get(img, "bytes_used")
    for i in range(count):
        pos = rng.randrange(start, used) if i % 4 else rng.randrange(96, used)
        out = bytearray(img)
        out[pos] ^= 1 << rng.randrange(8) if i % 2 else rng.randrange(1, 256)
        yield "%s flip #%d @%d" % (label, i, pos), bytes(out)


def contract_cases(ck, env, good):
    missing = env.path("does-not-exist.sqfs")
    sq = env.squashlab_cmd
    for argv, want, what in (
            (sq("ls", good, "/no/such/path"), 1, "ls of a missing path"),
            (sq("cat", good, "/files/nope"), 1, "cat of a missing path"),
            (sq("extract", good, env.path("xd"), "/nope"), 1, "extract of a missing path"),
            (sq(), 2, "no arguments"), (sq("frobnicate", good), 2, "unknown command"),
            (sq("cat"), 2, "cat without image"), (sq("ls", "-Z", good), 2, "unknown option"),
            (sq("cat", "-p", "0", good, "/files/a"), 2, "cat -p 0"),
            (sq("extract", "-p", "x", good, env.path("xd")), 2, "extract -p x"),
            (sq("info", missing), 4, "image that does not exist"),
            (sq("extract", good, "/proc/version/dest"), 4, "DEST that cannot be created")):
        r = env.run(argv, timeout=TIMEOUT)
        # Usage errors may print the usage text; other errors the one-line form.
        ok = r.rc == want and (r.err.startswith(b"squashlab: ") or (want == 2 and r.err))
        if want == 1 and ok:
            ok = good.encode() in r.err.split(b"\n", 1)[0]  # squashlab: IMG: PATH: reason
        ck.rows.append(("contract: " + what, " ".join(argv[1:2]), str(want), str(r.rc), ok))
        if not ok:
            ck.failures.append("contract: %s: %s" % (what, r.describe()))
    rmtree(env.path("xd"))
    # A symlink already in DEST where the image has a directory: extraction
    # must not follow it (any exit code but a crash; nothing in the canary).
    dest = env.path("xd")
    os.makedirs(dest)
    os.symlink(ck.canary, os.path.join(dest, "files"))
    r = env.run(sq("extract", good, dest), timeout=TIMEOUT)
    leaked = os.listdir(ck.canary)
    ok = r.rc >= 0 and not r.timed_out and not leaked
    ck.rows.append(("contract: symlink planted in DEST not followed", "extract", "0/3/4",
                    str(r.rc), ok))
    if not ok:
        ck.failures.append("contract: extract followed a symlink planted in DEST (canary "
                           "holds %s): %s" % (leaked, r.describe()))
    rmtree(dest)
    rmtree(ck.canary)
    os.makedirs(ck.canary)


def main():
    env = Env(want_tmpfs_mb=256)
    try:
        ck = Checker(env)
        images = build_images(env)
        good = write(env, "good", images["gzip"])
        for c in ALL:
            ck.run("valid image", good, c, 0)
        contract_cases(ck, env, good)
        for label, img in images.items():
            cases = list(superblock_cases(img)) + list(table_cases(img)) + \
                list(truncation_cases(img))
            for name, data, must in cases:
                path = write(env, "case", data)
                for c in ALL:
                    ck.run("%s: %s" % (label, name), path, c, 3 if c in must else (0, 1, 3))
        for name, data, must in entry_cases(images["raw"]):
            path = write(env, "case", data)
            for c in ALL:
                ck.run("raw: " + name, path, c, 3 if c in must else (0, 1, 3))
        for label, img in images.items():
            for name, data in flip_cases(img, label, 25, seed=len(label)):
                path = write(env, "case", data)
                for c in ("ls", "extract", "cat"):
                    ck.run(name, path, c, (0, 1, 3))
    finally:
        env.cleanup()
    w = max(len(r[0]) for r in ck.rows)
    print("%s  %-8s %-8s %-8s %s" % ("case".ljust(w), "command", "expect", "exit", "result"))
    for case, cmd, want, got, ok in ck.rows:
        if not ok or not case.split(" flip #")[0] in ("gzip", "raw", "zstd-b4K"):
            print("%s  %-8s %-8s %-8s %s" % (case.ljust(w), cmd, want, got, "ok" if ok else "FAIL"))
    flips = [r for r in ck.rows if " flip #" in r[0]]
    print("\nbyte flips: %d runs, exit codes %s, %d failed" %
          (len(flips), sorted({r[3] for r in flips}), sum(1 for r in flips if not r[4])))
    print("\n%d runs, %d failed" % (len(ck.rows), len(ck.failures)))
    for f in ck.failures:
        print("FAIL:", f)
    return 1 if ck.failures else 0


if __name__ == "__main__":
    # Bazel's timeout sends SIGTERM: unwind so that mounts and the tmpfs go.
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))
    sys.exit(main())
