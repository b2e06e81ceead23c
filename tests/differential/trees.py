# SPDX-License-Identifier: GPL-2.0-only
"""This file implements the source trees of the differential tests: small
directory trees that exercise every SquashFS feature a producer can store
(file sizes around block boundaries, sparse files, hard links, long and
dangling symlinks, large directories, odd names, special files, xattrs,
modes, owners and mtimes).

Everything is deterministic: contents come from a seeded PRNG, so a failure
reproduces from the same tree.
"""

import os
import random
import socket
import stat

KIB = 1024
MIB = 1024 * KIB
GIB = 1024 * MIB

# Block sizes of the option matrix; files sit at B-1, B, B+1 of each.
BLOCK_SIZES = (4 * KIB, 64 * KIB, 128 * KIB, 1 * MIB)

# Owners: with passwd entries (0, 1, 65534) and without (12345, 3000000000).
OWNERS = ((0, 0), (1, 1), (65534, 65534), (12345, 54321), (3000000000, 7))

# mtimes: the epoch, a second after it, 2009, the last signed 32-bit second,
# and one past 2^31 (SquashFS stores an unsigned 32-bit mtime).
MTIMES = (0, 1, 1234567890, 2147483647, 4000000000)


class Capabilities:
    """What the host lets the tree builder do; each missing one is a reason."""

    def __init__(self, is_root, big_xattrs, noatime):
        self.is_root = is_root
        self.big_xattrs = big_xattrs  # several ~4000-byte xattrs on one inode
        self.noatime = noatime  # hard-linked symlinks are found by mksquashfs
        self.skipped = []  # human-readable reasons for parts left out

    def skip(self, what, why):
        self.skipped.append("%s: %s" % (what, why))


def _content(rng, size, kind):
    """Returns `size` bytes: random, text-like, zeros or a mix."""
    if size == 0:
        return b""
    if kind == "random":
        return rng.randbytes(size)
    if kind == "zero":
        return bytes(size)
    if kind == "text":
        words = [b"squash", b"block", b"inode", b"fragment", b"xattr", b"lorem",
                 b"ipsum", b"\n", b"0123456789", b"table"]
        out = bytearray()
        while len(out) < size:
            out += rng.choice(words) + b" "
        return bytes(out[:size])
    # mixed: alternating 1000-byte runs of the three kinds
    out = bytearray()
    kinds = ("random", "text", "zero")
    i = 0
    while len(out) < size:
        out += _content(rng, min(1000, size - len(out)), kinds[i % 3])
        i += 1
    return bytes(out)


def _write(path, data, mode=None):
    with open(path, "wb") as f:
        f.write(data)
    if mode is not None:
        os.chmod(path, mode)


def _sparse(path, size, pieces):
    """Creates a sparse file of `size` with (offset, bytes) pieces written."""
    with open(path, "wb") as f:
        f.truncate(size)
        for off, data in pieces:
            f.seek(off)
            f.write(data)


def _set_xattrs(path, pairs, caps, follow=True):
    for name, value in pairs:
        try:
            os.setxattr(path, name, value, follow_symlinks=follow)
        except OSError as e:
            caps.skip("xattr %s on %s" % (name, os.path.basename(path)), str(e))


def _files(root, rng):
    os.makedirs(os.path.join(root, "files"))
    d = os.path.join(root, "files")
    _write(os.path.join(d, "empty"), b"")
    _write(os.path.join(d, "one"), b"x")
    _write(os.path.join(d, "text"), _content(rng, 20000, "text"))
    _write(os.path.join(d, "random"), _content(rng, 100000, "random"))
    _write(os.path.join(d, "zeros-dense"), bytes(300 * KIB))  # written, not holes
    dup = _content(rng, 200 * KIB + 17, "mixed")
    _write(os.path.join(d, "dup-a"), dup)  # identical files: mksquashfs dedups
    _write(os.path.join(d, "dup-b"), dup)
    kinds = ("random", "text", "mixed")
    for i, bs in enumerate(BLOCK_SIZES):
        for delta in (-1, 0, 1):
            kind = kinds[(i + delta) % 3] if bs < MIB else ("text" if delta else "random")
            _write(os.path.join(d, "b%dk%+d" % (bs // KIB, delta)),
                   _content(rng, bs + delta, kind))
        if bs < MIB:
            _write(os.path.join(d, "b%dk-x3" % (bs // KIB)), _content(rng, 3 * bs, "mixed"))
    s = os.path.join(root, "sparse")
    os.makedirs(s)
    _sparse(os.path.join(s, "hole-only"), 384 * KIB, [])
    _sparse(os.path.join(s, "middle"), MIB + 300, [(300 * KIB, _content(rng, 5000, "random"))])
    _sparse(os.path.join(s, "head-tail"), 2 * MIB + 7,
            [(0, b"head"), (2 * MIB, b"tail!!!")])
    _sparse(os.path.join(s, "holes-4k"), 64 * KIB,
            [(off, _content(rng, 4096, "text")) for off in range(0, 64 * KIB, 8 * KIB)])


def _links(root, caps):
    d = os.path.join(root, "links")
    os.makedirs(os.path.join(d, "sub"))
    _write(os.path.join(d, "target"), b"link target contents\n")
    _write(os.path.join(d, "hl-a"), b"hard linked three times\n")
    os.link(os.path.join(d, "hl-a"), os.path.join(d, "hl-b"))
    os.link(os.path.join(d, "hl-a"), os.path.join(d, "sub", "hl-c"))
    _write(os.path.join(d, "hl-empty"), b"")
    os.link(os.path.join(d, "hl-empty"), os.path.join(d, "sub", "hl-empty2"))
    os.symlink("target", os.path.join(d, "rel"))
    os.symlink("/etc/hostname", os.path.join(d, "abs"))
    os.symlink("does/not/exist", os.path.join(d, "dangling"))
    os.symlink("sub", os.path.join(d, "to-dir"))
    os.symlink("../links/./sub/../target", os.path.join(d, "dots"))
    os.symlink("tärget with spaces ✓", os.path.join(d, "utf8"))
    long_target = "/".join(["long-component-%04d" % i for i in range(210)])[:4000]
    os.symlink(long_target, os.path.join(d, "long"))
    if caps.noatime:
        os.symlink("target", os.path.join(d, "sl-hl-a"))
        os.link(os.path.join(d, "sl-hl-a"), os.path.join(d, "sl-hl-b"), follow_symlinks=False)
    else:
        caps.skip("hard-linked symlink", "needs a noatime tmpfs (mksquashfs compares atime)")


def _big_dir(root, rng):
    d = os.path.join(root, "bigdir")
    os.makedirs(d)
    for i in range(1100):
        name = "entry-%05d%s" % (i, "-longer-name" * (i % 4))
        p = os.path.join(d, name)
        if i % 50 == 7:
            os.symlink("entry-%05d" % (i - 1), p)
        elif i % 100 == 13:
            os.mkdir(p)
        else:
            _write(p, _content(rng, i % 300, "text"))


def _deep(root):
    parts = ["lvl%02d" % i for i in range(64)]
    d = os.path.join(root, "deep", *parts)
    os.makedirs(d)
    _write(os.path.join(d, "bottom"), b"at the bottom\n")


ODD_NAMES = (
    "with space", " leading space", "trailing space ", "tab\there", "new\nline",
    "-leading-dash", "--", "ünïcödé-名前-😀", "back\\slash", "quote\"'", "*glob?[x]",
    "percent%s%n", ".hidden", "...", "a" * 255, "é" * 127 + "x",
    os.fsdecode(b"latin1-\xe9-\xff"), "semi;colon|pipe&amp", "#hash", "~tilde",
)


def _odd(root):
    d = os.path.join(root, "odd names")
    os.makedirs(d)
    for i, n in enumerate(ODD_NAMES):
        _write(os.path.join(d, n), ("odd %d\n" % i).encode())
    os.makedirs(os.path.join(d, "-dir with ü"))
    _write(os.path.join(d, "-dir with ü", "inner"), b"inner\n")


def _special(root, caps):
    d = os.path.join(root, "special")
    os.makedirs(d)
    os.mkfifo(os.path.join(d, "fifo"))
    s = socket.socket(socket.AF_UNIX)
    cwd = os.getcwd()
    try:
        os.chdir(d)  # a relative name: Bazel's tmpdir is longer than sun_path
        s.bind("socket")
    finally:
        os.chdir(cwd)
        s.close()
    if not caps.is_root:
        caps.skip("device nodes", "not root")
        return
    for name, kind, major, minor in (("null-like", stat.S_IFCHR, 1, 3),
                                     ("chr-bigminor", stat.S_IFCHR, 300, 70000),
                                     ("blk", stat.S_IFBLK, 8, 1),
                                     ("blk-big", stat.S_IFBLK, 4095, 1048575)):
        try:
            os.mknod(os.path.join(d, name), 0o640 | kind, os.makedev(major, minor))
        except OSError as e:
            caps.skip("device node " + name, str(e))
    if os.path.exists(os.path.join(d, "blk")):
        os.link(os.path.join(d, "blk"), os.path.join(d, "blk-hardlink"))
    # xattrs make mksquashfs store the extended device, fifo and socket inodes.
    for name in ("chr-bigminor", "fifo", "socket"):
        if os.path.lexists(os.path.join(d, name)):
            _set_xattrs(os.path.join(d, name), [("trusted.special", name.encode())], caps,
                        follow=False)


def _xattrs(root, rng, caps):
    d = os.path.join(root, "xattrs")
    os.makedirs(d)
    f = os.path.join(d, "small")
    _write(f, b"has xattrs\n")
    _set_xattrs(f, [("user.one", b"1"), ("user.empty", b""), ("user.binary", bytes(range(256))),
                    ("user.utf8-ключ", "значение".encode())], caps)
    shared = [("user.shared", b"same set on two files")]
    for n in ("shared-1", "shared-2"):
        _write(os.path.join(d, n), n.encode())
        _set_xattrs(os.path.join(d, n), shared, caps)
    _set_xattrs(d, [("user.on-dir", b"directory xattr")], caps)
    big = _content(rng, 3000, "text")  # the same value in two sets: stored out of line
    for n, extra in (("ool-1", b"a"), ("ool-2", b"b")):
        _write(os.path.join(d, n), n.encode())
        _set_xattrs(os.path.join(d, n), [("user.big", big), ("user.extra", extra)], caps)
    if caps.is_root:
        os.symlink("small", os.path.join(d, "symlink"))
        _set_xattrs(os.path.join(d, "symlink"), [("trusted.on-symlink", b"t")], caps, follow=False)
        _set_xattrs(f, [("trusted.secret", b"root only"), ("security.test", b"sec")], caps)
    if caps.big_xattrs:
        p = os.path.join(d, "large-values")
        _write(p, b"large xattr values\n")
        _set_xattrs(p, [("user.large-%d" % i, _content(rng, 4000, "random")) for i in range(4)],
                    caps)
    else:
        caps.skip("several 4000-byte xattrs on one inode", "needs a tmpfs (ext4 limits them)")


def _modes_owners_times(root, caps):
    """Sets modes, owners and mtimes last (chown clears set-id bits)."""
    d = os.path.join(root, "modes")
    os.makedirs(d)
    modes = (0o000, 0o400, 0o644, 0o755, 0o4755, 0o2755, 0o6711, 0o1755, 0o7777, 0o600)
    for m in modes:
        _write(os.path.join(d, "m%04o" % m), b"mode %o\n" % m)
    for m in (0o700, 0o1777, 0o555, 0o2775):
        os.mkdir(os.path.join(d, "dir%04o" % m))
    entries = []
    for dirpath, dirnames, filenames in os.walk(root):
        for n in dirnames + filenames:
            entries.append(os.path.join(dirpath, n))
    entries.sort()
    if caps.is_root:
        for i, p in enumerate(entries):
            uid, gid = OWNERS[i % len(OWNERS)]
            os.chown(p, uid, gid, follow_symlinks=False)
    else:
        caps.skip("owners", "not root")
    for m in modes:
        os.chmod(os.path.join(d, "m%04o" % m), m)
    for m in (0o700, 0o1777, 0o555, 0o2775):
        os.chmod(os.path.join(d, "dir%04o" % m), m)
    # mtimes bottom-up so that directories keep theirs.
    for i, p in enumerate(sorted(entries, key=lambda p: -p.count(os.sep))):
        t = MTIMES[i % len(MTIMES)]
        os.utime(p, (t, t), follow_symlinks=False)
    os.chmod(root, 0o751)
    os.utime(root, (1600000000, 1600000000))


def build_full_tree(root, caps, seed=1):
    """The main tree: every feature, a few megabytes."""
    rng = random.Random(seed)
    os.makedirs(root)
    _files(root, rng)
    _links(root, caps)
    _big_dir(root, rng)
    _deep(root)
    _odd(root)
    _special(root, caps)
    _xattrs(root, rng, caps)
    _modes_owners_times(root, caps)


def build_large_tree(root, caps, seed=2):
    """A 5 GiB sparse file with data around 4 GiB, plus 4 GiB +- 1."""
    rng = random.Random(seed)
    os.makedirs(root)
    _sparse(os.path.join(root, "five-gib"), 5 * GIB + 12345,
            [(0, _content(rng, MIB, "mixed")),
             (4 * GIB - 100000, _content(rng, 300000, "random")),
             (5 * GIB + 12000, _content(rng, 345, "text"))])
    _sparse(os.path.join(root, "four-gib-plus-1"), 4 * GIB + 1, [(4 * GIB, b"!")])
    _sparse(os.path.join(root, "four-gib-minus-1"), 4 * GIB - 1, [(4 * GIB - 2, b"?")])
    _write(os.path.join(root, "small"), b"small file next to big ones\n")
    for p in os.listdir(root):
        os.utime(os.path.join(root, p), (1234567890, 1234567890))
    del caps


def build_random_tree(root, caps, seed, block_size):
    """A seeded random tree: sizes around multiples of block_size, shared
    fragments, duplicates, hard links, symlinks, sparse files, xattrs."""
    rng = random.Random(seed)
    os.makedirs(root)
    dirs = [root]
    files = []
    for i in range(rng.randrange(60, 160)):
        parent = rng.choice(dirs)
        name = "n%03d%s" % (i, rng.choice(("", "-x", "_long_name_" * 3, " sp", "ü")))
        p = os.path.join(parent, name)
        kind = rng.random()
        if kind < 0.12 and len(dirs) < 25:
            os.mkdir(p)
            dirs.append(p)
        elif kind < 0.20 and files:
            os.symlink(os.path.relpath(rng.choice(files), parent) if rng.random() < 0.7
                       else "dangling-%d" % i, p)
        elif kind < 0.26 and files:
            os.link(rng.choice(files), p)
        elif kind < 0.30 and files:
            with open(rng.choice(files), "rb") as f:  # a duplicate of another file
                _write(p, f.read())
            files.append(p)
        else:
            n = rng.choice((0, 1, rng.randrange(1, 5000), block_size - 1, block_size,
                            block_size + 1, rng.randrange(1, 3) * block_size + rng.randrange(-2, 3),
                            rng.randrange(1, 4 * block_size)))
            n = max(n, 0)
            if rng.random() < 0.1 and n > 2 * block_size:
                _sparse(p, n, [(rng.randrange(n), _content(rng, 100, "text"))])
            else:
                _write(p, _content(rng, n, rng.choice(("random", "text", "zero", "mixed"))))
            if rng.random() < 0.15:
                _set_xattrs(p, [("user.r%d" % rng.randrange(3), rng.randbytes(rng.randrange(0, 300)))],
                            caps)
            files.append(p)
    for p in sorted(dirs[1:] + files, key=lambda p: -p.count(os.sep)):
        if not os.path.islink(p):
            os.chmod(p, rng.choice((0o644, 0o755, 0o600, 0o4755, 0o1777 if p in dirs else 0o640)))
        t = rng.randrange(0, 1 << 32)
        os.utime(p, (t, t), follow_symlinks=False)
