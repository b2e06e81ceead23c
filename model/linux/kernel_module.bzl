# SPDX-License-Identifier: GPL-2.0-only
"""A real fs/squashfs (from a linux_source repository) compiled, unmodified,
as C against the header layer into a shared object the explorer loads."""

load("//tools/build:copts.bzl", "KASAN_COPTS")

# The read path and everything it links against; xattr support is off
# (CONFIG_SQUASHFS_XATTR=n), the file cache is FILE_DIRECT (Debian's).
SQUASHFS_FILES = [
    "block.c",
    "cache.c",
    "decompressor.c",
    "dir.c",
    "export.c",
    "file.c",
    "file_direct.c",
    "fragment.c",
    "id.c",
    "inode.c",
    "lz4_wrapper.c",
    "lzo_wrapper.c",
    "namei.c",
    "page_actor.c",
    "super.c",
    "symlink.c",
    "xz_wrapper.c",
    "zlib_wrapper.c",
    "zstd_wrapper.c",
]

SQUASHFS_HEADERS = [
    "decompressor.h",
    "page_actor.h",
    "squashfs.h",
    "squashfs_fs.h",
    "squashfs_fs_i.h",
    "squashfs_fs_sb.h",
    "xattr.h",
]

COMMON_CONFIG = [
    "CONFIG_SQUASHFS_FILE_DIRECT",
    "CONFIG_SQUASHFS_ZLIB",
    "CONFIG_SQUASHFS_ZSTD",
    "CONFIG_SQUASHFS_LZ4",
    "CONFIG_SQUASHFS_LZO",
    "CONFIG_SQUASHFS_XZ",
    "CONFIG_SQUASHFS_FRAGMENT_CACHE_SIZE=3",
]

# The kernel's C dialect and the warnings it builds fs/ with that apply here.
KERNEL_COPTS = [
    "-std=gnu11",
    "-fexceptions",  # a report unwinds through kernel frames
    "-fno-strict-aliasing",
    "-fno-common",
    "-Wall",
    "-Wno-pointer-sign",
    "-Wno-unused-function",
    "-Wno-format",
    "-DKBUILD_MODNAME=\\\"squashfs\\\"",
]

# The decompressor strategies, by the CONFIG_SQUASHFS_DECOMP_* they build.
STRATEGY_FILES = {
    "SINGLE": "decompressor_single.c",
    "MULTI": "decompressor_multi.c",
    "MULTI_PERCPU": "decompressor_multi_percpu.c",
}

def kernel_module(name, repo, strategies, config = []):
    """strategies: the CONFIG_SQUASHFS_DECOMP_* suffixes compiled in."""
    files = SQUASHFS_FILES + [STRATEGY_FILES[s] for s in strategies]
    config = config + ["CONFIG_SQUASHFS_DECOMP_" + s for s in strategies]
    native.cc_binary(
        name = "lib%s.so" % name,
        linkshared = True,
        srcs = ["%s//:fs/squashfs/%s" % (repo, f) for f in files + SQUASHFS_HEADERS],
        # A KASAN kernel's compilation: every load and store is checked
        # against the slab arena's shadow (copts.bzl, model/kernel/kasan.cc).
        copts = KERNEL_COPTS + ["-D" + c for c in COMMON_CONFIG + config] +
                KASAN_COPTS,
        deps = [
            ":kernel_headers",
            "//third_party/system:lz4",
        ],
        visibility = ["//visibility:public"],
    )
