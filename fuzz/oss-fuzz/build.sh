#!/bin/bash -eu
# SPDX-License-Identifier: GPL-2.0-only
# OSS-Fuzz build step (projects/squashlab/build.sh in google/oss-fuzz):
# fuzz/build.sh in the source tree does the work.
exec "$SRC/squashlab/fuzz/build.sh"
