# SPDX-License-Identifier: GPL-2.0-only
"""squashfs_image: a genrule that packs testdata/make_tree.py's tree."""

def squashfs_image(name, options = []):
    native.genrule(
        name = name,
        srcs = [":make_tree.py"],
        outs = [name + ".sqfs"],
        tools = [":make_image.sh"],
        cmd = "$(location :make_image.sh) $(location :make_tree.py) $@ " + " ".join(options),
        tags = ["no-remote"],
    )
