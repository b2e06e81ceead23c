#!/usr/bin/env bash
# squashlab's main job. With no arguments: builds everything and shows what
# the reader sees in the embedded default image (the test tree packed by
# mksquashfs with zstd). With arguments: runs `squashlab ARGS...`.
set -euo pipefail
caller_dir=$(pwd)
cd "$(dirname "$0")"
source tools/install_deps.sh

bazel build //cli:squashlab //testdata:tree_zstd >&2
# The bazel-bin symlink follows the last build's configuration; ask instead.
bin=$(bazel info bazel-bin 2>/dev/null)
squashlab=$bin/cli/squashlab
if [ $# -gt 0 ]; then
  cd "$caller_dir"  # relative image paths are the caller's
  exec "$squashlab" "$@"
fi
image=$bin/testdata/tree_zstd.sqfs
echo "== squashlab info $image"
"$squashlab" info "$image"
echo
echo "== squashlab ls -l -R $image (first 40 lines)"
"$squashlab" ls -l -R "$image" | head -n 40
