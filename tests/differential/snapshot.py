# SPDX-License-Identifier: GPL-2.0-only
"""This file implements tree snapshots and their comparison: what a directory
tree (a source tree, an extraction, a mounted image) holds, entry by entry,
and a readable diff between two snapshots.

File contents are summarised by a sparse-aware digest: two files with the
same bytes have the same digest whether their zeros are holes or not.
"""

import errno
import hashlib
import os
import stat

WINDOW = 1 << 20
_ZERO = bytes(WINDOW)
_SEEK_DATA = getattr(os, "SEEK_DATA", 3)
_SEEK_HOLE = getattr(os, "SEEK_HOLE", 4)

# Fields an entry may have; `compare` takes a subset.
ALL_FIELDS = ("type", "mode", "uid", "gid", "mtime", "size", "content", "target", "rdev",
              "xattrs")


def _data_ranges(fd, size):
    """[(start, end)] of the data regions; all of it when the file system
    cannot say (the kernel's squashfs answers SEEK_HOLE with EIO for some
    files with a tail in a fragment: seen on 6.18)."""
    ranges = []
    pos = 0
    try:
        while pos < size:
            try:
                start = os.lseek(fd, pos, _SEEK_DATA)
            except OSError as e:
                if e.errno == errno.ENXIO:  # no data after pos
                    break
                raise
            end = os.lseek(fd, start, _SEEK_HOLE)
            ranges.append((start, min(end, size)))
            pos = end
    except OSError:
        return [(0, size)]
    return ranges


def content_digest(path, size):
    """sha256 over (offset, window) of every non-zero 1 MiB-aligned window."""
    h = hashlib.sha256()
    fd = os.open(path, os.O_RDONLY)
    try:
        done = 0  # windows below this offset are already hashed
        for start, end in _data_ranges(fd, size):
            w = max(start - start % WINDOW, done)
            while w < end:
                data = os.pread(fd, WINDOW, w)
                if data != _ZERO[:len(data)]:
                    h.update(b"@%d:" % w)
                    h.update(data)
                w += WINDOW
            done = max(done, w)
    finally:
        os.close(fd)
    out = hashlib.sha256(b"size %d\n" % size)
    out.update(h.digest())
    return out.hexdigest()[:24]


def stream_digest(chunks):
    """(length, digest) of a stream of bytes, as content_digest would give."""
    h = hashlib.sha256()
    buf = bytearray()
    offset = 0
    total = 0
    for chunk in chunks:
        buf += chunk
        total += len(chunk)
        while len(buf) >= WINDOW:
            w = bytes(buf[:WINDOW])
            del buf[:WINDOW]
            if w != _ZERO:
                h.update(b"@%d:" % offset)
                h.update(w)
            offset += WINDOW
    if buf and bytes(buf) != _ZERO[:len(buf)]:
        h.update(b"@%d:" % offset)
        h.update(bytes(buf))
    out = hashlib.sha256(b"size %d\n" % total)
    out.update(h.digest())
    return total, out.hexdigest()[:24]


def _xattrs(path):
    try:
        names = os.listxattr(path, follow_symlinks=False)
    except OSError:
        return ()
    out = []
    for n in sorted(names):
        if n.startswith("system."):  # POSIX ACLs etc. are not SquashFS xattrs
            continue
        try:
            v = os.getxattr(path, n, follow_symlinks=False)
        except OSError as e:
            v = ("error: %s" % e.strerror).encode()
        out.append((n, v if len(v) <= 40 else b"sha256:" +
                    hashlib.sha256(v).hexdigest()[:16].encode() + b" len=%d" % len(v)))
    return tuple(out)


TYPE_NAMES = {stat.S_IFREG: "file", stat.S_IFDIR: "dir", stat.S_IFLNK: "symlink",
              stat.S_IFCHR: "chardev", stat.S_IFBLK: "blockdev", stat.S_IFIFO: "fifo",
              stat.S_IFSOCK: "socket"}


class Snapshot:
    """entries: image path ('/' or '/a/b') -> dict of fields; links: groups."""

    def __init__(self, root, with_content=True, content_cache=None):
        self.root = root
        self.entries = {}
        inodes = {}
        self._walk(root, "/", with_content, content_cache, inodes)
        self.link_groups = sorted(tuple(sorted(g)) for g in inodes.values() if len(g) > 1)

    def _walk(self, real, rel, with_content, cache, inodes):
        st = os.lstat(real)
        t = stat.S_IFMT(st.st_mode)
        e = {"type": TYPE_NAMES.get(t, "?"), "mode": "%04o" % stat.S_IMODE(st.st_mode),
             "uid": st.st_uid, "gid": st.st_gid, "mtime": int(st.st_mtime),
             "xattrs": _xattrs(real), "lsize": st.st_size, "ifmt": t,
             "alloc": st.st_blocks * 512}
        if t == stat.S_IFREG:
            e["size"] = st.st_size
            if with_content:
                key = (st.st_dev, st.st_ino, st.st_size, st.st_mtime_ns)
                if cache is not None and key in cache:
                    e["content"] = cache[key]
                else:
                    e["content"] = content_digest(real, st.st_size)
                    if cache is not None:
                        cache[key] = e["content"]
        elif t == stat.S_IFLNK:
            e["target"] = os.readlink(real)
        elif t in (stat.S_IFCHR, stat.S_IFBLK):
            e["rdev"] = "%d,%d" % (os.major(st.st_rdev), os.minor(st.st_rdev))
        if t != stat.S_IFDIR:
            inodes.setdefault((st.st_dev, st.st_ino), []).append(rel)
        self.entries[rel] = e
        if t == stat.S_IFDIR:
            for name in sorted(os.listdir(real)):
                self._walk(os.path.join(real, name), rel.rstrip("/") + "/" + name,
                           with_content, cache, inodes)

    def subtree(self, prefix):
        """A copy restricted to `prefix` and what lies below it."""
        out = Snapshot.__new__(Snapshot)
        out.root = self.root
        out.entries = {p: e for p, e in self.entries.items()
                       if p == prefix or p.startswith(prefix.rstrip("/") + "/")}
        out.link_groups = [tuple(x for x in g if x in out.entries) for g in self.link_groups]
        out.link_groups = sorted(g for g in out.link_groups if len(g) > 1)
        return out

    def regular_files(self):
        return [(p, e) for p, e in self.entries.items() if e["type"] == "file"]


def _show(path):
    return repr(path)[1:-1] if any(c in path for c in "\n\t") else path


def compare(a, b, fields, a_name, b_name, ignore_paths=(), links=True, limit=40):
    """Returns a list of human-readable differences (empty when equal)."""
    diffs = []
    ignore = set(ignore_paths)
    pa = set(a.entries) - ignore
    pb = set(b.entries) - ignore
    for p in sorted(pa - pb):
        diffs.append("%s: only in %s (%s)" % (_show(p), a_name, a.entries[p]["type"]))
    for p in sorted(pb - pa):
        diffs.append("%s: only in %s (%s)" % (_show(p), b_name, b.entries[p]["type"]))
    for p in sorted(pa & pb):
        ea, eb = a.entries[p], b.entries[p]
        for f in fields:
            if ea["type"] != eb["type"] and f != "type":
                continue
            if f == "mtime" and ea["type"] == "symlink" and "symlink_mtime" not in fields:
                continue
            va, vb = ea.get(f), eb.get(f)
            if va != vb:
                diffs.append("%s: %s differs: %s=%r %s=%r" % (_show(p), f, a_name, va, b_name, vb))
    if links:
        ga = [g for g in a.link_groups if not set(g) & ignore]
        gb = [g for g in b.link_groups if not set(g) & ignore]
        if ga != gb:
            diffs.append("hard-link groups differ:\n    %s: %s\n    %s: %s" %
                         (a_name, ga, b_name, gb))
    if len(diffs) > limit:
        diffs = diffs[:limit] + ["... and %d more differences" % (len(diffs) - limit)]
    return diffs
