# SPDX-License-Identifier: GPL-2.0-only
"""The fs/squashfs sources of a Debian linux-source-X.Y package, as an
external repository: the package's tarball is checked against dpkg's
checksum list and only fs/squashfs is extracted (once per output base;
Bazel keeps the result until the tarball changes)."""

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
    ctx.report_progress("extracting fs/squashfs from " + tarball)
    res = ctx.execute(
        ["tar", "-xJf", tarball, "--strip-components=1", pkg + "/fs/squashfs"],
        timeout = 600,
    )
    if res.return_code != 0:
        fail("extracting fs/squashfs from %s failed: %s" % (tarball, res.stderr))
    ctx.file("VERSION", ctx.execute(["dpkg-query", "-W", "-f=${Version}", pkg]).stdout + "\n")
    ctx.file("BUILD.bazel", """# Generated from the Debian package %s; nothing here is edited.
package(default_visibility = ["//visibility:public"])

filegroup(
    name = "squashfs",
    srcs = glob(["fs/squashfs/*.c", "fs/squashfs/*.h"]),
)

exports_files(glob(["fs/squashfs/*"]) + ["VERSION"])
""" % pkg)

linux_source = repository_rule(
    implementation = _linux_source_impl,
    attrs = {"version": attr.string(mandatory = True)},
    local = False,
)
