#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# This file runs one shard of a campaign under `bazel test`: `squashlab
# campaign` with the target's arguments. The binary follows Bazel's test
# sharding protocol itself (TEST_SHARD_INDEX, TEST_TOTAL_SHARDS, it touches
# TEST_SHARD_STATUS_FILE) and writes its part's JSON to
# TEST_UNDECLARED_OUTPUTS_DIR (bazel-testlogs/.../test.outputs/outputs.zip),
# which `squashlab merge` combines.
set -euo pipefail
root="${TEST_SRCDIR:-}/squashlab"
bin="$root/cli/squashlab"
[[ -x "$bin" ]] || bin="${SQUASHLAB:-bazel-bin/cli/squashlab}"
exec "$bin" campaign "$@"
