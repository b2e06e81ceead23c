# SPDX-License-Identifier: GPL-2.0-only
"""The fs/squashfs sources of a Debian linux-source-X.Y package and the
lib/ decompressors they call, as an external repository: the package's
tarball is checked against dpkg's checksum list and only fs/squashfs, the
lib/ directories of the decompressors and their include/linux headers are
extracted, in one pass over the tarball (once per output base; Bazel keeps
the result until the tarball changes)."""

# What is extracted besides fs/squashfs: the decompressors fs/squashfs calls
# (lib/zlib_inflate, lib/xz, lib/zstd, lib/lz4, lib/lzo, and lib/xxhash.c,
# which zstd uses) and the headers of theirs that the header layer does not
# provide (include/linux/zconf.h is zlib.h's).
DECOMPRESSOR_DIRS = [
    "lib/zlib_inflate",
    "lib/xz",
    "lib/zstd",
    "lib/lz4",
    "lib/lzo",
    "lib/xxhash.c",
]

DECOMPRESSOR_HEADERS = [
    "include/linux/%s.h" % h
    for h in [
        "lz4",
        "lzo",
        "xxhash",
        "xz",
        "zconf",
        "zlib",
        "zstd",
        "zstd_errors",
        "zstd_lib",
        "zutil",
    ]
]

def _linux_source_impl(ctx):
    version = ctx.attr.version
    pkg = "linux-source-" + version
    tarball = "/usr/src/%s.tar.xz" % pkg
    md5sums = "/var/lib/dpkg/info/%s.md5sums" % pkg
    if not ctx.path(tarball).exists:
        fail("%s is not installed: run `apt-get install %s` (or ./test.sh, which installs it)" % (tarball, pkg))
    want = ""
    if ctx.path(md5sums).exists:
        for line in ctx.read(md5sums).splitlines():
            parts = [w for w in line.split(" ") if w]
            if len(parts) == 2 and parts[1] == tarball[1:]:
                want = parts[0]
    if not want:
        fail("%s: dpkg lists no checksum for %s; reinstall the package" % (md5sums, tarball))
    got = ctx.execute(["md5sum", tarball])
    if got.return_code != 0 or got.stdout.split(" ")[0] != want:
        fail("%s does not match the package's checksum: reinstall %s" % (tarball, pkg))
    ctx.report_progress("extracting fs/squashfs and lib/ decompressors from " + tarball)
    members = [pkg + "/" + m for m in ["fs/squashfs"] + DECOMPRESSOR_DIRS + DECOMPRESSOR_HEADERS]
    res = ctx.execute(
        ["tar", "-xJf", tarball, "--strip-components=1"] + members,
        timeout = 600,
    )
    if res.return_code != 0:
        fail("extracting fs/squashfs and the decompressors from %s failed: %s" % (tarball, res.stderr))
    ctx.file("VERSION", ctx.execute(["dpkg-query", "-W", "-f=${Version}", pkg]).stdout + "\n")
    ctx.file("BUILD.bazel", """# Generated from the Debian package %s; nothing here is edited.
package(default_visibility = ["//visibility:public"])

filegroup(
    name = "squashfs",
    srcs = glob(["fs/squashfs/*.c", "fs/squashfs/*.h"]),
)

# The C files Kbuild compiles for the decompressors fs/squashfs uses:
# CONFIG_ZLIB_INFLATE, CONFIG_XZ_DEC (+ BCJ), CONFIG_ZSTD_DECOMPRESS and
# CONFIG_ZSTD_COMMON (zstd_common_module.c exists from 6.2 on),
# CONFIG_LZ4_DECOMPRESS, CONFIG_LZO_DECOMPRESS and CONFIG_XXHASH.
filegroup(
    name = "decompressors",
    srcs = glob([
        "lib/zlib_inflate/*.c",
        "lib/xz/xz_dec_syms.c",
        "lib/xz/xz_dec_stream.c",
        "lib/xz/xz_dec_lzma2.c",
        "lib/xz/xz_dec_bcj.c",
        "lib/zstd/zstd_decompress_module.c",
        "lib/zstd/zstd_common_module.c",
        "lib/zstd/common/*.c",
        "lib/zstd/decompress/*.c",
        "lib/lz4/lz4_decompress.c",
        "lib/lzo/lzo1x_decompress_safe.c",
        "lib/xxhash.c",
    ]),
)

# Their private headers and the include/linux headers of their interfaces.
filegroup(
    name = "decompressor_headers",
    srcs = glob(["lib/**/*.h", "include/linux/*.h"]),
)

# The interfaces alone, for fs/squashfs (include/linux/zlib.h, ...).
filegroup(
    name = "decompressor_interfaces",
    srcs = glob(["include/linux/*.h"]),
)

exports_files(glob(["fs/squashfs/*", "lib/**", "include/**"]) + ["VERSION"])
""" % pkg)

linux_source = repository_rule(
    implementation = _linux_source_impl,
    attrs = {"version": attr.string(mandatory = True)},
    local = False,
)
