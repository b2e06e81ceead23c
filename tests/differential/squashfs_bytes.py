# SPDX-License-Identifier: GPL-2.0-only
"""This file implements just enough of the SquashFS 4.0 layout to corrupt an
image on purpose: the superblock fields, and for images with uncompressed
metadata (mksquashfs -noI -noD) the root inode and the entries of the root
directory listing.
"""

import struct

# (name, offset, struct format) of every superblock field.
SUPERBLOCK = (
    ("magic", 0, "<I"), ("inode_count", 4, "<I"), ("mkfs_time", 8, "<I"),
    ("block_size", 12, "<I"), ("fragment_entry_count", 16, "<I"),
    ("compression_id", 20, "<H"), ("block_log", 22, "<H"), ("flags", 24, "<H"),
    ("id_count", 26, "<H"), ("version_major", 28, "<H"), ("version_minor", 30, "<H"),
    ("root_inode_ref", 32, "<Q"), ("bytes_used", 40, "<Q"), ("id_table_start", 48, "<Q"),
    ("xattr_id_table_start", 56, "<Q"), ("inode_table_start", 64, "<Q"),
    ("directory_table_start", 72, "<Q"), ("fragment_table_start", 80, "<Q"),
    ("export_table_start", 88, "<Q"),
)
_FIELDS = {n: (o, f) for n, o, f in SUPERBLOCK}


def get(img, field):
    off, fmt = _FIELDS[field]
    return struct.unpack_from(fmt, img, off)[0]


def put(img, field, value):
    """Returns a copy of img (bytes) with the field set."""
    off, fmt = _FIELDS[field]
    out = bytearray(img)
    struct.pack_into(fmt, out, off, value)
    return bytes(out)


def _meta_pos(img, table_start, ref_block, offset):
    """Byte position of (block, offset) in an uncompressed metadata table;
    only block 0 is supported (tiny images)."""
    hdr = struct.unpack_from("<H", img, table_start + ref_block)[0]
    if not hdr & 0x8000:
        raise ValueError("metadata block is compressed; build with -noI -noD")
    return table_start + ref_block + 2 + offset


class RootListing:
    """The root directory's inode and listing of an uncompressed image."""

    def __init__(self, img):
        self.img = img
        ref = get(img, "root_inode_ref")
        self.root_block, self.root_offset = ref >> 16, ref & 0xFFFF
        ipos = _meta_pos(img, get(img, "inode_table_start"), self.root_block, self.root_offset)
        itype, = struct.unpack_from("<H", img, ipos)
        if itype != 1:
            raise ValueError("root is not a basic directory (type %d)" % itype)
        self.root_inode_number, = struct.unpack_from("<I", img, ipos + 12)
        start_block, _, file_size, offset = struct.unpack_from("<IIHH", img, ipos + 16)
        pos = _meta_pos(img, get(img, "directory_table_start"), start_block, offset)
        end = pos + file_size - 3
        self.entries = []  # dicts: name, pos (of the entry), header start/inode
        while pos < end:
            count, hstart, hino = struct.unpack_from("<III", img, pos)
            pos += 12
            for _ in range(count + 1):
                eoff, edelta, etype, esize = struct.unpack_from("<HhHH", img, pos)
                name = img[pos + 8:pos + 8 + esize + 1]
                self.entries.append({"name": name, "pos": pos, "start": hstart,
                                     "base_inode": hino, "offset": eoff, "delta": edelta,
                                     "type": etype})
                pos += 8 + esize + 1

    def entry(self, name):
        for e in self.entries:
            if e["name"] == name:
                return e
        raise KeyError(name)

    def rename(self, old, new):
        """Same-length rename of a root entry; returns the new image bytes."""
        if len(old) != len(new):
            raise ValueError("same length only")
        e = self.entry(old)
        out = bytearray(self.img)
        out[e["pos"] + 8:e["pos"] + 8 + len(new)] = new
        return bytes(out)

    def point_at_root(self, name):
        """Makes entry `name` (a directory) refer to the root inode: a loop."""
        e = self.entry(name)
        if e["start"] != self.root_block:
            raise ValueError("root inode not in the entry's metadata block")
        out = bytearray(self.img)
        struct.pack_into("<Hh", out, e["pos"], self.root_offset,
                         self.root_inode_number - e["base_inode"])
        return bytes(out)
