#!/bin/bash -eu
# SPDX-License-Identifier: GPL-2.0-only
# ClusterFuzzLite's build step: fuzz/build.sh does the work (every target,
# its seed corpus zip and dictionary into $OUT).
exec "$SRC/squashlab/fuzz/build.sh"
