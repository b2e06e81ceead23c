# SPDX-License-Identifier: GPL-2.0-only
"""This file implements the test environment of the differential suites:
finding the squashlab binary and the peer tools, a scratch directory on a
noatime tmpfs when the host allows one, running commands with timeouts, and
loop-mounting images read-only through the kernel's squashfs driver.
"""

import os
import shutil
import subprocess
import sys
import tempfile
import time

from trees import Capabilities

TOOLS = ("mksquashfs", "unsquashfs", "gensquashfs", "tar2sqfs", "tar")


def find_squashlab():
    """$SQUASHLAB, then the runfiles tree, then bazel-bin (for manual runs)."""
    cands = [os.environ.get("SQUASHLAB", "")]
    for base in (os.environ.get("TEST_SRCDIR"), os.environ.get("RUNFILES_DIR")):
        if base:
            cands.append(os.path.join(base, "squashlab", "cli", "squashlab"))
    manifest = os.environ.get("RUNFILES_MANIFEST_FILE")
    if manifest and os.path.exists(manifest):
        with open(manifest) as f:
            for line in f:
                k, _, v = line.rstrip("\n").partition(" ")
                if k == "squashlab/cli/squashlab":
                    cands.append(v)
    here = os.path.dirname(os.path.abspath(__file__))
    cands.append(os.path.join(here, "..", "..", "bazel-bin", "cli", "squashlab"))
    for c in cands:
        if c and os.path.isfile(c) and os.access(c, os.X_OK):
            return os.path.abspath(c)
    sys.exit("FATAL: squashlab binary not found (tried %s)" % [c for c in cands if c])


class Result:
    def __init__(self, argv, rc, out, err, seconds, timed_out):
        self.argv, self.rc, self.out, self.err = argv, rc, out, err
        self.seconds, self.timed_out = seconds, timed_out

    def describe(self):
        what = "timed out" if self.timed_out else (
            "killed by signal %d" % -self.rc if self.rc < 0 else "exit %d" % self.rc)
        err = self.err.decode("utf-8", "replace").strip()
        return "`%s` -> %s%s" % (" ".join(_q(a) for a in self.argv), what,
                                 ("\n      stderr: " + err[:2000]) if err else "")


def _q(a):
    a = os.fsdecode(a) if isinstance(a, bytes) else a
    return a if a and all(c.isalnum() or c in "/-_.,=:+" for c in a) else repr(a)


class Env:
    def __init__(self, want_tmpfs_mb):
        self.squashlab = find_squashlab()
        missing = [t for t in TOOLS if not shutil.which(t)]
        if missing:
            sys.exit("FATAL: missing tools %s (apt-get install squashfs-tools "
                     "squashfs-tools-ng)" % missing)
        self.is_root = os.geteuid() == 0
        base = os.environ.get("TEST_TMPDIR") or tempfile.mkdtemp(prefix="sqdiff-")
        self.scratch_base = os.path.join(base, "scratch")
        os.makedirs(self.scratch_base, exist_ok=True)
        self.tmpfs = False
        self.notes = []
        if self.is_root:
            r = self.run(["mount", "-t", "tmpfs", "-o",
                          "noatime,size=%dm,mode=0755" % want_tmpfs_mb, "tmpfs",
                          self.scratch_base], timeout=20)
            self.tmpfs = r.rc == 0
            if not self.tmpfs:
                self.notes.append("no tmpfs scratch (%s); using %s" %
                                  (r.err.decode(errors="replace").strip(), base))
        else:
            self.notes.append("not root: no tmpfs scratch, owners/devices/mount skipped")
        self.scratch = tempfile.mkdtemp(dir=self.scratch_base)
        self.caps = Capabilities(self.is_root, big_xattrs=self.tmpfs, noatime=self.tmpfs)
        self.env = dict(os.environ, TZ="UTC", LC_ALL="C.UTF-8")
        self.mounts = []
        self.mount_ok = None  # decided by the first attempt
        self.mount_reason = ""

    def path(self, *parts):
        return os.path.join(self.scratch, *parts)

    def run(self, argv, timeout=120, stdin=None, cwd=None):
        t0 = time.monotonic()
        try:
            p = subprocess.run(argv, stdin=stdin, stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE, timeout=timeout, cwd=cwd,
                               env=getattr(self, "env", None))
            return Result(argv, p.returncode, p.stdout, p.stderr, time.monotonic() - t0, False)
        except subprocess.TimeoutExpired as e:
            return Result(argv, -9, e.stdout or b"", e.stderr or b"", time.monotonic() - t0, True)

    def squashlab_cmd(self, *args):
        return [self.squashlab] + list(args)

    def mount(self, image, where):
        """Loop-mounts `image` read-only; returns the mount point or None."""
        if self.mount_ok is False:
            return None
        if not self.is_root:
            self.mount_ok, self.mount_reason = False, "not root"
            return None
        os.makedirs(where, exist_ok=True)
        size = os.path.getsize(image)
        if size % 4096:
            # The loop device ignores a partial last 4K block (mksquashfs
            # -nopad): mount a zero-padded copy, the image bytes unchanged.
            padded = where + ".padded.sqfs"
            shutil.copyfile(image, padded)
            with open(padded, "ab") as f:
                f.write(bytes(4096 - size % 4096))
            image = padded
        r = self.run(["mount", "-o", "loop,ro", "-t", "squashfs", image, where], timeout=30)
        if r.rc != 0:
            if self.mount_ok is None:
                self.mount_ok = False
                self.mount_reason = r.describe()
                return None
            raise RuntimeError("mount failed on a later image: " + r.describe())
        self.mount_ok = True
        self.mounts.append(where)
        return where

    def umount(self, where):
        r = self.run(["umount", where], timeout=30)
        if r.rc != 0:
            self.run(["umount", "-l", where], timeout=30)
        if where in self.mounts:
            self.mounts.remove(where)

    def cleanup(self):
        for m in list(self.mounts):
            self.umount(m)
        if self.tmpfs:
            self.run(["umount", self.scratch_base], timeout=30)
        else:
            shutil.rmtree(self.scratch, ignore_errors=True)


def rmtree(path):
    """Removes an extraction, even one with 0000 directories."""
    if os.path.lexists(path):
        subprocess.run(["rm", "-rf", "--", path], check=False)
