# SPDX-License-Identifier: GPL-2.0-only
"""This file implements the expected output of `squashlab ls`: a listing
parsed from `unsquashfs -lls` (paths mapped to image paths, device numbers
decoded as the kernel does) or built from the kernel's mounted view, and
rendered for `ls -l -R [PATH]`, `ls -R [PATH]`, `ls [-l] DIR`.

An entry is (head, path, link): head is everything before the path
("drwxr-xr-x root/root   24 2026-11-29 22:26 "), link is b" -> target" or b"".
"""

import grp
import os
import pwd
import re
import stat
import time

_LINE = re.compile(rb"^([-dlcbps][-rwxsStT]{9} (\S+)/(\S+)( +)([-\d, ]+) "
                   rb"\d{4}-\d\d-\d\d \d\d:\d\d )squashfs-root(.*)$", re.S)
TOTALCHARS = 25  # unsquashfs's column arithmetic


def _entries_of(out):
    """Splits unsquashfs output into entries; a name with a newline continues one."""
    lines = []
    body = out[:-1] if out.endswith(b"\n") else out
    for raw in body.split(b"\n") if body else []:
        if lines and not (raw.startswith(b"squashfs-root") or _LINE.match(raw)):
            lines[-1] += b"\n" + raw
        else:
            lines.append(raw)
    return lines


def _device_field(user, group, major, minor):
    pad = max(TOTALCHARS - len(user) - len(group) - 7, 0)
    return b"%*s%3d,%3d " % (pad, b" ", major, minor)


def parse_unsquashfs(out, ref):
    """`unsquashfs -lls` output -> entries. unsquashfs prints devices as
    rdev >> 8, rdev & 0xff, wrong for minors above 255: the numbers come from
    `ref` (a Snapshot of the kernel's view or of an extraction) when given."""
    entries = []
    for line in _entries_of(out):
        m = _LINE.match(line)
        if not m:
            raise ValueError("unexpected unsquashfs -lls line: %r" % line[:200])
        head, rest = m.group(1), m.group(6)
        link = b""
        if line[:1] == b"l":
            rest, sep, target = rest.partition(b" -> ")
            link = sep + target
        path = rest or b"/"
        if line[:1] in b"cb" and ref is not None:
            e = ref.entries.get(os.fsdecode(path))
            if e and "rdev" in e:
                major, minor = (int(x) for x in e["rdev"].split(","))
                user, group = m.group(2), m.group(3)
                head = (line[:11] + user + b"/" + group + b" " +
                        _device_field(user, group, major, minor) + head[-17:])
        entries.append((head, path, link))
    return entries


def _stored_order(view, order, path="/"):
    yield path
    for name in order.get(path, ()):
        child = path.rstrip("/") + "/" + name
        if view.entries[child]["type"] == "dir":
            yield from _stored_order(view, order, child)
        else:
            yield child


def _name(table, attr, ident):
    try:
        return getattr(table(ident), attr)
    except KeyError:
        return str(ident)


def from_view(view, order):
    """Entries of a mounted image (its Snapshot and readdir order), as
    `unsquashfs -lls` would print them (TZ=UTC)."""
    entries = []
    for p in _stored_order(view, order):
        e = view.entries[p]
        user = _name(pwd.getpwuid, "pw_name", e["uid"]).encode()
        group = _name(grp.getgrgid, "gr_name", e["gid"]).encode()
        head = b"%s %s/%s " % (stat.filemode(e["ifmt"] | int(e["mode"], 8)).encode(), user, group)
        if e["type"] in ("chardev", "blockdev"):
            head += _device_field(user, group, *(int(x) for x in e["rdev"].split(",")))
        else:
            head += b"%*d " % (max(TOTALCHARS - len(user) - len(group), 0), e["lsize"])
        head += time.strftime("%Y-%m-%d %H:%M ", time.gmtime(e["mtime"])).encode()
        link = b" -> " + os.fsencode(e["target"]) if e["type"] == "symlink" else b""
        entries.append((head, os.fsencode(p), link))
    return entries


def _below(path, root):
    return root == b"/" or path == root or path.startswith(root + b"/")


def render_recursive(entries, root=b"/", long=True):
    """`ls [-l] -R IMG ROOT`: ROOT, then everything below it, in stored order."""
    return b"".join((head if long else b"") + path + (link if long else b"") + b"\n"
                    for head, path, link in entries if _below(path, root))


def render_dir(entries, d, long=False):
    """`ls [-l] IMG D`: the entries of directory D by name."""
    prefix = b"/" if d == b"/" else d + b"/"
    out = []
    for head, path, link in entries:
        if path != b"/" and path.startswith(prefix) and b"/" not in path[len(prefix):]:
            name = path[len(prefix):]
            out.append((head + name + link if long else name) + b"\n")
    return b"".join(out)
