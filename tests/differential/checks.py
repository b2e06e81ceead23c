"""This file implements the comparisons run on one image: `squashlab extract`
against the kernel's mounted view, `unsquashfs -d` and the source tree;
`squashlab ls -l -R` against `unsquashfs -lls`; `squashlab cat` of every
file against the source bytes; subtree extraction and single-directory
listings. Where unsquashfs and the kernel disagree, the kernel is right.
"""

import difflib
import grp
import os
import pwd
import re
import stat
import subprocess
import time

import snapshot
from env import rmtree

CHECKS = ("extract~kernel", "extract~unsquashfs", "extract~source", "ls-lR~unsquashfs",
          "ls-R", "ls-dir", "cat", "extract-sub")


class ImageReport:
    """The outcome of each check on one image: 'ok', 'FAIL', 'skip' + details."""

    def __init__(self, name):
        self.name = name
        self.status = {}
        self.details = []  # (check, text)
        self.notes = []

    def set(self, check, ok, details=(), skip_reason=None):
        if skip_reason is not None:
            self.status[check] = "skip"
            self.notes.append("%s skipped: %s" % (check, skip_reason))
            return
        self.status[check] = "ok" if ok else "FAIL"
        for d in details:
            self.details.append((check, d))

    def failed(self):
        return any(v == "FAIL" for v in self.status.values())


def _need(r, report, check):
    if r.rc != 0:
        report.set(check, False, [r.describe()])
        return False
    return True


class ImageChecker:
    def __init__(self, env, fields, symlink_mtime=True, timeout=120):
        self.env = env
        self.fields = list(fields) + (["symlink_mtime"] if symlink_mtime else [])
        self.timeout = timeout
        self.source_cache = {}
        self.digest_cache = {}

    def check(self, name, image, source_snap, extract_jobs=None, subtrees=(), ls_dirs=()):
        env, rep = self.env, ImageReport(name)
        work = env.path("work-" + re.sub(r"[^\w.-]", "_", name))
        os.makedirs(work)
        views = {}
        # The kernel's view.
        mnt = env.mount(image, os.path.join(work, "mnt"))
        try:
            if mnt:
                views["kernel"] = snapshot.Snapshot(mnt)
                views["kernel_order"] = {}
                for p, e in views["kernel"].entries.items():
                    if e["type"] == "dir":
                        real = mnt + ("" if p == "/" else p)
                        views["kernel_order"][p] = os.listdir(real)
        finally:
            if mnt:
                env.umount(mnt)
        # unsquashfs -d.
        udest = os.path.join(work, "unsquashfs")
        r = env.run(["unsquashfs", "-no-progress", "-d", udest, image], timeout=self.timeout)
        if r.rc == 0:
            views["unsquashfs"] = snapshot.Snapshot(udest)
        else:
            rep.notes.append("unsquashfs -d failed: " + r.describe())
        rmtree(udest)
        # squashlab extract.
        xparent = os.path.join(work, "x")
        os.makedirs(xparent)
        xdest = os.path.join(xparent, "dest")
        argv = ["extract"] + (["-p", str(extract_jobs)] if extract_jobs else []) + [image, xdest]
        r = env.run(env.squashlab_cmd(*argv), timeout=self.timeout)
        if r.rc == 0 and os.path.isdir(xdest):
            views["squashlab"] = snapshot.Snapshot(xdest)
            stray = sorted(set(os.listdir(xparent)) - {"dest"})
            if stray:
                rep.set("extract~source", False, ["extract wrote outside DEST: %s" % stray])
        else:
            for c in ("extract~kernel", "extract~unsquashfs", "extract~source"):
                rep.set(c, False, [r.describe()])
        rmtree(xparent)
        ref_name = "kernel" if "kernel" in views else "unsquashfs"
        self._compare_extract(rep, views, source_snap, ref_name)
        self._check_ls(rep, image, views, ref_name)
        self._check_ls_dirs(rep, image, views, ref_name, ls_dirs)
        self._check_cat(rep, image, source_snap)
        self._check_subtrees(rep, image, views, ref_name, subtrees, work)
        rmtree(work)
        return rep

    def _compare_extract(self, rep, views, source, ref_name):
        sq = views.get("squashlab")
        if sq is None:
            return
        f = self.fields
        if "kernel" in views:
            rep.set("extract~kernel", True)
            d = snapshot.compare(views["kernel"], sq, f, "kernel", "squashlab")
            rep.set("extract~kernel", not d, d)
        else:
            rep.set("extract~kernel", True, skip_reason=self.env.mount_reason or "no mount")
        if "unsquashfs" in views:
            d = snapshot.compare(views["unsquashfs"], sq, f, "unsquashfs", "squashlab")
            if d and "kernel" in views:
                # Attribute each difference: unsquashfs's own deviations are notes.
                dk = snapshot.compare(views["kernel"], views["unsquashfs"], f, "kernel",
                                      "unsquashfs", limit=10**6)
                bad_paths = {x.split(":")[0] for x in dk}
                kept = [x for x in d if x.split(":")[0] not in bad_paths]
                for x in dk[:10]:
                    rep.notes.append("unsquashfs deviates from the kernel: " + x)
                d = kept
            rep.set("extract~unsquashfs", not d, d)
        else:
            rep.set("extract~unsquashfs", True, skip_reason="unsquashfs -d failed")
        # Against the source: a difference counts unless the reference (the
        # kernel, else unsquashfs) shows it too, i.e. unless it is the producer's.
        d = snapshot.compare(source, sq, f, "source", "squashlab", limit=10**6)
        ref = views.get(ref_name)
        if ref is not None:
            dr = snapshot.compare(source, ref, f, "source", ref_name, limit=10**6)
            explained = {_key(x) for x in dr}
            for x in dr[:8]:
                rep.notes.append("%s: producer's change, %s agrees: %s" % (rep.name, ref_name, x))
            d = [x for x in d if _key(x) not in explained]
        prev = rep.status.get("extract~source") == "FAIL"
        rep.set("extract~source", not (d or prev), d[:40])

    def _check_ls(self, rep, image, views, ref_name):
        env = self.env
        u = env.run(["unsquashfs", "-lls", image], timeout=self.timeout)
        s = env.run(env.squashlab_cmd("ls", "-l", "-R", image), timeout=self.timeout)
        kernel = views.get("kernel")
        if u.rc != 0 and kernel is not None:
            # unsquashfs cannot read an image the kernel mounts: the kernel's
            # view, printed as unsquashfs -lls would, is the reference.
            rep.notes.append("unsquashfs -lls failed, listing built from the kernel's view: " +
                             u.describe())
            u.rc, u.out = 0, None
        if _need(u, rep, "ls-lR~unsquashfs") and _need(s, rep, "ls-lR~unsquashfs"):
            if u.out is None:
                want = listing_from_view(kernel, views["kernel_order"])
            else:
                want = map_unsquashfs_listing(u.out, views.get(ref_name))
            rep.set("ls-lR~unsquashfs", s.out == want, _text_diff(want, s.out))
        u = env.run(["unsquashfs", "-ls", image], timeout=self.timeout)
        s = env.run(env.squashlab_cmd("ls", "-R", image), timeout=self.timeout)
        if u.rc != 0 and kernel is not None:
            u.rc, u.out = 0, None
        if _need(u, rep, "ls-R") and _need(s, rep, "ls-R"):
            if u.out is None:
                want = b"".join(os.fsencode(p) + b"\n" for p in
                                _stored_order(kernel, views["kernel_order"]))
            else:
                want = b"".join(_map_path(l) for l in _listing_lines(u.out))
            rep.set("ls-R", s.out == want, _text_diff(want, s.out))

    def _check_ls_dirs(self, rep, image, views, ref_name, dirs):
        env = self.env
        ref = views.get(ref_name)
        order = views.get("kernel_order", {})
        problems = []
        for d in dirs:
            argv = env.squashlab_cmd("ls", image) + ([d] if d != "/" else [])
            s = env.run(argv, timeout=self.timeout)
            if s.rc != 0:
                problems.append(s.describe())
                continue
            if d in order:
                names = order[d]
            else:
                prefix = d.rstrip("/") + "/"
                names = sorted((p[len(prefix):] for p in ref.entries
                                if p.startswith(prefix) and "/" not in p[len(prefix):]),
                               key=os.fsencode)
            want = b"".join(os.fsencode(n) + b"\n" for n in names)
            problems += ["ls %s:\n%s" % (d, x) for x in _text_diff(want, s.out)]
        rep.set("ls-dir", not problems, problems)

    def _check_cat(self, rep, image, source):
        files = source.regular_files()
        if not files:
            rep.set("cat", True, skip_reason="no files")
            return
        argv = self.env.squashlab_cmd("cat", image, *[p for p, _ in files])
        problems = []
        proc = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                env=self.env.env)
        try:
            for (path, e) in files:
                n, dig = snapshot.stream_digest(_take(proc.stdout, e["size"]))
                if n != e["size"] or dig != e["content"]:
                    problems.append("%s: cat gives %d bytes (digest %s), source has %d (%s)" %
                                    (path, n, dig, e["size"], e["content"]))
                    if n != e["size"]:
                        break
            extra = proc.stdout.read(1 << 16)
            if extra:
                problems.append("cat wrote %d+ bytes more than the files hold" % len(extra))
            err = proc.stderr.read()
            rc = proc.wait(timeout=self.timeout)
        finally:
            if proc.poll() is None:
                proc.kill()
                proc.wait()
        if rc != 0:
            problems.append("cat exit %d: %s" % (rc, err.decode(errors="replace")[:500]))
        # A few single-path calls, paths beginning with '-' or holding a newline.
        for path, e in files:
            base = path.rsplit("/", 1)[1]
            if base.startswith("-") or "\n" in base or base == "one":
                r = self.env.run(self.env.squashlab_cmd("cat", image, path), timeout=60)
                if r.rc != 0 or snapshot.stream_digest([r.out])[1] != e["content"]:
                    problems.append("single cat of %r: %s" % (path, r.describe()))
        rep.set("cat", not problems, problems)

    def _check_subtrees(self, rep, image, views, ref_name, subtrees, work):
        ref = views.get(ref_name)
        if not subtrees or ref is None:
            rep.set("extract-sub", True, skip_reason="no reference view or no subtrees")
            return
        dest = os.path.join(work, "sub")
        r = self.env.run(self.env.squashlab_cmd("extract", "-p", "1", image, dest, *subtrees),
                         timeout=self.timeout)
        if not _need(r, rep, "extract-sub"):
            return
        got = snapshot.Snapshot(dest)
        problems = []
        for s in subtrees:
            problems += snapshot.compare(ref.subtree(s), got.subtree(s), self.fields, ref_name,
                                         "squashlab")
        rep.set("extract-sub", not problems, problems)
        rmtree(dest)


def _key(diff_line):
    """'path: field differs: ...' -> (path, field) so equal causes match."""
    if diff_line.startswith("hard-link groups differ"):
        return "hard-link groups"
    head = diff_line.split(" differs:")[0]
    return head if "only in" not in diff_line else diff_line.split(" (")[0].rsplit(":", 1)[0]


def _take(stream, n):
    while n > 0:
        chunk = stream.read(min(n, snapshot.WINDOW))
        if not chunk:
            return
        n -= len(chunk)
        yield chunk


_LINE = re.compile(rb"^([-dlcbps][-rwxsStT]{9} (\S+)/(\S+)( +)([-\d, ]+) "
                   rb"\d{4}-\d\d-\d\d \d\d:\d\d )squashfs-root(.*)$", re.S)


def _listing_lines(out):
    """Splits a listing into entries; a name with a newline continues a line."""
    lines = []
    for raw in out.split(b"\n")[:-1] if out.endswith(b"\n") else out.split(b"\n"):
        if lines and not (raw.startswith(b"squashfs-root") or _LINE.match(raw)):
            lines[-1] += b"\n" + raw
        else:
            lines.append(raw)
    return [l + b"\n" for l in lines]


def _map_path(line):
    if line.startswith(b"squashfs-root"):
        rest = line[len(b"squashfs-root"):]
        return b"/" + rest[1:] if rest.startswith(b"/") else b"/" + rest
    return line


def map_unsquashfs_listing(out, ref):
    """unsquashfs -lls -> the listing squashlab must print: paths mapped to
    image paths, device numbers decoded as the kernel does (unsquashfs -lls
    prints rdev >> 8 and rdev & 0xff, wrong for minors above 255)."""
    result = []
    for line in _listing_lines(out):
        m = _LINE.match(line.rstrip(b"\n"))
        if not m:
            result.append(line)
            continue
        head, rest = m.group(1), m.group(6)
        path = rest or b"/"
        if line[:1] in b"cb" and ref is not None:
            e = ref.entries.get(os.fsdecode(path))
            if e and "rdev" in e:
                maj, mi = (int(x) for x in e["rdev"].split(","))
                user, group = m.group(2), m.group(3)
                pad = max(25 - len(user) - len(group) - 7, 0)
                head = (line[:11] + user + b"/" + group + b" " + (b"%*s" % (pad, b" ")) +
                        b"%3d,%3d " % (maj, mi) + head[-17:])
        result.append(head + path + b"\n")
    return b"".join(result)


def _stored_order(view, order, path="/"):
    yield path
    for name in order.get(path, ()):
        child = path.rstrip("/") + "/" + name
        if view.entries[child]["type"] == "dir":
            yield from _stored_order(view, order, child)
        else:
            yield child


def _name(table, key, ident):
    try:
        return getattr(table(ident), key)
    except KeyError:
        return str(ident)


def listing_from_view(view, order):
    """The `unsquashfs -lls` listing of a mounted image, from the kernel's view."""
    out = []
    for p in _stored_order(view, order):
        e = view.entries[p]
        user = _name(pwd.getpwuid, "pw_name", e["uid"])
        group = _name(grp.getgrgid, "gr_name", e["gid"])
        line = "%s %s/%s " % (stat.filemode(e["ifmt"] | int(e["mode"], 8)), user, group)
        if e["type"] in ("chardev", "blockdev"):
            maj, mi = (int(x) for x in e["rdev"].split(","))
            line += "%*s%3d,%3d " % (max(25 - len(user) - len(group) - 7, 0), " ", maj, mi)
        else:
            line += "%*d " % (max(25 - len(user) - len(group), 0), e["lsize"])
        line += time.strftime("%Y-%m-%d %H:%M ", time.gmtime(e["mtime"])) + p
        if e["type"] == "symlink":
            line += " -> " + e["target"]
        out.append(os.fsencode(line) + b"\n")
    return b"".join(out)


def _text_diff(want, got, limit=12):
    if want == got:
        return []
    w = want.decode("utf-8", "backslashreplace").splitlines()
    g = got.decode("utf-8", "backslashreplace").splitlines()
    d = list(difflib.unified_diff(w, g, "expected", "squashlab", n=0, lineterm=""))
    out = d[:limit * 2]
    if len(d) > len(out):
        out.append("... (%d more diff lines)" % (len(d) - len(out)))
    return ["\n      ".join(out)]
