# SPDX-License-Identifier: GPL-2.0-only
"""A real fs/squashfs (from a linux_source repository) compiled, unmodified,
as C against the header layer into a shared object the explorer loads, with
the lib/ decompressors of the same package linked into it."""

load("//tools/build:copts.bzl", "KASAN_MODULE_COPTS", "UBSAN_MODULE_COPTS")

# The read path and everything it links against, with xattr support
# (CONFIG_SQUASHFS_XATTR=y) and the file cache FILE_DIRECT, as Debian
# builds it.
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
    "xattr.c",
    "xattr_id.c",
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
    "CONFIG_SQUASHFS_XATTR",
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
    "-fno-strict-overflow",
    "-fno-delete-null-pointer-checks",
    "-fno-common",
    "-D__KERNEL__",
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

# The x86-64 configuration the lib/ decompressors read (Debian's: every
# BCJ filter of xz, MicroLZMA for erofs).
DECOMPRESSOR_CONFIG = [
    "CONFIG_X86",
    "CONFIG_X86_64",
    "CONFIG_64BIT",
    "CONFIG_HAVE_EFFICIENT_UNALIGNED_ACCESS",
    "CONFIG_XZ_DEC_X86",
    "CONFIG_XZ_DEC_POWERPC",
    "CONFIG_XZ_DEC_IA64",
    "CONFIG_XZ_DEC_ARM",
    "CONFIG_XZ_DEC_ARMTHUMB",
    "CONFIG_XZ_DEC_ARM64",
    "CONFIG_XZ_DEC_SPARC",
    "CONFIG_XZ_DEC_RISCV",
    "CONFIG_XZ_DEC_MICROLZMA",
]

def _include_copts(repo):
    """The header layer first, then the package's include/linux headers of
    the decompressors (the layer's <linux/zlib.h> & co #include_next
    theirs). Plain -I, in this order: Bazel's `includes` would make them
    -isystem, searched after every -I and in no order of ours."""
    return [
        "-Imodel/linux/include",
        "-Iexternal/%s/include" % repo.lstrip("@"),
    ]

def kernel_decompressors(name, repo):
    """The lib/ decompressors fs/squashfs calls (zlib_inflate, xz, zstd,
    lz4, lzo, xxhash), from the package in `repo`, compiled unmodified as
    that kernel compiles them, instrumented as fs/squashfs is; linked into
    each module of that package (and into tests of the kernel's codecs)."""
    native.cc_library(
        name = name,
        srcs = [
            repo + "//:decompressors",
            repo + "//:decompressor_headers",
        ],
        copts = KERNEL_COPTS + _include_copts(repo) +
                ["-D" + c for c in DECOMPRESSOR_CONFIG] +
                ["-DSQUASHLAB_KERNEL_LIB"] + KASAN_MODULE_COPTS +
                UBSAN_MODULE_COPTS[repo],
        deps = [":kernel_headers"],
        linkstatic = True,
        alwayslink = True,
        visibility = ["//model/linux/tests:__pkg__"],
    )

def kernel_module(name, repo, strategies, config = []):
    """strategies: the CONFIG_SQUASHFS_DECOMP_* suffixes compiled in. The
    module links the decompressors of its package (kernel_decompressors
    named decompressors_<repo>), binds its own symbols to itself
    (-Bsymbolic: the kernel's ZSTD_*, LZ4_* and lzo1x_* are never the
    system libraries' of the executable) and carries the mem* functions of
    a KASAN kernel (squashlab/kasan_mem.c)."""
    files = SQUASHFS_FILES + [STRATEGY_FILES[s] for s in strategies]
    config = config + ["CONFIG_SQUASHFS_DECOMP_" + s for s in strategies]
    native.cc_binary(
        name = "lib%s.so" % name,
        linkshared = True,
        srcs = ["%s//:fs/squashfs/%s" % (repo, f) for f in files + SQUASHFS_HEADERS] + [
            repo + "//:decompressor_interfaces",
            "include/squashlab/kasan_mem.c",
        ],
        # A KASAN and UBSAN kernel's compilation: every load and store is
        # checked against the slab arena's shadow, every shift and array
        # index as the package's tree configures UBSAN (copts.bzl,
        # model/kernel/checkers/kasan.cc, model/kernel/checkers/ubsan.cc).
        copts = KERNEL_COPTS + _include_copts(repo) +
                ["-D" + c for c in COMMON_CONFIG + config] +
                KASAN_MODULE_COPTS + UBSAN_MODULE_COPTS[repo],
        linkopts = ["-Wl,-Bsymbolic"],
        deps = [
            ":decompressors_" + repo.lstrip("@"),
            ":kernel_headers",
        ],
        visibility = ["//visibility:public"],
    )
