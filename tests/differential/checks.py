# SPDX-License-Identifier: GPL-2.0-only
"""This file implements the comparisons run on one image: `squashlab extract`
against the kernel's mounted view, `unsquashfs -d` and the source tree;
`squashlab ls -l -R` against `unsquashfs -lls`; `squashlab cat` of every
file against the source bytes; subtree extraction and single-directory
listings. Where unsquashfs and the kernel disagree, the kernel is right.
"""

import difflib
import os
import re
import subprocess

import listing
import snapshot
import squashfs_bytes as sb
from env import rmtree

COMPRESSORS = {1: "gzip", 2: "lzma", 3: "lzo", 4: "xz", 5: "lz4", 6: "zstd"}

CHECKS = ("extract~kernel", "extract~unsquashfs", "extract~source", "ls-lR~unsquashfs",
          "ls-R", "ls-dir", "cat", "extract-sub", "info")


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
        self._check_ls(rep, image, views, ref_name, ls_dirs)
        self._check_info(rep, image)
        self._check_cat(rep, image, source_snap, extract_jobs)
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
        for p, e in sq.regular_files():
            src = source.entries.get(p)
            if src and src["alloc"] < src["size"] // 2 and e["alloc"] > 2 * src["alloc"] + (1 << 20):
                rep.notes.append("%s: %s extracted without holes: %d bytes allocated, the "
                                 "source %d" % (rep.name, p, e["alloc"], src["alloc"]))
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

    def _expected_listing(self, rep, image, views, ref_name):
        """Entries squashlab's listings must show, or None (check failed)."""
        u = self.env.run(["unsquashfs", "-lls", image], timeout=self.timeout)
        if u.rc == 0:
            return listing.parse_unsquashfs(u.out, views.get(ref_name))
        if "kernel" in views:
            # unsquashfs cannot read an image the kernel mounts: the kernel's
            # view, printed as unsquashfs -lls would, is the reference.
            rep.notes.append("unsquashfs -lls failed, listing built from the kernel's view: " +
                             u.describe())
            return listing.from_view(views["kernel"], views["kernel_order"])
        rep.set("ls-lR~unsquashfs", False, [u.describe()])
        return None

    def _check_ls(self, rep, image, views, ref_name, ls_dirs):
        env = self.env
        entries = self._expected_listing(rep, image, views, ref_name)
        if entries is None:
            return
        checks_ = {"ls-lR~unsquashfs": [], "ls-R": [], "ls-dir": []}
        runs = [("ls-lR~unsquashfs", ["-l", "-R"], None, True),
                ("ls-R", ["-R"], None, False)]
        for d in ls_dirs:
            if d != "/":
                runs.append(("ls-lR~unsquashfs", ["-l", "-R"], d, True))
                runs.append(("ls-R", ["-R"], d, False))
            runs.append(("ls-dir", [], d, False))
            runs.append(("ls-dir", ["-l"], d, True))
        for check, flags, d, long in runs:
            argv = env.squashlab_cmd("ls", *flags, image, *([d] if d else []))
            s = env.run(argv, timeout=self.timeout)
            if s.rc != 0:
                checks_[check].append(s.describe())
                continue
            root = os.fsencode(d) if d else b"/"
            if "-R" in flags:
                want = listing.render_recursive(entries, root, long)
            else:
                want = listing.render_dir(entries, root, long)
            checks_[check] += ["`ls %s %s`: %s" % (" ".join(flags), d or "", x)
                               for x in _text_diff(want, s.out)]
        for check, problems in checks_.items():
            rep.set(check, not problems, problems)

    def _check_info(self, rep, image):
        """`squashlab info` against the superblock decoded here."""
        r = self.env.run(self.env.squashlab_cmd("info", image), timeout=self.timeout)
        if not _need(r, rep, "info"):
            return
        with open(image, "rb") as f:
            head = f.read(96)
        text = r.out.decode("utf-8", "replace")
        want = {"block size": sb.get(head, "block_size"),
                "compressor": COMPRESSORS.get(sb.get(head, "compression_id"), "?"),
                "inodes": sb.get(head, "inode_count"), "ids": sb.get(head, "id_count"),
                "fragments": sb.get(head, "fragment_entry_count"),
                "bytes used": sb.get(head, "bytes_used")}
        problems = []
        for key, value in want.items():
            m = re.search(r"^\s*%s\s+(\w+)" % key, text, re.M | re.I)
            if not m or m.group(1) != str(value):
                problems.append("info: %s: want %s, got %s" %
                                (key, value, m.group(1) if m else "no such line"))
        rep.set("info", not problems, problems + (["output:\n" + text] if problems else []))

    def _check_cat(self, rep, image, source, jobs):
        files = source.regular_files()
        if not files:
            rep.set("cat", True, skip_reason="no files")
            return
        argv = self.env.squashlab_cmd("cat", *(["-p", str(jobs)] if jobs else []), image,
                                      *[p for p, _ in files])
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
