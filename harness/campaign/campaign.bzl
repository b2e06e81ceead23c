# SPDX-License-Identifier: GPL-2.0-only
"""campaign_test: one `squashlab campaign` as a sharded sh_test."""

def campaign_test(name, args, shard_count, size = "enormous", tags = None):
    """A campaign whose shards are Bazel test shards.

    Args:
      name: the target.
      args: `squashlab campaign` options (cells, bound, faults).
      shard_count: the parts; each searches subtrees of every cell.
      size: the test size (enormous: eternal timeout by default).
      tags: default ["manual", "campaign"]: not run by `bazel test //...`.
    """
    native.sh_test(
        name = name,
        size = size,
        srcs = ["run_part.sh"],
        args = args,
        data = ["//cli:squashlab"],
        shard_count = shard_count,
        tags = ["manual", "campaign"] if tags == None else tags,
    )
