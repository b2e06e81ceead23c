#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""Builds fuzz/regression/: one small SquashFS image per known bug class of
other SquashFS readers, and manifest.txt, what squashlab's reader
must do with each (see regression_test.cc). The images start from tiny
mksquashfs images whose metadata is stored uncompressed (-noI -noD -noF -noX),
so fields can be patched in place; each patch is one bug class.

usage: make_regression.py OUT_DIR    (then commit OUT_DIR with this script)
"""
import os
import random
import shutil
import struct
import subprocess
import sys
import tempfile
import zlib

TIME = "1577934245"
FNV_OFFSET, FNV_PRIME = 14695981039346656037, 1099511628211


def fnv(data):
    h = FNV_OFFSET
    for c in data:
        h = ((h ^ c) * FNV_PRIME) & 0xFFFFFFFFFFFFFFFF
    return "%d:%016x" % (len(data), h)


def pattern(seed, size):
    return bytes((i * 131 + seed) % 251 for i in range(size))


def mksquashfs(tree, out, *opts):
    subprocess.run(["mksquashfs", tree, out, "-quiet", "-no-progress", "-nopad",
                    "-mkfs-time", TIME, "-all-time", TIME, "-all-root", *opts],
                   check=True, stdout=subprocess.DEVNULL)
    with open(out, "rb") as f:
        return f.read()


SB = {  # name: (offset, struct format)
    "inode_count": (4, "<I"), "block_size": (12, "<I"), "fragment_count": (16, "<I"),
    "compressor": (20, "<H"), "block_log": (22, "<H"), "flags": (24, "<H"),
    "id_count": (26, "<H"), "root_inode": (32, "<Q"), "bytes_used": (40, "<Q"),
    "id_table_start": (48, "<Q"), "xattr_id_table_start": (56, "<Q"),
    "inode_table_start": (64, "<Q"), "directory_table_start": (72, "<Q"),
    "fragment_table_start": (80, "<Q"), "export_table_start": (88, "<Q"),
}


class Img:
    """A raw-metadata image with helpers to find and patch fields."""

    def __init__(self, data):
        self.b = bytearray(data)

    def copy(self):
        return Img(bytes(self.b))

    def get(self, at, fmt):
        return struct.unpack_from(fmt, self.b, at)[0]

    def put(self, at, fmt, value):
        struct.pack_into(fmt, self.b, at, value)

    def sb(self, name):
        return self.get(SB[name][0], SB[name][1])

    def set_sb(self, name, value):
        self.put(SB[name][0], SB[name][1], value)

    def meta(self, table_start, block, offset):
        """File offset of byte `offset` of the metadata block at table_start+block."""
        pos = table_start + block
        while True:
            h = self.get(pos, "<H")
            assert h & 0x8000, "metadata must be stored uncompressed"
            size = h & 0x7FFF
            if offset < size:
                return pos + 2 + offset
            offset -= size
            pos += 2 + size

    def inode_at(self, ref):
        return self.meta(self.sb("inode_table_start"), ref >> 16, ref & 0xFFFF)

    def dir_fields(self, ref):
        at = self.inode_at(ref)
        t = self.get(at, "<H")
        if t == 1:
            return dict(block=self.get(at + 16, "<I"), size=self.get(at + 24, "<H"),
                        offset=self.get(at + 26, "<H"))
        assert t == 8
        return dict(block=self.get(at + 24, "<I"), size=self.get(at + 20, "<I"),
                    offset=self.get(at + 34, "<H"))

    def readdir(self, ref):
        """Entries of the directory inode at ref: dicts with file offsets."""
        d = self.dir_fields(ref)
        at = self.meta(self.sb("directory_table_start"), d["block"], d["offset"])
        end = at + d["size"] - 3
        out = []
        while at < end:
            count = self.get(at, "<I") + 1
            start, base = self.get(at + 4, "<I"), self.get(at + 8, "<I")
            header = at
            at += 12
            for _ in range(count):
                off, delta, typ, nsize = struct.unpack_from("<HhHH", self.b, at)
                name = bytes(self.b[at + 8:at + 9 + nsize]).decode()
                out.append(dict(name=name, at=at, header=header, type=typ,
                                ref=(start << 16) | off, number=base + delta))
                at += 9 + nsize
        return out

    def entry(self, name, dir_ref=None):
        for e in self.readdir(self.sb("root_inode") if dir_ref is None else dir_ref):
            if e["name"] == name:
                return e
        raise KeyError(name)

    def inode(self, name, dir_ref=None):
        return self.inode_at(self.entry(name, dir_ref)["ref"])

    def table_entry(self, array_start, index, entry_size):
        """File offset of entry `index` of a lookup table (first block only)."""
        block = self.get(array_start, "<Q")
        return self.meta(block, 0, index * entry_size)


# Extended regular file inode field offsets (type 9); basic (type 2) below.
EXT_FILE = dict(blocks_start=(16, "<Q"), file_size=(24, "<Q"), fragment=(44, "<I"),
                frag_offset=(48, "<I"), xattr=(52, "<I"), blocks=56)
BASIC_FILE = dict(blocks_start=(16, "<I"), fragment=(20, "<I"), frag_offset=(24, "<I"),
                  file_size=(28, "<I"), blocks=32)


def file_fields(img, at):
    return EXT_FILE if img.get(at, "<H") == 9 else BASIC_FILE


class Corpus:
    def __init__(self, out):
        self.out = out
        self.manifest = []

    def add(self, name, img, *expectations):
        data = bytes(img.b) if isinstance(img, Img) else img
        with open(os.path.join(self.out, name + ".sqfs"), "wb") as f:
            f.write(data)
        for e in expectations:
            self.manifest.append("\t".join([name + ".sqfs"] + list(e)))

    def write_manifest(self, header):
        with open(os.path.join(self.out, "manifest.txt"), "w") as f:
            f.write(header)
            f.write("\n".join(self.manifest) + "\n")


def base_tree(root):
    os.makedirs(os.path.join(root, "ab", "c"))
    contents = {"a": pattern(1, 100), "big": pattern(2, 5000), "file": pattern(3, 6000),
                "linz": b"0123456789"}
    for name, data in contents.items():
        with open(os.path.join(root, name), "wb") as f:
            f.write(data)
    os.setxattr(os.path.join(root, "file"), "user.k", b"value")
    os.symlink("../canary/escaped", os.path.join(root, "link"))
    os.symlink("a", os.path.join(root, "sym"))
    return contents


def main():
    out = sys.argv[1]
    os.makedirs(out, exist_ok=True)
    for f in os.listdir(out):
        if f.endswith(".sqfs"):
            os.remove(os.path.join(out, f))
    work = tempfile.mkdtemp(dir="/dev/shm" if os.path.isdir("/dev/shm") else None)
    try:
        build(out, work)
    finally:
        shutil.rmtree(work)


def build(out, work):
    c = Corpus(out)
    tree = os.path.join(work, "tree")
    contents = base_tree(tree)
    # Data blocks compressed (small files), metadata and fragments raw.
    raw = ["-noI", "-noF", "-noX", "-b", "4K", "-always-use-fragments"]
    base = Img(mksquashfs(tree, os.path.join(work, "base.sqfs"), *raw))
    root = base.sb("root_inode")

    # --- must-accept: the untouched image, read back byte for byte. It has an
    # extended inode with a block list and a tail ("file"), tails in fragments,
    # and every table ends exactly where the next one's 2-byte header starts.
    c.add("must_accept_base", base, ("scan", "ok", ""),
          *[("read", "/" + n, "ok", fnv(d)) for n, d in contents.items()])

    # --- superblock and table counts.
    img = base.copy(); img.set_sb("id_count", 0)
    c.add("id_count_zero", img, ("open", "corruption", "id count is zero"))
    img = base.copy(); img.set_sb("id_count", 0xFFFF)
    c.add("id_count_huge", img, ("open", "corruption", "past the image end"))
    img = base.copy(); img.set_sb("inode_count", 0xFFFFFFFF)
    c.add("export_count_huge", img, ("open", "corruption", "export table"))
    img = base.copy(); img.set_sb("fragment_count", 0xFFFFFFFF)
    c.add("fragment_count_huge", img, ("open", "corruption", "fragment table"))
    img = base.copy(); img.put(base.sb("xattr_id_table_start") + 8, "<I", 0xFFFFFF1F)
    c.add("xattr_ids_cve_2023_52933", img, ("open", "corruption", "xattr id table"))
    img = base.copy(); img.set_sb("block_log", 13)
    c.add("block_log_mismatch", img, ("open", "corruption", "block_log"))
    img = base.copy(); img.set_sb("directory_table_start", base.sb("inode_table_start"))
    c.add("tables_out_of_order", img, ("open", "corruption", "directory table start"))

    # Lookup-table pointers: past the array, and non-increasing (two blocks).
    img = base.copy(); ids = base.sb("id_table_start")
    img.put(ids, "<Q", ids + 8)
    c.add("id_pointer_past_array", img, ("open", "corruption", "out of order or out of range"))
    img = base.copy(); img.set_sb("id_count", 2049)
    img.put(ids + 8, "<Q", base.get(ids, "<Q"))
    c.add("id_pointers_not_increasing", img, ("open", "corruption", "out of order or out of range"))
    img = base.copy(); xid = base.sb("xattr_id_table_start")
    img.put(xid, "<Q", xid + 4)
    c.add("xattr_kv_start_out_of_range", img, ("open", "corruption", "xattr key/value table start"))

    # Indices out of range.
    img = base.copy(); img.put(base.inode("a") + 4, "<H", 200)
    c.add("uid_index_out_of_range", img, ("scan", "corruption", "id index 200"))
    img = base.copy(); at = base.inode("file")
    img.put(at + EXT_FILE["xattr"][0], "<I", 1)
    c.add("xattr_index_out_of_range", img, ("scan", "corruption", "xattr id index 1"))
    img = base.copy(); at = base.inode("a")
    img.put(at + BASIC_FILE["fragment"][0], "<I", 1000)
    c.add("fragment_index_out_of_range", img, ("scan", "corruption", "fragment index 1000"),
          ("read", "/a", "corruption", "fragment index 1000"))
    img = base.copy(); xe = base.table_entry(xid + 16, 0, 16)
    img.put(xe + 8, "<I", 0xFFFFFFFF)
    c.add("xattr_pair_count_huge", img, ("scan", "corruption", "pairs"))
    img = base.copy(); img.put(xe, "<Q", 0xFFFF << 16)
    c.add("xattr_ref_out_of_range", img, ("scan", "corruption", "xattr reference out of range"))

    # --- metadata block lengths.
    ino = base.sb("inode_table_start")
    for name, header, msg in [("metadata_length_zero", 0x8000, "bad length"),
                              ("metadata_length_negative", 0xFFFF, "bad length"),
                              ("metadata_length_oversized", 0x7FFF, "bad length"),
                              ("metadata_length_past_table", 0x8000 | 8000, "runs past the end")]:
        img = base.copy(); img.put(ino, "<H", header)
        c.add(name, img, ("scan", "corruption", msg))

    # --- fragment and data block lengths.
    fe = base.table_entry(base.get(base.sb("fragment_table_start"), "<Q") and
                          base.sb("fragment_table_start"), 0, 16)
    img = base.copy(); img.put(fe + 8, "<I", 0xFFFFFFFF)
    c.add("fragment_length_negative", img, ("read", "/a", "corruption", "exceeds the block size"))
    img = base.copy(); img.put(fe + 8, "<I", (1 << 24) | 5000)
    c.add("fragment_length_oversized", img, ("read", "/a", "corruption", "exceeds the block size"))
    img = base.copy(); img.put(fe + 8, "<I", 0)
    c.add("fragment_length_zero", img, ("read", "/a", "corruption", "fragment block of size 0"))
    img = base.copy(); img.put(fe, "<Q", base.sb("bytes_used"))
    c.add("fragment_start_past_data", img, ("read", "/a", "corruption", "outside the data area"))
    big = base.inode("big")
    blist = big + BASIC_FILE["blocks"]
    img = base.copy(); img.put(blist, "<I", 0)
    c.add("data_block_zero_length_is_sparse", img,
          ("read", "/big", "ok", fnv(bytes(4096) + contents["big"][4096:])))
    img = base.copy(); img.put(blist, "<I", 1 << 24)
    c.add("data_block_zero_length_uncompressed", img,
          ("read", "/big", "corruption", "sparse block marked uncompressed"))
    img = base.copy(); img.put(blist, "<I", 0xFFFFFF)
    c.add("data_block_length_oversized", img, ("read", "/big", "corruption", "exceeds the block size"))
    img = base.copy(); img.put(big + BASIC_FILE["blocks_start"][0], "<I", 0xFFFFFF00)
    c.add("data_block_start_out_of_range", img, ("read", "/big", "corruption", "outside the data area"))

    # --- inodes.
    img = base.copy(); img.put(base.inode("a") + 12, "<I", 0)
    c.add("inode_number_zero", img, ("scan", "corruption", "inode number 0"))
    img = base.copy(); e = base.entry("a")
    img.put(e["at"] + 2, "<h", -base.get(e["header"] + 8, "<I"))
    c.add("dirent_inode_number_zero", img, ("scan", "corruption", "has inode number 0"))
    img = base.copy(); img.put(e["at"] + 2, "<h", 30000)
    c.add("dirent_inode_number_over_count", img, ("scan", "corruption", "has inode number"))
    img = base.copy(); at = base.inode("file")
    img.put(at + EXT_FILE["file_size"][0], "<Q", 1407374883553280)
    c.add("huge_file_size_with_fragment", img, ("scan", "corruption", "fragment but no tail"))
    img.put(at + EXT_FILE["fragment"][0], "<I", 0xFFFFFFFF)
    c.add("huge_file_size", img, ("scan", "corruption", "metadata block"))
    img = base.copy(); img.put(base.inode("sym") + 20, "<I", 3875536935)
    c.add("huge_symlink_size", img, ("scan", "corruption", "symlink target size 3875536935"))
    img = base.copy(); img.put(big + BASIC_FILE["file_size"][0], "<I", 4096)
    c.add("fragment_on_block_multiple", img, ("scan", "corruption", "fragment but no tail"))
    img = base.copy(); img.put(base.inode("a"), "<H", 15)
    c.add("inode_type_unknown", img, ("scan", "corruption", "inode type 15"))
    img = base.copy(); img.put(base.inode("a"), "<H", 6)
    c.add("inode_type_disagrees_with_entry", img, ("scan", "corruption", "directory entry says"))
    img = base.copy(); img.set_sb("root_inode", base.entry("a")["ref"])
    c.add("root_not_a_directory", img, ("scan", "corruption", "root inode is not a directory"))

    # --- directories.
    img = base.copy(); img.put(base.entry("a")["header"], "<I", 299)
    c.add("dir_header_count_over_256", img, ("scan", "corruption", "counts 300 entries"))
    img = base.copy(); img.put(base.entry("a")["at"] + 6, "<H", 299)
    c.add("dir_name_over_256", img, ("scan", "corruption", "name size 300"))
    for name, old, new in [("name_dot", "a", "."), ("name_dotdot", "ab", ".."),
                           ("name_with_slash", "big", "b/g"), ("name_nul", "a", "\0"),
                           ("name_absolute", "big", "/ab"), ("name_duplicate", "big", "sym")]:
        img = base.copy(); e = base.entry(old)
        img.b[e["at"] + 8:e["at"] + 8 + len(new)] = new.encode()
        msg = "duplicate name" if name == "name_duplicate" else "unsafe name"
        c.add(name, img, ("scan", "corruption", msg))
    # CVE-2021-41072: a symlink, then a same-named entry that would write
    # through it ("linz" renamed "link"; link -> ../canary/escaped).
    img = base.copy(); e = base.entry("linz")
    img.b[e["at"] + 8:e["at"] + 12] = b"link"
    c.add("symlink_then_same_name_cve_2021_41072", img, ("scan", "corruption", "duplicate name"))
    # A directory loop: ab/c points back at the root directory.
    ab = base.entry("ab")["ref"]
    img = base.copy(); e = base.entry("c", ab)
    img.put(e["header"] + 4, "<I", root >> 16)
    img.put(e["header"] + 8, "<I", base.get(base.inode_at(root) + 12, "<I"))
    img.put(e["at"], "<H", root & 0xFFFF)
    img.put(e["at"] + 2, "<h", 0)
    c.add("directory_loop", img, ("scan", "corruption", "directory loop"))
    img = base.copy(); img.put(base.inode_at(root) + 24, "<H", 2)
    c.add("dir_size_below_3", img, ("scan", "corruption", "directory size below 3"))
    img = base.copy(); img.put(base.inode_at(root) + 24, "<H", 0xFFFF)
    c.add("dir_size_overruns_table", img, ("scan", "corruption", ""))

    # --- truncation at table boundaries (bytes_used made to match).
    for table in ["inode_table_start", "directory_table_start", "fragment_table_start",
                  "export_table_start", "id_table_start", "xattr_id_table_start"]:
        cut = base.sb(table) + 4
        img = Img(base.b[:cut]); img.set_sb("bytes_used", cut)
        c.add("truncated_in_" + table.replace("_start", ""), img, ("open", "corruption", ""))
    img = Img(base.b[:-1])
    c.add("truncated_last_byte", img, ("open", "corruption", "exceeds the image size"))

    # --- symlink loops are data, not something a reader follows: must accept.
    loops = os.path.join(work, "loops")
    os.makedirs(loops)
    for src, dst in [("l1", "l2"), ("l2", "l1"), ("self", "self"), ("deep", "l1/x")]:
        os.symlink(dst, os.path.join(loops, src))
    img = Img(mksquashfs(loops, os.path.join(work, "loops.sqfs"), *raw))
    c.add("symlink_loops", img, ("scan", "ok", ""), ("lookup", "/l1", "ok", ""),
          ("lookup", "/l1/x", "not_found", ""))

    # --- compressed compressor-options block (header says compressed, the
    # bytes are not a zlib stream).
    opts = Img(mksquashfs(tree, os.path.join(work, "opts.sqfs"), "-noI", "-noF", "-noX",
                          "-comp", "gzip", "-Xcompression-level", "1"))
    assert opts.sb("flags") & 0x400, "expected a compressor options block"
    opts.put(96, "<H", opts.get(96, "<H") & 0x7FFF)
    c.add("compressed_compressor_options", opts, ("open", "corruption", "compressor options"))

    # --- decompression bomb: an incompressible 4K block replaced by a zlib
    # stream of 1 MiB of zeros.
    bombtree = os.path.join(work, "bomb")
    os.makedirs(bombtree)
    rnd = random.Random(7)
    with open(os.path.join(bombtree, "rand"), "wb") as f:
        f.write(bytes(rnd.randrange(256) for _ in range(4096)))
    bomb = Img(mksquashfs(bombtree, os.path.join(work, "bomb.sqfs"), "-noI", "-noF", "-noX",
                          "-b", "4K", "-no-fragments", "-comp", "gzip"))
    at = bomb.inode("rand")
    word = bomb.get(at + BASIC_FILE["blocks"], "<I")
    assert word == (1 << 24) | 4096, hex(word)
    z = zlib.compress(bytes(1 << 20), 9)
    start = bomb.get(at + BASIC_FILE["blocks_start"][0], "<I")
    bomb.b[start:start + len(z)] = z
    bomb.put(at + BASIC_FILE["blocks"], "<I", len(z))
    c.add("decompression_bomb", bomb, ("read", "/rand", "corruption", "past its limit"))

    c.write_manifest(HEADER)


HEADER = """# What squashlab's reader must do with each regression image; generated by
# fuzz/make_regression.py, checked by fuzz/regression_test.cc. Columns
# (tab-separated): FILE STAGE [PATH] CODE SUBSTRING.
"""

if __name__ == "__main__":
    main()
